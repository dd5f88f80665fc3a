/* SPDX-License-Identifier: MIT */
/* test_codec.c -- nftegress: every rule shape the plan grammar has goes
 * plan text -> libnftnl expressions -> plan text unchanged, and the
 * layouts the decoder must refuse are refused (no kernel needed). */
#include <CUnit/Basic.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <string.h>

#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include "common/cu_run.h"
#include "ne.h"

static const char *const shapes[] = {
	"meta skuid 4242 ip daddr 169.254.169.254 drop",
	"meta skuid 4242 ip daddr 127.0.0.0/8 drop",
	"meta skuid 4242 ip daddr 198.51.100.128/25 drop",
	"meta skuid 4242 ip6 daddr fe80::/10 drop",
	"meta skuid 4242 ip6 daddr ::1 drop",
	"meta skuid 4242 ip daddr 198.51.100.53 udp dport 53 accept",
	"iifname \"b0\" ip6 daddr fd00:9::10 tcp dport 443 accept",
	"iifname \"b0\" icmpv6 type nd-neighbor-solicit accept",
	"iifname \"veth-long.name\" drop",
	"accept",
	/* 1.5: the reject verdicts */
	"meta skuid 4242 ip daddr 169.254.169.254 meta l4proto tcp reject with tcp reset",
	"meta skuid 4242 ip daddr 169.254.169.254 reject with icmpx admin-prohibited",
	"meta skuid 4242 ip6 daddr fe80::/10 meta l4proto tcp reject with tcp reset",
	"iifname \"b0\" ip daddr 198.51.100.128/25 reject with icmpx admin-prohibited",
	"meta skuid 4242 tcp dport 22 reject with tcp reset",
	"meta skuid 4242 meta l4proto tcp reject with tcp reset",
	"meta skuid 4242 reject with icmpx admin-prohibited",
};

static void
test_roundtrip(void)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct ns_egress_line l;
		struct ns_egress_rule back;
		struct nftnl_rule *r = nftnl_rule_alloc();
		char why[128], text[256];

		ns_egress_parse_line(shapes[i], strlen(shapes[i]), &l);
		CU_ASSERT_EQUAL_FATAL(l.kind, NS_EGRESS_LINE_RULE);
		CU_ASSERT_EQUAL(ne_encode(&l.r, r), 0);
		CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), 0);
		CU_ASSERT(ns_egress_format_rule(&back, text, sizeof(text)) > 0);
		CU_ASSERT_STRING_EQUAL(text, shapes[i]);
		nftnl_rule_free(r);
	}
}

static void
add_counter_then_verdict(struct nftnl_rule *r)
{
	struct nftnl_expr *e = nftnl_expr_alloc("counter");

	nftnl_rule_add_expr(r, e);
}

static void
test_refuses_unknown_layouts(void)
{
	struct ns_egress_line l;
	struct ns_egress_rule back;
	struct nftnl_rule *r = nftnl_rule_alloc();
	char why[128];
	const char *s = "meta skuid 1 drop";

	/* a counter after the verdict: not a layout we make */
	ns_egress_parse_line(s, strlen(s), &l);
	ne_encode(&l.r, r);
	add_counter_then_verdict(r);
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
	nftnl_rule_free(r);
	/* an empty rule has no verdict */
	r = nftnl_rule_alloc();
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
	nftnl_rule_free(r);
}

/* The i-th expression of r (0-based), or NULL. */
static struct nftnl_expr *
nth(struct nftnl_rule *r, int i)
{
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(r);
	struct nftnl_expr *e = NULL;

	if (it == NULL)
		return NULL;
	for (e = nftnl_expr_iter_next(it); e != NULL && i > 0; i--)
		e = nftnl_expr_iter_next(it);
	nftnl_expr_iter_destroy(it);
	return e;
}

static const char *
name_of(struct nftnl_rule *r, int i)
{
	struct nftnl_expr *e = nth(r, i);

	return e ? nftnl_expr_get_str(e, NFTNL_EXPR_NAME) : "(none)";
}

static void
cmp_is(struct nftnl_rule *r, int i, const void *want, uint32_t len)
{
	struct nftnl_expr *e = nth(r, i);
	uint32_t n = 0;
	const void *got;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(name_of(r, i), "cmp");
	got = nftnl_expr_get(e, NFTNL_EXPR_CMP_DATA, &n);
	CU_ASSERT_EQUAL_FATAL(n, len);
	CU_ASSERT(memcmp(got, want, len) == 0);
}

/* The layout the KERNEL gets, byte for byte as nft emits it (reference
 * egress.md 1.3), not just "decode(encode(x)) == x": a byte-order slip
 * made in both directions round-trips fine and still matches the wrong
 * port on the wire. */
static void
test_encode_golden_layout(void)
{
	static const char *s = "meta skuid 4242 ip daddr 192.0.2.1 tcp dport 443 accept";
	static const char *const names[] = { "meta", "cmp", "meta", "cmp",
		"payload", "cmp", "meta", "cmp", "payload", "cmp", "immediate" };
	static const uint8_t v4[] = { 192, 0, 2, 1 }, port[] = { 0x01, 0xbb };
	uint8_t ipv4 = NFPROTO_IPV4, tcp = 6;
	uint32_t uid = 4242;
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct ns_egress_line l;
	struct nftnl_expr *e;

	ns_egress_parse_line(s, strlen(s), &l);
	CU_ASSERT_EQUAL_FATAL(ne_encode(&l.r, r), 0);
	for (int i = 0; i < 11; i++)
		CU_ASSERT_STRING_EQUAL(name_of(r, i), names[i]);
	CU_ASSERT_PTR_NULL(nth(r, 11));
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(nth(r, 0), NFTNL_EXPR_META_KEY), NFT_META_SKUID);
	cmp_is(r, 1, &uid, 4);		/* skuid: host order */
	cmp_is(r, 3, &ipv4, 1);
	e = nth(r, 4);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_BASE), NFT_PAYLOAD_NETWORK_HEADER);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET), 16);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_LEN), 4);
	cmp_is(r, 5, v4, 4);
	cmp_is(r, 7, &tcp, 1);
	e = nth(r, 8);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_BASE), NFT_PAYLOAD_TRANSPORT_HEADER);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET), 2);
	cmp_is(r, 9, port, 2);		/* 443, network order */
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(nth(r, 10), NFTNL_EXPR_IMM_VERDICT), NF_ACCEPT);
	nftnl_rule_free(r);
}

