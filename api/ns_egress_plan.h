/* SPDX-License-Identifier: MIT */
/*
 * ns_egress_plan.h -- the egress plan: the text the host hands to an
 * egress module's apply() and the text the module's read_live() gives
 * back (api/ns_backend.h, struct ns_egress_ops).  It is part of the module
 * ABI, installed beside ns_backend.h as <nova-sandbox/ns_egress_plan.h>.
 *
 * THIS HEADER IS A SINGLE-HEADER LIBRARY.  Including it declares the
 * parser and printer of one plan line.  In exactly ONE .c file of each
 * binary (the host, and each egress module: the two never share code or
 * symbols), define NS_EGRESS_PLAN_IMPLEMENTATION before the include to
 * compile the implementation there:
 *
 *	#define NS_EGRESS_PLAN_IMPLEMENTATION
 *	#include <ns_egress_plan.h>
 *
 * Every function is declared with hidden visibility (GCC/Clang), so a
 * module that compiles it in still exports nothing but ns_backend_v1.  The
 * implementation needs only libc and POSIX inet_pton/inet_ntop; it never
 * allocates, prints or touches the kernel.  Internal names are ns_ep_*.
 *
 * VERSION.  The TEXT is the contract, not the structs below: the structs
 * are compiled into each binary and never cross the ABI boundary.  The
 * grammar belongs to ABI major 1 (ns_backend.h NS_BACKEND_ABI_MAJOR);
 * every form below is ABI 1.0 except those marked 1.5: the REJECT
 * verdicts ("reject with tcp reset", whose rule matches tcp -- a "tcp
 * dport n" or the bare "meta l4proto tcp" -- and "reject with icmpx
 * admin-prohibited") with the l4 form "meta l4proto tcp" they need.  A
 * reject is a deny like "drop" that also answers: a TCP reset, or ICMP/
 * ICMPv6 administratively prohibited, so a denied client fails at once.
 * In libnftnl terms the verdict is ONE "reject" expression ending the
 * rule, NFTNL_EXPR_REJECT_TYPE NFT_REJECT_TCP_RST (1) with CODE 0, or
 * NFT_REJECT_ICMPX_UNREACH (2) with CODE NFT_REJECT_ICMPX_ADMIN_PROHIBITED
 * (3); "meta l4proto tcp" is meta load l4proto + cmp eq 6.  A module
 * built with a header older than 1.5 parses these lines as BAD and so
 * refuses the whole plan (never applies part of it); the host refuses a
 * plan holding them for a module whose built_minor is below 5.
 * Changes are append-only, like the ABI: a later 1.x minor may ADD line
 * forms (and will say so in the CHANGELOG of ns_backend.h); it never
 * changes the meaning of a form or removes one.
 * The host sends a form added in minor m only to a module built with a
 * header of minor >= m (ns_backend_ops.built_minor, ABI 1.2; abi_minor is
 * the lowest host minor a module needs, not what it parses).  Changing a
 * form's meaning is a new major.
 *
 * GRAMMAR (one line at a time; a line ends at '\n' and is parsed alone).
 * Words are separated by blanks (space, tab, CR); ';', '{' and '}' are
 * words of their own; at most 24 words of at most 63 bytes each.
 *
 *   line     = blank | comment | table | chain | base | close | rule
 *   blank    = only blanks                 comment = blanks "#" anything
 *   table    = "table" family name "{"     family: the host writes "inet"
 *   chain    = "chain" name "{"            name = 1..79 of [A-Za-z0-9_]
 *   base     = "type" type "hook" hook "priority" prio ";"
 *              "policy" ("accept" | "drop") ";"
 *              hook = "output" | "forward" | "input"  (a known other hook
 *              -- prerouting, postrouting, ingress, egress -- parses as
 *              NS_EGRESS_HOOK_OTHER so an auditor can refuse it);
 *              prio = "filter" (0) | 0..1000
 *   close    = "}"
 *   rule     = [sel] [daddr] [l4] verdict
 *   verdict  = "accept" | "drop"
 *            | "reject with tcp reset"            (1.5; l4 must be tcp)
 *            | "reject with icmpx admin-prohibited"  (1.5)
 *   sel      = "meta skuid" uid            uid = 0..4294967295, decimal
 *            | "iifname" '"' ifname '"'    ifname = 1..15 bytes, no '"'
 *                                          and no '\'
 *   daddr    = "ip daddr" ipv4 ["/" 1..32]
 *            | "ip6 daddr" ipv6 ["/" 1..128]   host bits MUST be zero;
 *              a full-length prefix is written without "/n"
 *   l4       = ("tcp" | "udp") "dport" 1..65535
 *            | "meta l4proto tcp"     (1.5; only before "reject with tcp
 *                                      reset": nft's own dependency)
 *            | "icmpv6 type" ("nd-router-solicit" | "nd-router-advert" |
 *              "nd-neighbor-solicit" | "nd-neighbor-advert")
 *   numbers are decimal without leading zeros.  Anything else is
 *   NS_EGRESS_LINE_BAD with `why` saying what the grammar wanted.
 *
 * A plan is one table holding chains; each chain's first non-comment line
 * is its base line; rules follow IN ORDER (order is meaning: the denies
 * come before the accepts and the bare selector drop is last).  The form
 * is nft's own canonical text, so `nft -f` and `nft -c -f` read a plan
 * as-is and `nft -s list table inet <t>` prints it back line for line.
 * What the host renders and audits is docs/SPEC-SANDBOX.md section 12.
 *
 * EGRESS MODULE AUTHORS
 *   MUST parse every line of the plan with this grammar and refuse the
 *        whole plan (NS_E_BAD_INPUT or similar, said through refuse())
 *        when any line is NS_EGRESS_LINE_BAD or a form it cannot enforce
 *        exactly; never skip, approximate or widen a line;
 *   MUST apply the plan atomically -- all of it or nothing -- keeping the
 *        order of the rules in each chain, into table nova_egress_<run>;
 *   MUST refuse when that table already exists (never append to it);
 *   MUST NOT add, drop or reorder a table, chain, rule, set or verdict the
 *        plan does not say, nor touch any other table;
 *   MUST make read_live() print what the KERNEL holds, decoded from the
 *        kernel (never an echo or cache of the plan it applied), one
 *        host->text() call per line, in the canonical form of
 *        ns_egress_format_rule() / ns_egress_format_base();
 *   MUST print a kernel object it cannot decode as a line this grammar
 *        rejects (e.g. "?undecodable ...") so the host's audit fails;
 *        never leave it out;
 *   MUST ignore comment lines (they carry no meaning).
 */
