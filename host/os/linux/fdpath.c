/* SPDX-License-Identifier: MIT */
/* fdpath.c -- what os/posix/ asks of linux (os/posix/posix.h): O_PATH,
 * AT_EMPTY_PATH, TIOCGDEV, a descriptor's /proc/self/fd link, the
 * device numbers of <sys/sysmacros.h> and stat's st_mtim/st_ctim. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

const int posix_dir_search = O_PATH;
const int posix_walk_open = O_PATH | O_NOFOLLOW;
const char posix_fd_dir[] = "/proc/self/fd";

void
posix_stat_times(const struct stat *st, int64_t *mtime_ns, int64_t *ctime_ns)
{
	*mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 +
		    st->st_mtim.tv_nsec;
	*ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 +
		    st->st_ctim.tv_nsec;
}

/* the link's own descriptor (O_PATH|O_NOFOLLOW): its empty name */
long
posix_link_read(int fd, char *buf, size_t n)
{
	ssize_t k = readlinkat(fd, "", buf, n);

	if (k < 0)
		return -1;
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
	return (fl & O_PATH) == O_PATH;
}

int
posix_faccess_fd(int fd, int mode)
{
	return faccessat(fd, "", mode, AT_EMPTY_PATH);
}

/* TIOCGDEV answers the kernel's new_encode_dev() form. */
int
posix_tty_dev(int fd, uint64_t *out)
{
	unsigned int d = 0;

	if (ioctl(fd, TIOCGDEV, &d) != 0)
		return -1;
	*out = os_dev_make((d & 0xfff00u) >> 8,
			   (d & 0xffu) | ((d >> 12) & 0xfff00u));
	return 0;
}

int
posix_fd_path(int fd, char *buf, size_t n)
{
	char link[32];
	ssize_t got;

	if (n < 2)
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	got = readlink(link, buf, n - 1);
	if (got <= 0 || (size_t)got >= n - 1)
		return -1;
	buf[got] = '\0';
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
