/* SPDX-License-Identifier: MIT */
/* ttys.c -- terminals on POSIX (os/os.h "terminals"): fstat, isatty,
 * TIOCGDEV where the kernel has it (Linux; darwin has none: no terminal
 * is named there), F_GETFL; shared by linux and darwin. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#endif

#define DEVTTY "/dev/tty"

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

#ifdef TIOCGDEV
/* TIOCGDEV answers the kernel's new_encode_dev() form. */
static int
tty_dev(int fd, uint64_t *out)
{
	unsigned int d = 0;

	if (ioctl(fd, TIOCGDEV, &d) != 0)
		return -1;
	*out = os_dev_make((d & 0xfff00u) >> 8,
			   (d & 0xffu) | ((d >> 12) & 0xfff00u));
	return 0;
}
#else
static int
tty_dev(int fd, uint64_t *out)
{
	(void)fd;
	(void)out;
	errno = ENOTTY;
	return -1;
}
#endif

int
os_tty_probe(int fd, uint64_t *dev, struct os_stat *st, int *acc)
{
	int fl;

	*acc = 0;
	/* isatty() first: TIOCGDEV is asked of terminals only, never of a
	 * device that might read the request number as something else */
	if (os_fstat(fd, st) != 0 || !S_ISCHR(st->mode) || !isatty(fd) ||
	    tty_dev(fd, dev) != 0 || (fl = fcntl(fd, F_GETFL)) < 0)
		return -1;
	if ((fl & O_ACCMODE) != O_WRONLY)
		*acc |= 1;
	if ((fl & O_ACCMODE) != O_RDONLY)
		*acc |= 2;
	return 0;
}

int
os_ctty_dev(uint64_t *dev)
{
	int fd = open(DEVTTY, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return 0;
	rc = tty_dev(fd, dev);
	close(fd);
	return rc == 0;
}

int
os_open_nofollow(const char *path)
{
#ifdef O_PATH
	return open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
#else
	return open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
#endif
}
