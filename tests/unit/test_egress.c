/* SPDX-License-Identifier: MIT */
/* test_egress.c -- the egress plan grammar, the policy file, the renderer
 * (with a table resolver: no packet), the auditor against every tampered
 * form, and the DNS wire parser. */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "egress/allowlist.h"

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

/* build() with another policy text and resolver (NULL: the defaults) */
static const char *build_policy, *build_resolver;

static int
build(const char *uid, const char *veth, const char *model,
      struct egress_plan *p, struct refusals *r)
{
	struct egress_input in;
	struct ns_egress_addr cidr;
	struct egress_allows allows = { NULL, 0, 0, 0 };
	const char *pol = build_policy ? build_policy : policy;

	memset(&in, 0, sizeof(in));
	in.run = "t1";
	in.policy_path = "egress.txt";
	egress_parse_policy("egress.txt", pol, strlen(pol), &in.names, &allows,
			    r);
	in.allows = &allows;
	in.model_host = model;
	ns_egress_parse_addr(build_resolver ? build_resolver : "198.51.100.53",
			     0, &in.resolver);
	ns_egress_parse_addr("198.51.100.128/25", 0, &cidr);
	in.cidrs = &cidr;
	in.n_cidrs = 1;
	in.uid = uid;
	in.veth = veth;
	in.lookup = fake_lookup;
	int rc = egress_check_input(&in, r) ? 1 : egress_build(&in, p, r);
	strv_free(&in.names);
	egress_allows_free(&allows);
	return rc;
}

/* a deny as the renderer writes it: the tcp reset, then icmpx */
#define D(m) "\t\tmeta skuid 4242 " m " meta l4proto tcp reject with tcp reset\n" \
	"\t\tmeta skuid 4242 " m " reject with icmpx admin-prohibited\n"

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
		D("ip daddr 169.254.169.254")
		D("ip daddr 169.254.0.0/16")
		D("ip daddr 127.0.0.0/8")
		D("ip6 daddr ::1")
		D("ip6 daddr fe80::/10")
		D("ip daddr 198.51.100.128/25")
		"\t\tmeta skuid 4242 ip daddr 198.51.100.53 udp dport 53 accept\n"
		"\t\tmeta skuid 4242 ip daddr 192.0.2.10 tcp dport 443 accept\n"
		"\t\tmeta skuid 4242 ip6 daddr fd00:9::10 tcp dport 443 accept\n"
		"\t\tmeta skuid 4242 meta l4proto tcp reject with tcp reset\n"
		"\t\tmeta skuid 4242 reject with icmpx admin-prohibited\n"
		"\t}\n}\n";

	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL_FATAL(build("4242", NULL, "api.anthropic.com", &p, &r), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(p.text.s, "table inet"));
	CU_ASSERT_STRING_EQUAL(strstr(p.text.s, "table inet"), golden);
	CU_ASSERT_EQUAL(p.allow, 3);
	CU_ASSERT_EQUAL(p.deny, 14);
	CU_ASSERT_EQUAL(egress_audit(p.text.s, p.text.len, &a, &r), 0);
	CU_ASSERT_EQUAL(a.chains, 1);
	CU_ASSERT_EQUAL(a.rules, 17);
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

	CU_ASSERT_EQUAL(egress_parse_policy("p", bad, strlen(bad), &n, NULL, &r), 4);
	CU_ASSERT_EQUAL(n.n, 1); /* duplicate dropped after lowercasing */
	CU_ASSERT(refusals_all(&r, "bad_policy"));
	strv_free(&n);
	refusals_free(&r);
	CU_ASSERT_EQUAL(egress_parse_policy("p", "# only\n\n", 8, &n, NULL, &r), 1);
	strv_free(&n);
	refusals_free(&r);
	CU_ASSERT(egress_run_ok("run_1"));
	CU_ASSERT(!egress_run_ok("j1; flush ruleset"));
	CU_ASSERT(!egress_run_ok("../j1"));
	CU_ASSERT(!egress_veth_ok("0123456789abcdef"));
}

/* host:port lines: every form, and each bad line refused naming
 * file:line and the form it wanted. */
