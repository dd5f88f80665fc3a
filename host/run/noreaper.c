/* SPDX-License-Identifier: MIT */
/* noreaper.c -- the platforms with no host reaper (reaper.h; Windows:
 * no waitpid, no subreaper, no signal to send a process, no /proc to
 * count): reaper_here() is 0 and the wrap and run use the wall's wait()
 * and terminate() alone, with the caps kept by the wall
 * (NS_WALL_CAPS_NATIVE).  The other calls are never made there (the
 * callers ask reaper_here() first); each does nothing and says so.  Built
 * only where run/reaper.c is not (the Makefile's Windows list). */
#include "run/reaper.h"

#include <string.h>

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
reaper_kill_all(size_t *left)
{
	*left = 0;
	return 0; /* the wall's terminate() ended the tree */
}

void
reaper_signal(int64_t pid, int sig)
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
