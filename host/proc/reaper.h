/* SPDX-License-Identifier: MIT */
/* reaper.h -- the host's own process model for the command it starts,
 * one of three, chosen by the Makefile (PROCMODEL):
 *   proc/reaper.c    Linux: the tool is a child subreaper with SIGCHLD
 *                   blocked and waited for, reaps the command and the
 *                   orphans with waitpid(-1), counts the tree's caps every
 *                   second (proc/caps.c) and kills every leftover at the
 *                   end; run's keeper and init die with their parent
 *                   (PR_SET_PDEATHSIG);
 *   proc/pgreaper.c  POSIX without a subreaper (darwin; make PROCMODEL=
 *                   pgroup on Linux, the pgmodel test build): the command
 *                   runs in a process group the tool sweeps (its orphans
 *                   stay in the group while they do not leave it), the
 *                   SIGCHLD wait is os_sigchld_wait's pselect, and run's
 *                   keeper and init see their parent's end as EOF;
 *   proc/noreaper.c  Windows: no waitpid, no subreaper, no signals to a
 *                   process: reaper_here() is 0 and the wall's
 *                   wait()/terminate() are the whole process model: the
 *                   wrap then needs a wall that waits for its whole tree,
 *                   ends it, and keeps the caps itself
 *                   (NS_WALL_CAPS_NATIVE); no other reaper_ call is made
 *                   there. */
#ifndef NS_HOST_PROC_REAPER_H
#define NS_HOST_PROC_REAPER_H

#include <stddef.h>
#include <stdint.h>

#include "proc/caps.h"

/* 1 when this platform has the host's reaper, 0 when the wall's wait is
 * the only process model. */
int reaper_here(void);
/* Subreaper, SIGCHLD blocked (waited for, not caught; the child resets
 * its mask) and RLIMIT_NPROC: the tool forks once after this (the wall's
 * spawn).  pgroup: the process group the command will be born in. */
void reaper_setup(const struct caps_limits *caps);
/* The wall's spawn returned (pid the command, or 0 when it failed):
 * pgroup: the tool goes back to its caller's process group. */
void reaper_spawned(int64_t pid);
/* What this process model cannot follow, for `check` (one sentence, or
 * NULL: nothing to say). */
const char *reaper_gap(void);
/* Reap whatever is ready: 1 with *st when child itself was among them,
 * 0 when it was not (or nothing was ready), -1 when no child is left and
 * child was never reaped (it was lost). */
int reaper_reap(int64_t child, int *st);
/* (Re)start the one-second tick reaper_tick keeps (both POSIX models
 * share it and reaper_reap: proc/reaptick.c). */
void reaper_tick_start(void);
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
/* kill(2) as it is: sig to pid, or to every process the tool may signal
 * but itself when pid is -1 (run's init in the place's PID namespace). */
void reaper_kill(int64_t pid, int sig);
/* The --write roots on a memory filesystem, by their descriptors, as the
 * memory cap's watch (caps_watch_fd, caps_watch_shmem): 0, or -1. */
int reaper_watch(struct caps_watch *watch, const int *fds, size_t n);
void reaper_watch_free(struct caps_watch *watch);

/* ---- run's forked flow (run/keeper.c) -------------------------------- */

/* In the keeper, before it forks the init: the link by which the init
 * sees the keeper's end (pgroup: a pipe, *init_end its read end and
 * *keeper_end its write end; subreaper: -1 and -1, the kernel's
 * parent-death signal does it).  0, or -1. */
int reaper_keeper_link(int *init_end, int *keeper_end);
/* In the init, first: die with the keeper and be the tree's subreaper
 * (Linux), or lead a process group of its own that the command is born
 * in and the supervisor sweeps (pgroup).  end: the init's end of the
 * keeper's link (closed in the command: close-on-exec). */
void reaper_init_start(int end);
/* In the init: is the keeper gone (pgroup: EOF on the link)?  1 or 0. */
int reaper_parent_gone(void);
/* In the init: wait for the command cmd (its wait status into *st),
 * reaping the rest of what ends; pgroup: the keeper's end ends the whole
 * group (the init with it).  0, or -1 when cmd was lost. */
int reaper_init_wait(pid_t cmd, int *st);
/* In the keeper, once the init runs: wait for it (its wait status into
 * *st); pgroup: the supervisor's end (sock at EOF) ends the run's group.
 * Closes sock.  0, or -1. */
int reaper_keeper_wait(int sock, pid_t init, int *st);
/* In the supervisor, once the init's pid is known: pgroup: the run's
 * tree is the init's group too. */
void reaper_run_group(pid_t init);
/* What goes before the init's pid in the shell command that kills a
 * run's tree, for the LEAK remedy: subreaper "kill -KILL " (the init is
 * the place's PID namespace's 1: its death ends every process in it);
 * pgroup "kill -KILL -- -" (the init leads the run's group). */
const char *reaper_kill_prefix(void);

#endif