static void
test_policy_ports(void)
{
	static const struct {
		const char *line;
		const char *want; /* NULL: accepted; else in the refusal */
		int port;
	} cases[] = {
		{ "github.com", NULL, 443 },
		{ "github.com:22", NULL, 22 },
		{ "GitHub.com:65535", NULL, 65535 },
		{ "192.0.2.10:8080", NULL, 8080 },
		{ "127.0.0.1:1", NULL, 1 },
		{ "[::1]:8080", NULL, 8080 },
		{ "[2001:db8::1]:443", NULL, 443 },
		{ "github.com:0", "p:1: wants <name>[:<port>]", 0 },
		{ "github.com:65536", "port 1-65535", 0 },
		{ "github.com:022", "wants <name>", 0 },
		{ "github.com:443:1", "wants <name>", 0 },
		{ "github.com:", "wants <name>", 0 },
		{ "192.0.2.10", "p:1: wants <ipv4>:<port>", 0 },
		{ "192.0.2.0/24:443", "wants <name>", 0 },
		{ "[::1]", "p:1: wants [<ipv6>]:<port>", 0 },
		{ "[::1]:53/udp", "TCP; UDP is DNS to --resolver alone", 0 },
		{ "::1:53", "wants <name>", 0 },
		{ "169.254.169.254:80", "p:1: 169.254.169.254 is the metadata address", 0 },
		{ "[fe80::1]:80", "is link-local", 0 },
		{ "0.0.0.0:80", "is unspecified", 0 },
		{ "[::ffff:127.0.0.1]:80", "is IPv4-mapped", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strv n = {0};
		struct egress_allows al = { NULL, 0, 0, 0 };
		struct refusals r = {0};
		int k = egress_parse_policy("p", cases[i].line,
					    strlen(cases[i].line), &n, &al, &r);

		if (cases[i].want == NULL) {
			CU_ASSERT_EQUAL(k, 0);
			CU_ASSERT_EQUAL(al.n, 1);
			CU_ASSERT(al.n == 1 && al.v[0].port == cases[i].port);
		} else if (k != 1 || r.n != 1 ||
			   strstr(r.v[0].text, cases[i].want) == NULL ||
			   strcmp(r.v[0].reason, "bad_policy") != 0) {
			fprintf(stderr, "\n  %s: wanted a refusal with \"%s\", "
				"got %d: %s\n", cases[i].line, cases[i].want, k,
				r.n ? r.v[0].text : "-");
			CU_FAIL("policy line");
		}
		strv_free(&n);
		egress_allows_free(&al);
		refusals_free(&r);
	}
}

/* Ports per name, address lines, loopback servers and a loopback
 * resolver rendered, and the auditor passes the result. */
static void
test_render_ports_loopback(void)
{
	struct egress_plan p;
	struct refusals r = {0};
	struct egress_audit a;
	const char *deny, *pos;
	static const char *const lead[] = {
		"meta skuid 4242 ip daddr 127.0.0.1 tcp dport 8080 accept",
		"meta skuid 4242 ip6 daddr ::1 tcp dport 9090 accept",
		"meta skuid 4242 ip daddr 127.0.0.53 tcp dport 53 accept",
		"meta skuid 4242 ip daddr 127.0.0.53 udp dport 53 accept",
	};
	static const char *const pins[] = {
		"meta skuid 4242 ip daddr 192.0.2.10 tcp dport 22 accept",
		"meta skuid 4242 ip daddr 192.0.2.10 tcp dport 443 accept",
		"meta skuid 4242 ip daddr 192.0.2.10 tcp dport 8443 accept",
		"meta skuid 4242 ip daddr 192.0.2.77 tcp dport 8080 accept",
		"meta skuid 4242 ip6 daddr fd00:9::10 tcp dport 22 accept",
	};

	build_policy = "github.com\ngithub.com:22\napi.github.com\n"
		"objects.githubusercontent.com\napi.anthropic.com:8443\n"
		"192.0.2.77:8080\n127.0.0.1:8080\n[::1]:9090\n127.0.0.53:53\n";
	build_resolver = "127.0.0.53";
	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL_FATAL(build("4242", NULL, "api.anthropic.com", &p, &r), 0);
	deny = strstr(p.text.s, "169.254.169.254 meta l4proto");
	CU_ASSERT_PTR_NOT_NULL_FATAL(deny);
	pos = p.text.s;
	for (size_t i = 0; i < 4; i++) {	/* in order, before the denies */
		pos = strstr(pos, lead[i]);
		CU_ASSERT_FATAL(pos != NULL && pos < deny);
	}
	for (size_t i = 0; i < 5; i++) {	/* in order, after them */
		pos = strstr(pos, pins[i]);
		CU_ASSERT_FATAL(pos != NULL && pos > deny);
	}
	/* api.anthropic.com:8443 alone: not on 443 */
	CU_ASSERT_PTR_NULL(strstr(p.text.s, "192.0.2.77 tcp dport 443"));
	/* the loopback resolver is not accepted again after the denies */
	CU_ASSERT_PTR_NULL(strstr(deny, "udp dport 53 accept"));
	CU_ASSERT_EQUAL(egress_audit(p.text.s, p.text.len, &a, &r), 0);
	egress_plan_free(&p);
	refusals_free(&r);
	build_policy = NULL;
	build_resolver = NULL;
}

/* A loopback resolver: refused unless the file names it <addr>:53 and
 * the card is --uid alone; an address line inside a --bench-cidr. */
static void
test_loopback_resolver_refusals(void)
{
	struct egress_plan p;
	struct refusals r = {0};
	static const char *base = "github.com\napi.github.com\n"
		"objects.githubusercontent.com\napi.anthropic.com\n";
	char pol[256];

	memset(&p, 0, sizeof(p));
	build_resolver = "127.0.0.53";
	build_policy = base;
	CU_ASSERT_EQUAL(build("4242", NULL, "api.anthropic.com", &p, &r), 1);
	CU_ASSERT(r.n == 1 && strcmp(r.v[0].reason, "bad_resolver") == 0 &&
		  strstr(r.v[0].text, "names it as 127.0.0.53:53") != NULL);
	refusals_free(&r);
	snprintf(pol, sizeof(pol), "%s127.0.0.53:53\n", base);
	build_policy = pol;
	CU_ASSERT_EQUAL(build(NULL, "b0", "api.anthropic.com", &p, &r), 1);
	CU_ASSERT(r.n == 1 && strcmp(r.v[0].reason, "bad_resolver") == 0);
	refusals_free(&r);
	/* control: --uid with the line is accepted */
	CU_ASSERT_EQUAL(build("4242", NULL, "api.anthropic.com", &p, &r), 0);
	egress_plan_free(&p);
	refusals_free(&r);
	build_resolver = NULL;
	snprintf(pol, sizeof(pol), "%s198.51.100.200:80\n", base);
	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL(build("4242", NULL, "api.anthropic.com", &p, &r), 1);
	CU_ASSERT(r.n == 1 && strcmp(r.v[0].reason, "bad_policy") == 0 &&
		  strstr(r.v[0].text, "inside a --bench-cidr") != NULL);
	refusals_free(&r);
	build_policy = NULL;
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
	/* any tcp port (the policy file's host:port); udp is DNS alone */
	{ NULL, HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 80 accept\n" TAIL },
	{ "allow_port", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 udp dport 5353 accept\n" TAIL },
	{ "allow_port", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 accept\n" TAIL },
	/* 1.5: REJECT denies.  The renderer's shape passes ... */
	{ NULL, HEAD "\t\tmeta skuid 1 ip daddr 169.254.169.254 meta l4proto tcp reject with tcp reset\n"
	  "\t\tmeta skuid 1 ip daddr 169.254.169.254 reject with icmpx admin-prohibited\n"
	  "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n"
	  "\t\tmeta skuid 1 meta l4proto tcp reject with tcp reset\n"
	  "\t\tmeta skuid 1 reject with icmpx admin-prohibited\n\t}\n}\n" },
	/* ... a tcp reset alone is no default deny (udp would pass) ... */
	{ "no_default_deny", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n"
	  "\t\tmeta skuid 1 meta l4proto tcp reject with tcp reset\n\t}\n}\n" },
	/* ... nor a metadata deny ... */
	{ "no_metadata_deny", HEAD "\t\tmeta skuid 1 ip daddr 169.254.169.254 meta l4proto tcp reject with tcp reset\n"
	  "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n" TAIL },
	/* ... a bare tcp reset anywhere but just before the last deny is late */
	{ "deny_after_accept", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n"
	  "\t\tmeta skuid 1 meta l4proto tcp reject with tcp reset\n"
	  "\t\tmeta skuid 1 ip daddr 192.0.2.2 tcp dport 443 accept\n" TAIL },
	/* ... and only the two reject forms are readable */
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 reject\n" TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 reject with icmp admin-prohibited\n" TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 reject with icmpx port-unreachable\n" TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.9 reject with tcp reset\n" TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 meta l4proto tcp drop\n" TAIL },
	{ "bad_rule", HEAD MD "\t\tmeta skuid 1 meta l4proto tcp reject with icmpx admin-prohibited\n" TAIL },
	/* loopback servers the file names lead the chain, before the denies */
	{ NULL, HEAD "\t\tmeta skuid 1 ip daddr 127.0.0.1 tcp dport 8080 accept\n"
	  "\t\tmeta skuid 1 ip6 daddr ::1 tcp dport 8080 accept\n"
	  "\t\tmeta skuid 1 ip daddr 127.0.0.53 udp dport 53 accept\n" MD
	  "\t\tmeta skuid 1 ip daddr 127.0.0.0/8 drop\n" TAIL },
	/* ... a routable address may not (the metadata deny comes first) */
	{ "no_metadata_deny", HEAD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 8080 accept\n" MD TAIL },
	{ "allow_any", HEAD "\t\tmeta skuid 1 ip daddr 127.0.0.0/8 tcp dport 8080 accept\n" MD TAIL },
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
	/* denies before accepts: every drop but the last comes before the
	 * first accept (loopback, link-local, a bench CIDR after an accept) */
	{ "deny_after_accept", HEAD MD "\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n"
	  "\t\tmeta skuid 1 ip daddr 127.0.0.0/8 drop\n" TAIL },
	{ "deny_after_accept", HEAD MD "\t\tmeta skuid 1 ip daddr 198.51.100.53 udp dport 53 accept\n"
	  "\t\tmeta skuid 1 ip6 daddr fe80::/10 drop\n\t\tmeta skuid 1 ip daddr 198.51.100.128/25 drop\n" TAIL },
	/* the input chain's leading ND accepts do not open the accept zone ... */
	{ NULL, "table inet nova_egress_t1 {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n"
	  "\t\tiifname \"b0\" icmpv6 type nd-router-solicit accept\n\t\tiifname \"b0\" icmpv6 type nd-neighbor-solicit accept\n"
	  "\t\tiifname \"b0\" ip daddr 169.254.169.254 drop\n\t\tiifname \"b0\" ip daddr 127.0.0.0/8 drop\n"
	  "\t\tiifname \"b0\" ip daddr 198.51.100.53 udp dport 53 accept\n\t\tiifname \"b0\" drop\n\t}\n}\n" },
	/* ... but one placed between the drops does */
	{ "deny_after_accept", "table inet nova_egress_t1 {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n"
	  "\t\tiifname \"b0\" ip daddr 169.254.169.254 drop\n\t\tiifname \"b0\" icmpv6 type nd-neighbor-solicit accept\n"
	  "\t\tiifname \"b0\" ip daddr 127.0.0.0/8 drop\n\t\tiifname \"b0\" drop\n\t}\n}\n" },
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

/* An accept widened to a prefix the grammar does not write (/0, or host
 * bits set) is allow_any at its line, not "bad_rule: cannot be read". */
static void
test_audit_widened_accepts(void)
{
	static const struct {
		const char *rule;
		const char *token;
	} cases[] = {
		{ "meta skuid 1 ip daddr 0.0.0.0/0 tcp dport 443 accept", "allow_any" },
		{ "meta skuid 1 ip6 daddr ::/0 tcp dport 443 accept", "allow_any" },
		{ "meta skuid 1 ip daddr 192.0.2.10/24 tcp dport 443 accept", "allow_any" },
		{ "meta skuid 1 ip daddr 192.0.2.10/31 udp dport 53 accept", "allow_any" },
		{ "meta skuid 1 ip6 daddr fd00:9::10/64 tcp dport 443 accept", "allow_any" },
		{ "meta skuid 1 ip daddr 10.1.2.3/0 tcp dport 443 accept", "allow_any" },
		/* controls: what is not a readable prefix stays unreadable */
		{ "meta skuid 1 ip daddr 0.0.0.0/33 tcp dport 443 accept", "bad_rule" },
		{ "meta skuid 1 ip daddr 0.0.0.0/x tcp dport 443 accept", "bad_rule" },
		{ "meta skuid 1 ip daddr 0.0.0.0/0 counter accept", "bad_rule" },
		/* a widened drop is not a rule the plan can hold */
		{ "meta skuid 1 ip daddr 0.0.0.0/0 drop", "bad_rule" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct refusals r = {0};
		struct egress_audit a;
		char text[1024], want[64];
		int hit = 0, other = 0;

		snprintf(text, sizeof(text), HEAD MD "\t\t%s\n" TAIL,
			 cases[i].rule);
		snprintf(want, sizeof(want), "line 5: ");
		egress_audit(text, strlen(text), &a, &r);
		for (size_t k = 0; k < r.n; k++) {
			if (strcmp(r.v[k].reason, cases[i].token) == 0 &&
			    strncmp(r.v[k].text, want, strlen(want)) == 0)
				hit = 1;
			else
				other = 1;
		}
		if (!hit || other) {
			fprintf(stderr, "\n  %s: wanted only %s at line 5, got",
				cases[i].rule, cases[i].token);
			for (size_t k = 0; k < r.n; k++)
				fprintf(stderr, "\n    %s: %s", r.v[k].reason,
					r.v[k].text);
			fprintf(stderr, "\n");
		}
		CU_ASSERT(hit && !other);
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
		"meta skuid 4242 ip daddr 169.254.169.254 meta l4proto tcp reject with tcp reset",
		"iifname \"b0\" ip6 daddr fe80::/10 reject with icmpx admin-prohibited",
		"meta skuid 1 tcp dport 22 reject with tcp reset",
		"meta skuid 1 reject with icmpx admin-prohibited",
		"meta skuid 1 ip daddr 192.0.2.1 tcp dport 65535 accept",
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
	/* 1.5: a reject is not an icmpv6 rule's; a drop and a reject differ */
	{
		static const char *ic = "iifname \"b0\" icmpv6 type "
			"nd-neighbor-solicit reject with icmpx admin-prohibited";
		struct ns_egress_line d;

		ns_egress_parse_line(ic, strlen(ic), &l);
		CU_ASSERT_EQUAL(l.kind, NS_EGRESS_LINE_BAD);
		ns_egress_parse_line("meta skuid 1 drop", 17, &d);
		ns_egress_parse_line("meta skuid 1 reject with icmpx "
				     "admin-prohibited", 47, &l);
		CU_ASSERT_EQUAL_FATAL(l.kind, NS_EGRESS_LINE_RULE);
		CU_ASSERT(!ns_egress_rule_eq(&l.r, &d.r));
		CU_ASSERT_EQUAL(NS_EGRESS_RULE_REJECT(&l.r), NS_EGRESS_REJECT_ADMIN);
		CU_ASSERT_EQUAL(NS_EGRESS_RULE_REJECT(&d.r), 0);
	}
}

/* ---- DNS: crafted replies --------------------------------------------- */

static size_t
put_name(unsigned char *b, const char *name)
{
	size_t o = 0;

	while (*name) {
		size_t l = strcspn(name, ".");

		b[o++] = (unsigned char)l;
		memcpy(b + o, name, l);
		o += l;
		name += l + (name[l] == '.');
	}
	b[o++] = 0;
	return o;
}

/* A reply: the question as given (name, type, class), QR set. */
static size_t
reply(unsigned char *m, unsigned id, const char *qname, int qtype, int qclass)
{
	size_t o;

	memset(m, 0, 12);
	m[0] = (unsigned char)(id >> 8);
	m[1] = (unsigned char)id;
	m[2] = 0x81;
	m[3] = 0x80;
	m[5] = 1;
	o = 12 + put_name(m + 12, qname);
	m[o++] = 0;
	m[o++] = (unsigned char)qtype;
	m[o++] = 0;
	m[o++] = (unsigned char)qclass;
	return o;
}

/* One answer record; owner NULL is a pointer to the question name. */
static size_t
rr(unsigned char *m, size_t o, const char *owner, int type,
   const unsigned char *rd, size_t rdlen)
{
	if (owner == NULL) {
		m[o++] = 0xc0;
		m[o++] = 12;
	} else {
		o += put_name(m + o, owner);
	}
	m[o++] = 0;
	m[o++] = (unsigned char)type;
	m[o++] = 0;
	m[o++] = 1;
	memset(m + o, 0, 3);
	m[o + 3] = 60;
	o += 4;
	m[o++] = (unsigned char)(rdlen >> 8);
	m[o++] = (unsigned char)rdlen;
	memcpy(m + o, rd, rdlen);
	m[7]++;
	return o + rdlen;
}

static const unsigned char v4a[4] = { 192, 0, 2, 10 }, v4b[4] = { 192, 0, 2, 20 },
	v4evil[4] = { 127, 0, 0, 1 },
	v6a[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };

static void
test_dns_wire(void)
{
	unsigned char q[300], a[600];
	struct ns_egress_addr out[4];
	const char *why = NULL;
	size_t n = 0, al;
	int ql = egress_dns_query(0x1234, "github.com", 1, q, sizeof(q));

	CU_ASSERT_EQUAL_FATAL(ql, 12 + 12 + 4);
	al = reply(a, 0x1234, "github.com", 1, 1);
	CU_ASSERT_EQUAL(memcmp(a + 12, q + 12, (size_t)ql - 12), 0);
	al = rr(a, al, NULL, 1, v4a, 4);
	al = rr(a, al, NULL, 28, v6a, 16);	/* not the asked type: skipped */
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(out[0].fam, 4);
	CU_ASSERT_EQUAL(out[0].a[3], 10);
	a[1] = 0x35; /* another id: not a reply to this query */
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), -2);
	a[1] = 0x34;
	a[3] = 0x83; /* NXDOMAIN */
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), -1);
	a[3] = 0x80;
	CU_ASSERT_EQUAL(egress_dns_parse(a, 20, q, (size_t)ql, out, 4, &n, &why), -2);
	/* the same name in another case is the same question */
	al = reply(a, 0x1234, "GitHub.COM", 1, 1);
	al = rr(a, al, NULL, 1, v4a, 4);
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL(n, 1);
}

static void
test_dns_question_must_echo(void)
{
	static const struct { const char *name; int type, class; } bad[] = {
		{ "api.github.com", 1, 1 },	/* another name */
		{ "github.co", 1, 1 },
		{ "github.com", 28, 1 },	/* another type */
		{ "github.com", 1, 3 },		/* another class */
	};
	unsigned char q[300], a[600];
	struct ns_egress_addr out[4];
	const char *why = NULL;
	size_t n = 9, al;
	int ql = egress_dns_query(0x1234, "github.com", 1, q, sizeof(q));

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		al = reply(a, 0x1234, bad[i].name, bad[i].type, bad[i].class);
		al = rr(a, al, NULL, 1, v4a, 4);
		CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), -2);
		CU_ASSERT_EQUAL(n, 0);
	}
	al = reply(a, 0x1234, "github.com", 1, 1);
	a[5] = 0; /* no question echoed at all */
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), -2);
}

