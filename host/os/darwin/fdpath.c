/* SPDX-License-Identifier: MIT */
/* fdpath.c -- what os/posix/ asks of darwin (os/posix/posix.h): no O_PATH
 * (directories are opened O_RDONLY to walk, an entry with O_SYMLINK so a
 * link is opened as the link), no AT_EMPTY_PATH, no
 * TIOCGDEV (no terminal is named: os_tty_probe says so), a descriptor's
 * name by fcntl(F_GETPATH), the device numbers of <sys/types.h>, stat's
 * st_mtimespec/st_ctimespec.  Written
 * without a Mac (docs/MACOS.md). */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

const int posix_dir_search = O_RDONLY;
const int posix_walk_open = O_RDONLY | O_NONBLOCK | O_SYMLINK;

void
posix_stat_times(const struct stat *st, int64_t *mtime_ns, int64_t *ctime_ns)
{
	*mtime_ns = (int64_t)st->st_mtimespec.tv_sec * 1000000000 +
		    st->st_mtimespec.tv_nsec;
	*ctime_ns = (int64_t)st->st_ctimespec.tv_sec * 1000000000 +
		    st->st_ctimespec.tv_nsec;
}
const char posix_fd_dir[] = "/dev/fd";

/* darwin cannot read a link by its descriptor (readlinkat(fd, "") is
 * ENOENT, freadlink only from macOS 13): the link's own name, from the
 * descriptor (F_GETPATH), is read while lstat() of that name is still the
 * descriptor's inode, before and after; else EAGAIN (it changed). */
long
posix_link_read(int fd, char *buf, size_t n)
{
	char name[PATH_MAX];
	struct stat mine, before, after;
	ssize_t k;

	if (fstat(fd, &mine) != 0 || !S_ISLNK(mine.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	if (fcntl(fd, F_GETPATH, name) == -1 || lstat(name, &before) != 0)
		return -1;
	k = readlink(name, buf, n);
	if (k < 0 || lstat(name, &after) != 0)
		return -1;
	if (before.st_dev != mine.st_dev || before.st_ino != mine.st_ino ||
	    after.st_dev != mine.st_dev || after.st_ino != mine.st_ino) {
		errno = EAGAIN;
		return -1;
	}
	if ((size_t)k >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[k] = '\0';
	return (long)k;
}

int
posix_fd_is_path(int fl)
{
	(void)fl;
	return 0;
}

int
posix_faccess_fd(int fd, int mode)
{
	(void)fd;
	(void)mode;
	errno = ENOSYS;
	return -1;
}

int
posix_tty_dev(int fd, uint64_t *out)
{
	(void)fd;
	(void)out;
	errno = ENOTTY;
	return -1;
}

int
posix_fd_path(int fd, char *buf, size_t n)
{
	char got[PATH_MAX];

	if (fcntl(fd, F_GETPATH, got) == -1 || strlen(got) >= n)
		return -1;
	memcpy(buf, got, strlen(got) + 1);
	return 0;
}

uint64_t
os_dev_make(unsigned ma, unsigned mi)
{
	return (uint64_t)makedev(ma, mi);
}

unsigned
os_dev_major(uint64_t dev)
{
	return (unsigned)major((dev_t)dev);
}

unsigned
os_dev_minor(uint64_t dev)
{
	return (unsigned)minor((dev_t)dev);
}
