/* SPDX-License-Identifier: MIT */
/* ll_spawn.c -- restrict-self-then-spawn.
 *
 * Parent (once per process): no_new_privs, not dumpable, then
 * landlock_restrict_self with the prepared ruleset.  Then, per command:
 * clone(CLONE_VM|CLONE_VFORK) on a stack of its own, as posix_spawn does,
 * so the tool's page tables are not copied; the parent sleeps until the
 * child has exec'd or exited.  The child shares the tool's memory, so it
 * touches nothing but its own stack and the child_ctx prepared before the
 * clone (async-signal-safe calls only, no malloc): it resets signals,
 * places the descriptors, adds a nested scope layer so the command can
 * neither signal nor ptrace the tool, closes every other descriptor,
 * builds the seccomp filter with its own pid (the command's: the pid-taking
 * calls are allowed on it and on 0 only; under `run` it is the number in
 * the run's PID namespace, the one the command sees) on its own stack and
 * installs it, changes directory and execs.  A failure in
 * the child is stored in the shared child_ctx as (errno, step) and the
 * child _exits 127; step 0 once the parent resumes means execve succeeded.
 * The child stays in the caller's process group.
 *
 * --explain (NS_POLICY_EXPLAIN, ll_trace.c) takes another road: fork(),
 * not the vfork clone, because the parent must attach before the child
 * installs its filters.  The child makes itself dumpable (it holds a copy
 * of the tool's memory and nothing the user could not read anyway; exec
 * resets it), says it is ready on a pipe and waits on a second one; the
 * parent PTRACE_SEIZEs it and lets it go.  After the first filter the
 * child installs the trace filter; a failure is stored in a shared page
 * (the child's memory is its own now), and the parent services the
 * child's stops until its exec event (started) or its exit (failed).
 * Without the flag nothing of this runs: the same clone, the same calls. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define STACK_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define STACK_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "banned.h"
#include "ll_filter.h"
#include "ll_netns.h"
#include "ll_protect.h"
#include "ll_spawn.h"
#include "ll_table.h"
#include "ll_trace.h"

#define LAUNCH_SIZE_1_0 (offsetof(struct ns_launch, n_extra_fds) + sizeof(size_t))
#define PROC_SIZE_1_0 (offsetof(struct ns_proc, handle) + sizeof(uintptr_t))

enum step { STEP_SIGNALS = 1, STEP_FDS, STEP_SCOPE, STEP_CLOSE, STEP_SECCOMP,
	    STEP_CHDIR, STEP_EXEC, STEP_TRACE, STEP_CAPS };

static const char *const step_names[] = {
	[STEP_SIGNALS] = "resetting signals",
	[STEP_FDS] = "placing descriptors",
	[STEP_SCOPE] = "nested scope layer",
	[STEP_CLOSE] = "closing descriptors",
	[STEP_SECCOMP] = "seccomp filter",
	[STEP_CHDIR] = "chdir",
	[STEP_EXEC] = "execve",
	[STEP_TRACE] = "--explain tracer",
	[STEP_CAPS] = "dropping capabilities",
};

struct child_report {
	int32_t err;
	int32_t step;
};

/* The child's stack: it runs a few small frames, then execs. */
#define CHILD_STACK (64 * 1024)

/* Everything the child needs, computed before the clone; rep is the one
 * thing the child writes (the parent is asleep until it execs or exits). */
struct child_ctx {
	const struct ns_policy *pol;
	const struct ns_launch *launch;
	struct nova_ll_ruleset_attr scope;
	uint32_t restrict_flags;
	int net_deny;
	int cwd_fd; /* the host's descriptor of pol->cwd, or -1 */
	struct child_report rep;
	/* --explain only (else -1, -1, 0, &rep) */
	int ready_fd, go_fd; /* the handshake with the tracer */
	int trace;           /* install the trace filter */
	int trace_connect;   /* and trace connect (--net-allow, abi 4+) */
	struct child_report *repp; /* where a failure is stored */
};

/* ---- the child ------------------------------------------------------- */

static void __attribute__((noreturn))
child_fail(struct child_ctx *c, enum step step)
{
	c->repp->err = errno;
	c->repp->step = step;
	_exit(127);
}

