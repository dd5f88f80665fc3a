/* SPDX-License-Identifier: MIT */
/* nftegress.c -- the egress role on linux (api/ns_backend.h,
 * struct ns_egress_ops): the audited plan text becomes ONE nftables batch
 * (table, chains, rules) sent over libmnl; the commit is proven by the
 * ACK of the batch end and by reading the table back; read_live decodes
 * the kernel's rules into the same plan grammar; drop destroys the table.
 * The table is persistent (no NFT_TABLE_F_OWNER): see docs/SPEC-SANDBOX.md
 * "Egress", ownership.  Never prints; every problem goes to host->refuse. */
#include <errno.h>
#include <linux/capability.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>
#include <libnftnl/table.h>

#include "ns_backend.h"
#include "ne.h"
#include "common/nk_module.h"
#include "common/nk_say.h"

struct pline {
	struct ns_egress_line l;
	unsigned no;      /* plan line number */
	int chain;        /* NS_EGRESS_LINE_RULE/NS_EGRESS_LINE_BASE: index of its chain line */
};

struct plan {
	struct pline *v;
	size_t n;
	char table[80];
};

/* a refusal (or, reason NULL, a note), formatted: modules/common/nk_say.h */
#define say(h, tok, ...) ((void)nk_say((h), 0, (tok), __VA_ARGS__))

/* ---- ready: CAP_NET_ADMIN in this network namespace ------------------ */

static int
has_net_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
		0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return 0;
	return (data[CAP_NET_ADMIN / 32].effective >>
		(CAP_NET_ADMIN % 32)) & 1;
}

static int
ne_ready(const struct ns_host *h)
{
	if (has_net_admin())
		return NS_OK;
	say(h, "no_privilege", "the egress wall is nftables, which needs "
	    "CAP_NET_ADMIN in this network namespace: run the egress verb as "
	    "root (or grant the capability)");
	return NS_E_UNAVAILABLE;
}

/* ---- the plan text, strictly the rendered grammar --------------------- */

/* The run's table name, or a refusal: a run id that is not a bare
 * identifier never reaches netlink, whatever the host checked. */
static int
table_of(const struct ns_host *h, const char *run, char out[80])
{
	size_t n = run ? strlen(run) : 0;

	if (n == 0 || n > 32 || strspn(run, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n) {
		say(h, "no_name", "the run id must be 1-32 of [A-Za-z0-9_]; "
		    "nothing was sent");
		return -1;
	}
	snprintf(out, 80, "nova_egress_%s", run);
	return 0;
}

/* The nesting each line kind needs (table 0, chain 1, base and rules 2),
 * and a hook this module enforces: anything else is refused, never
 * approximated (a prerouting chain is not an input chain). */
static const char *
misplaced(const struct ns_egress_line *l, int depth, int tables)
{
	switch (l->kind) {
	case NS_EGRESS_LINE_TABLE:
		return depth != 0 || tables > 0 ? "a second or nested table" :
		    NULL;
	case NS_EGRESS_LINE_CHAIN:
		return depth != 1 ? "a chain outside the table" : NULL;
	case NS_EGRESS_LINE_BASE:
		if (depth != 2)
			return "a base line outside a chain";
		return l->hook < NS_EGRESS_HOOK_OUTPUT ||
		    l->hook > NS_EGRESS_HOOK_INPUT ?
		    "a hook other than output, forward or input" : NULL;
	case NS_EGRESS_LINE_RULE:
		return depth != 2 ? "a rule outside a chain" : NULL;
	case NS_EGRESS_LINE_CLOSE:
		return depth == 0 ? "unbalanced braces" : NULL;
	default:
		return NULL;
	}
}

static int
plan_parse(const struct ns_host *h, const char *text, size_t len,
	   struct plan *p)
{
	size_t i = 0, e, cap = 0;
	unsigned no = 0;
	int chain = -1, depth = 0, tables = 0;
	const char *bad;

	while (i < len) {
		struct pline pl;

		for (e = i; e < len && text[e] != '\n'; e++)
			;
		memset(&pl, 0, sizeof(pl));
		ns_egress_parse_line(text + i, e - i, &pl.l);
		pl.no = ++no;
		i = e + 1;
		if (pl.l.kind == NS_EGRESS_LINE_BLANK)
			continue;
		if (pl.l.kind == NS_EGRESS_LINE_BAD) {
			say(h, "bad_plan", "plan line %u cannot be read: wants "
			    "%s", no, pl.l.why);
			return -1;
		}
		if ((bad = misplaced(&pl.l, depth, tables)) != NULL) {
			say(h, "bad_plan", "plan line %u: %s", no, bad);
			return -1;
		}
		if (pl.l.kind == NS_EGRESS_LINE_TABLE)
			depth++, tables++, snprintf(p->table, sizeof(p->table),
						    "%s", pl.l.name);
		else if (pl.l.kind == NS_EGRESS_LINE_CHAIN)
			depth++, chain = (int)p->n;
		else if (pl.l.kind == NS_EGRESS_LINE_CLOSE)
			depth--;
		pl.chain = chain;
		if (p->n == cap) {
			struct pline *nv = realloc(p->v, (cap + 256) *
						   sizeof(*nv));

			if (nv == NULL)
				return say(h, "sandbox_failed", "out of memory"),
				    -1;
			p->v = nv;
			cap += 256;
		}
		p->v[p->n++] = pl;
	}
	if (depth != 0 || p->table[0] == '\0') {
		say(h, "bad_plan", "the plan is not one balanced table");
		return -1;
	}
	return 0;
}

/* ---- apply ------------------------------------------------------------- */

struct batch {
	char *buf;
	struct mnl_nlmsg_batch *b;
	uint32_t seq0, seq;
	unsigned *lineof; /* seq - seq0 -> plan line */
};

static struct nlmsghdr *
next_hdr(struct batch *bt, uint16_t type, uint16_t flags, unsigned line)
{
	struct nlmsghdr *nlh;

	bt->lineof[bt->seq - bt->seq0] = line;
	nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(bt->b), type,
				    NFPROTO_INET, flags, bt->seq++);
	return nlh;
}

