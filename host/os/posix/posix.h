/* SPDX-License-Identifier: MIT */
/* posix.h -- what the POSIX part of the os layer (os/posix/) asks of the
 * platform it is built for (os/linux/, os/darwin/): only inside os/.  The
 * answers are definitions in each platform's fdpath.c, never an #ifdef in
 * os/posix/ (which `make check-portable` compiles in glibc's POSIX mode,
 * as darwin would see it). */
#ifndef NS_OS_POSIX_H
#define NS_OS_POSIX_H

#include <stddef.h>
#include <stdint.h>

/* How a directory is opened only to walk from it (never read): O_PATH
 * where there is one, else O_RDONLY (a directory that must be searchable
 * is readable enough). */
extern const int posix_dir_search;
/* How an entry is opened only to be looked at or held as a rule, a link
 * opened as the link itself, never followed: O_PATH|O_NOFOLLOW; darwin
 * O_RDONLY|O_NONBLOCK|O_SYMLINK (darwin refuses O_NOFOLLOW on a link
 * with ELOOP even beside O_SYMLINK). */
extern const int posix_walk_open;
/* What the link open on fd (posix_walk_open) holds, into buf (n bytes,
 * NUL-terminated): its length, or -1 with errno.  Linux readlinkat(fd,
 * ""); darwin the link's name (F_GETPATH), read while its identity is
 * the descriptor's. */
long posix_link_read(int fd, char *buf, size_t n);
/* Where a descriptor reopens by name (os_fd_name): linux's
 * /proc/self/fd, the /dev/fd of the others. */
extern const char posix_fd_dir[];

/* Is a descriptor with these F_GETFL flags an O_PATH one (open for
 * nothing)?  0 where there is no O_PATH. */
int posix_fd_is_path(int fl);

/* faccessat() of the file fd has open itself (AT_EMPTY_PATH): 0, or -1
 * with errno (ENOSYS where the platform cannot ask of a descriptor). */
int posix_faccess_fd(int fd, int mode);

/* Which terminal fd is (TIOCGDEV, in the kernel's encoding made into
 * os_dev_make's): 0, or -1 (ENOTTY where the platform cannot say). */
int posix_tty_dev(int fd, uint64_t *dev);

/* The name the kernel gives what descriptor fd has open, NUL-terminated
 * into buf (n bytes), for messages only: 0, or -1. */
int posix_fd_path(int fd, char *buf, size_t n);

#endif
