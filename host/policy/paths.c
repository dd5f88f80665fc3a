/* SPDX-License-Identifier: MIT */
/* paths.c -- rule 5 (a caller directory is absolute, existing, a directory,
 * resolved, and carries nothing a generated policy cannot) and the "inside"
 * question, which the filesystem answers by device and inode. */
#include "policy/paths.h"
#include "policy/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"

/* The longest component a walk takes (NAME_MAX of Linux and macOS; a
 * Windows component is at most 255 UTF-16 units). */
#define PATH_NAME_MAX 255

/* Is p a root alone ("/"; Windows "C:/", "//server/share/")? */
static int
is_root(const char *p)
{
	size_t n = os_root_len(p);

	return n > 0 && p[n] == '\0';
}

int
path_bad_char(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			return 1;
	}
	return 0;
}

/* Push one component of a path being cleaned: "." is nothing, ".."
 * drops the last component (never above "/"). */
static int
clean_push(struct strv *parts, const char *s, size_t n)
{
	struct sbuf b = {0};
	int rc;

	if (n == 0 || (n == 1 && s[0] == '.'))
		return 0;
	if (n == 2 && s[0] == '.' && s[1] == '.') {
		if (parts->n > 0) {
			free(parts->v[--parts->n]);
			parts->v[parts->n] = NULL;
		}
		return 0;
	}
	if (sbuf_addn(&b, s, n) < 0)
		return -1;
	rc = strv_push(parts, b.s);
	sbuf_free(&b);
	return rc;
}

/* root (its separator included: "/", "C:/") and the parts after it. */
static char *
clean_join(const char *root, size_t rlen, const struct strv *parts)
{
	struct sbuf b = {0};

	if (sbuf_addn(&b, root, rlen) < 0) 
		return NULL;
	for (size_t i = 0; i < parts->n; i++)
		if ((i > 0 && sbuf_add(&b, "/") < 0) ||
		    sbuf_add(&b, parts->v[i]) < 0) {
			sbuf_free(&b);
			return NULL;
		}
	return sbuf_take(&b);
}

static int
clean_split(struct strv *parts, const char *p)
{
	while (*p) {
		size_t n = strcspn(p, "/");

		if (clean_push(parts, p, n) < 0)
			return -1;
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

char *
path_abs(const char *p)
{
	struct strv parts = {0};
	char *cwd = NULL, *out = NULL, *np = os_path_normal(p);
	const char *root;
	size_t rlen;

	if (np == NULL)
		return NULL;
	p = np;
	root = p;
	rlen = os_root_len(p);
	if (rlen == 0) {
		if ((cwd = os_cwd()) == NULL || (rlen = os_root_len(cwd)) == 0)
			goto out_free;
		root = cwd;
		if (clean_split(&parts, cwd + rlen) < 0)
			goto out_free;
	}
	if (clean_split(&parts, root == p ? p + rlen : p) < 0)
		goto out_free;
	out = clean_join(root, rlen, &parts);
out_free:
	free(np);
	free(cwd);
	strv_free(&parts);
	return out;
}

char *
path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	size_t rlen = os_root_len(p);
	struct sbuf b = {0};

	if (slash == NULL || (size_t)(slash - p) < rlen)
		return rlen ? str_ndup(p, rlen) : strdup("/");
	if (sbuf_addn(&b, p, (size_t)(slash - p)) < 0)
		return NULL;
	return sbuf_take(&b);
}

int
path_ancestors_add(struct strv *set, const char *p)
{
	char *d = path_dirname(p);
	int rc = 0;

	while (rc == 0 && d != NULL && !is_root(d) && strcmp(d, "/") != 0) {
		char *up;

		rc = strv_push(set, d);
		up = path_dirname(d);
		free(d);
		d = up;
	}
	if (d == NULL)
		rc = -1;
	free(d);
	return rc;
}

int
path_inside_any(const char *path, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n; i++)
		if (policy_inside(path, dirs->v[i]))
			return 1;
	return 0;
}

int
path_inside_list(const char *path, const char *const *dirs)
{
	for (; dirs != NULL && *dirs != NULL; dirs++)
		if (policy_inside(path, *dirs))
			return 1;
	return 0;
}

static int
prefix_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(path, dir) == 0)
		return 1;
	if (n == 0 || strncmp(path, dir, n) != 0)
		return 0;
	return dir[n - 1] == '/' || path[n] == '/';
}

/* ---- identities ---------------------------------------------------- */

/* A building policy asks "inside?" for every caller path against every
 * list, and each negative answer walks the path's ancestors by inode: with
 * many --read paths that is tens of stat(2) calls per path.  The policy is
 * built from one view of the filesystem, so each distinct name is stat'ed
 * once per build (paths_cache_reset() at the start of policy_build). */
