/* SPDX-License-Identifier: MIT */
/* ll_protect.h -- the wall's own namespaces for landlock.so, made before
 * landlock_restrict_self (ll_protect.c): rule 5a's read-only binds of the
 * protected paths (a mount namespace) and --net-allow's loopback-only
 * network namespace with its listeners (ll_netns.c), in one user
 * namespace. */
#ifndef NS_LL_PROTECT_H
#define NS_LL_PROTECT_H

#include <stddef.h>

#include "ns_backend.h"

/* The step that failed. */
enum ll_pstep {
	LL_PS_USERNS = 1, LL_PS_SETGROUPS, LL_PS_UIDMAP, LL_PS_GIDMAP,
	LL_PS_PRIVATE, LL_PS_REOPEN, LL_PS_IDENTITY, LL_PS_TREE,
	LL_PS_RDONLY, LL_PS_MOVE, LL_PS_CWD, LL_PS_PIN, LL_PS_LO,
	LL_PS_LISTEN, LL_PS_SEND
};

struct ll_pfail {
	int err;      /* errno */
	int step;     /* enum ll_pstep; 0: none failed */
	size_t index; /* the protected path, for the path steps */
};

/* Does pol protect anything (ABI 1.4, found by size)? */
int ll_protect_wanted(const struct ns_policy *pol);

/* Does pol need a namespace of the wall's own (protected paths, or
 * --net-allow's network namespace: ll_netns_wanted)? */
int ll_ns_wanted(const struct ns_policy *pol);

/* Move the calling (single-threaded) process into a user namespace of its
 * own (one unshare), with a mount namespace when pol protects paths (every
 * protected path bound read-only onto itself; with cwd_fd, the working
 * directory re-opened there: O_PATH, close-on-exec, the caller's to
 * close) and a network namespace when pol has NS_POLICY_NET_PROXIED (lo
 * up, the listeners made, sent over sink when sink >= 0, and closed).
 * 0, or -1 with *f filled. */
int ll_protect_enter(const struct ns_policy *pol, int *cwd_fd, int sink,
		     struct ll_pfail *f);

/* The same steps in a forked child, for prepare() (nothing sent): 0 when
 * they all worked, -1 with *f filled.  Changes nothing in the calling
 * process. */
int ll_protect_probe(const struct ns_policy *pol, struct ll_pfail *f);

/* The machine's setting that keeps user namespaces from unprivileged
 * users, as a clause, or NULL when none of the known ones is set. */
const char *ll_protect_cause(void);
/* What would lift the setting ll_protect_cause() names, or NULL. */
const char *ll_protect_fix(void);

/* The name of a step. */
const char *ll_protect_step(int step);

#endif
