/* SPDX-License-Identifier: MIT */
/* ll_audit.c -- the Landlock audit records as a second source of denials
 * (ll_audit.h).  The kernel logs a Landlock refusal as an
 * AUDIT_LANDLOCK_ACCESS record (domain=<id> blockers=<right> path=...),
 * the first one of a domain with an AUDIT_LANDLOCK_DOMAIN record naming
 * the pid that created it, and (with an audit context) a SYSCALL record of
 * the same event naming the caller.  They reach every listener of the
 * audit netlink group AUDIT_NLGRP_READLOG, which needs CAP_AUDIT_READ; the
 * kernel writes them only when audit is on.  Only refusals the wall made
 * are logged (DAC's are not), so nothing here needs a DAC check. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "ll_audit.h"
#include "ll_table.h"
#include "ll_trace.h"

#ifndef AUDIT_LANDLOCK_ACCESS
#define AUDIT_LANDLOCK_ACCESS 1423
#endif
#ifndef AUDIT_LANDLOCK_DOMAIN
#define AUDIT_LANDLOCK_DOMAIN 1424
#endif
#ifndef AUDIT_NLGRP_READLOG
#define AUDIT_NLGRP_READLOG 1
#endif

#define AU_QUIET_MS 30   /* the kernel's queue is drained: this long silent */
#define AU_MAX_MS 300    /* and never longer than this in all */
#define AU_MAX_EVENTS 1024
#define PROC_PID_INIT_INO 0xEFFFFFFCu /* the initial PID namespace */

/* ---- parsing ------------------------------------------------------------- */

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Where " key=" (or "key=" at the start of the fields) begins in text. */
static const char *
find_key(const char *text, size_t n, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = 0; i + k + 1 <= n; i++) {
		if ((i == 0 || text[i - 1] == ' ') &&
		    memcmp(text + i, key, k) == 0 && text[i + k] == '=')
			return text + i + k + 1;
	}
	return NULL;
}

/* An audit "untrusted string": even-length uppercase/lowercase hex. */
static int
decode_hex(const char *v, size_t len, char *out, size_t outn)
{
	size_t j = 0;

	if (len == 0 || len % 2 != 0 || len / 2 >= outn)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hexval(v[i]), lo = hexval(v[i + 1]);

		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			return -1;
		out[j++] = (char)(hi * 16 + lo);
	}
	out[j] = '\0';
	return 0;
}

int
ll_audit_field(const char *text, size_t n, const char *key, char *out,
	       size_t outn)
{
	const char *v = find_key(text, n, key), *end = text + n, *e;
	size_t len;

	if (v == NULL || outn == 0)
		return -1;
	if (v < end && *v == '"') {
		v++;
		e = memchr(v, '"', (size_t)(end - v));
		if (e == NULL)
			return -1;
		len = (size_t)(e - v);
		if (len >= outn || memchr(v, '\0', len) != NULL)
			return -1;
		memcpy(out, v, len);
		out[len] = '\0';
		return 0;
	}
	for (e = v; e < end && *e != ' ' && *e != '\0' && *e != '\n'; e++)
		;
	len = (size_t)(e - v);
	if (len == 0)
		return -1;
	/* a path, an exe: quoted, or hex when it has a byte audit escapes */
	if (strcmp(key, "path") == 0)
		return decode_hex(v, len, out, outn);
	if (len >= outn)
		return -1;
	memcpy(out, v, len);
	out[len] = '\0';
	return 0;
}

static int
field_u64(const char *text, size_t n, const char *key, int base,
	  uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (ll_audit_field(text, n, key, buf, sizeof(buf)) != 0)
		return -1;
	errno = 0;
	v = strtoull(buf, &end, base);
	if (errno != 0 || *end != '\0' || end == buf)
		return -1;
	*out = v;
	return 0;
}

/* "audit(<sec>.<ms>:<serial>): " -- the serial; the fields after it. */
static int
parse_serial(const char *text, size_t n, uint64_t *serial, size_t *fields)
{
	const char *p = memchr(text, '(', n), *end = text + n, *c;
	uint64_t v = 0;

	if (n < 8 || memcmp(text, "audit(", 6) != 0 || p == NULL)
		return -1;
	c = memchr(p, ':', (size_t)(end - p));
	if (c == NULL)
		return -1;
	for (c++; c < end && *c >= '0' && *c <= '9'; c++)
		v = v * 10 + (uint64_t)(*c - '0');
	if (c + 2 > end || c[0] != ')' || c[1] != ':')
		return -1;
	*serial = v;
	*fields = (size_t)(c + 2 - text);
	while (*fields < n && text[*fields] == ' ')
		(*fields)++;
	return 0;
}