static int
add_table(struct batch *bt, const char *name, unsigned line)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	if (t == NULL)
		return -1;
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, name);
	nlh = next_hdr(bt, NFT_MSG_NEWTABLE, NLM_F_CREATE | NLM_F_EXCL, line);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	return mnl_nlmsg_batch_next(bt->b) ? 0 : -1;
}

static uint32_t
hooknum(int hook)
{
	return hook == NS_EGRESS_HOOK_OUTPUT ? NF_INET_LOCAL_OUT :
	    hook == NS_EGRESS_HOOK_FORWARD ? NF_INET_FORWARD : NF_INET_LOCAL_IN;
}

static int
add_chain(struct batch *bt, const char *table, const struct pline *c,
	  const struct pline *base)
{
	struct nftnl_chain *ch = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	if (ch == NULL)
		return -1;
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, c->l.name);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, base->l.type);
	/* both HOOKNUM and PRIO, or libnftnl builds a regular chain */
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, hooknum(base->l.hook));
	nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO, base->l.prio);
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_POLICY, base->l.policy_accept ?
			    NF_ACCEPT : NF_DROP);
	nlh = next_hdr(bt, NFT_MSG_NEWCHAIN, NLM_F_CREATE | NLM_F_EXCL,
		       c->no);
	nftnl_chain_nlmsg_build_payload(nlh, ch);
	nftnl_chain_free(ch);
	return mnl_nlmsg_batch_next(bt->b) ? 0 : -1;
}

static int
add_rule(struct batch *bt, const char *table, const char *chain,
	 const struct pline *pl)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;
	int rc;

	if (r == NULL)
		return -1;
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	rc = ne_encode(&pl->l.r, r);
	if (rc == 0) {
		nlh = next_hdr(bt, NFT_MSG_NEWRULE, NLM_F_CREATE |
			       NLM_F_APPEND, pl->no);
		nftnl_rule_nlmsg_build_payload(nlh, r);
		rc = mnl_nlmsg_batch_next(bt->b) ? 0 : -1;
	}
	nftnl_rule_free(r);
	return rc;
}

