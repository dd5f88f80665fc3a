/* SPDX-License-Identifier: MIT */
/* nokeeper.c -- run's forked flow where the host has no fork (Windows):
 * refused, naming the place and the wall that would need it.  Built
 * instead of run/keeper.c (the Makefile's Windows list); run/nofork.c's
 * flow is the one that runs there. */
#include "os/os.h"
#include "run/flow.h"

int
flow_fork(struct runctx *c)
{
	refusals_add(&c->pr, REASON_NO_SANDBOX, "on %s run needs a place "
		     "without enter() and a wall that waits for, ends and caps "
		     "its own tree (wait, terminate, NS_WALL_CAPS_NATIVE): "
		     "there is no fork for a keeper; %s or %s is not one",
		     os_platform(), c->pm.ops.name, c->w.mod.ops.name);
	(void)run_refuse(&c->pr, NS_EXIT_REFUSED);
	return -1;
}