/* The first blocker's operation (ns_backend.h enum ns_op).  A change of
 * a directory's entries is logged on the directory (the record has no
 * entry name): it reads as a write into that directory. */
/* mode: what DAC must allow the same user for the remedy to help
 * (faccessat), -1 for a refusal with no path to ask about. */
static const struct {
	const char *prefix;
	uint32_t op;
	int mode;
} blockers[] = {
	{ "fs.execute", NS_OP_EXEC, X_OK },
	{ "fs.read_file", NS_OP_READ, R_OK },
	{ "fs.read_dir", NS_OP_READ, R_OK },
	{ "fs.write_file", NS_OP_WRITE, W_OK },
	{ "fs.truncate", NS_OP_WRITE, W_OK },
	{ "fs.make_", NS_OP_WRITE, W_OK | X_OK },
	{ "fs.remove_", NS_OP_WRITE, W_OK | X_OK },
	{ "fs.refer", NS_OP_WRITE, W_OK | X_OK },
	{ "net.connect_", NS_OP_CONNECT, -1 },
	{ "net.bind_", NS_OP_BIND, -1 },
};

static uint32_t
blocker_op(const char *b, int *mode)
{
	for (size_t i = 0; i < sizeof(blockers) / sizeof(blockers[0]); i++)
		if (strncmp(b, blockers[i].prefix,
			    strlen(blockers[i].prefix)) == 0) {
			*mode = blockers[i].mode;
			return blockers[i].op;
		}
	*mode = -1;
	return NS_OP_OTHER;
}

/* The object of an access record: its path, the address of a network
 * refusal, else the blocker itself (a scope refusal has no path). */
static void
access_object(const char *f, size_t n, struct ll_arec *r)
{
	char a[64], port[16];

	if (ll_audit_field(f, n, "path", r->path, sizeof(r->path)) == 0 &&
	    r->path[0] == '/')
		return;
	if (r->op == NS_OP_CONNECT &&
	    ll_audit_field(f, n, "daddr", a, sizeof(a)) == 0 &&
	    ll_audit_field(f, n, "dest", port, sizeof(port)) == 0) {
		/* as the tracer names it: "<addr>:<port>", "[<v6>]:<port>" */
		snprintf(r->path, sizeof(r->path), strchr(a, ':') != NULL ?
			 "[%s]:%s" : "%s:%s", a, port);
		return;
	}
	if (r->op == NS_OP_BIND &&
	    ll_audit_field(f, n, "src", port, sizeof(port)) == 0) {
		snprintf(r->path, sizeof(r->path), "tcp port %s", port);
		return;
	}
	snprintf(r->path, sizeof(r->path), "%s", r->blocker);
	if (r->op != NS_OP_CONNECT && r->op != NS_OP_BIND)
		r->op = NS_OP_OTHER;
}

int
ll_audit_parse(int type, const char *text, size_t n, struct ll_arec *out)
{
	size_t at;
	uint64_t v;
	char word[32];

	memset(out, 0, sizeof(*out));
	if (parse_serial(text, n, &out->serial, &at) != 0)
		return -1;
	text += at;
	n -= at;
	if (type == AUDIT_SYSCALL) {
		if (field_u64(text, n, "pid", 10, &v) != 0 || v == 0)
			return -1;
		out->pid = (pid_t)v;
		return 0;
	}
	if (type != AUDIT_LANDLOCK_ACCESS && type != AUDIT_LANDLOCK_DOMAIN)
		return -1;
	if (field_u64(text, n, "domain", 16, &out->domain) != 0)
		return -1;
	if (type == AUDIT_LANDLOCK_DOMAIN) {
		if (ll_audit_field(text, n, "status", word, sizeof(word)) != 0)
			return -1;
		out->allocated = strcmp(word, "allocated") == 0;
		if (out->allocated &&
		    (field_u64(text, n, "pid", 10, &v) != 0 || v == 0))
			return -1;
		out->pid = out->allocated ? (pid_t)v : 0;
		return 0;
	}
	if (ll_audit_field(text, n, "blockers", out->blocker,
			   sizeof(out->blocker)) != 0)
		return -1;
	out->blocker[strcspn(out->blocker, ",")] = '\0';
	out->op = blocker_op(out->blocker, &out->mode);
	access_object(text, n, out);
	if (out->path[0] != '/')
		out->mode = -1;
	return 0;
}

/* ---- the state here -------------------------------------------------- */

/* AUDIT_GET: 1 on, 0 off, -1 when it cannot be asked (no
 * CAP_AUDIT_CONTROL, another user namespace, ...). */
