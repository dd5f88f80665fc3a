/* paths.h -- path helpers private to the policy builder (host/policy.c).
 * The public half (policy_inside, policy_resolve_dir) is in policy.h. */
#ifndef NS_HOST_PATHS_H
#define NS_HOST_PATHS_H

#include "util.h"

/* 1 when s holds a byte a generated policy cannot carry: a control
 * character (0x00-0x1f, 0x7f), '"' or '\\'. */
int path_bad_char(const char *s);
/* The absolute, lexically cleaned form of p (relative to the process's
 * working directory when p is relative).  Heap, or NULL. */
char *path_abs(const char *p);
/* The directory part of an absolute path ("/" for "/x").  Heap, or NULL. */
char *path_dirname(const char *p);
/* Append every proper ancestor of the absolute path p, "/" excluded, to
 * set (duplicates kept: count with strv_count_unique).  0, or -1 on
 * allocation failure. */
int path_ancestors_add(struct strv *set, const char *p);
/* 1 when path is inside any directory of dirs (policy_inside). */
int path_inside_any(const char *path, const struct strv *dirs);
/* Same, for a NULL-terminated list (NULL list: 0). */
int path_inside_list(const char *path, const char *const *dirs);

/* Forget the identities (device, inode) cached for "inside" answers; the
 * policy builder calls it once at the start of every build. */
void paths_cache_reset(void);

#endif
