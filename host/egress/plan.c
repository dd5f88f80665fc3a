/* SPDX-License-Identifier: MIT */
/* plan.c -- `egress plan`: the input-only checks, the resolution
 * and pinning, and the renderer (docs/SPEC-SANDBOX.md "Egress"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "egress/allowlist.h"

/* One refusal of the input: the text, then the caller's line with `flag`
 * fixed: its value `bad` (NULL: not given, so it is added first; with
 * `any`, the first one whatever its value) becomes the form `to`.  1 when
 * it was added. */
static int ecfix(const struct egress_input *in, struct refusals *r,
		 const char *tok, const char *flag, const char *bad, int any,
		 const char *to, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static int
ecfix(const struct egress_input *in, struct refusals *r, const char *tok,
      const char *flag, const char *bad, int any, const char *to,
      const char *fmt, ...)
{
	struct cmdfix f = { flag, bad, to, bad || any ? NULL : flag, 0 };
	struct sbuf t = {0};
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&t, fmt, ap);
	va_end(ap);
	rc = rc ? rc : remedy_refuse(r, tok, REMEDY_IN_TEXT, in->line, &f,
				     "%s", t.s);
	sbuf_free(&t);
	if (rc < 0)
		refusals_oom(r);
	return 1;
}

/* Is the address line a:53 (a resolver on loopback named by the file)? */
static int
file_names(const struct egress_input *in, const struct ns_egress_addr *a,
	   int port)
{
	for (size_t i = 0; in->allows && i < in->allows->n; i++)
		if (in->allows->v[i].addr.fam == a->fam &&
		    in->allows->v[i].port == port &&
		    memcmp(in->allows->v[i].addr.a, a->a, 16) == 0)
			return 1;
	return 0;
}

/* A resolver in a denied range is refused, except one on loopback that
 * the policy file names as <addr>:53 for a --uid card (a --veth card is
 * in another network namespace: this loopback is not its own). */
static int
resolver_refused(const struct egress_input *in, struct refusals *r)
{
	const char *what;
	char a[64];

	if (in->resolver.fam == 0 ||
	    !egress_addr_denied(&in->resolver, in->cidrs, in->n_cidrs, &what))
		return 0;
	ns_egress_format_addr(&in->resolver, a, sizeof(a));
	if (egress_addr_loopback(&in->resolver) && in->veth == NULL &&
	    file_names(in, &in->resolver, 53))
		return 0;
	if (egress_addr_loopback(&in->resolver))
		return ecfix(in, r, REASON_BAD_RESOLVER, "--resolver", NULL, 1,
			     "<ip>", "--resolver %s is on loopback: allowed "
			     "only for --uid alone and when the policy file %s "
			     "names it as %s%s%s:53", a, in->policy_path,
			     in->resolver.fam == 6 ? "[" : "", a,
			     in->resolver.fam == 6 ? "]" : "");
	return ecfix(in, r, REASON_BAD_RESOLVER, "--resolver", NULL, 1,
		     "<ip>", "--resolver is inside a denied range (%s): "
		     "name a resolver the card may reach", what);
}

/* An address line inside a --bench-cidr would be denied before its
 * accept: said, not left to fail. */
static int
address_lines_refused(const struct egress_input *in, struct refusals *r)
{
	char a[64];
	int n = 0;

	for (size_t i = 0; in->allows && i < in->allows->n; i++)
		for (size_t k = 0; k < in->n_cidrs; k++) {
			if (in->allows->v[i].addr.fam == 0 ||
			    !ns_egress_addr_in(&in->allows->v[i].addr,
					       &in->cidrs[k]))
				continue;
			ns_egress_format_addr(&in->allows->v[i].addr, a,
					      sizeof(a));
			n += refusals_add(r, REASON_BAD_POLICY, "%s names %s, "
					  "inside a --bench-cidr (denied): drop "
					  "the line or the --bench-cidr",
					  in->policy_path, a) >= 0;
			break;
		}
	return n;
}

