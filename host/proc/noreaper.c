/* SPDX-License-Identifier: MIT */
/* noreaper.c -- the platforms with no host process control (reaper.h;
 * Windows: no fork, no waitpid, no subreaper, no signal to send a
 * process, no /proc to count): reaper_here() is 0 and the wrap and run use
 * the wall's wait() and terminate() alone, with the caps kept by the wall
 * (NS_WALL_CAPS_NATIVE); run takes run/nofork.c's flow.  The other calls
 * are never made there (the callers ask reaper_here() or
 * flow_nofork_fits() first); each does nothing and says so.
 * Built only where proc/reaper.c and run/keeper.c are not (the Makefile's
 * Windows list; run/nokeeper.c refuses run's forked flow there). */
#include "proc/reaper.h"

#include <string.h>

#include "os/os.h"

int
reaper_here(void)
{
	return 0;
}

void
reaper_setup(const struct caps_limits *caps)
{
	(void)caps;
}

int
reaper_reap(int64_t child, int *st)
{
	(void)child;
	(void)st;
	return -1; /* no child of this process is reaped here */
}

int
reaper_tick(void)
{
	return 1;
}

int
reaper_tree_empty(void)
{
	return 1; /* the wall's wait returned: its tree is gone */
}

int
reaper_over_cap(const struct caps_limits *l)
{
	(void)l;
	return 0; /* the wall keeps the caps (NS_WALL_CAPS_NATIVE) */
}

int
reaper_kill_all(unsigned gone_ms, size_t *left)
{
	(void)gone_ms;
	*left = 0;
	return 0; /* the wall's terminate() ended the tree */
}

void
reaper_signal(int64_t pid, int sig)
{
	(void)pid;
	(void)sig;
}

void
reaper_kill(int64_t pid, int sig)
{
	(void)pid;
	(void)sig;
}

int
reaper_watch(struct caps_watch *watch, const int *fds, size_t n)
{
	(void)fds;
	(void)n;
	memset(watch, 0, sizeof(*watch));
	return 0; /* the wall's memory cap is the job's */
}

void
reaper_watch_free(struct caps_watch *watch)
{
	(void)watch;
}

void
reaper_spawned(int64_t pid)
{
	(void)pid;
}

const char *
reaper_gap(void)
{
	return NULL; /* the wall's job owns the tree */
}

/* ---- run's forked flow (run/keeper.c, not built here): never called - */

int
reaper_keeper_link(int *init_end, int *keeper_end)
{
	*init_end = *keeper_end = -1;
	return -1;
}

void
reaper_init_start(int end)
{
	(void)end;
}

int
reaper_parent_gone(void)
{
	return 0;
}

int
reaper_init_wait(pid_t cmd, int *st)
{
	(void)cmd;
	*st = 0;
	return -1;
}

int
reaper_keeper_wait(int sock, pid_t init, int *st)
{
	(void)sock;
	(void)init;
	*st = 0;
	return -1;
}

void
reaper_run_group(pid_t init)
{
	(void)init;
}

const char *
reaper_kill_prefix(void)
{
	return "kill -KILL ";
}
