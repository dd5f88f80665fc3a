/* SPDX-License-Identifier: MIT */
/* handoff.c -- `run --out`: copy the artifacts out of the place before it
 * is deleted (reference section 8 "Handoff rules").  Every open is an
 * open at a descriptor already checked (os_open_read_at: openat with
 * O_NOFOLLOW, no component is a link, and O_NONBLOCK, a FIFO cannot hold
 * the open; Windows: by the directory's handle, a reparse point refused,
 * no write or delete sharing); every descriptor is os_fstat'ed for its
 * type and for the place's device before anything reads it.  Directories are copied whole, regular files only.
 * The bytes, the entries (every file and directory the copy would make)
 * and the depth (path components below work/) are measured first, the walk
 * stopping at the first cap passed (nothing written when over a cap); then
 * the copy checks each cap again; a failure removes what was written.
 * The copy goes into a fresh sibling, <out>/.<name>.nova-new-<pid>, that
 * is renamed to <out>/<name> at the end, an earlier <name> moved aside
 * first and removed after: <out>/<name> holds exactly one run's files.
 * <out> is the descriptor opened before the command started: every step
 * (stage, move aside, rename in, remove the old) is relative to it, never
 * a name walked again, so a command that replaced <out> by a link moves
 * nothing outside it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/rmtree.h"
#include "run/handoff.h"
#include "run/runargs.h"

void (*handoff_hook)(const char *rel);
void (*handoff_step_hook)(void);

#define STEP() do { if (handoff_step_hook != NULL) handoff_step_hook(); } \
	while (0)

static const char *const default_artifacts[] = { "RESULT.md", "usage.tsv",
						  "repo.bundle", NULL };

struct hcopy {
	uint64_t dev;       /* the place's device */
	struct handoff_caps caps;
	uint64_t total;
	uint64_t entries;   /* files and directories met */
	int copying;        /* 0: measure, 1: copy */
	int failed;
	struct strv made;   /* "<dstfd-relative path>" created, in order */
	int outfd;          /* the staged <out>/.<name>.nova-new-<pid> */
	char stage[300];    /* its name in <out> */
	char old[300];      /* an earlier <name> moved aside and not removed */
	int replaced;       /* an earlier <name> was replaced */
	int old_kept;       /* ... and could not be removed (old names it) */
	int out_error;      /* the first failure was writing into --out */
	char *why;
	struct handoff_stats *st;
};

static int fail(struct hcopy *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail(struct hcopy *h, const char *fmt, ...)
{
	struct sbuf s = {0};
	va_list ap;

	va_start(ap, fmt);
	if (h->why == NULL && sbuf_vaddf(&s, fmt, ap) == 0)
		h->why = sbuf_take(&s);
	va_end(ap);
	sbuf_free(&s);
	h->failed = 1;
	return -1;
}

/* A failure writing into --out (not of the artifacts or the caps): the
 * run's work may still be handed off elsewhere. */
static void
out_side(struct hcopy *h)
{
	if (h->why == NULL)
		h->out_error = 1;
}

#define OUT_FAIL(h, ...) (out_side(h), fail((h), __VA_ARGS__))

static int
on_place(const struct hcopy *h, const struct os_stat *sb)
{
	return sb->dev == h->dev;
}

static int
copy_bytes(struct hcopy *h, int in, int out, const char *rel)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(h, "reading %s: %s", rel, strerror(errno));
		h->total += (uint64_t)n;
		if (h->total > h->caps.bytes)
			return fail(h, "%s grew during the copy: the total "
				    "passed --out-max-bytes", rel);
		for (ssize_t off = 0, w; off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) < 0)
				return OUT_FAIL(h, "writing %s: %s", rel,
					    strerror(errno));
		STEP();
	}
	return 0;
}

/* Path components of rel ("a/b/c": 3). */
static uint64_t
depth_of(const char *rel)
{
	uint64_t n = 1;

	for (; *rel; rel++)
		n += *rel == '/';
	return n;
}

/* One more entry at rel: over a cap, the walk stops here. */
static int
count_entry(struct hcopy *h, const char *rel)
{
	char a[32], b[32];

	if (depth_of(rel) > h->caps.depth) {
		snprintf(b, sizeof(b), "%llu", (unsigned long long)h->caps.depth);
		return fail(h, "the artifact path %s is deeper than "
			    "--out-max-depth %s (components below work/); "
			    "nothing was copied", rel, b);
	}
	if (++h->entries <= h->caps.files)
		return 0;
	snprintf(a, sizeof(a), "%llu", (unsigned long long)h->caps.files);
	return fail(h, "the artifacts hold more than %s entries (files and "
		    "directories), over --out-max-files %s; nothing was copied",
		    a, a);
}