/* A kernel rule that differs from what we make only in an operator or a
 * xor must NOT read back as the rule we made ("meta skuid != 1" is not
 * "meta skuid 1"). */
static void
test_refuses_tampered_operators(void)
{
	static const char *s = "meta skuid 1 ip daddr 198.51.100.128/25 drop";
	static const uint8_t one[4] = { 0, 0, 0, 1 };
	static const int cmps[] = { 1, 3, 6 };
	struct ns_egress_line l;
	struct ns_egress_rule back;
	char why[128];

	ns_egress_parse_line(s, strlen(s), &l);
	for (size_t k = 0; k < 3; k++) {
		struct nftnl_rule *r = nftnl_rule_alloc();

		ne_encode(&l.r, r);
		CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), 0);
		CU_ASSERT_STRING_EQUAL(name_of(r, cmps[k]), "cmp");
		nftnl_expr_set_u32(nth(r, cmps[k]), NFTNL_EXPR_CMP_OP, NFT_CMP_NEQ);
		CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
		nftnl_rule_free(r);
	}
	struct nftnl_rule *r = nftnl_rule_alloc();

	ne_encode(&l.r, r);
	CU_ASSERT_STRING_EQUAL_FATAL(name_of(r, 5), "bitwise");
	nftnl_expr_set(nth(r, 5), NFTNL_EXPR_BITWISE_XOR, one, 4);
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
	nftnl_rule_free(r);
}

/* 1.5: the reject verdict is ONE "reject" expression, type and code as
 * nft emits them ("reject type 1 code 0" for a tcp reset, "reject type 2
 * code 3" for icmpx admin-prohibited); "meta l4proto tcp" is the meta and
 * cmp pair alone.  Any other type or code decodes to nothing. */
static void
test_reject_layout(void)
{
	static const char *rst = "meta skuid 1 meta l4proto tcp reject with tcp reset";
	static const char *adm = "meta skuid 1 ip daddr 192.0.2.1 reject with icmpx admin-prohibited";
	static const char *const names[] = { "meta", "cmp", "meta", "cmp", "reject" };
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct ns_egress_line l;
	struct ns_egress_rule back;
	uint8_t tcp = 6;
	char why[128];

	ns_egress_parse_line(rst, strlen(rst), &l);
	CU_ASSERT_EQUAL_FATAL(ne_encode(&l.r, r), 0);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_STRING_EQUAL(name_of(r, i), names[i]);
	CU_ASSERT_PTR_NULL(nth(r, 5));
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(nth(r, 2), NFTNL_EXPR_META_KEY), NFT_META_L4PROTO);
	cmp_is(r, 3, &tcp, 1);
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(nth(r, 4), NFTNL_EXPR_REJECT_TYPE), NFT_REJECT_TCP_RST);
	CU_ASSERT_EQUAL(nftnl_expr_get_u8(nth(r, 4), NFTNL_EXPR_REJECT_CODE), 0);
	/* a reject of another code is not the plan's */
	nftnl_expr_set_u32(nth(r, 4), NFTNL_EXPR_REJECT_TYPE, NFT_REJECT_ICMPX_UNREACH);
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
	nftnl_rule_free(r);
	r = nftnl_rule_alloc();
	ns_egress_parse_line(adm, strlen(adm), &l);
	CU_ASSERT_EQUAL_FATAL(ne_encode(&l.r, r), 0);
	CU_ASSERT_STRING_EQUAL(name_of(r, 6), "reject");
	CU_ASSERT_PTR_NULL(nth(r, 7));
	CU_ASSERT_EQUAL(nftnl_expr_get_u32(nth(r, 6), NFTNL_EXPR_REJECT_TYPE), NFT_REJECT_ICMPX_UNREACH);
	CU_ASSERT_EQUAL(nftnl_expr_get_u8(nth(r, 6), NFTNL_EXPR_REJECT_CODE), NFT_REJECT_ICMPX_ADMIN_PROHIBITED);
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), 0);
	nftnl_expr_set_u8(nth(r, 6), NFTNL_EXPR_REJECT_CODE, NFT_REJECT_ICMPX_PORT_UNREACH);
	CU_ASSERT_EQUAL(ne_decode(r, &back, why, sizeof(why)), -1);
	nftnl_rule_free(r);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "every rule shape round-trips", test_roundtrip },
		{ "unknown layouts are refused", test_refuses_unknown_layouts },
		{ "encode: the kernel's bytes (golden layout)", test_encode_golden_layout },
		{ "reject: one reject expression, type and code (1.5)", test_reject_layout },
		{ "decode: a changed operator or xor is refused", test_refuses_tampered_operators },
		{ NULL, NULL },
	};

	return cu_run("nftegress codec", NULL, NULL, cases);
}
