/* SPDX-License-Identifier: MIT */
/* pathwalk.c -- the one walk per caller path (policy/paths.h path_walk):
 * each component opened O_NOFOLLOW below the one before, a link read and
 * spliced, the directories a build already walked kept open and continued
 * from. */
#include "policy/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/pathwalk.h"

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
	size_t h = path_ident_hash(path) % DIRS_SLOTS;

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

void
path_dirs_reset(void)
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
