/* SPDX-License-Identifier: MIT */
/* netreport.c -- the proxy's report lines (api/ns_backend.h, "The
 * proxy's report_fd") into the tool's lines.  What the proxy writes is
 * what a client asked for: adversary bytes.  A line is at most
 * NET_LINE_MAX bytes (a longer one is dropped whole), each field is
 * checked, the host is field-escaped (base/out.c) and nothing of a line
 * is ever printed as it came: a line cannot add a line of its own. */
#include "net/net.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "os/os.h"

/* The next space-separated field of *p (NULL at the end). */
static char *
field(char **p)
{
	char *s = *p, *e;

	if (s == NULL || *s == '\0')
		return NULL;
	e = strchr(s, ' ');
	if (e != NULL)
		*e++ = '\0';
	*p = e;
	return s;
}

static int
good_token(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n > max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

static int
good_addr(const char *s)
{
	unsigned char a[16];

	return strlen(s) < 64 && (os_inet_pton(s, 0, a) || os_inet_pton(s, 1, a));
}

/* deny|fail <host> <port> <why> [<addr>] */
static void
parse_hostline(char *rest, struct net_event *ev)
{
	char *h = field(&rest), *p = field(&rest), *w = field(&rest);
	char *a = field(&rest);
	unsigned long long port;

	if (h == NULL || w == NULL || h[0] == '\0' ||
	    strlen(h) >= sizeof(ev->host) ||
	    parse_u64(p, 65535, &port) != 0 ||
	    !good_token(w, sizeof(ev->why) - 1) || rest != NULL ||
	    (port == 0 && strcmp(w, "bad_request") != 0)) {
		ev->kind = 0;
		return;
	}
	memcpy(ev->host, h, strlen(h) + 1);
	ev->port = (unsigned)port;
	memcpy(ev->why, w, strlen(w) + 1);
	if (a != NULL && good_addr(a))
		memcpy(ev->addr, a, strlen(a) + 1);
}

void
net_parse_line(char *line, struct net_event *ev)
{
	char *rest = line, *verb = field(&rest);

	memset(ev, 0, sizeof(*ev));
	if (verb == NULL)
		return;
	if (strcmp(verb, "note") == 0 && rest != NULL && *rest != '\0') {
		ev->kind = 'n';
		ev->text = rest;
	} else if (strcmp(verb, "deny") == 0 || strcmp(verb, "fail") == 0) {
		ev->kind = verb[0];
		parse_hostline(rest, ev);
	}
}

/* "<h>:<p>" as --net-allow takes it (an IPv6 address in brackets). */
static char *
remedy_entry(const char *h, unsigned port)
{
	int v6 = strchr(h, ':') != NULL;

	return str_fmt("%s%s%s:%u", v6 ? "[" : "", h, v6 ? "]" : "", port);
}

/* The entry that allows a refused private address: the address itself,
 * an IPv4-mapped one as its IPv4; a loopback or unspecified one as a
 * one-address range (127.0.0.1:<p> alone is a loopback bridge, and rule
 * 7 takes no other single 127.x, ::1 or unspecified address). */
static char *
remedy_private(const char *a, unsigned port)
{
	unsigned char b[16];
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0,
						  0, 0xff, 0xff };
	static const unsigned char zero[16];

	if (os_inet_pton(a, 1, b)) {
		if (memcmp(b, mapped, 12) == 0)
			return str_fmt("%u.%u.%u.%u/32:%u", b[12], b[13],
				       b[14], b[15], port);
		if (memcmp(b, zero, 15) == 0 && b[15] <= 1)
			return str_fmt("[%s/128]:%u", a, port);
		return remedy_entry(a, port);
	}
	if (os_inet_pton(a, 0, b) && (b[0] == 127 ||
	    memcmp(b, zero, 4) == 0))
		return str_fmt("%s/32:%u", a, port);
	return remedy_entry(a, port);
}

