/* SPDX-License-Identifier: MIT */
/* test_args.c -- the flag table and parser (host/wall/args.c): every form of
 * every kind, argv order of refusals, missing --, other verbs' flags,
 * unknown flags with the list and the nearest match, Go-style booleans. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wall/args.h"

struct run {
	struct args a;
	struct refusals r;
	int rc;
};

static void
parse(unsigned verb, struct run *p, ...)
{
	char *argv[32];
	int argc;
	va_list ap;

	memset(p, 0, sizeof(*p));
	va_start(ap, p);
	argc = cu_argv(argv, 31, ap);
	va_end(ap);
	p->rc = args_parse(verb, argc, argv, &p->a, &p->r);
}

static void
done(struct run *p)
{
	args_free(&p->a);
	refusals_free(&p->r);
}

static void
test_bare_ok(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "--read", "/a", "--read=/b", "--read-noexec",
	      "/c", "--write", "/w", "--net-deny", "--cwd", "/w/x", "--tmp",
	      "/w/t", "--name", "n", "--acl", "tool", "--gpu", "none",
	      "--net-allow", "localhost:1", "--", "cmd", "--read", "x", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.reads.n, 2);
	CU_ASSERT_STRING_EQUAL(p.a.reads.v[1], "/b");
	CU_ASSERT_STRING_EQUAL(p.a.reads_noexec.v[0], "/c");
	CU_ASSERT_STRING_EQUAL(p.a.writes.v[0], "/w");
	CU_ASSERT_EQUAL(p.a.net_deny, 1);
	CU_ASSERT_STRING_EQUAL(p.a.cwd, "/w/x");
	CU_ASSERT_STRING_EQUAL(p.a.tmp, "/w/t");
	CU_ASSERT_STRING_EQUAL(p.a.acl, "tool");
	CU_ASSERT_STRING_EQUAL(p.a.net_allow.v[0], "localhost:1");
	CU_ASSERT_EQUAL(p.a.saw_dashdash, 1);
	/* everything after -- is the command, verbatim */
	CU_ASSERT_EQUAL(p.a.argv.n, 3);
	CU_ASSERT_STRING_EQUAL(p.a.argv.v[1], "--read");
	done(&p);
}

static void
test_bool_forms(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "--write", "/w", "--net-deny=false",
	      "-net-listen", "--", "c", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.net_deny, 0);
	CU_ASSERT_EQUAL(p.a.net_listen, 1);
	done(&p);
	parse(ARGV_BARE, &p, "--write", "/w", "--net-deny=1", "-net-deny=F",
	      "--net-listen=TRUE", "--", "c", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.net_deny, 0);
	CU_ASSERT_EQUAL(p.a.net_listen, 1);
	done(&p);
	parse(ARGV_BARE, &p, "--write", "/w", "--net-deny=maybe", "--", "c",
	      NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	/* the caller's line with the switch's value as its form */
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "--net-deny wants true or "
			       "false, got maybe; run: nova-sandbox --write /w "
			       "'--net-deny=<true|false>' -- c");
	done(&p);
	parse(ARGV_POLICY, &p, "--write", "/w", "--json=yes", NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "--json wants true or "
			       "false, got yes; run: nova-sandbox policy "
			       "--write /w '--json=<true|false>'");
	done(&p);
}

static void
test_single_dash_value_flag_unknown(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "-write", "/w", "--", "c", NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].reason, "bad_flag");
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[0].text, "unknown flag -write"));
	done(&p);
}

static void
test_unknown_bare(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "--wirte=/w", "--bogus", "val", "--", "c",
	      NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 2);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].reason, "bad_flag");
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "unknown flag --wirte; the "
	    "flags are --read, --read-noexec, --write, --net-deny, "
	    "--net-listen, --explain, --net-allow, --net-allow-file, --cwd, --tmp, "
	    "--name, --acl, "
	    "--env-clear, --env, --env-deny, --toolchain, --protect, "
	    "--unprotect, --gpu, "
	    "--status-fd, --secret, --max, --json; did you mean --write?; run: "
	    "nova-sandbox help");
	/* --bogus consumed "val" as its value: one refusal, not two */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[1].text, "unknown flag --bogus;"));
	CU_ASSERT_PTR_NULL(strstr(p.r.v[1].text, "did you mean"));
	done(&p);
}

