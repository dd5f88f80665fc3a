/* SPDX-License-Identifier: MIT */
/* decide.c -- the supervisor's pure decisions for `run` (the timeout, a
 * caught signal, their grace, how long to sleep) and the TIMEOUT line:
 * no fork, no signal, every platform builds it (run/supervise.c and
 * run/nofork.c both use them). */
#include <stdio.h>
#include <stdlib.h>

#include "base/out.h"
#include "run/flow.h"

void
run_timeout_line(const struct run_args *a)
{
	char *d = out_field(a->timeout_s), *n = out_field(a->name);

	out_kind(stderr, "SANDBOX", OUT_TIMEOUT,
		 "after=%s name=%s", d ? d : "-",
		 n ? n : "-");
	free(d);
	free(n);
}

/* The supervisor's decision for one pass (pure): a caught signal N sets
 * the status 128+N and a grace; the timeout sets 124, asks for SIGTERM and
 * a grace; the first cause decides the status.  Returns RUN_SV_* bits. */
int
run_decide(struct sv *s, uint64_t now, int caught)
{
	int act = 0;

	if (caught && !s->signalled) {
		s->signalled = 1;
		if (s->code < 0)
			s->code = NS_EXIT_SIGNAL + caught;
		if (s->grace_at == 0)
			s->grace_at = now + RUN_GRACE_MS;
	}
	if (s->timeout_at && now >= s->timeout_at && !s->timed_out) {
		s->timed_out = 1;
		if (s->code < 0)
			s->code = NS_EXIT_TIMEOUT;
		if (s->grace_at == 0 || s->grace_at > now + RUN_GRACE_MS)
			s->grace_at = now + RUN_GRACE_MS;
		act |= RUN_SV_TIMEOUT;
	}
	if (s->grace_at && now >= s->grace_at)
		act |= RUN_SV_STOP;
	return act;
}

/* How long to sleep: at most a second (the cap count), less when the
 * timeout or a grace comes first; at least 1 ms. */
uint64_t
run_next_wake(const struct sv *s, uint64_t now)
{
	uint64_t w = now + 1000;

	if (s->timeout_at && !s->timed_out && s->timeout_at < w)
		w = s->timeout_at;
	if (s->grace_at && s->grace_at < w)
		w = s->grace_at;
	return w > now ? w - now : 1;
}