static int
copy_file(struct hcopy *h, int in, const struct os_stat *sb, int dstdir,
	  const char *leaf, const char *rel)
{
	int out, rc;

	if (count_entry(h, rel) != 0)
		return -1;
	h->st->files++;
	if (!h->copying) {
		h->total += sb->size;
		return 0;
	}
	if (handoff_hook != NULL)
		handoff_hook(rel);
	out = os_create_at(dstdir, leaf, 0600);
	STEP();
	if (out < 0)
		return OUT_FAIL(h, "creating %s: %s", rel, strerror(errno));
	if (strv_push(&h->made, rel) < 0) {
		close(out);
		return fail(h, "out of memory");
	}
	rc = copy_bytes(h, in, out, rel);
	if (rc == 0 && os_fchmod(out, sb->mode & 0777) != 0)
		rc = OUT_FAIL(h, "chmod %s: %s", rel, strerror(errno));
	close(out);
	return rc;
}

static int walk_dir(struct hcopy *h, int in, int dstdir, const char *rel);

/* A directory to copy into: <dstdir>/<leaf>, made fresh or reused. */
static int
dst_dir(struct hcopy *h, int dstdir, const char *leaf, const char *rel)
{
	int fd;

	if (os_mkdir_at(dstdir, leaf, 0755) == 0) {
		STEP();
		if (strv_push(&h->made, rel) < 0)
			return fail(h, "out of memory");
	} else if (errno != EEXIST) {
		return OUT_FAIL(h, "mkdir %s: %s", rel, strerror(errno));
	}
	fd = os_open_read_at(dstdir, leaf, 1);
	if (fd < 0)
		return OUT_FAIL(h, "open %s: %s", rel, strerror(errno));
	return fd;
}

/* One input, already opened and fstat'ed as sb. */
static int
take(struct hcopy *h, int in, const struct os_stat *sb, int dstdir,
     const char *leaf, const char *rel)
{
	int d, rc;

	if (S_ISREG(sb->mode))
		return copy_file(h, in, sb, dstdir, leaf, rel);
	if (count_entry(h, rel) != 0)
		return -1;
	if (!h->copying)
		return walk_dir(h, in, -1, rel);
	d = dst_dir(h, dstdir, leaf, rel);
	if (d < 0)
		return -1;
	rc = walk_dir(h, in, d, rel);
	close(d);
	return rc;
}

/* Open <dirfd>/<leaf> as an input: 1 with *fd and *sb set when it is a
 * regular file or directory on the place; 0 when it is anything else (a
 * link, FIFO, device, socket, another device's file); -1 on error. */
static int
open_input(struct hcopy *h, int dirfd, const char *leaf, int *fd,
	   struct os_stat *sb)
{
	struct os_stat pre;

	if (os_fstat_at(dirfd, leaf, &pre) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(pre.mode) && !S_ISDIR(pre.mode))
		return 0;
	*fd = os_open_read_at(dirfd, leaf, 0);
	if (*fd < 0)
		return errno == ELOOP || errno == ENXIO || errno == EACCES ?
		    0 : -1;
	if (os_fstat(*fd, sb) != 0 || !on_place(h, sb) ||
	    (!S_ISREG(sb->mode) && !S_ISDIR(sb->mode))) {
		close(*fd);
		return 0;
	}
	return 1;
}

static int
walk_entry(struct hcopy *h, int in, int dstdir, const char *rel,
	   const char *leaf)
{
	struct sbuf sub = {0};
	struct os_stat sb;
	int fd = -1, rc;

	if (sbuf_addf(&sub, "%s/%s", rel, leaf) < 0)
		return fail(h, "out of memory");
	rc = open_input(h, in, leaf, &fd, &sb);
	if (rc == 0)
		h->st->skipped += h->copying ? 0 : 1;
	else if (rc < 0)
		rc = fail(h, "reading %s: %s", sub.s, strerror(errno));
	else {
		rc = take(h, fd, &sb, dstdir, leaf, sub.s);
		close(fd);
	}
	sbuf_free(&sub);
	return rc < 0 ? -1 : 0;
}

struct walk_arg {
	struct hcopy *h;
	int in, dstdir;
	const char *rel;
};

static int
walk_one(void *arg, const char *name)
{
	struct walk_arg *a = arg;

	return walk_entry(a->h, a->in, a->dstdir, a->rel, name) < 0 ? -2 : 0;
}