struct ident {
	struct ident *next;
	uint64_t dev;
	uint64_t ino;
	int ok; /* stat succeeded */
	char name[];
};

#define IDENT_BUCKETS 1024
static struct ident *ident_tab[IDENT_BUCKETS];

static size_t
ident_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IDENT_BUCKETS;
}

static void dirs_reset(void);

void
paths_cache_reset(void)
{
	dirs_reset();
	for (size_t i = 0; i < IDENT_BUCKETS; i++) {
		while (ident_tab[i] != NULL) {
			struct ident *n = ident_tab[i]->next;

			free(ident_tab[i]);
			ident_tab[i] = n;
		}
	}
}

/* stat(p) through the cache: 0 with the device and inode set, or -1 when
 * p cannot be stat'ed.  Out of memory, it answers without caching. */
static int
ident_of(const char *p, uint64_t *dev, uint64_t *ino)
{
	size_t h = ident_hash(p), n = strlen(p);
	struct ident *e;
	struct os_stat st;

	for (e = ident_tab[h]; e != NULL; e = e->next)
		if (strcmp(e->name, p) == 0)
			break;
	if (e == NULL) {
		int ok = os_stat_path(p, &st) == 0;

		e = malloc(sizeof(*e) + n + 1);
		if (e == NULL) {
			if (!ok)
				return -1;
			*dev = st.dev;
			*ino = st.ino;
			return 0;
		}
		memcpy(e->name, p, n + 1);
		e->ok = ok;
		e->dev = ok ? st.dev : 0;
		e->ino = ok ? st.ino : 0;
		e->next = ident_tab[h];
		ident_tab[h] = e;
	}
	*dev = e->dev;
	*ino = e->ino;
	return e->ok ? 0 : -1;
}

/* Walk up from path itself: is path, or one of its existing ancestors,
 * the very directory (dev, ino)?  This holds for a symlinked spelling, a
 * case fold, a bind mount at a second name. */
static int
inode_inside(const char *path, uint64_t ddev, uint64_t dino)
{
	char *p = strdup(path);
	int hit = 0;

	while (p != NULL && !hit) {
		uint64_t dev;
		uint64_t ino;
		char *up;

		if (ident_of(p, &dev, &ino) == 0 && dev == ddev && ino == dino)
			hit = 1;
		if (is_root(p) || os_root_len(p) == 0)
			break;
		up = path_dirname(p);
		free(p);
		p = up;
	}
	free(p);
	return hit;
}

int
policy_inside(const char *path, const char *dir)
{
	uint64_t dev;
	uint64_t ino;

	if (path == NULL || dir == NULL)
		return 0;
	if (prefix_inside(path, dir))
		return 1;
	if (ident_of(dir, &dev, &ino) != 0)
		return 0; /* nothing has an inode: the name is all there is */
	return inode_inside(path, dev, ino);
}

/* ---- rule 5 ------------------------------------------------------- */

static int
refuse_typed(const char *flag, const char *reason, const char *p,
	     struct refusals *r)
{
	if (p == NULL || *p == '\0')
		return refusals_add(r, reason, "%s is empty: name an existing "
				    "directory by its absolute path", flag);
	if (strlen(p) >= OS_PATH_MAX)
		return refusals_add(r, reason, "%s %.64s... is longer than "
				    "PATH_MAX (%d bytes): name a shorter path",
				    flag, p, OS_PATH_MAX);
	if (path_bad_char(p))
		return refusals_add(r, reason, "%s %s holds a control "
				    "character, '\"' or '\\', which a generated "
				    "policy cannot carry: name a directory "
				    "without them", flag, p);
	return 1;
}

static int
refuse_relative(const char *flag, const char *reason, const char *p,
		struct refusals *r)
{
	char *abs = path_abs(p);
	int rc;

	rc = refusals_add(r, reason, "%s %s is relative: name it by its "
			  "absolute path, %s", flag, p,
			  abs ? abs : "(the working directory is unknown)");
	free(abs);
	return rc;
}

static int
refuse_unresolved(const char *flag, const char *reason, const char *p,
		  int err, struct refusals *r)
{
	if (err == ENOENT || err == ENOTDIR)
		return refusals_add(r, reason, "%s %s does not exist; none is "
				    "created: name an existing directory",
				    flag, p);
	return refusals_add(r, reason, "%s %s cannot be resolved (%s): name "
			    "an existing directory this user can reach",
			    flag, p, strerror(err));
}

/* ---- one resolution per path -------------------------------------- */