#ifndef NS_EGRESS_PLAN_H
#define NS_EGRESS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NS_EGRESS_PLAN_API
#if defined(__GNUC__) || defined(__clang__)
#define NS_EGRESS_PLAN_API extern __attribute__((visibility("hidden")))
#else
#define NS_EGRESS_PLAN_API extern
#endif
#endif

enum ns_egress_sel {
	NS_EGRESS_SEL_NONE = 0,
	NS_EGRESS_SEL_UID = 1,
	NS_EGRESS_SEL_IIF = 2
};

enum ns_egress_hook {
	NS_EGRESS_HOOK_NONE = 0,
	NS_EGRESS_HOOK_OUTPUT,
	NS_EGRESS_HOOK_FORWARD,
	NS_EGRESS_HOOK_INPUT,
	NS_EGRESS_HOOK_OTHER
};

#define NS_EGRESS_ICMP6_RS 133
#define NS_EGRESS_ICMP6_RA 134
#define NS_EGRESS_ICMP6_NS 135
#define NS_EGRESS_ICMP6_NA 136

struct ns_egress_addr {
	int fam;         /* 0 none, 4 or 6 */
	uint8_t a[16];   /* network order; v4 in a[0..3] */
	int plen;        /* 1..32 / 1..128; host bits are zero */
};

