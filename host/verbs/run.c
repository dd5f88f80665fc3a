/* SPDX-License-Identifier: MIT */
/* run.c -- `nova-sandbox run` (reference section 8): one command in a
 * disposable place, walled there, and the place taken away on every path
 * out.  Five steps: look, create, run, kill, delete.  The flags are
 * run/args.c, the flow run/steps.c, the supervisor run/supervise.c. */
#include <string.h>

#include "base/out.h"
#include "run/flow.h"
#include "wall/statusfd.h"
#include "run/runargs.h"
#include "verbs/verbs.h"

int
verb_run(const struct hostrun *hr, int argc, char **argv)
{
	struct run_args a;
	struct refusals r = {0};
	int rc;

	memset(&a, 0, sizeof(a));
	rc = run_parse(argc - 1, argv + 1, &a, &r);
	/* a valid --status-fd carries every line from here, refusals too */
	if (status_fd_take(a.status_fd_s, &r) != 0)
		rc = rc ? rc : 1;
	if (rc == 0 && a.help) {
		run_args_free(&a);
		return verb_help_for("run") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	}
	if (rc != 0) {
		if (rc < 0)
			refusals_add(&r, REASON_SANDBOX_FAILED, "out of memory");
		run_refuse(&r, NS_EXIT_REFUSED);
		out_usage(stderr, RUN_REMEDY);
		run_args_free(&a);
		return NS_EXIT_REFUSED;
	}
	rc = run_flow(hr, &a, argv + 1);
	run_args_free(&a);
	return rc;
}
