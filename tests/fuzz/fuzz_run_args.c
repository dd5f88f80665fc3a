/* SPDX-License-Identifier: MIT */
/* fuzz_run_args.c -- libFuzzer harness for `run`'s argv parser and its
 * validators (host/run/args.c: sizes, Go durations, names, artifacts).
 * The input is the words after "run", separated by NUL bytes; the
 * refusals are printed to a sink as verb_run prints them.
 *
 * Seeds: tests/fuzz/corpus/run_args/<name>.argv, one word a line.
 * Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "base/out.h"
#include "wall/args.h"
#include "run/runargs.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **argv;
	int argc = fz_argv(data, size, &argv);
	struct run_args a;
	struct refusals r = { 0 };

	memset(&a, 0, sizeof(a));
	if (run_parse(argc, argv, &a, &r) > 0)
		out_refusals(fz_sink(), "SANDBOX", &r,
				    "nova-sandbox help run", 0);
	run_args_free(&a);
	refusals_free(&r);
	fz_argv_free(argv);
	return 0;
}
