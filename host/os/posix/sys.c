/* SPDX-License-Identifier: MIT */
/* sys.c -- POSIX: what the worktree verb and toolchain discovery ask of
 * the system beside the walk (os/os.h): durable writes, a
 * rename over a file, a listable descriptor of a directory, the tree lock
 * a job holds (flock), environment names compared exactly, the
 * arguments and environment as the kernel gave them, and where a
 * private temporary directory may go.  Shared by linux and darwin. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h> /* setgroups */
#include <stdlib.h> /* getenv */
#include <stdio.h> /* renameat */
#include <string.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

/* EMFILE or ENFILE, once a descriptor could not be made for it */
static int fd_short;

int
posix_fd(int rc)
{
	if (rc < 0 && (errno == EMFILE || errno == ENFILE))
		fd_short = errno;
	return rc;
}

int
os_fd_made(int rc)
{
	return posix_fd(rc);
}

int
os_fd_exhausted(void)
{
	return fd_short;
}

long
os_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	return rl.rlim_cur > (rlim_t)LONG_MAX ? LONG_MAX : (long)rl.rlim_cur;
}

int
os_fsync(int fd)
{
	return fsync(fd);
}

int
os_replace_at(int dirfd, const char *from, const char *to)
{
	return renameat(dirfd, from, dirfd, to);
}

int
os_dir_reopen(int fd)
{
	return posix_fd(openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

int
os_dir_lock_at(int dirfd, const char *name, int *lockfd)
{
	int fd = posix_fd(openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC)), e;

	*lockfd = -1;
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*lockfd = fd;
	return 1;
}

const char *
os_env_get(char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

extern char **environ;

int
os_main_args(int *argc, char ***argv, char ***envp, char **why)
{
	(void)argc;
	(void)argv;
	*envp = environ;
	*why = NULL;
	return 0;
}

const char *
os_getenv(const char *name)
{
	return getenv(name);
}

const char *const *
os_env_system(void)
{
	static const char *const none[] = { NULL };

	return none;
}

const char *const *
os_env_profile(void)
{
	static const char *const none[] = { NULL };

	return none;
}

const char *const *
os_temp_dirs(void)
{
	static const char *const dirs[] = { "/tmp", "/var/tmp", NULL };

	return dirs;
}

int
os_become_nobody(void)
{
	const uid_t nobody = 65534;

	if (geteuid() != 0 && getuid() != 0)
		return 0;
	if (setgroups(0, NULL) != 0 || setgid(nobody) != 0 ||
	    setuid(nobody) != 0)
		return -1;
	/* setuid() from root to another uid drops every capability and
	 * every saved id; check that root cannot come back */
	if (setuid(0) == 0 || geteuid() == 0 || getegid() == 0)
		return errno = EPERM, -1;
	return 0;
}

void
posix_close_each_from(int lowfd)
{
	struct rlimit rl;
	long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		   rl.rlim_cur < 65536 ? (long)rl.rlim_cur : 65536;

	for (long fd = lowfd; fd < max; fd++)
		close((int)fd);
}
