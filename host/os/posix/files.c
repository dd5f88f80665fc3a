/* SPDX-License-Identifier: MIT */
/* files.c -- POSIX paths and descriptors for the host: absolute names,
 * what a name is, a descriptor's reopenable name, a drop-in directory's
 * entries, the --status-fd checks, wait statuses and other processes. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

int
os_is_absolute(const char *path)
{
	return path != NULL && path[0] == '/';
}

const char *
os_last_sep(const char *path)
{
	return strrchr(path, '/');
}

int
os_has_sep(const char *s, size_t n)
{
	return memchr(s, '/', n) != NULL;
}

enum os_path_kind
os_path_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return OS_PATH_ABSENT;
	return S_ISLNK(st.st_mode) ? OS_PATH_LINK :
	       S_ISDIR(st.st_mode) ? OS_PATH_DIR : OS_PATH_OTHER;
}

int
os_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *
os_fd_name(int fd)
{
	return str_fmt("%s/%d", posix_fd_dir, fd);
}

int
os_open_own_at(int dirfd, const char *dirpath, const char *name)
{
	(void)dirpath;
	return posix_fd(openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		      O_NONBLOCK));
}

int
os_dir_names(int dirfd, const char *dirpath,
	     int (*fn)(void *arg, const char *name), void *arg)
{
	int fd2 = posix_fd(dup(dirfd)), rc = 0;
	DIR *dir = fd2 < 0 ? NULL : fdopendir(fd2);
	struct dirent *de;

	(void)dirpath;
	if (dir == NULL) {
		int e = errno;

		if (fd2 >= 0)
			close(fd2);
		errno = e;
		return -1;
	}
	while (rc == 0 && (de = readdir(dir)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = fn(arg, de->d_name);
	closedir(dir);
	return rc;
}

int
os_fd_writable(int fd, const char **why)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || posix_fd_is_path(fl)) {
		*why = " (not open)";
		return -1;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		*why = " (open read-only)";
		return -1;
	}
	return 0;
}

int
os_fd_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) != 0 ? -1 : 0;
}

int
os_wait_status(int st, int *code)
{
	if (WIFEXITED(st)) {
		*code = WEXITSTATUS(st);
		return 1;
	}
	if (WIFSIGNALED(st)) {
		*code = WTERMSIG(st);
		return 0;
	}
	return -1;
}

int
os_pid_alive(int64_t pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

int
os_pid_stop(int64_t pid, int hard)
{
	return kill((pid_t)pid, hard ? SIGKILL : SIGTERM);
}
