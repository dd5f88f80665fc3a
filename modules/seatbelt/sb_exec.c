/* SPDX-License-Identifier: MIT */
/* sb_exec.c -- run one tool to its end: fork + execve of an absolute path
 * (no shell, no PATH), stdin /dev/null, stdout kept (bounded), stderr kept
 * apart or merged, a deadline (SIGKILL when it passes).  Used for the
 * preflight, the GPU probe and the log query; never for the command. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "sb.h"

/* A dylib has no direct `environ` on macOS (Apple: use _NSGetEnviron);
 * the portable core, built on Linux for the tests, has it. */
#if defined(__APPLE__)
#include <crt_externs.h>
#define sb_environ (*_NSGetEnviron())
#else
extern char **environ;
#define sb_environ environ
#endif

static void
close_above(int lo)
{
	struct rlimit rl;
	int hi = 4096;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 4096)
		hi = (int)rl.rlim_cur;
	for (int fd = lo; fd < hi; fd++)
		(void)close(fd);
}

/* Every disposition at its default and an empty mask (the host blocks
 * SIGCHLD and catches the stop signals), but one the caller ignored: the
 * host ignores none, so an ignored one stays ignored, as across exec. */
void
sb_child_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction old;

		if (sigaction(s, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		(void)sigaction(s, &sa, NULL); /* KILL/STOP: EINVAL */
	}
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}

static void __attribute__((noreturn))
child(char *const *argv, char *const *envp, int cwd_fd, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	sb_child_signals();

	if (cwd_fd >= 0 && fchdir(cwd_fd) != 0)
		_exit(127);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(127);
	close_above(3);
	execve(argv[0], argv, envp != NULL ? envp : sb_environ);
	dprintf(2, "cannot execute %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static long
ms_left(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(end->tv_sec - now.tv_sec) * 1000 +
	       (end->tv_nsec - now.tv_nsec) / 1000000;
}

static void
keep(char *buf, size_t cap, size_t *len, const char *b, size_t n)
{
	if (n > cap - 1 - *len)
		n = cap - 1 - *len;
	memcpy(buf + *len, b, n);
	*len += n;
	buf[*len] = '\0';
}

static int
drain(int out, int err, const struct timespec *end, struct sb_run *r)
{
	struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };
	size_t elen = 0;
	char buf[4096];
	ssize_t k;

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		long left = ms_left(end);

		if (left <= 0)
			return -1;
		if (poll(p, 2, (int)(left > 1000 ? 1000 : left)) < 0 &&
		    errno != EINTR)
			return -1;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || p[i].revents == 0)
				continue;
			k = read(p[i].fd, buf, sizeof(buf));
			if (k <= 0 && !(k < 0 && errno == EINTR)) {
				p[i].fd = -1;
				continue;
			}
			if (k > 0 && i == 0)
				keep(r->out, sizeof(r->out), &r->out_len, buf,
				     (size_t)k);
			else if (k > 0)
				keep(r->err, sizeof(r->err), &elen, buf,
				     (size_t)k);
		}
	}
	return 0;
}

static int
reap(pid_t pid, int late, unsigned timeout_ms, struct sb_run *r)
{
	int st = 0;

	if (late)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(r->why, sizeof(r->why), "waitpid: %s",
				 strerror(errno));
			return -1;
		}
	if (late) {
		snprintf(r->why, sizeof(r->why), "timed out after %u ms",
			 timeout_ms);
		return -1;
	}
	if (WIFSIGNALED(st)) {
		snprintf(r->why, sizeof(r->why), "killed by signal %d",
			 WTERMSIG(st));
		return -1;
	}
	r->status = WEXITSTATUS(st);
	return 0;
}

void
sb_flatten(char *s)
{
	size_t n;

	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}

int
sb_exec(char *const *argv, char *const *envp, int cwd_fd, int merge,
	unsigned timeout_ms, struct sb_run *r)
{
	struct timespec end;
	int o[2], e[2] = { -1, -1 }, late;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (pipe(o) < 0 || (!merge && pipe(e) < 0)) {
		snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(o[i], F_SETFD, FD_CLOEXEC);
		if (!merge)
			fcntl(e[i], F_SETFD, FD_CLOEXEC);
	}
	pid = fork();
	if (pid == 0)
		child(argv, envp, cwd_fd, o[1], merge ? o[1] : e[1]);
	close(o[1]);
	if (!merge)
		close(e[1]);
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		close(o[0]);
		if (!merge)
			close(e[0]);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_ms / 1000;
	end.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	late = drain(o[0], merge ? -1 : e[0], &end, r);
	close(o[0]);
	if (!merge)
		close(e[0]);
	return reap(pid, late, timeout_ms, r);
}
