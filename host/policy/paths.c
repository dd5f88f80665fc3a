/* SPDX-License-Identifier: MIT */
/* paths.c -- what rule 5 (resolve.c: a caller directory is absolute,
 * existing, a directory, resolved, and carries nothing a generated policy
 * cannot) and its walk (pathwalk.c) stand on: cleaning a path, rpaths, a
 * planted link refused, the links NOTE, and the "inside" question, which
 * the filesystem answers by device and inode.  Calls neither. */
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
#include "policy/pathwalk.h"

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

int
path_name_inside(const char *path, const char *dir)
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

size_t
path_ident_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IDENT_BUCKETS;
}

/* Free the identities cached for "inside" answers (paths_cache_reset). */
void
path_idents_reset(void)
{
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
	size_t h = path_ident_hash(p), n = strlen(p);
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
	if (path_name_inside(path, dir))
		return 1;
	if (ident_of(dir, &dev, &ino) != 0)
		return 0; /* nothing has an inode: the name is all there is */
	return inode_inside(path, dev, ino);
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