static int
fill_batch(struct batch *bt, const struct plan *p)
{
	unsigned tline = 0;

	nftnl_batch_begin(mnl_nlmsg_batch_current(bt->b), bt->seq++);
	mnl_nlmsg_batch_next(bt->b);
	for (size_t i = 0; i < p->n; i++) {
		const struct pline *pl = &p->v[i];

		if (pl->l.kind == NS_EGRESS_LINE_TABLE) {
			tline = pl->no;
			if (add_table(bt, p->table, tline) < 0)
				return -1;
		} else if (pl->l.kind == NS_EGRESS_LINE_BASE && pl->chain >= 0 &&
			   add_chain(bt, p->table, &p->v[pl->chain], pl) < 0) {
			return -1;
		} else if (pl->l.kind == NS_EGRESS_LINE_RULE && pl->chain >= 0 &&
			   add_rule(bt, p->table, p->v[pl->chain].l.name,
				    pl) < 0) {
			return -1;
		}
	}
	bt->lineof[bt->seq - bt->seq0] = 0;
	{
		struct nlmsghdr *end = nftnl_batch_end(
		    mnl_nlmsg_batch_current(bt->b), bt->seq);

		end->nlmsg_flags |= NLM_F_ACK; /* ACKed only on commit */
	}
	return mnl_nlmsg_batch_next(bt->b) ? 0 : -1;
}

/* The text of plan line `no`, for the refusal. */
static void
line_text(const char *text, size_t len, unsigned no, char *out, size_t n)
{
	size_t i = 0, e;

	out[0] = '\0';
	for (unsigned k = 1; i < len; k++) {
		for (e = i; e < len && text[e] != '\n'; e++)
			;
		if (k == no) {
			while (i < e && (text[i] == ' ' || text[i] == '\t'))
				i++;
			snprintf(out, n, "%.*s", (int)(e - i), text + i);
			return;
		}
		i = e + 1;
	}
}

/* Does the kernel's table say exactly what the plan says? */
static int
same_as_plan(const struct plan *p, const struct nelines *live)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++, k++) {
		struct ns_egress_line l;

		if (k >= live->n)
			return 0;
		ns_egress_parse_line(live->v[k], strlen(live->v[k]), &l);
		if (l.kind != p->v[i].l.kind)
			return 0;
		if (l.kind == NS_EGRESS_LINE_RULE && !ns_egress_rule_eq(&l.r, &p->v[i].l.r))
			return 0;
		if ((l.kind == NS_EGRESS_LINE_CHAIN || l.kind == NS_EGRESS_LINE_TABLE) &&
		    strcmp(l.name, p->v[i].l.name) != 0)
			return 0;
		if (l.kind == NS_EGRESS_LINE_BASE && (l.hook != p->v[i].l.hook ||
					  l.prio != p->v[i].l.prio ||
					  l.policy_accept !=
					  p->v[i].l.policy_accept))
			return 0;
	}
	return k == live->n;
}

static int
report(const struct ns_host *h, const struct plan *p, const char *text,
       size_t len, unsigned line, int err)
{
	char lt[200];

	line_text(text, len, line, lt, sizeof(lt));
	if (err == EEXIST && line > 0 && p->n > 0 && line == p->v[0].no)
		say(h, "table_exists", "table inet %s already exists: a table "
		    "is never appended to; drop it first (nova-sandbox egress "
		    "drop --run <id>) or use a new run id", p->table);
	else if (line > 0)
		say(h, "apply_failed", "the kernel refused plan line %u (%s): "
		    "%s; nothing was applied", line, lt, strerror(err));
	else
		say(h, "apply_failed", "the kernel refused the batch: %s; "
		    "nothing was applied", strerror(err));
	return NS_E_REFUSED;
}

static int
confirm(const struct ns_host *h, const struct plan *p, int committed)
{
	struct nelines live = { NULL, 0, 0 };
	int rc = ne_read_table(p->table, &live), same;

	same = rc == 0 && same_as_plan(p, &live);
	ne_lines_free(&live);
	if (same) {
		if (!committed)
			h->note(h->cookie, "the kernel did not ACK the batch "
				"end (kernel < 6.10); the read-back confirms "
				"the commit");
		return NS_OK;
	}
	ne_drop_table(p->table);
	say(h, "apply_failed", "the table read back from the kernel is not "
	    "the plan (%s); it was removed again", rc ? strerror(-rc) :
	    "it differs");
	return NS_E_REFUSED;
}

