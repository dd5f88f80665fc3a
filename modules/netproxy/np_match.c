/* SPDX-License-Identifier: MIT */
/* np_match.c -- the proxy's decision (np_match.h): host normalisation,
 * the entry matcher and the special-address table. */
#include "np_match.h"

#include <arpa/inet.h>
#include <string.h>

#include "banned.h"

static const char *const why_tokens[] = {
	[NP_ALLOW] = "allow",       [NP_NOT_ALLOWED] = "not_allowed",
	[NP_PORT] = "port",         [NP_PRIVATE] = "private",
	[NP_SNI] = "sni",           [NP_BAD] = "bad_request",
};

const char *
np_why_token(int verdict)
{
	if (verdict < 0 || verdict > NP_BAD)
		return "bad_request";
	return why_tokens[verdict];
}

/* ---- host normalisation --------------------------------------------- */

static int
is_ldh(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* A label as inet_aton would read a number: digits, or 0x and hex. */
static int
numeric_label(const char *s, size_t n)
{
	size_t i = 0;

	if (n >= 2 && s[0] == '0' && s[1] == 'x') {
		for (i = 2; i < n; i++)
			if (!strchr("0123456789abcdef", s[i]))
				return 0;
		return 1;
	}
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Labels of name (lowercase already, n bytes): 1..63 LDH bytes each,
 * no '-' at either end, the last one not numeric. */
static int
labels_ok(const char *name, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && name[i] != '.') {
			if (!is_ldh((unsigned char)name[i]))
				return 0;
			continue;
		}
		if (i == start || i - start > 63 || name[start] == '-' ||
		    name[i - 1] == '-')
			return 0;
		if (i == n && numeric_label(name + start, i - start))
			return 0;
		start = i + 1;
	}
	return 1;
}

static int
literal(const char *in, size_t len, struct np_addr *addr)
{
	char tmp[NP_ADDR_TEXT];

	if (len == 0 || len >= sizeof(tmp) || memchr(in, '\0', len))
		return 0;
	memcpy(tmp, in, len);
	tmp[len] = '\0';
	memset(addr, 0, sizeof(*addr));
	if (inet_pton(AF_INET, tmp, addr->a) == 1) {
		addr->fam = 4;
		return 1;
	}
	if (inet_pton(AF_INET6, tmp, addr->a) == 1) {
		addr->fam = 6;
		return 1;
	}
	return 0;
}

int
np_host_norm(const char *in, size_t len, char *name, size_t cap,
	     struct np_addr *addr)
{
	if (literal(in, len, addr))
		return NP_HOST_ADDR;
	if (len > 0 && in[len - 1] == '.')
		len--;
	if (len == 0 || len > NP_NAME_MAX || cap <= len)
		return NP_HOST_BAD;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];

		name[i] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
	}
	name[len] = '\0';
	/* labels_ok refuses what inet_aton reads as a number; inet_aton
	 * itself says so too, in case a libc reads more forms */
	if (!labels_ok(name, len) || inet_aton(name, &(struct in_addr){ 0 })) {
		name[0] = '\0';
		return NP_HOST_BAD;
	}
	return NP_HOST_NAME;
}

/* ---- addresses -------------------------------------------------------- */

static int
prefix_eq(const uint8_t *a, const uint8_t *b, unsigned plen)
{
	unsigned whole = plen / 8, rest = plen % 8;

	if (memcmp(a, b, whole) != 0)
		return 0;
	if (rest == 0)
		return 1;
	return ((a[whole] ^ b[whole]) & (0xffu << (8 - rest)) & 0xffu) == 0;
}

static const uint8_t mapped_pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					0xff, 0xff };

/* IPv4-mapped IPv6 as its IPv4; anything else unchanged. */
static struct np_addr
unmap(const struct np_addr *a)
{
	struct np_addr v = *a;

	if (a->fam == 6 && memcmp(a->a, mapped_pfx, 12) == 0) {
		memset(&v, 0, sizeof(v));
		v.fam = 4;
		memcpy(v.a, a->a + 12, 4);
	}
	return v;
}

struct range {
	uint8_t fam, plen;
	uint8_t a[4];
};

/* IPv4 ranges no name may resolve to unless an entry names them. */
static const struct range special4[] = {
	{ 4, 8, { 0, 0, 0, 0 } },       /* this network, unspecified */
	{ 4, 8, { 10, 0, 0, 0 } },      /* RFC 1918 */
	{ 4, 10, { 100, 64, 0, 0 } },   /* CGNAT */
	{ 4, 8, { 127, 0, 0, 0 } },     /* loopback */
	{ 4, 16, { 169, 254, 0, 0 } },  /* link-local */
	{ 4, 12, { 172, 16, 0, 0 } },   /* RFC 1918 */
	{ 4, 16, { 192, 168, 0, 0 } },  /* RFC 1918 */
	{ 4, 4, { 224, 0, 0, 0 } },     /* multicast */
	{ 4, 4, { 240, 0, 0, 0 } },     /* reserved, broadcast */
};

/* IPv6 ranges by their first bytes (prefix length, bytes). */
static const struct {
	uint8_t plen;
	uint8_t a[4];
} special6[] = {
	{ 10, { 0xfe, 0x80 } }, /* link-local */
	{ 10, { 0xfe, 0xc0 } }, /* site-local (deprecated) */
	{ 7, { 0xfc, 0x00 } },  /* unique-local */
	{ 8, { 0xff, 0x00 } },  /* multicast */
};

