/* SPDX-License-Identifier: MIT */
/* protect.c -- rule 5a: the protected paths inside the write roots (see
 * protect.h).  Every object is opened with os_walk_at (O_PATH, its last
 * component never followed) below a descriptor the policy already holds,
 * and decided on its fstat; a gitfile and a commondir are read from a
 * descriptor whose identity is compared with the one walked, at most
 * PROTECT_READ_MAX bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "policy/protect.h"

#include "base/out.h"
#include "base/reasons.h"
#include "base/remedy.h"
#include "os/os.h"

#define PROTECT_READ_MAX 4096u

struct pctx {
	const struct protect_src *src;
	struct protect *out;
	struct strv *notes;
	struct refusals *r;
};

static int
id_same(const struct path_id *a, const struct path_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

static int
ent_grow(struct protect *p)
{
	size_t cap = p->cap ? 2 * p->cap : 8;
	struct protect_ent *v;

	if (p->n < p->cap)
		return 0;
	if ((v = realloc(p->v, cap * sizeof(*v))) == NULL)
		return -1;
	p->v = v;
	p->cap = cap;
	return 0;
}

/* Take fd (an O_PATH descriptor of path's object) into the list, once per
 * identity.  0, or -1 (fd closed either way when not kept). */
static int
ent_add(struct pctx *c, int fd, const char *path, const char *why)
{
	struct os_stat st;
	struct protect_ent e = { NULL, fd, { 0, 0 }, 0, why };

	if (os_fstat(fd, &st) != 0)
		return close(fd), refusals_add(c->r, REASON_BAD_PROTECT,
					       "%s cannot be looked at: %s",
					       path, strerror(errno)) < 0 ? -1 : 0;
	e.id.dev = st.dev;
	e.id.ino = st.ino;
	e.mode = st.mode;
	for (size_t i = 0; i < c->out->n; i++)
		if (id_same(&c->out->v[i].id, &e.id))
			return close(fd), 0;
	if (ent_grow(c->out) < 0 || (e.path = str_fmt("%s", path)) == NULL)
		return close(fd), -1;
	c->out->v[c->out->n++] = e;
	return 0;
}

/* dir + "/" + name ("/" alone as dir gives "/name"). */
static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return str_fmt("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* The first line of the regular file name in dirfd (at most
 * PROTECT_READ_MAX bytes), when it is the object want says (identity):
 * heap, or NULL (absent, not a regular file, changed; *oom on ENOMEM). */
static char *
read_line_at(int dirfd, const char *name, const struct path_id *want,
	     int *oom)
{
	char buf[PROTECT_READ_MAX + 1];
	struct os_stat st;
	size_t n = 0;
	ssize_t k = 1;
	int fd = os_open_read_at(dirfd, name, 0);

	if (fd < 0)
		return NULL;
	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) ||
	    (want != NULL && (st.dev != want->dev || st.ino != want->ino))) {
		close(fd);
		return NULL;
	}
	while (n < PROTECT_READ_MAX && k > 0)
		if ((k = read(fd, buf + n, PROTECT_READ_MAX - n)) > 0)
			n += (size_t)k;
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	{
		char *s = str_fmt("%s", buf);

		*oom = s == NULL;
		return s;
	}
}

/* The next component of p at *at (skipping separators) into comp: its
 * length, 0 at the end, -1 when it is too long. */
static long
next_comp(const char *p, size_t *at, char *comp, size_t cap)
{
	size_t k;

	*at += strspn(p + *at, "/");
	if ((k = strcspn(p + *at, "/")) == 0)
		return 0;
	if (k >= cap)
		return -1;
	memcpy(comp, p + *at, k);
	comp[k] = '\0';
	*at += k;
	return (long)k;
}

/* The --write root that holds the absolute path p by name (the longest;
 * every root's name was read back from its descriptor), or NULL. */
static const struct rpath *
root_of(const struct pctx *c, const char *p)
{
	const struct rpath *best = NULL;

	for (size_t i = 0; i < c->src->writes->n; i++) {
		const struct rpath *w = &c->src->writes->v[i];
		size_t n = strlen(w->path);

		if (strncmp(p, w->path, n) != 0 ||
		    (p[n] != '/' && p[n] != '\0' && strcmp(w->path, "/") != 0))
			continue;
		if (best == NULL || n > strlen(best->path))
			best = w;
	}
	return best;
}

