/* SPDX-License-Identifier: MIT */
/* caps_tick.c -- the cost of one cap count (host/proc/caps.c caps_measure: the
 * /proc walk, the members' descriptors and status, the watched roots),
 * over a tree of N processes that this program starts (each holding a
 * memfd and a few descriptors), and of the old count (caps_count: the walk
 * and summed RSS only).  Figures, never assertions.
 *
 *   caps_tick [N [ROUNDS]]     default 200 processes, 200 rounds */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/caps.h"

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static pid_t
member(void)
{
	pid_t p = fork();

	if (p == 0) {
		int fd = memfd_create("caps_tick", MFD_CLOEXEC);

		/* a second descriptor of it (counted once); a failed dup only
		 * leaves the one */
		if (fd >= 0 && posix_fallocate(fd, 0, 1 << 16) == 0 &&
		    dup(fd) < 0)
			fd = -1;
		for (;;)
			pause();
	}
	return p;
}

static double
median_of(int rounds, int full, pid_t root, const struct caps_watch *w)
{
	double *v = calloc((size_t)rounds, sizeof(*v)), m;
	struct caps_usage u;

	if (v == NULL)
		return -1;
	for (int i = 0; i < rounds; i++) {
		double t0 = now_us();

		if (full)
			(void)caps_measure(root, w, &u);
		else
			(void)caps_count(root, &u);
		v[i] = now_us() - t0;
	}
	qsort(v, (size_t)rounds, sizeof(*v), cmp_d);
	m = v[rounds / 2];
	free(v);
	return m;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
	int rounds = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 200;
	struct caps_watch w = {0};
	struct caps_usage u;
	size_t left;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	(void)caps_watch_path(&w, "/dev/shm");
	for (int i = 0; i < n; i++)
		if (member() < 0)
			return 1;
	do
		(void)caps_count(getpid(), &u);
	while (u.live < (size_t)n);
	(void)caps_measure(getpid(), &w, &u);
	printf("tree of %zu processes; machine tasks walked each count\n",
	       u.procs);
	printf("  caps_count   (walk + summed RSS, the old tick): %8.0f us\n",
	       median_of(rounds, 0, getpid(), &w));
	printf("  caps_measure (+ fds, VmSwap, tmpfs roots):      %8.0f us "
	       "(held=%llu bytes)\n", median_of(rounds, 1, getpid(), &w),
	       u.held);
	(void)caps_runaway(getpid(), &left);
	caps_watch_free(&w);
	return 0;
}