static int
special_v4(const uint8_t *a)
{
	for (size_t i = 0; i < sizeof(special4) / sizeof(special4[0]); i++)
		if (prefix_eq(a, special4[i].a, special4[i].plen))
			return 1;
	return 0;
}

static const uint8_t nat64_pfx[12] = { 0, 0x64, 0xff, 0x9b };
/* 64:ff9b:1::/48, the local-use NAT64 prefix: special as a whole */
static const uint8_t nat64_local[6] = { 0, 0x64, 0xff, 0x9b, 0, 1 };

static int
special_v6(const uint8_t *a)
{
	static const uint8_t zero[12];

	if (memcmp(a, zero, 12) == 0 || memcmp(a, mapped_pfx, 12) == 0)
		return memcmp(a, zero, 12) == 0 || special_v4(a + 12);
	if (memcmp(a, nat64_pfx, 12) == 0)
		return special_v4(a + 12);
	if (memcmp(a, nat64_local, 6) == 0)
		return 1;
	if (a[0] == 0x20 && a[1] == 0x02) /* 6to4: the IPv4 in bytes 2..5 */
		return special_v4(a + 2);
	for (size_t i = 0; i < sizeof(special6) / sizeof(special6[0]); i++)
		if (prefix_eq(a, special6[i].a, special6[i].plen))
			return 1;
	return 0;
}

int
np_addr_special(const struct np_addr *a)
{
	if (a->fam == 4)
		return special_v4(a->a);
	if (a->fam == 6)
		return special_v6(a->a);
	return 1;
}

/* An entry's range, an IPv4-mapped IPv6 one as its IPv4. */
static int
entry_covers(const struct ns_net_entry *e, const struct np_addr *a)
{
	struct np_addr ea = { .fam = e->fam };
	unsigned plen = e->plen;

	memcpy(ea.a, e->addr, sizeof(ea.a));
	if (e->fam == 6 && plen >= 96 && memcmp(ea.a, mapped_pfx, 12) == 0) {
		ea = unmap(&ea);
		plen -= 96;
	}
	if (ea.fam != a->fam || plen > (a->fam == 4 ? 32u : 128u))
		return 0;
	return prefix_eq(ea.a, a->a, plen);
}

/* 1: an ADDR entry covers a with port; 2: only with other ports. */
static int
addr_match(const struct ns_net_entry *allow, size_t n,
	   const struct np_addr *a, uint16_t port)
{
	struct np_addr v = unmap(a);
	int other = 0;

	for (size_t i = 0; i < n; i++) {
		if (allow[i].kind != NS_NET_ADDR || !entry_covers(&allow[i], &v))
			continue;
		if (allow[i].port == port)
			return 1;
		other = 1;
	}
	return other ? 2 : 0;
}

int
np_addr_covered(const struct ns_net_entry *allow, size_t n,
		const struct np_addr *a, uint16_t port)
{
	return addr_match(allow, n, a, port) == 1;
}

int
np_decide_addr(const struct ns_net_entry *allow, size_t n,
	       const struct np_addr *a, uint16_t port)
{
	static const int verdict[] = { NP_NOT_ALLOWED, NP_ALLOW, NP_PORT };

	return verdict[addr_match(allow, n, a, port)];
}

int
np_vet_resolved(const struct ns_net_entry *allow, size_t n,
		const struct np_addr *a, uint16_t port)
{
	if (!np_addr_special(a) || np_addr_covered(allow, n, a, port))
		return NP_ALLOW;
	return NP_PRIVATE;
}

/* ---- names ------------------------------------------------------------ */

static int
name_matches(const struct ns_net_entry *e, const char *name, size_t len)
{
	size_t sl;

	if (e->name == NULL)
		return 0;
	if (e->kind == NS_NET_NAME)
		return strcmp(e->name, name) == 0;
	if (e->kind != NS_NET_SUFFIX)
		return 0;
	sl = strlen(e->name);
	return len > sl + 1 && name[len - sl - 1] == '.' &&
	       memcmp(name + len - sl, e->name, sl) == 0;
}

int
np_decide_name(const struct ns_net_entry *allow, size_t n, const char *name,
	       uint16_t port)
{
	size_t len = strlen(name);
	int other = 0;

	for (size_t i = 0; i < n; i++) {
		if (!name_matches(&allow[i], name, len))
			continue;
		if (allow[i].port == port)
			return NP_ALLOW;
		other = 1;
	}
	return other ? NP_PORT : NP_NOT_ALLOWED;
}

void
np_addr_text(const struct np_addr *a, char *out, size_t cap)
{
	if (inet_ntop(a->fam == 4 ? AF_INET : AF_INET6, a->a, out,
		      (socklen_t)cap) == NULL && cap > 0)
		out[0] = '\0';
}

static size_t
len_nodot(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && s[n - 1] == '.' ? n - 1 : n;
}

int
np_same_name(const char *a, const char *b)
{
	size_t na = len_nodot(a), nb = len_nodot(b);

	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		x = (unsigned char)(x >= 'A' && x <= 'Z' ? x + 32 : x);
		y = (unsigned char)(y >= 'A' && y <= 'Z' ? y + 32 : y);
		if (x != y)
			return 0;
	}
	return 1;
}
