/* SPDX-License-Identifier: MIT */
/* pathwalk.h -- what rule 5's resolution (resolve.c, above pathwalk.c,
 * above paths.c) calls in the files below it; no other file includes it. */
#ifndef NS_HOST_POLICY_PATHWALK_H
#define NS_HOST_POLICY_PATHWALK_H

#include "policy/paths.h"

#include <stddef.h>

/* The longest component a walk takes (NAME_MAX of Linux and macOS; a
 * Windows component is at most 255 UTF-16 units). */
#define PATH_NAME_MAX 255

/* paths.c: the hash of the identity table, by name; free the identities
 * cached (resolve.c's paths_cache_reset) */
size_t path_ident_hash(const char *s);
void path_idents_reset(void);
/* pathwalk.c: close the directories the build walked (paths_cache_reset) */
void path_dirs_reset(void);

#endif
