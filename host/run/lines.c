/* SPDX-License-Identifier: MIT */
/* lines.c -- run's and reap's lines (STEP, NOTE, LEAK, the refusals) and
 * the monotonic clock their times come from: nothing here forks, waits or
 * signals, so every platform's build has it (reap on Windows too). */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "base/out.h"
#include "wall/session.h"
#include "run/lines.h"

uint64_t
run_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

void
run_step(const char *step, uint64_t since)
{
	if (since == 0)
		out_kind(stderr, "SANDBOX", OUT_STEP,
			 "name=%s state=start", step);
	else
		out_kind(stderr, "SANDBOX", OUT_STEP,
			 "name=%s state=done ms=%llu", step,
			 (unsigned long long)(run_now_ms() - since));
}

void
run_note(const char *text)
{
	out_note("SANDBOX", text);
}

/* The caller's run line, for fd_limit's remedy (run_line_set). */
static const struct cmdline *run_line;

void
run_line_set(const struct cmdline *line)
{
	run_line = line;
}

int
run_refuse(struct refusals *r, int code)
{
	if (run_line != NULL && wall_fd_errno(r) != 0)
		remedy_keep(r, run_line); /* a place refusal keeps none */
	wall_fd_cause(r); /* out of descriptors: the one cause */
	out_refusals(stderr, "SANDBOX", r, "nova-sandbox help run", 0);
	refusals_free(r);
	return code;
}

void
run_leak_line(const char *name, const char *id, const char *remedy)
{
	char *n = out_field(name), *v = out_field(id), *rm = out_text(remedy);

	out_kind(stderr, "SANDBOX", OUT_LEAK, "name=%s volume=%s remedy=\"%s\"",
		 n ? n : "-", v ? v : "-", rm ? rm : "-");
	free(n);
	free(v);
	free(rm);
}

