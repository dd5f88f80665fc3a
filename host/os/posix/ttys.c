/* SPDX-License-Identifier: MIT */
/* ttys.c -- terminals on POSIX (os/os.h "terminals"): fstat, isatty,
 * the platform's TIOCGDEV (posix_tty_dev: Linux; darwin has none, no
 * terminal is named there), F_GETFL; shared by linux and darwin.  The
 * device numbers are the platform's (fdpath.c). */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define DEVTTY "/dev/tty"


int
os_tty_probe(int fd, uint64_t *dev, struct os_stat *st, int *acc)
{
	int fl;

	*acc = 0;
	/* isatty() first: TIOCGDEV is asked of terminals only, never of a
	 * device that might read the request number as something else */
	if (os_fstat(fd, st) != 0 || !S_ISCHR(st->mode) || !isatty(fd) ||
	    posix_tty_dev(fd, dev) != 0 || (fl = fcntl(fd, F_GETFL)) < 0)
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
	int fd = posix_fd(open(DEVTTY, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
	int rc;

	if (fd < 0)
		return 0;
	rc = posix_tty_dev(fd, dev);
	close(fd);
	return rc == 0;
}

int
os_open_nofollow(const char *path)
{
	return posix_fd(open(path, posix_walk_open | O_CLOEXEC));
}
