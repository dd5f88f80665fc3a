/* SPDX-License-Identifier: MIT */
/* fdpath.c -- a descriptor's name on linux: its /proc/self/fd link. */
#include "os/posix/posix.h"

#include <stdio.h>
#include <unistd.h>

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
