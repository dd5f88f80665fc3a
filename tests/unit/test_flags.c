/* SPDX-License-Identifier: MIT */
/* test_flags.c -- the flag engine itself (host/base/flags.c), on a table of
 * its own: each kind, "--", the =value forms, single dashes, unknown flags
 * with the list and the nearest, missing and repeated values, flags of
 * another verb (collected, refused, or unknown), the value check hook, and
 * the help words. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"

#define V_ONE 0x1u
#define V_TWO 0x2u

struct targs {
	int on;
	const char *val;
	struct strv list;
	const char *other; /* V_TWO's */
	struct strv argv;
	struct strv others;
	int saw;
};

#define T(m) offsetof(struct targs, m)

static const struct flagdef tflags[] = {
	{ "on", FK_SWITCH, V_ONE, 0, NULL, T(on), "a switch" },
	{ "val", FK_VALUE, V_ONE, 0, NULL, T(val), "a `value`" },
	{ "list", FK_LIST, V_ONE, 0, NULL, T(list), "a `word` (repeatable)" },
	{ "other", FK_VALUE, V_TWO, 0, "two", T(other), "two's `value`" },
};

static struct flagspec
spec(unsigned opts)
{
	struct flagspec s = {
		.defs = tflags, .ndefs = sizeof(tflags) / sizeof(tflags[0]),
		.verb = V_ONE, .verbname = "one", .remedy = "help one",
		.list_lead = NULL, .near = FN_EDIT, .single = FS_ALL,
		.foreign = FF_COLLECT, .tok_unknown = "bad_flag",
		.tok_positional = "no_command", .tok_value = "no_value",
		.opts = opts, .remedy_on = FR_UNKNOWN | FR_POSITIONAL | FR_BOOL |
		FR_FOREIGN, .argv_off = T(argv), .saw_off = T(saw),
		.others_off = T(others),
	};

	return s;
}

struct run {
	struct targs a;
	struct refusals r;
	int rc;
};

static void
parse(const struct flagspec *s, struct run *p, ...)
{
	char *argv[32];
	int argc;
	va_list ap;

	memset(p, 0, sizeof(*p));
	va_start(ap, p);
	argc = cu_argv(argv, 31, ap);
	va_end(ap);
	p->rc = flags_parse(s, argc, argv, &p->a, &p->r);
}

static void
done(struct run *p)
{
	strv_free(&p->a.list);
	strv_free(&p->a.argv);
	strv_free(&p->a.others);
	refusals_free(&p->r);
}

/* r's refusal i is tok: text */
static void
is(const struct run *p, size_t i, const char *tok, const char *text)
{
	CU_ASSERT_FATAL(p->r.n > i);
	CU_ASSERT_STRING_EQUAL(p->r.v[i].reason, tok);
	CU_ASSERT_STRING_EQUAL(p->r.v[i].text, text);
}

static void
test_kinds(void)
{
	struct flagspec s = spec(FO_DASHDASH);
	struct run p;

	parse(&s, &p, "--on", "--val", "a", "--list", "x", "-list=y",
	      "--val=b", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.r.n, 0);
	CU_ASSERT_EQUAL(p.a.on, 1);
	CU_ASSERT_STRING_EQUAL(p.a.val, "b"); /* the last one wins */
	CU_ASSERT_EQUAL_FATAL(p.a.list.n, 2);
	CU_ASSERT_STRING_EQUAL(p.a.list.v[0], "x");
	CU_ASSERT_STRING_EQUAL(p.a.list.v[1], "y");
	CU_ASSERT_EQUAL(p.a.saw, 0);
	done(&p);

	parse(&s, &p, "--on=false", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.on, 0);
	done(&p);
	parse(&s, &p, "-on=T", NULL);
	CU_ASSERT_EQUAL(p.a.on, 1);
	done(&p);
	parse(&s, &p, "--on=maybe", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.a.on, 0);
	is(&p, 0, "no_value", "--on wants true or false, got maybe; run: "
	   "help one");
	done(&p);

	s.opts |= FO_LAX_BOOL;
	parse(&s, &p, "--on=maybe", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.on, 0);
	done(&p);
}

