/* SPDX-License-Identifier: MIT */
/* dns.c -- the production resolver of `egress plan`: one A and
 * one AAAA query over UDP to the named resolver on port 53, written by
 * hand (no libresolv), 10 s in all, re-sent after 2 s of silence; only
 * the reply to the question asked counts (see ask, egress_dns_parse). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "egress/allowlist.h"
#include "os/os.h"

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

static unsigned
u16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

#define NAME_BUF 256
#define RR_MAX 256
#define CHAIN_MAX 8

/* Read a (possibly compressed) name at *o into out, lowercased and dotted
 * ("" for the root); *o moves past it.  0 or -1 (malformed). */
static int
read_name(const unsigned char *m, size_t len, size_t *o, char *out)
{
	size_t p = *o, w = 0;
	int jumped = 0;

	for (int hops = 0; hops < 128; hops++) {
		if (p >= len)
			return -1;
		if ((m[p] & 0xc0) == 0xc0) {
			if (p + 1 >= len)
				return -1;
			if (!jumped)
				*o = p + 2;
			jumped = 1;
			p = (size_t)(m[p] & 0x3f) << 8 | m[p + 1];
			continue;
		}
		if (m[p] & 0xc0)
			return -1;
		if (m[p] == 0) {
			if (!jumped)
				*o = p + 1;
			out[w] = '\0';
			return 0;
		}
		if (p + 1 + m[p] > len || w + m[p] + 2 > NAME_BUF)
			return -1;
		if (w > 0)
			out[w++] = '.';
		for (size_t i = 0; i < m[p]; i++) {
			unsigned char c = m[p + 1 + i];

			out[w++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		p += (size_t)m[p] + 1;
	}
	return -1;
}

struct question {
	char name[NAME_BUF];
	unsigned type, class;
};

/* The one question at offset 12; *o moves past it. */
static int
read_question(const unsigned char *m, size_t len, size_t *o,
	      struct question *q)
{
	*o = 12;
	if (len < 12 || u16(m + 4) != 1 || read_name(m, len, o, q->name) < 0 ||
	    *o + 4 > len)
		return -1;
	q->type = u16(m + *o);
	q->class = u16(m + *o + 2);
	*o += 4;
	return 0;
}

struct rr {
	char owner[NAME_BUF];
	unsigned type, class, rdlen;
	size_t rdata;
};

static int
read_rr(const unsigned char *m, size_t len, size_t *o, struct rr *r)
{
	if (read_name(m, len, o, r->owner) < 0 || *o + 10 > len)
		return -1;
	r->type = u16(m + *o);
	r->class = u16(m + *o + 2);
	r->rdlen = u16(m + *o + 8);
	r->rdata = *o + 10;
	*o += 10 + r->rdlen;
	return *o <= len ? 0 : -1;
}

/* The asked name and the CNAME chain from it (at most CHAIN_MAX). */
static size_t
cname_chain(const unsigned char *m, size_t len, const struct rr *rrs,
	    size_t nrr, char chain[][NAME_BUF])
{
	size_t k = 1, o;
	int grew = 1;

	while (grew && k < CHAIN_MAX) {
		grew = 0;
		for (size_t i = 0; i < nrr && !grew; i++) {
			if (rrs[i].type != 5 || rrs[i].class != 1 ||
			    strcmp(rrs[i].owner, chain[k - 1]) != 0)
				continue;
			o = rrs[i].rdata;
			if (read_name(m, len, &o, chain[k]) < 0)
				return k;
			grew = 1;
			for (size_t j = 0; j < k; j++)	/* a loop ends it */
				grew &= strcmp(chain[j], chain[k]) != 0;
			k += (size_t)grew;
		}
	}
	return k;
}

static void
take_addrs(const unsigned char *m, const struct rr *rrs, size_t nrr,
	   char chain[][NAME_BUF], size_t nchain, unsigned qtype,
	   struct ns_egress_addr *out, size_t max, size_t *n)
{
	unsigned want = qtype == 1 ? 4 : 16;

	for (size_t i = 0; i < nrr && *n < max; i++) {
		int named = 0;

		if (rrs[i].type != qtype || rrs[i].class != 1 ||
		    rrs[i].rdlen != want)
			continue;
		for (size_t j = 0; j < nchain; j++)
			named |= strcmp(rrs[i].owner, chain[j]) == 0;
		if (!named)
			continue;
		memset(&out[*n], 0, sizeof(out[*n]));
		out[*n].fam = qtype == 1 ? 4 : 6;
		out[*n].plen = qtype == 1 ? 32 : 128;
		memcpy(out[*n].a, m + rrs[i].rdata, want);
		(*n)++;
	}
}

/* Is m a reply to q at all: the id, QR, and the question echoed. */
static int
is_reply_to(const unsigned char *m, size_t len, const unsigned char *q,
	    size_t qlen, struct question *asked, size_t *o)
{
	struct question got;
	size_t qo;

	if (len < 12 || qlen < 12 || u16(m) != u16(q) || !(m[2] & 0x80) ||
	    read_question(q, qlen, &qo, asked) < 0)
		return 0;
	return read_question(m, len, o, &got) == 0 &&
	    strcmp(got.name, asked->name) == 0 && got.type == asked->type &&
	    got.class == asked->class;
}

static int
parse_answers(const unsigned char *m, size_t len, size_t o,
	      const struct question *asked, struct ns_egress_addr *out,
	      size_t max, size_t *n, const char **why)
{
	char chain[CHAIN_MAX][NAME_BUF];
	size_t an = u16(m + 6), nrr = 0, nchain;
	struct rr *rrs;

	if (an > RR_MAX)
		return *why = "a reply with too many records", -1;
	if ((rrs = calloc(an ? an : 1, sizeof(*rrs))) == NULL)
		return *why = "out of memory", -1;
	for (; nrr < an; nrr++)
		if (read_rr(m, len, &o, &rrs[nrr]) < 0) {
			free(rrs);
			return *why = "a malformed reply", -1;
		}
	snprintf(chain[0], NAME_BUF, "%s", asked->name);
	nchain = cname_chain(m, len, rrs, nrr, chain);
	take_addrs(m, rrs, nrr, chain, nchain, asked->type, out, max, n);
	free(rrs);
	return 0;
}

/* What an error rcode says, as a static text. */
static const char *
rcode_text(unsigned rcode)
{
	static const char *const texts[] = {
		[1] = "the resolver answered FORMERR",
		[2] = "the resolver answered SERVFAIL",
		[3] = "no such name (NXDOMAIN)",
		[4] = "the resolver answered NOTIMP",
		[5] = "the resolver answered REFUSED",
	};

	if (rcode < sizeof(texts) / sizeof(texts[0]) && texts[rcode])
		return texts[rcode];
	return "the resolver answered with an error";
}

int
egress_dns_parse(const unsigned char *m, size_t len, const unsigned char *q,
		 size_t qlen, struct ns_egress_addr *out, size_t max, size_t *n,
		 const char **why)
{
	struct question asked;
	size_t o = 12;

	*n = 0;
	if (!is_reply_to(m, len, q, qlen, &asked, &o))
		return *why = "not a reply to our query", -2;
	if (m[2] & 0x02)
		return *why = "the answer was truncated (TCP fallback is not "
		    "implemented)", -1;
	if ((m[3] & 0x0f) != 0)
		return *why = rcode_text(m[3] & 0x0f), -1;
	return parse_answers(m, len, o, &asked, out, max, n, why);
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
	fd = os_fd_made(socket(res->fam == 4 ? AF_INET : AF_INET6,
			       SOCK_DGRAM, 0));
	if (fd >= 0 && (os_fd_cloexec(fd) != 0 ||
			connect(fd, (struct sockaddr *)&ss, sl) < 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* One question, answered or timed out by `end`.  The query goes out
 * again only after DNS_RETRY_MS of silence; a datagram that is not its
 * reply (another id, another question) is dropped and the wait goes on. */
static int
ask(int fd, const char *name, int qtype, const struct timespec *end,
    struct ns_egress_addr *out, size_t max, size_t *n, const char **why)
{
	unsigned char q[300], a[4096];
	unsigned short id;
	struct pollfd pfd = { fd, POLLIN, 0 };
	struct timespec resend = { 0, 0 };
	ssize_t k;
	int ql, rc;
	long wait;

	if (os_random_bytes(&id, sizeof(id)) != 0)
		id = (unsigned short)getpid();
	ql = egress_dns_query(id, name, qtype, q, sizeof(q));
	if (ql < 0)
		return *why = "not a name a query can carry", -1;
	while ((wait = left_ms(end)) > 0) {
		if (left_ms(&resend) <= 0) {
			if (send(fd, q, (size_t)ql, 0) < 0 &&
			    errno != ECONNREFUSED)
				return *why = strerror(errno), -1;
			clock_gettime(CLOCK_MONOTONIC, &resend);
			resend.tv_sec += DNS_RETRY_MS / 1000;
		}
		if (wait > left_ms(&resend))
			wait = left_ms(&resend);
		if (poll(&pfd, 1, (int)(wait > 0 ? wait : 0)) <= 0)
			continue;
		k = recv(fd, a, sizeof(a), 0);
		if (k < 0 && errno == ECONNREFUSED)
			return *why = "the resolver refused (nothing listens "
			    "on port 53)", -1;
		if (k < 0)
			continue;
		rc = egress_dns_parse(a, (size_t)k, q, (size_t)ql, out, max,
				      n, why);
		if (rc != -2)
			return rc;
	}
	return *why = "no answer from the resolver within 10 s", -1;
}

static void
deadline(struct timespec *end, long timeout_ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += timeout_ms / 1000;
	end->tv_nsec += (timeout_ms % 1000) * 1000000;
	if (end->tv_nsec >= 1000000000) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000;
	}
}

/* One family failed and the other answered: a note naming the one that
 * failed (NULL on ENOMEM). */
static char *
family_note(const char *bad, const char *why, const char *good)
{
	char *s;

	if (asprintf(&s, "%s failed (%s); only its %s addresses are pinned",
		     bad, why, good) < 0)
		return NULL;
	return s;
}

/* Both families asked (each its own answer or failure, one deadline for
 * the two).  One that failed while the other gave addresses is a note and
 * the answer is pinned, as a stub resolver does (dnsmasq answers AAAA
 * REFUSED for a host record without an IPv6 address); no address at all
 * is a failure naming what each family said. */
int
egress_dns_resolve(int fd, const char *name, long timeout_ms,
		   struct ns_egress_addr *out, size_t max, size_t *n,
		   char **why)
{
	const char *w4 = NULL, *w6 = NULL;
	struct timespec end;
	size_t n4 = 0, n6 = 0;
	int rc4, rc6;

	*n = 0;
	*why = NULL;
	deadline(&end, timeout_ms);
	rc4 = ask(fd, name, 1, &end, out, max, &n4, &w4);
	rc6 = ask(fd, name, 28, &end, out + n4, max - n4, &n6, &w6);
	if (rc4 == 0 && rc6 == 0) {
		*n = n4 + n6;
		return 0;
	}
	if (rc4 == 0 && n4 > 0) {
		*n = n4;
		*why = family_note("AAAA", w6 ? w6 : "lookup failed", "A");
		return *why != NULL ? 0 : -1;
	}
	if (rc6 == 0 && n6 > 0) {
		/* the AAAA answers sit after the (none) A ones */
		memmove(out, out + n4, n6 * sizeof(*out));
		*n = n6;
		*why = family_note("A", w4 ? w4 : "lookup failed", "AAAA");
		return *why != NULL ? 0 : -1;
	}
	if (asprintf(why, "A: %s; AAAA: %s",
		     rc4 == 0 ? "no A record" : w4 ? w4 : "lookup failed",
		     rc6 == 0 ? "no AAAA record" : w6 ? w6 : "lookup failed") < 0)
		*why = NULL;
	return -1;
}

int
egress_dns_lookup(void *ctx, const struct ns_egress_addr *resolver, const char *name,
		  struct ns_egress_addr *out, size_t max, size_t *n, char **why)
{
	int fd, rc;

	(void)ctx;
	*n = 0;
	fd = open_to(resolver);
	if (fd < 0) {
		*why = strdup(strerror(errno));
		return -1;
	}
	rc = egress_dns_resolve(fd, name, DNS_TIMEOUT_MS, out, max, n, why);
	close(fd);
	return rc;
}

int
egress_dns_ask(int fd, const char *name, int qtype, long timeout_ms,
	       struct ns_egress_addr *out, size_t max, size_t *n,
	       const char **why)
{
	struct timespec end;

	deadline(&end, timeout_ms);
	return ask(fd, name, qtype, &end, out, max, n, why);
}
