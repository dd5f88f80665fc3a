/* SPDX-License-Identifier: MIT */
/* cu_tree.h -- a suite's scratch tree: one mkdtemp directory, paths below
 * it that stay valid until the tree is removed, and the few file kinds the
 * suites make.  libc only (the module suites link it too).  Every helper
 * but cu_tree_make aborts on failure: a suite that cannot build its tree
 * has nothing to test. */
#ifndef NS_TESTS_CU_TREE_H
#define NS_TESTS_CU_TREE_H

#include <sys/types.h>

/* mkdtemp("<prefix>.XXXXXX"), resolved with realpath.  0, or -1. */
int cu_tree_make(const char *prefix);
/* The tree's directory (absolute, resolved). */
const char *cu_tree_base(void);
/* "<base>/<rel>", valid until cu_tree_remove. */
const char *cu_path(const char *rel);
/* A directory (an existing one is fine). */
void cu_mkdir(const char *rel);
/* A small shell script ("#!/bin/sh\nexit 0\n") with exactly `mode`. */
void cu_mkfile(const char *rel, mode_t mode);
/* A symbolic link at rel pointing at target (as given). */
void cu_mklink(const char *target, const char *rel);
/* Remove dir and everything below it, depth first, no link followed (any
 * directory: a suite's own scratch too).  nftw's status. */
int cu_rm_tree(const char *dir);
/* Remove the tree and forget every path cu_path returned. */
void cu_tree_remove(void);

#endif
