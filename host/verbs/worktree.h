/* SPDX-License-Identifier: MIT */
/* worktree.h -- the worktree verb's parsed flags, shared by its flag table
 * (worktree_flags.c: built on every platform, for `help worktree`) and the
 * verb (worktree.c), and the pure checks of worktree_parse.c. */
#ifndef NS_VERBS_WORKTREE_H
#define NS_VERBS_WORKTREE_H

#include <stddef.h>

struct wtargs {
	const char *repo, *scratch, *pr, *base;
	int prune;
	int valueless[4]; /* repo scratch pr base: the last word, no value */
};

/* worktree_parse.c: git's branch-name rules (check-ref-format --branch);
 * s is n lowercase hex digits */
int wt_branch_ok(const char *b);
int wt_hex_lower(const char *s, size_t n);

#endif
