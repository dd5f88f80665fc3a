/* SPDX-License-Identifier: MIT */
/* posix.h -- what the POSIX part of the os layer (os/posix/) asks of the
 * platform it is built for (os/linux/, os/darwin/): only inside os/. */
#ifndef NS_OS_POSIX_H
#define NS_OS_POSIX_H

#include <fcntl.h>
#include <stddef.h>

/* How a directory is opened only to walk from it (never read): O_PATH
 * where there is one, else O_RDONLY (a directory that must be searchable
 * is readable enough). */
#ifdef O_PATH
#define POSIX_DIR_SEARCH O_PATH
#else
#define POSIX_DIR_SEARCH O_RDONLY
#endif

/* Where a descriptor reopens by name (os_fd_name): linux's /proc, the
 * /dev/fd of the others. */
#ifdef __linux__
#define POSIX_FD_DIR "/proc/self/fd"
#else
#define POSIX_FD_DIR "/dev/fd"
#endif

/* Is a descriptor with these F_GETFL flags an O_PATH one (open for
 * nothing)?  Only where O_PATH exists. */
static inline int
posix_fd_is_path(int fl)
{
#ifdef O_PATH
	return (fl & O_PATH) == O_PATH;
#else
	(void)fl;
	return 0;
#endif
}

/* The name the kernel gives what descriptor fd has open, NUL-terminated
 * into buf (n bytes), for messages only: 0, or -1. */
int posix_fd_path(int fd, char *buf, size_t n);

#endif