static int
walk_dir(struct hcopy *h, int in, int dstdir, const char *rel)
{
	struct walk_arg a = { h, in, dstdir, rel };
	int rc = os_dir_names(in, NULL, walk_one, &a);

	if (rc == -1)
		return fail(h, "listing %s: %s", rel, strerror(errno));
	return rc == 0 ? 0 : -1;
}

/* Walk the components of one artifact from the root: every intermediate
 * one a directory on the place.  1 found (fd, sb, parent dirs of the
 * destination made), 0 absent, -1 refused. */
static int
open_artifact(struct hcopy *h, int root, const char *path, int *fd,
	      struct os_stat *sb)
{
	char *dup_path = strdup(path), *p, *slash;
	int cur = os_fd_dup(root), rc = 1;

	if (dup_path == NULL || cur < 0) {
		free(dup_path);
		if (cur >= 0)
			close(cur);
		return fail(h, "out of memory");
	}
	for (p = dup_path; rc == 1 && p != NULL; p = slash ? slash + 1 : NULL) {
		int next;

		slash = strchr(p, '/');
		if (slash != NULL)
			*slash = '\0';
		rc = open_input(h, cur, p, &next, sb);
		if (rc == 1 && slash != NULL && !S_ISDIR(sb->mode)) {
			close(next);
			rc = 0;
		}
		if (rc == 1 && slash == NULL) {
			close(cur);
			*fd = next;
			free(dup_path);
			return 1;
		}
		if (rc == 1) {
			close(cur);
			cur = next;
		}
	}
	close(cur);
	free(dup_path);
	return rc;
}

/* An artifact absent or not copyable: fine for a default one that is
 * absent; a refusal otherwise. */
static int
missing(struct hcopy *h, int root, const char *path, int named)
{
	struct os_stat sb;

	if (h->failed)
		return -1;
	if (!named && os_fstat_at(root, path, &sb) != 0 && errno == ENOENT)
		return 0;
	if (named && os_fstat_at(root, path, &sb) != 0)
		return fail(h, "the artifact %s is not in the place", path);
	return fail(h, "the artifact %s is not a regular file or a "
		    "directory on the place (a link, FIFO, device or a "
		    "file of another filesystem); nothing was copied",
		    path);
}

/* Make the destination's parent directories for a nested artifact. */
static int
dst_parent(struct hcopy *h, const char *path, int *dfd, const char **leaf)
{
	char *copy = strdup(path), *p, *slash;
	int cur = os_fd_dup(h->outfd);
	size_t used = 0;

	if (copy == NULL || cur < 0)
		return free(copy), fail(h, "out of memory");
	for (p = copy; (slash = strchr(p, '/')) != NULL; p = slash + 1) {
		int next;

		*slash = '\0';
		next = dst_dir(h, cur, p, copy);
		*slash = '/';
		close(cur);
		if (next < 0)
			return free(copy), -1;
		cur = next;
	}
	used = (size_t)(p - copy);
	free(copy);
	*leaf = path + used;
	*dfd = cur;
	return 0;
}

