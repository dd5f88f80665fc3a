/* SPDX-License-Identifier: MIT */
/* worktree_tree.c -- the scratch's records and trees: a tree's record, its
 * deletion (policy/rmtree.h; moved aside when stuck), whether it is in use,
 * its git directory and what a reused tree may hold (wt.h). */
#include "verbs/wt.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "policy/rmtree.h"
#include "verbs/worktree.h"

/* A gitfile's text ("gitdir: <dir>", one line) read from fd: the
 * directory it names (heap), or NULL when it is not one. */
char *
gitfile_read(int fd)
{
	char buf[WT_RECORD_MAX + 1];
	struct os_stat st;
	ssize_t n;
	size_t len;

	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX || (n = read(fd, buf, WT_RECORD_MAX)) < 0)
		return NULL;
	buf[n] = '\0';
	len = (size_t)n;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (strncmp(buf, "gitdir: ", 8) != 0 || len <= 8 ||
	    strlen(buf) != len || strpbrk(buf, "\n\r") != NULL)
		return NULL;
	return str_fmt("%s", buf + 8);
}

/* ---- the scratch: records, trees, deletion ---------------------------- */

char *
tree_path(const struct wt *w, const char *guid)
{
	return str_fmt("%s/%s", w->scratch.path, guid);
}

/* The record <id>.pr: its guid (32 lowercase hex) into guid.  0, or -1
 * there is none that is whole. */
int
record_read(const struct wt *w, unsigned long long id, char *guid)
{
	char name[40], buf[WT_RECORD_MAX + 1], *line, *save = NULL;
	struct os_stat st;
	ssize_t n;
	int fd, rc = -1;

	snprintf(name, sizeof(name), "%llu.pr", id);
	fd = os_open_read_at(w->scratch.fd, name, 0); /* no link, no FIFO */
	if (fd < 0)
		return -1;
	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX ||
	    (n = read(fd, buf, WT_RECORD_MAX)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "guid=", 5) == 0 &&
		    wt_hex_lower(line + 5, WT_GUID_LEN)) {
			memcpy(guid, line + 5, WT_GUID_LEN + 1);
			rc = 0;
		}
	return rc;
}