/* Open the directory p below the descriptor cur (its name's first at
 * characters), component by component, no link followed; cur is closed.
 * The descriptor, or -1 with errno (ENOTDIR/ELOOP: a link or not a
 * directory on the way). */
static int
walk_from(int cur, const char *p, size_t at)
{
	char comp[256];
	long k;
	int next;

	while (cur >= 0 && (k = next_comp(p, &at, comp, sizeof(comp))) != 0) {
		if (k < 0) {
			close(cur);
			return errno = ENAMETOOLONG, -1;
		}
		next = os_walk_at(cur, comp, 1);
		close(cur);
		cur = next;
	}
	return cur;
}

/* The directory p: below its --write root w, else from the system's root
 * (outside every --write: the command cannot change the way there). */
static int
walk_to(const struct rpath *w, const char *p)
{
	if (w != NULL)
		return walk_from(os_fd_dup(w->fd), p, strlen(w->path));
	return walk_from(os_walk_root(p), p, os_root_len(p));
}

/* Does the path text t climb (a ".." component) after a name?  Git writes
 * only absolute clean paths and relative ones whose ".." all lead; a name
 * before a ".." could be made a link after the policy looked. */
static int
climbs_late(const char *t)
{
	size_t at = 0;
	char comp[256];
	long k;
	int named = 0;

	while ((k = next_comp(t, &at, comp, sizeof(comp))) != 0) {
		if (k < 0 || (named && strcmp(comp, "..") == 0))
			return 1;
		named |= strcmp(comp, ".") != 0 && strcmp(comp, "..") != 0;
	}
	return 0;
}

/* Was the protected .git top lifted by an --unprotect of its name?  Then
 * what it names is not followed (and not refused). */
static int
lifted(const struct pctx *c, const char *top)
{
	int hit = 0;

	for (size_t i = 0; !hit && i < c->src->unprotect->n; i++) {
		char *a = os_is_absolute(c->src->unprotect->v[i]) ?
			  path_abs(c->src->unprotect->v[i]) : NULL;

		hit = a != NULL && strcmp(a, top) == 0;
		free(a);
	}
	return hit;
}

/* What one file of a chain of git files names (top: the protected .git
 * the chain starts at, the remedy's --unprotect). */
struct named {
	const char *top;  /* the .git whose --unprotect lifts it */
	const char *from; /* the file that names it */
	const char *text; /* what the file says */
	const char *why;  /* "gitdir", "commondir" */
};

static int
refuse_named(struct pctx *c, const struct named *n, const char *what)
{
	struct cmdfix fx = { NULL, NULL, n->top, "--unprotect", 0 };

	if (lifted(c, n->top))
		return 0;
	return remedy_refuse(c->r, REASON_BAD_PROTECT, REMEDY_IN_TEXT,
			     &c->src->line, &fx, "%s names the %s %s, which "
			     "%s; lift that protection only knowingly", n->from,
			     n->why, n->text, what) < 0 ? -1 : 0;
}

/* The gitdir (or commondir) p that n names: protected when it lies under
 * a --write root.  *dfd gets a descriptor of it (the caller's to close),
 * also outside every --write (to read what it names in turn), or -1.
 * 0, or -1 on ENOMEM. */
static int
gitdir_at(struct pctx *c, const char *p, const struct named *n, int *dfd)
{
	const struct rpath *w = root_of(c, p);
	int fd, keep;

	*dfd = -1;
	if (climbs_late(n->text))
		return refuse_named(c, n, "climbs (..) after a name: a "
				    "name on that way could be made a link "
				    "after the wall looked, so it cannot be "
				    "protected");
	if ((fd = walk_to(w, p)) < 0 && w == NULL)
		return 0; /* outside every --write: already not writable */
	if (fd < 0 && errno == ENOENT)
		return strv_pushf(c->notes, "%s names the %s %s, which does "
				  "not exist: nothing is protected there, and "
				  "the command could make it (spec rule 5a, "
				  "Gaps)", n->from, n->why, p);
	if (fd < 0)
		return refuse_named(c, n, "cannot be protected: it is "
				    "reached through a symbolic link or is "
				    "not a directory");
	*dfd = fd;
	if (w == NULL)
		return 0;
	if ((keep = os_fd_dup(fd)) < 0)
		return -1;
	return ent_add(c, keep, p, n->why);
}