struct ns_egress_rule {
	int sel;          /* enum ns_egress_sel */
	uint32_t uid;     /* NS_EGRESS_SEL_UID: host order */
	char ifname[16];  /* NS_EGRESS_SEL_IIF: NUL padded, at most 15 */
	struct ns_egress_addr daddr;
	int l4;           /* 0 none, 6 tcp, 17 udp, 58 icmpv6 */
	int dport;        /* tcp/udp: 1..65535; 0 with l4 6: "meta l4proto
			     tcp" (1.5) */
	int icmp_type;    /* icmpv6 (l4 58): NS_EGRESS_ICMP6_*.  1.5: on any
			     other rule with accept 0, its reject verdict
			     (NS_EGRESS_REJECT_*; 0 is drop): read it with
			     NS_EGRESS_RULE_REJECT().  One member serves both
			     so the struct keeps its 1.0 layout. */
	int accept;       /* 1 accept, 0 drop or reject */
};

/* 1.5: the reject verdicts.  A module that ignores them (built with the
 * 1.5 header but not handling them) sees accept 0: a deny stays a deny. */
#define NS_EGRESS_REJECT_TCP_RST 1 /* reject with tcp reset (l4 tcp) */
#define NS_EGRESS_REJECT_ADMIN 2   /* reject with icmpx admin-prohibited */
/* The reject of rule *r: NS_EGRESS_REJECT_*, or 0 (accept, drop, icmpv6). */
#define NS_EGRESS_RULE_REJECT(r) \
	((r)->l4 == 58 || (r)->accept ? 0 : (r)->icmp_type)

enum ns_egress_line_kind {
	NS_EGRESS_LINE_BLANK = 0,
	NS_EGRESS_LINE_TABLE,
	NS_EGRESS_LINE_CHAIN,
	NS_EGRESS_LINE_BASE,
	NS_EGRESS_LINE_CLOSE,
	NS_EGRESS_LINE_RULE,
	NS_EGRESS_LINE_BAD
};

struct ns_egress_line {
	int kind;          /* enum ns_egress_line_kind */
	char name[80];     /* TABLE (without the family), CHAIN */
	char family[8];    /* TABLE: "inet" ... */
	char type[16];     /* BASE */
	int hook;          /* BASE: enum ns_egress_hook */
	int prio;          /* BASE */
	int policy_accept; /* BASE: 1 accept, 0 drop */
	struct ns_egress_rule r; /* RULE */
	char why[96];      /* BAD: what the grammar wanted */
};

/* Parse one line (without its newline; len bytes).  Comments and blank
 * lines are NS_EGRESS_LINE_BLANK.  Never fails: anything the grammar does
 * not know is NS_EGRESS_LINE_BAD with why set. */
NS_EGRESS_PLAN_API void ns_egress_parse_line(const char *line, size_t len,
					     struct ns_egress_line *out);
/* The canonical text of a rule (no indentation, no newline).  Returns the
 * length, or -1 when buf is too small. */
NS_EGRESS_PLAN_API int ns_egress_format_rule(const struct ns_egress_rule *r,
					     char *buf, size_t n);
/* The canonical base-chain line: "type filter hook output priority filter;
 * policy accept;".  Returns the length or -1. */
NS_EGRESS_PLAN_API int ns_egress_format_base(const char *type, int hook,
					     int prio, int policy_accept,
					     char *buf, size_t n);
/* "output", "forward", "input" (or "?" for others). */
NS_EGRESS_PLAN_API const char *ns_egress_hook_name(int hook);
/* Address text: "192.0.2.1", "198.51.100.128/25".  Returns length or -1. */
NS_EGRESS_PLAN_API int ns_egress_format_addr(const struct ns_egress_addr *a,
					     char *buf, size_t n);
/* Parse "A" or "A/n" of the given family (0: either).  0 or -1. */
NS_EGRESS_PLAN_API int ns_egress_parse_addr(const char *s, int fam,
					    struct ns_egress_addr *out);
/* Is b inside prefix p (same family)? */
NS_EGRESS_PLAN_API int ns_egress_addr_in(const struct ns_egress_addr *b,
					 const struct ns_egress_addr *p);
/* Do two rules say the same? */
NS_EGRESS_PLAN_API int ns_egress_rule_eq(const struct ns_egress_rule *a,
					 const struct ns_egress_rule *b);

