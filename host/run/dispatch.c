/* SPDX-License-Identifier: MIT */
/* dispatch.c -- `run` from its words to its exit code: the checks before
 * anything is made, look and create the place, then the one flow that
 * fits (run/nofork.c where the host has no fork and the wall keeps its
 * own tree, else run/keeper.c's forked one), which ends in flow_finish.
 * The steps themselves are run/steps.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"
#include "proc/reaper.h"
#include "run/flow.h"

static int
look_and_create(struct runctx *c)
{
	struct ns_place_req req = { sizeof(req), c->a->name, c->a->size,
				    c->scratch };
	int exists = 0;
	uint64_t t = run_now_ms();

	run_step("look", 0);
	if (c->pm.place.look(&c->phs.host, c->a->name, &exists) != NS_OK)
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	run_step("look", t);
	if (exists) {
		remedy_refuse(&c->pr, REASON_VOLUME_EXISTS, NULL, c->phs.line,
			      &(struct cmdfix){ "--name", NULL, "<name>", NULL,
						0 }, "a place named %s already "
			      "exists; nothing was made; pick another --name",
			      c->a->name);
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	}
	c->t0 = run_now_ms();
	run_step("create", 0);
	c->place.struct_size = sizeof(c->place);
	c->place.root_fd = -1;
	if (c->pm.place.create(&c->phs.host, &req, &c->place) != NS_OK)
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	c->created = 1;
	return 0;
}

/* The place exists: from here every path ends in finish(). */
static int
run_created(struct runctx *c, struct refusals *r)
{
	struct sv s = SV_INIT;
	int code;

	flow_hidden_check(c, r);
	if (r->n) {
		flow_create_done(c);
		run_refuse(r, NS_EXIT_REFUSED);
		return flow_finish(c, &s, NS_EXIT_REFUSED, 0);
	}
	code = flow_nofork_fits(c) ? flow_nofork(c) : flow_fork(c);
	if (code >= 0)
		return code;
	refusals_add(r, REASON_SANDBOX_FAILED, "the run's processes could not "
		     "be started: %s", strerror(errno)); /* said, not silent */
	flow_create_done(c);
	run_refuse(r, NS_EXIT_REFUSED);
	return flow_finish(c, &s, NS_EXIT_REFUSED, 0);
}

static void
ctx_free(struct runctx *c)
{
	module_free(&c->pm); /* a refused load leaves its names too */
	wall_close(&c->w);
	refusals_free(&c->pr);
	sbuf_free(&c->ptext);
	strv_free(&c->reads);
	strv_free(&c->writes);
	free(c->scratch);
	if (c->out_fd >= 0)
		close(c->out_fd);
	free(c->out);
	strv_free(&c->homes);
	net_free(&c->net);
	net_list_free(&c->net_entries);
	reaper_watch_free(&c->watch);
}

int
run_flow(const struct hostrun *hr, struct run_args *a, char **args)
{
	struct runctx c;
	struct refusals r = {0};
	int code;

	memset(&c, 0, sizeof(c));
	c.out_fd = -1;
	c.net.wall_sink = c.net.proxy_sink = c.net.report_fd = -1;
	c.net.stop_fd = c.net.status_fd = -1;
	c.hr = hr;
	c.a = a;
	c.args = args;
	c.t0 = run_now_ms();
	if (flow_preflight(&c, &r) != 0) {
		run_refuse(&r, NS_EXIT_REFUSED);
		out_usage(stderr, RUN_REMEDY);
		ctx_free(&c);
		return NS_EXIT_REFUSED;
	}
	flow_sweep_out(&c);
	code = look_and_create(&c);
	if (code == 0)
		code = run_created(&c, &r);
	ctx_free(&c);
	return code;
}
