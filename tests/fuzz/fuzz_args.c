/* SPDX-License-Identifier: MIT */
/* fuzz_args.c -- libFuzzer harness for the bare form's argv parser
 * (host/wall/args.c), the one flag table shared by the bare wrap, policy,
 * probe and check.  The input is argv: words separated by NUL bytes.
 * Each input is parsed for every verb of the table; the refusals are then
 * printed (to a sink) as the verbs print them, and rendered as JSON
 * strings, so the escaping of a hostile word runs too.
 *
 * Seeds: tests/fuzz/corpus/args/<name>.argv, one word a line (the build
 * joins the lines with NUL bytes).  Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "wall/args.h"
#include "base/out.h"

static const struct {
	unsigned verb;
	const char *prefix, *remedy;
	int paren;
} verbs[] = {
	{ ARGV_BARE, "SANDBOX", "nova-sandbox help", 0 },
	{ ARGV_POLICY, "POLICY", "nova-sandbox help policy", 0 },
	{ ARGV_PROBE, "PROBE", "nova-sandbox help probe", 1 },
	{ ARGV_CHECK, "CHECK", "nova-sandbox help check", 0 },
};

static void
one_verb(size_t k, int argc, char **argv)
{
	struct args a;
	struct refusals r = { 0 };
	struct sbuf json = { 0 };

	memset(&a, 0, sizeof(a));
	if (args_parse(verbs[k].verb, argc, argv, &a, &r) != 0)
		out_refusals(fz_sink(), verbs[k].prefix, &r,
				    verbs[k].remedy, verbs[k].paren);
	for (size_t i = 0; i < r.n; i++)
		if (out_json_str(&json, r.v[i].text) < 0)
			break;
	sbuf_free(&json);
	args_free(&a);
	refusals_free(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **argv;
	int argc = fz_argv(data, size, &argv);

	for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++)
		one_verb(k, argc, argv);
	(void)flags_wants_help(argc, argv);
	for (int i = 0; i < argc; i++)
		(void)args_nearest(ARGV_BARE, argv[i]);
	fz_argv_free(argv);
	return 0;
}