#ifdef __cplusplus
}
#endif

#endif /* NS_EGRESS_PLAN_H */

/* ------------------------------------------------------------------ */
/* The implementation: compiled only where NS_EGRESS_PLAN_IMPLEMENTATION */
/* is defined, once per binary.                                         */
/* ------------------------------------------------------------------ */
#if defined(NS_EGRESS_PLAN_IMPLEMENTATION) && !defined(NS_EGRESS_PLAN_IMPLEMENTED)
#define NS_EGRESS_PLAN_IMPLEMENTED

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_EP_MAXTOK 24
#define NS_EP_TOKLEN 64

struct ns_ep_toks {
	char v[NS_EP_MAXTOK][NS_EP_TOKLEN];
	int n;
	int over; /* too many or too long */
};

static int
ns_ep_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Whitespace separates; ';', '{' and '}' are tokens of their own. */
static void
ns_ep_tokenize(const char *s, size_t len, struct ns_ep_toks *t)
{
	size_t i = 0, k;

	t->n = 0;
	t->over = 0;
	while (i < len) {
		if (ns_ep_is_space(s[i])) {
			i++;
			continue;
		}
		if (t->n == NS_EP_MAXTOK) {
			t->over = 1;
			return;
		}
		k = 0;
		if (s[i] == ';' || s[i] == '{' || s[i] == '}')
			t->v[t->n][k++] = s[i++];
		else
			while (i < len && !ns_ep_is_space(s[i]) && s[i] != ';' &&
			       s[i] != '{' && s[i] != '}') {
				if (k + 1 >= NS_EP_TOKLEN || s[i] == '\0') {
					t->over = 1;
					return;
				}
				t->v[t->n][k++] = s[i++];
			}
		t->v[t->n++][k] = '\0';
	}
}

static int
ns_ep_bad(struct ns_egress_line *out, const char *why)
{
	out->kind = NS_EGRESS_LINE_BAD;
	snprintf(out->why, sizeof(out->why), "%s", why);
	return -1;
}

static int
ns_ep_parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;

	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	if (strlen(s) > 10)
		return -1;
	*v = strtol(s, &end, 10);
	return *end == '\0' && *v >= lo && *v <= hi ? 0 : -1;
}

const char *
ns_egress_hook_name(int hook)
{
	switch (hook) {
	case NS_EGRESS_HOOK_OUTPUT:
		return "output";
	case NS_EGRESS_HOOK_FORWARD:
		return "forward";
	case NS_EGRESS_HOOK_INPUT:
		return "input";
	default:
		return "?";
	}
}

static int
ns_ep_hook_of(const char *s)
{
	static const char *const other[] = { "prerouting", "postrouting",
		"ingress", "egress", NULL };

	for (int h = NS_EGRESS_HOOK_OUTPUT; h <= NS_EGRESS_HOOK_INPUT; h++)
		if (strcmp(s, ns_egress_hook_name(h)) == 0)
			return h;
	for (size_t i = 0; other[i]; i++)
		if (strcmp(s, other[i]) == 0)
			return NS_EGRESS_HOOK_OTHER;
	return NS_EGRESS_HOOK_NONE;
}

/* Byte i of the netmask of a /plen prefix. */
static uint8_t
ns_ep_mask_byte(int plen, int i)
{
	int keep = plen - 8 * i;

	return keep >= 8 ? 0xff : keep <= 0 ? 0 : (uint8_t)(0xff << (8 - keep));
}

static int
ns_ep_mask_ok(const struct ns_egress_addr *a)
{
	int bytes = a->fam == 4 ? 4 : 16;

	for (int i = 0; i < bytes; i++)
		if (a->a[i] & (uint8_t)~ns_ep_mask_byte(a->plen, i))
			return 0;
	return 1;
}

