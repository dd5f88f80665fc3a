/* SPDX-License-Identifier: MIT */
/* rmtree.h -- remove a directory tree by descriptor, never following a
 * link: the tool's own leftovers (the temp directory it made, an earlier
 * --out moved aside). */
#ifndef NS_HOST_RMTREE_H
#define NS_HOST_RMTREE_H

/* Remove `leaf` under the directory dfd (an O_PATH descriptor will do):
 * a link or file is unlinked, a directory emptied depth first (each
 * level opened O_NOFOLLOW below the one before) and removed; at most
 * max_depth levels; a directory on another mount than its parent's (a
 * mount point: another file system or a bind mount) is never entered.
 * 0 (also when leaf is absent); RMTREE_TOO_DEEP when a directory lies
 * deeper, RMTREE_MOUNT when one is a mount point (what is above it
 * stays, and all of it); -1 with errno. */
#define RMTREE_TOO_DEEP (-2)
#define RMTREE_MOUNT (-3)
int rmtree_at(int dfd, const char *leaf, unsigned max_depth);

/* rmtree_at, and with RMTREE_OWN_MODES a directory the effective user
 * owns but may not enter or empty (a job's chmod 000 or 0500) is given
 * u+rwx first (os_fchmod_at, then os_fchmod on its descriptor): the
 * worktree verb's trees, which a job wrote. */
#define RMTREE_OWN_MODES 1u
int rmtree_at_how(int dfd, const char *leaf, unsigned max_depth,
		  unsigned how);

#endif
