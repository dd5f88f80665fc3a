/* SPDX-License-Identifier: MIT */
/* pgreaper.c -- the host's process model where there is no subreaper
 * and no parent-death signal (reaper.h; darwin, and `make PROCMODEL=
 * pgroup` on Linux, the pgmodel test build that runs this file on Linux):
 * the command's tree is its process group.
 *
 * The wrap.  An orphan of the command is reparented to init (launchd),
 * not to the tool, so the tool cannot follow it by its parent; it stays
 * in its process group until it leaves it (setsid, setpgid), so the tree
 * is the group (proc/caps.c caps_group: the group's processes, and every
 * descendant of the tool or of one of them):
 *   - where the caller gave the tool a group of its own (a shell's job:
 *     the tool leads its group, a session leader too) the command is born
 *     in it and shares it: the terminal stays the command's as on Linux
 *     (rule 12), and what was in the group before the command (a
 *     pipeline's other programs, by pid and start) is not its tree;
 *   - otherwise (a script, make: the tool shares its caller's group) the
 *     tool makes a group of its own, spawns the command into it and goes
 *     back to its caller's group at once: the caller's group keeps the
 *     caller's signals (a terminal's ^C reaches the tool, which forwards
 *     it), and the command's group is the command's alone.  The command is
 *     then not in the terminal's foreground group: reading the terminal
 *     stops it (SIGTTIN); a caught signal the tool forwards is followed by
 *     SIGCONT, so a command stopped so can still act on it.
 * The wait is os_sigchld_wait's (pselect: no sigtimedwait on darwin), the
 * caps are counted over the group every second, and at the end the group
 * is frozen and killed (caps_kill_all: a group the tool is not in by
 * killpg too) with every descendant of the tool.  What this does not
 * cover: a process that leaves the group (setsid, setpgid) and whose
 * parent then ends is out of reach (docs/SPEC-SANDBOX.md, darwin's gaps;
 * `check` says it: reaper_gap()).
 *
 * `run`.  The init (run/keeper.c) leads a group of its own that the
 * command is born in; the supervisor counts and sweeps it (reaper_run_
 * group).  Without PR_SET_PDEATHSIG the keeper and the init see their
 * parent's end as EOF: the keeper on its socket to the supervisor, the
 * init on a pipe whose other end only the keeper holds; either then ends
 * the run's group. */
#include "proc/reaper.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/os.h"

#define LINK_TICK_NS 200000000LL /* a parent's end is seen within this */

static pid_t g_home = -1;      /* the caller's group, to go back to */
static int g_moved;            /* the tool left g_home for the spawn */
static int g_link = -1;        /* the init's end of the keeper's link */

int
reaper_here(void)
{
	return 1;
}

/* The tool leads its group: the command shares it, and what is in it now
 * is not the command's.  0, or -1 (the group could not be listed: then
 * the tree is the tool's descendants alone). */
static int
share_own_group(void)
{
	struct caps_table before = {0};
	int rc = caps_read_proc(&before);

	if (rc == 0)
		rc = caps_group(getpgrp(), &before);
	caps_table_free(&before);
	return rc;
}

void
reaper_setup(const struct caps_limits *caps)
{
	os_sigchld_block();
	(void)caps_limit_nproc(caps);
	g_home = getpgrp();
	g_moved = 0;
	if (g_home == getpid())
		(void)share_own_group();
	else if (setpgid(0, 0) == 0) {
		g_moved = 1;
		(void)caps_group(getpid(), NULL);
	}
	reaper_tick_start();
}

void
reaper_spawned(int64_t pid)
{
	(void)pid;
	if (!g_moved)
		return;
	/* back to the caller's group; when it is gone meanwhile the tool
	 * stays the command's group's leader, and the walks leave the tool
	 * out of its own tree */
	(void)setpgid(0, g_home);
}

const char *
reaper_gap(void)
{
	return "a process the command starts that leaves its process group "
	       "(setsid, setpgid) and whose parent then ends is out of the "
	       "tool's reach: it is neither counted nor killed at the end "
	       "(no subreaper on this platform)";
}

/* No child left and no live process of the command's group. */
int
reaper_tree_empty(void)
{
	struct caps_usage u;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0 ||
	    errno != ECHILD)
		return 0;
	return caps_count(getpid(), &u) == 0 && u.live == 0;
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

/* A signal the tool forwards; a stop signal's command, stopped reading
 * the terminal from a background group, is continued to act on it. */
void
reaper_signal(int64_t pid, int sig)
{
	if (pid <= 0)
		return;
	kill((pid_t)pid, sig);
	if (sig != SIGCONT && sig != SIGKILL && sig != SIGSTOP)
		kill((pid_t)pid, SIGCONT);
}

/* ---- run's forked flow ------------------------------------------------ */

int
reaper_keeper_link(int *init_end, int *keeper_end)
{
	int p[2];

	if (os_pipe(p) != 0)
		return -1;
	*init_end = p[0];
	*keeper_end = p[1];
	return 0;
}

void
reaper_init_start(int end)
{
	g_link = end;
	/* the command is born in this group: the run's tree */
	(void)setpgid(0, 0);
}

/* Is fd at EOF (its writer gone), without blocking? */
static int
eof_now(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char c;

	if (fd < 0 || poll(&p, 1, 0) <= 0 ||
	    !(p.revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	return read(fd, &c, 1) <= 0;
}

int
reaper_parent_gone(void)
{
	return eof_now(g_link);
}

int
reaper_init_wait(pid_t cmd, int *st)
{
	pid_t p;

	os_sigchld_block();
	for (;;) {
		while ((p = waitpid(-1, st, WNOHANG)) > 0)
			if (p == cmd)
				return 0;
		if (p < 0 && errno == ECHILD)
			return -1;
		if (eof_now(g_link))
			kill(0, SIGKILL); /* the keeper is gone: the group, us too */
		os_sigchld_wait(LINK_TICK_NS);
	}
}

int
reaper_keeper_wait(int sock, pid_t init, int *st)
{
	int gone = 0;
	pid_t p;

	os_sigchld_block();
	for (;;) {
		p = waitpid(init, st, WNOHANG);
		if (p == init)
			break;
		if (p < 0 && errno != EINTR) {
			close(sock);
			return -1;
		}
		if (!gone && eof_now(sock)) {
			/* the supervisor is gone: nothing will sweep the run */
			gone = 1;
			kill(-init, SIGKILL);
			kill(init, SIGKILL);
		}
		os_sigchld_wait(LINK_TICK_NS);
	}
	close(sock);
	return 0;
}

void
reaper_run_group(pid_t init)
{
	(void)caps_group(init, NULL);
}

const char *
reaper_kill_prefix(void)
{
	return "kill -KILL -- -";
}