int
ns_egress_parse_addr(const char *s, int fam, struct ns_egress_addr *out)
{
	char buf[NS_EP_TOKLEN];
	char *slash;
	long plen;

	memset(out, 0, sizeof(*out));
	if (strlen(s) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash != NULL)
		*slash++ = '\0';
	if ((fam == 0 || fam == 4) && inet_pton(AF_INET, buf, out->a) == 1)
		out->fam = 4;
	else if ((fam == 0 || fam == 6) &&
		 inet_pton(AF_INET6, buf, out->a) == 1)
		out->fam = 6;
	else
		return -1;
	out->plen = out->fam == 4 ? 32 : 128;
	if (slash != NULL) {
		if (ns_ep_parse_int(slash, 1, out->plen, &plen) < 0)
			return -1;
		out->plen = (int)plen;
	}
	return ns_ep_mask_ok(out) ? 0 : -1;
}

int
ns_egress_format_addr(const struct ns_egress_addr *a, char *buf, size_t n)
{
	char t[INET6_ADDRSTRLEN];
	int full = a->fam == 4 ? 32 : 128, k;

	if (inet_ntop(a->fam == 4 ? AF_INET : AF_INET6, a->a, t,
		      sizeof(t)) == NULL)
		return -1;
	if (a->plen == full)
		k = snprintf(buf, n, "%s", t);
	else
		k = snprintf(buf, n, "%s/%d", t, a->plen);
	return k < 0 || (size_t)k >= n ? -1 : k;
}

int
ns_egress_addr_in(const struct ns_egress_addr *b, const struct ns_egress_addr *p)
{
	struct ns_egress_addr m = *b;

	if (b->fam != p->fam || b->plen < p->plen)
		return 0;
	m.plen = p->plen;
	for (int i = 0; i < 16; i++)
		m.a[i] &= ns_ep_mask_byte(p->plen, i);
	return memcmp(m.a, p->a, 16) == 0;
}

static const struct {
	const char *name;
	int type;
} ns_ep_icmp6_names[] = {
	{ "nd-router-solicit", NS_EGRESS_ICMP6_RS },
	{ "nd-router-advert", NS_EGRESS_ICMP6_RA },
	{ "nd-neighbor-solicit", NS_EGRESS_ICMP6_NS },
	{ "nd-neighbor-advert", NS_EGRESS_ICMP6_NA },
};

static const char *
ns_ep_icmp6_name(int type)
{
	for (size_t i = 0; i < sizeof(ns_ep_icmp6_names) / sizeof(ns_ep_icmp6_names[0]);
	     i++)
		if (ns_ep_icmp6_names[i].type == type)
			return ns_ep_icmp6_names[i].name;
	return NULL;
}

static int
ns_ep_icmp6_type(const char *s)
{
	for (size_t i = 0; i < sizeof(ns_ep_icmp6_names) / sizeof(ns_ep_icmp6_names[0]);
	     i++)
		if (strcmp(ns_ep_icmp6_names[i].name, s) == 0)
			return ns_ep_icmp6_names[i].type;
	return -1;
}

/* "iifname" "\"veth0\"": 1..15 bytes between the quotes, no quote. */
static int
ns_ep_parse_ifname(const char *s, char out[16])
{
	size_t n = strlen(s);

	if (n < 3 || s[0] != '"' || s[n - 1] != '"' || n - 2 > 15)
		return -1;
	if (memchr(s + 1, '"', n - 2) != NULL || memchr(s + 1, '\\', n - 2))
		return -1;
	memset(out, 0, 16);
	memcpy(out, s + 1, n - 2);
	return 0;
}

static int
ns_ep_parse_sel(const struct ns_ep_toks *t, int *i, struct ns_egress_rule *r)
{
	long v;

	if (*i + 1 < t->n && strcmp(t->v[*i], "meta") == 0 &&
	    strcmp(t->v[*i + 1], "skuid") == 0) {
		if (*i + 2 >= t->n ||
		    ns_ep_parse_int(t->v[*i + 2], 0, 4294967295L, &v) < 0)
			return -1;
		r->sel = NS_EGRESS_SEL_UID;
		r->uid = (uint32_t)v;
		*i += 3;
	} else if (*i < t->n && strcmp(t->v[*i], "iifname") == 0) {
		if (*i + 1 >= t->n || ns_ep_parse_ifname(t->v[*i + 1], r->ifname))
			return -1;
		r->sel = NS_EGRESS_SEL_IIF;
		*i += 2;
	}
	return 0;
}

