/* SPDX-License-Identifier: MIT */
/* ne_codec.c -- one plan rule <-> libnftnl expressions, in the layout of
 * reference egress.md section 1.3 (what `nft --debug=netlink` emits):
 * the protocol dependencies explicit, ports and addresses in network
 * order, skuid in host order, iifname 16 NUL-padded bytes. */
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <stdio.h>
#include <string.h>

#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include "ne.h"

static int
add(struct nftnl_rule *r, struct nftnl_expr *e)
{
	if (e == NULL)
		return -1;
	nftnl_rule_add_expr(r, e);
	return 0;
}

static int
meta(struct nftnl_rule *r, uint32_t key)
{
	struct nftnl_expr *e = nftnl_expr_alloc("meta");

	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, NFT_REG_1);
	return add(r, e);
}

static int
cmp(struct nftnl_rule *r, const void *data, uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("cmp");

	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, NFT_CMP_EQ);
	nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	return add(r, e);
}

static int
payload(struct nftnl_rule *r, uint32_t base, uint32_t off, uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("payload");

	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, NFT_REG_1);
	return add(r, e);
}

static int
bitwise(struct nftnl_rule *r, const uint8_t *mask, uint32_t len)
{
	static const uint8_t zero[16];
	struct nftnl_expr *e = nftnl_expr_alloc("bitwise");

	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, zero, len);
	return add(r, e);
}

/* ABI 1.5: one "reject" expression ends the rule (what nft emits for
 * "reject with tcp reset" and "reject with icmpx admin-prohibited"). */
static int
reject(struct nftnl_rule *r, int kind)
{
	struct nftnl_expr *e = nftnl_expr_alloc("reject");
	int rst = kind == NS_EGRESS_REJECT_TCP_RST;

	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE, rst ? NFT_REJECT_TCP_RST :
			   NFT_REJECT_ICMPX_UNREACH);
	nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE, rst ? 0 :
			  NFT_REJECT_ICMPX_ADMIN_PROHIBITED);
	return add(r, e);
}

static int
verdict(struct nftnl_rule *r, int accept, int rej)
{
	struct nftnl_expr *e;

	if (!accept && rej != 0)
		return reject(r, rej);
	e = nftnl_expr_alloc("immediate");
	if (e == NULL)
		return -1;
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, accept ? NF_ACCEPT :
			   NF_DROP);
	return add(r, e);
}

static void
prefix_mask(int plen, uint8_t *m, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		int keep = plen - 8 * i;

		m[i] = keep >= 8 ? 0xff : keep <= 0 ? 0 :
		    (uint8_t)(0xff << (8 - keep));
	}
}

static int
enc_daddr(const struct ns_egress_addr *a, struct nftnl_rule *r)
{
	uint8_t proto = a->fam == 4 ? NFPROTO_IPV4 : NFPROTO_IPV6, m[16];
	uint32_t full = a->fam == 4 ? 4 : 16, off = a->fam == 4 ? 16 : 24;

	if (meta(r, NFT_META_NFPROTO) < 0 || cmp(r, &proto, 1) < 0)
		return -1;
	if (a->plen % 8 == 0)	/* nft shortens byte-aligned prefixes */
		return payload(r, NFT_PAYLOAD_NETWORK_HEADER, off,
			       (uint32_t)a->plen / 8) < 0 ? -1 :
		    cmp(r, a->a, (uint32_t)a->plen / 8);
	prefix_mask(a->plen, m, (int)full);
	if (payload(r, NFT_PAYLOAD_NETWORK_HEADER, off, full) < 0 ||
	    bitwise(r, m, full) < 0)
		return -1;
	return cmp(r, a->a, full);
}