static int
audit_enabled(void)
{
	struct {
		struct nlmsghdr h;
		struct audit_status s;
	} req, rep;
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	struct pollfd pf;
	int fd, on = -1;
	ssize_t got;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_AUDIT);
	if (fd < 0)
		return -1;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(0);
	req.h.nlmsg_type = AUDIT_GET;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = 1;
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&k,
		   sizeof(k)) < 0)
		goto out;
	pf.fd = fd;
	pf.events = POLLIN;
	while (poll(&pf, 1, 200) > 0) {
		got = recv(fd, &rep, sizeof(rep), 0);
		if (got < (ssize_t)sizeof(struct nlmsghdr) ||
		    rep.h.nlmsg_type == NLMSG_ERROR)
			break;
		if (rep.h.nlmsg_type == AUDIT_GET &&
		    got >= (ssize_t)(NLMSG_LENGTH(0) + 2 * sizeof(uint32_t))) {
			on = rep.s.enabled != 0;
			break;
		}
	}
out:
	close(fd);
	return on;
}

/* The records name pids of the initial PID namespace. */
static int
in_init_pidns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 &&
	       st.st_ino == PROC_PID_INIT_INO;
}

enum ll_audit_state
ll_audit_state(void)
{
	int on;

	if (!ll_can_read_audit())
		return LL_AUDIT_NO_CAP;
	if (!in_init_pidns())
		return LL_AUDIT_NOT_HERE;
	on = audit_enabled();
	return on < 0 ? LL_AUDIT_UNKNOWN : on ? LL_AUDIT_ON : LL_AUDIT_OFF;
}

void
ll_audit_open(struct ll_audit *a)
{
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	enum ll_audit_state s = ll_audit_state();
	int big = 1 << 20;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (s != LL_AUDIT_ON && s != LL_AUDIT_UNKNOWN)
		return;
	a->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_AUDIT);
	if (a->fd < 0)
		return;
	k.nl_groups = 1u << (AUDIT_NLGRP_READLOG - 1);
	if (bind(a->fd, (struct sockaddr *)&k, sizeof(k)) != 0) {
		ll_audit_close(a);
		return;
	}
	if (setsockopt(a->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)) !=
	    0)
		(void)setsockopt(a->fd, SOL_SOCKET, SO_RCVBUF, &big,
				 sizeof(big));
}

