/* SPDX-License-Identifier: MIT */
/* rmtree.c -- rmtree_at (rmtree.h). */
#include "policy/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
rmtree_at(int dfd, const char *leaf, unsigned max_depth)
{
	struct stat sb;
	struct dirent *e;
	DIR *d;
	int fd, rc = 0, saved;

	if (fstatat(dfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(sb.st_mode))
		return unlinkat(dfd, leaf, 0);
	if (max_depth == 0) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((d = fdopendir(fd)) == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			rc = rmtree_at(dirfd(d), e->d_name, max_depth - 1);
	saved = errno;
	closedir(d);
	if (rc != 0) {
		errno = saved;
		return -1;
	}
	return unlinkat(dfd, leaf, AT_REMOVEDIR);
}
