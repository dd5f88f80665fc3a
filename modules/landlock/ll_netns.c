/* SPDX-License-Identifier: MIT */
/* ll_netns.c -- --net-allow for landlock.so (ABI 1.5, NS_WALL_NETNS).
 *
 * With NS_POLICY_NET_PROXIED the wall's own user namespace (ll_protect.c,
 * one unshare in the calling, single-threaded process before
 * landlock_restrict_self) takes a network namespace too: it holds only
 * `lo`, brought up here (SIOCSIFFLAGS on an AF_INET datagram socket).
 * Then, still before the Landlock domain, one TCP listener per port of
 * ns_policy.net_ports on 127.0.0.1 (and on [::1] where the namespace has
 * IPv6: a kernel without IPv6 or with it disabled on lo says so with
 * EAFNOSUPPORT or EADDRNOTAVAIL, and only then is it left out), each sent
 * over net_sink to the host's proxy and closed: the wall keeps none, and
 * the command, which starts with 0..2 and the launch's descriptors only
 * (ll_spawn.c's child_close), never holds one.  The namespace is made
 * once per process, like the Landlock domain: a second spawn() runs in
 * the same namespace, whose listeners the proxy still holds. */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "banned.h"
#include "ll_netns.h"
#include "ll_protect.h"

int
ll_netns_wanted(const struct ns_policy *pol)
{
	return (pol->flags & NS_POLICY_NET_PROXIED) != 0;
}

static int
port_twice(const struct ns_policy *pol, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (pol->net_ports[j] == pol->net_ports[i])
			return 1;
	return 0;
}

const char *
ll_netns_check(const struct ns_policy *pol, char *text, size_t n)
{
	const char *what = NULL;

	if (!NS_POLICY_HAS_NETNS(pol))
		what = "a policy older than ABI 1.5 asks for a network namespace";
	else if (pol->flags & NS_POLICY_NET_DENY)
		what = "net-deny and a proxied network together";
	else if (pol->n_net_ports < 1 || pol->net_ports == NULL)
		what = "a proxied network with no port to listen on";
	else if (pol->net_sink < 0)
		what = "a proxied network with no socket to send listeners to";
	for (size_t i = 0; what == NULL && i < pol->n_net_ports; i++)
		if (pol->net_ports[i] == 0 || port_twice(pol, i))
			what = "a listener port is 0 or named twice";
	if (what == NULL)
		return NULL;
	snprintf(text, n, "landlock.so: the host passed %s; a bug in "
			  "nova-sandbox, please report it", what);
	return text;
}

int
ll_netns_lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc, e;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	rc = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (rc == 0) {
		ifr.ifr_flags |= IFF_UP;
		rc = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	e = errno;
	close(s);
	errno = e;
	return rc;
}

/* One listener on the loopback address of family af; the socket, -1 with
 * errno, or -2 when the namespace has no such address (IPv6 absent). */
static int
listener(int af, uint16_t port)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	int s = socket(af, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, e;
	int bound;

	if (s < 0)
		return af == AF_INET6 && errno == EAFNOSUPPORT ? -2 : -1;
	a4.sin_port = a6.sin6_port = htons(port);
	a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a6.sin6_addr = in6addr_loopback;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    (af == AF_INET6 && setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one,
					  sizeof(one)) != 0))
		goto fail;
	bound = af == AF_INET ?
			bind(s, (struct sockaddr *)&a4, sizeof(a4)) :
			bind(s, (struct sockaddr *)&a6, sizeof(a6));
	if (bound != 0 && af == AF_INET6 && errno == EADDRNOTAVAIL) {
		close(s);
		return -2;
	}
	if (bound == 0 && listen(s, 128) == 0)
		return s;
fail:
	e = errno;
	close(s);
	errno = e;
	return -1;
}