int
new_guid(char *guid)
{
	unsigned char b[WT_GUID_LEN / 2];

	if (os_random_bytes(b, sizeof(b)) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(guid + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* Write <id>.pr whole or not at all: a new file, then renamed over. */
int
record_write(const struct wt *w, const char *guid, const char *base,
	     const char *head)
{
	char tmp[80], name[40], rnd[WT_GUID_LEN + 1];
	struct sbuf b = {0};
	char *fb = out_field(base && *base ? base : "-");
	int fd, ok;

	snprintf(name, sizeof(name), "%llu.pr", w->id);
	if (new_guid(rnd) != 0 || fb == NULL) {
		free(fb);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), ".%s.%s", name, rnd);
	sbuf_addf(&b, "guid=%s\nbase=%s\nhead=%s\npid=%ld\n", guid, fb, head,
		  (long)getpid());
	free(fb);
	/* a new name (128 random bits): nothing there to truncate */
	fd = os_create_at(w->scratch.fd, tmp, 0644);
	ok = fd >= 0 && !sbuf_failed(&b) && os_fchmod(fd, 0644) == 0 &&
	     write(fd, b.s, b.len) == (ssize_t)b.len && os_fsync(fd) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	if (ok)
		ok = os_replace_at(w->scratch.fd, tmp, name) == 0;
	if (!ok && fd >= 0)
		os_unlink_at(w->scratch.fd, tmp, 0);
	sbuf_free(&b);
	return ok ? 0 : -1;
}

/* rmtree_at_how's status as the errno move_aside says (0 stays 0). */
static int
tree_rm(const struct wt *w, const char *guid)
{
	int rc = rmtree_at_how(w->scratch.fd, guid, WT_RM_DEPTH + 1,
			       RMTREE_OWN_MODES);

	if (rc == RMTREE_TOO_DEEP)
		errno = ELOOP; /* said as "nested too deep" */
	else if (rc == RMTREE_MOUNT)
		errno = EXDEV; /* a mount point, a bind mount too */
	return rc == 0 ? 0 : -1;
}

/* A tree that could not be deleted (nested deeper than WT_RM_DEPTH, an
 * entry the user may not remove): renamed aside within the scratch, so
 * that the pull request's tree can be made again, and said.  A tree on
 * another device or with a mount in it stays (EXDEV): 0, or -1 with *why
 * (heap). */
static int
move_aside(struct wt *w, const char *guid, const char *path, char **why)
{
	int e = errno;
	char rnd[WT_GUID_LEN + 1], aside[WT_GUID_LEN * 2 + 16];
	char *t;

	if (e == EXDEV || new_guid(rnd) != 0) {
		*why = str_fmt("%s could not be deleted: %s", path, e == EXDEV ?
			       "it holds a mount or another device's "
			       "directory, which is never entered" :
			       strerror(e));
		return -1;
	}
	snprintf(aside, sizeof(aside), ".nova-stuck-%s-%.8s", guid, rnd);
	if (os_rename_at(w->scratch.fd, guid, aside) != 0) {
		*why = str_fmt("%s could not be deleted (%s) nor moved aside: "
			       "%s", path, e == ELOOP ? "nested deeper than "
			       "512 directories" : strerror(e),
			       strerror(errno));
		return -1;
	}
	t = str_fmt("%s could not be deleted (%s): moved aside to %s/%s, "
		    "remove it by hand (rm -rf)", path, e == ELOOP ? "nested "
		    "deeper than 512 directories" : strerror(e),
		    w->scratch.path, aside);
	wt_note(w, t);
	free(t);
	return 0;
}

/* Take the tree <scratch>/<guid> away: its directory, below the scratch's
 * descriptor, then git's record of it.  *why on failure (heap). */
int
tree_remove(struct wt *w, const char *guid, char **why)
{
	char *path = tree_path(w, guid);
	char *args[] = { "git", "worktree", "remove", "--force", "--", path,
			 NULL };
	struct toolres res;
	int rc;

	*why = NULL;
	if (path == NULL)
		return -1;
	if (tree_rm(w, guid) != 0 &&
	    move_aside(w, guid, path, why) != 0) {
		free(path);
		return -1;
	}
	/* the directory is gone: git only forgets its record of it */
	rc = wt_git(w, w->repo.fd, w->call_ms, &res, args);
	toolres_free(&res);
	free(path);
	(void)rc; /* a record git keeps is one `git worktree prune` drops */
	return 0;
}

/* Is the tree <scratch>/<guid> in use?  Its lock (os_dir_lock_at: a
 * flock held shared by a job that works in it; taken here exclusively and
 * kept in *lockfd while the tree is removed; Windows has none), or a
 * process whose working directory or root is in it (os_dir_in_use_at).
 * id is the tree's identity when it was looked at: a lock taken on
 * another directory is "in use".  The caller holds no descriptor of the
 * tree.  1 in use (or cannot tell), 0 not. */
int
tree_in_use(const struct wt *w, const char *guid, const struct os_stat *id,
	    int *lockfd)
{
	struct os_stat now;
	unsigned unseen = 0;

	if (os_dir_lock_at(w->scratch.fd, guid, lockfd) < 0)
		return 1;
	if (*lockfd >= 0 && (os_fstat(*lockfd, &now) != 0 ||
			     now.dev != id->dev || now.ino != id->ino))
		return 1; /* replaced since it was looked at */
	return os_dir_in_use_at(w->scratch.fd, guid, &unseen) != 0;
}

/* ---- materialise ----------------------------------------------------------- */

/* The paths of `git worktree list --porcelain -z`. */
int
worktrees(struct wt *w, struct strv *out)
{
	char *args[] = { "git", "worktree", "list", "--porcelain", "-z", NULL };
	struct toolres res;
	const char *p, *end;
	int rc = -1;

	if (wt_git(w, w->repo.fd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out) && !res.truncated) {
		p = res.out.s ? res.out.s : "";
		end = p + res.out.len;
		for (; p < end; p += strlen(p) + 1)
			if (strncmp(p, "worktree ", 9) == 0)
				strv_push(out, p + 9);
		rc = strv_failed(out) ? -1 : 0;
	}
	toolres_free(&res);
	return rc;
}

/* Is the file open on fd the object at path (links followed)? */
static int
same_object(int fd, const char *path)
{
	struct os_stat a, b;

	return os_fstat(fd, &a) == 0 && os_stat_path(path, &b) == 0 &&
	       a.dev == b.dev && a.ino == b.ino;
}

/* The tree's own git directory, checked before any git call on the tree:
 * its .git is a regular file (never a link) naming exactly the
 * repository's <common>/worktrees/<name> (by identity), and that
 * directory's gitdir names this .git back (by identity).  Everything else
 * in a tree is the job's to write.  0 with *gd the directory (heap), or
 * -1 with *why what was found (heap; NULL when out of memory). */
int
tree_gitdir(struct wt *w, int tfd, char **gd, char **why)
{
	struct os_stat st;
	char *named = NULL, *back = NULL;
	const char *name;
	int gfd = -1, wfd = -1, nfd = -1, bfd = -1, rc = -1;

	*gd = *why = NULL;
	if (os_fstat_at(tfd, ".git", &st) != 0 || !S_ISREG(st.mode) ||
	    (gfd = os_open_read_at(tfd, ".git", 0)) < 0) {
		*why = str_fmt("its .git is not a regular file (a link, a "
			       "directory, or missing)");
		goto out;
	}
	if ((named = gitfile_read(gfd)) == NULL) {
		*why = str_fmt("its .git is not one line \"gitdir: <dir>\"");
		goto out;
	}
	name = os_last_sep(named);
	name = name != NULL ? name + 1 : named;
	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    (wfd = os_walk_at(w->commonfd, "worktrees", 1)) < 0 ||
	    (nfd = os_walk_at(wfd, name, 1)) < 0 || !same_object(nfd, named)) {
		*why = str_fmt("its .git names %s, not a git directory of the "
			       "repository's %s/worktrees", named, w->common);
		goto out;
	}
	if ((bfd = os_open_read_at(nfd, "gitdir", 0)) < 0 ||
	    os_fstat(bfd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX || (back = calloc(1, WT_RECORD_MAX + 1)) == NULL ||
	    read(bfd, back, WT_RECORD_MAX) < 0) {
		*why = str_fmt("the repository's %s/worktrees/%s has no "
			       "readable gitdir", w->common, name);
		goto out;
	}
	back[strcspn(back, "\r\n")] = '\0';
	if (!same_object(gfd, back)) {
		*why = str_fmt("the repository's %s/worktrees/%s belongs to "
			       "another tree (%s)", w->common, name, back);
		goto out;
	}
	*gd = str_fmt("%s/worktrees/%s", w->common, name);
	rc = *gd != NULL ? 0 : -1;
out:
	if (gfd >= 0)
		close(gfd);
	if (wfd >= 0)
		close(wfd);
	if (nfd >= 0)
		close(nfd);
	if (bfd >= 0)
		close(bfd);
	free(named);
	free(back);
	return rc;
}

/* ---- what a reused tree may hold ------------------------------------- */

/* The submodules' paths (gitlinks, mode 160000) of the tree's index. */
int
gitlinks(struct wt *w, const struct gplace *p, int tfd, struct strv *out)
{
	char *args[] = { "git", "ls-files", "--stage", "-z", NULL };
	struct toolres res;
	const char *e, *end, *tab;
	int rc = -1;

	if (git_at(w, p, tfd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out) && !res.truncated) {
		e = sbuf_str(&res.out);
		end = e + res.out.len;
		for (; e < end; e += strlen(e) + 1)
			if (strncmp(e, "160000 ", 7) == 0 &&
			    (tab = strchr(e, '\t')) != NULL)
				strv_push(out, tab + 1);
		rc = strv_failed(out) ? -1 : 0;
	}
	toolres_free(&res);
	return rc;
}

struct cleanlevel {
	int fd;                   /* the directory, open to list it */
	const char *rel;          /* its path below the tree ("" the top) */
	int depth;
	size_t n;                 /* its entries */
	const struct strv *links; /* the submodules' paths */
	char **found;             /* what was found (heap) */
};

static int clean_one(void *arg, const char *name);

/* A directory below the tree: not writable by others, no set-id or sticky
 * bit, not too deep, empty exactly when it is a submodule's path. */
static int
clean_sub(const struct cleanlevel *lv, const char *name, const char *rel,
	  const struct os_stat *st)
{
	struct cleanlevel in = { -1, rel, lv->depth + 1, 0, lv->links,
				 lv->found };
	struct os_stat fst;
	int link = strv_contains(lv->links, rel), rc;

	if (st->mode & 07022) {
		*lv->found = str_fmt("%s is a directory writable by others or "
				     "with a set-id or sticky bit", rel);
		return 1;
	}
	if (in.depth > WT_RM_DEPTH) {
		*lv->found = str_fmt("%s is nested deeper than %d directories",
				     rel, WT_RM_DEPTH);
		return 1;
	}
	in.fd = os_open_read_at(lv->fd, name, 1);
	if (in.fd < 0 || os_fstat(in.fd, &fst) != 0 || fst.dev != st->dev ||
	    fst.ino != st->ino) {
		*lv->found = str_fmt("%s cannot be listed", rel);
		if (in.fd >= 0)
			close(in.fd);
		return 1;
	}
	rc = os_dir_names(in.fd, NULL, clean_one, &in);
	close(in.fd);
	if (rc != 0) {
		if (*lv->found == NULL)
			*lv->found = str_fmt("%s cannot be listed", rel);
		return 1;
	}
	if (in.n == 0 && !link)
		*lv->found = str_fmt("%s is an empty directory (git makes "
				     "none)", rel);
	else if (in.n > 0 && link)
		*lv->found = str_fmt("%s, a submodule's path, holds files", rel);
	return *lv->found != NULL;
}

/* One entry: a regular file or a link (never followed), a directory as
 * clean_sub says; no .git below the top (git run there would obey it), no
 * FIFO, socket or device.  Nonzero stops the listing. */
static int
clean_one(void *arg, const char *name)
{
	struct cleanlevel *lv = arg;
	struct os_stat st;
	char *rel;
	int rc = 0;

	lv->n++;
	if (lv->depth == 0 && strcmp(name, ".git") == 0)
		return 0; /* the gitfile tree_gitdir checked */
	rel = lv->rel[0] ? str_fmt("%s/%s", lv->rel, name) :
			   str_fmt("%s", name);
	if (rel == NULL) {
		*lv->found = str_fmt("out of memory");
		return 1;
	}
	if (strcmp(name, ".git") == 0)
		*lv->found = str_fmt("%s is a git directory or file below the "
				     "top: git run there would obey it", rel);
	else if (os_fstat_at(lv->fd, name, &st) != 0)
		*lv->found = str_fmt("%s cannot be looked at", rel);
	else if (S_ISDIR(st.mode))
		rc = clean_sub(lv, name, rel, &st);
	else if (!S_ISREG(st.mode) && !OS_S_ISLNK(st.mode))
		*lv->found = str_fmt("%s is a FIFO, socket or device", rel);
	else if (strv_contains(lv->links, rel))
		*lv->found = str_fmt("%s, a submodule's path, is not a "
				     "directory", rel);
	free(rel);
	return rc || *lv->found != NULL;
}

/* Nothing in the tree but what git checks out, looked at beneath its
 * descriptor before git is asked whether it is clean (git does not list
 * a .git below the top, a submodule's contents under
 * --ignore-submodules, an empty directory, a FIFO): 0, or -1 with *found. */
int
tree_clean(int tfd, const struct strv *links, char **found)
{
	struct cleanlevel top = { -1, "", 0, 0, links, found };
	struct os_stat st;
	int rc;

	if (os_fstat(tfd, &st) != 0 || (st.mode & 07022)) {
		*found = str_fmt("the tree is writable by others or has a "
				 "set-id or sticky bit");
		return -1;
	}
	top.fd = os_dir_reopen(tfd);
	if (top.fd < 0) {
		*found = str_fmt("the tree cannot be listed");
		return -1;
	}
	rc = os_dir_names(top.fd, NULL, clean_one, &top);
	close(top.fd);
	if (rc != 0 && *found == NULL)
		*found = str_fmt("the tree cannot be listed");
	return rc != 0 ? -1 : 0;
}
