/* SPDX-License-Identifier: MIT */
/* worktree.h -- the worktree verb's parsed flags, shared by its flag table
 * (worktree_flags.c: built on every platform, for `help worktree`) and the
 * verb (worktree.c). */
#ifndef NS_VERBS_WORKTREE_H
#define NS_VERBS_WORKTREE_H

struct wtargs {
	const char *repo, *scratch, *pr, *base;
	int prune;
	int valueless[4]; /* repo scratch pr base: the last word, no value */
};

#endif