static int
ns_ep_parse_daddr(const struct ns_ep_toks *t, int *i, struct ns_egress_rule *r)
{
	int fam;

	if (*i + 1 >= t->n || strcmp(t->v[*i + 1], "daddr") != 0)
		return 0;
	fam = strcmp(t->v[*i], "ip") == 0 ? 4 :
	    strcmp(t->v[*i], "ip6") == 0 ? 6 : 0;
	if (fam == 0)
		return 0;
	if (*i + 2 >= t->n || ns_egress_parse_addr(t->v[*i + 2], fam,
						&r->daddr) < 0)
		return -1;
	*i += 3;
	return 0;
}

static int
ns_ep_parse_l4(const struct ns_ep_toks *t, int *i, struct ns_egress_rule *r)
{
	long v;

	if (*i + 2 >= t->n)
		return 0;
	if ((strcmp(t->v[*i], "tcp") == 0 || strcmp(t->v[*i], "udp") == 0) &&
	    strcmp(t->v[*i + 1], "dport") == 0) {
		if (ns_ep_parse_int(t->v[*i + 2], 1, 65535, &v) < 0)
			return -1;
		r->l4 = t->v[*i][0] == 't' ? 6 : 17;
		r->dport = (int)v;
	} else if (strcmp(t->v[*i], "meta") == 0 &&
		   strcmp(t->v[*i + 1], "l4proto") == 0) {
		if (strcmp(t->v[*i + 2], "tcp") != 0)
			return -1;
		r->l4 = 6;
		r->dport = 0;
	} else if (strcmp(t->v[*i], "icmpv6") == 0 &&
		   strcmp(t->v[*i + 1], "type") == 0) {
		r->icmp_type = ns_ep_icmp6_type(t->v[*i + 2]);
		if (r->icmp_type < 0)
			return -1;
		r->l4 = 58;
	} else {
		return 0;
	}
	*i += 3;
	return 0;
}

/* The verdict: the words from i to the end.  "reject with tcp reset"
 * only on a tcp rule; "meta l4proto tcp" only before it (1.5). */
static int
ns_ep_parse_verdict(const struct ns_ep_toks *t, int i,
		    struct ns_egress_rule *r)
{
	int bare_tcp = r->l4 == 6 && r->dport == 0;

	if (i + 1 == t->n && (strcmp(t->v[i], "accept") == 0 ||
			      strcmp(t->v[i], "drop") == 0)) {
		r->accept = t->v[i][0] == 'a';
		return bare_tcp ? -1 : 0;
	}
	if (i + 4 != t->n || strcmp(t->v[i], "reject") != 0 ||
	    strcmp(t->v[i + 1], "with") != 0)
		return -1;
	if (strcmp(t->v[i + 2], "tcp") == 0 &&
	    strcmp(t->v[i + 3], "reset") == 0 && r->l4 == 6)
		r->icmp_type = NS_EGRESS_REJECT_TCP_RST;
	else if (strcmp(t->v[i + 2], "icmpx") == 0 &&
		 strcmp(t->v[i + 3], "admin-prohibited") == 0 && !bare_tcp &&
		 r->l4 != 58)
		r->icmp_type = NS_EGRESS_REJECT_ADMIN;
	else
		return -1;
	return 0;
}

static int
ns_ep_parse_rule(const struct ns_ep_toks *t, struct ns_egress_line *out)
{
	struct ns_egress_rule *r = &out->r;
	int i = 0;

	memset(r, 0, sizeof(*r));
	if (ns_ep_parse_sel(t, &i, r) < 0)
		return ns_ep_bad(out, "a selector: meta skuid <n> or iifname "
			   "\"<veth>\"");
	if (ns_ep_parse_daddr(t, &i, r) < 0)
		return ns_ep_bad(out, "ip daddr <ipv4>[/n] or ip6 daddr <ipv6>[/n]");
	if (ns_ep_parse_l4(t, &i, r) < 0)
		return ns_ep_bad(out, "tcp|udp dport <1-65535>, meta l4proto "
			   "tcp or icmpv6 type <nd-type>");
	if (ns_ep_parse_verdict(t, i, r) < 0)
		return ns_ep_bad(out, "a rule: [<sel>] [<daddr>] [<l4>] "
			   "accept|drop|reject with tcp reset|icmpx "
			   "admin-prohibited");
	out->kind = NS_EGRESS_LINE_RULE;
	return 0;
}