/* A gitfile's "gitdir: <dir>" (or a commondir's <dir>) relative to the
 * directory dirpath, cleaned; heap, or NULL (*oom on ENOMEM). */
static char *
named_dir(const char *dirpath, const char *line, const char *lead, int *oom)
{
	size_t n = strlen(lead);
	char *j, *p;

	*oom = 0;
	if (lead[0] != '\0' && strncmp(line, lead, n) != 0)
		return NULL;
	line += n;
	if (*line == '\0')
		return NULL;
	j = os_is_absolute(line) ? str_fmt("%s", line) : join(dirpath, line);
	p = j != NULL ? path_abs(j) : NULL;
	free(j);
	*oom = p == NULL;
	return p;
}

/* The directory the first line of the file name in dirfd (dirpath/name,
 * of identity id when not NULL) names after lead: protected when under a
 * --write, its descriptor into *dfd (or -1) and its name into *dp (heap
 * or NULL).  0, or -1. */
static int
follow_file(struct pctx *c, int dirfd, const char *dirpath,
	    const char *name, const struct path_id *id, const char *lead,
	    const char *why, const char *top, int *dfd, char **dp)
{
	int oom = 0, rc;
	char *line = read_line_at(dirfd, name, id, &oom);
	char *d = line ? named_dir(dirpath, line, lead, &oom) : NULL;
	char *from = d ? join(dirpath, name) : NULL;

	*dfd = -1;
	*dp = NULL;
	rc = oom || (d && from == NULL) ? -1 : 0;
	if (rc == 0 && d != NULL)
		rc = gitdir_at(c, d, &(struct named){ top, from,
						      line + strlen(lead),
						      why }, dfd);
	free(line);
	free(from);
	if (rc == 0 && *dfd >= 0)
		*dp = d, d = NULL;
	free(d);
	return rc;
}

#define PROTECT_WORKTREES_MAX 64

struct wtscan {
	struct pctx *c;
	int wtfd;
	const char *wtpath;
	unsigned seen;
	int rc;
};

static int
is_regular(int fd)
{
	struct os_stat st;

	return os_fstat(fd, &st) == 0 && S_ISREG(st.mode);
}

/* One worktrees/<name>/gitdir: the worktree's gitfile, protected when it
 * lies under a --write root; a broken entry is skipped. */
static int
worktree_one(void *arg, const char *name)
{
	struct wtscan *s = arg;
	int oom = 0, efd, dfd, gfd;
	char *line, *dir;
	const char *slash;

	if (s->seen++ >= PROTECT_WORKTREES_MAX)
		return 1;
	if ((efd = os_walk_at(s->wtfd, name, 1)) < 0)
		return 0;
	line = read_line_at(efd, "gitdir", NULL, &oom);
	close(efd);
	if (oom)
		return s->rc = -1;
	slash = line ? strrchr(line, '/') : NULL;
	if (line == NULL || !os_is_absolute(line) || climbs_late(line) ||
	    slash == NULL || strcmp(slash, "/.git") != 0 ||
	    root_of(s->c, line) == NULL)
		return free(line), 0;
	dir = str_fmt("%.*s", (int)(slash - line), line);
	dfd = dir && root_of(s->c, dir) ? walk_to(root_of(s->c, dir), dir) : -1;
	gfd = dfd >= 0 ? os_walk_at(dfd, ".git", 0) : -1;
	if (gfd >= 0 && !is_regular(gfd))
		close(gfd), gfd = -1; /* git makes a gitfile there: skipped */
	if (gfd >= 0 && ent_add(s->c, gfd, line, "worktree") < 0)
		s->rc = -1;
	if (dfd >= 0)
		close(dfd);
	free(dir);
	free(line);
	return s->rc;
}

/* A git directory (fd open on path) and what it names: its commondir
 * (when it has one) protected when under a --write, and every linked
 * worktree's gitfile the common directory lists, under a --write.  The
 * one rule for a default .git directory, a gitfile's gitdir and a
 * --protect'ed git path.  0, or -1. */
