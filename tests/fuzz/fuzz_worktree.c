/* SPDX-License-Identifier: MIT */
/* fuzz_worktree.c -- libFuzzer harness for the worktree verb's two
 * parsers of outside text (host/verbs/worktree.c): gh's JSON answer
 * (worktree_parse_pr) and a remote URL (worktree_owner_name).  The input
 * is one text (cut at its first NUL byte) given to both.  The contracts
 * checked: a refused JSON leaves every field NULL; owner/name is two
 * words of letters, digits and "-_.", neither starting with '-' or '.'.
 *
 * Seeds: tests/fuzz/corpus/worktree/<name> (the input as it is).
 * Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "verbs/verbs.h"

static int
word_ok(const char *s, size_t n)
{
	if (n == 0 || s[0] == '-' || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr("-_.", s[i]) != NULL) ||
		    s[i] == '\0')
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size);
	char *h, *b, *s, *on, *slash;

	if (text == NULL)
		return 0;
	if (worktree_parse_pr(text, &h, &b, &s) != 0 &&
	    (h != NULL || b != NULL || s != NULL))
		abort();
	free(h);
	free(b);
	free(s);
	on = worktree_owner_name(text);
	if (on != NULL) {
		slash = strchr(on, '/');
		if (slash == NULL || !word_ok(on, (size_t)(slash - on)) ||
		    !word_ok(slash + 1, strlen(slash + 1)))
			abort();
	}
	free(on);
	free(text);
	return 0;
}
