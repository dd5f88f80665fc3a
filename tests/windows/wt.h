/* SPDX-License-Identifier: MIT */
/* wt.h -- the Windows suite programs' common results: one line per test
 * ("PASS <name>", "FAIL <name> -- <why>", "SKIP <name> -- <reason>"), the
 * counts, and Wine detection (header-only; each program is its own
 * binary).  A program sets wt_before (may be NULL) and wt_extra (text
 * added to a FAIL line, may be NULL). */
#ifndef NS_TESTS_WINDOWS_WT_H
#define NS_TESTS_WINDOWS_WT_H

#include <windows.h>
#include <stdarg.h>
#include <stdio.h>

static const char *wine; /* wine_get_version(), or NULL on Windows */
static int passed, skipped, failed;
static char why[1024];
static void (*wt_before)(void);
static const char *(*wt_extra)(void);

static void
wt_init(void)
{
	FARPROC wv = GetProcAddress(GetModuleHandleW(L"ntdll.dll"),
				    "wine_get_version");

	if (wv != NULL)
		wine = ((const char *(*)(void))(void *)wv)();
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
}

static int
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return -1;
}

static void
run(const char *name, int (*fn)(void))
{
	why[0] = '\0';
	if (wt_before != NULL)
		wt_before();
	if (fn() == 0) {
		printf("PASS %s\n", name);
		passed++;
	} else {
		printf("FAIL %s -- %s%s\n", name, why,
		       wt_extra != NULL ? wt_extra() : "");
		failed++;
	}
	fflush(stdout);
}

/* A test of what Wine does not implement: skipped under Wine only, the
 * reason named (tests/windows/expected-skips lists every one). */
static void
wine_skip(const char *name, const char *reason, int (*fn)(void))
{
	if (wine != NULL) {
		printf("SKIP %s -- %s (Wine %s)\n", name, reason, wine);
		skipped++;
		fflush(stdout);
		return;
	}
	run(name, fn);
}

static int
wt_done(const char *suite)
{
	printf("%s: %d passed, %d skipped, %d failed\n", suite, passed,
	       skipped, failed);
	return failed == 0 ? 0 : 1;
}

#endif
