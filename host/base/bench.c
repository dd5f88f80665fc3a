/* SPDX-License-Identifier: MIT */
/* bench.c -- see bench.h: compiled to nothing outside the bench's build. */
#include "base/bench.h"

#ifdef NS_BENCH_PHASES
#include <stdlib.h>
#include <unistd.h>

void
bench_phase(enum bench_phase p)
{
	const char *v = getenv("NOVA_BENCH_PHASE"); /* layers: ascii getenv */

	if (v != NULL && v[0] == (char)('0' + (int)p) && v[1] == '\0')
		_exit(0);
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int bench_phases_not_built;
#endif
