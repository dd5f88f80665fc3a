/* SPDX-License-Identifier: MIT */
/* netallow.c -- the --net-allow entry grammar (netallow.h; spec rule 7).
 * An entry is split into host and port, then its host is judged by the
 * first row of the table below that takes it.  Addresses are read by
 * inet_pton alone (four dotted decimals, or IPv6): the forms getaddrinfo
 * would also take ("2130706433", "0x7f.1", "127.1") are refused, never
 * read as an address. */
#include "policy/netallow.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/os.h"

/* The host and port of one entry as split. */
struct split {
	char host[NETALLOW_TEXT_MAX + 1];
	int bracketed;  /* "[...]" */
	int port_given; /* ":<port>" */
	unsigned port;
};

/* ---- splitting ------------------------------------------------------- */

static int
take_port(struct split *s, const char *p, const char **why)
{
	unsigned long long v;

	s->port_given = 1;
	if (parse_u64(p, 65535, &v) != 0 || v == 0 || p[0] == '0') {
		*why = "the port must be 1-65535 (decimal digits, no sign, "
		       "no leading zero)";
		return 1;
	}
	s->port = (unsigned)v;
	return 0;
}

static int
split_bracketed(const char *t, struct split *s, const char **why)
{
	const char *end = strchr(t, ']');

	if (end == NULL || end == t + 1) {
		*why = "an opening [ wants an IPv6 address and a closing ]";
		return 1;
	}
	memcpy(s->host, t + 1, (size_t)(end - t - 1));
	s->host[end - t - 1] = '\0';
	s->bracketed = 1;
	if (end[1] == '\0')
		return 0;
	if (end[1] != ':') {
		*why = "only :<port> may follow the ]";
		return 1;
	}
	return take_port(s, end + 2, why);
}

static int
split_entry(const char *t, struct split *s, const char **why)
{
	size_t len = strlen(t);
	const char *colon = strchr(t, ':');

	memset(s, 0, sizeof(*s));
	s->port = NETALLOW_DEFAULT_PORT;
	if (len == 0 || len > NETALLOW_TEXT_MAX) {
		*why = len ? "it is longer than 300 bytes" : "it is empty";
		return 1;
	}
	if (t[0] == '[')
		return split_bracketed(t, s, why);
	if (colon == NULL || strchr(colon + 1, ':') != NULL) {
		memcpy(s->host, t, len + 1); /* a name, or a bare IPv6 */
		return 0;
	}
	memcpy(s->host, t, (size_t)(colon - t));
	s->host[colon - t] = '\0';
	if (colon == t) {
		*why = "the host is empty";
		return 1;
	}
	return take_port(s, colon + 1, why);
}

/* ---- addresses ------------------------------------------------------- */

/* The prefix length after '/' (cut off host), or -1. */
static int
take_plen(char *host, int v6)
{
	char *slash = strchr(host, '/');
	unsigned long long v;

	if (slash == NULL)
		return v6 ? 128 : 32;
	*slash = '\0';
	if (parse_u64(slash + 1, v6 ? 128 : 32, &v) != 0 || v == 0 ||
	    (slash[1] == '0' && slash[2] != '\0'))
		return -1;
	return (int)v;
}

static int
host_bits_zero(const unsigned char *a, int plen, int bytes)
{
	for (int i = plen; i < bytes * 8; i++)
		if (a[i / 8] & (0x80u >> (i % 8)))
			return 0;
	return 1;
}

static const unsigned char mapped_pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					      0xff, 0xff };

/* What an address entry is, once read: a loopback bridge, an address
 * (or range) for the proxy, or refused. */
static int
judge_addr(struct ns_net_entry *e, int cidr, const char **why)
{
	static const unsigned char lo6[16] = { [15] = 1 };
	static const unsigned char zero[16] = { 0 };
	int bytes = e->fam == 4 ? 4 : 16;

	if (e->fam == 6 && memcmp(e->addr, mapped_pre, 12) == 0)
		return *why = "an IPv4-mapped IPv6 address: write the IPv4 "
			      "address", 1;
	if (!host_bits_zero(e->addr, e->plen, bytes))
		return *why = "the address has bits set past the prefix "
			      "length: write the network's first address", 1;
	if (!cidr && memcmp(e->addr, zero, (size_t)bytes) == 0)
		return *why = "the unspecified address names no host", 1;
	if (cidr)
		return 0;
	if ((e->fam == 4 && memcmp(e->addr, "\x7f\0\0\x01", 4) == 0) ||
	    (e->fam == 6 && memcmp(e->addr, lo6, 16) == 0))
		e->kind = NS_NET_LOOPBACK;
	else if (e->fam == 4 && e->addr[0] == 127)
		return *why = "of the loopback addresses only 127.0.0.1 is "
			      "bridged; write <addr>/32 to let the proxy "
			      "connect there", 1;
	return 0;
}