/* A link met while walking a caller path is refused when the user the
 * command runs as could have made or replaced it: any directory that user
 * can write could have been an earlier run's --write.  The owner of a
 * directory can always chmod it writable, so ownership alone counts; a
 * group- or other-writable directory counts unless it is sticky and the
 * link belongs to someone else (then only its owner, the directory's owner
 * or root can remove or rename it). */
const char *
path_plantable(uid_t uid, const struct os_stat *dir,
	       const struct os_stat *lnk)
{
	/* uid 0 owns nothing here: the command never runs as root (the wall
	 * refuses euid 0, and run builds its policy as the place's uid), so
	 * root's own links count as no user's. */
	if (uid != 0 && lnk->uid == uid)
		return "the link is owned by this user";
	if (uid != 0 && dir->uid == uid)
		return "its directory is owned by this user";
	if ((dir->mode & (S_IWGRP | S_IWOTH)) == 0)
		return NULL;
	if ((dir->mode & OS_S_ISVTX) != 0)
		return NULL; /* sticky, neither link nor dir ours */
	return "its directory is writable by group or others";
}

/* Could uid rename the entry (its status) out of or into the directory
 * dir?  The directory's owner can always make it writable; a group- or
 * other-writable directory lets anyone, unless it is sticky (then only
 * the entry's owner, the directory's owner or root). */
static int
renamable_in(uid_t uid, const struct os_stat *dir,
	     const struct os_stat *entry)
{
	if (uid != 0 && dir->uid == uid)
		return 1;
	if ((dir->mode & (S_IWGRP | S_IWOTH)) == 0)
		return 0;
	if ((dir->mode & OS_S_ISVTX) != 0)
		return uid != 0 && entry->uid == uid;
	return 1;
}

const char *
path_movable(uid_t uid, const struct os_stat *dirs, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (renamable_in(uid, &dirs[i], &dirs[i + 1]))
			return "its directory could have been moved to that "
			       "name: a directory on its path is this user's, "
			       "or writable by group or others and not sticky";
	return NULL;
}

void
path_fail_free(struct path_fail *f)
{
	free(f->link);
	free(f->target);
	free(f->venv);
	memset(f, 0, sizeof(*f));
}

