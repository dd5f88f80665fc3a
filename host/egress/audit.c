/* SPDX-License-Identifier: MIT */
/* audit.c -- the auditor `check --plan` and `check --live` share:
 * parse plan text back with the plan grammar and assert the invariants
 * (docs/SPEC-SANDBOX.md "Egress", invariants). */
#include <string.h>

#include "egress/allowlist.h"

#define MAXRULES 16384

struct chainst {
	char name[80];
	unsigned line;
	int has_base, base_line_ok;
	struct ns_egress_line base;
	struct ns_egress_rule *rules;
	unsigned *lines;
	size_t n;
};

struct auditst {
	struct egress_audit *a;
	struct refusals *r;
	int depth, tables, found;
	struct chainst c;
};

static void
rule_problems(struct auditst *st, const struct chainst *c, size_t i,
	      int want_sel, const struct ns_egress_rule *first)
{
	const struct ns_egress_rule *x = &c->rules[i];
	unsigned ln = c->lines[i];
	int full = x->daddr.fam == 4 ? 32 : 128;

	if (x->sel != want_sel || x->sel != first->sel ||
	    (x->sel == NS_EGRESS_SEL_UID && x->uid != first->uid) ||
	    (x->sel == NS_EGRESS_SEL_IIF && memcmp(x->ifname, first->ifname, 16)))
		refusals_add(st->r, REASON_UNSCOPED_RULE, "line %u: every rule of "
			     "chain %s must start with the chain's one "
			     "selector (%s)", ln, c->name, want_sel == NS_EGRESS_SEL_UID ?
			     "meta skuid <n> in output" :
			     "iifname \"<veth>\" in forward and input");
	if (!x->accept)
		return;
	if (x->l4 == 58) {
		if (c->base.hook != NS_EGRESS_HOOK_INPUT || x->daddr.fam != 0 ||
		    x->icmp_type == NS_EGRESS_ICMP6_RA)
			refusals_add(st->r, REASON_ALLOW_PORT, "line %u: icmpv6 is "
				     "accepted only for neighbour discovery "
				     "(router/neighbour solicit, neighbour "
				     "advert) in the input chain", ln);
		return;
	}
	if (x->daddr.fam == 0 || x->daddr.plen != full)
		refusals_add(st->r, REASON_ALLOW_ANY, "line %u: an accept names "
			     "exactly ONE address (no prefix, no \"any\")", ln);
	if (!((x->l4 == 6 && x->dport > 0) ||
	      (x->l4 == 17 && x->dport == 53)))
		refusals_add(st->r, REASON_ALLOW_PORT, "line %u: an accept is tcp "
			     "dport <1-65535> or udp dport 53 (DNS to the "
			     "resolver) and nothing else", ln);
}

/* A deny of every protocol: drop, or reject with icmpx (a tcp reset
 * rejects tcp alone). */
static int
is_full_deny(const struct ns_egress_rule *x)
{
	return !x->accept &&
	    NS_EGRESS_RULE_REJECT(x) != NS_EGRESS_REJECT_TCP_RST &&
	    x->l4 == 0;
}

static int
is_metadata_drop(const struct ns_egress_rule *x)
{
	static const uint8_t md[4] = { 169, 254, 169, 254 };

	return is_full_deny(x) && x->daddr.fam == 4 && x->daddr.plen == 32 &&
	    memcmp(x->daddr.a, md, 4) == 0;
}

static int
is_bare(const struct ns_egress_rule *x)
{
	return x->daddr.fam == 0 && x->l4 == 0;
}

/* The bare "meta l4proto tcp reject with tcp reset" that may come just
 * before the chain's bare default deny. */
static int
is_bare_rst(const struct ns_egress_rule *x)
{
	return x->daddr.fam == 0 && x->l4 == 6 && x->dport == 0 &&
	    NS_EGRESS_RULE_REJECT(x) == NS_EGRESS_REJECT_TCP_RST;
}

/* The accepts a chain may open with, before its denies: ICMPv6 neighbour
 * discovery, and one loopback address on a port (a server or resolver on
 * loopback the policy file names; they except the loopback deny). */
static int
is_leading_accept(const struct ns_egress_rule *x)
{
	int full = x->daddr.fam == 4 ? 32 : 128;

	if (!x->accept)
		return 0;
	if (x->l4 == 58)
		return 1;
	return x->daddr.fam != 0 && x->daddr.plen == full &&
	    egress_addr_loopback(&x->daddr) &&
	    ((x->l4 == 6 && x->dport > 0) || (x->l4 == 17 && x->dport == 53));
}

