/* SPDX-License-Identifier: MIT */
/* ns_netprobe -- the egress end-to-end probe (tests/integration/t_egress_e2e.sh).
 *   ns_netprobe tcp <addr> <port> <ms>   connect; prints OK or FAIL <why>
 *   ns_netprobe udp <addr> <port> <ms>   send a DNS query for github.com,
 *                                        wait for any reply; OK or FAIL
 *   ns_netprobe serve <addr>/<port>/<tcp|udp>...
 *                                        listen (tcp: accept and close;
 *                                        udp: echo) until killed
 * Exit 0 for OK, 1 for FAIL, 2 for usage. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const unsigned char query[] = {
	0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
	6, 'g', 'i', 't', 'h', 'u', 'b', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1 };

static int
addr_of(const char *a, int port, struct sockaddr_storage *ss, socklen_t *sl)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, a, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((unsigned short)port);
		*sl = sizeof(*s4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, a, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)port);
		*sl = sizeof(*s6);
		return AF_INET6;
	}
	return -1;
}

static int
result(int ok, const char *why)
{
	if (ok)
		printf("OK\n");
	else
		printf("FAIL %s\n", why);
	return ok ? 0 : 1;
}

static int
probe(const char *kind, const char *a, int port, int ms)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct pollfd p;
	char buf[512];
	int fam = addr_of(a, port, &ss, &sl), udp = strcmp(kind, "udp") == 0;
	int fd, err = 0;

	if (fam < 0)
		return 2;
	fd = socket(fam, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return result(0, strerror(errno));
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0 &&
	    errno != EINPROGRESS)
		return result(0, strerror(errno));
	if (udp && send(fd, query, sizeof(query), 0) < 0)
		return result(0, strerror(errno));
	p.fd = fd;
	p.events = udp ? POLLIN : POLLOUT;
	if (poll(&p, 1, ms) <= 0)
		return result(0, "timeout");
	if (udp)
		return recv(fd, buf, sizeof(buf), 0) > 0 ? result(1, "") :
		    result(0, strerror(errno));
	sl = sizeof(err);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl);
	return result(err == 0, strerror(err));
}

static int
listen_one(const char *spec, struct pollfd *p, int *udp)
{
	char a[80];
	int port, fd, one = 1;
	char proto[8];
	struct sockaddr_storage ss;
	socklen_t sl;
	const char *s1 = strchr(spec, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

	if (s2 == NULL || (size_t)(s1 - spec) >= sizeof(a))
		return -1;
	snprintf(a, sizeof(a), "%.*s", (int)(s1 - spec), spec);
	port = (int)strtol(s1 + 1, NULL, 10);
	snprintf(proto, sizeof(proto), "%s", s2 + 1);
	*udp = strcmp(proto, "udp") == 0;
	if (addr_of(a, port, &ss, &sl) < 0)
		return -1;
	fd = socket(ss.ss_family, *udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    (!*udp && listen(fd, 64) < 0)) {
		fprintf(stderr, "ns_netprobe: %s: %s\n", spec, strerror(errno));
		return -1;
	}
	p->fd = fd;
	p->events = POLLIN;
	return 0;
}

static int
serve(int n, char **specs)
{
	struct pollfd p[64];
	int udp[64];
	char buf[2048];
	struct sockaddr_storage from;
	socklen_t fl;
	ssize_t k;

	if (n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		if (listen_one(specs[i], &p[i], &udp[i]) < 0)
			return 2;
	printf("READY\n");
	fflush(stdout);
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0)
			return 1;
		for (int i = 0; i < n; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			fl = sizeof(from);
			if (udp[i]) {
				k = recvfrom(p[i].fd, buf, sizeof(buf), 0,
					     (struct sockaddr *)&from, &fl);
				if (k > 0)
					sendto(p[i].fd, buf, (size_t)k, 0,
					       (struct sockaddr *)&from, fl);
			} else {
				int c = accept(p[i].fd, NULL, NULL);

				if (c >= 0)
					close(c);
			}
		}
	}
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "serve") == 0)
		return serve(argc - 2, argv + 2);
	if (argc != 5 || (strcmp(argv[1], "tcp") && strcmp(argv[1], "udp"))) {
		fprintf(stderr, "usage: ns_netprobe tcp|udp <addr> <port> <ms> | "
			"serve <addr>/<port>/<tcp|udp>...\n");
		return 2;
	}
	return probe(argv[1], argv[2], atoi(argv[3]), atoi(argv[4]));
}