static int
child_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	int s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (s = 1; s < NSIG; s++) {
		struct sigaction old;

		/* the host ignores none: an ignored one is the caller's, and
		 * stays ignored across the exec as it would without the wall */
		if (sigaction(s, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		(void)sigaction(s, &sa, NULL); /* KILL/STOP/RT: EINVAL */
	}
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Move every source descriptor above the targets first, then dup2 into
 * place: a source may sit on another's target. */
static int
child_fds(const struct child_ctx *c)
{
	const struct ns_launch *l = c->launch;
	int tmp[3 + LL_MAX_EXTRA_FDS];
	int base = 3 + (int)l->n_extra_fds;
	size_t i;

	for (i = 0; i < 3 + l->n_extra_fds; i++) {
		int src = i < 3 ? l->stdio[i] : l->extra_fds[i - 3];

		tmp[i] = -1;
		if (src >= 0 && (tmp[i] = fcntl(src, F_DUPFD_CLOEXEC, base)) < 0)
			return -1;
	}
	for (i = 0; i < 3 + l->n_extra_fds; i++)
		if (tmp[i] >= 0 && dup2(tmp[i], (int)i) < 0)
			return -1;
	return 0;
}

static int
child_scope(const struct child_ctx *c)
{
	int fd = ll_sys_create_ruleset(&c->scope);

	if (fd < 0)
		return -1;
	if (ll_sys_restrict_self(fd, c->restrict_flags) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static int
close_span(unsigned int lo, unsigned int hi)
{
	struct rlimit rl;
	unsigned int fd;

	if (lo > hi)
		return 0;
	if (syscall(SYS_close_range, lo, hi, 0U) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	for (fd = lo; fd <= hi && fd < rl.rlim_cur; fd++)
		(void)close((int)fd);
	return 0;
}

/* Every descriptor above 2 + n_extra. */
static int
child_close(const struct child_ctx *c)
{
	return close_span(3 + (unsigned int)c->launch->n_extra_fds, ~0U);
}

/* The filter names the command's own pid, so it is built here, after the
 * clone: pure code on this stack, no allocation. */
static int
child_seccomp(const struct child_ctx *c)
{
	struct sock_filter prog[LL_FILTER_MAX];
	struct sock_fprog fprog;
	int n = c->trace ? ll_filter_build_traced(prog, c->net_deny, getpid())
			 : ll_filter_build(prog, c->net_deny, getpid());

	if (n < 0) {
		errno = ENOSYS;
		return -1;
	}
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
}

/* --explain: dumpable (PTRACE_SEIZE needs it), ready, then wait until the
 * parent has attached. */
static int
child_handshake(const struct child_ctx *c)
{
	char b = 'r';

	if (prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L) != 0 ||
	    write(c->ready_fd, &b, 1) != 1)
		return -1;
	if (read(c->go_fd, &b, 1) != 1) {
		errno = EPIPE;
		return -1;
	}
	return 0;
}

static int
child_trace_filter(const struct child_ctx *c)
{
	struct sock_filter prog[LL_TRACE_FILTER_MAX];
	struct sock_fprog fprog;
	int n = ll_trace_filter_build(prog, c->trace_connect);

	if (n < 0) {
		errno = ENOSYS;
		return -1;
	}
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
}

/* The command holds no capability: the tool's caller may have ambient
 * ones (setpriv --ambient-caps, a service's AmbientCapabilities=), and
 * CAP_AUDIT_READ, CAP_NET_RAW or CAP_SYS_PTRACE would reach past the
 * wall.  Ambient cleared and every set emptied in this task only (the
 * supervisor keeps its own, e.g. for the audit records); no_new_privs
 * keeps an exec from gaining any back. */
static int
child_caps(void)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522u, 0 }; /* _LINUX_CAPABILITY_VERSION_3 */
	struct {
		uint32_t effective, permitted, inheritable;
	} none[2];

	memset(none, 0, sizeof(none));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0L, 0L, 0L) != 0 &&
	    errno != EINVAL)
		return -1;
	return (int)syscall(SYS_capset, &hdr, none);
}

