/* SPDX-License-Identifier: MIT */
/* fuzz_egress_plan.c -- libFuzzer harness for the egress plan grammar
 * (api/ns_egress_plan.h through host/egress/grammar.c), the plan auditor
 * and the canonical form (host/egress/audit.c), and the allowlist parser
 * (host/egress/policy.c).  The input is plan text, as `egress check
 * --plan` reads it from a file or a module's read_live() hands it back.
 *
 * Beyond "no crash, no leak" it asserts the grammar's own promise: a rule
 * or base line it accepts prints (ns_egress_format_*) as canonical text
 * that parses back to the same thing, since `check --live` compares the
 * kernel's table with the plan through exactly that text.
 *
 * Seeds: tests/fuzz/corpus/egress_plan/, plan texts.
 * Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "base/out.h"
#include "wall/args.h"
#include "egress/allowlist.h"

static void
round_trip(const char *line, size_t len)
{
	struct ns_egress_line l, back;
	char buf[256];
	int n = -1;

	ns_egress_parse_line(line, len, &l);
	if (l.kind == NS_EGRESS_LINE_RULE)
		n = ns_egress_format_rule(&l.r, buf, sizeof(buf));
	else if (l.kind == NS_EGRESS_LINE_BASE &&
		 l.hook != NS_EGRESS_HOOK_OTHER)	/* printed as "?": refused */
		n = ns_egress_format_base(l.type, l.hook, l.prio,
					  l.policy_accept, buf, sizeof(buf));
	else
		return;
	if (n < 0 || (size_t)n >= sizeof(buf))
		abort();	/* an accepted line has a canonical text */
	ns_egress_parse_line(buf, (size_t)n, &back);
	if (back.kind != l.kind)
		abort();	/* its canonical text parses */
	if (l.kind == NS_EGRESS_LINE_RULE && !ns_egress_rule_eq(&l.r, &back.r))
		abort();	/* ... to the same rule */
	if (l.kind == NS_EGRESS_LINE_BASE &&
	    (strcmp(l.type, back.type) != 0 || l.hook != back.hook ||
	     l.prio != back.prio || l.policy_accept != back.policy_accept))
		abort();	/* ... to the same base line */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct egress_audit au;
	struct refusals r = { 0 };
	struct strv names = { 0 };
	struct egress_allows allows = { NULL, 0, 0, 0 };
	char *canon;

	for (size_t i = 0, e; i < size; i = e + 1) {
		for (e = i; e < size && text[e] != '\n'; e++)
			;
		round_trip(text + i, e - i);
	}
	(void)egress_audit(text, size, &au, &r);
	canon = egress_canonical(text, size);
	free(canon);
	(void)egress_parse_policy("fuzz.txt", text, size, &names, &allows,
				  &r);
	out_refusals(fz_sink(), "EGRESS", &r, "nova-sandbox help egress",
			    0);
	strv_free(&names);
	egress_allows_free(&allows);
	refusals_free(&r);
	return 0;
}
