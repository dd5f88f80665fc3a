/* SPDX-License-Identifier: MIT */
/* bench.h -- the wrap's phase exits for `make bench`'s breakdown of where
 * the wrap's time goes.  They exist only in the bench's own build of the
 * tool (make BENCH_PHASES=1, into <build>/phases): in every other build
 * BENCH_PHASE() is nothing, and no environment variable changes what the
 * tool does. */
#ifndef NS_HOST_BASE_BENCH_H
#define NS_HOST_BASE_BENCH_H

/* The phases, in the order the wrap reaches them. */
enum bench_phase {
	BENCH_STARTED = 1, /* main reached the verb: exec, loader, libc */
	BENCH_WALL_OPEN,   /* config read, module trusted, loaded, asked */
	BENCH_POLICY,      /* every caller path walked, rule 5's checks */
	BENCH_OWNFILES,    /* the tool's own files kept out of the writes */
	BENCH_RULESET,     /* the module built the ruleset */
	BENCH_SPAWN        /* notes, OK line, caps set: about to spawn */
};

#ifdef NS_BENCH_PHASES
/* _exit(0) when NOVA_BENCH_PHASE names this phase (its number). */
void bench_phase(enum bench_phase p);
#define BENCH_PHASE(p) bench_phase(p)
#else
#define BENCH_PHASE(p) ((void)0)
#endif

#endif
