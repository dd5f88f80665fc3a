/* SPDX-License-Identifier: MIT */
/* nk_run.c -- the module kit's helper runner (nk_run.h): what apfsvol and
 * seatbelt each kept a copy of. */
#include "nk_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"

#if defined(__APPLE__)
#include <crt_externs.h>
char **
nk_environ(void)
{
	return *_NSGetEnviron();
}
#else
extern char **environ;
char **
nk_environ(void)
{
	return environ;
}
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

void
nk_child_signals(void)
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
child(const struct nk_exec *x, char *const *envp, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (x->reset_signals)
		nk_child_signals();
	if (x->cwd_fd >= 0 && fchdir(x->cwd_fd) != 0)
		_exit(127);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(127);
	close_above(3);
	execve(x->argv[0], x->argv, envp);
	dprintf(2, "cannot execute %s: %s\n", x->argv[0], strerror(errno));
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

/* n bytes more of a stream: the first ones kept, or the last ones. */
static void
keep(struct nk_keep *k, const char *b, size_t n)
{
	size_t cap = k->cap - 1;

	if (k->tail && n >= cap) {
		k->truncated |= n > cap || k->len > 0;
		b += n - cap;
		n = cap;
	}
	if (k->tail && k->len + n > cap) {
		memmove(k->buf, k->buf + (k->len + n - cap), cap - n);
		k->len = cap - n;
		k->truncated = 1;
	}
	if (n > cap - k->len) {
		n = cap - k->len;
		k->truncated = 1;
	}
	memcpy(k->buf + k->len, b, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

/* Both pipes read until EOF or the deadline; 0, or -1 late. */
static int
drain(int out, int err, const struct timespec *end, struct nk_keep *ko,
      struct nk_keep *ke)
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
			if (k > 0)
				keep(i == 0 ? ko : ke, buf, (size_t)k);
		}
	}
	return 0;
}

/* The child waited for until the deadline, SIGKILLed when it passes:
 * 0 exited in time, 1 killed, -1 waitpid failed. */
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
reap(pid_t pid, int late, const struct timespec *end, int *status,
     char *why, size_t why_len)
{
	int st = 0, w = wait_child(pid, late, end, &st);

	if (w < 0) {
		snprintf(why, why_len, "waitpid: %s", strerror(errno));
		return NK_FAILED;
	}
	if (w > 0)
		return NK_LATE;
	if (WIFSIGNALED(st)) {
		snprintf(why, why_len, "killed by signal %d", WTERMSIG(st));
		return NK_FAILED;
	}
	*status = WEXITSTATUS(st);
	return 0;
}

/* stdout's pipe and (unless merged) stderr's, close-on-exec. */
static int
open_pipes(int o[2], int e[2], int merge)
{
	if (pipe(o) < 0)
		return -1;
	if (!merge && pipe(e) < 0) {
		close(o[0]);
		close(o[1]);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(o[i], F_SETFD, FD_CLOEXEC);
		if (!merge)
			fcntl(e[i], F_SETFD, FD_CLOEXEC);
	}
	return 0;
}

static void
deadline(struct timespec *end, unsigned ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += ms / 1000;
	end->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (end->tv_nsec >= 1000000000L) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000L;
	}
}

int
nk_exec(const struct nk_exec *x, struct nk_keep *out, struct nk_keep *err,
	int *status, char *why, size_t why_len)
{
	char *const *envp = x->envp != NULL ? x->envp : nk_environ();
	struct timespec end;
	int o[2], e[2] = { -1, -1 }, late;
	pid_t pid;

	*status = -1;
	if (open_pipes(o, e, x->merge) < 0) {
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return NK_FAILED;
	}
	pid = fork();
	if (pid == 0)
		child(x, envp, o[1], x->merge ? o[1] : e[1]);
	close(o[1]);
	if (!x->merge)
		close(e[1]);
	if (pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(o[0]);
		if (!x->merge)
			close(e[0]);
		return NK_FAILED;
	}
	deadline(&end, x->timeout_ms);
	late = drain(o[0], x->merge ? -1 : e[0], &end, out, err);
	close(o[0]);
	if (!x->merge)
		close(e[0]);
	return reap(pid, late, &end, status, why, why_len);
}

void
nk_flatten(char *s)
{
	size_t n;

	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}
