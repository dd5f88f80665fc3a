/* SPDX-License-Identifier: MIT */
/* keephold.c -- a place that would die with the tool (Linux's nsplace:
 * a tmpfs in a mount namespace) kept when it holds the only copy of the
 * run's work (SPEC rule 17, the hand-off): a holder process keeps it
 * open (os_hold_dir) and <state>/kept-<tool pid>/, locked by the holder
 * for as long as it lives, says which process and which run name, so
 * that `reap` releases it (run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "policy/ownfiles.h"
#include "run/handoff.h"

#define KEEP_INFO "holder"

/* The kept-<pid> directory made and locked in the state directory. */
static int
kept_dir(int sfd, char *dir, size_t n, int *lockfd)
{
	snprintf(dir, n, "kept-%ld", (long)getpid());
	(void)os_unlink_at(sfd, dir, 1); /* a reused pid's, unlocked */
	if (os_mkdir_at(sfd, dir, 0700) != 0)
		return -1;
	if (os_dir_lock_at(sfd, dir, lockfd) == 1)
		return 0;
	(void)os_unlink_at(sfd, dir, 1);
	return -1;
}

/* <dir>/holder: "<holder pid> <run name>\n". */
static int
kept_info(int sfd, const char *dir, int64_t pid, const char *name)
{
	int dfd = os_open_read_at(sfd, dir, 1), fd = -1, ok = 0;
	char line[128];
	int n = snprintf(line, sizeof(line), "%lld %s\n", (long long)pid, name);

	if (dfd >= 0)
		fd = os_create_at(dfd, KEEP_INFO, 0600);
	if (fd >= 0 && n > 0 && (size_t)n < sizeof(line))
		ok = write(fd, line, (size_t)n) == n;
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return ok ? 0 : -1;
}

int
keephold_start(int root_fd, const char *name, int64_t *pid)
{
	char *state = ownfiles_state_dir(os_euid());
	int sfd = state ? os_open_readdir(state) : -1, lockfd = -1, rc = -1;
	char dir[32];

	free(state);
	*pid = -1;
	/* kept only where the NOTE can name a way to the files */
	if (os_pid_cwd_name(getpid(), dir, sizeof(dir)) == 0 && sfd >= 0 &&
	    kept_dir(sfd, dir, sizeof(dir), &lockfd) == 0) {
		rc = os_hold_dir(root_fd, lockfd, pid);
		if (rc == 0 && kept_info(sfd, dir, *pid, name) != 0)
			rc = -1;
		if (rc != 0 && *pid > 0)
			(void)os_pid_stop(*pid, 1);
		close(lockfd); /* the holder's copy keeps the lock */
		if (rc != 0)
			(void)os_unlink_at(sfd, dir, 1);
	}
	if (rc != 0)
		*pid = -1;
	if (sfd >= 0)
		close(sfd);
	return rc;
}

void
keephold_note(struct sbuf *b, int64_t pid)
{
	char cwd[64];

	if (os_pid_cwd_name(pid, cwd, sizeof(cwd)) != 0)
		snprintf(cwd, sizeof(cwd), "(its working directory)");
	sbuf_addf(b, "the place was kept: it holds the only copy of this "
		  "run's work, and process %lld (this tool's, nothing runs in "
		  "it) holds it open; copy what you need from %s/work (cp -a "
		  "%s/work <dir>), then run the remedy (nova-sandbox reap "
		  "releases it)", (long long)pid, cwd, cwd);
}

/* ---- reap ------------------------------------------------------------- */

struct kept_walk {
	int sfd, dry;
	keephold_say say;
	void *arg;
	struct strv dirs;
};

/* The holder's pid and run name from <dir>/holder; 0 or -1. */
static int
kept_read(int sfd, const char *dir, long long *pid, char *name, size_t n)
{
	char buf[128], *sp, *end;
	int dfd = os_open_read_at(sfd, dir, 1);
	int fd = dfd >= 0 ? os_open_read_at(dfd, KEEP_INFO, 0) : -1;
	ssize_t got = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	*pid = strtoll(buf, &sp, 10);
	if (*pid <= 0 || *sp != ' ' || (end = strchr(sp, '\n')) == NULL)
		return -1;
	*end = '\0';
	snprintf(name, n, "%s", sp + 1);
	return 0;
}

/* Remove <dir> (its lock taken: no holder lives). */
static void
kept_remove(int sfd, const char *dir)
{
	int dfd = os_open_read_at(sfd, dir, 1);

	if (dfd >= 0) {
		(void)os_unlink_at(dfd, KEEP_INFO, 0);
		close(dfd);
	}
	(void)os_unlink_at(sfd, dir, 1);
}

/* Stop the holder (SIGTERM, then SIGKILL after 2 s) and wait for its
 * lock: 1 released (the lock taken, *lockfd open), 0 not. */
static int
kept_stop(int sfd, const char *dir, long long pid, int *lockfd)
{
	struct timespec step = { 0, 20 * 1000 * 1000 };

	(void)os_pid_stop(pid, 0);
	for (unsigned ms = 0; ms < 4000; ms += 20) {
		if (os_dir_lock_at(sfd, dir, lockfd) == 1)
			return 1;
		if (ms == 2000)
			(void)os_pid_stop(pid, 1);
		nanosleep(&step, NULL);
	}
	return 0;
}

static void
kept_one(struct kept_walk *w, const char *dir)
{
	long long pid = 0;
	char name[64] = "";
	int lockfd = -1, released;

	if (os_dir_lock_at(w->sfd, dir, &lockfd) == 1) {
		/* no holder lives: what a gone one left */
		kept_remove(w->sfd, dir);
		close(lockfd);
		return;
	}
	if (kept_read(w->sfd, dir, &pid, name, sizeof(name)) != 0)
		return; /* being made, or not ours to read: left alone */
	released = !w->dry && kept_stop(w->sfd, dir, pid, &lockfd);
	if (released) {
		kept_remove(w->sfd, dir);
		close(lockfd);
	}
	if (w->say != NULL)
		w->say(w->arg, name, (long)pid, released);
}

int
keephold_reap(int dry, keephold_say say, void *arg)
{
	struct kept_walk w = { -1, dry, say, arg, {0} };
	int rc = run_state_list("kept-", &w.sfd, &w.dirs);

	for (size_t i = 0; rc == 0 && i < w.dirs.n; i++)
		kept_one(&w, w.dirs.v[i]);
	strv_free(&w.dirs);
	if (w.sfd >= 0)
		close(w.sfd);
	return rc;
}
