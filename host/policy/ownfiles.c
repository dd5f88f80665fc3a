/* SPDX-License-Identifier: MIT */
/* ownfiles.c -- refuse a wall whose write set reaches the tool's own files
 * (see ownfiles.h and docs/SPEC-SANDBOX.md §2 "The tool's own files"). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/ownfiles.h"

#include "os/os.h"

/* the longest component (Linux and macOS NAME_MAX; 255 UTF-16 units on
 * Windows) */
#define OWN_NAME_MAX 255
#define OWN_LINKS_MAX 40 /* links followed in one path, as the kernel */

struct wroot {
	uint64_t dev;
	uint64_t ino;
	const char *name;
};

struct chain {
	uint64_t dev[64];
	uint64_t ino[64];
	size_t n;
};

struct own {
	struct wroot *roots; /* every write root of the policy */
	size_t n_roots, cap_roots;
	uid_t uid;
	struct refusals *r;
	int nomem;
	uint64_t seen_dev[32]; /* elements already refused: one line each */
	uint64_t seen_ino[32];
	size_t n_seen;
	const char *what;   /* "binary", "module", ... */
	const char *path;   /* the own path being walked */
	const char *after;  /* what the command could do with it */
	const char *remedy; /* ... "<path>" */
	const char *remedy_for; /* this path's own remedy, or NULL */
	int state_refused;  /* the run-name directory refused for writes */
	const char *state;  /* the run-name directory (one lookup per check) */
	struct chain *chain_out; /* set: the walk leaves here the chain of the
				    deepest directory it reached */
	int chain_ok;       /* chain_out was filled from the walk */
	const struct cmdline *line; /* the caller's, for the fixed line */
	struct odir {       /* directories reached, by their walked path */
		char *path;
		int fd;
		struct os_stat st;
		int inside;
	} cache[96];
	size_t n_cache;
};

/* ---- the fixed line ------------------------------------------------- */

/* The word typed after `flag` in the caller's line that names the object
 * dev/ino (looked up by name for the remedy's text only: nothing is
 * decided on it), or NULL; *n counts the flag's words. */
static const char *
typed_root(const struct cmdline *c, const char *flag, uint64_t dev,
	   uint64_t ino, size_t *n)
{
	size_t fl = strlen(flag);
	const char *hit = NULL;
	struct os_stat st;

	*n = 0;
	for (size_t i = 0; c != NULL && c->args != NULL && i < c->n; i++) {
		const char *w = c->args[i], *v = NULL;

		if (strcmp(w, "--") == 0)
			break;
		if (strcmp(w, flag) == 0 && i + 1 < c->n)
			v = c->args[++i];
		else if (strncmp(w, flag, fl) == 0 && w[fl] == '=')
			v = w + fl + 1;
		if (v == NULL)
			continue;
		(*n)++;
		if (hit == NULL && os_stat_path(v, &st) == 0 && st.dev == dev &&
		    st.ino == ino)
			hit = v;
	}
	return hit;
}

/* The end of a wall_writable or names_reachable text: the caller's line
 * without the root (one of `flags`, NULL-ended) that reaches the tool's
 * file, or why no line can be given.  1 when a line was written (the
 * remedy is in the text), 0 when not, -1 on ENOMEM. */
static int
own_remedy(struct own *o, struct sbuf *s, const char *const *flags,
	   uint64_t dev, uint64_t ino)
{
	size_t n = 0;
	const char *v = NULL, *flag = flags[0];

	if (o->line == NULL || o->line->args == NULL)
		return 0;
	for (size_t i = 0; v == NULL && flags[i] != NULL; i++)
		if ((v = typed_root(o->line, flags[i], dev, ino, &n)) != NULL)
			flag = flags[i];
	if (v != NULL && (n > 1 || strcmp(flag, "--write") != 0)) {
		struct cmdfix f = { flag, v, NULL, NULL, 0 };

		return sbuf_add(s, "; or leave it out; run: ") < 0 ||
		       remedy_cmdline(s, o->line, &f) < 0 ? -1 : 1;
	}
	if (v != NULL)
		return sbuf_addf(s, "; no fixed command line can be given: "
				 "%s %s is the only --write and one is "
				 "required", flag, v) < 0 ? -1 : 0;
	return sbuf_addf(s, "; no fixed command line can be given: that "
			 "root is not one you named (the tool adds it)") < 0 ?
	       -1 : 0;
}

