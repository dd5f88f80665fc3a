/* SPDX-License-Identifier: MIT */
/* test_worktree.c -- the worktree verb's pure parts (owner/name out of a
 * remote URL, gh's JSON) and base/tool.c (PATH lookup, argv only, the
 * environment given, the deadline). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/tool.h"
#include "verbs/verbs.h"

static void
owner_is(const char *url, const char *want)
{
	char *got = worktree_owner_name(url);

	if (want == NULL) {
		if (got != NULL)
			fprintf(stderr, "\n%s -> %s, want none\n", url, got);
		CU_ASSERT_PTR_NULL(got);
	} else {
		CU_ASSERT_STRING_EQUAL(got, want);
	}
	free(got);
}

static void
test_owner_forms(void)
{
	owner_is("https://github.com/o/n.git", "o/n");
	owner_is("https://github.com/o/n", "o/n");
	owner_is("https://user:pw@ghe.example:8443/org-1/re.po_x/tree", "org-1/re.po_x");
	owner_is("ssh://git@github.com:22/o/n.git", "o/n");
	owner_is("git@github.com:o/n.git", "o/n");
	owner_is("gh:o/n", "o/n");
	owner_is("o/n", "o/n");
}

static void
test_owner_none(void)
{
	owner_is("/srv/git/o/n.git", NULL);
	owner_is("./o/n", NULL);
	owner_is("../o/n", NULL);
	owner_is("file:///srv/o/n.git", NULL);
	owner_is("FILE:///srv/o/n.git", NULL);
	owner_is("C:/repos/o/n", NULL);
	owner_is("c:\\repos\\o\\n", NULL);
	owner_is("", NULL);
	owner_is("https://github.com/solo", NULL);
	owner_is("https://github.com", NULL);
	owner_is("https://github.com//n", NULL);
	owner_is("n", NULL);
	owner_is("https://h/o$(touch x)/n", NULL);
	owner_is("https://h/o/n;rm -rf ~", NULL);
	owner_is("https://h/o/`id`", NULL);
	owner_is("git@h:--upload-pack=x/n", NULL);
	owner_is("https://h/o/-n", NULL);
	owner_is("https://h/o/.n", NULL);
	owner_is("https://h/o\n/n", NULL);
}

static void
pr_is(const char *json, int rc, const char *head, const char *base,
      const char *state)
{
	char *h, *b, *s;

	CU_ASSERT_EQUAL(worktree_parse_pr(json, &h, &b, &s), rc);
	if (rc == 0) {
		if (head) CU_ASSERT_STRING_EQUAL(h, head); else CU_ASSERT_PTR_NULL(h);
		if (base) CU_ASSERT_STRING_EQUAL(b, base); else CU_ASSERT_PTR_NULL(b);
		if (state) CU_ASSERT_STRING_EQUAL(s, state); else CU_ASSERT_PTR_NULL(s);
	} else {
		CU_ASSERT_PTR_NULL(h);
		CU_ASSERT_PTR_NULL(b);
		CU_ASSERT_PTR_NULL(s);
	}
	free(h);
	free(b);
	free(s);
}

/* {"a":[[...1...]]} nested n deep */
static const char *
deep(int n)
{
	static char buf[256];
	int o = snprintf(buf, sizeof(buf), "{\"a\":");

	for (int i = 0; i < n; i++)
		buf[o++] = '[';
	buf[o++] = '1';
	for (int i = 0; i < n; i++)
		buf[o++] = ']';
	buf[o++] = '}';
	buf[o] = '\0';
	return buf;
}

static void
test_pr_json(void)
{
	pr_is("{\"headRefOid\":\"abc\",\"baseRefName\":\"main\",\"state\":\"OPEN\"}\n",
	      0, "abc", "main", "OPEN");
	pr_is(" { \"state\" : \"MERGED\" , \"x\": [1, {\"y\": null}, true, -2.5e3],"
	      " \"baseRefName\": \"r\\/e\\u00e9\\n\" } ", 0, NULL, "r/e\xc3\xa9\n",
	      "MERGED");
	pr_is("{}", 0, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":1}", 0, NULL, NULL, NULL);
	pr_is("", -1, NULL, NULL, NULL);
	pr_is("not json", -1, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":\"abc\"", -1, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":\"abc\"} trailing", -1, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":\"a\\u0000b\"}", -1, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":\"a\x01\"}", -1, NULL, NULL, NULL);
	pr_is("{\"headRefOid\":\"\\ud800\"}", -1, NULL, NULL, NULL);
	pr_is("[\"headRefOid\"]", -1, NULL, NULL, NULL);
	pr_is(deep(20), 0, NULL, NULL, NULL);
	pr_is(deep(40), -1, NULL, NULL, NULL); /* nesting is bounded */
}

