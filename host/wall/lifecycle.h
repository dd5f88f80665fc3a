/* SPDX-License-Identifier: MIT */
/* lifecycle.h -- the one place the host calls a wall module's operations
 * (api/ns_backend.h, struct ns_wall_ops: prepare, spawn, wait, terminate,
 * finish, release) and says what every verb that walls a command says
 * around them: the NOTEs, the OK line and the stop signals passed on to
 * the command.  The bare wrap (verbs/wrap.c), probe (verbs/probe.c) and
 * run (run/keeper.c, run/nofork.c) call these; nothing else in the host
 * calls a wall's operation (Linux-PAM's one _pam_dispatch is the model).
 *
 * Calling sequence: wall_prepare once, and wall_release once in the same
 * process after the command and its tree ended (run: the keeper, after
 * its init); wall_spawn once per command (run: in the init; probe: once
 * per step); then the wall's wait (wall_wait_tick, wall_wait_end) or the
 * host's reaper (proc/reaper.h); wall_end_tree when the tool ends the
 * tree; wall_finish once the command ended, before the verb's DONE. */
#ifndef NS_HOST_WALL_LIFECYCLE_H
#define NS_HOST_WALL_LIFECYCLE_H

#include <stdint.h>

#include "policy/policy.h"
#include "wall/explain.h"
#include "wall/session.h"

/* ---- the wall's operations -------------------------------------------- */

/* prepare(): 0 with *state the module's, or -1 (the module's refusals are
 * in w->r). */
int wall_prepare(struct wallctx *w, const struct ns_policy *view,
		 void **state);
/* spawn(): 0 when the command runs (proc->pid > 0), else -1. */
int wall_spawn(struct wallctx *w, void *state, const struct ns_policy *view,
	       const struct ns_launch *launch, struct ns_proc *proc);
/* release() when the wall has one. */
void wall_release(struct wallctx *w, void *state);

/* The wall waits for its command itself (wait(), ABI 1.2): the host then
 * never waitpid()s the command meanwhile. */
int wall_can_wait(const struct wallctx *w);
/* The wall waits and ends its own tree (wait() and terminate()): a stop
 * signal is then passed on by asking terminate(). */
int wall_can_end(const struct wallctx *w);
/* The wall is the whole process model: wait(), terminate() and the caps
 * (NS_WALL_CAPS_NATIVE), as a host without a reaper needs. */
int wall_keeps_tree(const struct wallctx *w);

/* One call of the wall's wait(): 1 when the command ended (*out says
 * how), 0 when tick_ms ran out first, -1 when wait() failed. */
int wall_wait_tick(struct wallctx *w, void *state, const struct ns_proc *proc,
		   int64_t tick_ms, struct ns_exit *out);
/* Wait through the wall's wait() (only when it has one), tick_ms a call
 * (-1: no limit), until it says how the command ended: 0 with *out
 * filled, -1 when wait() failed. */
int wall_wait_end(struct wallctx *w, void *state, const struct ns_proc *proc,
		  int64_t tick_ms, struct ns_exit *out);
/* End the command's tree through the wall's terminate() (why: NS_TERM_*):
 * 0 when the wall did, -1 when it has none or it failed (the caller then
 * signals by pid). */
int wall_end_tree(struct wallctx *w, void *state, const struct ns_proc *proc,
		  uint32_t why);
/* Call finish() when the wall's table covers it and it is set, then print
 * the module's notes, the denials and (unless e->verb_says_end) the end
 * NOTE, explain_end_note, with prefix (stderr).  Never changes the exit
 * code. */
void wall_finish(struct wallctx *w, const char *prefix,
		 const struct ns_policy *view, void *state,
		 const struct wall_end *e);

/* ---- the lines around them --------------------------------------------- */

/* What the OK line says beyond the wall and the policy: each verb's own
 * fields.  A field of the OK line is one row of lifecycle.c's table. */
enum { WALL_OK_WRAP = 1, WALL_OK_RUN = 2 };
struct wall_ok {
	unsigned verb;            /* WALL_OK_WRAP or WALL_OK_RUN */
	const char *name;         /* run: --name */
	const char *place;        /* run: the place module */
	const char *env;          /* run: clean, inherit or clear */
	const char *root;         /* run: the place's root, first of deletes= */
	const struct strv *keeps; /* the writes after it (wrap: pol->writes,
				     run: the --write outside the place) */
};
/* "SANDBOX OK backend=... cmd=... deletes=..." on stderr (reference
 * section 3): 0, or -1 when it could not be built. */
int wall_ok_line(const struct wallctx *w, const struct policy *pol,
		 const struct wall_ok *ok);
/* The NOTEs before the OK line: the environment dropped and kept
 * (env_start: enum env_start, ndeny: the --env-deny count), the policy's
 * own notes, with --explain (explain 1) what stays read-only (rule 5a),
 * the wall's clamp, then the module's notes, as "SANDBOX NOTE". */
void wall_policy_notes(struct wallctx *w, const struct policy *pol,
		       int env_start, size_t ndeny, int explain);
/* The command's name as the OK and DONE lines say it (cmd=: its last
 * path component, field-escaped); heap, or NULL. */
char *wall_cmd_field(const struct policy *pol);

/* ---- stop signals passed on to the command (rule 12) ------------------- */

/* How a caught stop signal reaches the command while the wall cannot be
 * asked to end it (wall_can_end): never by a process group of the tool's
 * own. */
enum wall_fwd_how {
	WALL_FWD_HOLD, /* the wrap: to the command (proc/reaper.h); one
			  caught before the spawn is sent after it */
	WALL_FWD_PID,  /* run's init: to the command; one caught before the
			  spawn is dropped (the supervisor ends the run) */
	WALL_FWD_ALL   /* run's init in the place's own PID namespace: to
			  every process of the run, from the first one */
};
/* Catch the stop signals (os_catch_stop_signals) for the command to come. */
void wall_fwd_install(enum wall_fwd_how how);
/* The command runs (pid; w's wall says whether terminate() ends it). */
void wall_fwd_spawned(const struct wallctx *w, int64_t pid);
/* The signal caught for terminate() since the last call (0: none). */
int wall_fwd_take(void);
/* 1 when a caught signal went (or was meant) to the command. */
int wall_fwd_forwarded(void);

#endif
