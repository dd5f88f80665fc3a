/* SPDX-License-Identifier: MIT */
/* flow.h -- the `run` verb's flow: run/dispatch.c (run_flow: the order
 * of the steps and the choice of a flow), run/steps.c (the steps every
 * platform shares), run/keeper.c (the forked keeper, init and
 * supervisor, POSIX; run/nokeeper.c refuses it where there is no fork)
 * with run/supervise.c (the supervisor's wait, signals and the keeper
 * channel), run/nofork.c (no fork: Windows) and run/decide.c (the pure
 * decisions both use).  Internal to the host. */
#ifndef NS_HOST_RUN_FLOW_H
#define NS_HOST_RUN_FLOW_H

#include <stdint.h>
#include <sys/types.h>

#include "base/hostrun.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "net/net.h"
#include "policy/policy.h"
#include "wall/session.h"
#include "proc/caps.h"
#include "run/lines.h"
#include "run/runargs.h"

/* keeper -> supervisor: 'R' ready (+ the root descriptor), 'P' prepared,
 * 'I' init started (val = its pid), 'F' refused (val = the exit code).
 * supervisor -> keeper: 'G' go. */
struct kmsg {
	char type;
	int64_t val;
};

int kmsg_send(int sock, char type, int64_t val, int fd);
int kmsg_recv(int sock, struct kmsg *m, int *fd);

struct sv {
	pid_t keeper;
	pid_t init;
	uint64_t timeout_at, grace_at;
	int timed_out, signalled;
	int code;           /* set by a timeout or a caught signal, else -1 */
	const struct caps_watch *watch; /* the place's tmpfs, for --max-mem */
	int caps_native;    /* the wall keeps the caps (NS_WALL_CAPS_NATIVE) */
	int capped;         /* the supervisor ended the run past a cap */
	struct net_run *net; /* --net-allow's proxy: its lines, live */
};
#define SV_INIT { 0, 0, 0, 0, 0, 0, -1, NULL, 0, 0, NULL }

#define RUN_SV_TIMEOUT 0x1 /* print TIMEOUT, SIGTERM the run */
#define RUN_SV_STOP 0x2    /* the grace is over: go to the kill step */
int run_decide(struct sv *s, uint64_t now, int caught);
uint64_t run_next_wake(const struct sv *s, uint64_t now);
/* "SANDBOX TIMEOUT after=<d> name=<n>" */
void run_timeout_line(const struct run_args *a);

void run_signals_install(void);
void run_set_target(pid_t pid);
int run_caught(void);
int run_supervise(struct sv *s, const struct run_args *a);

/* The end of a run: wait this long for the tool's children to be gone by
 * themselves before the kill (the place's namespace is already going). */
#define RUN_GONE_MS 20

int run_flow(const struct hostrun *hr, struct run_args *a, char **args);

/* ---- the steps' shared state and the steps both flows call ----------- */

struct runctx {
	struct wallctx w;
	struct module pm;
	struct hostsvc phs;
	struct refusals pr;   /* the place module's refusals */
	struct sbuf ptext;
	struct ns_place place;
	int created;
	int create_said;      /* the create step's state=done is printed */
	struct caps_watch watch; /* the place's root, when a memory fs */
	struct strv reads;    /* resolved --read */
	struct strv writes;   /* resolved --write (outside the place) */
	char *scratch;        /* resolved --scratch (Windows), or NULL */
	int out_fd;           /* --out, opened before the command (-1) */
	char *out;            /* ... its resolved name, for messages */
	int unsaved;          /* the hand-off failed writing and nothing
			       * else took the artifacts: the place holds
			       * the only copy */
	int64_t held;         /* ... and a holder process keeps the place,
			       * which would die with the tool (keephold.c),
			       * open: its pid, else 0 */
	int (*caught)(void);  /* the stop signal the flow's handler caught
			       * last (0 none), once it is installed */
	struct strv homes;    /* the caller's homes (home guard) */
	struct net_list net_entries; /* rule 7: --net-allow's entries */
	struct net_run net;   /* ... and their proxy (host/net/) */
	const struct hostrun *hr;
	struct run_args *a;
	char **args;
	uint64_t t0;
};

/* Before anything is made: every check of the words and the world
 * (refusals into r): 1 when there is one, else 0. */
int flow_preflight(struct runctx *c, struct refusals *r);
/* Its network steps (run/netpre.c): rule 7's entries, proxy module and
 * wall features (-1 ENOMEM; refusals into r), and --egress's live table. */
int flow_net_check(struct runctx *c, struct refusals *r);
void flow_egress_check(struct runctx *c, struct refusals *r);
/* What killed hand-offs left in --out, cleared before the run. */
void flow_sweep_out(struct runctx *c);
/* The place exists: what the caller cannot see in it (refusals into r). */
void flow_hidden_check(struct runctx *c, struct refusals *r);
/* The run's policy for the place (its root the one write, work/ the
 * working directory, home/ the home, tmp/), with the own-files check:
 * policy_build's codes. */
int flow_policy(struct runctx *c, struct policy *pol, struct refusals *r);
/* The NOTE lines, then SANDBOX OK. */
void flow_notes(struct runctx *c, const struct policy *pol);
void flow_ok_line(struct runctx *c, const struct policy *pol);
/* The create step's state=done, once. */
void flow_create_done(struct runctx *c);
/* Kill, handoff, measure, delete, DONE (and LEAK): the run's exit code.
 * ran: the command ran (the handoff is due). */
int flow_finish(struct runctx *c, struct sv *s, int code, int ran);

/* The forked flow (run/keeper.c; where the host has no fork, run/
 * nokeeper.c's refuses): the run's exit code, or -1 when it could not
 * start (then flow_finish). */
int flow_fork(struct runctx *c);
/* Does the no-fork flow fit (run/nofork.c; decided in run/steps.c): a place without enter() and
 * a wall that waits for, ends and caps its own tree (wait, terminate,
 * NS_WALL_CAPS_NATIVE)?  It runs where the host has no reaper (reaper.h);
 * elsewhere the forked flow does. */
int flow_nofork_fits(const struct runctx *c);
int flow_nofork(struct runctx *c);

#endif
