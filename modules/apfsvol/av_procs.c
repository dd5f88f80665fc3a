/* SPDX-License-Identifier: MIT */
/* av_procs.c -- processes: a start time by `ps -o lstart=`, the holders
 * of a mount by `lsof`, and killing them (SIGTERM, a grace, SIGKILL). */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "av.h"

#define AV_GRACE_MS 2000

/* Trim surrounding whitespace in place; returns s. */
static char *
trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* NS_OK with the start in out; NS_E_UNAVAILABLE (refused when h is set)
 * when ps cannot say. */
int
av_proc_start(const struct ns_host *h, const struct av_cfg *c, long pid,
	      char *out, size_t len)
{
	char num[24];
	const char *argv[] = { c->ps, "-o", "lstart=", "-p", num, NULL };
	struct av_run *r = malloc(sizeof(*r));
	char *s = NULL;
	int ok;

	if (r == NULL)
		return NS_E_SYSTEM;
	snprintf(num, sizeof(num), "%ld", pid);
	ok = pid > 0 && av_exec(argv, c->timeout, r) == 0 && r->status == 0;
	if (ok) {
		s = trim(r->out);
		ok = s[0] != '\0' && strchr(s, '\n') == NULL &&
		     strlen(s) < len;
	}
	if (ok)
		memcpy(out, s, strlen(s) + 1);
	else if (h != NULL)
		av_refuse(h, "volume_failed", "%s -o lstart= -p %ld cannot "
			  "say when pid %ld started", c->ps, pid, pid);
	free(r);
	return ok ? NS_OK : NS_E_UNAVAILABLE;
}

/* One pid per line (lsof -t); the caller itself and pids <= 1 are never
 * holders (the host keeps the root open). */
static int
parse_pids(const char *out, int64_t *pids, size_t cap, size_t *n)
{
	const char *p = out;

	*n = 0;
	while (*p) {
		char *e;
		long long v = strtoll(p, &e, 10);

		if (e == p || (*e != '\n' && *e != '\0') || v <= 0)
			return -1;
		if (v > 1 && v != (long long)getpid()) {
			if (*n < cap)
				pids[*n] = v;
			(*n)++;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

int
av_holders(const struct ns_host *h, const struct av_cfg *c,
	   const char *root, int64_t *pids, size_t cap, size_t *n)
{
	const char *argv[] = { c->lsof, "-w", "-t", "+f", "--", root, NULL };
	struct av_run *r = malloc(sizeof(*r));
	int rc;

	*n = 0;
	if (r == NULL)
		return NS_E_SYSTEM;
	/* lsof exits 1 with nothing said when nothing holds the mount */
	rc = av_exec(argv, c->timeout, r);
	if (rc == 0 && r->status == 1 && r->out_len == 0 && r->err[0] == '\0') {
		free(r);
		return NS_OK;
	}
	rc = av_check(h, "listing the volume's holders", argv, rc, r);
	if (rc == NS_OK && (r->out_truncated ||
			    parse_pids(r->out, pids, cap, n) != 0)) {
		av_refuse(h, "volume_failed", "%s -t printed something other "
			  "than pids for %s", c->lsof, root);
		rc = NS_E_SYSTEM;
	}
	free(r);
	return rc;
}

static int
alive(int64_t pid)
{
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

void
av_kill_all(const int64_t *pids, size_t n)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	int left = 0;

	for (size_t i = 0; i < n; i++)
		if (pids[i] > 1 && pids[i] != (int64_t)getpid() &&
		    kill((pid_t)pids[i], SIGTERM) == 0)
			left = 1;
	for (int ms = 0; left && ms < AV_GRACE_MS; ms += 50) {
		nanosleep(&tick, NULL);
		left = 0;
		for (size_t i = 0; i < n; i++)
			if (pids[i] > 1 && pids[i] != (int64_t)getpid() &&
			    alive(pids[i]))
				left = 1;
	}
	for (size_t i = 0; left && i < n; i++)
		if (pids[i] > 1 && pids[i] != (int64_t)getpid())
			kill((pid_t)pids[i], SIGKILL);
}
