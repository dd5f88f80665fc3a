/* SPDX-License-Identifier: MIT */
/* fdpath.c -- what os/posix/ asks of darwin (os/posix/posix.h): no O_PATH
 * (directories are opened O_RDONLY to walk), no AT_EMPTY_PATH, no
 * TIOCGDEV (no terminal is named: os_tty_probe says so), a descriptor's
 * name by fcntl(F_GETPATH), the device numbers of <sys/types.h>.  Written
 * without a Mac (docs/MACOS.md). */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/types.h>

const int posix_dir_search = O_RDONLY;
const int posix_walk_open = O_RDONLY | O_NONBLOCK;
const char posix_fd_dir[] = "/dev/fd";

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
