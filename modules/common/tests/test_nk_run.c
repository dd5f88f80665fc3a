/* SPDX-License-Identifier: MIT */
/* test_nk_run.c -- the module kit's helper runner (modules/common/nk_run.h)
 * against /bin/sh: exit codes, what each stream keeps (the first bytes or
 * the last, merged), the deadline (a helper that closes its output and
 * keeps running is killed too), and nk_flatten. */
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "common/cu_run.h"
#include "common/nk_run.h"

static char out_b[64], err_b[8], why[128];

/* sh -c script, with stdout into out_b and stderr into err_b. */
static int
sh(const char *script, int merge, int err_tail, unsigned ms, int *status)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct nk_exec x = { argv, NULL, -1, merge, 1, ms };
	struct nk_keep out = NK_KEEP(out_b, 0), err = NK_KEEP(err_b, err_tail);

	memset(out_b, 0, sizeof(out_b));
	memset(err_b, 0, sizeof(err_b));
	why[0] = '\0';
	return nk_exec(&x, &out, &err, status, why, sizeof(why));
}

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
test_exit_and_streams(void)
{
	int st = 0;

	CU_ASSERT_EQUAL(sh("printf abc; printf xyz >&2; exit 3", 0, 0, 5000,
			   &st), 0);
	CU_ASSERT_EQUAL(st, 3);
	CU_ASSERT_STRING_EQUAL(out_b, "abc");
	CU_ASSERT_STRING_EQUAL(err_b, "xyz");
	/* merged: stderr into out */
	CU_ASSERT_EQUAL(sh("printf a; printf b >&2; printf c", 1, 0, 5000, &st),
			0);
	CU_ASSERT_STRING_EQUAL(out_b, "abc");
	CU_ASSERT_STRING_EQUAL(err_b, "");
}

static void
test_keep_first_or_last(void)
{
	int st = 0;

	/* err_b holds 7 bytes: the first ones, or the last ones */
	CU_ASSERT_EQUAL(sh("printf 0123456789ABC >&2", 0, 0, 5000, &st), 0);
	CU_ASSERT_STRING_EQUAL(err_b, "0123456");
	CU_ASSERT_EQUAL(sh("printf 0123 >&2; sleep 0.1; printf 456789ABC >&2",
			   0, 1, 5000, &st), 0);
	CU_ASSERT_STRING_EQUAL(err_b, "6789ABC");
	CU_ASSERT_EQUAL(sh("printf 0123456789ABC >&2", 0, 1, 5000, &st), 0);
	CU_ASSERT_STRING_EQUAL(err_b, "6789ABC");
}

static void
test_deadline(void)
{
	int st = 0;
	double t0 = now_s();

	CU_ASSERT_EQUAL(sh("sleep 10", 0, 0, 300, &st), NK_LATE);
	CU_ASSERT(now_s() - t0 < 5.0);
	/* its output closed, still running: the wait has the deadline too */
	t0 = now_s();
	CU_ASSERT_EQUAL(sh("exec >&- 2>&-; sleep 10", 0, 0, 300, &st),
			NK_LATE);
	CU_ASSERT(now_s() - t0 < 5.0);
	CU_ASSERT_EQUAL(st, -1);
}

static void
test_signal_and_missing(void)
{
	int st = 0;

	CU_ASSERT_EQUAL(sh("kill -TERM $$", 0, 0, 5000, &st), NK_FAILED);
	CU_ASSERT_STRING_EQUAL(why, "killed by signal 15");
	CU_ASSERT_EQUAL(sh("exec /nonexistent/tool", 0, 0, 5000, &st), 0);
	CU_ASSERT_EQUAL(st, 127);
}

static void
test_flatten(void)
{
	char s[] = "a\nb\tc\r\n  ";

	nk_flatten(s);
	CU_ASSERT_STRING_EQUAL(s, "a b c");
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "exit code, stdout and stderr, merged", test_exit_and_streams },
		{ "a stream keeps its first or its last bytes",
		  test_keep_first_or_last },
		{ "the deadline kills, the wait included", test_deadline },
		{ "a signal, a missing program", test_signal_and_missing },
		{ "nk_flatten", test_flatten },
		{ NULL, NULL }
	};

	return cu_run("nk_run", NULL, NULL, cases);
}
