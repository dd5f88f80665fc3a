/* SPDX-License-Identifier: MIT */
/* cu_run.c -- one CUnit runner for every suite binary. */
#include "cu_run.h"

#include <CUnit/Basic.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
cu_str_eq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The loader's rule (host/os/posix/trust.c): a directory above a module
 * is owned by root or the caller and not writable by group or other. */
static int
dir_is_safe(const struct stat *st)
{
	return (st->st_uid == 0 || st->st_uid == getuid()) &&
	       (st->st_mode & 022) == 0;
}

static void
say_unsafe(const char *dir, const struct stat *st)
{
	const struct passwd *pw = getpwuid(st->st_uid);
	char uid[32];

	snprintf(uid, sizeof uid, "uid %u", (unsigned)st->st_uid);
	fprintf(stderr, "unit suites: not run: the build tree is below %s "
		"(owner %s, mode %04o), which %s, so the module loader and "
		"the config reader refuse every file below it and every "
		"suite would fail; check the tree out under a directory of "
		"your own, not writable by others (e.g. ~/src)\n",
		dir, pw != NULL ? pw->pw_name : uid,
		(unsigned)(st->st_mode & 07777),
		(st->st_mode & 022) != 0 ? "is writable by group or others"
					 : "belongs to another user");
}

void
cu_require_safe_tree(void)
{
	char dir[PATH_MAX];
	const char *ok = getenv("NOVA_UNSAFE_TREE_OK");
	struct stat st;
	char *slash;

	if (ok != NULL && strcmp(ok, "1") == 0)
		return;
	if (realpath("/proc/self/exe", dir) == NULL)
		return; /* no /proc: the suites say what they find */
	for (;;) {
		slash = strrchr(dir, '/');
		if (slash == NULL)
			return;
		if (slash == dir)
			slash[1] = '\0'; /* "/" itself */
		else
			*slash = '\0';
		if (stat(dir, &st) == 0 && !dir_is_safe(&st)) {
			say_unsafe(dir, &st);
			exit(CU_EXIT_UNSAFE_TREE);
		}
		if (strcmp(dir, "/") == 0)
			return;
	}
}

int
cu_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc clean,
       const struct cu_case *cases)
{
	CU_pSuite s;
	unsigned fails;

	cu_require_safe_tree();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite(suite, init, clean);
	if (s == NULL) {
		CU_cleanup_registry();
		return 2;
	}
	for (const struct cu_case *c = cases; c->name != NULL; c++)
		if (CU_add_test(s, c->name, c->fn) == NULL) {
			CU_cleanup_registry();
			return 2;
		}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures() + CU_get_number_of_suites_failed() +
		CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}

int
cu_argv(char **argv, int max, va_list ap)
{
	int argc = 0;

	while (argc < max && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	argv[argc] = NULL;
	return argc;
}