void
rpath_close(struct rpath *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

void
rpath_free(struct rpath *r)
{
	rpath_close(r);
	if (r->dir_fd >= 0)
		close(r->dir_fd);
	free(r->up);
	free(r->path);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->dir_fd = -1;
}

int
rpath_dup(const struct rpath *r, struct rpath *out)
{
	memset(out, 0, sizeof(*out));
	out->dir_fd = -1;
	out->fd = r->fd < 0 ? -1 : os_fd_dup(r->fd);
	out->up = malloc((r->n_up ? r->n_up : 1) * sizeof(*out->up));
	out->path = strdup(r->path ? r->path : "");
	if ((r->fd >= 0 && out->fd < 0) || out->up == NULL ||
	    out->path == NULL) {
		rpath_free(out);
		return -1;
	}
	memcpy(out->up, r->up, r->n_up * sizeof(*out->up));
	out->n_up = r->n_up;
	out->id = r->id;
	out->mode = r->mode;
	return 0;
}

int
rpath_parent(struct rpath *x, struct rpath *out)
{
	struct os_stat st;

	memset(out, 0, sizeof(*out));
	out->fd = out->dir_fd = -1;
	if (x->n_up < 2 || x->dir_fd < 0 || os_fstat(x->dir_fd, &st) != 0)
		return 1;
	out->up = malloc((x->n_up - 1) * sizeof(*out->up));
	out->path = path_dirname(x->path);
	if (out->up == NULL || out->path == NULL) {
		rpath_free(out);
		return -1;
	}
	memcpy(out->up, x->up, (x->n_up - 1) * sizeof(*out->up));
	out->n_up = x->n_up - 1;
	out->id = out->up[out->n_up - 1];
	out->mode = (mode_t)st.mode;
	out->fd = x->dir_fd;
	x->dir_fd = -1;
	return 0;
}

int
rpaths_push(struct rpaths *s, struct rpath *r)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct rpath *v = realloc(s->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *r;
	memset(r, 0, sizeof(*r));
	r->fd = r->dir_fd = -1;
	return 0;
}

void
rpaths_free(struct rpaths *s)
{
	for (size_t i = 0; i < s->n; i++)
		rpath_free(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int
id_eq(const struct path_id *a, const struct path_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

int
rpath_same(const struct rpath *a, const struct rpath *b)
{
	return id_eq(&a->id, &b->id);
}

int
rpath_inside(const struct rpath *x, const struct rpath *d)
{
	for (size_t i = 0; i < x->n_up; i++)
		if (id_eq(&x->up[i], &d->id))
			return 1;
	return 0;
}

int
rpath_inside_any(const struct rpath *x, const struct rpaths *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		if (rpath_inside(x, &ds->v[i]))
			return 1;
	return 0;
}

/* The directories walked so far: fds, identities and names.  A borrowed
 * descriptor belongs to the build's kept directories and is never closed by
 * the walk. */
struct wstack {
	int *fd;
	struct path_id *id;
	char **name;
	unsigned char *borrowed;
	size_t n, cap;
};

static int
ws_grow(struct wstack *w)
{
	size_t cap = w->cap ? 2 * w->cap : 16;
	int *f = realloc(w->fd, cap * sizeof(*f));
	struct path_id *i = f ? realloc(w->id, cap * sizeof(*i)) : NULL;
	char **nm = i ? realloc(w->name, cap * sizeof(*nm)) : NULL;
	unsigned char *bo = nm ? realloc(w->borrowed, cap) : NULL;

	if (f != NULL)
		w->fd = f;
	if (i != NULL)
		w->id = i;
	if (nm != NULL)
		w->name = nm;
	if (bo == NULL)
		return -1;
	w->borrowed = bo;
	w->cap = cap;
	return 0;
}

static int
ws_push_id(struct wstack *w, int fd, struct path_id id, const char *name,
	   size_t len, int borrowed)
{
	if (w->n == w->cap && ws_grow(w) < 0)
		return -1;
	w->name[w->n] = str_ndup(name, len);
	if (w->name[w->n] == NULL)
		return -1;
	w->fd[w->n] = fd;
	w->id[w->n] = id;
	w->borrowed[w->n] = (unsigned char)borrowed;
	w->n++;
	return 0;
}

static int
ws_push(struct wstack *w, int fd, const struct os_stat *st, const char *name,
	size_t len)
{
	struct path_id id = {st->dev, st->ino};

	return ws_push_id(w, fd, id, name, len, 0);
}

static void
ws_pop(struct wstack *w)
{
	w->n--;
	if (!w->borrowed[w->n] && w->fd[w->n] >= 0)
		close(w->fd[w->n]);
	free(w->name[w->n]);
}

static void
ws_free(struct wstack *w)
{
	while (w->n > 0)
		ws_pop(w);
	free(w->fd);
	free(w->id);
	free(w->name);
	free(w->borrowed);
	memset(w, 0, sizeof(*w));
}

/* The directories this build already walked, kept open by the path they
 * were reached at (links resolved: "/usr/bin", never "/bin"): a later
 * caller path that passes through one continues from it instead of
 * walking from "/" again (many --read paths share their parents; the OS
 * roots share /usr behind their links; PATH repeats them).  They are the
 * directories this build already walked, so the identities are the same
 * ones the checks saw; a name that was a link is never kept, so each walk
 * that meets a link reads it.  paths_cache_reset closes them at the start
 * and the end of every build. */
#define DIRS_SLOTS 128 /* open addressing; at most DIRS_KEEP kept */
#define DIRS_KEEP 96

struct kept_dir {
	char *path; /* "" for "/" */
	int fd;
	struct path_id id;
};

static struct kept_dir g_dirs[DIRS_SLOTS];
static size_t g_ndirs;

static struct kept_dir *
dirs_slot(const char *path)
{
	size_t h = ident_hash(path) % DIRS_SLOTS;

	for (size_t k = 0; k < DIRS_SLOTS; k++) {
		struct kept_dir *d = &g_dirs[(h + k) % DIRS_SLOTS];

		if (d->path == NULL || strcmp(d->path, path) == 0)
			return d;
	}
	return NULL;
}

static const struct kept_dir *
dirs_find(const char *path)
{
	const struct kept_dir *d;

	if (g_ndirs == 0)
		return NULL;
	d = dirs_slot(path);
	return d != NULL && d->path != NULL ? d : NULL;
}

/* The path of the stack's first `upto` directories, plus name when given,
 * into buf ("" for "/" alone); -1 when it does not fit. */
static int
ws_key(const struct wstack *w, size_t upto, const char *name, size_t len,
       char *buf, size_t n)
{
	size_t o = upto > 0 ? strlen(w->name[0]) : 0;

	if (o + 1 > n)
		return -1;
	memcpy(buf, upto > 0 ? w->name[0] : "", o);
	buf[o] = '\0';
	for (size_t i = 1; i < upto; i++) {
		size_t l = strlen(w->name[i]);

		if (o + l + 2 > n)
			return -1;
		buf[o++] = '/';
		memcpy(buf + o, w->name[i], l);
		o += l;
	}
	if (name != NULL) {
		if (o + len + 2 > n)
			return -1;
		buf[o++] = '/';
		memcpy(buf + o, name, len);
		o += len;
	}
	buf[o] = '\0';
	return 0;
}

/* Keep the walk's directories below its top (the top is the caller's):
 * the kept table owns them from now on. */
static void
dirs_adopt(struct wstack *ws)
{
	char key[OS_PATH_MAX];

	for (size_t i = 0; i + 1 < ws->n && g_ndirs < DIRS_KEEP; i++) {
		struct kept_dir *d;

		if (ws->borrowed[i] || ws->fd[i] < 0 ||
		    ws_key(ws, i + 1, NULL, 0, key, sizeof(key)) != 0 ||
		    (d = dirs_slot(key)) == NULL || d->path != NULL ||
		    (d->path = strdup(key)) == NULL)
			continue;
		d->fd = ws->fd[i];
		d->id = ws->id[i];
		g_ndirs++;
		ws->borrowed[i] = 1; /* the table owns it now */
	}
}

static void
dirs_reset(void)
{
	for (size_t i = 0; i < DIRS_SLOTS; i++) {
		if (g_dirs[i].path == NULL)
			continue;
		free(g_dirs[i].path);
		close(g_dirs[i].fd);
		g_dirs[i].path = NULL;
	}
	g_ndirs = 0;
}

/* "/a/b" of the stack, plus name when given. */
static char *
ws_join(const struct wstack *w, const char *name, size_t len)
{
	struct sbuf b = {0};
	int rc = sbuf_add(&b, w->name[0]) < 0 ? -1 : 0;

	for (size_t i = 1; rc == 0 && i < w->n; i++)
		rc = sbuf_add(&b, "/") < 0 ? -1 : sbuf_add(&b, w->name[i]);
	if (rc == 0 && name != NULL)
		rc = sbuf_add(&b, "/") < 0 ? -1 : sbuf_addn(&b, name, len);
	if (rc == 0 && w->n == 1 && name == NULL)
		rc = sbuf_add(&b, "/");
	if (rc != 0) {
		sbuf_free(&b);
		return NULL;
	}
	return sbuf_take(&b);
}

/* The rest of the walk after a link: target + "/" + rest. */
static char *
link_splice(const char *target, const char *rest)
{
	struct sbuf b = {0};

	if (sbuf_add(&b, target) < 0 || (*rest && (sbuf_add(&b, "/") < 0 ||
						   sbuf_add(&b, rest) < 0))) {
		sbuf_free(&b);
		return NULL;
	}
	return sbuf_take(&b);
}

struct walk {
	struct wstack ws;
	char *todo;     /* what is left to walk (heap) */
	size_t pos;
	int nlinks;
	uid_t uid;
	unsigned flags;
	struct strv *links;
	struct path_fail *fail;
	struct os_stat last; /* the top's, when have_last */
	int have_last;
};

static int
walk_fail(struct walk *w, int err)
{
	w->fail->err = err;
	return 1;
}

/* Rule 5's other half: the link's directory, or one above it, may have
 * been moved to its name by the command's user (a root-owned tree renamed
 * inside a --write): then the link is as good as planted.  The statuses
 * of the directories walked, "/" first, the link's own (top) last. */
static const char *
walk_movable(const struct walk *w, const struct os_stat *top)
{
	struct os_stat st[64];
	size_t n = w->ws.n;

	if (n > sizeof(st) / sizeof(st[0]))
		return "its path is too deep to judge whether a directory "
		       "above it could have been moved there";
	for (size_t i = 0; i + 1 < n; i++)
		if (os_fstat(w->ws.fd[i], &st[i]) != 0)
			return "a directory above it could not be looked at";
	st[n - 1] = *top;
	return path_movable(w->uid, st, n);
}

/* Push the root of the absolute path p onto the empty stack: the one this
 * build keeps open, or opened now.  0, 1 (fail set), -1 out of memory. */
static int
walk_root(struct walk *w, const char *p)
{
	size_t rlen = os_root_len(p);
	char *name = rlen ? str_ndup(p, rlen - 1) : NULL;
	const struct kept_dir *root;
	struct os_stat st;
	int fd, rc = 0;

	if (rlen == 0)
		return walk_fail(w, EINVAL);
	if (name == NULL)
		return -1;
	if ((root = dirs_find(name)) != NULL) {
		rc = ws_push_id(&w->ws, root->fd, root->id, name, rlen - 1, 1);
	} else if ((fd = os_walk_root(p)) < 0) {
		rc = walk_fail(w, errno);
	} else if (os_fstat(fd, &st) != 0) {
		rc = walk_fail(w, errno);
		close(fd);
	} else if (ws_push(&w->ws, fd, &st, name, rlen - 1) < 0) {
		close(fd);
		rc = -1;
	}
	free(name);
	return rc;
}

/* The venv whose interpreter the link c[0..len) is, or NULL: the link
 * is python* in a directory bin whose parent holds a regular pyvenv.cfg,
 * asked of the walk's descriptor of that parent, never by name.  Heap;
 * NULL also when out of memory (the word is then left out). */
static char *
walk_venv(const struct walk *w, const char *c, size_t len)
{
	const struct wstack *ws = &w->ws;
	char key[OS_PATH_MAX];
	struct os_stat st;

	if (ws->n < 2 || strcmp(ws->name[ws->n - 1], "bin") != 0 ||
	    len < 6 || strncmp(c, "python", 6) != 0 ||
	    os_fstat_at(ws->fd[ws->n - 2], "pyvenv.cfg", &st) != 0 ||
	    !S_ISREG(st.mode) ||
	    ws_key(ws, ws->n - 1, NULL, 0, key, sizeof(key)) != 0)
		return NULL;
	return strdup(key);
}

/* A link: judge it, note it, and walk its target next.  0 to go on, 1 to
 * stop (fail set), -1 out of memory. */
static int
walk_link(struct walk *w, int fd, const struct os_stat *lst, const char *c,
	  size_t len)
{
	struct os_stat dst;
	const char *why = NULL;
	char *target = os_link_read(fd), *at, *rest;
	size_t rlen;
	int rc = -1;

	close(fd);
	if (target == NULL)
		return errno == ENOMEM ? -1 : walk_fail(w, errno);
	if (++w->nlinks > 40) {
		free(target);
		return walk_fail(w, ELOOP);
	}
	if (!(w->flags & PATH_TRUST_LINKS)) {
		if (os_fstat(w->ws.fd[w->ws.n - 1], &dst) != 0) {
			free(target);
			return walk_fail(w, errno);
		}
		why = path_plantable(w->uid, &dst, lst);
		if (why == NULL)
			why = walk_movable(w, &dst);
	}
	at = ws_join(&w->ws, c, len);
	if (at == NULL)
		goto out;
	if (why != NULL) {
		w->fail->link = at;
		w->fail->target = target;
		w->fail->why = why;
		w->fail->venv = walk_venv(w, c, len);
		return 1;
	}
	if (w->links != NULL && strv_pushf(w->links, "%s -> %s", at,
					   target) < 0)
		goto out;
	rlen = os_root_len(target);
	rest = link_splice(target + rlen, w->todo + w->pos);
	if (rest == NULL)
		goto out;
	free(w->todo);
	w->todo = rest;
	w->pos = 0;
	if (rlen > 0) {
		while (w->ws.n > 0)
			ws_pop(&w->ws);
		w->have_last = 0;
		rc = walk_root(w, target);
		goto out;
	}
	rc = 0;
out:
	free(at);
	free(target);
	return rc;
}

/* One component.  0 to go on, 1 to stop (fail set), -1 out of memory. */
static int
walk_one(struct walk *w, const char *c, size_t len)
{
	char name[PATH_NAME_MAX + 1];
	struct os_stat st;
	int fd;

	if (len == 0 || (len == 1 && c[0] == '.'))
		return 0;
	if (len == 2 && c[0] == '.' && c[1] == '.') {
		if (w->ws.n > 1)
			ws_pop(&w->ws);
		w->have_last = 0;
		return 0;
	}
	if (len > PATH_NAME_MAX)
		return walk_fail(w, ENAMETOOLONG);
	if (g_ndirs > 0) {
		char key[OS_PATH_MAX];
		const struct kept_dir *d;

		if (ws_key(&w->ws, w->ws.n, c, len, key, sizeof(key)) == 0 &&
		    (d = dirs_find(key)) != NULL) {
			if (ws_push_id(&w->ws, d->fd, d->id, c, len, 1) < 0)
				return -1;
			w->have_last = 0;
			return 0;
		}
	}
	memcpy(name, c, len);
	name[len] = '\0';
	fd = os_walk_at(w->ws.fd[w->ws.n - 1], name, 0);
	if (fd < 0)
		return walk_fail(w, errno);
	if (os_fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		return walk_fail(w, e);
	}
	if (OS_S_ISLNK(st.mode))
		return walk_link(w, fd, &st, c, len);
	if (!S_ISDIR(st.mode) && w->todo[w->pos + strspn(w->todo + w->pos,
							     "/")] != '\0') {
		close(fd);
		return walk_fail(w, ENOTDIR);
	}
	if (ws_push(&w->ws, fd, &st, c, len) < 0) {
		close(fd);
		return -1;
	}
	w->last = st;
	w->have_last = 1;
	return 0;
}

/* The path the kernel names the descriptor by now; the walked name when
 * /proc cannot say (a /proc of another PID namespace). */
static char *
read_back(const struct wstack *ws, int fd)
{
	char *real = os_fd_real_path(fd);

	return real != NULL ? real : ws_join(ws, NULL, 0);
}

/* Hand the top of the stack to out (a borrowed "/" as a copy). */
static int
walk_finish(struct walk *w, struct rpath *out)
{
	struct wstack *ws = &w->ws;
	struct os_stat st;
	int fd = ws->fd[ws->n - 1];

	if (w->have_last && !ws->borrowed[ws->n - 1])
		st = w->last;
	else if (os_fstat(fd, &st) != 0)
		return walk_fail(w, errno);
	if (st.nlink == 0)
		return walk_fail(w, ENOENT); /* removed while walked */
	if (ws->borrowed[ws->n - 1] &&
	    (fd = os_fd_dup(fd)) < 0)
		return walk_fail(w, errno);
	out->up = malloc(ws->n * sizeof(*out->up));
	out->path = (w->flags & PATH_READ_BACK) ? read_back(ws, fd)
						: ws_join(ws, NULL, 0);
	if ((w->flags & PATH_KEEP_DIR) && ws->n >= 2)
		out->dir_fd = os_fd_dup(ws->fd[ws->n - 2]);
	if (out->up == NULL || out->path == NULL ||
	    ((w->flags & PATH_KEEP_DIR) && ws->n >= 2 && out->dir_fd < 0)) {
		if (ws->borrowed[ws->n - 1])
			close(fd);
		rpath_free(out);
		return -1;
	}
	memcpy(out->up, ws->id, ws->n * sizeof(*out->up));
	out->n_up = ws->n;
	out->id = ws->id[ws->n - 1];
	out->mode = (mode_t)st.mode;
	out->fd = fd;
	if (!ws->borrowed[ws->n - 1])
		ws->fd[ws->n - 1] = -1; /* out owns it now */
	return 0;
}

static int
walk_path(const char *p, uid_t uid, unsigned flags, struct rpath *out,
	  struct strv *links, struct path_fail *fail)
{
	struct walk w = {.uid = uid, .flags = flags, .links = links,
			 .fail = fail};
	char *np = os_path_normal(p);
	int rc;

	memset(out, 0, sizeof(*out));
	out->fd = out->dir_fd = -1;
	memset(fail, 0, sizeof(*fail));
	if (np == NULL)
		return -1;
	rc = walk_root(&w, np);
	if (rc != 0) {
		free(np);
		ws_free(&w.ws);
		return rc;
	}
	if ((w.todo = strdup(np + os_root_len(np))) == NULL)
		rc = -1;
	free(np);
	while (rc == 0 && w.todo[w.pos] != '\0') {
		const char *c = w.todo + w.pos;
		size_t len = strcspn(c, "/");

		w.pos += len + (c[len] == '/');
		rc = walk_one(&w, c, len);
	}
	if (rc == 0)
		rc = walk_finish(&w, out);
	if (rc == 0)
		dirs_adopt(&w.ws);
	free(w.todo);
	ws_free(&w.ws);
	return rc;
}

int
path_walk(const char *p, uid_t uid, unsigned flags, struct rpath *out,
	  struct strv *links, struct path_fail *fail)
{
	int rc = walk_path(p, uid, flags, out, links, fail);

	/* a walk cut short for want of memory is no answer about the path:
	 * never "absent" (a skipped root, a home the guard passes over) */
	return rc == 1 && fail->err == ENOMEM ? -1 : rc;
}

/* ---- rule 5 on one caller path ------------------------------------ */

int
path_refuse_planted(const char *flag, const char *reason, const char *p,
	       const struct path_fail *f, struct refusals *r)
{
	char *real = os_real_path(p);
	int rc;

	if (flag[0] == '-') /* "name --<flag> <real>" is the remedy */
		rc = refusals_addr(r, reason, REMEDY_IN_TEXT,
				   "%s %s resolves through the "
				   "symlink %s -> %s, which the command's user "
				   "could have made or replaced (%s): a link the "
				   "command could have planted is never followed; "
				   "name %s %s", flag, p, f->link, f->target,
				   f->why, flag, real ? real : "<the real path>");
	else
		rc = refusals_add(r, reason, "%s %s resolves through the "
				  "symlink %s -> %s, which the command's user "
				  "could have made or replaced (%s): a link the "
				  "command could have planted is never followed; "
				  "name the real path, %s%s%s%s%s%s", flag, p,
				  f->link, f->target, f->why,
				  real ? real : "without the link",
				  f->venv ? ", which leaves the venv: this is "
				  "the interpreter of the venv " : "",
				  f->venv ? f->venv : "",
				  f->venv ? ": make the venv with python3 -m "
				  "venv --copies <dir> (its interpreter a copy, "
				  "not a link); python3 -m venv --copies "
				  "--clear " : "", f->venv ? f->venv : "",
				  f->venv ? " remakes this one (then install "
				  "its packages again)" : "");
	free(real);
	return rc;
}

static int
refuse_walked(const char *flag, const char *reason, const char *p,
	      unsigned flags, const struct rpath *rp, struct refusals *r)
{
	if (!(flags & PATH_ANY_TYPE) && !S_ISDIR(rp->mode))
		return refusals_add(r, reason, "%s %s is not a directory: name "
				    "an existing directory", flag, p);
	if (path_bad_char(rp->path))
		return refusals_add(r, reason, "%s %s resolves to %s, which "
				    "holds a control character, '\"' or '\\' a "
				    "generated policy cannot carry: name a "
				    "directory without them", flag, p, rp->path);
	return 1;
}

int
path_note_links(const char *flag, const char *p, const struct rpath *rp,
	   const struct strv *links, struct strv *notes)
{
	struct sbuf b = {0};
	int rc;

	if (links->n == 0 || notes == NULL)
		return 0;
	rc = sbuf_addf(&b, "%s %s resolves through the symlink%s ", flag, p,
		       links->n > 1 ? "s" : "");
	for (size_t i = 0; rc == 0 && i < links->n; i++)
		rc = sbuf_addf(&b, "%s%s", i ? ", " : "", links->v[i]);
	if (rc == 0)
		rc = sbuf_addf(&b, " (not one the command's user could have "
			       "made or replaced): the wall uses %s", rp->path);
	if (rc == 0)
		rc = strv_push(notes, b.s);
	sbuf_free(&b);
	return rc;
}

static int
resolve_normal(const char *flag, const char *reason, const char *p,
	       uid_t uid, unsigned flags, struct rpath *out,
	       struct strv *notes, struct refusals *r)
{
	struct strv links = {0};
	struct path_fail f;
	int rc;

	rc = refuse_typed(flag, reason, p, r);
	if (rc != 1)
		return rc < 0 ? -1 : 1;
	if (os_root_len(p) == 0)
		return refuse_relative(flag, reason, p, r) < 0 ? -1 : 1;
	rc = path_walk(p, uid, flags, out, &links, &f);
	if (rc == 1 && f.link != NULL)
		rc = path_refuse_planted(flag, reason, p, &f, r) < 0 ? -1 : 1;
	else if (rc == 1 && f.err == ENOMEM)
		rc = -1;
	else if (rc == 1)
		rc = refuse_unresolved(flag, reason, p, f.err, r) < 0 ? -1 : 1;
	path_fail_free(&f);
	if (rc == 0) {
		int ok = refuse_walked(flag, reason, p, flags, out, r);

		rc = ok == 1 ? path_note_links(flag, p, out, &links, notes)
			     : (ok < 0 ? -1 : 1);
	}
	if (rc != 0)
		rpath_free(out);
	strv_free(&links);
	return rc;
}

int
path_resolve(const char *flag, const char *reason, const char *p, uid_t uid,
	     unsigned flags, struct rpath *out, struct strv *notes,
	     struct refusals *r)
{
	/* in the host's spelling: a Windows caller's '\\' is '/' */
	char *np = os_path_normal(p);
	int rc;

	memset(out, 0, sizeof(*out));
	out->fd = out->dir_fd = -1;
	if (np == NULL)
		return -1;
	rc = resolve_normal(flag, reason, np, uid, flags, out, notes, r);
	free(np);
	return rc;
}

int
policy_resolve_dir(const char *flag, const char *reason, const char *p,
		   char **out, struct refusals *r)
{
	return policy_resolve_dir_noted(flag, reason, p, out, NULL, r);
}

int
policy_resolve_dir_noted(const char *flag, const char *reason, const char *p,
			 char **out, struct strv *notes, struct refusals *r)
{
	struct rpath rp;
	int rc = path_resolve(flag, reason, p, os_euid(), 0, &rp, notes, r);

	dirs_reset(); /* outside a build: keep no directory open */
	*out = NULL;
	if (rc == 0) {
		*out = rp.path;
		rp.path = NULL;
	}
	rpath_free(&rp);
	return rc;
}