/* type <t> hook <h> priority <p> ; policy <v> ; */
static int
ns_ep_parse_base(const struct ns_ep_toks *t, struct ns_egress_line *out)
{
	long v;

	if (t->n != 10 || strcmp(t->v[2], "hook") != 0 ||
	    strcmp(t->v[4], "priority") != 0 || strcmp(t->v[6], ";") != 0 ||
	    strcmp(t->v[7], "policy") != 0 || strcmp(t->v[9], ";") != 0)
		return ns_ep_bad(out, "type <t> hook <h> priority <p>; policy "
			   "accept;");
	snprintf(out->type, sizeof(out->type), "%.15s", t->v[1]);
	out->hook = ns_ep_hook_of(t->v[3]);
	if (strcmp(t->v[5], "filter") == 0)
		out->prio = 0;
	else if (ns_ep_parse_int(t->v[5], 0, 1000, &v) == 0)
		out->prio = (int)v;
	else
		return ns_ep_bad(out, "priority filter or a number");
	if (strcmp(t->v[8], "accept") != 0 && strcmp(t->v[8], "drop") != 0)
		return ns_ep_bad(out, "policy accept or drop");
	out->policy_accept = t->v[8][0] == 'a';
	if (out->hook == NS_EGRESS_HOOK_NONE)
		return ns_ep_bad(out, "a hook name");
	out->kind = NS_EGRESS_LINE_BASE;
	return 0;
}

static int
ns_ep_ident_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 80 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static void
ns_ep_parse_tokens(const struct ns_ep_toks *t, struct ns_egress_line *out)
{
	if (t->n == 4 && strcmp(t->v[0], "table") == 0 &&
	    strcmp(t->v[3], "{") == 0 && ns_ep_ident_ok(t->v[2])) {
		out->kind = NS_EGRESS_LINE_TABLE;
		snprintf(out->family, sizeof(out->family), "%.7s", t->v[1]);
		snprintf(out->name, sizeof(out->name), "%s", t->v[2]);
	} else if (t->n == 3 && strcmp(t->v[0], "chain") == 0 &&
		   strcmp(t->v[2], "{") == 0 && ns_ep_ident_ok(t->v[1])) {
		out->kind = NS_EGRESS_LINE_CHAIN;
		snprintf(out->name, sizeof(out->name), "%s", t->v[1]);
	} else if (t->n == 1 && strcmp(t->v[0], "}") == 0) {
		out->kind = NS_EGRESS_LINE_CLOSE;
	} else if (t->n >= 1 && strcmp(t->v[0], "type") == 0) {
		ns_ep_parse_base(t, out);
	} else if (t->n >= 1 && (strcmp(t->v[0], "table") == 0 ||
				 strcmp(t->v[0], "chain") == 0)) {
		ns_ep_bad(out, "table inet <name> { or chain <name> {");
	} else {
		ns_ep_parse_rule(t, out);
	}
}

void
ns_egress_parse_line(const char *line, size_t len, struct ns_egress_line *out)
{
	struct ns_ep_toks t;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	while (i < len && ns_ep_is_space(line[i]))
		i++;
	if (i == len || line[i] == '#') {
		out->kind = NS_EGRESS_LINE_BLANK;
		return;
	}
	ns_ep_tokenize(line + i, len - i, &t);
	if (t.over) {
		ns_ep_bad(out, "a shorter line (too many or too long words)");
		return;
	}
	ns_ep_parse_tokens(&t, out);
}

static int
ns_ep_add(char *buf, size_t n, size_t *o, const char *s)
{
	size_t k = strlen(s);

	if (*o + k + 2 > n)
		return -1;
	if (*o > 0)
		buf[(*o)++] = ' ';
	memcpy(buf + *o, s, k + 1);
	*o += k;
	return 0;
}

