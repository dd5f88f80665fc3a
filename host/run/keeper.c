/* SPDX-License-Identifier: MIT */
/* keeper.c -- `run`'s forked flow (POSIX; run/steps.c the steps around
 * it): the keeper (place.enter, the policy, the wall's prepare, SANDBOX
 * OK), the init (the wall's spawn, relaying signals, the command's status)
 * and the supervisor (the timeout, the caps, the keeper's messages).
 * Not built where the host has no fork (Windows: run/
 * noreaper.c stands in; run/nofork.c runs the command there). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/explain.h"
#include "wall/lifecycle.h"
#include "wall/session.h"
#include "proc/caps.h"
#include "run/flow.h"
#include "proc/reaper.h"

/* ---- the init (the host's first process in the place's PID namespace) -- */

/* The stop signals the supervisor relays go to the command (every
 * process of the run when the init is in the place's PID namespace), or
 * to the wall's terminate() (wall/lifecycle.h); the mask the keeper
 * inherited is cleared. */
static void
relay_install(int own_ns)
{
	sigset_t none;

	wall_fwd_install(own_ns ? WALL_FWD_ALL : WALL_FWD_PID);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A wall that waits itself (ABI 1.2): its wait() one second at a time
 * until the command ended; a signal the supervisor relayed (the caller's,
 * or the --timeout's SIGTERM) ends the tree through the wall's terminate()
 * when it has one (else by kill, as the relay does).  The supervisor keeps
 * the timeout and the caps, and ends the run's tree.  The exit code as
 * wait_exit_code() would give it. */
static int
init_wall_wait(struct runctx *c, void *state, struct wall_end *end,
	       int own_ns)
{
	int rc;

	while ((rc = wall_wait_tick(&c->w, state, &end->proc, 1000,
				    &end->exit)) == 0) {
		int sig = wall_fwd_take();

		if (reaper_parent_gone())
			kill(0, SIGKILL); /* the keeper is gone: the group */
		if (sig == 0)
			continue;
		if (wall_end_tree(&c->w, state, &end->proc, NS_TERM_SIGNAL) != 0)
			kill(own_ns ? -1 : (pid_t)end->proc.pid, sig);
	}
	if (rc < 0)
		return NS_EXIT_REFUSED;
	return explain_exit_code(&end->exit);
}

/* The command ended: reap what of its tree already ended (what still runs
 * is ended by the supervisor's kill, after this), then finish() and the
 * denials, printed before the supervisor's DONE. */
static void
init_finish(struct runctx *c, const struct ns_policy *view, void *state,
	    struct wall_end *end, int code)
{
	int st;

	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	end->end_ns = explain_now_ns();
	end->code = code;
	/* a signal the supervisor relayed (the caller's, or its --timeout's
	 * SIGTERM: the init cannot tell them apart) */
	end->killed = wall_fwd_forwarded() ? NS_TERM_SIGNAL : 0;
	end->verb_says_end = 1; /* the supervisor, which knows why */
	if (end->exit.struct_size == 0) {
		end->exit.struct_size = sizeof(end->exit);
		end->exit.how = NS_END_CODE;
		end->exit.code = code;
	}
	wall_finish(&c->w, "SANDBOX", view, state, end);
}

static void __attribute__((noreturn))
init_main(struct runctx *c, struct ns_policy *view, void *state,
	  pid_t keeper, int link)
{
	struct ns_launch launch = { sizeof(launch), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc proc = { sizeof(proc), 0, 0 };
	struct wall_end end;
	int st, own_ns, code = NS_EXIT_REFUSED;

	memset(&end, 0, sizeof(end));

	/* die with the keeper, and keep the command's tree: the subreaper
	 * an orphan comes back to (not the namespace's pid 1, the place's
	 * anchor), or a process group of its own (proc/reaper.h) */
	reaper_init_start(link);
	if (getppid() != keeper || reaper_parent_gone())
		_exit(NS_EXIT_REFUSED);
	/* a parent outside our PID namespace reads as 0: the place made one
	 * (its pid 1 may be the place's own, e.g. nsplace's /proc anchor) */
	own_ns = keeper == 0;
	relay_install(own_ns);
	end.start_ns = explain_now_ns();
	if (wall_spawn(&c->w, state, view, &launch, &proc) != 0) {
		refusals_add(&c->w.r, REASON_SANDBOX_FAILED, "the command could "
			     "not be started inside the wall");
		run_refuse(&c->w.r, NS_EXIT_REFUSED);
		_exit(NS_EXIT_REFUSED);
	}
	net_spawned(&c->net);
	wall_fwd_spawned(&c->w, proc.pid);
	end.proc = proc;
	if (wall_can_wait(&c->w))
		code = init_wall_wait(c, state, &end, own_ns);
	else if (reaper_init_wait((pid_t)proc.pid, &st) == 0) {
		code = wait_exit_code(st);
		explain_exit_of_status(st, &end.exit);
	}
	init_finish(c, view, state, &end, code);
	_exit(code);
}

static void __attribute__((noreturn))
keeper_fail(int sock, struct refusals *r, int code)
{
	if (r->n == 0)
		refusals_add(r, REASON_SANDBOX_FAILED, "the place could not be "
			     "entered");
	run_refuse(r, NS_EXIT_REFUSED);
	kmsg_send(sock, 'F', code, -1);
	_exit(code);
}

static int
keeper_enter(struct runctx *c, int sock, pid_t sup)
{
	if (c->pm.place.enter != NULL &&
	    c->pm.place.enter(&c->phs.host, &c->place) != NS_OK)
		keeper_fail(sock, &c->pr, NS_EXIT_REFUSED);
	(void)os_die_with_parent();
	if (getppid() != sup)
		_exit(NS_EXIT_REFUSED);
	if (c->place.root_fd < 0)
		c->place.root_fd = os_open_readdir(c->place.root);
	if (c->place.root_fd < 0) {
		refusals_add(&c->pr, REASON_VOLUME_FAILED, "cannot open the place "
			     "%s: %s", c->place.root, strerror(errno));
		keeper_fail(sock, &c->pr, NS_EXIT_REFUSED);
	}
	return kmsg_send(sock, 'R', 0, c->place.root_fd);
}

static void __attribute__((noreturn))
keeper_main(struct runctx *c, int sock, pid_t sup)
{
	struct policy pol;
	struct ns_policy view;
	struct refusals r = {0};
	struct kmsg m;
	void *state = NULL;
	int fd, rc, st, link[2];
	pid_t init;

	memset(&pol, 0, sizeof(pol));
	net_forget(&c->net); /* the proxy's pipes are the supervisor's */
	if (keeper_enter(c, sock, sup) != 0)
		_exit(NS_EXIT_REFUSED);
	rc = flow_policy(c, &pol, &r);
	if (rc == 0 && net_env(&c->net, &pol.env) != 0)
		rc = -1;
	if (rc != 0) {
		if (rc < 0)
			refusals_oom(&r);
		keeper_fail(sock, &r, refusals_all(&r, REASON_NOT_FOUND) ?
			    NS_EXIT_NOT_FOUND : NS_EXIT_REFUSED);
	}
	policy_view(&pol, &view);
	wall_view_extras(&view, c->a->explain, c->a->max_procs, c->a->max_mem,
			 (long long)c->a->timeout_ms);
	net_view(&c->net, &view);
	if (wall_prepare(&c->w, &view, &state) != 0)
		keeper_fail(sock, &c->w.r, NS_EXIT_REFUSED);
	policy_close_fds(&pol); /* the ruleset is built: only the cwd's stays */
	if (kmsg_send(sock, 'P', 0, -1) != 0 || kmsg_recv(sock, &m, &fd) != 0 ||
	    m.type != 'G')
		_exit(NS_EXIT_REFUSED);
	flow_notes(c, &pol);
	flow_ok_line(c, &pol);
	if (reaper_keeper_link(&link[0], &link[1]) != 0)
		_exit(NS_EXIT_REFUSED);
	init = fork();
	if (init == 0) {
		close(sock);
		if (link[1] >= 0)
			close(link[1]);
		init_main(c, &view, state, getppid(), link[0]);
	}
	if (link[0] >= 0)
		close(link[0]);
	net_spawned(&c->net); /* the sink's wall end: the init's alone */
	kmsg_send(sock, 'I', init, -1);
	if (init < 0)
		_exit(NS_EXIT_REFUSED);
	/* link[1] stays open: the init's end is EOF once this process ends */
	if (reaper_keeper_wait(sock, init, &st) != 0)
		_exit(NS_EXIT_REFUSED);
	protect_after(&pol.prot, c->place.root, run_note); /* rule 5a's gap, said */
	/* the module rules: release() once the run's init has ended, in the
	 * process that called prepare() */
	wall_release(&c->w, state);
	_exit(wait_exit_code(st));
}

/* Wait for one message of the keeper: its type, or 0 when the keeper is
 * gone (EOF) or a caught signal interrupted. */
static char
await(int sock, struct kmsg *m, int *fd)
{
	for (;;) {
		if (kmsg_recv(sock, m, fd) == 0)
			return m->type;
		if (errno != EINTR || run_caught())
			return 0;
	}
}

static int
supervise_run(struct runctx *c, struct sv *s, int sock)
{
	struct kmsg m;
	uint64_t t = run_now_ms();
	int fd, code;
	char ty;

	/* the machine's shared memory before the command: the fallback of a
	 * count that cannot read a member's descriptors (caps.h) */
	(void)caps_watch_shmem(&c->watch);
	s->watch = &c->watch;
	s->caps_native = wall_has_feature(&c->w, NS_WALL_CAPS_NATIVE);
	ty = await(sock, &m, &fd);
	if (ty == 'R') {
		c->place.root_fd = fd;
		/* the place's tmpfs: its growth is memory of the run */
		(void)caps_watch_fd(&c->watch, fd);
		flow_create_done(c);
		ty = await(sock, &m, &fd);
	}
	if (ty != 'P')
		return flow_finish(c, s, ty == 'F' ? (int)m.val :
			      run_caught() ? NS_EXIT_SIGNAL + run_caught() : NS_EXIT_REFUSED, 0);
	t = run_now_ms();
	run_step("run", 0);
	if (kmsg_send(sock, 'G', 0, -1) != 0)
		return flow_finish(c, s, NS_EXIT_REFUSED, 0);
	ty = await(sock, &m, &fd);
	if (ty == 'I' && m.val > 0) {
		s->init = (pid_t)m.val;
		reaper_run_group(s->init);
		run_set_target(s->init);
	}
	code = run_supervise(s, c->a);
	run_step("run", t);
	return flow_finish(c, s, code, 1);
}

int
flow_fork(struct runctx *c)
{
	struct sv s = SV_INIT;
	struct caps_limits caps = { c->a->max_procs, c->a->max_mem, NULL };
	int sv[2], code;
	pid_t sup = getpid();

	/* rule 7: the proxy in the host's network, before the subreaper
	 * (it is no descendant of the run) and before the keeper enters the
	 * place (which inherits the sink's wall end) */
	if (net_plan(&c->net, &c->net_entries) != 0 ||
	    net_start(&c->net, &c->w.hs) != 0)
		return -1;
	s.net = &c->net;
	if (os_msg_pair(sv) != 0)
		return -1;
	(void)os_subreaper();
	(void)caps_limit_nproc(&caps); /* inherited by the keeper and the run */
	s.keeper = fork();
	if (s.keeper == 0) {
		close(sv[0]);
		keeper_main(c, sv[1], sup);
	}
	close(sv[1]);
	net_spawned(&c->net); /* the keeper holds the sink's wall end now */
	if (s.keeper < 0) {
		close(sv[0]);
		return -1;
	}
	run_signals_install();
	c->caught = run_caught;
	code = supervise_run(c, &s, sv[0]);
	close(sv[0]);
	return code;
}

