/* SPDX-License-Identifier: MIT */
/* ownfiles.h -- the tool's own files are never within the wall's reach
 * (docs/SPEC-SANDBOX.md §2 "The tool's own files").
 *
 * What the next run loads unwalled -- the running binary, every module the
 * config names (and the module directory), the config file (or, when none
 * exists, the file the next run would read), the shared libraries mapped
 * now, and the run-name directory of nsplace -- must not be changeable by
 * the command this run walls.  A path is followed from "/" one component
 * at a time (O_PATH|O_NOFOLLOW, links read and followed by hand), and at
 * each directory searched and at the file reached the check asks: is it
 * beneath a write root (device+inode of the root among it and its
 * ancestors), and can the command's uid change it (its owner, or the
 * kernel's write-permission answer)?  Either both: refused.  A file the
 * command may write that has more than one name on a write root's
 * filesystem is refused too (another name may lie beneath the root).
 * The run-name directory is reachable by no root of the wall at all:
 * reading a leftover lock file is enough to block a name (a read lock),
 * so any rule of the policy that is it or above it is `names_reachable`
 * (spec §13 "Run names"). */
#ifndef NS_HOST_OWNFILES_H
#define NS_HOST_OWNFILES_H

#include "base/hostrun.h"
#include "base/remedy.h"
#include "conf/config.h"
#include "policy/policy.h"

/* Check pol's write roots (writes, tmp, cwd) against the tool's own files,
 * for the command's uid, the effective uid now (nothing for 0: no wall
 * runs a command as root).
 * 0 clean; 1 with one `wall_writable` refusal per file in r, or the one
 * `names_reachable` refusal for a read of the run-name directory (and the temp
 * directory the build made removed: a refusal creates nothing); -1 on
 * ENOMEM.  Each refusal ends with the caller's `line` (NULL: none)
 * without the root that reaches the file, or says why no line can be
 * given (the only --write; a root the tool added). */
int ownfiles_check(const struct hostrun *hr, const struct config *cfg,
		   struct policy *pol, const struct cmdline *line,
		   struct refusals *r);

/* The run-name directory of uid (nsplace's rule, spec §13): heap, or NULL
 * on ENOMEM.  Exposed for the tests. */
char *ownfiles_state_dir(uid_t uid);

#endif
