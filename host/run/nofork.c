/* SPDX-License-Identifier: MIT */
/* nofork.c -- `run` with no fork (docs/SPEC-SANDBOX.md §13 "Windows"): for
 * a place without enter() and a wall that waits for, ends and caps its own
 * tree (wait, terminate, NS_WALL_CAPS_NATIVE: jobobject.dll), the tool is
 * the keeper, the init and the supervisor at once, between the steps
 * run/steps.c shares with the forked flow: it opens the place's root,
 * builds the run's policy (flow_policy), prepares the wall, says OK
 * (flow_notes, flow_ok_line), spawns the command through the wall, waits
 * on the wall's wait() a second at a time with the --timeout and the
 * caught signals (run_decide), ends the tree through terminate(), and
 * hands over to flow_finish (kill, handoff, measure, delete, DONE, LEAK). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/explain.h"
#include "wall/lifecycle.h"
#include "run/flow.h"
#include "proc/reaper.h"

static volatile sig_atomic_t g_caught; /* the last stop signal caught */

static void
on_stop(int sig)
{
	g_caught = sig;
}

static int
caught(void)
{
	return g_caught;
}

/* The place's root, opened as the forked keeper opens it (the module may
 * have set root_fd itself): a directory, its last component not followed.
 * 0, or 1 with a volume_failed refusal in c->pr. */
static int
open_root(struct runctx *c)
{
	struct os_stat st;
	int fd;

	if (c->place.root_fd >= 0)
		return 0;
	fd = os_open_nofollow(c->place.root);
	if (fd >= 0 && (os_fstat(fd, &st) != 0 || !S_ISDIR(st.mode))) {
		close(fd);
		fd = -1;
		errno = ENOTDIR;
	}
	if (fd < 0) {
		refusals_add(&c->pr, REASON_VOLUME_FAILED, "cannot open the place "
			     "%s: %s", c->place.root, strerror(errno));
		return 1;
	}
	c->place.root_fd = fd;
	return 0;
}

/* The wait: the wall's, one tick at a time, with the deadlines.  A caught
 * signal or the timeout ends the tree through terminate() (its status,
 * 128+N or 124, is the run's: run_decide); otherwise the command's own
 * end is.  Then what the command left in the tree is ended and waited
 * for.  end->exit says how the command ended. */
static int
wait_run(struct runctx *c, struct sv *s, void *state, struct wall_end *end)
{
	uint64_t now = run_now_ms();
	int rc, ended_by = 0;
	struct ns_exit gone;

	s->timeout_at = c->a->timeout_ms ? now + c->a->timeout_ms : 0;
	for (;;) {
		uint64_t wake = run_next_wake(s, now);

		rc = wall_wait_tick(&c->w, state, &end->proc,
				    (int64_t)(wake < 1000 ? wake : 1000),
				    &end->exit);
		if (rc != 0)
			break;
		now = run_now_ms();
		if ((run_decide(s, now, g_caught) & RUN_SV_TIMEOUT) != 0)
			run_timeout_line(c->a);
		if (s->code >= 0 && !ended_by) {
			ended_by = s->timed_out && s->code == NS_EXIT_TIMEOUT ?
					   NS_TERM_TIMEOUT : NS_TERM_SIGNAL;
			if (wall_end_tree(&c->w, state, &end->proc,
					  (uint32_t)ended_by) != 0)
				return NS_EXIT_REFUSED;
			end->killed = (uint32_t)ended_by;
		}
	}
	if (rc < 0)
		return NS_EXIT_REFUSED;
	if (wall_end_tree(&c->w, state, &end->proc, NS_TERM_DONE) != 0 ||
	    wall_wait_tick(&c->w, state, &end->proc, 5000, &gone) < 0)
		run_note("what the command left in its tree could not be "
			 "ended through the wall");
	return s->code >= 0 ? s->code : explain_exit_code(&end->exit);
}

/* Spawn, wait, finish() and the denials: the run's exit code; *ran when
 * the command started. */
static int
run_walled(struct runctx *c, struct sv *s, struct ns_policy *view,
	   void *state, int *ran)
{
	struct ns_launch launch = { sizeof(launch), { -1, -1, -1 }, NULL, 0 };
	struct wall_end end;
	int code;

	memset(&end, 0, sizeof(end));
	end.proc.struct_size = sizeof(end.proc);
	end.start_ns = explain_now_ns();
	if (wall_spawn(&c->w, state, view, &launch, &end.proc) != 0) {
		refusals_add(&c->w.r, REASON_SANDBOX_FAILED, "the command could "
			     "not be started inside the wall");
		return run_refuse(&c->w.r, NS_EXIT_REFUSED);
	}
	*ran = 1;
	code = wait_run(c, s, state, &end);
	end.end_ns = explain_now_ns();
	end.code = code;
	end.verb_says_end = 1; /* flow_finish, which knows the place */
	if (end.exit.struct_size == 0 || end.exit.how == NS_END_RUNNING) {
		end.exit.struct_size = sizeof(end.exit);
		end.exit.how = NS_END_CODE;
		end.exit.code = code;
	}
	wall_finish(&c->w, "SANDBOX", view, state, &end);
	return code;
}

int
flow_nofork(struct runctx *c)
{
	struct sv s = SV_INIT;
	struct policy pol;
	struct ns_policy view;
	struct refusals r = {0};
	void *state = NULL;
	uint64_t t;
	int rc, code, ran = 0;

	memset(&pol, 0, sizeof(pol));
	s.caps_native = 1;
	os_catch_stop_signals(on_stop);
	c->caught = caught;
	if (open_root(c) != 0)
		return flow_finish(c, &s, run_refuse(&c->pr, NS_EXIT_REFUSED),
				   0);
	flow_create_done(c);
	rc = flow_policy(c, &pol, &r);
	if (rc != 0) {
		if (rc < 0)
			refusals_oom(&r);
		code = run_refuse(&r, refusals_all(&r, REASON_NOT_FOUND) ?
				  NS_EXIT_NOT_FOUND : NS_EXIT_REFUSED);
		refusals_free(&r);
		policy_free(&pol);
		return flow_finish(c, &s, code, 0);
	}
	policy_view(&pol, &view);
	wall_view_extras(&view, c->a->explain, c->a->max_procs, c->a->max_mem,
			 (long long)c->a->timeout_ms);
	wall_view_job(&c->w, &view, c->a->job_flags ? c->a->cpu_percent : 0,
		      NS_ACL_TOOL);
	if (wall_prepare(&c->w, &view, &state) != 0) {
		code = run_refuse(&c->w.r, NS_EXIT_REFUSED);
		policy_free(&pol);
		return flow_finish(c, &s, code, 0);
	}
	policy_close_fds(&pol); /* the ruleset is built: only the cwd's stays */
	t = run_now_ms();
	run_step("run", 0);
	flow_notes(c, &pol);
	flow_ok_line(c, &pol);
	code = run_walled(c, &s, &view, state, &ran);
	run_step("run", t);
	/* release() once the command and its tree have ended, in the process
	 * that called prepare() (the ABI's rule) */
	wall_release(&c->w, state);
	policy_free(&pol);
	return flow_finish(c, &s, code, ran);
}
