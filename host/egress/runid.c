/* SPDX-License-Identifier: MIT */
/* runid.c -- the shape of an egress run id (its table is inet
 * nova_egress_<id>), alone in a file: `run --egress` checks it on every
 * platform, also where the rest of the egress room is not built
 * (Windows). */
#include <string.h>

#include "egress/allowlist.h"

#define EGRESS_RUN_ID_MAX 32

int
egress_run_ok(const char *s)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	size_t n;

	if (s == NULL)
		return 0;
	n = strlen(s);
	return n >= 1 && n <= EGRESS_RUN_ID_MAX && strspn(s, set) == n;
}
