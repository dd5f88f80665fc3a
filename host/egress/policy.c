/* SPDX-License-Identifier: MIT */
/* policy.c -- the reviewed allowlist file and the shapes of the
 * egress flags (docs/SPEC-SANDBOX.md "Egress", policy grammar). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egress/allowlist.h"

const char *const egress_base_names[] = { "github.com", "api.github.com",
	"objects.githubusercontent.com", NULL };

static int
label_ok(const char *s, size_t n, int last)
{
	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return !last || islower((unsigned char)s[0]);
}

int
egress_name_ok(const char *s)
{
	size_t n = strlen(s), labels = 0;
	const char *p = s, *dot;

	if (n == 0 || n > 253)
		return 0;
	for (;;) {
		dot = strchr(p, '.');
		if (!label_ok(p, dot ? (size_t)(dot - p) : strlen(p),
			      dot == NULL))
			return 0;
		labels++;
		if (dot == NULL)
			break;
		p = dot + 1;
	}
	return labels >= 2;
}

static int
only(const char *s, size_t lo, size_t hi, const char *set)
{
	size_t n = strlen(s);

	return n >= lo && n <= hi && strspn(s, set) == n;
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

int
egress_veth_ok(const char *s)
{
	return s != NULL && only(s, 1, 15, ALNUM "-_.@");
}

void
egress_table_name(const char *run, char *buf, size_t n)
{
	snprintf(buf, n, "nova_egress_%s", run);
}

/* "1".."65535", decimal, no leading zero. */
static int
parse_port(const char *s, int *port)
{
	unsigned long long v;

	if (s[0] == '0' || strlen(s) > 5 || parse_u64(s, 65535, &v) != 0 ||
	    v == 0)
		return -1;
	*port = (int)v;
	return 0;
}

/* "<addr>:<port>" with the address between s and colon. */
static int
addr_port(const char *s, size_t alen, const char *port, int fam,
	  struct egress_allow *a)
{
	char buf[64];

	if (alen == 0 || alen >= sizeof(buf) || parse_port(port, &a->port))
		return -1;
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	if (strchr(buf, '/') != NULL ||
	    ns_egress_parse_addr(buf, fam, &a->addr) < 0)
		return -1;
	return 0;
}

static int
look_v6(const char *s)
{
	return s[0] == '[';
}

static int
parse_v6(const char *s, struct egress_allow *a)
{
	const char *close = strchr(s, ']');

	if (close == NULL || close[1] != ':')
		return -1;
	return addr_port(s + 1, (size_t)(close - s - 1), close + 2, 6, a);
}

/* Digits and dots up to the colon (or the end): an IPv4 address. */
static int
look_v4(const char *s)
{
	size_t n = strspn(s, "0123456789.");

	return n > 0 && (s[n] == ':' || s[n] == '\0');
}

static int
parse_v4(const char *s, struct egress_allow *a)
{
	const char *colon = strchr(s, ':');

	if (colon == NULL)
		return -1;
	return addr_port(s, (size_t)(colon - s), colon + 1, 4, a);
}

static int
look_name(const char *s)
{
	(void)s;
	return 1;
}

static int
parse_name(const char *s, struct egress_allow *a)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	a->port = 443;
	if (n >= sizeof(a->name) || (colon && parse_port(colon + 1, &a->port)))
		return -1;
	memcpy(a->name, s, n);
	a->name[n] = '\0';
	return egress_name_ok(a->name) ? 0 : -1;
}

/* The forms of a line, tried in order: the first that looks like the
 * line parses it, and a refusal names its form. */
static const struct pform {
	const char *form;
	int (*look)(const char *s);
	int (*parse)(const char *s, struct egress_allow *a);
} pforms[] = {
	{ "[<ipv6>]:<port>", look_v6, parse_v6 },
	{ "<ipv4>:<port>", look_v4, parse_v4 },
	{ "<name>[:<port>] (a DNS name: two or more labels of a-z 0-9 -, "
	  "the last starting with a letter; port 443 when left out)",
	  look_name, parse_name },
};

int
egress_addr_loopback(const struct ns_egress_addr *a)
{
	static const uint8_t one6[16] = { [15] = 1 };

	return (a->fam == 4 && a->a[0] == 127 && a->plen == 32) ||
	    (a->fam == 6 && a->plen == 128 && memcmp(a->a, one6, 16) == 0);
}

