/* SPDX-License-Identifier: MIT */
/* cu_run.h -- one CUnit runner for every suite binary. */
#ifndef NS_TESTS_CU_RUN_H
#define NS_TESTS_CU_RUN_H

#include <CUnit/CUnit.h>
#include <stdarg.h>

struct cu_case {
	const char *name;
	CU_TestFunc fn;
};

/* The exit status of a suite that did not run because its build tree is
 * one the module loader refuses (cu_require_safe_tree). */
#define CU_EXIT_UNSAFE_TREE 3

/* Refuse to run from a build tree whose directory, or any directory above
 * it, is owned by neither root nor the caller, or is group- or
 * world-writable: the host's loader and config reader refuse every file
 * below such a directory, so each suite would fail in bulk for one reason.
 * Prints ONE line on stderr naming the directory, its owner and mode, why
 * and the remedy, and exits CU_EXIT_UNSAFE_TREE.  NOVA_UNSAFE_TREE_OK=1 in
 * the environment runs the suites anyway (to see the failures).  cu_run
 * calls it first. */
void cu_require_safe_tree(void);

/* Register `cases` (ended by { NULL, NULL }) as the suite `suite` with its
 * init/clean functions (may be NULL), run it verbosely and clean the
 * registry.  Returns the exit status: 0 all passed, 1 a test or the suite
 * set-up failed, 2 CUnit itself could not start.  Exits
 * CU_EXIT_UNSAFE_TREE from an unsafe build tree (cu_require_safe_tree). */
int cu_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc clean,
	   const struct cu_case *cases);

/* CUnit's string assertions strcmp() their arguments: a NULL (a lookup
 * that found nothing, a load that was refused) crashed the whole suite.
 * Here a NULL on either side is a failed assertion. */
int cu_str_eq(const char *a, const char *b);
#undef CU_ASSERT_STRING_EQUAL
#define CU_ASSERT_STRING_EQUAL(actual, expected)                              \
	CU_assertImplementation(cu_str_eq((actual), (expected)), __LINE__,   \
				"CU_ASSERT_STRING_EQUAL(" #actual ","         \
				#expected ")", __FILE__, "", CU_FALSE)
#undef CU_ASSERT_STRING_EQUAL_FATAL
#define CU_ASSERT_STRING_EQUAL_FATAL(actual, expected)                        \
	CU_assertImplementation(cu_str_eq((actual), (expected)), __LINE__,   \
				"CU_ASSERT_STRING_EQUAL_FATAL(" #actual ","   \
				#expected ")", __FILE__, "", CU_TRUE)

/* The words of a NULL-ended variadic list into argv (room for max words
 * and the NULL after them); returns argc.  For suites that parse argv. */
int cu_argv(char **argv, int max, va_list ap);

#endif