static int
gitdir_named(struct pctx *c, int fd, const char *path, const char *top)
{
	int cfd = -1, rc;
	char *cpath = NULL;
	struct wtscan s = { c, -1, NULL, 0, 0 };

	rc = follow_file(c, fd, path, "commondir", NULL, "", "commondir", top,
			 &cfd, &cpath);
	if (rc == 0)
		s.wtfd = os_walk_at(cfd >= 0 ? cfd : fd, "worktrees", 1);
	if (s.wtfd >= 0) {
		int lfd = os_dir_reopen(s.wtfd);

		if (lfd >= 0 && os_dir_names(lfd, NULL, worktree_one, &s) < 0 &&
		    errno == ENOMEM)
			s.rc = -1;
		if (lfd >= 0)
			close(lfd);
		close(s.wtfd);
		rc = s.rc < 0 ? -1 : 0;
	}
	if (cfd >= 0)
		close(cfd);
	free(cpath);
	return rc;
}

/* The gitfile dirpath/.git (identity id): its gitdir and what that
 * names.  0, or -1. */
static int
gitfile(struct pctx *c, int dirfd, const char *dirpath,
	const struct path_id *id, const char *top)
{
	int gfd = -1, rc;
	char *gd = NULL;

	rc = follow_file(c, dirfd, dirpath, ".git", id, "gitdir: ", "gitdir",
			 top, &gfd, &gd);
	if (rc == 0 && gfd >= 0)
		rc = gitdir_named(c, gfd, gd, top);
	if (gfd >= 0)
		close(gfd);
	free(gd);
	return rc;
}

/* A protected git path (fd, path; dirfd open on its directory dirpath):
 * a gitfile's gitdir, a git directory's commondir and worktrees. */
static int
git_named(struct pctx *c, int dirfd, const char *dirpath, int fd,
	  const char *path)
{
	struct os_stat st;

	if (os_fstat(fd, &st) != 0)
		return 0;
	if (S_ISREG(st.mode))
		return gitfile(c, dirfd, dirpath,
			       &(struct path_id){ st.dev, st.ino }, path);
	return S_ISDIR(st.mode) ? gitdir_named(c, fd, path, path) : 0;
}

static int below(const char *path, const char *d);

/* ---- the directories the command could make a repository ---------- */

/* The names whose appearance makes a directory a repository git trusts:
 * a .git, or the bare shape (HEAD, objects/, refs/) and what comes with
 * it.  A bit each, in this order. */
static const char *const git_names[] = {
	".git", "HEAD", "objects", "refs", "config", "hooks", "info",
	"packed-refs", "commondir",
};
#define GIT_NAMES (sizeof(git_names) / sizeof(git_names[0]))
#define BARE_SHAPE 0xeu /* HEAD, objects, refs */

static unsigned
names_present(int fd, struct path_id *git)
{
	struct os_stat st;
	unsigned have = 0;

	for (size_t i = 0; i < GIT_NAMES; i++) {
		if (os_fstat_at(fd, git_names[i], &st) != 0)
			continue;
		have |= 1u << i;
		if (i == 0 && git != NULL)
			*git = (struct path_id){ st.dev, st.ino };
	}
	return have;
}