static void
test_dashdash(void)
{
	struct flagspec s = spec(FO_DASHDASH);
	struct run p;

	parse(&s, &p, "--on", "--", "cmd", "--val", "--", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_EQUAL(p.a.saw, 1);
	CU_ASSERT_PTR_NULL(p.a.val);
	CU_ASSERT_EQUAL_FATAL(p.a.argv.n, 3);
	CU_ASSERT_STRING_EQUAL(p.a.argv.v[0], "cmd");
	CU_ASSERT_STRING_EQUAL(p.a.argv.v[2], "--");
	done(&p);

	/* a value may be "--" unless FO_VALUE_NOT_DD */
	parse(&s, &p, "--val", "--", "x", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_STRING_EQUAL(p.a.val, "--");
	CU_ASSERT_EQUAL(p.a.saw, 0);
	is(&p, 0, "no_command", "unexpected argument x; run: help one");
	done(&p);
	s.opts |= FO_VALUE_NOT_DD;
	parse(&s, &p, "--val", "--", "x", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.a.saw, 1);
	CU_ASSERT_EQUAL(p.r.n, 1);
	is(&p, 0, "no_value", "--val wants a value");
	done(&p);

	/* without FO_DASHDASH "--" is an unknown flag */
	s = spec(0);
	parse(&s, &p, "--", "x", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.a.saw, 0);
	is(&p, 0, "bad_flag", "unknown flag --; run: help one");
	is(&p, 1, "no_command", "unexpected argument x; run: help one");
	done(&p);
}

static void
test_missing_and_repeated(void)
{
	struct flagspec s = spec(0);
	struct run p;

	parse(&s, &p, "--list", "a", "--val", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.r.n, 1);
	is(&p, 0, "no_value", "--val wants a value");
	done(&p);

	s.opts = FO_ONCE;
	parse(&s, &p, "--val", "a", "--val=b", "--list", "x", "--list", "x",
	      NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.r.n, 1);
	CU_ASSERT_STRING_EQUAL(p.a.val, "a");
	CU_ASSERT_EQUAL(p.a.list.n, 2);
	is(&p, 0, "bad_flag", "--val is given twice (a, then b); name it once");
	done(&p);
}

static void
test_unknown(void)
{
	struct flagspec s = spec(0);
	struct run p;

	parse(&s, &p, "--vla=1", "--zzz", "--lis", "y", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_EQUAL(p.r.n, 4);
	is(&p, 0, "bad_flag", "unknown flag --vla; did you mean --val?; run: "
	   "help one");
	is(&p, 1, "bad_flag", "unknown flag --zzz; run: help one");
	is(&p, 2, "bad_flag", "unknown flag --lis; did you mean --list?; run: "
	   "help one");
	is(&p, 3, "no_command", "unexpected argument y; run: help one");
	done(&p);

	/* its value goes with it, the list and the long form are shown */
	s.opts = FO_SKIP_VALUE | FO_SHOW_LONG;
	s.list_lead = "the flags of one are";
	parse(&s, &p, "-lis", "y", "--zzz", "-x", NULL);
	CU_ASSERT_EQUAL(p.r.n, 3);
	is(&p, 0, "bad_flag", "unknown flag --lis; the flags of one are --on, "
	   "--val, --list; did you mean --list?; run: help one");
	is(&p, 1, "bad_flag", "unknown flag --zzz; the flags of one are --on, "
	   "--val, --list; run: help one");
	is(&p, 2, "bad_flag", "unknown flag --x; the flags of one are --on, "
	   "--val, --list; run: help one");
	done(&p);

	/* FN_EDIT_PREFIX: a prefix of 3 or more; FN_FIRST: always */
	s = spec(0);
	s.near = FN_EDIT_PREFIX;
	CU_ASSERT_PTR_NULL(flags_nearest(&s, "lixxxx"));
	s.near = FN_EDIT;
	CU_ASSERT_PTR_NULL(flags_nearest(&s, "li"));
	s.near = FN_FIRST;
	CU_ASSERT_STRING_EQUAL(flags_nearest(&s, "qqqqqq"), "on");
	s.near = FN_NONE;
	CU_ASSERT_PTR_NULL(flags_nearest(&s, "va"));
	CU_ASSERT_EQUAL(flags_distance("val", "vla"), 2);
	CU_ASSERT_EQUAL(flags_distance("list", "lis"), 1);
}

static void
test_single_dash_and_eq(void)
{
	struct flagspec s = spec(FO_DASHDASH);
	struct run p;

	s.single = FS_SWITCH;
	parse(&s, &p, "-on", "-val", "x", NULL);
	CU_ASSERT_EQUAL(p.a.on, 1);
	CU_ASSERT_PTR_NULL(p.a.val);
	is(&p, 0, "bad_flag", "unknown flag -val; did you mean --val?; run: "
	   "help one");
	done(&p);

	s.single = FS_NONE;
	s.near = FN_NONE;
	s.opts = FO_NO_EQ | FO_LONE_DASH;
	parse(&s, &p, "-on", "--on=1", "-", "--on", NULL);
	CU_ASSERT_EQUAL(p.a.on, 1);
	CU_ASSERT_EQUAL(p.r.n, 3);
	is(&p, 0, "bad_flag", "unknown flag -on; run: help one");
	is(&p, 1, "bad_flag", "unknown flag --on=1; run: help one");
	is(&p, 2, "bad_flag", "unknown flag -; run: help one");
	done(&p);

	/* a positional word is cut at word_max */
	s = spec(0);
	s.word_max = 3;
	s.remedy_on = 0;
	parse(&s, &p, "abcdef", NULL);
	is(&p, 0, "no_command", "unexpected argument abc");
	done(&p);
}

static void
test_foreign(void)
{
	struct flagspec s = spec(0);
	struct run p;

	parse(&s, &p, "--other", "x", "--other=y", NULL);
	CU_ASSERT_EQUAL(p.rc, 0);
	CU_ASSERT_PTR_NULL(p.a.other);
	CU_ASSERT_EQUAL_FATAL(p.a.others.n, 1);
	CU_ASSERT_STRING_EQUAL(p.a.others.v[0], "--other");
	CU_ASSERT_EQUAL(flags_refuse_others(&s, &p.a.others, "tok", &p.r), 0);
	is(&p, 0, "tok", "--other is not a flag of one; it is two's; run: "
	   "help one");
	done(&p);

	s.foreign = FF_REFUSE;
	parse(&s, &p, "--other", "x", "--on", NULL);
	CU_ASSERT_EQUAL(p.a.on, 1);
	CU_ASSERT_EQUAL(p.r.n, 1);
	is(&p, 0, "bad_flag", "--other is not a flag of one; it is two's; "
	   "run: help one");
	done(&p);

	s.foreign = FF_UNKNOWN;
	s.opts = FO_SKIP_VALUE;
	s.list_lead = "the flags are";
	parse(&s, &p, "--other", "x", NULL);
	CU_ASSERT_EQUAL(p.r.n, 1);
	is(&p, 0, "bad_flag", "--other is not a flag of one; the flags are "
	   "--on, --val, --list; run: help one");
	done(&p);
}

static int
no_bad(const struct flagspec *s, const struct flagdef *f, const char *v,
       struct refusals *r)
{
	(void)s;
	if (strcmp(v, "bad") != 0)
		return 0;
	return refusals_add(r, "bad_value", "--%s is bad", f->name) < 0 ? -1 :
	    1;
}

static void
test_check_hook(void)
{
	struct flagspec s = spec(0);
	struct run p;

	s.check = no_bad;
	parse(&s, &p, "--val", "bad", "--list=bad", "--list=ok", NULL);
	CU_ASSERT_EQUAL(p.rc, 1);
	CU_ASSERT_PTR_NULL(p.a.val);
	CU_ASSERT_EQUAL_FATAL(p.a.list.n, 1);
	CU_ASSERT_STRING_EQUAL(p.a.list.v[0], "ok");
	is(&p, 0, "bad_value", "--val is bad");
	is(&p, 1, "bad_value", "--list is bad");
	done(&p);
}

static void
test_help_words(void)
{
	char *a[] = { "x", "--", "-h", NULL };
	char *b[] = { "x", "help", NULL };
	char *c[] = { "help", "x", NULL };
	char *d[] = { "--h", NULL };

	CU_ASSERT_TRUE(flags_is_help("-help"));
	CU_ASSERT_FALSE(flags_is_help("help"));
	CU_ASSERT_FALSE(flags_wants_help(3, a));
	CU_ASSERT_TRUE(flags_help(3, a, FH_PAST_DD));
	CU_ASSERT_FALSE(flags_wants_help(2, b));
	CU_ASSERT_TRUE(flags_help(2, b, FH_WORD));
	CU_ASSERT_FALSE(flags_help(2, b, FH_WORD_FIRST));
	CU_ASSERT_TRUE(flags_help(2, c, FH_WORD_FIRST));
	CU_ASSERT_TRUE(flags_wants_help(1, d));
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "each kind, =value, booleans", test_kinds },
		{ "-- ends the flags, or is a value, or unknown",
		  test_dashdash },
		{ "missing and repeated values", test_missing_and_repeated },
		{ "unknown flags: nearest, list, value taken along",
		  test_unknown },
		{ "single dashes, no =, cut words", test_single_dash_and_eq },
		{ "another verb's flags", test_foreign },
		{ "the value check", test_check_hook },
		{ "help words", test_help_words },
		{ NULL, NULL }
	};

	return cu_run("flags", NULL, NULL, cases);
}
