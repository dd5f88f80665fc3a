/* SPDX-License-Identifier: MIT */
/* ll_wait.c -- landlock.so's wall.wait() and wall.finish() (ABI 1.2).
 *
 * wait() is a static table member, so it is there with and without
 * --explain.  Without it, it does what the host's POSIX path does: reap
 * whatever is ready (the command, and the orphans a subreaper gets) with
 * waitpid(-1, WNOHANG) and sleep in sigtimedwait(SIGCHLD) until the tick
 * ends; the command's own end returns at once.  With it, the same loop
 * also sees the tracees' stops (__WALL: threads too) and services them
 * (ll_trace.c); it returns the command's own end once nothing of its tree
 * is left to wait for (ECHILD), or when the tick ran out after the
 * command had ended (its leftovers are the host's to end, as without the
 * flag; they stay traced, stopped at their next traced call: SIGKILL
 * ends them).  The host MUST NOT waitpid() itself while a wait() has not
 * returned the command's end: it would take a tracee's stop.
 *
 * finish() reports the tracer's records (ll_trace_report) and frees them. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "ll_netns.h"
#include "ll_spawn.h"
#include "ll_audit.h"
#include "ll_trace.h"

#define EXIT_SIZE_1_2 (offsetof(struct ns_exit, status) + sizeof(uint64_t))

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
set_exit(struct ns_exit *out, const struct ll_state *st)
{
	if (!st->done) {
		out->how = NS_END_RUNNING;
		return;
	}
	if (WIFSIGNALED(st->status)) {
		out->how = NS_END_SIGNAL;
		out->code = WTERMSIG(st->status);
	} else {
		out->how = NS_END_CODE;
		out->code = WEXITSTATUS(st->status);
	}
}

/* One report from waitpid. */
static void
on_report(struct ll_state *st, pid_t p, int status)
{
	if (WIFSTOPPED(status)) {
		if (st->trace != NULL)
			ll_trace_stop(st->trace, p, status, NULL);
		return;
	}
	if (st->trace != NULL)
		ll_trace_gone(st->trace, p);
	if (p == st->cmd && !st->done) {
		st->done = 1;
		st->status = status;
	}
}

/* Everything ready now; 1 when the tree is gone (ECHILD), 0 when some is
 * left, -1 on another error. */
static int
drain(struct ll_state *st)
{
	int flags = WNOHANG | (st->trace != NULL ? __WALL : 0), status;
	pid_t p;

	for (;;) {
		p = waitpid(-1, &status, flags);
		if (p > 0) {
			on_report(st, p, status);
			continue;
		}
		if (p == 0)
			return 0;
		if (errno == EINTR)
			continue;
		return errno == ECHILD ? 1 : -1;
	}
}

static void
sleep_chld(int64_t ms)
{
	struct timespec left = { (time_t)(ms / 1000),
				 (long)(ms % 1000) * 1000000L };
	sigset_t chld, old;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* the host keeps SIGCHLD blocked; made sure for this wait only */
	sigprocmask(SIG_BLOCK, &chld, &old);
	(void)sigtimedwait(&chld, NULL, &left);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int
ended(const struct ll_state *st, int gone)
{
	if (!st->done)
		return 0;
	return st->trace == NULL || gone;
}

int
ll_wait(const struct ns_host *host, void *state, const struct ns_proc *proc,
	int64_t timeout_ms, struct ns_exit *out)
{
	struct ll_state *st = state;
	int64_t end = timeout_ms < 0 ? -1 : now_ms() + timeout_ms, left;
	int gone;

	if (!ll_host_ok(host) || st == NULL || proc == NULL || out == NULL ||
	    out->struct_size < EXIT_SIZE_1_2 || proc->pid != st->cmd)
		return NS_E_INTERNAL;
	for (;;) {
		gone = drain(st);
		if (gone < 0 || (gone == 1 && !st->done)) {
			host->refuse(host->cookie, "sandbox_failed",
				     "landlock.so: the command's end was lost "
				     "(reaped elsewhere)");
			return NS_E_SYSTEM;
		}
		if (ended(st, gone))
			break;
		left = end < 0 ? 1000 : end - now_ms();
		if (left <= 0)
			break; /* the tick ran out: running, or leftovers */
		sleep_chld(left);
	}
	set_exit(out, st);
	return NS_OK;
}

int
ll_finish(const struct ns_host *host, void *state,
	  const struct ns_finish *fin)
{
	struct ll_state *st = state;
	struct ll_bypass bp;

	(void)fin;
	if (!ll_host_ok(host) || st == NULL)
		return NS_E_INTERNAL;
	/* --net-allow: a refused connect went around the proxy; counted
	 * as the denials pass (ll_netns.c) and said in one NOTE after */
	if (st->pol_flags & NS_POLICY_NET_PROXIED) {
		ll_netns_bypass_init(&bp, host);
		host = &bp.counted;
	}
	if (st->trace != NULL)
		ll_trace_report(host, st->trace);
	/* the audit records (where readable), less what the tracer named:
	 * the caller of restrict_self is this process */
	(void)ll_audit_report(host, &st->audit, getpid(), st->trace);
	ll_trace_free(st->trace);
	st->trace = NULL;
	if (st->pol_flags & NS_POLICY_NET_PROXIED)
		ll_netns_bypass_note(&bp);
	return NS_OK;
}
