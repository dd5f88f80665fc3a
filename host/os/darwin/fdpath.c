/* SPDX-License-Identifier: MIT */
/* fdpath.c -- a descriptor's name on darwin: fcntl(F_GETPATH) (written
 * without a Mac, not yet compiled there: docs/MACOS.md). */
#include "os/posix/posix.h"

#include <limits.h>
#include <string.h>

int
posix_fd_path(int fd, char *buf, size_t n)
{
	char got[PATH_MAX];

	if (fcntl(fd, F_GETPATH, got) == -1 || strlen(got) >= n)
		return -1;
	memcpy(buf, got, strlen(got) + 1);
	return 0;
}