static void
test_order_missing_dashdash_then_foreign(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "--json", "--max", "3", "--secret", "/s",
	      "word", "--write", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 6);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "unexpected argument word; "
			       "run: nova-sandbox help");
	/* the missing value in place, as the help's `dir` */
	CU_ASSERT_STRING_EQUAL(p.r.v[1].text, "--write wants a value; run: "
			       "nova-sandbox --json --max 3 --secret /s word "
			       "--write '<dir>'");
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[2].text, "no -- before"));
	/* fixed order secret, max, json whatever the argv order */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[3].text, "--secret is not a flag "
				      "of the bare form; it is probe's"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[4].text, "--max is not a flag of "
				      "the bare form"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[5].text, "--json is not a flag "
				      "of the bare form; it is check, policy "
				      "and probe's"));
	for (size_t i = 0; i < p.r.n; i++)
		CU_ASSERT_STRING_EQUAL(p.r.v[i].reason, "no_command");
	done(&p);
}

static void
test_acl_and_max_values(void)
{
	struct run p;

	parse(ARGV_BARE, &p, "--write", "/w", "--acl", "bogus", "--", "c",
	      NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "--acl wants tool or caller, "
			       "got bogus; run: nova-sandbox --write /w --acl "
			       "'<tool|caller>' -- c");
	done(&p);
	parse(ARGV_PROBE, &p, "--write", "/w", "--max", "-1", NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].reason, "check");
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "--max wants a non-negative "
			       "integer, got -1; run: nova-sandbox probe "
			       "--write /w --max '<n>'");
	done(&p);
	parse(ARGV_PROBE, &p, "--write", "/w", "--max", "7", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_STRING_EQUAL(p.a.max, "7");
	done(&p);
}

static void
test_probe_and_policy_tokens(void)
{
	struct run p;

	parse(ARGV_PROBE, &p, "--bogus", NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].reason, "check");
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "unknown flag --bogus; run: "
			       "nova-sandbox help probe");
	done(&p);
	parse(ARGV_PROBE, &p, "--cwd", "/x", "--write", "/w", "--acl", "tool",
	      NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[0].text,
				      "--cwd is not a flag of probe"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.r.v[1].text,
				      "--acl is not a flag of probe"));
	done(&p);
	parse(ARGV_POLICY, &p, "--x", NULL);
	CU_ASSERT_EQUAL_FATAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.r.v[0].reason, "no_command");
	CU_ASSERT_STRING_EQUAL(p.r.v[0].text, "unknown flag --x; run: "
			       "nova-sandbox help policy");
	done(&p);
	/* policy accepts the flags of other verbs, for a NOTE */
	parse(ARGV_POLICY, &p, "--write", "/w", "--secret", "/s", "--acl",
	      "x", "--max", "1", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL_FATAL(p.a.others.n, 3);
	CU_ASSERT_STRING_EQUAL(p.a.others.v[0], "--secret");
	CU_ASSERT_STRING_EQUAL(p.a.others.v[1], "--acl");
	done(&p);
}

static void
test_nearest(void)
{
	CU_ASSERT_STRING_EQUAL(args_nearest(ARGV_BARE, "reed"), "read");
	CU_ASSERT_STRING_EQUAL(args_nearest(ARGV_BARE, "net-dney"),
			       "net-deny");
	CU_ASSERT_STRING_EQUAL(args_nearest(ARGV_BARE, "read-noexe"),
			       "read-noexec");
	CU_ASSERT_STRING_EQUAL(args_nearest(ARGV_BARE, "net"), "net-deny");
	CU_ASSERT_PTR_NULL(args_nearest(ARGV_BARE, "bogus"));
	CU_ASSERT_PTR_NULL(args_nearest(ARGV_BARE, "x"));
	/* probe does not list --cwd */
	CU_ASSERT_PTR_NULL(args_nearest(ARGV_PROBE, "cwd"));
}

static void
test_help_words(void)
{
	char *a1[] = { "--write", "/w", "-h", NULL };
	char *a2[] = { "--write", "/w", "--", "x", "--help", NULL };

	CU_ASSERT_TRUE(flags_is_help("-h"));
	CU_ASSERT_TRUE(flags_is_help("--help"));
	CU_ASSERT_TRUE(flags_is_help("-help"));
	CU_ASSERT_TRUE(flags_is_help("--h"));
	CU_ASSERT_FALSE(flags_is_help("help"));
	CU_ASSERT_TRUE(flags_wants_help(3, a1));
	CU_ASSERT_FALSE(flags_wants_help(5, a2)); /* after --: the command's */
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "bare form, every kind", test_bare_ok },
		{ "Go-style boolean forms", test_bool_forms },
		{ "-value-flag is unknown",
		  test_single_dash_value_flag_unknown },
		{ "unknown flag: list, nearest, value eaten",
		  test_unknown_bare },
		{ "argv order, then --, then other verbs' flags",
		  test_order_missing_dashdash_then_foreign },
		{ "--acl and --max values", test_acl_and_max_values },
		{ "probe and policy tokens", test_probe_and_policy_tokens },
		{ "nearest match", test_nearest },
		{ "help words", test_help_words },
		{ NULL, NULL }
	};

	return cu_run("args", NULL, NULL, cases);
}
