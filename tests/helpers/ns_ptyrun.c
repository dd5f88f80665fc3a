/* SPDX-License-Identifier: MIT */
/* ns_ptyrun.c -- run a command in a new session whose controlling terminal
 * and stdin are a fresh pty (stdout and stderr stay the caller's), as a
 * terminal would; used to try TIOCSTI injection through the wall.  Exits
 * with the command's status (128+N for signal N).
 *
 *   ns_ptyrun CMD ARGS... */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void __attribute__((noreturn))
child(const char *slave, char **argv)
{
	int s;

	if (setsid() < 0)
		_exit(120);
	s = open(slave, O_RDWR);
	if (s < 0 || ioctl(s, TIOCSCTTY, 0) != 0 || dup2(s, 0) != 0)
		_exit(121);
	if (s > 2)
		close(s);
	execvp(argv[0], argv);
	_exit(127);
}

/* Drain the master (the echo of anything injected) until the child ends. */
static int
drain_and_wait(int m, pid_t pid)
{
	struct pollfd p = { .fd = m, .events = POLLIN };
	char buf[256];
	pid_t r;
	int st = 0;

	while ((r = waitpid(pid, &st, WNOHANG)) == 0) {
		if (poll(&p, 1, 50) > 0 && (p.revents & POLLIN))
			(void)!read(m, buf, sizeof(buf));
	}
	if (r < 0)
		return 125;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int
main(int argc, char **argv)
{
	const char *slave;
	pid_t pid;
	int m;

	if (argc < 2)
		return 2;
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 ||
	    (slave = ptsname(m)) == NULL) {
		perror("ns_ptyrun: pty");
		return 125;
	}
	pid = fork();
	if (pid < 0)
		return 125;
	if (pid == 0)
		child(slave, argv + 1);
	return drain_and_wait(m, pid);
}