static int
enc_l4(const struct ns_egress_rule *x, struct nftnl_rule *r)
{
	uint8_t proto = (uint8_t)x->l4, v6 = NFPROTO_IPV6, t;
	uint8_t port[2] = { (uint8_t)(x->dport >> 8), (uint8_t)x->dport };

	if (x->l4 == 58) {
		t = (uint8_t)x->icmp_type;
		if (x->daddr.fam == 0 && (meta(r, NFT_META_NFPROTO) < 0 ||
					  cmp(r, &v6, 1) < 0))
			return -1;
		return meta(r, NFT_META_L4PROTO) < 0 || cmp(r, &proto, 1) < 0 ||
		    payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 1) < 0 ?
		    -1 : cmp(r, &t, 1);
	}
	if (meta(r, NFT_META_L4PROTO) < 0 || cmp(r, &proto, 1) < 0)
		return -1;
	if (x->l4 == 6 && x->dport == 0) /* meta l4proto tcp (1.5) */
		return 0;
	return payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2) < 0 ? -1 :
	    cmp(r, port, 2);
}

int
ne_encode(const struct ns_egress_rule *x, struct nftnl_rule *r)
{
	if (x->sel == NS_EGRESS_SEL_UID && (meta(r, NFT_META_SKUID) < 0 ||
				   cmp(r, &x->uid, 4) < 0))
		return -1;
	if (x->sel == NS_EGRESS_SEL_IIF && (meta(r, NFT_META_IIFNAME) < 0 ||
				   cmp(r, x->ifname, 16) < 0))
		return -1;
	if (x->daddr.fam != 0 && enc_daddr(&x->daddr, r) < 0)
		return -1;
	if (x->l4 != 0 && enc_l4(x, r) < 0)
		return -1;
	return verdict(r, x->accept, NS_EGRESS_RULE_REJECT(x));
}

/* ---- decoding ------------------------------------------------------ */

#define MAXEXPR 32

struct dx {
	struct nftnl_expr *e[MAXEXPR];
	int n, i;
	char *why;
	size_t wn;
};

static int
collect(struct nftnl_expr *e, void *data)
{
	struct dx *d = data;

	if (d->n == MAXEXPR)
		return -1;
	d->e[d->n++] = e;
	return 0;
}

static int
is(const struct dx *d, int i, const char *name)
{
	return i < d->n && strcmp(nftnl_expr_get_str(d->e[i],
						     NFTNL_EXPR_NAME),
				  name) == 0;
}

static int
fail(struct dx *d, const char *what)
{
	snprintf(d->why, d->wn, "expression %d: %s", d->i + 1, what);
	return -1;
}

static int
meta_key(struct dx *d, int i, uint32_t *key)
{
	if (!is(d, i, "meta") ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_META_DREG) != NFT_REG_1)
		return -1;
	*key = nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_META_KEY);
	return 0;
}

/* A cmp eq on reg 1 of exactly len bytes into out. */
static int
cmp_data(struct dx *d, int i, void *out, uint32_t len)
{
	const void *p;
	uint32_t n = 0;

	if (!is(d, i, "cmp") ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_CMP_SREG) != NFT_REG_1 ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_CMP_OP) != NFT_CMP_EQ)
		return -1;
	p = nftnl_expr_get(d->e[i], NFTNL_EXPR_CMP_DATA, &n);
	if (p == NULL || n != len)
		return -1;
	memcpy(out, p, len);
	return 0;
}

static int
payload_is(struct dx *d, int i, uint32_t base, uint32_t off, uint32_t *len)
{
	if (!is(d, i, "payload") ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_PAYLOAD_BASE) != base ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_PAYLOAD_OFFSET) != off ||
	    nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_PAYLOAD_DREG) != NFT_REG_1)
		return -1;
	*len = nftnl_expr_get_u32(d->e[i], NFTNL_EXPR_PAYLOAD_LEN);
	return 0;
}

