/* SPDX-License-Identifier: MIT */
/* test_reasons.c -- the reason tokens of host/base/reasons.h and the table
 * "Reason tokens" of docs/SPEC-SANDBOX.md section 3 are the same list: a
 * token in the code that the spec does not explain fails, and so does a
 * token the spec lists that the code does not have.  The spec is read from
 * $NS_SPEC, else docs/SPEC-SANDBOX.md (the suites run from the checkout). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define NS_REASON_STR(id, tok) tok,
static const char *const code_tokens[] = { NS_REASONS(NS_REASON_STR) };
#undef NS_REASON_STR
#define N_CODE (sizeof(code_tokens) / sizeof(code_tokens[0]))

#define HEADING "### Reason tokens"

static struct strv spec_tokens;

/* One table row "| `tok` | meaning |": push tok. */
static int
row_token(const char *line, struct strv *out)
{
	const char *s, *e;

	if (strncmp(line, "| `", 3) != 0)
		return 0;
	s = line + 3;
	e = strchr(s, '`');
	if (e == NULL || e == s)
		return -1;
	return strv_pushf(out, "%.*s", (int)(e - s), s);
}

static int
read_spec(void)
{
	const char *path = getenv("NS_SPEC");
	char line[1024];
	int in = 0, rc = 0;
	FILE *f;

	f = fopen(path ? path : "docs/SPEC-SANDBOX.md", "r");
	if (f == NULL)
		return -1;
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "#", 1) == 0)
			in = strncmp(line, HEADING, strlen(HEADING)) == 0;
		else if (in)
			rc = row_token(line, &spec_tokens) < 0 ? -1 : 0;
	}
	fclose(f);
	return rc;
}

static int
init(void)
{
	return read_spec() == 0 ? 0 : 1;
}

static int
clean(void)
{
	strv_free(&spec_tokens);
	return 0;
}

static int
in_code(const char *tok)
{
	for (size_t i = 0; i < N_CODE; i++)
		if (strcmp(code_tokens[i], tok) == 0)
			return 1;
	return 0;
}

static void
test_spec_has_table(void)
{
	CU_ASSERT(spec_tokens.n > 0);
}

static void
test_code_in_spec(void)
{
	for (size_t i = 0; i < N_CODE; i++) {
		if (!strv_contains(&spec_tokens, code_tokens[i]))
			fprintf(stderr, "\nreason %s is not in the spec's "
				"table\n", code_tokens[i]);
		CU_ASSERT(strv_contains(&spec_tokens, code_tokens[i]));
	}
}

static void
test_spec_in_code(void)
{
	for (size_t i = 0; i < spec_tokens.n; i++) {
		if (!in_code(spec_tokens.v[i]))
			fprintf(stderr, "\nthe spec's reason %s is not in "
				"base/reasons.h\n", spec_tokens.v[i]);
		CU_ASSERT(in_code(spec_tokens.v[i]));
	}
}

static void
test_each_once(void)
{
	struct strv c = {0};

	for (size_t i = 0; i < N_CODE; i++)
		CU_ASSERT_EQUAL_FATAL(strv_push(&c, code_tokens[i]), 0);
	CU_ASSERT_EQUAL(strv_count_unique(&c), N_CODE);
	strv_free(&c);
	CU_ASSERT_EQUAL(strv_count_unique(&spec_tokens), spec_tokens.n);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "the spec has the table", test_spec_has_table },
		{ "every token of the code is in the spec", test_code_in_spec },
		{ "every token of the spec is in the code", test_spec_in_code },
		{ "each token once, both lists", test_each_once },
		{ NULL, NULL }
	};

	return cu_run("reasons", init, clean, cases);
}