static int __attribute__((noreturn))
child_main(void *arg)
{
	struct child_ctx *c = arg;
	const struct ns_policy *p = c->pol;

	if (child_signals() != 0)
		child_fail(c, STEP_SIGNALS);
	/* The host's descriptor of the working directory, before any launch
	 * descriptor is placed over its number; child_close closes it. */
	if (c->cwd_fd >= 0 && fchdir(c->cwd_fd) != 0)
		child_fail(c, STEP_CHDIR);
	if (c->ready_fd >= 0 && child_handshake(c) != 0)
		child_fail(c, STEP_TRACE);
	if (child_fds(c) != 0)
		child_fail(c, STEP_FDS);
	if (child_scope(c) != 0)
		child_fail(c, STEP_SCOPE);
	if (child_close(c) != 0)
		child_fail(c, STEP_CLOSE);
	if (child_caps() != 0)
		child_fail(c, STEP_CAPS);
	if (child_seccomp(c) != 0)
		child_fail(c, STEP_SECCOMP);
	if (c->trace && child_trace_filter(c) != 0)
		child_fail(c, STEP_TRACE);
	if (c->cwd_fd < 0 && chdir(p->cwd) != 0)
		child_fail(c, STEP_CHDIR); /* an older host: by name */
	execve(p->command, (char *const *)p->argv, (char *const *)p->envp);
	child_fail(c, STEP_EXEC);
}

/* ---- the parent ------------------------------------------------------ */

static int
fail(const struct ns_host *host, const char *what, int err)
{
	char text[512];

	snprintf(text, sizeof(text), "%s: %s", what, strerror(err));
	host->refuse(host->cookie, "sandbox_failed", text);
	return NS_E_SYSTEM;
}

/* Before the Landlock domain (which may not change mounts, nor write the
 * maps in /proc): rule 5a's protected paths bound read-only in a
 * namespace of the wall's own, and the working directory re-opened
 * there; --net-allow's network namespace, its listeners sent to the
 * proxy (ll_netns.c).  Once per process: every later spawn is inside. */
static int
protect_once(const struct ns_host *host, struct ll_state *st,
	     const struct ns_policy *pol)
{
	struct ll_pfail f;
	char what[256];

	if (!ll_ns_wanted(pol))
		return NS_OK;
	if (ll_protect_enter(pol, &st->ns_cwd, ll_netns_wanted(pol) ?
			     pol->net_sink : -1, &f) == 0)
		return NS_OK;
	if (f.step >= LL_PS_LO || (f.step <= LL_PS_PRIVATE &&
				   !ll_protect_wanted(pol)))
		snprintf(what, sizeof(what), "cannot make the wall's "
			 "namespace (%s)", ll_protect_step(f.step));
	else
		snprintf(what, sizeof(what), "cannot protect %s (%s)",
			 f.step == LL_PS_CWD ? pol->cwd :
			 pol->protect[f.index], ll_protect_step(f.step));
	errno = f.err;
	return fail(host, what, f.err);
}

/* Confine the calling process, once: every later spawn is inside. */
static int
restrict_once(const struct ns_host *host, struct ll_state *st,
	      const struct ns_policy *pol)
{
	int rc;

	if (st->restricted)
		return NS_OK;
	if ((rc = protect_once(host, st, pol)) != NS_OK)
		return rc;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0)
		return fail(host, "cannot set no_new_privs", errno);
	/* Not dumpable: a same-uid process cannot ptrace or read the tool's
	 * /proc files (landlock.md 4.5). */
	if (prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L) != 0)
		return fail(host, "cannot clear the dumpable flag", errno);
	if (ll_sys_restrict_self(st->ruleset, ll_restrict_flags(st->abi)) != 0)
		return fail(host, "landlock_restrict_self failed", errno);
	st->restricted = 1;
	close(st->ruleset);
	st->ruleset = -1;
	return NS_OK;
}

/* Every extra descriptor is a real one: a -1 would leave the tool's own
 * descriptor with that number open in the command (child_fds places
 * nothing there and child_close starts above it). */
