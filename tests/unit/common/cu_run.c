/* cu_run.c -- one CUnit runner for every suite binary. */
#include "cu_run.h"

#include <CUnit/Basic.h>

int
cu_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc clean,
       const struct cu_case *cases)
{
	CU_pSuite s;
	unsigned fails;

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