void
ll_audit_close(struct ll_audit *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

/* ---- collecting ------------------------------------------------------ */

struct au_event {
	uint64_t serial;
	pid_t caller; /* the SYSCALL record's pid, 0 when none came */
	int access;   /* an access record came */
	struct ll_arec rec;
};

struct au_set {
	struct au_event *ev;
	size_t nev;
	struct ll_audit *src; /* the domains, kept from one finish() to the next */
	uint64_t dropped; /* events past AU_MAX_EVENTS */
	int lost;         /* the socket overflowed */
};

static struct au_event *
event_of(struct au_set *s, uint64_t serial)
{
	for (size_t i = s->nev; i > 0; i--)
		if (s->ev[i - 1].serial == serial)
			return &s->ev[i - 1];
	if (s->nev == AU_MAX_EVENTS) {
		s->dropped++;
		return NULL;
	}
	memset(&s->ev[s->nev], 0, sizeof(s->ev[0]));
	s->ev[s->nev].serial = serial;
	return &s->ev[s->nev++];
}

static void
take(struct au_set *s, int type, const char *text, size_t n, pid_t self)
{
	struct ll_arec *r = malloc(sizeof(*r));
	struct au_event *e;

	if (r == NULL || ll_audit_parse(type, text, n, r) != 0)
		goto out;
	if (type == AUDIT_LANDLOCK_DOMAIN) {
		if (r->allocated && r->pid == self &&
		    s->src->ndom < LL_AUDIT_DOMAINS)
			s->src->dom[s->src->ndom++] = r->domain;
		goto out;
	}
	e = event_of(s, r->serial);
	if (e == NULL)
		goto out;
	if (type == AUDIT_SYSCALL)
		e->caller = r->pid;
	else {
		e->access = 1;
		e->rec = *r;
	}
out:
	free(r);
}

static uint64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* One record per datagram.  The audit group's nlmsg_len counts the text
 * only, not the header (the kernel keeps that for its old readers); a
 * length that counts both is taken too.  The text's length, never past
 * what came. */
size_t
ll_audit_text_len(uint32_t nlmsg_len, size_t got)
{
	size_t room = got - NLMSG_HDRLEN;

	if (nlmsg_len == got)
		return room;
	return nlmsg_len <= room ? nlmsg_len : room;
}

/* Read until the group has been silent AU_QUIET_MS (the kernel's queue is
 * drained: the command's tree is gone), at most AU_MAX_MS. */
static void
drain(int fd, struct au_set *s, pid_t self)
{
	static char buf[16384] __attribute__((aligned(4)));
	uint64_t stop = now_ms() + AU_MAX_MS;
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	while (now_ms() < stop && poll(&pf, 1, AU_QUIET_MS) > 0) {
		ssize_t got = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
		size_t text;

		if (got < 0) {
			if (errno == ENOBUFS)
				s->lost = 1;
			if (errno == ENOBUFS || errno == EINTR ||
			    errno == EAGAIN)
				continue;
			return;
		}
		if ((size_t)got < NLMSG_HDRLEN)
			continue;
		text = ll_audit_text_len(h->nlmsg_len, (size_t)got);
		take(s, h->nlmsg_type, buf + NLMSG_HDRLEN, text, self);
	}
}

static int
ours(const struct au_set *s, uint64_t domain)
{
	for (size_t i = 0; i < s->src->ndom; i++)
		if (s->src->dom[i] == domain)
			return 1;
	return 0;
}

/* ---- reporting ------------------------------------------------------- */

/* DAC refuses it too: not the wall's (the kernel asks the wall first), and
 * the remedy would not help.  Asked as this user without capabilities
 * (faccessat without AT_EACCESS: the real ids, and for a uid other than 0
 * no capability counts; the command holds none).  A change of entries in
 * a sticky directory the user does not own: the entry's owner decides,
 * and the record does not name the entry, so it is not named either. */
static int
dac_refuses(const struct ll_arec *r)
{
	struct stat st;

	if (r->mode < 0)
		return 0;
	if (faccessat(AT_FDCWD, r->path, r->mode, 0) != 0)
		return 1;
	return (r->mode & X_OK) && (r->mode & W_OK) &&
	       stat(r->path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       (st.st_mode & S_ISVTX) && st.st_uid != getuid() &&
	       strncmp(r->blocker, "fs.make_", 8) != 0;
}

/* A record the tracer already named: its path, or (a directory's entry
 * changed) a path directly beneath it. */
static int
traced(const struct ll_trace *t, const struct ll_arec *r)
{
	return t != NULL && ll_trace_names(t, r->path);
}

/* Add this event's (op, path) to the ones before it: 1 when new. */
static int
first_of(const struct au_set *s, size_t i)
{
	const struct ll_arec *r = &s->ev[i].rec;

	for (size_t j = 0; j < i; j++) {
		const struct au_event *e = &s->ev[j];

		if (e->access && e->rec.op == r->op &&
		    strcmp(e->rec.path, r->path) == 0)
			return 0;
	}
	return 1;
}

static uint64_t
count_of(const struct au_set *s, size_t i, pid_t self)
{
	const struct ll_arec *r = &s->ev[i].rec;
	uint64_t c = 0;

	for (size_t j = i; j < s->nev; j++) {
		const struct au_event *e = &s->ev[j];

		if (e->access && ours(s, e->rec.domain) && e->caller != self &&
		    e->rec.op == r->op && strcmp(e->rec.path, r->path) == 0)
			c++;
	}
	return c;
}

static void
report_notes(const struct ns_host *host, const struct au_set *s, size_t k)
{
	char text[256];

	if (host->note == NULL)
		return;
	if (k > 0) {
		snprintf(text, sizeof(text), "%zu of the denied paths below "
			 "come from the kernel's audit log (Landlock records: "
			 "a directory whose entries were refused is named, "
			 "not the entry)", k);
		host->note(host->cookie, text);
	}
	if (s->lost || s->dropped)
		host->note(host->cookie, "the audit log lost records (the "
			   "socket's buffer overflowed): the denied paths "
			   "may be incomplete");
}

size_t
ll_audit_report(const struct ns_host *host, struct ll_audit *a, pid_t self,
		const struct ll_trace *trace)
{
	struct au_set s;
	size_t k = 0;

	if (a->fd < 0 || !in_init_pidns())
		return 0;
	memset(&s, 0, sizeof(s));
	s.src = a;
	s.ev = calloc(AU_MAX_EVENTS, sizeof(*s.ev));
	if (s.ev == NULL)
		return 0;
	drain(a->fd, &s, self);
	for (size_t i = 0; i < s.nev; i++) {
		const struct au_event *e = &s.ev[i];
		struct ns_denial d;

		if (!e->access || !ours(&s, e->rec.domain) || e->caller == self ||
		    !first_of(&s, i) || traced(trace, &e->rec))
			continue;
		if (dac_refuses(&e->rec))
			continue;
		memset(&d, 0, sizeof(d));
		d.struct_size = sizeof(d);
		d.op = e->rec.op;
		d.path = e->rec.path;
		d.count = count_of(&s, i, self);
		d.detail = e->rec.blocker;
		if (NS_HOST_HAS_DENIAL(host))
			host->denial(host->cookie, &d);
		k++;
	}
	report_notes(host, &s, k);
	free(s.ev);
	return k;
}
