/* SPDX-License-Identifier: MIT */
/* netpre.c -- run's network checks before anything is made (rule 7's
 * --net-allow and section 12's --egress), two steps of flow_preflight
 * (steps.c). */
#include <string.h>

#include "net/net.h"
#include "policy/policy.h"
#include "wall/egressmod.h"
#include "run/flow.h"

/* Rule 7 before anything is made: the entries (bad_net), the proxy module
 * (no_proxy) and the wall's features (net_allow_unsupported).  0, or -1
 * ENOMEM; the refusals into r. */
int
flow_net_check(struct runctx *c, struct refusals *r)
{
	struct policy_input in;

	memset(&in, 0, sizeof(in));
	in.net_allow = c->a->net_allow;
	in.net_allow_files = c->a->net_allow_files;
	in.net_deny = c->a->net_deny;
	in.verb = "run";
	in.remedy_args = c->args;
	if (policy_net_check(&in, &c->net_entries, r) < 0)
		return -1;
	/* said with the grammar's refusals: the flags given count */
	return net_select(&c->net, &c->w.cfg, &c->w.hs, c->w.mod.ops.name,
			  c->w.mod.wall.features, in.net_allow.n +
			  in.net_allow_files.n, r) < 0 ? -1 : 0;
}

/* --egress <id>: its table must be live and pass the auditor (read
 * through the egress module, wall/egressmod.h); nothing is made. */
void
flow_egress_check(struct runctx *c, struct refusals *r)
{
	if (c->a->egress != NULL && egress_live_table(c->hr, c->a->egress,
						      r) < 0)
		refusals_oom(r);
}
