/* test_egress.c -- the egress plan grammar, the policy file, the renderer
 * (with a table resolver: no packet), the auditor against every tampered
 * form, and the DNS wire parser. */
#include <CUnit/Basic.h>
#include <string.h>

#include "common/cu_run.h"
#include "egress.h"

static int
fake_lookup(void *ctx, const struct ns_egress_addr *res, const char *name,
	    struct ns_egress_addr *out, size_t max, size_t *n, char **why)
{
	(void)ctx; (void)res; (void)max; (void)why;
	*n = 0;
	if (strcmp(name, "evil.example.org") == 0)
		return ns_egress_parse_addr("127.0.0.1", 0, &out[(*n)++]);
	ns_egress_parse_addr("192.0.2.10", 0, &out[(*n)++]);
	ns_egress_parse_addr("fd00:9::10", 0, &out[(*n)++]);
	return 0;
}

static const char *policy = "github.com\napi.github.com # c\n"
	"objects.githubusercontent.com\napi.anthropic.com\nevil.example.org\n";

static int
build(const char *uid, const char *veth, const char *model,
      struct egress_plan *p, struct refusals *r)
{
	struct egress_input in;
	struct ns_egress_addr cidr;

	memset(&in, 0, sizeof(in));
	in.run = "t1";
	in.policy_path = "egress.txt";
	egress_parse_policy("egress.txt", policy, strlen(policy), &in.names, r);
	in.model_host = model;
	ns_egress_parse_addr("198.51.100.53", 0, &in.resolver);
	ns_egress_parse_addr("198.51.100.128/25", 0, &cidr);
	in.cidrs = &cidr;
	in.n_cidrs = 1;
	in.uid = uid;
	in.veth = veth;
	in.lookup = fake_lookup;
	int rc = egress_check_input(&in, r) ? 1 : egress_build(&in, p, r);
	strv_free(&in.names);
	return rc;
}

static void
test_render_uid_golden(void)
{
	struct egress_plan p;
	struct refusals r = {0};
	struct egress_audit a;
	static const char *golden =
		"table inet nova_egress_t1 {\n"
		"\tchain output {\n"
		"\t\ttype filter hook output priority filter; policy accept;\n"
		"\t\tmeta skuid 4242 ip daddr 169.254.169.254 drop\n"
		"\t\tmeta skuid 4242 ip daddr 169.254.0.0/16 drop\n"
		"\t\tmeta skuid 4242 ip daddr 127.0.0.0/8 drop\n"
		"\t\tmeta skuid 4242 ip6 daddr ::1 drop\n"
		"\t\tmeta skuid 4242 ip6 daddr fe80::/10 drop\n"
		"\t\tmeta skuid 4242 ip daddr 198.51.100.128/25 drop\n"
		"\t\tmeta skuid 4242 ip daddr 198.51.100.53 udp dport 53 accept\n"
		"\t\tmeta skuid 4242 ip daddr 192.0.2.10 tcp dport 443 accept\n"
		"\t\tmeta skuid 4242 ip6 daddr fd00:9::10 tcp dport 443 accept\n"
		"\t\tmeta skuid 4242 drop\n"
		"\t}\n}\n";

	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL_FATAL(build("4242", NULL, "api.anthropic.com", &p, &r), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(p.text.s, "table inet"));
	CU_ASSERT_STRING_EQUAL(strstr(p.text.s, "table inet"), golden);
	CU_ASSERT_EQUAL(p.allow, 3);
	CU_ASSERT_EQUAL(p.deny, 7);
	CU_ASSERT_EQUAL(egress_audit(p.text.s, p.text.len, &a, &r), 0);
	CU_ASSERT_EQUAL(a.chains, 1);
	CU_ASSERT_EQUAL(a.rules, 10);
	egress_plan_free(&p);
	refusals_free(&r);
}