static const char *const only_write[] = { "--write", NULL };
static const char *const any_root[] = { "--read", "--read-noexec", "--write",
					NULL };

/* The write root st is, or -1. */
static int
root_index(const struct own *o, const struct os_stat *st)
{
	for (size_t i = 0; i < o->n_roots; i++)
		if (o->roots[i].dev == st->dev && o->roots[i].ino == st->ino)
			return (int)i;
	return -1;
}

/* One write root, judged on the descriptor rule 5's walk opened (the one
 * the Landlock rule is made from), never by its name again.  A root that
 * cannot be looked at stops the check: a root left out would let the
 * command reach what it was meant to guard. */
static int
add_root(struct own *o, const struct rpath *rp, struct refusals *r)
{
	struct os_stat st;

	if (rp->path == NULL)
		return 0;
	if (rp->fd < 0 || os_fstat(rp->fd, &st) != 0) {
		refusals_add(r, REASON_SANDBOX_FAILED, "cannot look at the write root "
			     "%s to keep the tool's own files out of it",
			     rp->path);
		return -1;
	}
	if (root_index(o, &st) >= 0)
		return 0;
	if (o->n_roots == o->cap_roots) {
		size_t cap = o->cap_roots ? 2 * o->cap_roots : 8;
		struct wroot *v = realloc(o->roots, cap * sizeof(*v));

		if (v == NULL) {
			o->nomem = 1;
			return -1;
		}
		o->roots = v;
		o->cap_roots = cap;
	}
	o->roots[o->n_roots].dev = st.dev;
	o->roots[o->n_roots].ino = st.ino;
	o->roots[o->n_roots].name = rp->path;
	o->n_roots++;
	return 0;
}

/* Every root the wall makes writable: --write, tmp, cwd. */
static int
add_roots(struct own *o, const struct policy *pol, struct refusals *r)
{
	for (size_t i = 0; i < pol->r_writes.n; i++)
		if (add_root(o, &pol->r_writes.v[i], r) < 0)
			return -1;
	if (add_root(o, &pol->r_tmp, r) < 0)
		return -1;
	return add_root(o, &pol->r_cwd, r);
}


/* Can the command's uid change this inode (name in dfd, or dfd itself
 * when name is "")?  Its owner can always (chmod is no Landlock right);
 * otherwise the kernel's answer for write. */
static int
modifiable(const struct own *o, int dfd, const char *name,
	   const struct os_stat *st)
{
	int may;

	if (st->uid == o->uid)
		return 1;
	if ((may = os_may_write_at(dfd, name)) >= 0)
		return may;
	return (st->mode & S_IWOTH) != 0 ||
	    ((st->mode & S_IWGRP) != 0 && os_in_group(st->gid));
}

/* The write root dfd is beneath (walking ".." to "/"), or -1. */
static int
inside_of(const struct own *o, int dfd)
{
	struct os_stat st, up;
	int cur = os_fd_dup(dfd), next, hit = -1;

	while (cur >= 0 && os_fstat(cur, &st) == 0 &&
	       (hit = root_index(o, &st)) < 0) {
		next = os_walk_parent(cur);
		close(cur);
		cur = next;
		if (cur < 0 || os_fstat(cur, &up) != 0 ||
		    (up.dev == st.dev && up.ino == st.ino))
			break;
	}
	if (cur >= 0)
		close(cur);
	return hit;
}

/* One refusal per element (el): "in" the write root, or (names > 1) a
 * file with other names on the root's filesystem. */