static void
test_dns_foreign_records(void)
{
	unsigned char q[300], a[600], cn[64];
	struct ns_egress_addr out[4];
	const char *why = NULL;
	size_t n = 0, al;
	int ql = egress_dns_query(0x77, "github.com", 1, q, sizeof(q));

	/* records for a name nobody asked about are not pinned */
	al = reply(a, 0x77, "github.com", 1, 1);
	al = rr(a, al, "evil.example.org", 1, v4evil, 4);
	al = rr(a, al, NULL, 1, v4a, 4);
	al = rr(a, al, "cdn.example.net", 1, v4b, 4);	/* no CNAME leads here */
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(out[0].a[3], 10);
	/* the CNAME chain from the asked name is followed (in any order) */
	al = reply(a, 0x77, "github.com", 1, 1);
	al = rr(a, al, "edge.example.net", 1, v4b, 4);
	al = rr(a, al, "evil.example.org", 1, v4evil, 4);
	al = rr(a, al, "cdn.example.net", 5, cn, put_name(cn, "edge.example.net"));
	al = rr(a, al, NULL, 5, cn, put_name(cn, "cdn.example.net"));
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(out[0].a[3], 20);
	/* a CNAME from a foreign name does not join the chain */
	al = reply(a, 0x77, "github.com", 1, 1);
	al = rr(a, al, "evil.example.org", 5, cn, put_name(cn, "github.com"));
	al = rr(a, al, "evil.example.org", 1, v4evil, 4);
	CU_ASSERT_EQUAL(egress_dns_parse(a, al, q, (size_t)ql, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL(n, 0);
}

/* A reply with the wrong id is ignored and the query is NOT sent again:
 * a fake resolver on a datagram socketpair reads one query, answers with
 * the wrong id and then the right one; afterwards nothing more may be
 * queued at its end. */
static void
test_dns_wrong_id_no_resend(void)
{
	struct ns_egress_addr out[4];
	unsigned char a[600], q[300];
	const char *why = NULL;
	size_t n = 0, al;
	int sv[2], st;
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		ssize_t k = recv(sv[1], q, sizeof(q), 0);
		unsigned id;

		if (k < 12)
			_exit(1);
		id = (unsigned)q[0] << 8 | q[1];
		al = reply(a, id ^ 0x5a5a, "github.com", 1, 1);
		al = rr(a, al, NULL, 1, v4evil, 4);
		if (send(sv[1], a, al, 0) < 0)
			_exit(1);
		al = reply(a, id, "github.com", 1, 1);
		al = rr(a, al, NULL, 1, v4a, 4);
		_exit(send(sv[1], a, al, 0) < 0);
	}
	CU_ASSERT_EQUAL(egress_dns_ask(sv[0], "github.com", 1, 10000, out, 4, &n, &why), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(n == 1 && out[0].a[0] == 192 && out[0].a[3] == 10);
	CU_ASSERT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT_EQUAL(recv(sv[1], q, sizeof(q), MSG_DONTWAIT), -1); /* no second query */
	close(sv[0]);
	close(sv[1]);
}

/* ---- egress_write_plan: all or nothing -------------------------------- */

static char wdir[64];

static int
dir_entries(void)
{
	DIR *d = opendir(wdir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void
put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, s, strlen(s)) == (ssize_t)strlen(s));
	close(fd);
}

static int
file_is(const char *path, const char *s)
{
	char buf[64] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t k = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return k >= 0 && strcmp(buf, s) == 0;
}

/* A real failure midway: RLIMIT_FSIZE lets the first bytes through and
 * then write() fails with EFBIG (SIGXFSZ ignored), in a child. */
static int
write_capped(const char *path, size_t len)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct rlimit rl = { 100, 100 };
		char *big = malloc(len), *why = NULL;

		signal(SIGXFSZ, SIG_IGN);
		if (big == NULL || setrlimit(RLIMIT_FSIZE, &rl) < 0)
			_exit(3);
		memset(big, 'x', len);
		_exit(egress_write_plan(path, big, len, &why) == -1 &&
		      why != NULL ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ?
	    WEXITSTATUS(st) : -1;
}

/* A fake resolver on sv[1]: answers `count` queries, each by its type:
 * rcode_a / rcode_aaaa (0: one address of that family, else that rcode
 * with no record). */
static pid_t
fake_resolver(int fd, int count, int rcode_a, int rcode_aaaa)
{
	struct timeval tv = { 2, 0 };
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	/* a query that never comes (the asker gave up) ends the fake */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (int i = 0; i < count; i++) {
		unsigned char q[300], a[600];
		ssize_t k = recv(fd, q, sizeof(q), 0);
		size_t al, qo = 12;
		int qtype, rc;

		if (k < 0)
			_exit(0);
		if (k < 17)
			_exit(1);
		while (qo < (size_t)k && q[qo] != 0)
			qo += (size_t)q[qo] + 1;
		qtype = q[qo + 2];
		rc = qtype == 1 ? rcode_a : rcode_aaaa;
		al = reply(a, (unsigned)q[0] << 8 | q[1], "github.com", qtype, 1);
		a[3] = (unsigned char)(0x80 | rc);
		if (rc == 0)
			al = qtype == 1 ? rr(a, al, NULL, 1, v4a, 4)
					: rr(a, al, NULL, 28, v6a, 16);
		if (send(fd, a, al, 0) < 0)
			_exit(1);
	}
	_exit(0);
}

/* One family answered with addresses and the other refused: the answer
 * is pinned and the refusal is a note naming that family; both failing
 * is still a failure (resolve_failed), naming both. */
static void
test_dns_one_family_refused(void)
{
	static const struct {
		int rc_a, rc_aaaa, ret;
		size_t n;
		int fam;
		const char *why;
	} cases[] = {
		{ 0, 5, 0, 1, 4, "AAAA failed (the resolver answered REFUSED); "
		  "only its A addresses are pinned" },
		{ 5, 0, 0, 1, 6, "A failed (the resolver answered REFUSED); "
		  "only its AAAA addresses are pinned" },
		{ 2, 0, 0, 1, 6, "A failed (the resolver answered SERVFAIL); " },
		{ 5, 5, -1, 0, 0, "A: the resolver answered REFUSED; AAAA: "
		  "the resolver answered REFUSED" },
		{ 0, 0, 0, 2, 4, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ns_egress_addr out[4];
		char *why = NULL;
		size_t n = 9;
		int sv[2], st, ret;
		pid_t pid;

		CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC,
						 0, sv), 0);
		pid = fake_resolver(sv[1], 2, cases[i].rc_a, cases[i].rc_aaaa);
		CU_ASSERT_FATAL(pid >= 0);
		ret = egress_dns_resolve(sv[0], "github.com", 10000, out, 4, &n,
					 &why);
		if (ret != cases[i].ret || n != cases[i].n ||
		    (cases[i].why == NULL) != (why == NULL) ||
		    (why && strstr(why, cases[i].why) == NULL))
			fprintf(stderr, "\n  case %zu: ret %d n %zu why %s\n", i,
				ret, n, why ? why : "-");
		CU_ASSERT_EQUAL(ret, cases[i].ret);
		CU_ASSERT_EQUAL(n, cases[i].n);
		if (cases[i].n > 0)
			CU_ASSERT_EQUAL(out[0].fam, cases[i].fam);
		if (cases[i].why == NULL) {
			CU_ASSERT_PTR_NULL(why);
		} else {
			CU_ASSERT(why != NULL && strstr(why, cases[i].why) != NULL);
		}
		free(why);
		CU_ASSERT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			  WEXITSTATUS(st) == 0);
		close(sv[0]);
		close(sv[1]);
	}
}

