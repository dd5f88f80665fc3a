/* SPDX-License-Identifier: MIT */
/* egressmod.h -- the configured egress module (api/ns_backend.h, struct
 * ns_egress_ops) opened for a verb: the egress verb's apply, check --live
 * and drop, and `run --egress <id>`, which asks it whether the run's table
 * is live (docs/SPEC-SANDBOX.md section 12, "run --egress"). */
#ifndef NS_HOST_WALL_EGRESSMOD_H
#define NS_HOST_WALL_EGRESSMOD_H

#include "base/hostrun.h"
#include "conf/config.h"
#include "module/hostsvc.h"
#include "module/loader.h"

struct egress_mod {
	struct config cfg;
	struct module m;
	struct hostsvc hs;
	struct sbuf text;   /* read_live()'s lines */
	int loaded;
};

/* Read the config and load its egress module for role egress, then
 * ready(): 0, or -1 with the refusals in r (no_egress, no_privilege, a
 * config's).  prefix: the lines' word ("EGRESS", "SANDBOX").  Close it
 * with egress_mod_close() either way. */
int egress_mod_open(struct egress_mod *e, const struct hostrun *hr,
		    const char *prefix, struct refusals *r);
void egress_mod_close(struct egress_mod *e);

/* run --egress <id>: is table inet nova_egress_<id> live in this network
 * namespace, read through the module's read_live() and passed by the
 * auditor?  0 yes; 1 with ONE refusal no_egress_table in r naming the
 * cause (absent, unreadable, no module, failing the audit); -1 ENOMEM. */
int egress_live_table(const struct hostrun *hr, const char *id,
		      struct refusals *r);

#endif