static int
refuse(struct own *o, const struct os_stat *el, const char *at, int root,
       unsigned long names)
{
	char how[96] = "";

	for (size_t i = 0; i < o->n_seen; i++)
		if (o->seen_dev[i] == el->dev && o->seen_ino[i] == el->ino)
			return 1;
	if (o->n_seen < sizeof(o->seen_dev) / sizeof(o->seen_dev[0])) {
		o->seen_dev[o->n_seen] = el->dev;
		o->seen_ino[o->n_seen++] = el->ino;
	}
	if (names > 1)
		snprintf(how, sizeof(how), ", which has %lu names: another may "
			 "be", names);
	{
		struct sbuf s = {0};
		int said = 0;

		if (sbuf_addf(&s, "the tool's own %s %s is within the wall's "
			      "reach: the command (uid %u) may change %s%s in "
			      "the write root %s, so %s; %s %s", o->what,
			      o->path, (unsigned)o->uid, at[0] ? at : "/", how,
			      o->roots[root].name, o->after, o->remedy,
			      o->path) < 0 ||
		    (said = own_remedy(o, &s, only_write, o->roots[root].dev,
				       o->roots[root].ino)) < 0 ||
		    refusals_addr(o->r, REASON_WALL_WRITABLE, said ?
				  REMEDY_IN_TEXT : NULL, "%s", s.s) < 0)
			o->nomem = 1;
		sbuf_free(&s);
	}
	return 1;
}

/* A name looked up in dir (child: the entry, NULL when absent): can the
 * command swap or plant it? */
static int
lookup_risky(const struct own *o, int dir, const struct os_stat *dst,
	     const struct os_stat *child)
{
	if (!modifiable(o, dir, "", dst))
		return 0;
	/* sticky: another's entry can be neither renamed nor removed */
	if ((dst->mode & OS_S_ISVTX) && dst->uid != o->uid &&
	    child != NULL && child->uid != o->uid)
		return 0;
	return 1;
}

/* The file reached: name in dir, its status st. */
static int
file_risky(struct own *o, int dir, const char *name, const struct os_stat *st,
	   int inside, const char *at)
{
	int same_dev = -1;

	for (size_t i = 0; i < o->n_roots && same_dev < 0; i++)
		if (o->roots[i].dev == st->dev)
			same_dev = (int)i;
	if (inside < 0 && (same_dev < 0 || !S_ISREG(st->mode) ||
			   st->nlink < 2))
		return 0;
	if (!modifiable(o, dir, name, st))
		return 0;
	if (inside >= 0)
		return refuse(o, st, at, inside, 1);
	return refuse(o, st, at, same_dev, st->nlink);
}

struct walk {
	int cur;           /* the directory reached */
	int own;           /* cur is ours to close (else the cache's) */
	struct os_stat st;    /* its status */
	int inside;        /* the write root it is beneath, or -1 */
	char at[OS_PATH_MAX]; /* its path as walked ("" for "/") */
	char *rest;        /* heap: what is left to resolve */
	char *p;           /* into rest */
	int links;
};

static const struct odir *
cache_find(const struct own *o, const char *path)
{
	for (size_t i = 0; i < o->n_cache; i++)
		if (strcmp(o->cache[i].path, path) == 0)
			return &o->cache[i];
	return NULL;
}

/* The cache takes the directory w is at (same instant, same walk: the
 * same path gives the same directory and the same answer). */
static void
cache_keep(struct own *o, struct walk *w)
{
	struct odir *d;

	if (!w->own || o->n_cache == sizeof(o->cache) / sizeof(o->cache[0]) ||
	    cache_find(o, w->at) != NULL)
		return;
	d = &o->cache[o->n_cache];
	d->path = strdup(w->at);
	if (d->path == NULL)
		return;
	d->fd = w->cur;
	d->st = w->st;
	d->inside = w->inside;
	o->n_cache++;
	w->own = 0;
}

static void
cache_free(struct own *o)
{
	for (size_t i = 0; i < o->n_cache; i++) {
		free(o->cache[i].path);
		close(o->cache[i].fd);
	}
	o->n_cache = 0;
}

static void
walk_set(struct walk *w, int fd, int own, const struct os_stat *st, int inside)
{
	if (w->own && w->cur >= 0)
		close(w->cur);
	w->cur = fd;
	w->own = own;
	w->st = *st;
	w->inside = inside;
}

