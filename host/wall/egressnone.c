/* SPDX-License-Identifier: MIT */
/* egressnone.c -- `run --egress` where the egress room is not built
 * (Windows: no nftables, no egress module): every id is refused
 * no_egress_table before anything is made.  It stands in for
 * egressmod.c's egress_live_table; the egress verb itself is not built
 * there (verbs/unbuilt.c). */
#include "wall/egressmod.h"

int
egress_live_table(const struct hostrun *hr, const char *id,
		  struct refusals *r)
{
	(void)hr;
	return refusals_add(r, REASON_NO_EGRESS_TABLE, "--egress %s: this "
			    "platform has no egress wall (no nftables, no "
			    "egress module); nothing was made: leave --egress "
			    "out", id) < 0 ? -1 : 1;
}