/* Denies before accepts: past the leading accepts (ICMPv6 neighbour
 * discovery, loopback servers), the first accept closes the denies; only
 * the final bare selector deny (and the bare tcp reset just before it)
 * may follow it. */
static void
deny_order(struct auditst *st, const struct chainst *c)
{
	size_t i = 0, first = 0;
	int open = 0;

	while (i < c->n && is_leading_accept(&c->rules[i]))
		i++;
	for (; i < c->n; i++) {
		const struct ns_egress_rule *x = &c->rules[i];

		if (x->accept) {
			if (!open)
				first = i;
			open = 1;
			continue;
		}
		if (!open || (i == c->n - 1 && is_bare(x)) ||
		    (i == c->n - 2 && is_bare_rst(x) &&
		     is_bare(&c->rules[c->n - 1])))
			continue;
		refusals_add(st->r, REASON_DENY_AFTER_ACCEPT, "line %u: chain %s "
			     "denies after its first accept (line %u): every "
			     "deny comes before the accepts, only the bare "
			     "selector deny ends the chain", c->lines[i],
			     c->name, c->lines[first]);
	}
}

static void
chain_tail(struct auditst *st, const struct chainst *c, int want_sel)
{
	const struct ns_egress_rule *last;
	int md = 0;

	for (size_t i = 0; i < c->n; i++) {
		if (is_metadata_drop(&c->rules[i]))
			md = 1;
		if (!md && c->rules[i].accept &&
		    !is_leading_accept(&c->rules[i]))
			break;
	}
	if (!md)
		refusals_add(st->r, REASON_NO_METADATA_DENY, "chain %s (line %u) "
			     "must deny ip daddr 169.254.169.254 by name "
			     "(drop or reject with icmpx), before any accept", c->name, c->line);
	last = c->n ? &c->rules[c->n - 1] : NULL;
	if (last == NULL || !is_full_deny(last) || !is_bare(last) ||
	    last->sel != want_sel)
		refusals_add(st->r, REASON_NO_DEFAULT_DENY, "chain %s (line %u) "
			     "must end in its bare selector deny (drop or reject "
			     "with icmpx admin-prohibited)", c->name,
			     c->line);
}

static void
chain_done(struct auditst *st, struct chainst *c)
{
	int want;

	st->a->chains++;
	st->a->rules += c->n;
	for (size_t i = 0; i < c->n; i++)
		c->rules[i].accept ? st->a->allow++ : st->a->deny++;
	if (!c->has_base || strcmp(c->base.type, "filter") != 0 ||
	    c->base.hook < NS_EGRESS_HOOK_OUTPUT || c->base.hook > NS_EGRESS_HOOK_INPUT ||
	    !c->base.policy_accept || c->base.prio != 0 ||
	    strcmp(c->name, ns_egress_hook_name(c->base.hook)) != 0) {
		refusals_addr(st->r, REASON_BAD_CHAIN, REMEDY_IN_TEXT,
			      "chain %s (line %u) wants "
			      "\"type filter hook output|forward|input "
			      "priority filter; policy accept;\" first and a "
			      "name equal to its hook", c->name, c->line);
		return;
	}
	want = c->base.hook == NS_EGRESS_HOOK_OUTPUT ? NS_EGRESS_SEL_UID : NS_EGRESS_SEL_IIF;
	for (size_t i = 0; i < c->n; i++)
		rule_problems(st, c, i, want, &c->rules[0]);
	deny_order(st, c);
	chain_tail(st, c, want);
}

static void
on_table(struct auditst *st, const struct ns_egress_line *l, unsigned ln)
{
	const char *run = l->name + strlen("nova_egress_");

	if (st->depth != 0) {
		refusals_add(st->r, REASON_BAD_RULE, "line %u: a table inside a "
			     "table (unbalanced braces)", ln);
		return;
	}
	st->depth = 1;
	if (++st->tables > 1) {
		refusals_add(st->r, REASON_BAD_TABLE, "line %u: exactly one table, "
			     "table inet nova_egress_<run>", ln);
		return;
	}
	snprintf(st->a->table, sizeof(st->a->table), "%s", l->name);
	if (strcmp(l->family, "inet") != 0 ||
	    strncmp(l->name, "nova_egress_", 12) != 0 || !egress_run_ok(run))
		refusals_add(st->r, REASON_BAD_TABLE, "line %u: the table is table "
			     "inet nova_egress_<run>, got %s %s", ln,
			     l->family, l->name);
}

