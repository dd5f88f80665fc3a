/* SPDX-License-Identifier: MIT */
/* reaptick.c -- what both POSIX process models (proc/reaper.c, the
 * subreaper; proc/pgreaper.c, the process group) share: reaping every
 * child there is, the one-second tick of the caps' count, and the write
 * roots the memory cap watches.  Not built
 * where the host has no fork (Windows: proc/noreaper.c). */
#include "proc/reaper.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "os/os.h"

static struct timespec g_next; /* the next count of the caps */

void
reaper_kill(int64_t pid, int sig)
{
	kill((pid_t)pid, sig);
}

void
reaper_tick_start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &g_next);
	g_next.tv_sec += 1;
}

int
reaper_reap(int64_t child, int *st)
{
	int s = 0, got = 0;
	pid_t p;

	for (;;) {
		p = waitpid(-1, &s, WNOHANG);
		if (p > 0 && p == (pid_t)child) {
			*st = s;
			got = 1;
		}
		if (p > 0 || (p < 0 && errno == EINTR))
			continue;
		return got ? 1 : p == 0 ? 0 : -1;
	}
}

/* No busy wait: os_sigchld_wait sleeps until a SIGCHLD (blocked), a
 * caught signal (EINTR) or the tick. */
int
reaper_tick(void)
{
	struct timespec now, left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left.tv_sec = g_next.tv_sec - now.tv_sec;
	left.tv_nsec = g_next.tv_nsec - now.tv_nsec;
	if (left.tv_nsec < 0) {
		left.tv_nsec += 1000000000L;
		left.tv_sec--;
	}
	if (left.tv_sec < 0) {
		reaper_tick_start();
		return 1;
	}
	os_sigchld_wait((long long)left.tv_sec * 1000000000LL + left.tv_nsec);
	return 0;
}

int
reaper_watch(struct caps_watch *watch, const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (caps_watch_fd(watch, fds[i]) < 0)
			return -1;
	(void)caps_watch_shmem(watch);
	return 0;
}

void
reaper_watch_free(struct caps_watch *watch)
{
	caps_watch_free(watch);
}