/* An IPv4 or IPv6 literal or CIDR: 1 taken, 0 not an address, -1 bad. */
static int
as_addr(struct split *s, struct ns_net_entry *e, const char **why)
{
	int v6 = s->bracketed || strchr(s->host, ':') != NULL;
	int cidr = strchr(s->host, '/') != NULL;
	int plen = take_plen(s->host, v6);

	if (!os_inet_pton(s->host, v6, e->addr)) {
		if (v6 || cidr)
			*why = v6 ? "not an IPv6 address (or CIDR)" :
			       "not an IPv4 CIDR (four dotted decimals, "
			       "/1-32)";
		return v6 || cidr ? -1 : 0;
	}
	if (plen < 0)
		return *why = "the prefix length must be 1-32 (IPv4) or 1-128 "
			      "(IPv6)", -1;
	e->kind = NS_NET_ADDR;
	e->fam = v6 ? 6 : 4;
	e->plen = (uint8_t)plen;
	return judge_addr(e, cidr, why) ? -1 : 1;
}

/* ---- names ------------------------------------------------------------ */

static int
numeric_label(const char *l, size_t n)
{
	size_t i = 0;

	if (n > 2 && l[0] == '0' && l[1] == 'x') /* inet_aton's hex */
		for (i = 2; i < n && isxdigit((unsigned char)l[i]); i++)
			;
	else
		while (i < n && isdigit((unsigned char)l[i]))
			i++;
	return i == n;
}

static int
ldh_label(const char *l, size_t n)
{
	if (n == 0 || n > 63 || l[0] == '-' || l[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)l[i]) &&
		    !isdigit((unsigned char)l[i]) && l[i] != '-')
			return 0;
	return 1;
}

/* A lowercase name: its labels counted into *labels; 0 good, else why. */
static const char *
check_name(const char *s, size_t *labels)
{
	size_t n = strlen(s), all_num = 1, last_num = 0;

	*labels = 0;
	if (n == 0 || n > 253)
		return "a DNS name is 1-253 bytes";
	for (const char *l = s, *dot; l != NULL; l = dot ? dot + 1 : NULL) {
		dot = strchr(l, '.');
		n = dot ? (size_t)(dot - l) : strlen(l);
		if (!ldh_label(l, n))
			return "each label of a name is 1-63 of a-z, 0-9 and "
			       "'-', not starting or ending with '-'";
		last_num = numeric_label(l, n);
		all_num = all_num && last_num;
		(*labels)++;
	}
	if (all_num || last_num)
		return "a number is not a name, and an address is written as "
		       "four dotted decimals (no 127.1, 0x7f.1, 2130706433)";
	return NULL;
}

static int
as_name(struct split *s, struct ns_net_entry *e, const char **why)
{
	char *h = s->host;
	size_t n = strlen(h), labels;
	int suffix = strncmp(h, "*.", 2) == 0;

	for (size_t i = 0; i < n; i++)
		h[i] = (char)tolower((unsigned char)h[i]);
	if (n > 1 && h[n - 1] == '.')
		h[n - 1] = '\0';
	if (suffix)
		h += 2;
	if (strchr(h, '*') != NULL)
		return *why = "a wildcard is only *.<suffix>, the * first", 1;
	if ((*why = check_name(h, &labels)) != NULL)
		return 1;
	if (suffix && labels < 2)
		return *why = "a *.<suffix> needs a suffix of two labels or more "
			      "(*.example.com, not *.com)", 1;
	e->kind = suffix ? NS_NET_SUFFIX : NS_NET_NAME;
	if (!suffix && strcmp(h, "localhost") == 0)
		e->kind = NS_NET_LOOPBACK;
	else if ((e->name = strdup(h)) == NULL)
		return -1;
	return 0;
}

