/* SPDX-License-Identifier: MIT */
/* ns_listen.c -- loopback listeners for the net-deny tests, started by the
 * test OUTSIDE the wall: a TCP and an MPTCP listener and a UDP socket on
 * 127.0.0.1, ephemeral ports.  Writes "tcp=<p> mptcp=<p> udp=<p>" (mptcp=0
 * when the kernel has no MPTCP) to FILE, then accepts and reads until
 * SIGTERM or 120 seconds pass.
 *
 *   ns_listen FILE */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static int
bound(int type, int proto, unsigned *port)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int s = socket(AF_INET, type, proto);

	*port = 0;
	if (s < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    (type == SOCK_STREAM && listen(s, 16) != 0) ||
	    getsockname(s, (struct sockaddr *)&sa, &len) != 0) {
		close(s);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return s;
}

static void
serve(struct pollfd *p, int n)
{
	char buf[64];
	int i, c;

	alarm(120);
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0 && errno != EINTR)
			return;
		for (i = 0; i < n; i++) {
			if (p[i].fd < 0 || !(p[i].revents & POLLIN))
				continue;
			if (i == 2) {
				(void)!read(p[i].fd, buf, sizeof(buf));
			} else if ((c = accept(p[i].fd, NULL, NULL)) >= 0) {
				close(c);
			}
		}
	}
}

int
main(int argc, char **argv)
{
	struct pollfd p[3];
	unsigned tcp, mptcp, udp;
	FILE *f;

	if (argc != 2)
		return 2;
	p[0].fd = bound(SOCK_STREAM, 0, &tcp);
	p[1].fd = bound(SOCK_STREAM, IPPROTO_MPTCP, &mptcp);
	p[2].fd = bound(SOCK_DGRAM, 0, &udp);
	if (p[0].fd < 0 || p[2].fd < 0)
		return 1;
	p[0].events = p[1].events = p[2].events = POLLIN;
	f = fopen(argv[1], "w");
	if (f == NULL)
		return 1;
	fprintf(f, "tcp=%u mptcp=%u udp=%u\n", tcp, mptcp, udp);
	if (fclose(f) != 0)
		return 1;
	serve(p, 3);
	return 0;
}
