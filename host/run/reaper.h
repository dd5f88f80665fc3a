/* SPDX-License-Identifier: MIT */
/* reaper.h -- the host's own process model for the command it starts,
 * where the platform has one (POSIX, run/reaper.c): the tool is a child
 * subreaper with SIGCHLD blocked and waited for, reaps the command and
 * the orphans with waitpid(-1), counts the tree's caps every second
 * (run/caps.c) and kills every leftover at the end.  Where it has none
 * (Windows, run/noreaper.c: no waitpid, no subreaper, no signals to a
 * process) reaper_here() is 0 and the wall's wait()/terminate() are the
 * whole process model: the wrap then needs a wall that waits for its
 * whole tree, ends it, and keeps the caps itself (NS_WALL_CAPS_NATIVE);
 * no other reaper_ call is made there. */
#ifndef NS_HOST_REAPER_H
#define NS_HOST_REAPER_H

#include <stddef.h>
#include <stdint.h>

#include "run/caps.h"

/* 1 when this platform has the host's reaper, 0 when the wall's wait is
 * the only process model. */
int reaper_here(void);
/* Subreaper, SIGCHLD blocked (waited for, not caught; the child resets
 * its mask) and RLIMIT_NPROC: the tool forks once after this. */
void reaper_setup(const struct caps_limits *caps);
/* Reap whatever is ready: 1 with *st when child itself was among them,
 * 0 when it was not (or nothing was ready), -1 when no child is left and
 * child was never reaped (it was lost). */
int reaper_reap(int64_t child, int *st);
/* Sleep until a SIGCHLD, a caught signal or a second past the last tick;
 * 1 when that second has passed (count the caps now), else 0. */
int reaper_tick(void);
/* 1 when the tool has no child left (the command's tree is empty). */
int reaper_tree_empty(void);
/* One count of the tool's tree against l; 1 when it was past a cap (the
 * tree frozen and killed, SANDBOX RUNAWAY said), else 0. */
int reaper_over_cap(const struct caps_limits *l);
/* Wait at most gone_ms for the tool's children to be gone by themselves,
 * then freeze, kill and reap every descendant left: 0, or -1 with *left
 * the survivors (caps_kill_all). */
int reaper_kill_all(unsigned gone_ms, size_t *left);
/* Send sig to pid (a command the wall cannot end itself). */
void reaper_signal(int64_t pid, int sig);
/* The --write roots on a memory filesystem, by their descriptors, as the
 * memory cap's watch (caps_watch_fd, caps_watch_shmem): 0, or -1. */
int reaper_watch(struct caps_watch *watch, const int *fds, size_t n);
void reaper_watch_free(struct caps_watch *watch);

#endif