/* Open dirfd/name as a directory (O_NOFOLLOW) and fstat it: the fd, or -1. */
static int
open_dir(int dirfd, const char *name, struct os_stat *st)
{
	int fd = os_walk_at(dirfd, name, 1);

	if (fd >= 0 && os_fstat(fd, st) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int
walk_reset(struct own *o, struct walk *w, const char *abs)
{
	const struct odir *d;
	struct os_stat st;
	size_t rlen = os_root_len(abs);
	int fd;

	/* the root's name without its separator: "" for "/", "C:" */
	if (rlen == 0 || rlen > sizeof(w->at))
		return -1;
	memcpy(w->at, abs, rlen - 1);
	w->at[rlen - 1] = '\0';
	if ((d = cache_find(o, w->at)) != NULL) {
		walk_set(w, d->fd, 0, &d->st, d->inside);
		return 0;
	}
	fd = os_walk_root(abs);
	if (fd >= 0 && os_fstat(fd, &st) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -1;
	walk_set(w, fd, 1, &st, root_index(o, &st));
	cache_keep(o, w);
	return 0;
}

/* The component just read was a link: rest = target + "/" + what follows. */
static int
walk_link(struct own *o, struct walk *w, const char *comp)
{
	char *target = os_link_read_at(w->cur, comp);
	size_t len, rlen;
	char *nr;
	int rc;

	if (target == NULL || target[0] == '\0' ||
	    ++w->links > OWN_LINKS_MAX) {
		free(target);
		return -1;
	}
	rlen = os_root_len(target);
	len = strlen(target) + 2 + strlen(w->p);
	nr = malloc(len);
	if (nr == NULL) {
		free(target);
		o->nomem = 1;
		return -1;
	}
	snprintf(nr, len, "%s/%s", target + rlen, w->p);
	free(w->rest);
	w->rest = w->p = nr;
	rc = rlen > 0 ? walk_reset(o, w, target) : 0;
	free(target);
	return rc;
}

static void
at_push(struct walk *w, const char *comp)
{
	size_t n = strlen(w->at);

	snprintf(w->at + n, sizeof(w->at) - n, "/%s", comp);
}

static int
walk_up(struct own *o, struct walk *w)
{
	char *slash = strrchr(w->at, '/');
	struct os_stat st;
	int fd = os_walk_parent(w->cur);

	if (fd >= 0 && os_fstat(fd, &st) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -1;
	if (slash != NULL)
		*slash = '\0';
	walk_set(w, fd, 1, &st, -1);
	w->inside = inside_of(o, w->cur);
	cache_keep(o, w);
	return 1;
}

/* Into the directory comp of w->cur, whose status (from fstatat) is cst. */
static int
walk_down(struct own *o, struct walk *w, const char *comp,
	  const struct os_stat *cst)
{
	struct os_stat st;
	int fd = open_dir(w->cur, comp, &st);

	if (fd < 0 || st.dev != cst->dev || st.ino != cst->ino) {
		if (fd >= 0)
			close(fd);
		return -1; /* changed under us: nothing more is known */
	}
	walk_set(w, fd, 1, &st, w->inside >= 0 ? w->inside :
		 root_index(o, &st));
	at_push(w, comp);
	cache_keep(o, w);
	return 1;
}

/* The next component of w->p into comp: 1, 0 at the end, -1 too long. */
static int
next_comp(struct walk *w, char *comp)
{
	size_t len;

	while (*w->p == '/')
		w->p++;
	if (*w->p == '\0')
		return 0;
	len = strcspn(w->p, "/");
	if (len > OWN_NAME_MAX)
		return -1;
	memcpy(comp, w->p, len);
	comp[len] = '\0';
	w->p += len;
	return 1;
}

/* One step: 1 go on, 0 stop (reached or absent), -1 stop (refused or
 * cannot be followed: then nothing more is known). */
static int
walk_step(struct own *o, struct walk *w, int *reached_file)
{
	char comp[OWN_NAME_MAX + 1], key[OS_PATH_MAX + OWN_NAME_MAX + 2];
	const struct odir *d;
	struct os_stat cst;
	int rc = next_comp(w, comp), have;

	if (rc <= 0)
		return rc;
	if (strcmp(comp, ".") == 0)
		return 1;
	if (strcmp(comp, "..") == 0)
		return walk_up(o, w);
	snprintf(key, sizeof(key), "%s/%s", w->at, comp);
	d = cache_find(o, key);
	have = d != NULL ||
	    os_fstat_at(w->cur, comp, &cst) == 0;
	if (d != NULL)
		cst = d->st;
	if (w->inside >= 0 &&
	    lookup_risky(o, w->cur, &w->st, have ? &cst : NULL))
		return refuse(o, &w->st, w->at, w->inside, 1), -1;
	if (!have)
		return 0; /* absent: the nearest existing directory decided */
	if (d != NULL) {
		walk_set(w, d->fd, 0, &d->st, d->inside);
		at_push(w, comp);
		return 1;
	}
	if (OS_S_ISLNK(cst.mode))
		return walk_link(o, w, comp) == 0 ? 1 : -1;
	if (S_ISDIR(cst.mode))
		return walk_down(o, w, comp, &cst);
	while (*w->p == '/')
		w->p++;
	if (*w->p == '\0') {
		*reached_file = 1;
		file_risky(o, w->cur, comp, &cst, w->inside, key);
	}
	return 0;
}

/* The chain of the directory the walk reached at `at` (its walked path,
 * which is its path by ".." too: the walk went down by names and up by
 * ".."), from the directories the walk keeps: no system call.  0, or -1
 * when one is not kept (then chain_of asks the kernel). */
static int
chain_from_walk(const struct own *o, const char *at, struct chain *c)
{
	char key[OS_PATH_MAX];
	size_t len = strlen(at);
	char *slash;

	if (len >= sizeof(key))
		return -1;
	memcpy(key, at, len + 1);
	c->n = 0;
	for (;;) {
		const struct odir *d = cache_find(o, key);

		if (d == NULL || c->n == sizeof(c->dev) / sizeof(c->dev[0]))
			return -1;
		c->dev[c->n] = d->st.dev;
		c->ino[c->n++] = d->st.ino;
		slash = strrchr(key, '/');
		if (slash == NULL)
			return 0; /* the root's name: "" for "/", "C:" */
		*slash = '\0';
	}
}

/* Walk one own path from "/".  dir: it is a directory the next run looks
 * names up in (a name can be planted there). */
static void
check_path(struct own *o, const char *what, const char *path, int dir,
	   const char *after)
{
	static const char install[] = "install nova-sandbox outside every "
		"--write, or name a --write that does not contain";
	struct walk w;
	int rc, file = 0;

	if (path == NULL || os_root_len(path) == 0)
		return;
	memset(&w, 0, sizeof(w));
	w.cur = -1;
	o->what = what;
	o->path = path;
	o->after = after;
	o->remedy = o->remedy_for ? o->remedy_for : install;
	w.rest = strdup(path + os_root_len(path));
	if (w.rest == NULL) {
		o->nomem = 1;
		return;
	}
	w.p = w.rest;
	if (walk_reset(o, &w, path) == 0) {
		while ((rc = walk_step(o, &w, &file)) > 0)
			;
		if (rc == 0 && dir && !file && *w.p == '\0' && w.inside >= 0 &&
		    modifiable(o, w.cur, "", &w.st))
			refuse(o, &w.st, w.at, w.inside, 1);
		/* stopped at the end or at an absent name: w.at is the
		 * deepest existing directory, as nearest_dir() finds it */
		if (rc == 0 && o->chain_out != NULL)
			o->chain_ok = chain_from_walk(o, w.at,
						      o->chain_out) == 0;
	}
	if (w.own && w.cur >= 0)
		close(w.cur);
	free(w.rest);
}

char *
ownfiles_state_dir(uid_t uid)
{
	char base[64];
	struct sbuf b = {0};
	struct os_stat sb;
	const char *home;

	if (uid == 0)
		snprintf(base, sizeof(base), "/run");
	else
		snprintf(base, sizeof(base), "/run/user/%u", (unsigned)uid);
	if (os_stat_path(base, &sb) == 0 && S_ISDIR(sb.mode) && sb.uid == uid &&
	    (sb.mode & 022) == 0) {
		sbuf_addf(&b, "%s/nova-sandbox", base);
		return sbuf_take(&b);
	}
	home = os_user_home((unsigned)uid);
	if (home != NULL)
		sbuf_addf(&b, "%s/.local/state/nova-sandbox", home);
	else
		sbuf_addf(&b, "%s/nova-sandbox", base);
	return sbuf_take(&b);
}

static int
lib_cb(void *data, const char *path)
{
	return strv_push((struct strv *)data, path) < 0 ? 1 : 0;
}

#define LOADS "the next run would load a replacement unwalled"

static void
check_modules(struct own *o, const struct config *cfg,
	      const struct strv *files)
{
	for (size_t i = 0; i < files->n; i++) {
		struct sbuf b = {0};
		const char *f = files->v[i];

		if (os_root_len(f) == 0 && sbuf_addf(&b, "%s/%s", cfg->moduledir ?
					     cfg->moduledir : ".", f) < 0) {
			o->nomem = 1;
			return;
		}
		check_path(o, "module", os_root_len(f) ? f : b.s, 0, LOADS);
		sbuf_free(&b);
	}
}

static void
check_all(struct own *o, const struct hostrun *hr, const struct config *cfg,
	  struct chain *chain)
{
	static const char sys[] = NS_SYSCONFDIR "/nova-sandbox/nova-sandbox.conf";
	struct strv libs = {0};
	size_t before;

	check_path(o, "binary", hr->exe, 0, LOADS);
	check_path(o, "config file", cfg->path ? cfg->path : sys, 0,
		   "the next run would read a replacement");
	for (size_t i = cfg->path ? 1 : 0; i < cfg->files.n; i++)
		check_path(o, "config drop-in", cfg->files.v[i], 0,
			   "the next run would read a replacement");
	check_path(o, "config drop-in directory", cfg->dropdir, 1,
		   "the next run would read a drop-in it adds");
	check_path(o, "module directory", cfg->moduledir, 1, LOADS);
	check_modules(o, cfg, &cfg->wall);
	check_modules(o, cfg, &cfg->place);
	check_modules(o, cfg, &cfg->egress);
	if (os_loaded_libs(lib_cb, &libs) != 0)
		o->nomem = 1;
	for (size_t i = 0; i < libs.n; i++)
		check_path(o, "shared library", libs.v[i], 0, LOADS);
	strv_free(&libs);
	o->remedy_for = "name a --write that does not contain";
	before = o->r->n;
	o->chain_out = chain;
	check_path(o, "run-name directory", o->state, 1,
		   "a walled command could hold the names of later runs");
	o->chain_out = NULL;
	o->state_refused = o->r->n != before;
	o->remedy_for = NULL;
}

/* ---- the run-name directory and the read set ---------------------
 *
 * Reading is enough to hold a name: a leftover lock file opened read-only
 * takes a read lock, and a run's write lock then fails.  So no root the
 * wall grants (read, read-noexec, fixed or optional, write) may reach the
 * run-name directory, or, while it does not exist yet, the nearest
 * directory of its path that does (a later run makes the rest there). */

/* The deepest existing directory of path, links followed (the wall binds
 * the inode a name reaches): an O_PATH descriptor, or -1. */
static int
nearest_dir(const char *path)
{
	char buf[OS_PATH_MAX];
	char *slash;
	size_t rlen;
	int fd;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -1;
	rlen = os_root_len(buf);
	if (rlen == 0)
		return -1;
	for (;;) {
		fd = os_open_dir(buf);
		if (fd >= 0)
			return fd;
		slash = strrchr(buf, '/');
		if (slash == NULL || (size_t)(slash - buf) < rlen)
			return os_walk_root(path);
		*slash = '\0';
	}
}

/* fd (taken) and every directory above it, by "..", to "/". */
static void
chain_of(int fd, struct chain *c)
{
	struct os_stat st, up;
	int next;

	c->n = 0;
	if (fd >= 0 && os_fstat(fd, &st) != 0) {
		close(fd);
		fd = -1;
	}
	/* one openat and one fstat per level: a level's status is the one
	 * taken when it was the parent */
	while (fd >= 0 && c->n < sizeof(c->dev) / sizeof(c->dev[0])) {
		c->dev[c->n] = st.dev;
		c->ino[c->n++] = st.ino;
		next = os_walk_parent(fd);
		close(fd);
		fd = next;
		if (fd < 0 || os_fstat(fd, &up) != 0 ||
		    (up.dev == st.dev && up.ino == st.ino))
			break;
		st = up;
	}
	if (fd >= 0)
		close(fd);
}

/* Is a rule's directory in the chain?  Judged on the rule's own
 * descriptor (rule 5) when the build has one, else opened by path. */
static int
in_chain(const struct chain *c, int rule_fd, const char *path)
{
	struct os_stat st;
	int fd = rule_fd >= 0 ? rule_fd :
		 os_open_dir(path), hit = 0;

	if (fd < 0)
		return 0; /* a file (a device): it holds no directory */
	if (os_fstat(fd, &st) == 0 && S_ISDIR(st.mode))
		for (size_t i = 0; i < c->n && !hit; i++)
			hit = c->dev[i] == st.dev && c->ino[i] == st.ino;
	if (fd != rule_fd)
		close(fd);
	return hit;
}

/* The same question for a rule the build walked: its identity and type
 * are the ones the walk's fstat of that descriptor gave (policy.h). */
static int
id_in_chain(const struct chain *c, const struct rule_id *id)
{
	for (size_t i = 0; S_ISDIR(id->mode) && i < c->n; i++)
		if (c->dev[i] == id->id.dev && c->ino[i] == id->id.ino)
			return 1;
	return 0;
}

/* names_reachable for the read root pol->rules[i]. */
static int
reach_refuse(struct own *o, const struct policy *pol, size_t i)
{
	struct sbuf s = {0};
	struct os_stat st;
	int said = 0, rc;

	rc = sbuf_addf(&s, "the tool's own run-name directory %s is within "
		       "the wall's reach: the command (uid %u) may read it "
		       "through the read root %s, so a walled command could "
		       "hold the names of later runs (a read lock on a lock "
		       "file a killed run left); name a --read that does not "
		       "contain %s, or create /run/user/%u (a directory of "
		       "uid %u, mode 0700) so that the names live there",
		       o->state, (unsigned)o->uid, pol->rules[i].path, o->state,
		       (unsigned)o->uid, (unsigned)o->uid);
	if (rc == 0 && pol->rule_ids != NULL)
		said = own_remedy(o, &s, any_root, pol->rule_ids[i].id.dev,
				  pol->rule_ids[i].id.ino);
	else if (rc == 0 && os_stat_path(pol->rules[i].path, &st) == 0)
		said = own_remedy(o, &s, any_root, st.dev, st.ino);
	if (rc < 0 || said < 0 ||
	    refusals_addr(o->r, REASON_NAMES_REACHABLE, said ? REMEDY_IN_TEXT :
			  NULL, "%s", s.s) < 0)
		rc = -1;
	sbuf_free(&s);
	return rc < 0 ? -1 : 0;
}

static void
check_state_reads(struct own *o, const struct policy *pol, struct chain *walked)
{
	const char *state = o->state;
	struct chain c;

	if (o->chain_ok)
		c = *walked;
	else
		chain_of(nearest_dir(state), &c);
	for (size_t i = 0; i < pol->n_rules; i++) {
		int rfd = pol->rule_fds != NULL ? pol->rule_fds[i] : -1;

		if (pol->rules[i].path == NULL ||
		    !(pol->rule_ids != NULL ? id_in_chain(&c, &pol->rule_ids[i])
					    : in_chain(&c, rfd, pol->rules[i].path)))
			continue;
		if (reach_refuse(o, pol, i) < 0)
			o->nomem = 1;
		break; /* one line: the directory is the one element */
	}
}

int
ownfiles_check(const struct hostrun *hr, const struct config *cfg,
	       struct policy *pol, const struct cmdline *line,
	       struct refusals *r)
{
	struct own o;
	struct chain chain;
	size_t before = r->n;
	char *state;

	memset(&o, 0, sizeof(o));
	o.uid = (uid_t)os_euid();
	o.r = r;
	o.line = line;
	/* A command is never walled as root: every wall refuses euid 0
	 * (sandbox_failed), run's keeper has dropped to its command's ids by
	 * now, and root could change every file of the machine anyway. */
	if (o.uid == 0)
		return 0;
	/* no run-name directory where no place keeps lock files there */
	state = os_run_name_locks() ? ownfiles_state_dir(o.uid) : NULL;
	o.state = state;
	if (state == NULL && os_run_name_locks())
		o.nomem = 1;
	else if (add_roots(&o, pol, r) == 0 && o.n_roots > 0)
		check_all(&o, hr, cfg, &chain);
	if (state != NULL && !o.state_refused)
		check_state_reads(&o, pol, &chain);
	free(state);
	cache_free(&o);
	free(o.roots);
	if (o.nomem)
		refusals_oom(r); /* one line, never a shorter list */
	if (r->n == before && !refusals_failed(r))
		return 0;
	if (pol->tmp_created)
		(void)policy_remove_tmp(pol); /* a refusal creates nothing */
	return refusals_failed(r) ? -1 : 1;
}