int
egress_check_input(const struct egress_input *in, struct refusals *r)
{
	unsigned long long v;
	int n = 0;

	if (!egress_run_ok(in->run))
		n += ecfix(in, r, REASON_NO_NAME, "--run", in->run != NULL &&
			   in->run[0] != '\0' ? in->run : NULL, 0, "<id>",
			   "--run wants 1-32 of [A-Za-z0-9_] (it names the "
			   "table nova_egress_<run>)");
	if (in->uid != NULL && (strlen(in->uid) > 10 ||
				parse_u64(in->uid, 4294967295ULL, &v) != 0))
		n += ecfix(in, r, REASON_BAD_UID, "--uid", in->uid, 0, "<n>",
			   "--uid wants a numeric uid (at most 10 digits, "
			   "below 2^32), got %.40s", in->uid);
	if (in->veth != NULL && !egress_veth_ok(in->veth))
		n += ecfix(in, r, REASON_BAD_VETH, "--veth", in->veth, 0,
			   "<if>", "--veth wants an interface name, 1-15 of "
			   "[A-Za-z0-9-_.@]");
	if (in->uid == NULL && in->veth == NULL)
		n += ecfix(in, r, REASON_NO_SELECTOR, "--uid", NULL, 0, "<n>",
			   "name --uid <n> (the card's uid) or --veth <if> "
			   "(the card's interface): an unscoped default deny "
			   "would wall the bench itself");
	for (size_t i = 0; egress_base_names[i]; i++)
		if (!strv_contains(&in->names, egress_base_names[i]))
			n += refusals_add(r, REASON_BAD_POLICY, "%s must carry the "
					  "base name %s", in->policy_path,
					  egress_base_names[i]) >= 0;
	if (in->model_host == NULL || !strv_contains(&in->names, in->model_host))
		n += ecfix(in, r, REASON_BAD_MODEL_HOST, "--model-host",
			   in->model_host, 0, "<host>", "--model-host wants a "
			   "host the policy file %s already carries (a new "
			   "host is a reviewed change to that file, not a "
			   "flag)%s%.80s", in->policy_path,
			   in->model_host ? "; got " : "",
			   in->model_host ? in->model_host : "");
	n += resolver_refused(in, r);
	return n + address_lines_refused(in, r);
}

/* One accept of the plan: an address and its tcp port. */
struct pin {
	struct ns_egress_addr a;
	int port;
};

static int
pin_cmp(const void *x, const void *y)
{
	const struct pin *a = x, *b = y;
	int c;

	if (a->a.fam != b->a.fam)
		return a->a.fam - b->a.fam;
	c = memcmp(a->a.a, b->a.a, 16);
	return c != 0 ? c : a->port - b->port;
}

struct pins {
	struct pin *all; /* deduplicated, sorted: IPv4, IPv6, then port */
	size_t n;
	struct sbuf notes; /* "# pin <name> <addrs>" lines */
};

static void
pin_add(struct pins *p, const struct ns_egress_addr *a, int port)
{
	struct pin k = { *a, port };

	if (p->n < EGRESS_MAX_ADDRS &&
	    bsearch(&k, p->all, p->n, sizeof(k), pin_cmp) == NULL) {
		p->all[p->n++] = k;
		qsort(p->all, p->n, sizeof(p->all[0]), pin_cmp);
	}
}

/* Every port the file allows `name` (none given: 443 alone). */
static void
pin_ports(const struct egress_input *in, const char *name, struct pins *p,
	  const struct ns_egress_addr *a)
{
	if (in->allows == NULL) {
		pin_add(p, a, 443);
		return;
	}
	for (size_t i = 0; i < in->allows->n; i++)
		if (strcmp(in->allows->v[i].name, name) == 0)
			pin_add(p, a, in->allows->v[i].port);
}

static int
pin_name(const struct egress_input *in, const char *name, struct pins *p,
	 struct strv *notes, struct refusals *r)
{
	struct ns_egress_addr got[EGRESS_PER_NAME_MAX];
	char a[64], *why = NULL;
	const char *what;
	size_t n = 0, max = in->per_name == 0 ? EGRESS_PER_NAME :
	    in->per_name < EGRESS_PER_NAME_MAX ? in->per_name :
	    EGRESS_PER_NAME_MAX;
	int bad = 0;