/* Keep a descriptor of the directory dirfd (dirpath), once. */
static int
watch_add(struct protect *p, int dirfd, const char *dirpath)
{
	struct protect_watch e = { -1, NULL, 0, { 0, 0 } };

	for (size_t i = 0; i < p->wn; i++)
		if (strcmp(p->w[i].path, dirpath) == 0)
			return 0;
	if (p->wn == p->wcap) {
		size_t cap = p->wcap ? 2 * p->wcap : 8;
		struct protect_watch *v = realloc(p->w, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		p->w = v;
		p->wcap = cap;
	}
	if ((e.fd = os_fd_dup(dirfd)) < 0)
		return 0; /* not watched: the NOTE is a courtesy */
	if ((e.path = str_fmt("%s", dirpath)) == NULL)
		return close(e.fd), -1;
	e.before = names_present(e.fd, &e.git);
	p->w[p->wn++] = e;
	return 0;
}

/* "rm -rf '<dir>/<name>' …" of the names made (new), into b. */
static void
made_rm(struct sbuf *b, const char *dir, unsigned made)
{
	sbuf_add(b, "rm -rf");
	for (size_t i = 0; i < GIT_NAMES; i++) {
		char *j;

		if (!(made & (1u << i)) || (j = join(dir, git_names[i])) == NULL)
			continue;
		sbuf_add(b, " ");
		out_shell_quote(b, j);
		free(j);
	}
}

static void
watch_one(const struct protect_watch *w, void (*note)(const char *text))
{
	struct path_id git = { 0, 0 };
	unsigned now = names_present(w->fd, &git), made = now & ~w->before;
	int dotgit = (now & 1u) && (!(w->before & 1u) || !id_same(&git, &w->git));
	int bare = (now & BARE_SHAPE) == BARE_SHAPE && (made & BARE_SHAPE);
	struct sbuf b = {0};

	if (!dotgit && !bare)
		return;
	sbuf_addf(&b, "the command made %s a git repository of its own (%s): a "
		  "git command there outside the wall would run its config and "
		  "hooks (spec rule 5a, Gaps); look first, or remove it: ",
		  w->path, dotgit ? "a .git that was not there" :
		  "a bare repository: HEAD, objects/, refs/");
	made_rm(&b, w->path, dotgit ? 1u : made & ~1u);
	if (!sbuf_failed(&b))
		note(b.s);
	sbuf_free(&b);
}

void
protect_after(const struct protect *p, const char *skip,
	      void (*note)(const char *text))
{
	for (size_t i = 0; i < p->wn; i++)
		if (skip == NULL || (strcmp(p->w[i].path, skip) != 0 &&
				     !below(p->w[i].path, skip)))
			watch_one(&p->w[i], note);
}

/* dirpath/.git (dirfd open on dirpath): protected when it exists; what
 * it names with it.  0, or -1. */
static int
dotgit_at(struct pctx *c, int dirfd, const char *dirpath)
{
	int fd, keep;
	char *p;
	int rc;

	if (watch_add(c->out, dirfd, dirpath) < 0)
		return -1;
	fd = os_walk_at(dirfd, ".git", 0);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
		       refusals_add(c->r, REASON_BAD_PROTECT, "%s/.git cannot "
				    "be looked at (%s): its protection cannot "
				    "be made", dirpath, strerror(errno)) < 0 ?
		       -1 : 0;
	if ((p = join(dirpath, ".git")) == NULL)
		return close(fd), -1;
	keep = os_fd_dup(fd);
	rc = ent_add(c, fd, p, "git");
	if (rc == 0 && keep >= 0)
		rc = git_named(c, dirfd, dirpath, keep, p);
	if (keep >= 0)
		close(keep);
	free(p);
	return rc;
}

static int
way_changed(struct pctx *c, const struct rpath *w)
{
	return refusals_add(c->r, REASON_BAD_PROTECT, "the way from %s down "
			    "to the working directory %s changed while it was "
			    "walked (%s); run again", w->path,
			    c->src->cwd->path, strerror(errno)) < 0 ? -1 : 1;
}

/* Every directory from the root w down to the working directory (w
 * itself excluded: dotgit_at already looked there).  0, or -1. */
static int
walk_to_cwd(struct pctx *c, const struct rpath *w)
{
	const struct rpath *cwd = c->src->cwd;
	size_t at = strlen(w->path);
	char comp[256];
	long k;
	int cur, next, rc = 0;
	struct sbuf here = {0};

	if (cwd == NULL || cwd->fd < 0 || !rpath_inside(cwd, w) ||
	    strncmp(cwd->path, w->path, at) != 0)
		return 0;
	if ((cur = os_fd_dup(w->fd)) < 0)
		return -1;
	if (sbuf_add(&here, w->path) < 0)
		rc = -1;
	while (rc == 0 &&
	       (k = next_comp(cwd->path, &at, comp, sizeof(comp))) != 0) {
		if (k < 0 || (next = os_walk_at(cur, comp, 1)) < 0) {
			rc = way_changed(c, w);
			break;
		}
		close(cur);
		cur = next;
		if (sbuf_addf(&here, "%s%s", strcmp(here.s, "/") ? "/" : "",
			      comp) < 0)
			rc = -1;
		else
			rc = dotgit_at(c, cur, here.s);
	}
	close(cur);
	sbuf_free(&here);
	return rc < 0 ? -1 : 0;
}

/* A --protect'ed path rp (its descriptor taken): when it is a .git, what
 * it names is protected as a default one's (its directory walked below
 * its --write root, no link followed).  0, or -1. */
static int
protect_git(struct pctx *c, struct rpath *rp)
{
	const char *slash = strrchr(rp->path, '/');
	int keep = -1, dfd = -1, rc;
	char *dir = NULL;

	if (slash != NULL && strcmp(slash, "/.git") == 0 &&
	    (keep = os_fd_dup(rp->fd)) >= 0 &&
	    (dir = str_fmt("%.*s", (int)(slash - rp->path), rp->path)) != NULL)
		dfd = walk_to(root_of(c, dir), *dir ? dir : "/");
	rc = ent_add(c, rp->fd, rp->path, "--protect");
	rp->fd = -1;
	if (rc == 0 && dfd >= 0 && root_of(c, dir) != NULL)
		rc = git_named(c, dfd, dir, keep, rp->path);
	if (keep >= 0)
		close(keep);
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return rc;
}

/* One --protect: rule 5 (absolute, existing, links judged and said),
 * under a --write root.  0, or -1. */
static int
flag_protect(struct pctx *c, const char *p)
{
	struct rpath rp;
	struct cmdfix fx = { "--protect", p, NULL, NULL, 0 };
	int rc = path_resolve("--protect", REASON_BAD_PROTECT, p, c->src->uid,
			      PATH_ANY_TYPE | PATH_READ_BACK, &rp, c->notes,
			      c->r);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (!rpath_inside_any(&rp, c->src->writes)) {
		rc = remedy_refuse_lead(c->r, REASON_BAD_PROTECT,
					REMEDY_IN_TEXT, &c->src->line, &fx,
					"; leave it out; run: ", "--protect %s "
					"is under no --write: the wall already "
					"keeps the command from writing it", p);
		rpath_free(&rp);
		return rc < 0 ? -1 : 0;
	}
	rc = protect_git(c, &rp);
	rpath_free(&rp);
	return rc;
}

/* The entry --unprotect p names: by its cleaned name (a .git that is a
 * link), else by the identity rule 5 resolves it to.  Index, or -1. */
static long
unprotect_match(struct pctx *c, const char *p)
{
	char *a = os_is_absolute(p) ? path_abs(p) : NULL;
	struct rpath rp;
	struct refusals quiet = {0};
	long hit = -1;

	for (size_t i = 0; a != NULL && hit < 0 && i < c->out->n; i++)
		if (strcmp(c->out->v[i].path, a) == 0)
			hit = (long)i;
	free(a);
	if (hit < 0 && path_resolve("--unprotect", REASON_BAD_PROTECT, p,
				    c->src->uid, PATH_ANY_TYPE, &rp, NULL,
				    &quiet) == 0) {
		for (size_t i = 0; hit < 0 && i < c->out->n; i++)
			if (id_same(&c->out->v[i].id, &rp.id))
				hit = (long)i;
		rpath_free(&rp);
	}
	refusals_free(&quiet);
	return hit;
}

static void
ent_drop(struct protect *p, size_t i)
{
	if (p->v[i].fd >= 0)
		close(p->v[i].fd);
	free(p->v[i].path);
	memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof(p->v[0]));
	p->n--;
}

