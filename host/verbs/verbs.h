/* SPDX-License-Identifier: MIT */
/* verbs.h -- the verbs: one file each in host/verbs/, called by main.c's
 * verb table.  Each returns the process's exit code. */
#ifndef NS_HOST_VERBS_H
#define NS_HOST_VERBS_H

#include <stddef.h>

#include "base/flags.h"
#include "base/hostrun.h"

/* The verbs (host/verbs/<verb>.c).  argv[0] is the verb word, except for the
 * bare wrap where argv holds every word after the program name. */
int verb_wrap(const struct hostrun *hr, int argc, char **argv);
int verb_check(const struct hostrun *hr, int argc, char **argv);
int verb_policy(const struct hostrun *hr, int argc, char **argv);
int verb_probe(const struct hostrun *hr, int argc, char **argv);
int verb_probe_step(const struct hostrun *hr, int argc, char **argv);
int verb_version(const struct hostrun *hr, int argc, char **argv);
/* run and reap (host/verbs/run.c, host/verbs/reap.c): reference 8 and 9. */
int verb_run(const struct hostrun *hr, int argc, char **argv);
int verb_reap(const struct hostrun *hr, int argc, char **argv);
/* The banner on stdout. */
int verb_help(void);
/* Per-verb help for `verb` on stdout; returns 0, or -1 for no such help. */
int verb_help_for(const char *verb);

/* `nova-sandbox modules [--json]`: per configured module (every role of
 * this platform), its file, name, version, ABI, roles and whether it is
 * available here.  Returns the exit code (0 ok, 1 no wall is available,
 * 2 could not run: usage or config refused). */
int verb_modules(const struct hostrun *hr, int argc, char **argv);

/* `nova-sandbox egress plan|apply|check|drop`: argv[0] is "egress".
 * Returns the exit code: 0 done, 1 invariants or the kernel said NO, 2
 * could not run. */
int verb_egress(const struct hostrun *hr, int argc, char **argv);
/* `nova-sandbox worktree` (host/verbs/worktree.c, reference 10): 0 done,
 * 1 prune could not remove a tree it chose, 2 could not run. */
int verb_worktree(const struct hostrun *hr, int argc, char **argv);
/* Its flag table, for its help. */
extern const struct flagdef *const worktree_flags;
extern const size_t worktree_nflags;
/* Pure parts, exposed for the unit tests: owner/name out of a remote URL
 * (heap, or NULL) and the three fields of gh's JSON (0, or -1). */
char *worktree_owner_name(const char *url);
int worktree_parse_pr(const char *text, char **head, char **base,
		      char **state);

/* The egress help (sub may be NULL or a sub-verb); 0 or -1. */
int egress_help(const char *sub);

#endif
