/* SPDX-License-Identifier: MIT */
/* flow.h -- the `run` verb's flow: run/supervise.c (the supervisor's
 * wait, signals and the keeper channel) and run/flow.c (the steps, the
 * keeper and the init).  Internal to the host. */
#ifndef NS_HOST_RUN_FLOW_H
#define NS_HOST_RUN_FLOW_H

#include <stdint.h>
#include <sys/types.h>

#include "base/hostrun.h"
#include "run/caps.h"
#include "run/lines.h"
#include "run/run.h"

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
};
#define SV_INIT { 0, 0, 0, 0, 0, 0, -1, NULL, 0 }

#define RUN_SV_TIMEOUT 0x1 /* print TIMEOUT, SIGTERM the run */
#define RUN_SV_STOP 0x2    /* the grace is over: go to the kill step */
int run_decide(struct sv *s, uint64_t now, int caught);
uint64_t run_next_wake(const struct sv *s, uint64_t now);

void run_signals_install(void);
void run_set_target(pid_t pid);
int run_caught(void);
int run_supervise(struct sv *s, const struct run_args *a);
int run_kill_all(size_t *left);

int run_flow(const struct hostrun *hr, struct run_args *a, char **args);

#endif
