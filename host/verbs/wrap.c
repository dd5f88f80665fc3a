/* SPDX-License-Identifier: MIT */
/* wrap.c -- the bare wrap: nova-sandbox --write D [flags] -- cmd
 * (reference section 2).  Parse, load the wall, build the policy, prepare,
 * print NOTE/OK, spawn, forward signals, reap, print DONE. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bench.h"
#include "base/out.h"
#include "os/os.h"
#include "net/net.h"
#include "wall/explain.h"
#include "wall/lifecycle.h"
#include "wall/protwall.h"
#include "wall/session.h"
#include "wall/statusfd.h"
#include "proc/caps.h"
#include "proc/reaper.h"
#include "verbs/verbs.h"

#define BARE_REMEDY "nova-sandbox help"

/* What the wait for the command learns: how it ended and whether the
 * tool ended the tree (ns_finish, ABI 1.2). */
struct waited {
	struct wallctx *w;
	void *state;
	const struct ns_proc *proc;
	const struct caps_limits *l;
	struct ns_exit exit;
	int ended;       /* exit is set */
	uint32_t killed; /* NS_TERM_* or 0 */
	struct net_run *net; /* --net-allow's proxy: its lines, live */
};

/* Reap whatever is ready (the host's reaper): the command's status into
 * *code and wt.  0, or -1 when the command was lost. */
static int
reap_ready(pid_t child, int *code, struct waited *wt)
{
	int st = 0, rc = reaper_reap((int64_t)child, &st);

	if (rc > 0) {
		*code = wait_exit_code(st);
		explain_exit_of_status(st, &wt->exit);
		wt->ended = 1;
	}
	return rc >= 0 || *code >= 0 ? 0 : -1;
}

/* Count the command's tree (the tool's descendants); 1 when it was past a
 * cap and has been killed (RUNAWAY printed, the status in *code).  A tree
 * that cannot be counted is let run.  A wall with NS_WALL_CAPS_NATIVE
 * keeps the caps itself: the host does not count. */
