/* SPDX-License-Identifier: MIT */
/* rmtree.h -- remove a directory tree by descriptor, never following a
 * link: the tool's own leftovers (the temp directory it made, an earlier
 * --out moved aside). */
#ifndef NS_HOST_RMTREE_H
#define NS_HOST_RMTREE_H

/* Remove `leaf` under the directory dfd (an O_PATH descriptor will do):
 * a link or file is unlinked, a directory emptied depth first (each
 * level opened O_NOFOLLOW below the one before) and removed; at most
 * max_depth levels.  0 (also when leaf is absent); RMTREE_TOO_DEEP when
 * a directory lies deeper (what is above it stays); -1 with errno. */
#define RMTREE_TOO_DEEP (-2)
int rmtree_at(int dfd, const char *leaf, unsigned max_depth);

#endif