static int
dec_sel(struct dx *d, struct ns_egress_rule *x)
{
	uint32_t key;

	if (meta_key(d, d->i, &key) < 0)
		return 0;
	if (key == NFT_META_SKUID && cmp_data(d, d->i + 1, &x->uid, 4) == 0)
		x->sel = NS_EGRESS_SEL_UID;
	else if (key == NFT_META_IIFNAME &&
		 cmp_data(d, d->i + 1, x->ifname, 16) == 0 &&
		 x->ifname[15] == '\0')
		x->sel = NS_EGRESS_SEL_IIF;
	else
		return key == NFT_META_NFPROTO || key == NFT_META_L4PROTO ? 0 :
		    fail(d, "a meta match other than skuid/iifname");
	d->i += 2;
	return 0;
}

/* The prefix length of a contiguous mask, or -1. */
static int
mask_len(const uint8_t *m, uint32_t n)
{
	int len = 0, ended = 0;

	for (uint32_t i = 0; i < n * 8; i++) {
		int bit = (m[i / 8] >> (7 - i % 8)) & 1;

		if (bit && ended)
			return -1;
		if (bit)
			len++;
		else
			ended = 1;
	}
	return len;
}

static int
dec_masked(struct dx *d, struct ns_egress_addr *a, uint32_t full)
{
	uint8_t m[16], x[16];
	const void *p;
	uint32_t n = 0;

	if (!is(d, d->i, "bitwise") ||
	    nftnl_expr_get_u32(d->e[d->i], NFTNL_EXPR_BITWISE_LEN) != full)
		return fail(d, "a bitwise other than a prefix mask");
	p = nftnl_expr_get(d->e[d->i], NFTNL_EXPR_BITWISE_MASK, &n);
	if (p == NULL || n != full)
		return fail(d, "a bitwise mask of another length");
	memcpy(m, p, full);
	p = nftnl_expr_get(d->e[d->i], NFTNL_EXPR_BITWISE_XOR, &n);
	if (p == NULL || n != full)
		return fail(d, "a bitwise xor of another length");
	memcpy(x, p, full);
	for (uint32_t i = 0; i < full; i++)
		if (x[i] != 0)
			return fail(d, "a bitwise with a non-zero xor");
	a->plen = mask_len(m, full);
	if (a->plen <= 0 || cmp_data(d, d->i + 1, a->a, full) < 0)
		return fail(d, "a prefix match that is not a prefix");
	for (uint32_t i = 0; i < full; i++)
		if (a->a[i] & (uint8_t)~m[i])
			return fail(d, "a prefix with host bits");
	d->i += 2;
	return 0;
}

static int
dec_daddr(struct dx *d, struct ns_egress_rule *x)
{
	uint32_t key, len, full, off;
	uint8_t proto;

	if (meta_key(d, d->i, &key) < 0 || key != NFT_META_NFPROTO)
		return 0;
	if (cmp_data(d, d->i + 1, &proto, 1) < 0 ||
	    (proto != NFPROTO_IPV4 && proto != NFPROTO_IPV6))
		return fail(d, "an nfproto other than ipv4/ipv6");
	full = proto == NFPROTO_IPV4 ? 4 : 16;
	off = proto == NFPROTO_IPV4 ? 16 : 24;
	if (payload_is(d, d->i + 2, NFT_PAYLOAD_NETWORK_HEADER, off, &len) < 0) {
		if (proto == NFPROTO_IPV6 && is(d, d->i + 2, "meta")) {
			d->i += 2; /* icmpv6's own dependency */
			x->daddr.fam = -6;
			return 0;
		}
		return fail(d, "a network match other than the daddr");
	}
	x->daddr.fam = proto == NFPROTO_IPV4 ? 4 : 6;
	d->i += 3;
	if (len == full && is(d, d->i, "bitwise"))
		return dec_masked(d, &x->daddr, full);
	if (len == 0 || len > full || cmp_data(d, d->i, x->daddr.a, len) < 0)
		return fail(d, "a daddr compare of another length");
	x->daddr.plen = (int)len * 8;
	d->i += 1;
	return 0;
}