/* One message: the port, host order, and the socket as SCM_RIGHTS. */
static int
send_one(int sink, uint16_t port, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { &port, sizeof(port) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	ssize_t w;

	memset(&u, 0, sizeof(u));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	do
		w = sendmsg(sink, &m, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w == (ssize_t)sizeof(port))
		return 0;
	if (w >= 0)
		errno = EMSGSIZE;
	return -1;
}

/* The listener of one family for one port, sent (sink >= 0) and closed. */
static int
listen_one(int af, uint16_t port, int sink, int *step)
{
	int s = listener(af, port), rc = 0, e;

	*step = LL_PS_LISTEN;
	if (s == -2)
		return 0;
	if (s < 0)
		return -1;
	*step = LL_PS_SEND;
	if (sink >= 0)
		rc = send_one(sink, port, s);
	e = errno;
	close(s);
	errno = e;
	return rc;
}

int
ll_netns_listen(const struct ns_policy *pol, int sink, int *step)
{
	for (size_t i = 0; i < pol->n_net_ports; i++)
		if (listen_one(AF_INET, pol->net_ports[i], sink, step) != 0 ||
		    listen_one(AF_INET6, pol->net_ports[i], sink, step) != 0)
			return -1;
	return 0;
}

void
ll_netns_ports(const struct ns_policy *pol, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pol->n_net_ports && at < n; i++) {
		int k = snprintf(buf + at, n - at, "%s%u", i ? "," : "",
				 (unsigned)pol->net_ports[i]);

		if (k < 0)
			break;
		at += (size_t)k;
	}
}

/* ---- the bypass NOTE (finish) -------------------------------------------- */

static void
bp_note(void *cookie, const char *text)
{
	const struct ll_bypass *b = cookie;

	if (b->host->note != NULL)
		b->host->note(b->host->cookie, text);
}

static void
bp_refuse(void *cookie, const char *reason, const char *text)
{
	const struct ll_bypass *b = cookie;

	b->host->refuse(b->host->cookie, reason, text);
}

static void
bp_text(void *cookie, const char *line)
{
	const struct ll_bypass *b = cookie;

	b->host->text(b->host->cookie, line);
}

static const char *
bp_option(void *cookie, const char *key)
{
	const struct ll_bypass *b = cookie;

	return b->host->option(b->host->cookie, key);
}

static void
bp_denial(void *cookie, const struct ns_denial *d)
{
	struct ll_bypass *b = cookie;

	if (d->op == NS_OP_CONNECT && d->path != NULL &&
	    strncmp(d->path, "AF_", 3) != 0) {
		if (b->n == 0)
			snprintf(b->first, sizeof(b->first), "%s", d->path);
		b->n += d->count;
	}
	b->host->denial(b->host->cookie, d);
}

void
ll_netns_bypass_init(struct ll_bypass *b, const struct ns_host *host)
{
	size_t n = host->struct_size < sizeof(b->counted) ?
			   host->struct_size : sizeof(b->counted);

	memset(b, 0, sizeof(*b));
	b->host = host;
	memcpy(&b->counted, host, n);
	b->counted.cookie = b;
	b->counted.note = bp_note;
	b->counted.refuse = bp_refuse;
	b->counted.text = bp_text;
	if (host->option != NULL)
		b->counted.option = bp_option;
	if (NS_HOST_HAS_DENIAL(host) && host->denial != NULL)
		b->counted.denial = bp_denial;
}

void
ll_netns_bypass_note(const struct ll_bypass *b)
{
	char text[320];

	if (b->n == 0 || b->host->note == NULL)
		return;
	snprintf(text, sizeof(text), "%llu connection attempt%s went around "
		 "the --net-allow proxy and %s refused (first: %s): a program "
		 "that ignores HTTP_PROXY, HTTPS_PROXY and ALL_PROXY gets no "
		 "network here", (unsigned long long)b->n, b->n == 1 ? "" : "s",
		 b->n == 1 ? "was" : "were", b->first);
	b->host->note(b->host->cookie, text);
}
