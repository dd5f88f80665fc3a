/* SPDX-License-Identifier: MIT */
/* ll_spawn.h -- landlock.so's state between prepare() and spawn(). */
#ifndef NS_LL_SPAWN_H
#define NS_LL_SPAWN_H

#include <stdint.h>

#include "ll_audit.h"
#include "ns_backend.h"

/* The most descriptors a launch may pass beyond 0..2 (the child shuffles
 * them in a fixed array: no malloc between fork and exec). */
#define LL_MAX_EXTRA_FDS 64

struct ll_state {
	int ruleset;        /* the main layer; -1 once the tool is in it */
	int abi;            /* the built ABI */
	uint32_t pol_flags; /* NS_POLICY_* at prepare() */
	int restricted;     /* the calling process is confined */
	int ns_cwd;         /* rule 5a: the cwd in the wall's namespace, or -1 */
	/* 1.2: the last command spawn() started, for wait() and finish() */
	int cmd;               /* its pid */
	int done;              /* wait() has seen it end */
	int status;            /* then: its wait status */
	struct ll_trace *trace; /* --explain: the tracer (ll_trace.c) */
	struct ll_audit audit;  /* the audit records' source (ll_audit.h) */
};

int ll_host_ok(const struct ns_host *host);
int ll_policy_ok(const struct ns_host *host, const struct ns_policy *pol);
struct ll_trace;

int ll_spawn(const struct ns_host *host, void *state,
	     const struct ns_policy *pol, const struct ns_launch *launch,
	     struct ns_proc *out);

int ll_wait(const struct ns_host *host, void *state,
	    const struct ns_proc *proc, int64_t timeout_ms, struct ns_exit *out);
int ll_finish(const struct ns_host *host, void *state,
	      const struct ns_finish *fin);

#endif