/* A lookup seam that answers A only and says why AAAA is missing. */
static int
v4_only_lookup(void *ctx, const struct ns_egress_addr *res, const char *name,
	       struct ns_egress_addr *out, size_t max, size_t *n, char **why)
{
	(void)ctx; (void)res; (void)max; (void)name;
	*n = 0;
	ns_egress_parse_addr("192.0.2.10", 0, &out[(*n)++]);
	*why = strdup("AAAA failed (the resolver answered REFUSED); only its "
		      "A addresses are pinned");
	return 0;
}

/* The plan: names of the policy file that are not pinned are each said
 * in a note; a family note from the seam is kept, naming the host. */
static void
test_plan_notes(void)
{
	struct egress_plan p;
	struct refusals r = {0};
	struct egress_input in;
	static const char *pol = "github.com\napi.github.com\n"
		"objects.githubusercontent.com\napi.anthropic.com\n"
		"evil.example.org\nextra.example.com\n";

	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL(build("4242", NULL, "api.anthropic.com", &p, &r), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_EQUAL_FATAL(p.notes.n, 1);
	CU_ASSERT_STRING_EQUAL(p.notes.v[0], "egress.txt names evil.example.org, "
			       "which this run does not pin: a run allows the "
			       "base names and --model-host only");
	CU_ASSERT(strstr(p.text.s, "evil.example.org") == NULL);
	egress_plan_free(&p);
	/* control: the model host itself is not left out */
	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL(build("4242", NULL, "evil.example.org", &p, &r), 1);
	for (size_t i = 0; i < p.notes.n; i++)
		CU_ASSERT(strstr(p.notes.v[i], "evil.example.org") == NULL);
	egress_plan_free(&p);
	refusals_free(&r);
	/* two left out, and a family note per pinned name */
	memset(&in, 0, sizeof(in));
	memset(&p, 0, sizeof(p));
	in.run = "t1";
	in.policy_path = "egress.txt";
	egress_parse_policy("egress.txt", pol, strlen(pol), &in.names, NULL, &r);
	in.model_host = "api.anthropic.com";
	ns_egress_parse_addr("198.51.100.53", 0, &in.resolver);
	in.uid = "1";
	in.lookup = v4_only_lookup;
	CU_ASSERT_EQUAL(egress_build(&in, &p, &r), 0);
	CU_ASSERT_EQUAL_FATAL(p.notes.n, 6);
	CU_ASSERT(strstr(p.notes.v[0], "names evil.example.org,") != NULL);
	CU_ASSERT(strstr(p.notes.v[1], "names extra.example.com,") != NULL);
	CU_ASSERT_STRING_EQUAL(p.notes.v[2], "github.com: AAAA failed (the "
			       "resolver answered REFUSED); only its A "
			       "addresses are pinned");
	CU_ASSERT(strncmp(p.notes.v[5], "api.anthropic.com: AAAA", 23) == 0);
	egress_plan_free(&p);
	strv_free(&in.names);
	refusals_free(&r);
}

static void
test_write_plan(void)
{
	char f[128], g[128], *why = NULL;
	struct stat st;

	snprintf(wdir, sizeof(wdir), "/tmp/ns-egw-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(wdir));
	snprintf(f, sizeof(f), "%s/plan.nft", wdir);
	snprintf(g, sizeof(g), "%s/target", wdir);
	/* control: a plain write lands whole, 0600, and leaves nothing else */
	CU_ASSERT_EQUAL(egress_write_plan(f, "new\n", 4, &why), 0);
	CU_ASSERT(file_is(f, "new\n"));
	CU_ASSERT(stat(f, &st) == 0 && (st.st_mode & 07777) == 0600);
	CU_ASSERT_EQUAL(dir_entries(), 1);
	/* failing midway over an existing plan: the old one stays, no temp */
	put(f, "old\n");
	CU_ASSERT_EQUAL(write_capped(f, 8192), 0);
	CU_ASSERT(file_is(f, "old\n"));
	CU_ASSERT_EQUAL(dir_entries(), 1);
	/* failing midway with no plan there: nothing at all */
	CU_ASSERT_EQUAL(unlink(f), 0);
	CU_ASSERT_EQUAL(write_capped(f, 8192), 0);
	CU_ASSERT_EQUAL(dir_entries(), 0);
	/* a symlink at F is replaced, never followed: its target is intact */
	put(g, "target\n");
	CU_ASSERT_EQUAL_FATAL(symlink(g, f), 0);
	CU_ASSERT_EQUAL(egress_write_plan(f, "new\n", 4, &why), 0);
	CU_ASSERT(lstat(f, &st) == 0 && S_ISREG(st.st_mode));
	CU_ASSERT(file_is(f, "new\n"));
	CU_ASSERT(file_is(g, "target\n"));
	CU_ASSERT_EQUAL(dir_entries(), 2);
	unlink(g);
	unlink(f);
	/* a parent that does not exist is never created */
	snprintf(f, sizeof(f), "%s/nodir/plan.nft", wdir);
	CU_ASSERT_EQUAL(egress_write_plan(f, "new\n", 4, &why), -1);
	CU_ASSERT_PTR_NOT_NULL(why);
	free(why);
	why = NULL;
	CU_ASSERT_EQUAL(dir_entries(), 0);
	/* a directory at F is refused and nothing is left */
	snprintf(f, sizeof(f), "%s/d", wdir);
	CU_ASSERT_EQUAL_FATAL(mkdir(f, 0700), 0);
	CU_ASSERT_EQUAL(egress_write_plan(f, "new\n", 4, &why), -1);
	free(why);
	CU_ASSERT_EQUAL(dir_entries(), 1);
	rmdir(f);
	rmdir(wdir);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "render uid golden", test_render_uid_golden },
		{ "render veth has input + ND", test_render_veth_has_input_with_nd },
		{ "plan refusals", test_plan_refusals },
		{ "policy grammar", test_policy_grammar },
		{ "policy: host:port and address lines", test_policy_ports },
		{ "render: ports, address lines, loopback", test_render_ports_loopback },
		{ "loopback resolver and bench-cidr refusals", test_loopback_resolver_refusals },
		{ "audit tampered forms", test_audit_tampered_forms },
		{ "audit: a widened accept is allow_any",
		  test_audit_widened_accepts },
		{ "rule grammar round trip", test_rule_roundtrip },
		{ "dns wire", test_dns_wire },
		{ "dns: the question must echo the query", test_dns_question_must_echo },
		{ "dns: foreign-name records, CNAME chain", test_dns_foreign_records },
		{ "dns: wrong id ignored, not re-sent", test_dns_wrong_id_no_resend },
		{ "dns: one family refused is pinned with a note",
		  test_dns_one_family_refused },
		{ "plan: left-out names and family notes", test_plan_notes },
		{ "write plan: all or nothing", test_write_plan },
		{ NULL, NULL },
	};

	return cu_run("egress", NULL, NULL, cases);
}
