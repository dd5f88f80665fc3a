/* SPDX-License-Identifier: MIT */
/* supervise.c -- the supervisor's primitives for `run` (reference section
 * 8): keeper messages, steps and lines, signals, deadlines and caps, the
 * kill of every descendant.  run/steps.c strings them together.
 *
 * Three processes (docs/ABI.md "The place role"):
 *   supervisor  the tool; never walled: times out, forwards signals,
 *               counts the caps, kills every descendant, copies the
 *               handoff through the place's root descriptor, deletes;
 *   keeper      forked per run: place.enter (private namespaces for
 *               nsplace), sends the root descriptor (SCM_RIGHTS), builds
 *               the policy and prepares the wall, prints SANDBOX OK;
 *   init        the keeper's child (in the place's PID namespace when enter
 *               made one; pid 2 under nsplace, whose /proc anchor is 1):
 *               the wall's spawn, relays signals, exits with the command's
 *               status. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/session.h"
#include "proc/caps.h"
#include "run/flow.h"
#include "run/runargs.h"

static volatile sig_atomic_t g_target; /* init's pid, once known */
static volatile sig_atomic_t g_sig;    /* the last caught signal */

static void
on_signal(int sig)
{
	int saved = errno;

	g_sig = sig;
	if (g_target > 0)
		kill((pid_t)g_target, sig);
	errno = saved;
}

/* ---- the keeper <-> supervisor channel --------------------------------- */

int
kmsg_send(int sock, char type, int64_t val, int fd)
{
	struct kmsg m;

	/* zeroed whole: the 7 bytes of padding after the type leave as 0,
	 * never as whatever the stack held */
	memset(&m, 0, sizeof(m));
	m.type = type;
	m.val = val;
	return os_msg_send(sock, &m, sizeof(m), fd);
}

/* One message; *fd gets a passed descriptor or -1.  0, or -1 on EOF or
 * error (EINTR is returned as -1 with errno EINTR). */
int
kmsg_recv(int sock, struct kmsg *m, int *fd)
{
	return os_msg_recv(sock, m, sizeof(*m), fd);
}

/* ---- the supervisor's wait ------------------------------------------- */

/* Reap what is ready; the keeper's status into *code. */
static void
reap_ready(pid_t keeper, int *code)
{
	int st = 0;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG)) != 0) {
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			return;
		if (p == keeper)
			*code = wait_exit_code(st);
	}
}

/* Sleep for a SIGCHLD, a caught signal or at most `ms`. */
static void
sleep_ms(uint64_t ms)
{
	os_sigchld_wait((long long)ms * 1000000LL);
}

/* Past a cap: the whole tree killed, RUNAWAY printed, CAPS_STATUS. */
static int
over_cap(pid_t init, const struct caps_limits *l)
{
	int over = init > 0 && caps_enforce_said(init, l);

	return over ? CAPS_STATUS : 0;
}

static int
deadlines(struct sv *s, const struct run_args *a, uint64_t now)
{
	int act = run_decide(s, now, g_sig);

	if (act & RUN_SV_TIMEOUT) {
		run_timeout_line(a);
		if (g_target > 0)
			kill((pid_t)g_target, SIGTERM);
	}
	return (act & RUN_SV_STOP) != 0;
}

/* Wait for the keeper (whose status is the command's) until it ends, a
 * deadline passes, a caught signal's grace passes, or a cap is passed (the
 * caps are counted here unless the wall keeps them: NS_WALL_CAPS_NATIVE).
 * Returns the run's status. */
int
run_supervise(struct sv *s, const struct run_args *a)
{
	struct caps_limits l = { a->max_procs, a->max_mem, s->watch };
	uint64_t now = run_now_ms(), tick = now + 1000;
	int kcode = -1;

	s->timeout_at = a->timeout_ms ? now + a->timeout_ms : 0;
	for (;;) {
		reap_ready(s->keeper, &kcode);
		if (s->net != NULL)
			net_tick(s->net);
		if (kcode >= 0)
			break;
		now = run_now_ms();
		if (deadlines(s, a, now))
			break;
		if (now >= tick && !s->caps_native) {
			int rc = over_cap(s->init, &l);

			if (rc) {
				s->capped = 1;
				return rc;
			}
			tick = now + 1000;
		}
		sleep_ms(run_next_wake(s, now));
	}
	if (s->code >= 0)
		return s->code;
	return kcode >= 0 ? kcode : NS_EXIT_REFUSED;
}

void
run_signals_install(void)
{
	os_catch_stop_signals(on_signal);
	os_sigchld_block();
}

void
run_set_target(pid_t pid)
{
	g_target = (sig_atomic_t)pid;
	if (g_sig && pid > 0)
		kill(pid, g_sig);
}

int
run_caught(void)
{
	return g_sig;
}
