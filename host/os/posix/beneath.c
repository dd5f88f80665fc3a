/* SPDX-License-Identifier: MIT */
/* beneath.c -- posix_beneath (posix.h): linux's and darwin's in-use
 * checks walk a process's directory up to see whether a tree holds it. */
#include "os/posix/posix.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int
posix_beneath(int fd, const struct stat *want, int max_depth)
{
	struct stat cur, up;
	int hit = 0;

	for (int depth = 0; depth < max_depth; depth++) {
		int pfd;

		if (fstat(fd, &cur) != 0)
			break;
		if (cur.st_dev == want->st_dev && cur.st_ino == want->st_ino) {
			hit = 1;
			break;
		}
		pfd = posix_fd(openat(fd, "..", posix_dir_search | O_DIRECTORY |
				       O_CLOEXEC));
		if (pfd < 0)
			break;
		if (fstat(pfd, &up) != 0 ||
		    (up.st_dev == cur.st_dev && up.st_ino == cur.st_ino)) {
			close(pfd);
			break; /* the top */
		}
		close(fd);
		fd = pfd;
	}
	close(fd);
	return hit;
}
