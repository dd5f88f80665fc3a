/* SPDX-License-Identifier: MIT */
/* inuse.c -- is a directory some process's working directory or root
 * (os_dir_in_use_at), read from /proc on Linux.  Each process's cwd and root
 * are opened through /proc (the kernel follows its own magic link; the
 * name is never read back) and walked up by ".." to the top, comparing
 * identities: a tree reached by any name, bind mount aside, is found. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define INUSE_MAX_DEPTH 4096

int
os_mount_id(int fd, unsigned long long *id)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &sx) != 0 || !(sx.stx_mask & STATX_MNT_ID))
		return -1;
	*id = sx.stx_mnt_id;
	return 0;
}

/* 1 in use, 0 not, 2 could not look. */
static int
one_pid(int procfd, const char *pid, const struct stat *want)
{
	static const char *const links[] = { "cwd", "root" };
	char name[300];
	int seen = 0;

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		int fd;

		snprintf(name, sizeof(name), "%s/%s", pid, links[i]);
		fd = posix_fd(openat(procfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC));
		if (fd < 0) {
			if (errno == EACCES || errno == EPERM)
				continue;
			seen = 1; /* gone, or no such link: nothing to see */
			continue;
		}
		seen = 1;
		if (posix_beneath(fd, want, INUSE_MAX_DEPTH))
			return 1;
	}
	return seen ? 0 : 2;
}

static int
numeric(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int
os_dir_in_use_at(int parent, const char *name, unsigned *unseen)
{
	struct stat want;
	struct dirent *de;
	DIR *d;
	int procfd, rc = 0, fd;

	*unseen = 0;
	fd = posix_fd(openat(parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	if (fd < 0)
		return -1;
	rc = fstat(fd, &want);
	close(fd);
	if (rc != 0)
		return -1;
	procfd = posix_fd(open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (procfd < 0)
		return -1;
	d = fdopendir(procfd);
	if (d == NULL) {
		close(procfd);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		int r;

		if (!numeric(de->d_name))
			continue;
		r = one_pid(dirfd(d), de->d_name, &want);
		if (r == 1)
			rc = 1;
		else if (r == 2)
			(*unseen)++;
	}
	closedir(d);
	return rc;
}

int
os_pid_cwd_name(int64_t pid, char *buf, size_t n)
{
	int k = snprintf(buf, n, "/proc/%lld/cwd", (long long)pid);

	if (k < 0 || (size_t)k >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}