static void
test_render_veth_has_input_with_nd(void)
{
	struct egress_plan p;
	struct refusals r = {0};
	struct egress_audit a;

	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL_FATAL(build(NULL, "b0", "api.anthropic.com", &p, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text.s, "\tchain forward {\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text.s, "\tchain input {\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text.s, "iifname \"b0\" icmpv6 type nd-neighbor-solicit accept"));
	CU_ASSERT_EQUAL(egress_audit(p.text.s, p.text.len, &a, &r), 0);
	CU_ASSERT_EQUAL(a.chains, 2);
	/* forward: DNS + 2 pins; input: the 3 ND accepts + DNS, NO pins */
	CU_ASSERT_EQUAL(p.allow, 3 + 4);
	CU_ASSERT_EQUAL(a.allow, 3 + 4);
	CU_ASSERT_PTR_NULL(strstr(strstr(p.text.s, "\tchain input {"), "tcp dport 443"));
	egress_plan_free(&p);
	refusals_free(&r);
}

static void
test_plan_refusals(void)
{
	struct egress_plan p;
	struct refusals r = {0};

	memset(&p, 0, sizeof(p));
	CU_ASSERT_NOT_EQUAL(build(NULL, NULL, "nope.example.com", &p, &r), 0);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(r.n == 2 && strcmp(r.v[0].reason, "no_selector") == 0 &&
		  strcmp(r.v[1].reason, "bad_model_host") == 0);
	refusals_free(&r);
	CU_ASSERT_NOT_EQUAL(build("4242", NULL, "evil.example.org", &p, &r), 0);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_STRING_EQUAL(r.v[0].reason, "bad_address");
	egress_plan_free(&p);
	refusals_free(&r);
}

static void
test_policy_grammar(void)
{
	struct strv n = {0};
	struct refusals r = {0};
	const char *bad = "github.com\nGitHub.com\nfoo bar.com\n-x.com\nlocalhost\n"
		"a.123\n";

	CU_ASSERT_EQUAL(egress_parse_policy("p", bad, strlen(bad), &n, &r), 4);
	CU_ASSERT_EQUAL(n.n, 1); /* duplicate dropped after lowercasing */
	CU_ASSERT(refusals_all(&r, "bad_policy"));
	strv_free(&n);
	refusals_free(&r);
	CU_ASSERT_EQUAL(egress_parse_policy("p", "# only\n\n", 8, &n, &r), 1);
	strv_free(&n);
	refusals_free(&r);
	CU_ASSERT(egress_run_ok("run_1"));
	CU_ASSERT(!egress_run_ok("j1; flush ruleset"));
	CU_ASSERT(!egress_run_ok("../j1"));
	CU_ASSERT(!egress_veth_ok("0123456789abcdef"));
}

#define HEAD "table inet nova_egress_t1 {\n\tchain output {\n" \
	"\t\ttype filter hook output priority filter; policy accept;\n"
#define MD "\t\tmeta skuid 1 ip daddr 169.254.169.254 drop\n"
#define TAIL "\t\tmeta skuid 1 drop\n\t}\n}\n"

static const struct tamper {
	const char *token;
	const char *text;
} tampered[] = {
	{ NULL, HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n" TAIL },
	{ "allow_any", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.0/24 tcp dport 443 accept\n" TAIL },
	{ "allow_any", HEAD MD "\t\tmeta skuid 1 accept\n" TAIL },
	{ "allow_port", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 80 accept\n" TAIL },
	{ "unscoped_rule", HEAD MD "\t\tip daddr 192.0.2.1 tcp dport 443 accept\n" TAIL },
	{ "unscoped_rule", HEAD MD "\t\tmeta skuid 2 ip daddr 192.0.2.1 tcp dport 443 accept\n" TAIL },
	{ "no_default_deny", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n\t}\n}\n" },
	{ "no_metadata_deny", HEAD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n" TAIL },
	{ "bad_table", "table ip nova_egress_t1 {\n\tchain output {\n\t\ttype filter hook output priority filter; policy accept;\n" MD TAIL },
	{ "bad_table", "table inet other {\n\tchain output {\n\t\ttype filter hook output priority filter; policy accept;\n" MD TAIL },
	{ "bad_chain", "table inet nova_egress_t1 {\n\tchain output {\n\t\ttype filter hook output priority filter; policy drop;\n" MD TAIL },
	{ "bad_chain", "table inet nova_egress_t1 {\n\tchain output {\n\t\ttype filter hook prerouting priority filter; policy accept;\n" MD TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 counter accept\n" TAIL },
	{ "bad_rule", HEAD MD TAIL "}\n" },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 drop\n\t}\n" },
	/* a last drop that names an address is not the bare default deny */
	{ "no_default_deny", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.9 drop\n\t}\n}\n" },
	/* the metadata drop must come BEFORE any accept, not just exist */
	{ "no_metadata_deny", HEAD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n" MD TAIL },
	/* icmpv6 accepts: neighbour discovery in the input chain only */
	{ "allow_port", HEAD MD "\t\tmeta skuid 1 icmpv6 type nd-neighbor-solicit accept\n" TAIL },
	{ "allow_port", "table inet nova_egress_t1 {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n"
	  "\t\tiifname \"b0\" ip daddr 169.254.169.254 drop\n\t\tiifname \"b0\" icmpv6 type nd-router-advert accept\n"
	  "\t\tiifname \"b0\" drop\n\t}\n}\n" },
};

static void
test_audit_tampered_forms(void)
{
	for (size_t i = 0; i < sizeof(tampered) / sizeof(tampered[0]); i++) {
		struct refusals r = {0};
		struct egress_audit a;
		int n = egress_audit(tampered[i].text, strlen(tampered[i].text), &a, &r);
		int found = 0;

		for (size_t k = 0; k < r.n; k++)
			found |= tampered[i].token && strcmp(r.v[k].reason, tampered[i].token) == 0;
		if (tampered[i].token == NULL) {
			CU_ASSERT_EQUAL(n, 0);
		} else if (!found) {
			fprintf(stderr, "\n  case %zu: wanted %s\n", i, tampered[i].token);
			CU_FAIL("tampered form not caught");
		}
		refusals_free(&r);
	}
}

static void
test_rule_roundtrip(void)
{
	static const char *lines[] = {
		"meta skuid 4242 ip daddr 198.51.100.128/25 drop",
		"iifname \"veth-1.a@\" ip6 daddr fe80::/10 drop",
		"iifname \"b0\" icmpv6 type nd-neighbor-advert accept",
		"meta skuid 0 ip6 daddr 2001:db8::1 tcp dport 443 accept",
		"accept",
	};
	struct ns_egress_line l;
	char buf[256];

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		ns_egress_parse_line(lines[i], strlen(lines[i]), &l);
		CU_ASSERT_EQUAL_FATAL(l.kind, NS_EGRESS_LINE_RULE);
		CU_ASSERT(ns_egress_format_rule(&l.r, buf, sizeof(buf)) > 0);
		CU_ASSERT_STRING_EQUAL(buf, lines[i]);
	}
	ns_egress_parse_line("ip daddr 10.0.0.1/8 drop", 24, &l);
	CU_ASSERT_EQUAL(l.kind, NS_EGRESS_LINE_BAD); /* host bits */
	ns_egress_parse_line("iifname \"0123456789abcdef\" drop", 31, &l);
	CU_ASSERT_EQUAL(l.kind, NS_EGRESS_LINE_BAD);
}

static void
test_dns_wire(void)
{
	unsigned char q[300], a[300];
	struct ns_egress_addr out[4];
	const char *why = NULL;
	size_t n = 0;
	int ql = egress_dns_query(0x1234, "github.com", 1, q, sizeof(q));

	CU_ASSERT_EQUAL_FATAL(ql, 12 + 12 + 4);
	memcpy(a, q, (size_t)ql);
	a[2] |= 0x80; /* QR */
	a[7] = 2;     /* two answers: a compressed A and an AAAA (skipped) */
	static const unsigned char ans[] = { 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 10,
		0xc0, 12, 0, 28, 0, 1, 0, 0, 0, 60, 0, 16, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	memcpy(a + ql, ans, sizeof(ans));
	CU_ASSERT_EQUAL(egress_dns_parse(a, (size_t)ql + sizeof(ans), 0x1234, 1, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(out[0].fam, 4);
	CU_ASSERT_EQUAL(out[0].a[3], 10);
	CU_ASSERT_EQUAL(egress_dns_parse(a, (size_t)ql + sizeof(ans), 0x4321, 1, out, 4, &n, &why), -1);
	a[3] = 3; /* NXDOMAIN */
	CU_ASSERT_EQUAL(egress_dns_parse(a, (size_t)ql + sizeof(ans), 0x1234, 1, out, 4, &n, &why), -1);
	CU_ASSERT_EQUAL(egress_dns_parse(a, 20, 0x1234, 1, out, 4, &n, &why), -1);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "render uid golden", test_render_uid_golden },
		{ "render veth has input + ND", test_render_veth_has_input_with_nd },
		{ "plan refusals", test_plan_refusals },
		{ "policy grammar", test_policy_grammar },
		{ "audit tampered forms", test_audit_tampered_forms },
		{ "rule grammar round trip", test_rule_roundtrip },
		{ "dns wire", test_dns_wire },
		{ NULL, NULL },
	};

	return cu_run("egress", NULL, NULL, cases);
}
