/* SPDX-License-Identifier: MIT */
/* modcopy.c -- the private copy a module is loaded from on linux and
 * darwin (os_module_open in each modfile.c): every byte of the checked
 * file, and proof that the file did not change while it was copied. */
#include "os/posix/posix.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/util.h"

/* The same file, unchanged: same inode and size, and neither a write nor
 * a chmod or chown between (each moves the mtime or the ctime). */
static int
unchanged(const struct stat *a, const struct stat *b)
{
	int64_t am, ac, bm, bc;

	posix_stat_times(a, &am, &ac);
	posix_stat_times(b, &bm, &bc);
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size && am == bm && ac == bc;
}

/* Copy from offset 0 to the end: the bytes copied, or -1 with errno. */
static off_t
copy_all(int from, int to)
{
	char buf[16384];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(from, buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return off;
		if (fd_write_all(to, buf, (size_t)n) != 0)
			return -1;
		off += n;
	}
}

int
posix_module_copy(int from, int to, const char *path, char **why)
{
	struct stat before, after;
	off_t n;

	*why = NULL;
	if (fstat(from, &before) != 0) {
		*why = str_fmt("cannot stat %s: %s", path, strerror(errno));
		return -1;
	}
	n = copy_all(from, to);
	if (n < 0) {
		*why = str_fmt("cannot copy %s to load it: %s", path,
			       strerror(errno));
		return -1;
	}
	if (fstat(from, &after) != 0 || !unchanged(&before, &after) ||
	    n != before.st_size) {
		*why = str_fmt("%s changed while it was being loaded (written "
			       "in place); replace a module file by rename "
			       "(a new file beside it, then mv over it), then "
			       "run again", path);
		return -1;
	}
	return 0;
}
