/* SPDX-License-Identifier: MIT */
/* test_remedy.c -- the one builder of paste-able remedies
 * (host/base/remedy.c): each fix, the forms a flag is typed in, the
 * masked --env VALUE, and that the line pastes back in sh as the same
 * words (the quoting is the builder's, not trusted). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/remedy.h"

static char *
line_of(const char *verb, char *const *args, const struct cmdfix *f)
{
	struct cmdline c = { verb, args, 0 };
	struct sbuf s = {0};

	while (args != NULL && args[c.n] != NULL)
		c.n++;
	if (remedy_cmdline(&s, &c, f) != 0) {
		sbuf_free(&s);
		return NULL;
	}
	return s.s;
}

struct fixcase {
	const char *verb;
	const char *args[12];
	struct cmdfix fix;
	const char *want;
};

static const struct fixcase fixes[] = {
	/* no fix: the line as typed */
	{ NULL, { "--write", "/w", "--", "ls", "-l", NULL },
	  { NULL, NULL, NULL, NULL, 0 },
	  "nova-sandbox --write /w -- ls -l" },
	/* a value replaced, in the "--f v" form */
	{ "run", { "--name", "j", "--size", "8x", "--", "true", NULL },
	  { "--size", "8x", "<n>m", NULL, 0 },
	  "nova-sandbox run --name j --size '<n>m' -- true" },
	/* ... in the "--f=v" form: one word */
	{ "run", { "--size=8x", "--name", "j", "--", "true", NULL },
	  { "--size", "8x", "<n>m", NULL, 0 },
	  "nova-sandbox run '--size=<n>m' --name j -- true" },
	/* the one whose value matches, not the first */
	{ "run", { "--env", "A", "--env", "1B", "--", "true", NULL },
	  { "--env", "1B", NULL, NULL, 0 },
	  "nova-sandbox run --env A -- true" },
	/* left out */
	{ NULL, { "--write", "/w", "--status-fd", "9", "--", "x", NULL },
	  { "--status-fd", NULL, NULL, NULL, 0 },
	  "nova-sandbox --write /w -- x" },
	/* a flag typed last, without its value */
	{ "run", { "--name", "j", "--size", NULL },
	  { "--size", NULL, "<n>m", NULL, FIX_MISSING },
	  "nova-sandbox run --name j --size '<n>m'" },
	/* a flag put first */
	{ "run", { "--size", "1g", "--", "true", NULL },
	  { "--name", NULL, "<name>", "--name", 0 },
	  "nova-sandbox run --name '<name>' --size 1g -- true" },
	/* a --env VALUE is never printed, in both forms; words after -- are
	 * the command's and stay as typed */
	{ NULL, { "--env", "K=s3cret", "--env=T=x y", "--gpu", "x", "--",
		  "env", "--env", "K=v", NULL },
	  { "--gpu", NULL, "none", NULL, 0 },
	  "nova-sandbox --env 'K=<VALUE>' '--env=T=<VALUE>' --gpu none -- "
	  "env --env K=v" },
	/* a word that needs quoting */
	{ NULL, { "--write", "/w x", "--read", "it's", "--", "echo", "$HOME",
		  NULL },
	  { "--read", "it's", NULL, NULL, 0 },
	  "nova-sandbox --write '/w x' -- echo '$HOME'" },
	/* a switch is one word: the word after it is not its value */
	{ NULL, { "--net-deny", "--net-listen", "--write", "/w", "--", "x",
		  NULL },
	  { "--net-listen", NULL, NULL, NULL, FIX_SWITCH },
	  "nova-sandbox --net-deny --write /w -- x" },
	/* no match: the line unchanged */
	{ NULL, { "--write", "/w", "--", "x", NULL },
	  { "--cwd", NULL, NULL, NULL, 0 },
	  "nova-sandbox --write /w -- x" },
};

static void
test_fixes(void)
{
	for (size_t i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++) {
		const struct fixcase *c = &fixes[i];
		char *got = line_of(c->verb, (char *const *)c->args,
				    c->fix.flag || c->fix.add ? &c->fix :
				    NULL);

		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		if (strcmp(got, c->want) != 0)
			fprintf(stderr, "fix #%zu:\n got  %s\n want %s\n", i,
				got, c->want);
		CU_ASSERT_STRING_EQUAL(got, c->want);
		free(got);
	}
}

/* The line pastes in sh as the very words: sh splits it back. */
static void
test_pastes(void)
{
	static const char *const args[] = { "--write", "/w 'q' $x", "--read",
		"a\"b\\c", "--cwd", "`id`", "--", "printf", "%s\\n", "*", NULL };
	struct cmdfix f = { "--cwd", NULL, NULL, NULL, 0 };
	char *got = line_of(NULL, (char *const *)args, &f);
	struct sbuf cmd = {0};
	char buf[512] = {0};
	FILE *p;
	size_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	/* the words after "nova-sandbox", printed by sh one a line */
	CU_ASSERT_EQUAL_FATAL(strncmp(got, "nova-sandbox ", 13), 0);
	CU_ASSERT_EQUAL_FATAL(sbuf_addf(&cmd, "cd / && printf '%%s\\n' %s",
					got + 13), 0);
	p = popen(cmd.s, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	n = fread(buf, 1, sizeof(buf) - 1, p);
	CU_ASSERT_EQUAL(pclose(p), 0);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "--write\n/w 'q' $x\n--read\na\"b\\c\n"
			       "--\nprintf\n%s\\n\n*\n");
	sbuf_free(&cmd);
	free(got);
}

static void
test_refuse(void)
{
	static const char *const args[] = { "--timeout", "soon", "--", "x",
		NULL };
	struct cmdline c = { "run", (char *const *)args, 4 };
	struct cmdfix f = { "--timeout", "soon", "<n>m", NULL, 0 };
	struct refusals r = {0};

	CU_ASSERT_EQUAL(remedy_refuse(&r, REASON_BAD_TIMEOUT, NULL, &c, &f,
				      "--timeout wants %s", "x"), 0);
	CU_ASSERT_EQUAL(remedy_refuse(&r, REASON_BAD_TIMEOUT, NULL, NULL, &f,
				      "no line"), 0);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_STRING_EQUAL(r.v[0].text, "--timeout wants x; run: "
			       "nova-sandbox run --timeout '<n>m' -- x");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.v[0].remedy);
	CU_ASSERT_STRING_EQUAL(r.v[0].remedy, REMEDY_IN_TEXT);
	CU_ASSERT_STRING_EQUAL(r.v[1].text, "no line");
	CU_ASSERT_PTR_NULL(r.v[1].remedy);
	refusals_free(&r);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "fixes: replaced, left out, added, forms, masks", test_fixes },
		{ "the line pastes in sh as the same words", test_pastes },
		{ "remedy_refuse: with and without a line", test_refuse },
		{ NULL, NULL }
	};

	return cu_run("remedy", NULL, NULL, cases);
}