/* ---- one entry -------------------------------------------------------- */

int
netallow_parse(const char *text, struct ns_net_entry *e, const char **why)
{
	struct split s;
	int rc;

	memset(e, 0, sizeof(*e));
	if (split_entry(text, &s, why) != 0)
		return 1;
	rc = as_addr(&s, e, why);
	if (rc < 0)
		return 1;
	if (rc == 0 && (rc = as_name(&s, e, why)) != 0) {
		netallow_entry_free(e);
		return rc;
	}
	if (e->kind == NS_NET_LOOPBACK && !s.port_given) {
		netallow_entry_free(e);
		*why = "a loopback entry names its port (localhost:<port>)";
		return 1;
	}
	e->port = (uint16_t)s.port;
	if ((e->text = strdup(text)) == NULL) {
		netallow_entry_free(e);
		return -1;
	}
	return 0;
}

void
netallow_entry_free(struct ns_net_entry *e)
{
	free((char *)e->name);
	free((char *)e->text);
	e->name = e->text = NULL;
}

int
net_list_add(struct net_list *l, const char *text, const char **why)
{
	struct ns_net_entry e;
	int rc;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct ns_net_entry *v = realloc(l->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	rc = netallow_parse(text, &e, why);
	if (rc == 0)
		l->v[l->n++] = e;
	return rc;
}

void
net_list_free(struct net_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		netallow_entry_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

size_t
net_list_proxied(const struct net_list *l)
{
	size_t k = 0;

	for (size_t i = 0; i < l->n; i++)
		k += l->v[i].kind != NS_NET_LOOPBACK;
	return k;
}

const char *
netallow_kind(uint32_t kind)
{
	static const char *const names[] = { "-", "name", "suffix", "addr",
					     "loopback" };

	return kind < 5 ? names[kind] : names[0];
}

/* ---- --net-allow-file ------------------------------------------------- */

static char *
read_file(int fd, const char *path, size_t *len, char **why)
{
	struct os_stat st;
	char *text;
	size_t got;

	if (os_fstat(fd, &st) != 0 || (st.mode & OS_S_IFMT) != OS_S_IFREG ||
	    st.size > NETALLOW_FILE_MAX) {
		*why = str_fmt("--net-allow-file %s is not a regular file of at "
			       "most %u bytes", path, NETALLOW_FILE_MAX);
		return NULL;
	}
	if ((text = malloc((size_t)st.size + 1)) == NULL)
		return NULL;
	got = fd_read_upto(fd, text, (size_t)st.size);
	text[got] = '\0';
	*len = got;
	return text;
}

/* One line [p, p+n): its entry (spaces around dropped) pushed, unless it
 * is blank or a comment.  0 or -1. */
static int
take_line(const char *p, size_t n, const char *path, size_t no,
	  struct strv *lines, struct strv *where)
{
	while (n > 0 && isspace((unsigned char)*p))
		p++, n--;
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	if (n == 0 || *p == '#')
		return 0;
	if (strv_pushf(lines, "%.*s", (int)n, p) < 0 ||
	    strv_pushf(where, "%s:%zu", path, no) < 0)
		return -1;
	return 0;
}

int
netallow_file(const char *path, struct strv *lines, struct strv *where,
	      char **why)
{
	int fd = os_open_own(path, 0);
	size_t len = 0, no = 0;
	char *text;
	int rc = 0;

	*why = NULL;
	if (fd < 0) {
		*why = str_fmt("--net-allow-file %s cannot be opened (a regular "
			       "file, not a link)", path);
		return *why ? 1 : -1;
	}
	text = read_file(fd, path, &len, why);
	close(fd);
	if (text == NULL)
		return *why ? 1 : -1;
	if (memchr(text, '\0', len) != NULL)
		*why = str_fmt("--net-allow-file %s holds a NUL byte: one "
			       "entry a line, text", path);
	for (const char *p = text, *nl; rc == 0 && *why == NULL && p < text + len;
	     p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (nl == NULL)
			nl = text + len;
		rc = take_line(p, (size_t)(nl - p), path, ++no, lines, where);
	}
	free(text);
	return rc < 0 ? -1 : *why ? 1 : 0;
}
