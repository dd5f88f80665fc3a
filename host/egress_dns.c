/* egress_dns.c -- the production resolver of `egress plan`: one A and
 * one AAAA query over UDP to the named resolver on port 53, written by
 * hand (no libresolv), 10 s in all, retried every 2 s. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "egress.h"

#define DNS_TIMEOUT_MS 10000
#define DNS_RETRY_MS 2000

int
egress_dns_query(unsigned id, const char *name, int qtype, unsigned char *buf,
		 size_t n)
{
	size_t o = 12, l;
	const char *p = name, *dot;

	if (n < 12 + strlen(name) + 6 || strlen(name) > 253)
		return -1;
	memset(buf, 0, 12);
	buf[0] = (unsigned char)(id >> 8);
	buf[1] = (unsigned char)id;
	buf[2] = 0x01; /* RD */
	buf[5] = 1;    /* QDCOUNT */
	for (;;) {
		dot = strchr(p, '.');
		l = dot ? (size_t)(dot - p) : strlen(p);
		if (l == 0 || l > 63)
			return -1;
		buf[o++] = (unsigned char)l;
		memcpy(buf + o, p, l);
		o += l;
		if (dot == NULL)
			break;
		p = dot + 1;
	}
	buf[o++] = 0;
	buf[o++] = 0;
	buf[o++] = (unsigned char)qtype;
	buf[o++] = 0;
	buf[o++] = 1; /* IN */
	return (int)o;
}

/* Skip a (possibly compressed) name at *o. */
static int
skip_name(const unsigned char *m, size_t len, size_t *o)
{
	for (int hops = 0; hops < 128; hops++) {
		if (*o >= len)
			return -1;
		if ((m[*o] & 0xc0) == 0xc0) {
			*o += 2;
			return *o <= len ? 0 : -1;
		}
		if (m[*o] & 0xc0)
			return -1;
		if (m[*o] == 0) {
			(*o)++;
			return 0;
		}
		*o += (size_t)m[*o] + 1;
	}
	return -1;
}

static unsigned
u16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static int
take_answer(const unsigned char *m, size_t len, size_t *o, int qtype,
	    struct ns_egress_addr *out, size_t max, size_t *n)
{
	unsigned type, rdlen;

	if (skip_name(m, len, o) < 0 || *o + 10 > len)
		return -1;
	type = u16(m + *o);
	rdlen = u16(m + *o + 8);
	*o += 10;
	if (*o + rdlen > len)
		return -1;
	if ((int)type == qtype && u16(m + *o - 8) == 1 && *n < max &&
	    rdlen == (qtype == 1 ? 4u : 16u)) {
		memset(&out[*n], 0, sizeof(out[*n]));
		out[*n].fam = qtype == 1 ? 4 : 6;
		out[*n].plen = qtype == 1 ? 32 : 128;
		memcpy(out[*n].a, m + *o, rdlen);
		(*n)++;
	}
	*o += rdlen;
	return 0;
}

int
egress_dns_parse(const unsigned char *m, size_t len, unsigned id, int qtype,
		 struct ns_egress_addr *out, size_t max, size_t *n, const char **why)
{
	size_t o = 12;
	unsigned qd, an;

	*n = 0;
	if (len < 12 || u16(m) != (id & 0xffff) || !(m[2] & 0x80))
		return *why = "not a reply to our query", -1;
	if (m[2] & 0x02)
		return *why = "the answer was truncated (TCP fallback is not "
		    "implemented)", -1;
	if ((m[3] & 0x0f) == 3)
		return *why = "no such name (NXDOMAIN)", -1;
	if ((m[3] & 0x0f) != 0)
		return *why = "the resolver answered with an error", -1;
	qd = u16(m + 4);
	an = u16(m + 6);
	for (unsigned i = 0; i < qd; i++)
		if (skip_name(m, len, &o) < 0 || (o += 4) > len)
			return *why = "a malformed reply", -1;
	for (unsigned i = 0; i < an; i++)
		if (take_answer(m, len, &o, qtype, out, max, n) < 0)
			return *why = "a malformed reply", -1;
	return 0;
}

static long
left_ms(const struct timespec *end)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (end->tv_sec - t.tv_sec) * 1000 +
	    (end->tv_nsec - t.tv_nsec) / 1000000;
}

static int
open_to(const struct ns_egress_addr *res)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	memset(&ss, 0, sizeof(ss));
	if (res->fam == 4) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(53);
		memcpy(&s4->sin_addr, res->a, 4);
		sl = sizeof(*s4);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(53);
		memcpy(&s6->sin6_addr, res->a, 16);
		sl = sizeof(*s6);
	}
	fd = socket(res->fam == 4 ? AF_INET : AF_INET6,
		    SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* One question, answered or timed out by `end`. */
static int
ask(int fd, const char *name, int qtype, const struct timespec *end,
    struct ns_egress_addr *out, size_t max, size_t *n, const char **why)
{
	unsigned char q[300], a[4096];
	unsigned short id;
	struct pollfd pfd = { fd, POLLIN, 0 };
	ssize_t k;
	int ql;
	long wait;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = (unsigned short)getpid();
	ql = egress_dns_query(id, name, qtype, q, sizeof(q));
	if (ql < 0)
		return *why = "not a name a query can carry", -1;
	while ((wait = left_ms(end)) > 0) {
		if (send(fd, q, (size_t)ql, 0) < 0 && errno != ECONNREFUSED)
			return *why = strerror(errno), -1;
		if (poll(&pfd, 1, (int)(wait < DNS_RETRY_MS ? wait :
					 DNS_RETRY_MS)) <= 0)
			continue;
		k = recv(fd, a, sizeof(a), 0);
		if (k < 0 && errno == ECONNREFUSED)
			return *why = "the resolver refused (nothing listens "
			    "on port 53)", -1;
		if (k >= 12 && u16(a) == id)
			return egress_dns_parse(a, (size_t)k, id, qtype, out,
						max, n, why);
	}
	return *why = "no answer from the resolver within 10 s", -1;
}

int
egress_dns_lookup(void *ctx, const struct ns_egress_addr *resolver, const char *name,
		  struct ns_egress_addr *out, size_t max, size_t *n, char **why)
{
	const char *w = NULL;
	struct timespec end;
	size_t n4 = 0, n6 = 0;
	int fd, rc;

	(void)ctx;
	*n = 0;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += DNS_TIMEOUT_MS / 1000;
	fd = open_to(resolver);
	if (fd < 0) {
		*why = strdup(strerror(errno));
		return -1;
	}
	rc = ask(fd, name, 1, &end, out, max, &n4, &w);
	if (rc == 0)
		rc = ask(fd, name, 28, &end, out + n4, max - n4, &n6, &w);
	close(fd);
	if (rc != 0) {
		*why = strdup(w ? w : "lookup failed");
		return -1;
	}
	*n = n4 + n6;
	return 0;
}