/* What the list holds, for the refusal of an --unprotect that matches
 * nothing: "a, b" or "nothing". */
static char *
listed(const struct protect *p)
{
	struct sbuf b = {0};

	for (size_t i = 0; i < p->n; i++)
		sbuf_addf(&b, "%s%s", i ? ", " : "", p->v[i].path);
	if (p->n == 0)
		sbuf_add(&b, "nothing");
	return sbuf_take(&b);
}

static int
flag_unprotect(struct pctx *c, const char *p)
{
	long i = unprotect_match(c, p);
	struct cmdfix fx = { "--unprotect", p, NULL, NULL, 0 };
	char *l;
	int rc;

	if (i >= 0)
		return ent_drop(c->out, (size_t)i), 0;
	if ((l = listed(c->out)) == NULL)
		return -1;
	rc = remedy_refuse_lead(c->r, REASON_BAD_PROTECT, REMEDY_IN_TEXT,
				&c->src->line, &fx, "; leave it out; run: ",
				"--unprotect %s matches nothing protected "
				"(protected: %s)", p, l);
	free(l);
	return rc < 0 ? -1 : 0;
}

/* A protected .git that is a symbolic link: a mount cannot cover a link,
 * and the command could point it elsewhere.  Refused, with the opt-out. */
static int
refuse_links(struct pctx *c)
{
	for (size_t i = 0; i < c->out->n; i++) {
		const char *p = c->out->v[i].path;
		struct cmdfix fx = { NULL, NULL, p, "--unprotect", 0 };

		if (!OS_S_ISLNK(c->out->v[i].mode))
			continue;
		if (remedy_refuse(c->r, REASON_BAD_PROTECT, REMEDY_IN_TEXT,
				  &c->src->line, &fx, "%s is a symbolic link: "
				  "the wall cannot keep a link from being "
				  "replaced, so it cannot protect what git "
				  "runs there; protect the directory it names "
				  "with --protect, and lift the link knowingly",
				  p) < 0)
			return -1;
	}
	return 0;
}