void
egress_allows_free(struct egress_allows *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int
same_allow(const struct egress_allow *x, const struct egress_allow *y)
{
	return x->port == y->port && strcmp(x->name, y->name) == 0 &&
	    x->addr.fam == y->addr.fam && (x->addr.fam == 0 ||
					    memcmp(x->addr.a, y->addr.a, 16) == 0);
}

static int
allows_add(struct egress_allows *l, const struct egress_allow *a)
{
	struct egress_allow *v;

	for (size_t i = 0; i < l->n; i++)
		if (same_allow(&l->v[i], a))
			return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;

		v = realloc(l->v, cap * sizeof(*v));
		if (v == NULL) {
			l->failed = 1;
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *a;
	return 0;
}

/* An address line names loopback or a routable address: never the
 * metadata range, link-local, unspecified, multicast or v4-mapped. */
static int
addr_refused(const char *path, unsigned lineno, const struct egress_allow *a,
	     struct refusals *r)
{
	const char *what;
	char t[64];

	if (a->addr.fam == 0 || egress_addr_loopback(&a->addr) ||
	    !egress_addr_denied(&a->addr, NULL, 0, &what))
		return 0;
	ns_egress_format_addr(&a->addr, t, sizeof(t));
	return refusals_add(r, REASON_BAD_POLICY, "%s:%u: %s is %s: an address "
			    "line names one loopback address or a routable "
			    "one", path, lineno, t, what) < 0 ? -1 : 1;
}

/* One entry (lowercase, no blanks): the first form that looks like it. */
static int
policy_entry(const char *path, unsigned lineno, const char *e,
	     struct strv *names, struct egress_allows *allows,
	     struct refusals *r)
{
	struct egress_allow a;
	size_t f = 0;
	int k;

	while (!pforms[f].look(e))
		f++;
	memset(&a, 0, sizeof(a));
	if (pforms[f].parse(e, &a) < 0)
		return refusals_add(r, REASON_BAD_POLICY, "%s:%u: wants %s, port "
				    "1-65535 (TCP; UDP is DNS to --resolver "
				    "alone), got %.80s", path, lineno,
				    pforms[f].form, e) < 0 ? -1 : 1;
	k = addr_refused(path, lineno, &a, r);
	if (k != 0)
		return k;
	if (a.name[0] != '\0' && !strv_contains(names, a.name) &&
	    strv_push(names, a.name) < 0)
		return -1;
	return allows != NULL && allows_add(allows, &a) < 0 ? -1 : 0;
}

/* One line: strip the comment and the edges; lowercase. */
static int
policy_line(const char *path, unsigned lineno, const char *s, size_t n,
	    struct strv *names, struct egress_allows *allows,
	    struct refusals *r)
{
	char e[300];
	const char *hash = memchr(s, '#', n);
	size_t a = 0, b;

	if (hash != NULL)
		n = (size_t)(hash - s);
	while (a < n && isspace((unsigned char)s[a]))
		a++;
	b = n;
	while (b > a && isspace((unsigned char)s[b - 1]))
		b--;
	if (a == b)
		return 0;
	if (b - a >= sizeof(e))
		return refusals_add(r, REASON_BAD_POLICY, "%s:%u: a line of at "
				    "most %zu characters (a name is at most "
				    "253)", path, lineno, sizeof(e) - 1) <
		    0 ? -1 : 1;
	for (size_t i = a; i < b; i++)
		e[i - a] = (char)tolower((unsigned char)s[i]);
	e[b - a] = '\0';
	if (strcspn(e, " \t\r\v\f") != b - a)
		return refusals_add(r, REASON_BAD_POLICY, "%s:%u: one entry per "
				    "line: <name>[:<port>], <ipv4>:<port> or "
				    "[<ipv6>]:<port>, got %.80s", path, lineno,
				    e) < 0 ? -1 : 1;
	return policy_entry(path, lineno, e, names, allows, r);
}

int
egress_parse_policy(const char *path, const char *text, size_t len,
		    struct strv *names, struct egress_allows *allows,
		    struct refusals *r)
{
	size_t i = 0, e;
	unsigned lineno = 0;
	int bad = 0, k;

	if (memchr(text, '\0', len) != NULL)
		return refusals_add(r, REASON_BAD_POLICY, "%s: a text file (it "
				    "holds a NUL byte)", path) < 0 ? -1 : 1;
	while (i < len) {
		e = i;
		while (e < len && text[e] != '\n')
			e++;
		k = policy_line(path, ++lineno, text + i, e - i, names,
				allows, r);
		if (k < 0)
			return -1;
		bad += k;
		i = e + 1;
	}
	if (bad == 0 && names->n == 0 && (allows == NULL || allows->n == 0)) {
		if (refusals_add(r, REASON_BAD_POLICY, "%s: at least the base names "
				 "github.com, api.github.com, "
				 "objects.githubusercontent.com (the file is "
				 "empty)", path) < 0)
			return -1;
		bad++;
	}
	return bad;
}