	if (in->lookup(in->lookup_ctx, &in->resolver, name, got, max, &n,
		       &why) != 0 || n == 0) {
		refusals_add(r, REASON_RESOLVE_FAILED, "%s: %s", name, why ? why :
			     "no A or AAAA record");
		free(why);
		return 1;
	}
	if (why != NULL) {	/* a family that failed: said, not fatal */
		int rc = strv_pushf(notes, "%s: %s", name, why);

		free(why);
		if (rc < 0)
			return -1;
	}
	if (n > max)	/* a seam that overfills is cut, never trusted */
		n = max;
	sbuf_addf(&p->notes, "# pin %s", name);
	for (size_t i = 0; i < n; i++) {
		ns_egress_format_addr(&got[i], a, sizeof(a));
		sbuf_addf(&p->notes, " %s", a);
		if (egress_addr_denied(&got[i], in->cidrs, in->n_cidrs,
				       &what)) {
			refusals_add(r, REASON_BAD_ADDRESS, "%s resolved to %s, "
				     "inside a denied range (%s): poisoned or "
				     "rebinding; nothing was written", name,
				     a, what);
			bad = 1;
			continue;
		}
		pin_ports(in, name, p, &got[i]);
	}
	sbuf_add(&p->notes, "\n");
	return bad;
}

static void
rule_line(struct egress_plan *p, const struct ns_egress_rule *r)
{
	char buf[256];

	if (ns_egress_format_rule(r, buf, sizeof(buf)) > 0)
		sbuf_addf(&p->text, "\t\t%s\n", buf);
	if (r->accept)
		p->allow++;
	else
		p->deny++;
}

static void
sel_rule(const struct egress_input *in, int sel, struct ns_egress_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->sel = sel;
	if (sel == NS_EGRESS_SEL_UID)
		r->uid = (uint32_t)strtoul(in->uid, NULL, 10);
	else
		memcpy(r->ifname, in->veth, strnlen(in->veth, 15));
}

/* One deny, REJECTED so a client fails at once: TCP gets a reset, the
 * rest ICMP/ICMPv6 administratively prohibited (a = NULL: the bare
 * selector's, the chain's default deny). */
static void
deny_pair(const struct egress_input *in, struct egress_plan *p, int sel,
	  const struct ns_egress_addr *a)
{
	struct ns_egress_rule r;

	sel_rule(in, sel, &r);
	if (a != NULL)
		r.daddr = *a;
	r.l4 = 6;
	r.icmp_type = NS_EGRESS_REJECT_TCP_RST; /* the reject (1.5) */
	rule_line(p, &r);
	sel_rule(in, sel, &r);
	if (a != NULL)
		r.daddr = *a;
	r.icmp_type = NS_EGRESS_REJECT_ADMIN;
	rule_line(p, &r);
}

static void
accept_line(const struct egress_input *in, struct egress_plan *p, int sel,
	    const struct ns_egress_addr *a, int l4, int port)
{
	struct ns_egress_rule r;

	sel_rule(in, sel, &r);
	r.daddr = *a;
	r.l4 = l4;
	r.dport = port;
	r.accept = 1;
	rule_line(p, &r);
}

static void
render_denies(const struct egress_input *in, struct egress_plan *p, int sel)
{
	struct ns_egress_addr d;
	int k;

	for (size_t i = 0; (k = egress_deny_range(i, &d)) >= 0; i++)
		if (k == 1)
			deny_pair(in, p, sel, &d);
	for (size_t i = 0; i < in->n_cidrs; i++)
		deny_pair(in, p, sel, &in->cidrs[i]);
	if (!egress_addr_loopback(&in->resolver))
		accept_line(in, p, sel, &in->resolver, 17, 53);
}

/* The output chain's first accepts: the loopback servers the file names
 * (and a loopback resolver), ahead of the loopback deny they except. */
static void
render_loopback(const struct egress_input *in, struct egress_plan *p,
		int sel)
{
	for (size_t i = 0; in->allows && i < in->allows->n; i++)
		if (egress_addr_loopback(&in->allows->v[i].addr))
			accept_line(in, p, sel, &in->allows->v[i].addr, 6,
				    in->allows->v[i].port);
	if (egress_addr_loopback(&in->resolver))
		accept_line(in, p, sel, &in->resolver, 17, 53);
}

static void
render_chain(const struct egress_input *in, struct egress_plan *p,
	     int hook, const struct pins *pins)
{
	static const int nd[] = { NS_EGRESS_ICMP6_RS, NS_EGRESS_ICMP6_NS,
		NS_EGRESS_ICMP6_NA };
	int sel = hook == NS_EGRESS_HOOK_OUTPUT ? NS_EGRESS_SEL_UID : NS_EGRESS_SEL_IIF;
	char base[128];
	struct ns_egress_rule r;

	ns_egress_format_base("filter", hook, 0, 1, base, sizeof(base));
	sbuf_addf(&p->text, "\tchain %s {\n\t\t%s\n", ns_egress_hook_name(hook),
		  base);
	for (size_t i = 0; hook == NS_EGRESS_HOOK_INPUT && i < 3; i++) {
		sel_rule(in, sel, &r);
		r.l4 = 58;
		r.icmp_type = nd[i];
		r.accept = 1;
		rule_line(p, &r);
	}
	if (hook == NS_EGRESS_HOOK_OUTPUT)
		render_loopback(in, p, sel);
	render_denies(in, p, sel);
	for (size_t i = 0; hook != NS_EGRESS_HOOK_INPUT && i < pins->n; i++)
		accept_line(in, p, sel, &pins->all[i].a, 6, pins->all[i].port);
	deny_pair(in, p, sel, NULL);
	sbuf_add(&p->text, "\t}\n");
}