static int
dec_l4(struct dx *d, struct ns_egress_rule *x)
{
	uint32_t key, len;
	uint8_t proto, port[2], t;

	if (meta_key(d, d->i, &key) < 0 || key != NFT_META_L4PROTO)
		return 0;
	if (cmp_data(d, d->i + 1, &proto, 1) < 0)
		return fail(d, "an l4proto compare");
	if (proto == 6 && is(d, d->i + 2, "reject") && x->daddr.fam != -6) {
		x->l4 = 6; /* meta l4proto tcp: only before a reject (1.5) */
		x->dport = 0;
		d->i += 2;
		return 0;
	} else if ((proto == 6 || proto == 17) &&
	    payload_is(d, d->i + 2, NFT_PAYLOAD_TRANSPORT_HEADER, 2, &len) ==
	    0 && len == 2 && cmp_data(d, d->i + 3, port, 2) == 0 &&
	    x->daddr.fam != -6) {
		x->l4 = proto;
		x->dport = port[0] << 8 | port[1];
	} else if (proto == 58 && payload_is(d, d->i + 2,
		   NFT_PAYLOAD_TRANSPORT_HEADER, 0, &len) == 0 && len == 1 &&
		   cmp_data(d, d->i + 3, &t, 1) == 0 && x->daddr.fam == -6) {
		x->l4 = 58;
		x->icmp_type = t;
		x->daddr.fam = 0;
	} else {
		return fail(d, "a transport match other than tcp/udp dport "
			    "or icmpv6 type");
	}
	d->i += 4;
	return 0;
}

/* 1.5: exactly the two reject forms the grammar has. */
static int
dec_reject(struct dx *d, struct ns_egress_rule *x)
{
	uint32_t type = nftnl_expr_get_u32(d->e[d->i], NFTNL_EXPR_REJECT_TYPE);
	uint8_t code = nftnl_expr_get_u8(d->e[d->i], NFTNL_EXPR_REJECT_CODE);

	if (type == NFT_REJECT_TCP_RST && code == 0 && x->l4 == 6)
		x->icmp_type = NS_EGRESS_REJECT_TCP_RST;
	else if (type == NFT_REJECT_ICMPX_UNREACH &&
		 code == NFT_REJECT_ICMPX_ADMIN_PROHIBITED && x->l4 != 58 &&
		 !(x->l4 == 6 && x->dport == 0))
		x->icmp_type = NS_EGRESS_REJECT_ADMIN;
	else
		return fail(d, "a reject other than tcp reset on tcp or icmpx "
			    "admin-prohibited");
	x->accept = 0;
	return 0;
}

static int
dec_verdict(struct dx *d, struct ns_egress_rule *x)
{
	uint32_t v;

	if (d->i == d->n - 1 && is(d, d->i, "reject"))
		return dec_reject(d, x);
	if (x->l4 == 6 && x->dport == 0)
		return fail(d, "meta l4proto tcp without its reject");
	if (d->i != d->n - 1 || !is(d, d->i, "immediate") ||
	    nftnl_expr_get_u32(d->e[d->i], NFTNL_EXPR_IMM_DREG) !=
	    NFT_REG_VERDICT)
		return fail(d, "not the closing accept/drop verdict");
	v = nftnl_expr_get_u32(d->e[d->i], NFTNL_EXPR_IMM_VERDICT);
	if (v != NF_ACCEPT && v != NF_DROP)
		return fail(d, "a verdict other than accept/drop");
	x->accept = v == NF_ACCEPT;
	return 0;
}

int
ne_decode(const struct nftnl_rule *r, struct ns_egress_rule *x, char *why, size_t n)
{
	struct dx d;

	memset(&d, 0, sizeof(d));
	memset(x, 0, sizeof(*x));
	d.why = why;
	d.wn = n;
	if (nftnl_expr_foreach((struct nftnl_rule *)r, collect, &d) < 0)
		return fail(&d, "too many expressions");
	if (dec_sel(&d, x) < 0 || dec_daddr(&d, x) < 0 || dec_l4(&d, x) < 0)
		return -1;
	if (x->daddr.fam < 0)
		return fail(&d, "an ipv6 dependency without a match");
	return dec_verdict(&d, x);
}