static void
on_line(struct auditst *st, const struct ns_egress_line *l, unsigned ln)
{
	struct chainst *c = &st->c;

	switch (l->kind) {
	case NS_EGRESS_LINE_BLANK:
		return;
	case NS_EGRESS_LINE_BAD:
		refusals_addr(st->r, REASON_BAD_RULE, REMEDY_IN_TEXT,
			      "line %u: cannot be read; "
			      "wants %s", ln, l->why);
		return;
	case NS_EGRESS_LINE_TABLE:
		on_table(st, l, ln);
		return;
	case NS_EGRESS_LINE_CHAIN:
		if (st->depth != 1) {
			refusals_add(st->r, REASON_BAD_RULE, "line %u: a chain "
				     "belongs directly inside the table", ln);
			return;
		}
		st->depth = 2;
		c->n = 0;
		c->has_base = 0;
		c->line = ln;
		snprintf(c->name, sizeof(c->name), "%s", l->name);
		return;
	case NS_EGRESS_LINE_BASE:
		if (st->depth != 2 || c->has_base || c->n > 0) {
			refusals_add(st->r, REASON_BAD_CHAIN, "line %u: the type/"
				     "hook/policy line comes first in a "
				     "chain, once", ln);
			return;
		}
		c->has_base = 1;
		c->base = *l;
		return;
	case NS_EGRESS_LINE_RULE:
		if (st->depth != 2) {
			refusals_add(st->r, REASON_BAD_RULE, "line %u: a rule "
				     "outside a chain", ln);
			return;
		}
		if (c->n == MAXRULES) {
			refusals_add(st->r, REASON_BAD_RULE, "line %u: more than "
				     "%d rules in one chain", ln, MAXRULES);
			return;
		}
		c->lines[c->n] = ln;
		c->rules[c->n++] = l->r;
		return;
	case NS_EGRESS_LINE_CLOSE:
		if (st->depth == 2)
			chain_done(st, c);
		else if (st->depth == 0)
			refusals_add(st->r, REASON_BAD_RULE, "line %u: unbalanced "
				     "braces", ln);
		st->depth = st->depth > 0 ? st->depth - 1 : 0;
		return;
	}
}

/* How many of the n bytes at s are in set: strspn bounded by n (a plan
 * line is not NUL-terminated). */
static size_t
span_n(const char *s, size_t n, const char *set)
{
	size_t i = 0;

	while (i < n && s[i] != '\0' && strchr(set, s[i]) != NULL)
		i++;
	return i;
}

/* The token after "daddr" in s (len bytes): its start and length. */
static int
daddr_token(const char *s, size_t len, size_t *at, size_t *n)
{
	size_t i = 0, k;
	int after = 0;

	while (i < len) {
		i += span_n(s + i, len - i, " \t");
		for (k = i; k < len && s[k] != ' ' && s[k] != '\t'; k++)
			;
		if (k == i)
			break;
		if (after) {
			*at = i;
			*n = k - i;
			return 0;
		}
		after = k - i == 5 && memcmp(s + i, "daddr", 5) == 0;
		i = k;
	}
	return -1;
}

/* An accept widened to a prefix the grammar does not write (/0, or an
 * address with host bits under its prefix) is read with the address
 * alone and then given its prefix back, so the invariants say allow_any,
 * not "cannot be read".  Anything else stays NS_EGRESS_LINE_BAD; so does
 * a widened drop (no module could apply it). */
static void
read_widened(const char *s, size_t len, struct ns_egress_line *l)
{
	char buf[512];
	const char *slash;
	struct ns_egress_line w;
	size_t at, n, digits;
	int plen = 0;

	if (len >= sizeof(buf) || daddr_token(s, len, &at, &n) < 0 ||
	    (slash = memchr(s + at, '/', n)) == NULL)
		return;
	digits = (size_t)(s + at + n - slash - 1);
	if (digits < 1 || digits > 3 ||
	    span_n(slash + 1, digits, "0123456789") < digits)
		return;
	for (size_t i = 1; i <= digits; i++)
		plen = plen * 10 + (slash[i] - '0');
	/* the line with "/<n>" cut out */
	memcpy(buf, s, (size_t)(slash - s));
	memcpy(buf + (slash - s), slash + 1 + digits,
	       len - (size_t)(slash + 1 + digits - s));
	ns_egress_parse_line(buf, len - 1 - digits, &w);
	if (w.kind != NS_EGRESS_LINE_RULE || !w.r.accept ||
	    w.r.daddr.fam == 0 || plen > (w.r.daddr.fam == 4 ? 32 : 128))
		return;
	w.r.daddr.plen = plen;
	*l = w;
}