/* Once per (host, port): 1 when it is new (and remembered). */
static int
first_time(struct net_run *n, const char *h, unsigned port)
{
	char key[300];

	snprintf(key, sizeof(key), "%s %u", h, port);
	if (strv_contains(&n->seen, key))
		return 0;
	if (n->seen.n >= NET_SEEN_MAX) {
		n->denied++; /* counted, no longer said */
		if (!n->seen_full_said)
			out_note("SANDBOX", "the proxy refused more than 256 "
				 "hosts; the rest are counted in DONE, not "
				 "named");
		n->seen_full_said = 1;
		return 0;
	}
	(void)strv_push(&n->seen, key);
	n->denied++;
	return 1;
}

/* A request the proxy does not read (bad_request): no entry would allow
 * it, so no DENIED line and no count; one NOTE a run. */
static void
say_bad_request(struct net_run *n)
{
	if (n->bad_said || n->notes >= NET_NOTES_MAX)
		return;
	n->bad_said = 1;
	n->notes++;
	out_note("SANDBOX", "the proxy refused requests it does not read (not "
		 "an HTTP CONNECT, an absolute-URI request or SOCKS5, or a "
		 "host that is neither a DNS name nor an address): no "
		 "--net-allow allows those");
}

/* A TLS ClientHello naming another server than the one allowed: the
 * entry is there already, so a NOTE instead of a remedy; counted. */
static void
say_sni(struct net_run *n, const struct net_event *ev)
{
	char *host = out_field(ev->host);
	char *text = host ? str_fmt("the proxy cut a TLS connection to an "
				    "allowed host, whose ClientHello named "
				    "another server (SNI): host=%s port=%u",
				    host, ev->port) : NULL;

	if (first_time(n, ev->host, ev->port) && text &&
	    n->notes < NET_NOTES_MAX) {
		n->notes++;
		out_note("SANDBOX", text);
	}
	free(host);
	free(text);
}

static void
say_denied(struct net_run *n, const struct net_event *ev)
{
	int priv = strcmp(ev->why, "private") == 0 && ev->addr[0];
	char *host, *ent, *fent;

	if (strcmp(ev->why, "bad_request") == 0) {
		say_bad_request(n);
		return;
	}
	if (strcmp(ev->why, "sni") == 0) {
		say_sni(n, ev);
		return;
	}
	host = out_field(ev->host);
	ent = priv ? remedy_private(ev->addr, ev->port) :
		     remedy_entry(ev->host, ev->port);
	fent = ent ? out_field(ent) : NULL;
	if (first_time(n, ev->host, ev->port) && host && fent)
		out_kind(stderr, "SANDBOX", OUT_DENIED,
			 "net host=%s port=%u remedy=--net-allow %s", host,
			 ev->port, fent);
	free(host);
	free(ent);
	free(fent);
}

void
net_say(struct net_run *n, const struct net_event *ev)
{
	struct sbuf b = {0};

	if (ev->kind == 'd') {
		say_denied(n, ev);
		return;
	}
	if (ev->kind == 0 || n->notes >= NET_NOTES_MAX)
		return;
	n->notes++;
	if (ev->kind == 'f')
		sbuf_addf(&b, "the proxy could not serve %s:%u (%s)", ev->host,
			  ev->port, ev->why);
	else
		sbuf_addf(&b, "the network proxy: %s", ev->text);
	if (b.s != NULL)
		out_note("SANDBOX", b.s); /* text-escaped there */
	sbuf_free(&b);
}

static void
end_line(struct net_run *n)
{
	struct net_event ev;

	n->buf[n->blen] = '\0';
	if (!n->skipping && memchr(n->buf, '\0', n->blen) == NULL) {
		net_parse_line(n->buf, &ev);
		net_say(n, &ev);
	}
	n->blen = 0;
	n->skipping = 0;
}

void
net_feed(struct net_run *n, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\n') {
			end_line(n);
			continue;
		}
		if (n->blen == NET_LINE_MAX)
			n->skipping = 1; /* too long: dropped whole */
		else if (!n->skipping)
			n->buf[n->blen++] = p[i];
	}
}
