/* SPDX-License-Identifier: MIT */
/* toolchain_found.c -- freeing what discovery found (toolchain.h), apart
 * from discovery (toolchain.c) so the unit suites can build a result. */
#include "policy/toolchain.h"

#include <stdlib.h>

void
toolchain_found_free(struct toolchain_found *f)
{
	strv_free(&f->roots);
	strv_free(&f->covered);
	strv_free(&f->notes);
	strv_free(&f->skipped_path);
	strv_free(&f->absent);
	free(f->tool);
	f->tool = NULL;
}
