/* SPDX-License-Identifier: MIT */
/* ns_swap.c -- the race of issue 7 class 3, as a leftover process of an
 * earlier run would run it: swap two names (a directory and a symlink)
 * with renameat2(RENAME_EXCHANGE) in a tight loop, so that a tool that
 * checks a path and then opens it again by name meets the other one.
 *
 *   ns_swap <a> <b> <seconds>
 *
 * Stops by itself after <seconds> (at most 600) and prints the number of
 * swaps; exit 0, or 1 when not one swap succeeded (the attack never ran),
 * 2 on usage. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	unsigned long swaps = 0, fails = 0;
	double end;
	char *e;
	long secs;

	if (argc != 4)
		return 2;
	secs = strtol(argv[3], &e, 10);
	if (*e != '\0' || secs < 1 || secs > 600)
		return 2;
	end = now() + (double)secs;
	while (now() < end) {
		for (int i = 0; i < 256; i++) {
			if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD,
				    argv[2], RENAME_EXCHANGE) == 0)
				swaps++;
			else
				fails++;
		}
	}
	printf("swaps=%lu fails=%lu\n", swaps, fails);
	return swaps > 0 ? 0 : 1;
}
