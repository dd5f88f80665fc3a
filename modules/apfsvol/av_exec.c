/* SPDX-License-Identifier: MIT */
/* av_exec.c -- run one tool: fork + execve of an absolute path with an
 * argv (no shell), stdin /dev/null, stdout kept (bounded), the tail of
 * stderr kept, a deadline (SIGKILL when it passes). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "av.h"

extern char **environ;

#define AV_ENV_MAX 256

/* The caller's environment with the locale pinned to C (the tools' output
 * is parsed; `ps -o lstart=` is locale-dependent). */
static void
build_env(char **env, size_t cap)
{
	size_t n = 0;

	for (char **e = environ; e != NULL && *e != NULL && n + 2 < cap; e++)
		if (strncmp(*e, "LC_", 3) != 0 && strncmp(*e, "LANG=", 5) != 0)
			env[n++] = *e;
	env[n++] = (char *)"LC_ALL=C";
	env[n] = NULL;
}

static void
child(const char *const *argv, int out, int err)
{
	char *env[AV_ENV_MAX];
	int null = open("/dev/null", O_RDONLY);
	long max = sysconf(_SC_OPEN_MAX);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(127);
	if (max < 0 || max > 4096)
		max = 4096;
	for (int fd = 3; fd < max; fd++)
		close(fd);
	build_env(env, AV_ENV_MAX);
	execve(argv[0], (char *const *)argv, env);
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
keep_out(struct av_run *r, const char *b, size_t n)
{
	size_t room = sizeof(r->out) - 1 - r->out_len;

	if (n > room) {
		n = room;
		r->out_truncated = 1;
	}
	memcpy(r->out + r->out_len, b, n);
	r->out_len += n;
	r->out[r->out_len] = '\0';
}

/* Keep the last bytes of stderr. */
static void
keep_err(struct av_run *r, const char *b, size_t n)
{
	size_t have = strlen(r->err), cap = sizeof(r->err) - 1;

	if (n >= cap) {
		b += n - cap;
		n = cap;
	}
	if (have + n > cap) {
		memmove(r->err, r->err + (have + n - cap), cap - n);
		have = cap - n;
	}
	memcpy(r->err + have, b, n);
	r->err[have + n] = '\0';
}

/* Drain both pipes until EOF or the deadline; 0, or -1 on timeout. */
static int
drain(int out, int err, const struct timespec *end, struct av_run *r)
{
	struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };
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
				keep_out(r, buf, (size_t)k);
			else if (k > 0)
				keep_err(r, buf, (size_t)k);
		}
	}
	return 0;
}

static int
open_pipes(int o[2], int e[2])
{
	if (pipe(o) < 0)
		return -1;
	if (pipe(e) < 0) {
		close(o[0]);
		close(o[1]);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(o[i], F_SETFD, FD_CLOEXEC);
		fcntl(e[i], F_SETFD, FD_CLOEXEC);
	}
	return 0;
}

/* Wait for the child until the deadline; SIGKILL it when it passes. */
static int
wait_child(pid_t pid, int late, const struct timespec *end, int *st)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t w;

	while (!late) {
		w = waitpid(pid, st, WNOHANG);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -1;
		if (ms_left(end) <= 0)
			late = 1;
		else
			nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 1;
}

static int
reap_child(pid_t pid, int late, const struct timespec *end,
	   unsigned timeout, struct av_run *r)
{
	int st = 0, w = wait_child(pid, late, end, &st);

	if (w < 0) {
		snprintf(r->why, sizeof(r->why), "waitpid: %s",
			 strerror(errno));
		return -1;
	}
	if (w > 0) {
		snprintf(r->why, sizeof(r->why), "timed out after %us",
			 timeout);
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

int
av_exec(const char *const *argv, unsigned timeout, struct av_run *r)
{
	struct timespec end;
	int o[2], e[2], late;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (open_pipes(o, e) < 0) {
		snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0)
		child(argv, o[1], e[1]);
	close(o[1]);
	close(e[1]);
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		close(o[0]);
		close(e[0]);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout;
	late = drain(o[0], e[0], &end, r);
	close(o[0]);
	close(e[0]);
	return reap_child(pid, late, &end, timeout, r);
}

/* One line: newlines and tabs become spaces, trailing space dropped. */
static void
flatten(char *s)
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
av_check(const struct ns_host *h, const char *what, const char *const *argv,
	 int rc, struct av_run *r)
{
	flatten(r->err);
	if (rc < 0) {
		av_refuse(h, "volume_failed", "%s (%s) %s%s%s", what, argv[0],
			  r->why, r->err[0] ? ": " : "", r->err);
		return NS_E_SYSTEM;
	}
	if (r->status != 0) {
		av_refuse(h, "volume_failed", "%s (%s) failed with exit %d%s%s",
			  what, argv[0], r->status, r->err[0] ? ": " : "",
			  r->err);
		return NS_E_SYSTEM;
	}
	return NS_OK;
}

int
av_tool(const struct ns_host *h, const struct av_cfg *c, const char *what,
	const char *const *argv, struct av_run *r)
{
	return av_check(h, what, argv, av_exec(argv, c->timeout, r), r);
}
