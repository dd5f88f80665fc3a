/* SPDX-License-Identifier: MIT */
/* np_net.c -- netproxy's network helpers (np.h): the listeners from the
 * sink, name resolution, connect with a timeout, timed reads. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "banned.h"
#include "np.h"
#include "np_report.h"

#define FDS_PER_MSG 4

/* A listening TCP socket (IPv4 or IPv6). */
static int
is_listener(int fd)
{
	int acc = 0, type = 0;
	socklen_t l1 = sizeof(acc), l2 = sizeof(type);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &l1) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l2) != 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return 0;
	return acc == 1 && type == SOCK_STREAM &&
	       (ss.ss_family == AF_INET || ss.ss_family == AF_INET6);
}

/* The descriptors of one message's SCM_RIGHTS into fds; their count. */
static size_t
rights_of(struct msghdr *m, int *fds, size_t cap)
{
	size_t n = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c != NULL;
	     c = CMSG_NXTHDR(m, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k && n < cap; i++)
			memcpy(&fds[n++], CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
	}
	return n;
}

/* One message: 1 with a listener kept, 0 nothing kept, -1 EOF, -2 err. */
static int
one_listener(int sink, struct np_listener *l)
{
	union {
		char buf[CMSG_SPACE(FDS_PER_MSG * sizeof(int))];
		struct cmsghdr align;
	} u;
	uint16_t port = 0;
	struct iovec iov = { &port, sizeof(port) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	int fds[FDS_PER_MSG];
	ssize_t r = recvmsg(sink, &m, 0);
	size_t n;

	if (r < 0)
		return errno == EINTR ? 0 : -2;
	n = rights_of(&m, fds, FDS_PER_MSG);
	if (r == 0 && n == 0)
		return -1;
	for (size_t i = 1; i < n; i++)
		close(fds[i]);
	if (n == 0)
		return 0;
	(void)fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	if (r != sizeof(port) || port == 0 || (m.msg_flags & MSG_CTRUNC) ||
	    !is_listener(fds[0])) {
		close(fds[0]);
		np_report_once(NP_ONCE_LISTENER, "the proxy was sent a "
			       "descriptor that is not a listening TCP "
			       "socket with its port: closed");
		return 0;
	}
	l->fd = fds[0];
	l->port = port;
	return 1;
}

int
np_net_listeners(int sink, int stop, struct np_listener *ls, size_t cap,
		 size_t *n)
{
	struct pollfd p[2] = { { sink, POLLIN, 0 }, { stop, POLLIN, 0 } };
	struct np_listener extra;
	int k;

	*n = 0;
	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents != 0 && np_net_stop_now(stop))
			return 0; /* no more listeners */
		if (p[0].revents == 0)
			continue;
		k = one_listener(sink, *n < cap ? &ls[*n] : &extra);
		if (k == -1)
			return 0;
		if (k == -2)
			return -1;
		if (k == 1 && *n < cap)
			++*n;
		else if (k == 1) {
			close(extra.fd);
			np_report_once(NP_ONCE_LISTENERS, "the proxy was sent "
				       "more listeners than it serves (256): "
				       "the rest closed");
		}
	}
}

int
np_net_stop_now(int fd)
{
	char b[64];
	ssize_t r = read(fd, b, sizeof(b));

	return r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN);
}

static int
same_addr(const struct np_addr *a, const struct np_addr *b)
{
	return a->fam == b->fam && memcmp(a->a, b->a, sizeof(a->a)) == 0;
}

static int
addr_of(const struct addrinfo *ai, struct np_addr *o)
{
	memset(o, 0, sizeof(*o));
	if (ai->ai_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ai->ai_addr;

		o->fam = 4;
		memcpy(o->a, &s->sin_addr, 4);
		return 0;
	}
	if (ai->ai_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)ai->ai_addr;

		o->fam = 6;
		memcpy(o->a, &s->sin6_addr, 16);
		return 0;
	}
	return -1;
}

int
np_net_resolve(const char *name, struct np_addr *out, size_t cap)
{
	struct addrinfo hints, *res = NULL;
	size_t n = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return -1;
	for (struct addrinfo *ai = res; ai != NULL && n < cap; ai = ai->ai_next) {
		int dup = 0;

		if (addr_of(ai, &out[n]) != 0)
			continue;
		for (size_t i = 0; i < n && !dup; i++)
			dup = same_addr(&out[i], &out[n]);
		n += !dup;
	}
	freeaddrinfo(res);
	return (int)n;
}

static socklen_t
sockaddr_of(const struct np_addr *a, uint16_t port,
	    struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->fam == 4) {
		struct sockaddr_in *s = (void *)ss;

		s->sin_family = AF_INET;
		s->sin_port = htons(port);
		memcpy(&s->sin_addr, a->a, 4);
		return sizeof(*s);
	}
	struct sockaddr_in6 *s6 = (void *)ss;

	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons(port);
	memcpy(&s6->sin6_addr, a->a, 16);
	return sizeof(*s6);
}

static const char *
why_of(int err)
{
	if (err == ECONNREFUSED)
		return "refused";
	if (err == ETIMEDOUT)
		return "timeout";
	return "unreachable";
}

/* Non-blocking connect, then poll; the socket back in blocking mode. */
static int
connect_one(const struct np_addr *a, uint16_t port, int *err)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_of(a, port, &ss);
	int fd = socket(ss.ss_family, SOCK_STREAM, 0), fl, e = 0;
	socklen_t el = sizeof(e);
	struct pollfd p;

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	fl = fcntl(fd, F_GETFL);
	(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, (struct sockaddr *)&ss, sl) != 0 &&
	    errno != EINPROGRESS)
		e = errno;
	p = (struct pollfd){ fd, POLLOUT, 0 };
	if (e == 0 && poll(&p, 1, NP_CONNECT_MS) <= 0)
		e = ETIMEDOUT;
	if (e == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0)
		e = errno;
	if (e != 0) {
		close(fd);
		*err = e;
		return -1;
	}
	(void)fcntl(fd, F_SETFL, fl);
	return fd;
}

int
np_net_connect(const struct np_addr *addrs, size_t n, uint16_t port,
	       const char **why)
{
	int err = EHOSTUNREACH;

	for (size_t i = 0; i < n; i++) {
		int fd = connect_one(&addrs[i], port, &err);

		if (fd >= 0)
			return fd;
	}
	*why = why_of(err);
	return -1;
}

int
np_net_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

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

long
np_net_recv(int fd, void *buf, size_t cap)
{
	for (;;) {
		ssize_t r = recv(fd, buf, cap, 0);

		if (r >= 0 || errno != EINTR)
			return (long)r;
	}
}

void
np_net_timeouts(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int
np_net_wait(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };

	for (;;) {
		int r = poll(&p, 1, ms);

		if (r >= 0 || errno != EINTR)
			return r > 0 ? 1 : r;
	}
}

int
np_net_copy_rw(int from, int to)
{
	char buf[65536];

	for (;;) {
		long r = np_net_recv(from, buf, sizeof(buf));

		if (r == 0)
			return 0;
		if (r < 0 || np_net_write_all(to, buf, (size_t)r) != 0)
			return -1;
	}
}
