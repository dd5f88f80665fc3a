/* SPDX-License-Identifier: MIT */
/* ns_escape.c -- escape attempts for the wall tests (run walled, and
 * unwalled as the control).  One subcommand per attempt; exit 0 and "ok"
 * on stdout when the attempt SUCCEEDED, exit 1 and "denied: <why>" when
 * the system refused it, exit 2 on bad usage.
 *
 *   ns_escape tiocsti [high]     ioctl(0, TIOCSTI) (high: cmd | 1 << 32)
 *   ns_escape kill-parent        kill(getppid(), 0)
 *   ns_escape ptrace-parent      ptrace(PTRACE_ATTACH, getppid())
 *   ns_escape fds                prints "fds=<list>" of open fds above 2
 *   ns_escape tcp|mptcp PORT     connect to 127.0.0.1:PORT
 *   ns_escape udp PORT           send one datagram to 127.0.0.1:PORT
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static int
verdict(int rc, const char *what)
{
	if (rc == 0) {
		printf("ok\n");
		return 0;
	}
	printf("denied: %s: %s\n", what, strerror(errno));
	return 1;
}

static int
try_tiocsti(int high)
{
	char c = '\n';
	unsigned long cmd = TIOCSTI;

	if (high)
		cmd |= 1UL << 32;
	return verdict(syscall(SYS_ioctl, 0, cmd, &c) == 0 ? 0 : -1,
		       "ioctl TIOCSTI");
}

static int
try_ptrace(void)
{
	pid_t pp = getppid();
	int st;

	if (ptrace(PTRACE_ATTACH, pp, NULL, NULL) != 0)
		return verdict(-1, "ptrace attach");
	waitpid(pp, &st, __WALL);
	ptrace(PTRACE_DETACH, pp, NULL, NULL);
	return verdict(0, "ptrace attach");
}

static int
try_fds(void)
{
	int fd, n = 0;

	printf("fds=");
	for (fd = 3; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			printf("%s%d", n++ ? "," : "", fd);
	printf("%s\n", n ? "" : "none");
	return 0;
}

static int
try_net(int type, int proto, const char *port)
{
	struct sockaddr_in sa;
	int s;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)strtoul(port, NULL, 10));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, type, proto);
	if (s < 0)
		return verdict(-1, "socket");
	if (type == SOCK_DGRAM)
		return verdict(sendto(s, "x", 1, 0, (struct sockaddr *)&sa,
				      sizeof(sa)) == 1 ? 0 : -1, "sendto");
	return verdict(connect(s, (struct sockaddr *)&sa, sizeof(sa)),
		       "connect");
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (strcmp(c, "tiocsti") == 0)
		return try_tiocsti(argc > 2 && strcmp(argv[2], "high") == 0);
	if (strcmp(c, "kill-parent") == 0)
		return verdict(kill(getppid(), 0), "kill");
	if (strcmp(c, "ptrace-parent") == 0)
		return try_ptrace();
	if (strcmp(c, "fds") == 0)
		return try_fds();
	if (argc == 3 && strcmp(c, "tcp") == 0)
		return try_net(SOCK_STREAM, 0, argv[2]);
	if (argc == 3 && strcmp(c, "mptcp") == 0)
		return try_net(SOCK_STREAM, IPPROTO_MPTCP, argv[2]);
	if (argc == 3 && strcmp(c, "udp") == 0)
		return try_net(SOCK_DGRAM, 0, argv[2]);
	fprintf(stderr, "usage: ns_escape tiocsti [high] | kill-parent | "
			"ptrace-parent | fds | tcp|mptcp|udp PORT\n");
	return 2;
}
