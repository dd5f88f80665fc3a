/* cu_run.h -- one CUnit runner for every suite binary. */
#ifndef NS_TESTS_CU_RUN_H
#define NS_TESTS_CU_RUN_H

#include <CUnit/CUnit.h>

struct cu_case {
	const char *name;
	CU_TestFunc fn;
};

/* Register `cases` (ended by { NULL, NULL }) as the suite `suite` with its
 * init/clean functions (may be NULL), run it verbosely and clean the
 * registry.  Returns the exit status: 0 all passed, 1 a test or the suite
 * set-up failed, 2 CUnit itself could not start. */
int cu_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc clean,
	   const struct cu_case *cases);

#endif