static void
render(const struct egress_input *in, struct egress_plan *p,
       const struct pins *pins)
{
	char res[64];

	ns_egress_format_addr(&in->resolver, res, sizeof(res));
	sbuf_addf(&p->text, "# nova-sandbox egress plan\n# run: %s\n"
		  "# policy: %s\n# names:", in->run, in->policy_path);
	for (size_t i = 0; i < p->names.n; i++)
		sbuf_addf(&p->text, "%s%s", i ? "," : " ", p->names.v[i]);
	sbuf_addf(&p->text, "\n# resolver: %s\n%s# default deny: every chain "
		  "ends in its bare selector drop\n", res,
		  pins->notes.s ? pins->notes.s : "");
	sbuf_addf(&p->text, "table inet %s {\n", p->table);
	if (in->uid != NULL)
		render_chain(in, p, NS_EGRESS_HOOK_OUTPUT, pins);
	if (in->veth != NULL) {
		render_chain(in, p, NS_EGRESS_HOOK_FORWARD, pins);
		render_chain(in, p, NS_EGRESS_HOOK_INPUT, pins);
	}
	sbuf_add(&p->text, "}\n");
}

static long
ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	    (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A name the policy file carries that this run does not pin (neither a
 * base name nor --model-host) is said, one note each. */
static int
left_out(const struct egress_input *in, struct egress_plan *p)
{
	for (size_t i = 0; i < in->names.n; i++)
		if (!strv_contains(&p->names, in->names.v[i]) &&
		    strv_pushf(&p->notes, "%s names %s, which this run does "
			       "not pin: a run allows the base names and "
			       "--model-host only", in->policy_path,
			       in->names.v[i]) < 0)
			return -1;
	return 0;
}

int
egress_build(const struct egress_input *in, struct egress_plan *p,
	     struct refusals *r)
{
	struct pins pins = { NULL, 0, { 0 } };
	struct timespec t0;
	int bad = 0;

	memset(p, 0, sizeof(*p));
	egress_table_name(in->run, p->table, sizeof(p->table));
	for (size_t i = 0; egress_base_names[i]; i++)
		if (strv_push(&p->names, egress_base_names[i]) < 0)
			return -1;
	if (in->model_host && !strv_contains(&p->names, in->model_host) &&
	    strv_push(&p->names, in->model_host) < 0)
		return -1;
	if (left_out(in, p) < 0)
		return -1;
	pins.all = calloc(EGRESS_MAX_ADDRS, sizeof(pins.all[0]));
	if (pins.all == NULL)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (in->step)
		in->step(in->step_ctx, 0, 0);
	for (size_t i = 0; bad >= 0 && i < p->names.n; i++)
		bad |= pin_name(in, p->names.v[i], &pins, &p->notes, r);
	for (size_t i = 0; in->allows && i < in->allows->n; i++)
		if (in->allows->v[i].addr.fam != 0 &&
		    !egress_addr_loopback(&in->allows->v[i].addr))
			pin_add(&pins, &in->allows->v[i].addr,
				in->allows->v[i].port);
	if (in->step)
		in->step(in->step_ctx, 1, ms_since(&t0));
	if (!bad)
		render(in, p, &pins);
	/* a plan text cut short could end before its drop rules */
	if (sbuf_failed(&p->text) || sbuf_failed(&pins.notes) ||
	    (in->allows != NULL && in->allows->failed) ||
	    strv_failed(&p->notes) || strv_failed(&in->names) ||
	    refusals_failed(r))
		bad = -1;
	if (bad < 0)
		refusals_oom(r);
	free(pins.all);
	sbuf_free(&pins.notes);
	return bad;
}

void
egress_plan_free(struct egress_plan *p)
{
	strv_free(&p->names);
	strv_free(&p->notes);
	sbuf_free(&p->text);
}
