/* SPDX-License-Identifier: MIT */
/* statusfd.h -- --status-fd (the wrap's and run's): the value checked
 * against the descriptor it names, then made close-on-exec and handed to
 * base/out.c, which carries the tool's lines there. */
#ifndef NS_HOST_WALL_STATUSFD_H
#define NS_HOST_WALL_STATUSFD_H

#include "base/util.h"

/* The value s names a descriptor >= 3 that is open for writing: 0 and
 * *fd; else -1 and *why a suffix for the refusal text ("" or
 * " (not open)" or " (open read-only)"). */
int status_fd_check(const char *s, int *fd, const char **why);
/* For a flag value that parsed: a valid s starts carrying the lines (a
 * bad one was refused by the parser); 0, or 1 with a bad_status_fd
 * refusal in r when the descriptor cannot be made close-on-exec (the lines
 * would fall back to stderr, where the command can forge them). */
int status_fd_take(const char *s, struct refusals *r);
#endif
