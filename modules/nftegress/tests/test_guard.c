/* SPDX-License-Identifier: MIT */
/* test_guard.c -- nftegress refuses before anything reaches netlink: a run
 * id that is not a bare identifier, and a plan whose structure the host's
 * auditor would refuse (a hook it cannot enforce, a rule outside a chain).
 * The module never trusts the host to have checked.  Runs in a private
 * network namespace when it can (root), so a regression that does send
 * touches no real table. */
#include <CUnit/Basic.h>
#include <sched.h>
#include <string.h>

#include "common/cu_run.h"
#include "ns_backend.h"

extern const struct ns_backend_ops ns_backend_v1;

static char last_reason[64];
static int refusals;

static void
fh_note(void *cookie, const char *text)
{
	(void)cookie;
	(void)text;
}

static void
fh_refuse(void *cookie, const char *reason, const char *text)
{
	(void)cookie;
	(void)text;
	refusals++;
	snprintf(last_reason, sizeof(last_reason), "%s", reason);
}

static void
fh_text(void *cookie, const char *line)
{
	(void)cookie;
	(void)line;
}

static const char *
fh_option(void *cookie, const char *key)
{
	(void)cookie;
	(void)key;
	return NULL;
}

static const struct ns_host fh = { .cookie = NULL, .note = fh_note,
	.refuse = fh_refuse, .text = fh_text, .option = fh_option };

static void
reset(void)
{
	refusals = 0;
	last_reason[0] = '\0';
}

static const char *const bad_runs[] = { "", "../j1", "j1; flush ruleset",
	"j1 x", "a23456789012345678901234567890123" /* 33 */, NULL };

static void
test_bad_run_ids_refused(void)
{
	const struct ns_egress_ops *e = ns_backend_v1.egress;

	for (size_t i = 0; bad_runs[i]; i++) {
		reset();
		CU_ASSERT_EQUAL(e->drop(&fh, bad_runs[i]), NS_E_REFUSED);
		CU_ASSERT_STRING_EQUAL(last_reason, "no_name");
		reset();
		CU_ASSERT_EQUAL(e->read_live(&fh, bad_runs[i]), NS_E_REFUSED);
		CU_ASSERT_STRING_EQUAL(last_reason, "no_name");
		reset();
		CU_ASSERT_EQUAL(e->apply(&fh, bad_runs[i], "", 0), NS_E_REFUSED);
		CU_ASSERT_STRING_EQUAL(last_reason, "no_name");
	}
}

#define T "table inet nova_egress_g1 {\n"
#define C(h) "\tchain " h " {\n\t\ttype filter hook " h \
	" priority filter; policy accept;\n"
#define R "\t\tmeta skuid 1 ip daddr 169.254.169.254 drop\n" \
	"\t\tmeta skuid 1 drop\n"

static const char *const bad_plans[] = {
	/* a hook the module cannot enforce: never silently an input chain */
	T C("prerouting") R "\t}\n}\n",
	/* a rule outside any chain (after the chain closed) */
	T C("output") R "\t}\n\t\tmeta skuid 1 accept\n}\n",
	/* a rule directly in the table */
	T "\t\tmeta skuid 1 accept\n" C("output") R "\t}\n}\n",
	/* a chain inside a chain */
	T C("output") "\tchain forward {\n" R "\t}\n\t}\n}\n",
	/* two tables */
	T C("output") R "\t}\n}\n" T C("output") R "\t}\n}\n",
	NULL,
};

static void
test_bad_plan_structure_refused(void)
{
	const struct ns_egress_ops *e = ns_backend_v1.egress;

	for (size_t i = 0; bad_plans[i]; i++) {
		reset();
		CU_ASSERT_EQUAL(e->apply(&fh, "g1", bad_plans[i],
					 strlen(bad_plans[i])), NS_E_REFUSED);
		if (strcmp(last_reason, "bad_plan") != 0)
			fprintf(stderr, "\n  plan %zu: reason %s\n", i,
				last_reason);
		CU_ASSERT_STRING_EQUAL(last_reason, "bad_plan");
		e->drop(&fh, "g1"); /* a regression must leave nothing */
	}
}

static int
suite_init(void)
{
	(void)unshare(CLONE_NEWNET); /* root: a throw-away namespace */
	return 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "bad run ids never reach netlink", test_bad_run_ids_refused },
		{ "plan structure checked by the module", test_bad_plan_structure_refused },
		{ NULL, NULL },
	};

	return cu_run("nftegress guard", suite_init, NULL, cases);
}
