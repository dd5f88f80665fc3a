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
/* Every descriptor the layer makes passes through here: rc as it is
 * (errno kept); a failure for EMFILE or ENFILE is remembered for
 * os_fd_exhausted (the cause a refusal then names). */
int posix_fd(int rc);

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

struct stat;
/* st's last modification and last status change, in nanoseconds since
 * 1970 (linux st_mtim, darwin st_mtimespec). */
void posix_stat_times(const struct stat *st, int64_t *mtime_ns,
		      int64_t *ctime_ns);
/* Is the directory open on fd (consumed: closed) the directory want
 * names or beneath it?  Walked up by ".." comparing identities, at most
 * max_depth levels: 1 or 0.  The in-use checks' (inuse.c in each). */
int posix_beneath(int fd, const struct stat *want, int max_depth);

/* Copy the whole module file open on from (path its name, for messages)
 * into to, the private copy it is loaded from (os_module_open): 0, or -1
 * with *why one sentence (heap; NULL when out of memory), also when the
 * file changed while it was copied (another size, mtime or ctime). */
int posix_module_copy(int from, int to, const char *path, char **why);

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

/* ---- the tool runner (os/posix/tool.c, os/tool.h) -------------------- */

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

/* One close() each, lowfd up to the descriptor limit (at most 65536):
 * os_close_from()'s way where close_range(2) is not there. */
void posix_close_each_from(int lowfd);

#endif