/* Is path strictly below the directory d, by name? */
static int
below(const char *path, const char *d)
{
	return strcmp(path, d) != 0 && path_name_inside(path, d);
}

/* Drop what a protected directory already covers, then make the view. */
static int
finish(struct protect *p)
{
	for (size_t i = 0; i < p->n;) {
		size_t j;

		for (j = 0; j < p->n; j++)
			if (j != i && S_ISDIR(p->v[j].mode) &&
			    below(p->v[i].path, p->v[j].path))
				break;
		if (j < p->n)
			ent_drop(p, i);
		else
			i++;
	}
	if (p->n == 0)
		return 0;
	p->paths = calloc(p->n, sizeof(*p->paths));
	p->fds = calloc(p->n, sizeof(*p->fds));
	if (p->paths == NULL || p->fds == NULL)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		p->paths[i] = p->v[i].path;
		p->fds[i] = p->v[i].fd;
	}
	return 0;
}

/* Is v[i] an exact repetition of an earlier v[j] (the same name, both
 * cleaned)?  An --unprotect said twice is accepted once, silently. */
static int
said_before(const struct strv *v, size_t i)
{
	char *a = path_abs(v->v[i]);
	int hit = 0;

	for (size_t j = 0; a != NULL && !hit && j < i; j++) {
		char *b = path_abs(v->v[j]);

		hit = b != NULL && strcmp(a, b) == 0;
		free(b);
	}
	free(a);
	return hit;
}

int
protect_build(const struct protect_src *src, struct protect *out,
	      struct strv *notes, struct refusals *r)
{
	struct pctx c = { src, out, notes, r };
	size_t n0 = r->n;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; rc == 0 && i < src->writes->n; i++) {
		const struct rpath *w = &src->writes->v[i];

		rc = dotgit_at(&c, w->fd, w->path);
		if (rc == 0)
			rc = walk_to_cwd(&c, w);
	}
	for (size_t i = 0; rc == 0 && i < src->protect->n; i++)
		rc = flag_protect(&c, src->protect->v[i]);
	for (size_t i = 0; rc == 0 && i < src->unprotect->n; i++)
		if (!said_before(src->unprotect, i))
			rc = flag_unprotect(&c, src->unprotect->v[i]);
	if (rc == 0)
		rc = refuse_links(&c);
	if (rc == 0 && r->n == n0)
		rc = finish(out);
	if (rc < 0 || refusals_failed(r) || strv_failed(notes))
		return -1;
	return r->n > n0;
}

void
protect_free(struct protect *p)
{
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].fd >= 0)
			close(p->v[i].fd);
		free(p->v[i].path);
	}
	for (size_t i = 0; i < p->wn; i++) {
		if (p->w[i].fd >= 0)
			close(p->w[i].fd);
		free(p->w[i].path);
	}
	free(p->w);
	free(p->v);
	free(p->paths);
	free(p->fds);
	memset(p, 0, sizeof(*p));
}

int
protect_field(struct sbuf *b, const struct protect *p)
{
	if (sbuf_add(b, " protected=") < 0)
		return -1;
	if (p->n == 0)
		return sbuf_add(b, "-");
	for (size_t i = 0; i < p->n; i++) {
		char *f = out_field(p->v[i].path);

		if (f == NULL || (i && sbuf_add(b, ",") < 0))
			return free(f), -1;
		for (const char *s = f; *s; s++)
			if ((*s == ',' ? sbuf_add(b, "\\x2c") :
			     sbuf_addn(b, s, 1)) < 0)
				return free(f), -1;
		free(f);
	}
	return 0;
}
