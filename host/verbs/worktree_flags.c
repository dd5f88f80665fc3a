/* SPDX-License-Identifier: MIT */
/* worktree_flags.c -- the worktree verb's flags: one table for the verb
 * (worktree.c) and for `help worktree`, built on every platform even where
 * the verb itself is not (docs/WINDOWS.md). */
#include <stddef.h>

#include "base/flags.h"
#include "verbs/verbs.h"
#include "verbs/worktree.h"

static const struct flagdef wt_flags[] = {
	{ "base", FK_VALUE, 1, 0, NULL, offsetof(struct wtargs, base),
	  "the `branch` recorded as the base (default: the forge's)" },
	{ "pr", FK_VALUE, 1, 0, NULL, offsetof(struct wtargs, pr),
	  "the pull request's number, an `id` above 0" },
	{ "prune", FK_SWITCH, 1, 0, NULL, offsetof(struct wtargs, prune),
	  "remove the trees whose pull request is merged, closed or stale" },
	{ "repo", FK_VALUE, 1, 0, NULL, offsetof(struct wtargs, repo),
	  "the repository, an absolute `dir` git calls a work tree" },
	{ "scratch", FK_VALUE, 1, 0, NULL, offsetof(struct wtargs, scratch),
	  "the existing `dir` the trees and their records live in" },
};
#define WT_NFLAGS (sizeof(wt_flags) / sizeof(wt_flags[0]))

const struct flagdef *const worktree_flags = wt_flags;
const size_t worktree_nflags = WT_NFLAGS;
