/* SPDX-License-Identifier: MIT */
/* test_report.c -- netproxy's report lines (np_report.h) through a real
 * pipe: each distinct (host, port, why) once, fail lines the same, notes
 * every time, the table's end said once (then lines repeat, never lost),
 * and a full pipe drops lines without blocking (counted). */
#include <CUnit/Basic.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "np_match.h"
#include "np_report.h"

static int fds[2];

static size_t
drain(char *buf, size_t cap)
{
	ssize_t n = read(fds[0], buf, cap - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

static size_t
lines(const char *s, const char *prefix)
{
	size_t n = 0, k = strlen(prefix);

	for (const char *p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		n += strncmp(p, prefix, k) == 0;
	return n;
}

static void
test_once(void)
{
	static char buf[1 << 16];

	np_report_deny("pypi.org", 80, NP_PORT, NULL);
	np_report_deny("pypi.org", 80, NP_PORT, NULL);
	np_report_deny("pypi.org", 81, NP_PORT, NULL);
	np_report_deny("pypi.org", 80, NP_NOT_ALLOWED, NULL);
	np_report_fail("a.example", 443, "refused");
	np_report_fail("a.example", 443, "refused");
	np_report_note("one");
	np_report_note("one");
	drain(buf, sizeof(buf));
	CU_ASSERT_EQUAL(lines(buf, "deny pypi.org 80 port\n"), 1);
	CU_ASSERT_EQUAL(lines(buf, "deny pypi.org 81 port\n"), 1);
	CU_ASSERT_EQUAL(lines(buf, "deny pypi.org 80 not_allowed\n"), 1);
	CU_ASSERT_EQUAL(lines(buf, "fail a.example 443 refused\n"), 1);
	CU_ASSERT_EQUAL(lines(buf, "note one\n"), 2);
}

static void
test_full_table(void)
{
	static char buf[1 << 16];
	char host[32];
	size_t notes = 0;

	for (int i = 0; i < NP_REPORT_SEEN + 2; i++) {
		snprintf(host, sizeof(host), "h%d.example", i);
		np_report_deny(host, 443, NP_NOT_ALLOWED, NULL);
		if (i % 64 == 0 || i >= NP_REPORT_SEEN - 1) {
			drain(buf, sizeof(buf));
			notes += lines(buf, "note more than 512 distinct");
		}
	}
	CU_ASSERT_EQUAL(notes, 1);
	np_report_deny("h0.example", 443, NP_NOT_ALLOWED, NULL); /* seen */
	np_report_deny("late.example", 443, NP_NOT_ALLOWED, NULL);
	np_report_deny("late.example", 443, NP_NOT_ALLOWED, NULL);
	drain(buf, sizeof(buf));
	CU_ASSERT_EQUAL(lines(buf, "deny h0.example"), 0);
	CU_ASSERT_EQUAL(lines(buf, "deny late.example 443 not_allowed\n"), 2);
}

static void
test_full_pipe(void)
{
	static char buf[1 << 16];
	unsigned long before = np_report_dropped();

	for (int i = 0; i < 4000; i++)
		np_report_note("filling the pipe with a line long enough");
	CU_ASSERT(np_report_dropped() > before); /* and we are still here */
	while (drain(buf, sizeof(buf)) > 0)
		;
}

static int
init(void)
{
	if (pipe(fds) != 0)
		return 1;
	(void)fcntl(fds[0], F_SETFL, O_NONBLOCK);
	np_report_init(fds[1]);
	return 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "each (host, port, why) once", test_once },
		{ "the table's end: said once, lines repeat", test_full_table },
		{ "a full pipe drops, never blocks", test_full_pipe },
		{ NULL, NULL },
	};

	return cu_run("netproxy report", init, NULL, cases);
}
