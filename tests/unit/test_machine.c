/* SPDX-License-Identifier: MIT */
/* test_machine.c -- the machine probes (tests/machine/machine.h) the
 * suites ask before a control that depends on the machine: each probe's
 * answer forced both ways through NOVA_MACHINE, a malformed forcing
 * refused whole, and every real probe answering yes or no (with a
 * reason), never an error. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cu_run.h"
#include "machine.h"

static char why[512];

static void
force(const char *v)
{
	if (v == NULL)
		unsetenv("NOVA_MACHINE");
	else
		setenv("NOVA_MACHINE", v, 1);
}

static size_t
nprobes(void)
{
	size_t i = 0;

	while (machine_probe_name(i) != NULL)
		i++;
	return i;
}

static void
test_table(void)
{
	size_t i, j, n = nprobes();

	CU_ASSERT(n >= 10);
	for (i = 0; i < n; i++) {
		const char *a = machine_probe_name(i);

		CU_ASSERT_PTR_NOT_NULL(machine_probe_what(a));
		for (j = i + 1; j < n; j++)
			CU_ASSERT(strcmp(a, machine_probe_name(j)) != 0);
	}
	/* the probes the suites name (tests/escape/attacks.tab, lib.sh) */
	CU_ASSERT_PTR_NOT_NULL(machine_probe_what("i386"));
	CU_ASSERT_PTR_NOT_NULL(machine_probe_what("userns"));
	CU_ASSERT_PTR_NOT_NULL(machine_probe_what("audit"));
	CU_ASSERT_PTR_NULL(machine_probe_what("nosuch"));
}

/* each probe forced yes, then no: the forced answer, whatever the machine */
static void
test_forced_each(void)
{
	char v[64];
	const char *name;
	size_t i;

	for (i = 0; (name = machine_probe_name(i)) != NULL; i++) {
		snprintf(v, sizeof(v), "%s=yes", name);
		force(v);
		CU_ASSERT_EQUAL(machine_has(name, why, sizeof(why)), MACHINE_HAS);
		snprintf(v, sizeof(v), "%s=no", name);
		force(v);
		CU_ASSERT_EQUAL(machine_has(name, why, sizeof(why)), MACHINE_LACKS);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "forced off by NOVA_MACHINE"));
	}
	force(NULL);
}

/* a forcing names only its own probe; the last word for a name wins */
static void
test_forced_scope(void)
{
	force("i386=no,userns=yes,i386=yes");
	CU_ASSERT_EQUAL(machine_has("i386", why, sizeof(why)), MACHINE_HAS);
	CU_ASSERT_EQUAL(machine_has("userns", why, sizeof(why)), MACHINE_HAS);
	force("tiocsti=no");
	CU_ASSERT_NOT_EQUAL(machine_has("map32", why, sizeof(why)), MACHINE_BAD);
	CU_ASSERT_PTR_NULL(strstr(why, "forced"));
	force(NULL);
}

/* a malformed forcing is an error for every question, naming the entry */
static void
test_forced_bad(void)
{
	static const char *const bad[] = {
		"i386=maybe", "nosuch=no", "i386", "=no", "i386=no,,map32=no",
		"i386=no,ipv7=yes", "i386=No", "i386=yes ", " i386=yes",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		force(bad[i]);
		CU_ASSERT_EQUAL(machine_has("tty", why, sizeof(why)), MACHINE_BAD);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "NOVA_MACHINE"));
	}
	force(NULL);
	CU_ASSERT_EQUAL(machine_has("nosuch", why, sizeof(why)), MACHINE_BAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "nosuch"));
	force("");
	CU_ASSERT_NOT_EQUAL(machine_has("tty", why, sizeof(why)), MACHINE_BAD);
	force(NULL);
}

/* unforced, every probe asks the machine: yes, or no with a reason */
static void
test_real(void)
{
	const char *name;
	size_t i;

	force(NULL);
	for (i = 0; (name = machine_probe_name(i)) != NULL; i++) {
		enum machine_answer a = machine_has(name, why, sizeof(why));

		CU_ASSERT(a == MACHINE_HAS || a == MACHINE_LACKS);
		if (a == MACHINE_LACKS) {
			CU_ASSERT(why[0] != '\0');
			CU_ASSERT_PTR_NULL(strstr(why, "forced"));
		}
		printf("\n    %s: %s%s%s", name, a == MACHINE_HAS ? "yes" : "no",
		       a == MACHINE_HAS ? "" : ", ", a == MACHINE_HAS ? "" : why);
	}
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "the probe table", test_table },
		{ "each probe forced yes and no", test_forced_each },
		{ "a forcing names only its own probe", test_forced_scope },
		{ "a malformed forcing is refused", test_forced_bad },
		{ "every real probe answers yes or no", test_real },
		{ NULL, NULL }
	};

	return cu_run("machine probes", NULL, NULL, cases);
}
