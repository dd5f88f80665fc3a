/* SPDX-License-Identifier: MIT */
/* tool.c -- os/tool.h on POSIX: an external program kept open from
 * tool_find on, run by fork and the platform's exec of that file
 * (posix.h: linux fexecve of the O_PATH descriptor; darwin, which has no
 * fexecve, execve of the name after the file's identity is checked again),
 * argv only, exactly the environment given, in a session of its own (the
 * group the deadline kills), stdin /dev/null, stdout and stderr read by
 * poll until both close or the deadline passes. */
#include "os/tool.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- finding ------------------------------------------------------------ */

static int
try_dir(const char *dir, size_t dn, const char *name, struct tool *t)
{
	struct sbuf b = {0};
	struct stat st;
	int fd;

	sbuf_addn(&b, dir, dn);
	sbuf_addf(&b, "/%s", name);
	if (sbuf_failed(&b))
		return -1;
	fd = posix_tool_open(b.s);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 0111) == 0) {
		if (fd >= 0)
			close(fd);
		sbuf_free(&b);
		return 1;
	}
	t->fd = fd;
	t->path = sbuf_take(&b);
	if (t->path == NULL) {
		close(fd);
		t->fd = -1;
		return -1;
	}
	return 0;
}

int
tool_find(const char *name, const char *pathvar, struct tool *t)
{
	const char *p = pathvar, *e;
	int rc;

	t->fd = -1;
	t->path = NULL;
	if (p == NULL || strchr(name, '/') != NULL)
		return 1;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p || p[0] != '/')
			continue;
		rc = try_dir(p, (size_t)(e - p), name, t);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

void
tool_free(struct tool *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->path);
	t->path = NULL;
}

/* ---- running ------------------------------------------------------------ */

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* In the child: never returns.  The exec status pipe reports errno. */
static void
child(const struct tool *t, int cwd_fd, char *const argv[],
      char *const envp[], const int outp[2], const int errp[2], int stp)
{
	int e, nul;

	setsid(); /* a group to kill, and no terminal to prompt on */
	nul = posix_fd(open("/dev/null", O_RDONLY | O_CLOEXEC));
	if (nul < 0 || dup2(nul, 0) < 0 || dup2(outp[1], 1) < 0 ||
	    dup2(errp[1], 2) < 0)
		goto fail;
	if (cwd_fd >= 0 && fchdir(cwd_fd) != 0)
		goto fail;
	signal(SIGPIPE, SIG_DFL);
	posix_tool_exec(t->fd, t->path, argv, envp);
fail:
	e = errno;
	if (write(stp, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void
take(int fd, struct sbuf *b, size_t max, int *open_, int *trunc)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		*open_ = 0;
		return;
	}
	if (b->len + (size_t)n > max) {
		*trunc = 1;
		n = b->len < max ? (ssize_t)(max - b->len) : 0;
	}
	if (n > 0)
		sbuf_addn(b, buf, (size_t)n);
}

/* Read both pipes until both close or the deadline passes (1). */
static int
pump(int ofd, int efd, uint64_t deadline, struct toolres *res)
{
	int oo = 1, eo = 1;

	while (oo || eo) {
		struct pollfd p[2] = { { ofd, POLLIN, 0 }, { efd, POLLIN, 0 } };
		uint64_t t = now_ms();
		int n;

		if (t >= deadline)
			return 1;
		p[0].fd = oo ? ofd : -1;
		p[1].fd = eo ? efd : -1;
		n = poll(p, 2, (int)(deadline - t > 1000000 ? 1000000 :
				     deadline - t));
		if (n < 0 && errno != EINTR)
			return -1;
		if (n <= 0)
			continue;
		if (oo && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			take(ofd, &res->out, TOOL_MAX_OUT, &oo, &res->truncated);
		if (eo && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
			take(efd, &res->err, TOOL_MAX_ERR, &eo, &res->truncated);
	}
	return 0;
}

/* Wait for pid until the deadline (its group killed at once when kill_now,
 * or when the deadline passes: *timed_out).  Its exit code, 128+N, -1. */
static int
reap(pid_t pid, int kill_now, uint64_t deadline, int *timed_out)
{
	struct timespec step = { 0, 10 * 1000000L };
	int st;
	pid_t r;

	if (kill_now)
		kill(-pid, SIGKILL);
	for (;;) {
		r = waitpid(pid, &st, kill_now ? 0 : WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0 && now_ms() >= deadline) {
			/* its output closed, it did not end: the deadline holds */
			*timed_out = 1;
			kill_now = 1;
			kill(-pid, SIGKILL);
		} else if (r == 0) {
			nanosleep(&step, NULL);
		}
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/* pipe2(O_CLOEXEC) where every POSIX platform has it: the host is one
 * thread here, so no exec can come between the pipe and the flag. */
static int
pipe_cloexec(int p[2])
{
	if (posix_fd(pipe(p)) != 0)
		return -1;
	if (fcntl(p[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(p[1], F_SETFD, FD_CLOEXEC) != 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		p[0] = p[1] = -1;
		errno = e;
		return -1;
	}
	return 0;
}

static void
close2(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

int
tool_run(const struct tool *t, int cwd_fd, char *const argv[],
	 char *const envp[], unsigned timeout_ms, struct toolres *res)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, stp[2] = { -1, -1 };
	int e = 0, rc = 0;
	uint64_t deadline;
	pid_t pid;
	ssize_t n;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if (t->fd < 0) {
		errno = ENOENT;
		return -1;
	}
	if (pipe_cloexec(outp) != 0 || pipe_cloexec(errp) != 0 ||
	    pipe_cloexec(stp) != 0) {
		e = errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		goto fail;
	}
	if (pid == 0)
		child(t, cwd_fd, argv, envp, outp, errp, stp[1]);
	close(outp[1]);
	close(errp[1]);
	close(stp[1]);
	outp[1] = errp[1] = stp[1] = -1;
	n = read(stp[0], &e, sizeof(e));
	if (n == (ssize_t)sizeof(e)) {
		errno = e; /* the child's: out of descriptors is remembered */
		(void)posix_fd(-1);
		reap(pid, 1, 0, &rc);
		goto fail;
	}
	e = 0;
	deadline = now_ms() + timeout_ms;
	rc = pump(outp[0], errp[0], deadline, res);
	res->timed_out = rc == 1;
	/* on a timeout the group is killed before the leader is reaped,
	 * while its id cannot name another group */
	res->status = reap(pid, rc != 0, deadline, &res->timed_out);
	close2(outp);
	close2(errp);
	close2(stp);
	return 0;
fail:
	close2(outp);
	close2(errp);
	close2(stp);
	errno = e ? e : EIO;
	return -1;
}

void
toolres_free(struct toolres *res)
{
	sbuf_free(&res->out);
	sbuf_free(&res->err);
}
