/* SPDX-License-Identifier: MIT */
/* toolexec.c -- the tool runner's exec on darwin (posix.h), which has no
 * fexecve: the file kept open O_RDONLY from tool_find on, and before each
 * exec its name looked up again and compared by device and inode with the
 * kept descriptor; then execve by that name.  The gap (the name replaced
 * between the comparison and the exec) is said in docs/SPEC-SANDBOX.md
 * §15 and docs/MACOS.md.  Written without a Mac, not compiled by CI. */
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int
posix_tool_open(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

void
posix_tool_exec(int fd, const char *path, char *const argv[],
		char *const envp[])
{
	struct stat kept, now;

	if (fstat(fd, &kept) != 0 || stat(path, &now) != 0)
		return;
	if (kept.st_dev != now.st_dev || kept.st_ino != now.st_ino) {
		errno = ETXTBSY; /* the name no longer names the file found */
		return;
	}
	execve(path, argv, envp);
}
