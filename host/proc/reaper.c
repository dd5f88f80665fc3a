/* SPDX-License-Identifier: MIT */
/* reaper.c -- the host's own process model on Linux (reaper.h): the
 * wrap's subreaper, waitpid(-1), the SIGCHLD tick and the caps counter.
 * Where there is no subreaper (darwin; make PROCMODEL=pgroup on Linux)
 * proc/pgreaper.c stands in. */
#include "proc/reaper.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/os.h"


int
reaper_here(void)
{
	return 1;
}

void
reaper_setup(const struct caps_limits *caps)
{
	(void)os_subreaper();
	os_sigchld_block();
	(void)caps_limit_nproc(caps);
	reaper_tick_start();
}

/* Every orphan is reparented to the subreaper before its parent can be
 * reaped, so no child left means no tree. */
int
reaper_tree_empty(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
	       errno == ECHILD;
}

int
reaper_over_cap(const struct caps_limits *l)
{
	return caps_enforce_said(getpid(), l);
}

int
reaper_kill_all(unsigned gone_ms, size_t *left)
{
	return caps_kill_all(gone_ms, left);
}

void
reaper_signal(int64_t pid, int sig)
{
	if (pid > 0)
		kill((pid_t)pid, sig);
}

void
reaper_spawned(int64_t pid)
{
	(void)pid;
}

const char *
reaper_gap(void)
{
	return NULL; /* the subreaper keeps every orphan in the tree */
}

/* ---- run's forked flow ------------------------------------------------ */

int
reaper_keeper_link(int *init_end, int *keeper_end)
{
	*init_end = *keeper_end = -1; /* the parent-death signal does it */
	return 0;
}

void
reaper_init_start(int end)
{
	(void)end;
	(void)os_die_with_parent();
	/* a subreaper: an orphan of the command's tree comes back to the init
	 * (not to the namespace's pid 1, the place's anchor), so the tree the
	 * supervisor counts from the init holds every process of the command */
	(void)os_subreaper();
}

int
reaper_parent_gone(void)
{
	return 0; /* the kernel ends the init with its keeper */
}

int
reaper_init_wait(pid_t cmd, int *st)
{
	pid_t p;

	for (;;) {
		p = waitpid(-1, st, 0);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			return -1;
		if (p == cmd)
			return 0;
	}
}

int
reaper_keeper_wait(int sock, pid_t init, int *st)
{
	close(sock);
	while (waitpid(init, st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
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
