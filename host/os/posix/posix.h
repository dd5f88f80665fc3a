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

/* ---- the tool runner (os/posix/tool.c, base/tool.h) -------------------- */

/* Open the program file at path to keep it from tool_find to the last
 * run, close-on-exec, links followed: linux O_PATH (it is executed by this
 * descriptor); darwin O_RDONLY (its identity is checked by it).  The
 * descriptor, or -1 with errno. */
int posix_tool_open(const char *path);
/* In the forked child, with stdio and the directory set: execute the
 * program kept open on fd (path: the name it was found by) with exactly
 * argv and envp.  Returns only when it could not (errno).  linux:
 * fexecve of a duplicate that is not close-on-exec (a script's
 * interpreter opens it as /dev/fd/N), so every run executes the inode
 * tool_find opened, whatever the name comes to mean.  darwin has no
 * fexecve: the name is looked up once more, right after fd's device and
 * inode are compared with it (ETXTBSY when they differ), then execve by
 * that name: a gap, the name could be replaced between the check and the
 * exec by whoever may write its directory (docs/SPEC-SANDBOX.md §15). */
void posix_tool_exec(int fd, const char *path, char *const argv[],
		     char *const envp[]);

#endif