static int
over_cap(struct waited *wt, int *code)
{
	int over;

	if (wall_has_feature(wt->w, NS_WALL_CAPS_NATIVE))
		return 0;
	over = reaper_over_cap(wt->l);
	if (over) {
		*code = CAPS_STATUS;
		wt->killed = NS_TERM_CAP;
	}
	return over;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* End the command's tree through the wall (terminate, ABI 1.2) when it
 * has one: 0 when the wall did. */
static int
wall_terminate(struct waited *wt, uint32_t why)
{
	if (wall_end_tree(wt->w, wt->state, wt->proc, why) != 0)
		return -1;
	if (!wt->killed)
		wt->killed = why;
	return 0;
}

/* The wall's own wait (ABI 1.2), one tick at a time: 1 when the command
 * ended (*code set), 0 when the tick ran out, -1 when the wait failed. */
static int
wall_wait_once(struct waited *wt, int *code)
{
	struct ns_exit ex;
	int rc = wall_wait_tick(wt->w, wt->state, wt->proc, 1000, &ex);

	if (rc <= 0)
		return rc;
	wt->exit = ex;
	wt->ended = 1;
	*code = explain_exit_code(&ex);
	return 1;
}

/* The loop of a wall that waits itself: its wait() as the tick, the caps
 * between calls, a caught signal ends the tree through terminate(). */
static int
wall_wait_loop(struct waited *wt, int *code)
{
	int capped = -1, rc, sig;

	for (;;) {
		rc = wall_wait_once(wt, code);
		net_tick(wt->net);
		if (rc != 0)
			return rc < 0 ? NS_EXIT_REFUSED : 0;
		sig = wall_fwd_take();
		if (sig && wall_terminate(wt, NS_TERM_SIGNAL) != 0)
			reaper_signal((int64_t)wt->proc->pid, sig);
		if (over_cap(wt, &capped))
			return *code = capped, 0;
	}
}

/* No host reaper (Windows): the command has ended, and what it left in
 * the wall's tree is ended now through terminate() (the command's own
 * code stays: W6) and waited for, so nothing it started outlives DONE. */
static int
end_leftovers(struct waited *wt, int code)
{
	struct ns_exit gone;

	if (wall_end_tree(wt->w, wt->state, wt->proc, NS_TERM_DONE) != 0 ||
	    wall_wait_tick(wt->w, wt->state, wt->proc, 5000, &gone) < 0)
		note("what the command left in its tree could not be ended "
		     "through the wall");
	return code;
}

/* Wait for the command, reaping the orphans that the subreaper gets and
 * counting the tree every second and once more at the end (unless the
 * tree is already empty); then every process the command left behind is
 * frozen, killed and reaped (the kill of the caps, as at the end of
 * `run`): nothing it started outlives DONE. */
static int
wait_child(struct waited *wt)
{
	pid_t child = (pid_t)wt->proc->pid;
	size_t left = 0;
	int code = -1, capped = -1;

	if (wall_can_wait(wt->w)) {
		int rc = wall_wait_loop(wt, &code);

		if (rc != 0 || code == CAPS_STATUS)
			return rc ? rc : code;
		if (!reaper_here())
			return end_leftovers(wt, code);
	}
	while (code < 0) {
		net_tick(wt->net);
		if (reap_ready(child, &code, wt) != 0)
			return NS_EXIT_REFUSED;
		if (code >= 0 || !reaper_tick())
			continue;
		if (over_cap(wt, &capped))
			return capped;
	}
	if (!reaper_tree_empty()) {
		if (over_cap(wt, &capped))
			return capped;
		(void)wall_terminate(wt, NS_TERM_DONE);
		if (reaper_kill_all(0, &left) != 0)
			note("%zu process(es) the command left behind are "
			     "still running after SIGKILL", left);
		else if (!wt->killed)
			wt->killed = left ? NS_TERM_DONE : 0;
	}
	(void)reap_ready(child, &code, wt);
	return code;
}

static void
note(const char *fmt, ...)
{
	struct sbuf b = {0};
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	out_note("SANDBOX", b.s ? b.s : "");
	sbuf_free(&b);
}

static void
notes(struct wallctx *w, const struct args *a, const struct policy *pol)
{
	/* a wall that changes the security of the write roots for a run
	 * takes --acl (NS_WALL_ACL_CALLER, ABI 1.3: jobobject's labels);
	 * for any other the tool changes no ACL either way */
	if (a->acl != NULL && !wall_has_feature(w, NS_WALL_ACL_CALLER))
		note("--acl %s is accepted and ignored on %s; the wall is "
		     "the same without it", a->acl, os_platform());
	wall_policy_notes(w, pol, a->env_clear ? ENV_CLEAR : ENV_INHERIT,
			  a->env_deny_n, a->explain);
}

static int
refused(struct wallctx *w, const char *tok, const char *text)
{
	if (w->r.n == 0)
		refusals_add(&w->r, tok, "%s", text);
	if (wall_fd_errno(&w->r) != 0)
		remedy_keep(&w->r, &w->line); /* the module's list keeps none */
	wall_fd_cause(&w->r); /* out of descriptors: the one cause */
	out_refusals(stderr, "SANDBOX", &w->r, BARE_REMEDY, 0);
	return NS_EXIT_REFUSED;
}

/* Signal forwarding (Windows: the console's Ctrl-C, Ctrl-Break and close
 * as SIGINT/SIGBREAK/SIGTERM, ended through terminate()) and the host's
 * reaper where there is one (reaper_setup). */
static void
parent_setup(const struct caps_limits *caps)
{
	wall_fwd_install(WALL_FWD_HOLD);
	if (reaper_here())
		reaper_setup(caps);
}

/* Where the host has no reaper, the wall is the process model: it must
 * wait for its whole tree, end it, and keep the caps (ABI 1.2).  0, or 1
 * refused (a wall that cannot is never run unreaped). */
static int
wall_owns_tree(struct wallctx *w)
{
	if (reaper_here() || wall_keeps_tree(w))
		return 0;
	refusals_add(&w->r, REASON_NO_SANDBOX, "on %s the wall must wait for "
		     "its whole tree, end it and keep the caps itself (wait, "
		     "terminate, NS_WALL_CAPS_NATIVE): %s does not",
		     os_platform(), w->mod.ops.name);
	return 1;
}

/* The write roots on a memory filesystem, by rule 5's descriptors (their
 * growth is memory of the tree), and the base of the Shmem fallback for
 * descriptors a count cannot read.  0, or -1 when a root could not be
 * looked at or memory ran out: the cap would then miss that root. */
static int
watch_roots(const struct policy *pol, struct caps_watch *watch)
{
	int fds[64];
	size_t n = 0;

	if (!reaper_here())
		return reaper_watch(watch, fds, 0);
	for (size_t i = 0; i < pol->r_writes.n; i++) {
		if (n == sizeof(fds) / sizeof(fds[0])) {
			if (reaper_watch(watch, fds, n) < 0)
				return -1;
			n = 0;
		}
		fds[n++] = pol->r_writes.v[i].fd;
	}
	return reaper_watch(watch, fds, n);
}

static void
sandbox_note(const char *text)
{
	out_note("SANDBOX", text);
}

/* Rule 8a: the temp directory the tool made goes once the tree is dead
 * (before DONE, so a NOTE about it is not after the last line). */
static void
remove_tmp(struct policy *pol)
{
	(void)policy_remove_tmp_said(pol, sandbox_note);
}

static void
wrap_note(const char *text)
{
	out_note("SANDBOX", text);
}

/* SANDBOX DONE, with net-denied= under --net-allow. */
static void
done_line(const struct policy *pol, const struct net_run *net, int code)
{
	char *cmd = wall_cmd_field(pol);
	struct sbuf extra = {0};

	(void)net_done_field(net, &extra);
	out_kind(stderr, "SANDBOX", OUT_DONE, "exit=%d cmd=%s%s", code,
		 cmd ? cmd : "-", extra.s ? extra.s : "");
	sbuf_free(&extra);
	free(cmd);
}

static int
run_walled(struct wallctx *w, struct policy *pol,
	   const struct ns_policy *view, void *state,
	   struct caps_watch *watch, struct net_run *net)
{
	struct ns_launch launch = { sizeof(launch), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc proc = { sizeof(proc), 0, 0 };
	struct caps_limits caps = { CAPS_PROCS, CAPS_MEM, watch };
	struct waited wt = { w, state, &proc, &caps, { 0 }, 0, 0, net };
	struct wall_end end;
	int code, rc;

	parent_setup(&caps);
	BENCH_PHASE(BENCH_SPAWN);
	memset(&end, 0, sizeof(end));
	end.start_ns = explain_now_ns();
	rc = wall_spawn(w, state, view, &launch, &proc);
	reaper_spawned(rc == 0 ? proc.pid : 0);
	net_spawned(net);
	if (rc != 0) {
		net_stop(net);
		return refused(w, REASON_SANDBOX_FAILED, "the command could not "
			       "be started inside the wall");
	}
	wall_fwd_spawned(w, proc.pid);
	code = wait_child(&wt);
	net_stop(net); /* the proxy's last lines before DONE */
	end.proc = proc;
	end.end_ns = explain_now_ns();
	end.exit = wt.exit;
	if (!wt.ended) {
		end.exit.struct_size = sizeof(end.exit);
		end.exit.how = NS_END_CODE;
		end.exit.code = code;
	}
	end.killed = wt.killed ? wt.killed :
		     wall_fwd_forwarded() ? NS_TERM_SIGNAL : 0;
	end.code = code;
	wall_finish(w, "SANDBOX", view, state, &end);
	protect_after(&pol->prot, NULL, wrap_note); /* rule 5a's gap, said */
	remove_tmp(pol);
	done_line(pol, net, code);
	return code;
}

static int
prepared(struct wallctx *w, const struct args *a, struct policy *pol,
	 struct net_run *net)
{
	struct ns_policy view;
	struct caps_watch watch = {0};
	void *state = NULL;
	int code;

	policy_view(pol, &view);
	wall_view_extras(&view, a->explain, CAPS_PROCS, CAPS_MEM, 0);
	wall_view_job(w, &view, 0, a->acl != NULL &&
		      strcmp(a->acl, "caller") == 0 ? NS_ACL_CALLER :
		      NS_ACL_TOOL);
	net_view(net, &view);
	if (wall_prepare(w, &view, &state) != 0) {
		(void)policy_remove_tmp(pol); /* a refusal creates nothing */
		return refused(w, REASON_SANDBOX_FAILED, "the wall could not be "
			       "prepared");
	}
	if (net_start(net, &w->hs) != 0) { /* before the spawn: rule 7 */
		wall_release(w, state);
		(void)policy_remove_tmp(pol);
		return refused(w, REASON_SANDBOX_FAILED, "the network proxy "
			       "could not be started");
	}
	BENCH_PHASE(BENCH_RULESET);
	code = watch_roots(pol, &watch);
	policy_close_fds(pol); /* the ruleset is built: only the cwd's stays */
	if (code != 0)
		code = refused(w, REASON_SANDBOX_FAILED, "a --write root's memory "
			       "cannot be watched for the cap");
	else {
		notes(w, a, pol);
		if (wall_ok_line(w, pol, &(struct wall_ok){ WALL_OK_WRAP, NULL,
						  NULL, NULL, NULL,
						  &pol->writes }) != 0)
			code = NS_EXIT_REFUSED;
		else
			code = run_walled(w, pol, &view, state, &watch, net);
	}
	reaper_watch_free(&watch);
	wall_release(w, state);
	(void)policy_remove_tmp(pol); /* a path that did not run too */
	return code;
}

/* Rule 7: --net-allow needs a proxy module and a wall that keeps the
 * namespace or the loopback-only network, said with every other problem
 * (built 0: the build refused; the flags given count) and before
 * anything runs (the temp directory the build made goes); then the
 * proxy's sockets and the command's proxy variables.  0, 1 refused into
 * r, -1 ENOMEM. */
static int
net_refused(struct wallctx *w, const struct policy_input *in,
	    struct policy *pol, struct net_run *net, struct refusals *r,
	    int built)
{
	size_t n = built ? pol->net.n :
		   in->net_allow.n + in->net_allow_files.n;
	int rc = net_select(net, &w->cfg, &w->hs, w->mod.ops.name,
			    w->mod.wall.features, n, r);

	if (rc == 0 && built && (net_plan(net, &pol->net) != 0 ||
				 net_env(net, &pol->env) != 0))
		rc = refusals_add(r, REASON_SANDBOX_FAILED, "the network "
				  "proxy's sockets could not be made") < 0 ?
		     -1 : 1;
	if (rc != 0 && built)
		(void)policy_remove_tmp(pol); /* a refusal creates nothing */
	return rc;
}

static int
build_and_run(struct wallctx *w, const struct hostrun *hr, struct args *a,
	      char **argv)
{
	struct policy_input in = {0};
	struct policy pol = {0};
	struct refusals r = {0};
	struct strv tnotes = {0};
	struct cmdline line = cmdline_of(NULL, argv);
	struct net_run net;
	int rc, code;

	memset(&net, 0, sizeof(net));
	net.wall_sink = net.proxy_sink = net.report_fd = -1;
	net.stop_fd = net.status_fd = -1;
	if (wall_owns_tree(w) != 0)
		return refused(w, REASON_NO_SANDBOX, "");
	in.verb = NULL;
	in.remedy_args = argv; /* the fixed lines of the toolchains' too */
	if (wall_input(w, hr, a, &in) < 0 ||
	    wall_toolchains(w, &a->toolchains, &in, &tnotes, &r) < 0) {
		strv_free(&tnotes);
		policy_input_free(&in);
		refusals_free(&r);
		return refused(w, REASON_SANDBOX_FAILED, "out of memory");
	}
	rc = r.n ? 1 : policy_build(&in, &pol, &r);
	for (size_t i = 0; rc == 0 && i < tnotes.n; i++)
		if (strv_push(&pol.notes, tnotes.v[i]) < 0)
			rc = -1;
	strv_free(&tnotes);
	BENCH_PHASE(BENCH_POLICY);
	if (rc == 0)
		rc = ownfiles_check(hr, &w->cfg, &pol, &line, &r);
	if (rc == 0)
		rc = wall_protect_refused(w, &pol, &line, &r);
	if (rc >= 0) { /* with the build's own refusals, or alone */
		int nrc = net_refused(w, &in, &pol, &net, &r, rc == 0);

		rc = nrc < 0 ? -1 : rc ? rc : nrc;
	}
	BENCH_PHASE(BENCH_OWNFILES);
	if (rc != 0) {
		if (rc < 0)
			refusals_add(&r, REASON_SANDBOX_FAILED, "out of memory");
		wall_fd_cause(&r); /* out of descriptors: the one cause */
		out_refusals(stderr, "SANDBOX", &r, BARE_REMEDY, 0);
		code = refusals_all(&r, REASON_NOT_FOUND) ? NS_EXIT_NOT_FOUND : NS_EXIT_REFUSED;
	} else {
		code = prepared(w, a, &pol, &net);
	}
	net_free(&net);
	refusals_free(&r);
	policy_free(&pol);
	policy_input_free(&in);
	return code;
}

/* Phase 0: root is refused before anything else is said, the flags'
 * refusals included (the wall is for an unprivileged user, and HOME, the
 * wall and the flags are then the user's to fix).  1 refused and
 * printed, 0 not root. */
static int
refused_root(char **argv)
{
	struct cmdline line = cmdline_of(NULL, argv);
	struct refusals r = {0};
	int rc = wall_refuse_root(&line, &r);

	if (rc != 0)
		out_refusals(stderr, "SANDBOX", &r, BARE_REMEDY, 0);
	refusals_free(&r);
	return rc != 0;
}

int
verb_wrap(const struct hostrun *hr, int argc, char **argv)
{
	struct wallctx w;
	struct args a;
	struct refusals r = {0};
	int code, rc;

	BENCH_PHASE(BENCH_STARTED);
	if (flags_wants_help(argc, argv))
		return verb_help();
	memset(&a, 0, sizeof(a));
	memset(&w, 0, sizeof(w));
	rc = args_parse(ARGV_BARE, argc, argv, &a, &r);
	/* a valid --status-fd carries every line from here, refusals too */
	if (status_fd_take(a.status_fd, &r) != 0)
		rc = rc ? rc : 1;
	if (refused_root(argv))
		rc = -1;
	else if (rc != 0)
		out_refusals(stderr, "SANDBOX", &r, BARE_REMEDY, 0);
	if (rc != 0) {
		refusals_free(&r);
		args_free(&a);
		return NS_EXIT_REFUSED;
	}
	wall_line(&w, NULL, argv);
	if (wall_open(&w, hr, "SANDBOX") != 0)
		code = refused(&w, REASON_NO_SANDBOX, "no wall module could be "
			       "loaded");
	else if (wall_explain_refused(&w, a.explain, &w.r) != 0)
		code = refused(&w, REASON_SANDBOX_FAILED, "out of memory");
	else {
		BENCH_PHASE(BENCH_WALL_OPEN);
		code = build_and_run(&w, hr, &a, argv);
	}
	wall_close(&w);
	args_free(&a);
	return code;
}
