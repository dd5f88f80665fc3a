/* SPDX-License-Identifier: MIT */
/* exit.h -- the tool's exit codes, named once.
 * Reference: docs/SPEC-SANDBOX.md section 4 "Exit codes" (and the egress,
 * run, reap and modules sections for their own codes). */
#ifndef NS_HOST_EXIT_H
#define NS_HOST_EXIT_H

/* Every verb. */
#define NS_EXIT_OK 0          /* done; probe: the wall held */
#define NS_EXIT_USAGE 2       /* could not run: probe, policy, check, version,
                               * help, modules, egress, no verb/unknown verb */

/* 1: the verb ran and the answer is no. */
#define NS_EXIT_PROBE_WRONG 1 /* probe: a step got the wrong answer */
#define NS_EXIT_NO_WALL 1     /* modules: no wall is available */
#define NS_EXIT_EGRESS_NO 1   /* egress: the invariants or the kernel said NO */
#define NS_EXIT_WORKTREE_LEFT 1 /* worktree --prune: a tree it chose to remove
                               * could not be removed */

/* 3: something was left behind. */
#define NS_EXIT_LEAK 3        /* run: the place leaked; reap: something remains */

/* The wrap and run (the command's own codes pass through unchanged). */
#define NS_EXIT_TIMEOUT 124   /* run: --timeout passed */
#define NS_EXIT_REFUSED 125   /* the tool refused (bare wrap, run, reap) */
#define NS_EXIT_CANNOT_EXEC 126 /* only ever the command's own: the tool
                                 * itself never exits 126 */
#define NS_EXIT_NOT_FOUND 127 /* the command is not on PATH */
#define NS_EXIT_SIGNAL 128    /* + N: killed by (or caught) signal N */
#define NS_EXIT_CAP 137       /* the process tree reached a cap (RUNAWAY) */

#endif