static int
ns_ep_fmt_sel(const struct ns_egress_rule *r, char *buf, size_t n, size_t *o)
{
	char t[40];

	if (r->sel == NS_EGRESS_SEL_UID) {
		snprintf(t, sizeof(t), "meta skuid %u", r->uid);
		return ns_ep_add(buf, n, o, t);
	}
	if (r->sel == NS_EGRESS_SEL_IIF) {
		snprintf(t, sizeof(t), "iifname \"%.15s\"", r->ifname);
		return ns_ep_add(buf, n, o, t);
	}
	return 0;
}

int
ns_egress_format_rule(const struct ns_egress_rule *r, char *buf, size_t n)
{
	char t[80], a[64];
	size_t o = 0;

	if (n == 0)
		return -1;
	buf[0] = '\0';
	if (ns_ep_fmt_sel(r, buf, n, &o) < 0)
		return -1;
	if (r->daddr.fam != 0) {
		if (ns_egress_format_addr(&r->daddr, a, sizeof(a)) < 0)
			return -1;
		snprintf(t, sizeof(t), "%s daddr %s",
			 r->daddr.fam == 4 ? "ip" : "ip6", a);
		if (ns_ep_add(buf, n, &o, t) < 0)
			return -1;
	}
	if (r->l4 == 6 && r->dport == 0)
		snprintf(t, sizeof(t), "meta l4proto tcp");
	else if (r->l4 == 6 || r->l4 == 17)
		snprintf(t, sizeof(t), "%s dport %d", r->l4 == 6 ? "tcp" :
			 "udp", r->dport);
	else if (r->l4 == 58 && ns_ep_icmp6_name(r->icmp_type) != NULL)
		snprintf(t, sizeof(t), "icmpv6 type %s",
			 ns_ep_icmp6_name(r->icmp_type));
	else
		t[0] = '\0';
	if (t[0] != '\0' && ns_ep_add(buf, n, &o, t) < 0)
		return -1;
	if (ns_ep_add(buf, n, &o, r->accept ? "accept" :
		      NS_EGRESS_RULE_REJECT(r) == NS_EGRESS_REJECT_TCP_RST ?
		      "reject with tcp reset" :
		      NS_EGRESS_RULE_REJECT(r) == NS_EGRESS_REJECT_ADMIN ?
		      "reject with icmpx admin-prohibited" : "drop") < 0)
		return -1;
	return (int)o;
}

int
ns_egress_format_base(const char *type, int hook, int prio, int policy_accept,
		   char *buf, size_t n)
{
	char p[16];
	int k;

	if (prio == 0)
		snprintf(p, sizeof(p), "filter");
	else
		snprintf(p, sizeof(p), "%d", prio);
	k = snprintf(buf, n, "type %s hook %s priority %s; policy %s;", type,
		     ns_egress_hook_name(hook), p, policy_accept ? "accept" :
		     "drop");
	return k < 0 || (size_t)k >= n ? -1 : k;
}

int
ns_egress_rule_eq(const struct ns_egress_rule *a, const struct ns_egress_rule *b)
{
	if (a->sel != b->sel || a->accept != b->accept || a->l4 != b->l4 ||
	    NS_EGRESS_RULE_REJECT(a) != NS_EGRESS_RULE_REJECT(b))
		return 0;
	if (a->sel == NS_EGRESS_SEL_UID && a->uid != b->uid)
		return 0;
	if (a->sel == NS_EGRESS_SEL_IIF && memcmp(a->ifname, b->ifname, 16) != 0)
		return 0;
	if (a->daddr.fam != b->daddr.fam || (a->daddr.fam != 0 &&
	    (a->daddr.plen != b->daddr.plen ||
	     memcmp(a->daddr.a, b->daddr.a, 16) != 0)))
		return 0;
	if ((a->l4 == 6 || a->l4 == 17) && a->dport != b->dport)
		return 0;
	return a->l4 != 58 || a->icmp_type == b->icmp_type;
}

#endif /* NS_EGRESS_PLAN_IMPLEMENTATION */
