/* SPDX-License-Identifier: MIT */
/* test_glob.c -- str_glob (base/util.c), the shell-pattern match --env-deny
 * and the credential NOTE use on every platform, against the C library's
 * fnmatch(pat, s, 0) on every pair of a table of patterns and names (the
 * oracle is Linux's own), plus the cases the table is there for. */
#include <CUnit/CUnit.h>
#include <fnmatch.h>
#include <stdio.h>

#include "base/util.h"
#include "common/cu_run.h"

static const char *const pats[] = {
	"", "*", "**", "?", "??", "A", "AWS_*", "*_TOKEN", "*_TOKEN_*",
	"*SECRET*", "*_KEY", "A*B*C", "*A*", "[A-C]*", "[!A-C]*", "[^A]",
	"[]]", "[]A]*", "[", "[A", "A[", "\\*", "\\?X", "A\\", "[a-z0-9_]*",
	"*[0-9]", "X?Y*Z", "*?", "?*", "[A-]", "[-A]", "[\\]]", "*\\[*",
};
static const char *const names[] = {
	"", "A", "B", "AB", "ABC", "AXBYC", "AWS_SECRET_ACCESS_KEY",
	"GITHUB_TOKEN", "MY_TOKEN_X", "TOKEN", "SECRET", "API_KEY", "]",
	"]A", "[", "[A", "A[", "*", "?X", "A\\", "a_b9", "X1", "XaYbZ",
	"XYZ", "-", "\\", "A]", "x[y",
};

static void
test_oracle(void)
{
	char what[128];

	for (size_t i = 0; i < sizeof(pats) / sizeof(*pats); i++)
		for (size_t j = 0; j < sizeof(names) / sizeof(*names); j++) {
			int want = fnmatch(pats[i], names[j], 0) == 0;
			int got = str_glob(pats[i], names[j]);

			snprintf(what, sizeof(what), "'%s' ~ '%s': %d, fnmatch %d",
				 pats[i], names[j], got, want);
			if (got != want)
				fprintf(stderr, "mismatch %s\n", what);
			CU_ASSERT_EQUAL(got, want);
		}
}

static void
test_cases(void)
{
	CU_ASSERT_TRUE(str_glob("AWS_*", "AWS_SECRET_ACCESS_KEY"));
	CU_ASSERT_FALSE(str_glob("AWS_*", "MY_AWS_KEY"));
	CU_ASSERT_TRUE(str_glob("*SECRET*", "AWS_SECRET_ACCESS_KEY"));
	CU_ASSERT_FALSE(str_glob("*_TOKEN", "TOKENS"));
	CU_ASSERT_FALSE(str_glob("a*", "A"));       /* case kept */
	CU_ASSERT_TRUE(str_glob("\\*", "*"));       /* quoted */
	CU_ASSERT_FALSE(str_glob("\\*", "x"));
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "against fnmatch(3) on a table of pairs", test_oracle },
		{ "the patterns the tool uses", test_cases },
		{ NULL, NULL }
	};

	return cu_run("str_glob", NULL, NULL, cases);
}
