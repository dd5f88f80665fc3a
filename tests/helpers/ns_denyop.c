/* SPDX-License-Identifier: MIT */
/* ns_denyop.c -- file operations the denial corpus (tests/denials/) runs
 * inside the wall, each in a shape a tracer must follow: from a directory
 * descriptor, in a forked grandchild, in a second thread.
 *
 *   ns_denyop openat DIR NAME       open DIR O_PATH, then openat(fd, NAME)
 *                                   for reading and read it
 *   ns_denyop mkdirat DIR NAME      open DIR O_PATH, then mkdirat(fd, NAME)
 *   ns_denyop grandchild FILE       fork, fork again; the grandchild reads
 *                                   FILE; its status comes back up
 *   ns_denyop thread FILE           a second thread reads FILE
 *   ns_denyop ownlayer FILE         add an own Landlock layer that allows
 *                                   no reading, then read FILE, and from
 *                                   a forked child again (the refusals
 *                                   are that layer's, not the wall's)
 *
 * Exit 0 when the operation succeeded, 1 when it was refused (errno said on
 * stderr), 2 for usage or a failure of the scaffolding. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int
said(const char *what, const char *path, int err)
{
	fprintf(stderr, "ns_denyop: %s %s: %s\n", what, path, strerror(err));
	return 1;
}

/* read FILE (through fd dir when dir >= 0) to its end; 0 or 1 */
static int
read_at(int dir, const char *name)
{
	char buf[512];
	ssize_t n;
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return said("open", name, errno);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0) {
		int e = errno;
		close(fd);
		return said("read", name, e);
	}
	close(fd);
	return 0;
}

static int
dir_fd(const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		said("open O_PATH", dir, errno);
	return fd;
}

static int
do_openat(const char *dir, const char *name)
{
	int d = dir_fd(dir), rc;

	if (d < 0)
		return 2;
	rc = read_at(d, name);
	close(d);
	return rc;
}

static int
do_mkdirat(const char *dir, const char *name)
{
	int d = dir_fd(dir), rc = 0;

	if (d < 0)
		return 2;
	if (mkdirat(d, name, 0755) != 0)
		rc = said("mkdirat", name, errno);
	close(d);
	return rc;
}

/* wait for pid; its exit code, or 2 */
static int
reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

static int
do_grandchild(const char *file)
{
	pid_t child = fork();

	if (child < 0)
		return 2;
	if (child == 0) {
		pid_t grand = fork();

		if (grand < 0)
			_exit(2);
		if (grand == 0)
			_exit(read_at(AT_FDCWD, file));
		_exit(reap(grand));
	}
	return reap(child);
}

struct job {
	const char *file;
	int rc;
};

static void *
thread_main(void *arg)
{
	struct job *j = arg;

	j->rc = read_at(AT_FDCWD, j->file);
	return NULL;
}

static int
do_thread(const char *file)
{
	struct job j = { file, 2 };
	pthread_t t;

	if (pthread_create(&t, NULL, thread_main, &j) != 0)
		return 2;
	if (pthread_join(t, NULL) != 0)
		return 2;
	return j.rc;
}

static int
do_ownlayer(const char *file)
{
	struct landlock_ruleset_attr ra = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE |
				     LANDLOCK_ACCESS_FS_READ_DIR,
	};
	int fd = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof(ra), 0U);
	pid_t child;
	int rc;

	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
	    syscall(SYS_landlock_restrict_self, fd, 0U) != 0)
		return 2;
	close(fd);
	rc = read_at(AT_FDCWD, file);
	child = fork();
	if (child < 0)
		return 2;
	if (child == 0)
		_exit(read_at(AT_FDCWD, file));
	return rc == 1 && reap(child) == 1 ? 1 : 2;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "openat") == 0)
		return do_openat(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "mkdirat") == 0)
		return do_mkdirat(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "grandchild") == 0)
		return do_grandchild(argv[2]);
	if (argc == 3 && strcmp(argv[1], "thread") == 0)
		return do_thread(argv[2]);
	if (argc == 3 && strcmp(argv[1], "ownlayer") == 0)
		return do_ownlayer(argv[2]);
	fprintf(stderr, "usage: ns_denyop openat|mkdirat DIR NAME | "
		"grandchild|thread|ownlayer FILE\n");
	return 2;
}
