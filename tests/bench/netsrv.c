/* SPDX-License-Identifier: MIT */
/* netsrv.c -- the --net-allow bench's server (tests/bench/netallow.sh): a
 * minimal HTTP/1.0 server on the host's 127.0.0.1, fast enough that a
 * transfer through it measures the client's path, not the server.
 *
 *   netsrv <port-file>
 *
 * Listens on 127.0.0.1:0, writes the port (decimal, a newline) to
 * <port-file> once listening, then serves until killed: one process per
 * connection; a request "GET /<n> ..." is answered "200 OK" with n bytes
 * ('x' repeated), then the connection is closed.  Any other request: 400. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (256 * 1024)

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* the byte count of "GET /<n> ", or -1 */
static long long
wanted(const char *req)
{
	char *end;
	long long n;

	if (strncmp(req, "GET /", 5) != 0)
		return -1;
	errno = 0;
	n = strtoll(req + 5, &end, 10);
	if (errno != 0 || end == req + 5 || *end != ' ' || n < 0)
		return -1;
	return n;
}

static void
serve(int c)
{
	static char buf[CHUNK];
	char req[1024], head[128];
	size_t have = 0;
	long long n;
	ssize_t r;

	while (have < sizeof req - 1) {
		r = read(c, req + have, sizeof req - 1 - have);
		if (r <= 0)
			return;
		have += (size_t)r;
		req[have] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	n = wanted(req);
	if (n < 0) {
		(void)write_all(c, "HTTP/1.0 400 Bad Request\r\n\r\n", 28);
		return;
	}
	r = snprintf(head, sizeof head, "HTTP/1.0 200 OK\r\nContent-Length: %lld\r\n\r\n", n);
	if (r < 0 || write_all(c, head, (size_t)r) < 0)
		return;
	memset(buf, 'x', sizeof buf);
	while (n > 0) {
		size_t k = n > CHUNK ? CHUNK : (size_t)n;

		if (write_all(c, buf, k) < 0)
			return;
		n -= (long long)k;
	}
}

static int
listener(const char *portfile)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	FILE *f;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 256) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0)
		return -1;
	f = fopen(portfile, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "%u\n", ntohs(a.sin_port));
	return fclose(f) == 0 ? s : -1;
}

int
main(int argc, char **argv)
{
	int s;

	if (argc != 2) {
		fprintf(stderr, "usage: netsrv <port-file>\n");
		return 2;
	}
	signal(SIGCHLD, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	s = listener(argv[1]);
	if (s < 0) {
		perror("netsrv");
		return 1;
	}
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0)
			continue;
		if (fork() == 0) {
			close(s);
			serve(c);
			_exit(0);
		}
		close(c);
	}
}
