/* SPDX-License-Identifier: MIT */
/* pathwalk.h -- what paths.c and pathwalk.c, the two halves of rule 5's
 * resolution, call in each other; no other file includes it. */
#ifndef NS_HOST_POLICY_PATHWALK_H
#define NS_HOST_POLICY_PATHWALK_H

#include "policy/paths.h"

#include <stddef.h>

/* The longest component a walk takes (NAME_MAX of Linux and macOS; a
 * Windows component is at most 255 UTF-16 units). */
#define PATH_NAME_MAX 255

/* paths.c: the hash of the identity table, by name */
size_t path_ident_hash(const char *s);
/* pathwalk.c: close the directories the build walked (paths_cache_reset) */
void path_dirs_reset(void);

#endif
