/* SPDX-License-Identifier: MIT */
/* hold.c -- POSIX: a directory kept reachable after the tool ends
 * (os/os.h os_hold_dir): a detached process whose working directory it
 * is, so that a place no name reaches any more (Linux: a tmpfs of a mount
 * namespace that is gone) stays open at /proc/<pid>/cwd until someone
 * stops the process. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every descriptor from `from` up closed. */
static void
close_from(int from)
{
	struct rlimit rl;
	long top = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		top = (long)rl.rlim_cur;
	for (long fd = from; fd < top; fd++)
		(void)close((int)fd);
}

/* The holder's descriptors: 0-2 on /dev/null, keepfd as 3 (when >= 0),
 * wfd as 4, nothing else (no pipe of the caller's: a reader waiting for
 * the tool's end must not wait for this process).  Each is first copied
 * above them all, so that no move overwrites another. */
static int
hold_fds(int keepfd, int wfd)
{
	int nul = open("/dev/null", O_RDWR), k = -1, w, n;

	n = nul >= 0 ? fcntl(nul, F_DUPFD, 10) : -1;
	w = fcntl(wfd, F_DUPFD, 10);
	if (keepfd >= 0)
		k = fcntl(keepfd, F_DUPFD, 10);
	if (n < 0 || w < 0 || (keepfd >= 0 && k < 0) ||
	    (k >= 0 && dup2(k, 3) != 3) || dup2(w, 4) != 4)
		return -1;
	for (int i = 0; i < 3; i++)
		if (dup2(n, i) != i)
			return -1;
	if (k < 0)
		(void)close(3);
	close_from(5);
	return 0;
}

/* The holder: a session of its own (the terminal's signals do not reach
 * it), every signal but SIGTERM blocked; it ends at SIGTERM or SIGKILL. */
static void __attribute__((noreturn))
hold_main(int dirfd, int keepfd, int wfd)
{
	sigset_t all;
	struct sigaction sa = { .sa_handler = SIG_DFL };
	char ok = 0;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (setsid() < 0 || fchdir(dirfd) != 0 ||
	    sigaction(SIGTERM, &sa, NULL) != 0 ||
	    hold_fds(keepfd, wfd) != 0 || write(4, &ok, 1) != 1)
		_exit(1);
	close(4);
	sigdelset(&all, SIGTERM);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (;;)
		pause();
}

int
os_hold_dir(int dirfd, int keepfd, int64_t *pid)
{
	int p[2];
	char ok = 1;
	pid_t c;

	*pid = -1;
	if (posix_fd(pipe(p)) != 0)
		return -1;
	(void)fcntl(p[0], F_SETFD, FD_CLOEXEC);
	c = fork();
	if (c == 0) {
		close(p[0]);
		hold_main(dirfd, keepfd, p[1]);
	}
	close(p[1]);
	while (c > 0 && read(p[0], &ok, 1) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (c > 0 && ok != 0) {
		while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
			;
		errno = ECHILD;
		return -1;
	}
	if (c < 0)
		return -1;
	*pid = (int64_t)c;
	return 0;
}
