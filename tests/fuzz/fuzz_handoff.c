/* SPDX-License-Identifier: MIT */
/* fuzz_handoff.c -- libFuzzer harness for `run --out`'s copy
 * (host/run/handoff.c handoff_copy).  The input builds a tree in a
 * private work/ directory (directories, files of some bytes, links
 * pointing out, FIFOs), names artifacts (present, missing, nested, twice)
 * and sets the three caps; handoff_copy then copies into a private out/
 * that holds an earlier copy, and the result is checked:
 *
 *   success  out/ holds exactly job/ (no .job.nova-* left), the earlier
 *            copy is gone, job/ holds only directories and regular files,
 *            each file the size of the one at the same path in work/, and
 *            their count and bytes are the stats (each file once);
 *   failure  *why is set, out/ holds exactly job/ and job/ is the
 *            earlier copy, untouched.
 *
 * Input: 3 bytes an operation (at most 64): [op][path][arg].  The path
 * byte picks 1..4 components from {a, b, RESULT.md, d} (the 4th from the
 * op byte's top bits); op & 7: 0-1 mkdir -p, 2-3 a file of arg*37 bytes,
 * 4 a link to /etc/passwd, 5 a FIFO, 6 name the path as an artifact, 7 set
 * the caps from arg (entries 1+arg%16, depth 1+arg%6, bytes arg*64).
 * Everything lives in a directory made next to this binary (build-fuzz/)
 * and removed at exit.  Seeds: tests/fuzz/corpus/handoff/ (hex). */
#include "fuzz_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "policy/rmtree.h"
#include "run/handoff.h"
#include "run/runargs.h"

static char base[PATH_MAX];
static int basefd = -1;

static const char *const comps[] = { "a", "b", "RESULT.md", "d" };

static void
die(const char *what, const char *rel)
{
	fprintf(stderr, "fuzz_handoff: invariant broken: %s (%s)\n", what,
		rel ? rel : "-");
	abort();
}

static void
cleanup(void)
{
	if (basefd >= 0) {
		(void)rmtree_at(basefd, "work", 64);
		(void)rmtree_at(basefd, "out", 64);
		close(basefd);
	}
	rmdir(base);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_private_dir("fuzz-handoff", base);
	basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0)
		abort();
	atexit(cleanup);
	return 0;
}

/* "a/b/..." from the path byte and the op byte's top bits. */
static void
path_of(uint8_t op, uint8_t p, char *buf, size_t cap)
{
	unsigned depth = 1 + (p & 3);
	unsigned pick[4] = { (p >> 2) & 3, (p >> 4) & 3, (p >> 6) & 3,
			     (unsigned)(op >> 6) & 3 };
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < depth; i++) {
		int k = snprintf(buf + used, cap - used, "%s%s", i ? "/" : "",
				 comps[pick[i]]);

		if (k < 0 || (size_t)k >= cap - used)
			abort();
		used += (size_t)k;
	}
}

/* mkdir -p work/<rel's parents> (make_last: rel too); errors ignored (a
 * file where a directory would go: the tree is what it is). */
static void
parents(const char *rel, int make_last)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "work/%s", rel);
	for (char *s = p + 5; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		(void)mkdirat(basefd, p, 0755);
		*s = '/';
	}
	if (make_last)
		(void)mkdirat(basefd, p, 0755);
}

static void
put_file(const char *rel, size_t bytes)
{
	static const char fill[64] = "0123456789abcdef0123456789abcdef"
				     "0123456789abcdef0123456789abcde";
	char p[PATH_MAX];
	int fd;

	parents(rel, 0);
	snprintf(p, sizeof(p), "work/%s", rel);
	fd = openat(basefd, p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0)
		return;
	for (size_t left = bytes; left > 0;) {
		size_t k = left < sizeof(fill) ? left : sizeof(fill);

		if (write(fd, fill, k) != (ssize_t)k)
			abort();
		left -= k;
	}
	close(fd);
}

/* A link pointing out of the place (fifo 0) or a FIFO at work/<rel>. */
static void
odd(const char *rel, int fifo)
{
	char p[PATH_MAX];

	parents(rel, 0);
	snprintf(p, sizeof(p), "work/%s", rel);
	if (fifo)
		(void)mkfifoat(basefd, p, 0644);
	else
		(void)symlinkat("/etc/passwd", basefd, p);
}