static int
send_plan(const struct ns_host *h, const struct plan *p, const char *text,
	  size_t len)
{
	struct batch bt;
	size_t sz = 8192 + p->n * 1024;
	uint32_t es = 0;
	int err = 0, committed = 0, rc = NS_E_SYSTEM;

	memset(&bt, 0, sizeof(bt));
	/* libmnl builds each message before it checks the limit: the
	 * buffer is twice the limit so the last one cannot overrun it */
	bt.buf = malloc(2 * sz);
	bt.lineof = calloc(p->n + 4, sizeof(unsigned));
	bt.seq0 = bt.seq = (uint32_t)time(NULL);
	if (bt.buf && bt.lineof)
		bt.b = mnl_nlmsg_batch_start(bt.buf, sz);
	if (bt.b == NULL || fill_batch(&bt, p) < 0) {
		say(h, "sandbox_failed", "could not build the netlink batch");
		goto out;
	}
	rc = ne_send_batch(mnl_nlmsg_batch_head(bt.b),
			   mnl_nlmsg_batch_size(bt.b), bt.seq, &es, &err,
			   &committed);
	if (rc != 0) {
		say(h, rc == -EPERM ? "no_privilege" : "sandbox_failed",
		    "netlink: %s", strerror(-rc));
		rc = NS_E_SYSTEM;
	} else if (err != 0) {
		rc = report(h, p, text, len, es - bt.seq0 <= p->n + 2 ?
			    bt.lineof[es - bt.seq0] : 0, err);
	} else {
		rc = confirm(h, p, committed);
	}
out:
	if (bt.b)
		mnl_nlmsg_batch_stop(bt.b);
	free(bt.buf);
	free(bt.lineof);
	return rc;
}

static int
ne_apply(const struct ns_host *h, const char *run, const char *plan,
	 size_t len)
{
	struct plan p;
	char want[80];
	int rc;

	memset(&p, 0, sizeof(p));
	if (table_of(h, run, want) < 0)
		return NS_E_REFUSED;
	if (plan_parse(h, plan, len, &p) < 0) {
		free(p.v);
		return NS_E_REFUSED;
	}
	if (strcmp(p.table, want) != 0) {
		say(h, "plan_mismatch", "the plan's table is %s, the run's is "
		    "%s", p.table, want);
		free(p.v);
		return NS_E_REFUSED;
	}
	rc = send_plan(h, &p, plan, len);
	free(p.v);
	return rc;
}

/* ---- read_live, drop --------------------------------------------------- */

static int
ne_read_live(const struct ns_host *h, const char *run)
{
	struct nelines live = { NULL, 0, 0 };
	char table[80];
	int rc;

	if (table_of(h, run, table) < 0)
		return NS_E_REFUSED;
	rc = ne_read_table(table, &live);
	if (rc == -ENOENT) {
		say(h, "no_table", "table inet %s is not in the kernel: never "
		    "applied, dropped, or removed by another tool (a `nft "
		    "flush ruleset`, a firewall reload); the egress wall is "
		    "OFF", table);
		return NS_E_REFUSED;
	}
	if (rc != 0) {
		say(h, rc == -EPERM ? "no_privilege" : "sandbox_failed",
		    "reading table inet %s: %s", table, strerror(-rc));
		ne_lines_free(&live);
		return NS_E_SYSTEM;
	}
	for (size_t i = 0; i < live.n; i++)
		h->text(h->cookie, live.v[i]);
	ne_lines_free(&live);
	return NS_OK;
}

static int
ne_drop(const struct ns_host *h, const char *run)
{
	char table[80];
	int rc;

	if (table_of(h, run, table) < 0)
		return NS_E_REFUSED;
	rc = ne_drop_table(table);
	if (rc == 0)
		return NS_OK;
	say(h, rc == -EPERM ? "no_privilege" : "drop_failed",
	    "removing table inet %s: %s", table, strerror(-rc));
	return NS_E_SYSTEM;
}

static const struct ns_egress_ops egress_ops =
	NK_EGRESS_OPS(ne_ready, ne_apply, ne_read_live, ne_drop);

NK_DESCRIPTOR(NS_ROLE_EGRESS, "nftegress",
	      "the egress allowlist as one nftables table (libnftnl, "
	      "one netlink batch)",
	      NK_NO_OPTIONS, .egress = &egress_ops);
