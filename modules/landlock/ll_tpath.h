/* SPDX-License-Identifier: MIT */
/* ll_tpath.h -- what ll_trace.c calls in ll_tpath.c (the paths of
 * --explain); no other file includes it. */
#ifndef NS_LL_TPATH_H
#define NS_LL_TPATH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TR_PATH_MAX 4096

/* raw (a tracee's path, relative to its dirfd dfd or its cwd) absolute
 * into out; path canonical as a whole; a create or delete's entry
 * canonical with its parent directory: 0, or -1 when it does not fit or
 * cannot be read.  tp_open_mode: the access (R_OK|W_OK) an open's flags
 * ask for. */
int tp_absolute(pid_t pid, int dfd, const char *raw, char *out, size_t n);
int tp_canon_whole(const char *path, char *out, size_t n);
int tp_entry_names(const char *path, char *out, size_t n, char *parent,
		   size_t pn);
int tp_open_mode(uint64_t flags);

#endif
