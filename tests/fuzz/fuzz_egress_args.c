/* SPDX-License-Identifier: MIT */
/* fuzz_egress_args.c -- libFuzzer harness for `egress`'s flag parsing
 * (host/verbs/egress.c) and the plan sub-verb's checks of the flag values
 * (--resolver, --bench-cidr, --run, --uid, --veth, --model-host) that run
 * before any file is read or any DNS is asked.  The input is the words
 * after "egress", separated by NUL bytes: the first names the sub-verb
 * whose flags are parsed (plan, apply, check, drop; anything else is plan),
 * the rest are its words.
 *
 * verbs/egress.c keeps its parser static, so it is compiled in here (and
 * its object is left out of this harness's link).  --policy is never
 * opened: the check runs against a fixed allowlist text instead.
 *
 * Seeds: tests/fuzz/corpus/egress_args/<name>.argv, one word a line.
 * Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "../../host/verbs/egress.c"

static const char policy[] =
	"github.com\napi.github.com\nobjects.githubusercontent.com\n"
	"api.anthropic.com\napi.anthropic.com:8443\n127.0.0.53:53\n";

static const char *
sub_of(int argc, char **argv)
{
	static const char *const subs[] = { "plan", "apply", "check", "drop" };

	for (size_t k = 0; argc > 0 && k < sizeof(subs) / sizeof(subs[0]); k++)
		if (strcmp(argv[0], subs[k]) == 0)
			return subs[k];
	return "plan";
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **argv;
	int argc = fz_argv(data, size, &argv);
	struct eargs a;
	struct egress_input in;
	struct sbuf pol = { 0 };
	struct egress_allows allows = { NULL, 0, 0, 0 };
	struct refusals r = { 0 };
	const char *policy_path;

	memset(&a, 0, sizeof(a));
	memset(&in, 0, sizeof(in));
	parse_flags(sub_of(argc, argv), argc > 0 ? argc - 1 : 0,
		    argc > 0 ? argv + 1 : argv, &a, &r);
	policy_path = a.policy;
	a.policy = NULL;	/* no file is opened */
	plan_phase1(&a, &in, &pol, &allows, &r);
	in.policy_path = policy_path ? policy_path : "-";
	egress_parse_policy(in.policy_path, policy, sizeof(policy) - 1,
			    &in.names, &allows, &r);
	in.allows = &allows;
	in.run = a.run ? a.run : "";
	in.model_host = a.model_host;
	in.uid = a.uid;
	in.veth = a.veth;
	egress_check_input(&in, &r);
	out_refusals(fz_sink(), "EGRESS", &r, "nova-sandbox help egress",
			    0);
	strv_free(&in.names);
	egress_allows_free(&allows);
	free(in.cidrs);
	sbuf_free(&pol);
	strv_free(&a.cidrs);
	refusals_free(&r);
	fz_argv_free(argv);
	return 0;
}