int
egress_audit(const char *text, size_t len, struct egress_audit *a,
	     struct refusals *r)
{
	struct auditst st;
	struct ns_egress_line l;
	size_t before = r->n, i = 0, e;
	unsigned ln = 0;

	memset(&st, 0, sizeof(st));
	memset(a, 0, sizeof(*a));
	st.a = a;
	st.r = r;
	st.c.rules = calloc(MAXRULES, sizeof(st.c.rules[0]));
	st.c.lines = calloc(MAXRULES, sizeof(st.c.lines[0]));
	if (st.c.rules == NULL || st.c.lines == NULL) {
		free(st.c.rules);
		free(st.c.lines);
		return -1;
	}
	while (i < len) {
		for (e = i; e < len && text[e] != '\n'; e++)
			;
		ns_egress_parse_line(text + i, e - i, &l);
		if (l.kind == NS_EGRESS_LINE_BAD)
			read_widened(text + i, e - i, &l);
		on_line(&st, &l, ++ln);
		i = e + 1;
	}
	if (st.depth != 0)
		refusals_add(r, REASON_BAD_RULE, "unbalanced braces: %d left open "
			     "at the end", st.depth);
	if (st.tables == 0)
		refusals_add(r, REASON_BAD_TABLE, "no table: the plan is one table "
			     "inet nova_egress_<run>");
	else if (a->chains == 0)
		refusals_addr(r, REASON_BAD_CHAIN, REMEDY_IN_TEXT,
			      "no chain: the table wants "
			      "chain output (--uid) or chain forward and chain "
			      "input (--veth)");
	free(st.c.rules);
	free(st.c.lines);
	return (int)(r->n - before);
}

static int
canon_line(const struct ns_egress_line *l, struct sbuf *b)
{
	char buf[256];

	switch (l->kind) {
	case NS_EGRESS_LINE_TABLE:
		return sbuf_addf(b, "table %s %s {\n", l->family, l->name);
	case NS_EGRESS_LINE_CHAIN:
		return sbuf_addf(b, "chain %s {\n", l->name);
	case NS_EGRESS_LINE_BASE:
		if (ns_egress_format_base(l->type, l->hook, l->prio,
				       l->policy_accept, buf, sizeof(buf)) < 0)
			return -1;
		return sbuf_addf(b, "%s\n", buf);
	case NS_EGRESS_LINE_CLOSE:
		return sbuf_add(b, "}\n");
	case NS_EGRESS_LINE_RULE:
		if (ns_egress_format_rule(&l->r, buf, sizeof(buf)) < 0)
			return -1;
		return sbuf_addf(b, "%s\n", buf);
	case NS_EGRESS_LINE_BLANK:
		return 0;
	default:
		return -1;
	}
}

char *
egress_canonical(const char *text, size_t len)
{
	struct sbuf b = {0};
	struct ns_egress_line l;
	size_t i = 0, e;

	while (i < len) {
		for (e = i; e < len && text[e] != '\n'; e++)
			;
		ns_egress_parse_line(text + i, e - i, &l);
		if (canon_line(&l, &b) < 0) {
			sbuf_free(&b);
			return NULL;
		}
		i = e + 1;
	}
	return sbuf_take(&b);
}

int
egress_plan_minor(const char *text, size_t len)
{
	struct ns_egress_line l;
	size_t i = 0, e;

	while (i < len) {
		for (e = i; e < len && text[e] != '\n'; e++)
			;
		ns_egress_parse_line(text + i, e - i, &l);
		if (l.kind == NS_EGRESS_LINE_RULE &&
		    (NS_EGRESS_RULE_REJECT(&l.r) != 0 || (l.r.l4 == 6 && l.r.dport == 0)))
			return 5;
		i = e + 1;
	}
	return 0;
}
