/* SPDX-License-Identifier: MIT */
/* toolexec.c -- the tool runner's exec on linux (posix.h): the program
 * kept as an O_PATH descriptor, executed by it (fexecve). */
#include "os/posix/posix.h"

#include <fcntl.h>
#include <unistd.h>

int
posix_tool_open(const char *path)
{
	return posix_fd(open(path, O_PATH | O_CLOEXEC));
}

void
posix_tool_exec(int fd, const char *path, char *const argv[],
		char *const envp[])
{
	/* not close-on-exec: a script's interpreter opens it as /dev/fd/N */
	int run = posix_fd(dup(fd));

	(void)path;
	if (run >= 0)
		fexecve(run, argv, envp);
}