static int
extras_valid(const struct ns_launch *l)
{
	if (l->n_extra_fds > 0 && l->extra_fds == NULL)
		return 0;
	for (size_t i = 0; i < l->n_extra_fds; i++)
		if (l->extra_fds[i] < 0)
			return 0;
	return 1;
}

static int
check_args(const struct ns_host *host, const struct ll_state *st,
	   const struct ns_policy *pol, const struct ns_launch *launch,
	   const struct ns_proc *out)
{
	if (launch == NULL || launch->struct_size < LAUNCH_SIZE_1_0 ||
	    out == NULL || out->struct_size < PROC_SIZE_1_0 || st == NULL)
		return fail(host, "landlock.so: spawn called without its "
				  "state, launch or proc", EINVAL);
	if (launch->n_extra_fds > LL_MAX_EXTRA_FDS)
		return fail(host, "landlock.so: more than 64 descriptors to "
				  "pass", E2BIG);
	if (!extras_valid(launch))
		return fail(host, "landlock.so: an extra descriptor to pass "
				  "is missing", EBADF);
	if ((pol->flags ^ st->pol_flags) &
	    (NS_POLICY_NET_DENY | NS_POLICY_NET_PROXIED))
		return fail(host, "landlock.so: the policy's network (net-deny, "
				  "proxied) differs from the one prepared",
			    EINVAL);
	if (pol->command == NULL || pol->argv == NULL || pol->envp == NULL ||
	    pol->cwd == NULL)
		return fail(host, "landlock.so: the policy has no command, "
				  "argv, envp or cwd", EINVAL);
	return NS_OK;
}

static int
reap_failed(const struct ns_host *host, const struct ns_policy *pol,
	    pid_t pid, const struct child_report *rep)
{
	char text[768];
	int status;
	const char *step = "unknown step";

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rep->step >= STEP_SIGNALS && rep->step <= STEP_TRACE)
		step = step_names[rep->step];
	snprintf(text, sizeof(text), "could not start %s: %s (%s)",
		 pol->command, strerror(rep->err), step);
	host->refuse(host->cookie, "sandbox_failed", text);
	return NS_E_SYSTEM;
}

/* Start the child; its pid, or -1 (refused).  CLONE_VFORK: this returns
 * once the child has exec'd or exited, and c->rep says which. */
static pid_t
clone_child(const struct ns_host *host, struct child_ctx *c)
{
	static const int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	char stack[CHILD_STACK] __attribute__((aligned(16)));
	sigset_t all, old;
	pid_t pid;
	int e;

	/* No host signal handler may run in the child before its reset: it
	 * would run on the tool's memory. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = clone(child_main, stack + sizeof(stack), flags, c);
	e = errno;
	/* The child's frames (never returned from: it execs) left ASan's
	 * redzone marks on this array; clear them before the tool reuses the
	 * memory.  Nothing without ASan. */
	STACK_UNPOISON(stack, sizeof(stack));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		fail(host, "cannot start the command", e);
	return pid;
}

/* ---- --explain: fork, attach, let go ------------------------------------ */

static void
close_pair(int *p)
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/* Attach to the child once it is ready, then let it go; 0, or -1 with
 * errno (the child is then killed and reaped). */
static int
attach(pid_t pid, int ready, int go)
{
	char b;
	int e, st;

	if (read(ready, &b, 1) == 1 && ll_trace_seize(pid) == 0 &&
	    write(go, &b, 1) == 1)
		return 0;
	e = errno ? errno : EPIPE;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, __WALL) < 0 && errno == EINTR)
		;
	errno = e;
	return -1;
}

/* Service the child's stops until its exec event (1) or its end (0, its
 * report in rep). */