static void
fresh(void)
{
	int fd;

	if (rmtree_at(basefd, "work", 64) != 0 ||
	    rmtree_at(basefd, "out", 64) != 0 ||
	    mkdirat(basefd, "work", 0755) != 0 ||
	    mkdirat(basefd, "out", 0755) != 0 ||
	    mkdirat(basefd, "out/job", 0755) != 0)
		abort();
	fd = openat(basefd, "out/job/earlier", O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, 0644);
	if (fd < 0)
		abort();
	close(fd);
}

struct tally {
	size_t files;
	uint64_t bytes;
};

/* The names in the directory base/<dir>, in *names (strv). */
static void
names_in(const char *dir, struct strv *names)
{
	int fd = openat(basefd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	struct dirent *e;
	DIR *d = NULL;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		die("a directory of the copy cannot be listed", dir);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strv_push(names, e->d_name);
	closedir(d);
	if (strv_failed(names))
		abort();
}

/* Walk out/job/<rel>: only directories and regular files, each file the
 * size of work/<rel>. */
static void
walk_out(const char *rel, struct tally *t, int depth)
{
	struct strv names = {0};
	char dir[PATH_MAX];

	if (depth > 16)
		die("deeper than any tree built", rel);
	snprintf(dir, sizeof(dir), "out/job%s%s", *rel ? "/" : "", rel);
	names_in(dir, &names);
	for (size_t i = 0; i < names.n; i++) {
		struct stat o, w;
		char sub[PATH_MAX], wp[PATH_MAX + 8], op[PATH_MAX + 8];

		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
			 names.v[i]);
		snprintf(op, sizeof(op), "out/job/%s", sub);
		snprintf(wp, sizeof(wp), "work/%s", sub);
		if (fstatat(basefd, op, &o, AT_SYMLINK_NOFOLLOW) != 0)
			die("an entry listed cannot be read", sub);
		if (S_ISDIR(o.st_mode)) {
			walk_out(sub, t, depth + 1);
			continue;
		}
		if (!S_ISREG(o.st_mode))
			die("not a file or a directory in the copy", sub);
		if (fstatat(basefd, wp, &w, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(w.st_mode) || w.st_size != o.st_size)
			die("a copied file unlike its source", sub);
		t->files++;
		t->bytes += (uint64_t)o.st_size;
	}
	strv_free(&names);
}

/* out/ holds exactly job (no stage, no moved-aside copy). */
static void
only_job(void)
{
	struct strv names = {0};

	names_in("out", &names);
	if (names.n != 1 || strcmp(names.v[0], "job") != 0)
		die("out/ holds other than job alone",
		    names.n ? names.v[names.n - 1] : "nothing");
	strv_free(&names);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct handoff_caps caps = { 1 << 20, RUN_OUT_FILES_DEFAULT,
				     RUN_OUT_DEPTH_DEFAULT };
	struct handoff_stats st;
	struct strv named = {0};
	struct stat sb;
	char rel[64], *why = NULL;
	int root, out, rc;

	if (size > 64 * 3)
		return -1;
	fresh();
	for (size_t i = 0; i + 3 <= size; i += 3) {
		uint8_t op = data[i], arg = data[i + 2];

		path_of(op, data[i + 1], rel, sizeof(rel));
		switch (op & 7) {
		case 0: case 1: parents(rel, 1); break;
		case 2: case 3: put_file(rel, (size_t)arg * 37); break;
		case 4: odd(rel, 0); break;
		case 5: odd(rel, 1); break;
		case 6: strv_push(&named, rel); break;
		default:
			caps.files = 1 + arg % 16;
			caps.depth = 1 + arg % 6;
			caps.bytes = (uint64_t)arg * 64;
			break;
		}
	}
	root = openat(basefd, "work", O_PATH | O_DIRECTORY | O_CLOEXEC);
	out = openat(basefd, "out", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || out < 0)
		abort();
	rc = handoff_copy(root, out, "out", "job", &named, &caps, &st, &why);
	close(root);
	close(out);
	only_job();
	if (rc == 0) {
		struct tally t = { 0, 0 };

		if (fstatat(basefd, "out/job/earlier", &sb,
			    AT_SYMLINK_NOFOLLOW) == 0)
			die("the earlier copy was mixed into the new", NULL);
		walk_out("", &t, 0);
		if (t.files != st.files || t.bytes != st.bytes)
			die("the stats are not what was copied", NULL);
		if (t.files > caps.files || t.bytes > caps.bytes)
			die("a cap was passed", NULL);
	} else {
		if (why == NULL)
			die("a failure without a why", NULL);
		if (fstatat(basefd, "out/job/earlier", &sb,
			    AT_SYMLINK_NOFOLLOW) != 0)
			die("a failure lost the earlier copy", NULL);
	}
	free(why);
	strv_free(&named);
	return 0;
}