static void
test_tool_find(void)
{
	struct tool t;

	CU_ASSERT_EQUAL(tool_find("sh", "relative:/nonexistent::/bin", &t), 0);
	CU_ASSERT_STRING_EQUAL(t.path, "/bin/sh");
	tool_free(&t);
	/* from "/", "bin" would name /bin: a relative entry is never used */
	CU_ASSERT_EQUAL_FATAL(chdir("/"), 0);
	CU_ASSERT_EQUAL(tool_find("sh", "bin:.:", &t), 1);
	CU_ASSERT_EQUAL(tool_find("sh", NULL, &t), 1);
	CU_ASSERT_EQUAL(tool_find("../bin/sh", "/bin", &t), 1);
	CU_ASSERT_EQUAL(tool_find("passwd", "/etc", &t), 1); /* not executable */
	CU_ASSERT_EQUAL(t.fd, -1);
}

static void
test_tool_run(void)
{
	struct tool t;
	struct toolres r;
	char *argv[] = { "sh", "-c", "echo \"$1|$X|$HOME\"; echo err >&2; exit 7",
			 "sh", "a b;$(id)", NULL };
	char *envp[] = { "X=only-this", NULL };

	CU_ASSERT_EQUAL_FATAL(tool_find("sh", "/bin", &t), 0);
	CU_ASSERT_EQUAL(tool_run(&t, -1, argv, envp, 10000, &r), 0);
	CU_ASSERT_EQUAL(r.status, 7);
	CU_ASSERT_EQUAL(r.timed_out, 0);
	CU_ASSERT_STRING_EQUAL(sbuf_str(&r.out), "a b;$(id)|only-this|\n");
	CU_ASSERT_STRING_EQUAL(sbuf_str(&r.err), "err\n");
	toolres_free(&r);
	tool_free(&t);
}

static void
test_tool_deadline(void)
{
	struct tool t;
	struct toolres r;
	/* the child's child holds the pipe: the group is killed, not waited */
	char *argv[] = { "sh", "-c", "sleep 30 & sleep 30", NULL };
	char *envp[] = { "PATH=/bin:/usr/bin", NULL };
	time_t start = time(NULL);

	CU_ASSERT_EQUAL_FATAL(tool_find("sh", "/bin", &t), 0);
	CU_ASSERT_EQUAL(tool_run(&t, -1, argv, envp, 300, &r), 0);
	CU_ASSERT_EQUAL(r.timed_out, 1);
	CU_ASSERT_EQUAL(r.status, 128 + 9);
	CU_ASSERT(time(NULL) - start < 5);
	toolres_free(&r);
	tool_free(&t);
}

static void
test_tool_closed_output(void)
{
	struct tool t;
	struct toolres r;
	/* it closes its output and goes on: the deadline still holds */
	char *argv[] = { "sh", "-c", "exec >&- 2>&-; sleep 30", NULL };
	char *envp[] = { "PATH=/bin:/usr/bin", NULL };
	time_t start = time(NULL);

	CU_ASSERT_EQUAL_FATAL(tool_find("sh", "/bin", &t), 0);
	CU_ASSERT_EQUAL(tool_run(&t, -1, argv, envp, 300, &r), 0);
	CU_ASSERT_EQUAL(r.timed_out, 1);
	CU_ASSERT(time(NULL) - start < 5);
	toolres_free(&r);
	tool_free(&t);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "owner/name from every remote form", test_owner_forms },
		{ "no owner/name: local, short, hostile", test_owner_none },
		{ "gh's JSON: the three fields, nothing else", test_pr_json },
		{ "tool_find: absolute PATH entries only", test_tool_find },
		{ "tool_run: argv only, the environment given", test_tool_run },
		{ "tool_run: the deadline kills the group", test_tool_deadline },
		{ "tool_run: output closed, still running", test_tool_closed_output },
		{ NULL, NULL }
	};

	return cu_run("worktree", NULL, NULL, cases);
}