static int
until_exec(struct ll_trace *t, pid_t pid)
{
	int st, execd = 0;

	while (!execd) {
		if (waitpid(pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (!WIFSTOPPED(st))
			return 0;
		ll_trace_stop(t, pid, st, &execd);
	}
	return 1;
}

static pid_t
fork_traced(const struct ns_host *host, struct child_ctx *c,
	    struct ll_trace *t)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, e;
	struct child_report *rep;
	sigset_t all, old;
	pid_t pid;

	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		return fail(host, "--explain: no shared page", errno), -1;
	memset(rep, 0, sizeof(*rep));
	if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) {
		e = errno;
		close_pair(ready);
		munmap(rep, sizeof(*rep));
		return fail(host, "--explain: no pipe", e), -1;
	}
	c->repp = rep;
	c->ready_fd = ready[1];
	c->go_fd = go[0];
	c->trace = 1;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0)
		child_main(c);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(ready[1]);
	close(go[0]);
	ready[1] = go[0] = -1;
	if (pid > 0 && attach(pid, ready[0], go[1]) != 0) {
		e = errno;
		pid = -1;
	}
	close_pair(ready);
	close_pair(go);
	if (pid < 0) {
		munmap(rep, sizeof(*rep));
		return fail(host, "--explain: cannot start and trace the "
				  "command", e), -1;
	}
	if (!until_exec(t, pid) && rep->step == 0)
		rep->step = STEP_TRACE; /* ended before its exec, unsaid */
	c->rep = *rep;
	munmap(rep, sizeof(*rep));
	return pid;
}

static int
spawn_traced(const struct ns_host *host, struct ll_state *st,
	     const struct ns_policy *pol, struct child_ctx *c, pid_t *pid)
{
	struct sock_filter prog[LL_TRACE_FILTER_MAX];

	c->trace_connect = ll_netns_wanted(pol) && st->abi >= 4;
	if (ll_trace_filter_build(prog, c->trace_connect) < 0)
		return fail(host, "--explain: no trace filter for this "
				  "architecture", ENOSYS);
	ll_trace_free(st->trace);
	st->trace = ll_trace_new(pol->rules, pol->n_rules,
				 (pol->flags & NS_POLICY_NET_DENY) != 0,
				 c->trace_connect);
	if (st->trace == NULL)
		return fail(host, "--explain: out of memory", ENOMEM);
	*pid = fork_traced(host, c, st->trace);
	return *pid < 0 ? NS_E_SYSTEM : NS_OK;
}

int
ll_spawn(const struct ns_host *host, void *state, const struct ns_policy *pol,
	 const struct ns_launch *launch, struct ns_proc *out)
{
	struct ll_state *st = state;
	struct sock_filter prog[LL_FILTER_MAX];
	struct child_ctx c;
	pid_t pid;
	int n, rc;

	if (!ll_host_ok(host))
		return NS_E_INTERNAL;
	if (!ll_policy_ok(host, pol))
		return NS_E_INTERNAL;
	if ((rc = check_args(host, st, pol, launch, out)) != NS_OK)
		return rc;
	memset(&c, 0, sizeof(c));
	c.ready_fd = c.go_fd = -1;
	c.repp = &c.rep;
	/* the child builds its own with its pid; this one proves, before
	 * the clone, that one can be built here (any pid will do) */
	c.net_deny = (st->pol_flags & NS_POLICY_NET_DENY) ? LL_NET_DENY :
		     (st->pol_flags & NS_POLICY_NET_PROXIED) ? LL_NET_PROXIED : 0;
	n = ll_filter_build(prog, c.net_deny, getpid());
	if (n < 0)
		return fail(host, "landlock.so has no seccomp filter for this "
				  "architecture", ENOSYS);
	c.pol = pol;
	c.launch = launch;
	c.cwd_fd = NS_POLICY_HAS_FDS(pol) && pol->cwd_fd != NULL ?
			   *pol->cwd_fd : -1;
	ll_scope_layer(st->abi, &c.scope);
	c.restrict_flags = ll_restrict_flags(st->abi);
	if ((rc = restrict_once(host, st, pol)) != NS_OK)
		return rc;
	if (st->ns_cwd >= 0)
		c.cwd_fd = st->ns_cwd; /* the old namespace's is not walled */
	if (st->pol_flags & NS_POLICY_EXPLAIN) {
		if ((rc = spawn_traced(host, st, pol, &c, &pid)) != NS_OK)
			return rc;
	} else if ((pid = clone_child(host, &c)) < 0) {
		return NS_E_SYSTEM;
	}
	st->cmd = pid;
	st->done = 0;
	if (c.rep.step != 0)
		return reap_failed(host, pol, pid, &c.rep);
	out->pid = pid;
	out->handle = 0;
	return NS_OK;
}