static int
one_artifact(struct hcopy *h, int root, const char *path, int named)
{
	struct os_stat sb;
	const char *leaf = path;
	int fd = -1, dfd = -1, rc;

	rc = open_artifact(h, root, path, &fd, &sb);
	if (rc != 1)
		return missing(h, root, path, named);
	if (h->copying && dst_parent(h, path, &dfd, &leaf) != 0) {
		close(fd);
		return -1;
	}
	rc = take(h, fd, &sb, dfd, leaf, path);
	close(fd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* Is `in` the path `top` or below it ("d/x" below "d")? */
static int
below(const char *in, const char *top)
{
	size_t n = strlen(top);

	return strncmp(in, top, n) == 0 && (in[n] == '\0' || in[n] == '/');
}

/* The i-th named artifact is copied by another: an earlier one names the
 * same path, or any one names a directory above it.  It is still looked
 * up (a named artifact must exist), never copied or counted twice. */
static int
covered(const struct strv *named, size_t i)
{
	for (size_t j = 0; j < named->n; j++)
		if (j != i && below(named->v[i], named->v[j]) &&
		    (j < i || strcmp(named->v[i], named->v[j]) != 0))
			return 1;
	return 0;
}

/* A covered artifact: it must exist, as any named one; nothing more. */
static int
seen_artifact(struct hcopy *h, int root, const char *path)
{
	struct os_stat sb;
	int fd = -1, rc = open_artifact(h, root, path, &fd, &sb);

	if (rc != 1)
		return missing(h, root, path, 1);
	close(fd);
	return 0;
}

static int
pass(struct hcopy *h, int root, const struct strv *named)
{
	if (named->n == 0) {
		for (size_t i = 0; default_artifacts[i] != NULL; i++)
			if (one_artifact(h, root, default_artifacts[i], 0) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < named->n; i++)
		if ((covered(named, i) ?
		     seen_artifact(h, root, named->v[i]) :
		     one_artifact(h, root, named->v[i], 1)) < 0)
			return -1;
	return 0;
}

/* Remove what the copy made, newest first. */
static void
undo(struct hcopy *h)
{
	for (size_t i = h->made.n; i-- > 0;)
		if (os_unlink_at(h->outfd, h->made.v[i], 0) != 0)
			(void)os_unlink_at(h->outfd, h->made.v[i], 1);
}

/* A fresh sibling of <name> in --out: ".<name>.nova-<what>-<pid>[-<k>]",
 * made mode 0755 (new) or only named (old).  0, or -1. */
static int
sibling(int ofd, const char *name, const char *what, int make, char *buf,
	size_t cap)
{
	struct os_stat sb;

	for (unsigned k = 0; k < 100; k++) {
		int n = k ? snprintf(buf, cap, ".%s.nova-%s-%ld-%u", name, what,
				     (long)getpid(), k) :
			    snprintf(buf, cap, ".%s.nova-%s-%ld", name, what,
				     (long)getpid());

		if (n < 0 || (size_t)n >= cap)
			return -1;
		if (make ? os_mkdir_at(ofd, buf, 0755) == 0 :
		    os_fstat_at(ofd, buf, &sb) != 0 && errno == ENOENT)
			return 0;
		if (errno != EEXIST && make)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static int
open_out(struct hcopy *h, int ofd, const char *out, const char *name)
{
	if (sibling(ofd, name, "new", 1, h->stage, sizeof(h->stage)) != 0)
		return OUT_FAIL(h, "cannot make a fresh directory beside %s in "
			    "--out %s: %s", name, out, strerror(errno));
	STEP();
	h->outfd = os_open_read_at(ofd, h->stage, 1);
	if (h->outfd < 0) {
		int e = errno;

		(void)os_unlink_at(ofd, h->stage, 1);
		return OUT_FAIL(h, "opening %s in --out: %s", h->stage, strerror(e));
	}
	return 0;
}

/* The stage is this run's only copy and stays: renamed to
 * .<name>.nova-kept-<pid>, a name no sweep of leftovers takes (h->stage
 * names where it is).  Always 1, errno kept. */
static int
keep_stage(struct hcopy *h, int ofd, const char *name)
{
	char kept[300];
	int e = errno;

	if (sibling(ofd, name, "kept", 0, kept, sizeof(kept)) == 0 &&
	    os_rename_at(ofd, h->stage, kept) == 0)
		snprintf(h->stage, sizeof(h->stage), "%s", kept);
	errno = e;
	return 1;
}

/* The staged copy becomes <out>/<name>: an earlier one is moved aside
 * first and removed after.  When it cannot be moved aside nothing is
 * lost: the earlier stays, the new one stays staged, and the failure
 * says both. */
static int
put_in_place(struct hcopy *h, int ofd, const char *out, const char *name)
{
	char old[300];
	struct os_stat sb;
	int had = os_fstat_at(ofd, name, &sb) == 0;

	STEP();
	if (had && (sibling(ofd, name, "old", 0, old, sizeof(old)) != 0 ||
		    os_rename_at(ofd, name, old) != 0) && keep_stage(h, ofd, name))
		return fail(h, "%s/%s holds an earlier run's artifacts and "
			    "cannot be moved aside (%s): nothing was replaced; "
			    "this run's artifacts are in %s/%s; run: rm -rf "
			    "'%s/%s' && mv '%s/%s' '%s/%s'", out, name,
			    strerror(errno), out, h->stage, out, name, out,
			    h->stage, out, name);
	STEP();
	if (os_rename_at(ofd, h->stage, name) != 0) {
		int e = errno;

		if (had)
			(void)os_rename_at(ofd, old, name);
		keep_stage(h, ofd, name);
		return fail(h, "this run's artifacts cannot be renamed into "
			    "%s/%s (%s); they are in %s/%s", out, name,
			    strerror(e), out, h->stage);
	}
	STEP();
	h->replaced = had;
	if (had && rmtree_at(ofd, old, 2 * RUN_OUT_DEPTH_TOP) != 0)
		h->old_kept = 1;
	if (h->old_kept)
		snprintf(h->old, sizeof(h->old), "%s", old);
	return 0;
}

static int
copy_pass(struct hcopy *h, int root_fd, int out_fd, const char *out,
	  const char *name, const struct strv *named)
{
	int ofd = os_fd_dup(out_fd), rc;

	if (ofd < 0)
		return fail(h, "--out %s was not held open from before the "
			    "command started: %s", out, strerror(errno));
	if (open_out(h, ofd, out, name) != 0) {
		close(ofd);
		return -1;
	}
	h->copying = 1;
	h->total = 0;
	h->entries = 0;
	h->st->files = 0;
	rc = pass(h, root_fd, named);
	if (rc != 0) {
		undo(h);
		(void)os_unlink_at(ofd, h->stage, 1);
	}
	close(h->outfd);
	h->outfd = -1;
	if (rc == 0)
		rc = put_in_place(h, ofd, out, name);
	close(ofd);
	return rc;
}

/* --out before anything is made: a sibling of <name> can be made and
 * renamed in it (then removed), and it has `need` bytes free.  0, or -1
 * with *why (heap) saying what is wrong. */
int
handoff_check_out(int out_fd, const char *out, const char *name,
		  uint64_t need, char **why)
{
	struct hcopy h;
	char a[300], b[320];
	uint64_t avail = 0;
	int made = 0, moved = 0;

	memset(&h, 0, sizeof(h));
	*why = NULL;
	if (sibling(out_fd, name, "check", 1, a, sizeof(a)) != 0)
		fail(&h, "--out %s cannot take the hand-off: a directory "
		     "cannot be made in it (%s); nothing was run", out,
		     strerror(errno));
	else
		made = 1;
	if (made && snprintf(b, sizeof(b), "%s-r", a) > 0 &&
	    os_rename_at(out_fd, a, b) != 0)
		fail(&h, "--out %s cannot take the hand-off: a directory "
		     "cannot be renamed in it (%s); nothing was run", out,
		     strerror(errno));
	else
		moved = made;
	if (made)
		(void)os_unlink_at(out_fd, moved ? b : a, 1);
	if (!h.failed && os_free_bytes(out_fd, &avail) == 0 && avail < need) {
		char x[32], y[32];

		snprintf(x, sizeof(x), "%llu", (unsigned long long)avail);
		snprintf(y, sizeof(y), "%llu", (unsigned long long)need);
		fail(&h, "--out %s has %s bytes free, under the %s the "
		     "hand-off may write (the smaller of --out-max-bytes and "
		     "--size); free some space or lower --out-max-bytes; "
		     "nothing was run", out, x, y);
	}
	*why = h.why;
	return h.failed ? -1 : 0;
}

/* <root>/work, checked: a directory on the root's device. */
int
handoff_open_work(int root_fd)
{
	struct os_stat rs, ws;
	int fd = os_open_read_at(root_fd, "work", 1);

	if (fd < 0)
		return -1;
	if (os_fstat(root_fd, &rs) != 0 || os_fstat(fd, &ws) != 0 ||
	    rs.dev != ws.dev || !S_ISDIR(ws.mode)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}


int
handoff_copy(int root_fd, int out_fd, const char *out, const char *name,
	     const struct strv *named, const struct handoff_caps *caps,
	     struct handoff_stats *st, char **why)
{
	struct hcopy h;
	struct os_stat sb;
	int rc;

	memset(&h, 0, sizeof(h));
	memset(st, 0, sizeof(*st));
	h.caps = *caps;
	h.st = st;
	h.outfd = -1;
	*why = NULL;
	if (strv_failed(named)) /* a shorter list would copy less, silently */
		rc = fail(&h, "the artifact list could not be built: out of "
			  "memory");
	else if (os_fstat(root_fd, &sb) != 0)
		rc = fail(&h, "the place's root cannot be read: %s",
			  strerror(errno));
	else {
		h.dev = sb.dev;
		rc = pass(&h, root_fd, named);
	}
	if (rc == 0 && h.total > h.caps.bytes) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "%llu", (unsigned long long)h.total);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)h.caps.bytes);
		rc = fail(&h, "the artifacts hold %s bytes, over "
			  "--out-max-bytes %s; nothing was copied", a, b);
	}
	if (rc == 0)
		rc = copy_pass(&h, root_fd, out_fd, out, name, named);
	st->bytes = h.total;
	st->replaced = h.replaced;
	st->out_error = h.out_error;
	if (h.old_kept)
		snprintf(st->old_kept, sizeof(st->old_kept), "%s", h.old);
	strv_free(&h.made);
	*why = h.why;
	return rc;
}
