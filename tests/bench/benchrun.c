/* SPDX-License-Identifier: MIT */
/* benchrun -- time whole commands, interleaved, and print figures.  A
 * measuring tool for `make bench`; tests never assert timings.
 *
 * usage: benchrun <n> <command> [args...] [::: <command> [args...]]...
 *
 * With one command: n runs (fork + execv, output to /dev/null), then one
 * line "<median_us> <p90_us>".  With several commands separated by ":::",
 * the commands run in turn (A B C A B C ...) so a drift of the machine's
 * speed falls on all of them alike, after one warm-up round; then one line
 * per command, in the order given:
 *   "<median_us> <p10_us> <p90_us> <cpu_median_us>"
 * where cpu is the child's user+system time as wait4() reports it (its
 * waited-for descendants included).  A run that does not exit 0 stops it
 * all: exit 1, the command and its status on stderr, nothing printed.
 * A command may start with NAME=VALUE words: they are set in the child's
 * environment before the execv (no env(1) exec to time along with it). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CMDS 16

struct cmd {
	char **argv;
	double *wall;
	double *cpu;
};

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double
tv_us(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Run argv once; 0 when it exited 0, else -1 with *status its wait
 * status (-1 when fork or wait failed). */
static int
run_once(char **argv, int devnull, double *wall, double *cpu, int *status)
{
	double t0 = now_us();
	struct rusage ru;
	pid_t pid = fork();

	*status = -1;
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(devnull, 1);
		dup2(devnull, 2);
		while (argv[0][0] != '/' && strchr(argv[0], '=') != NULL &&
		       argv[1] != NULL)
			putenv(*argv++);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, status, 0, &ru) < 0)
		return -1;
	*wall = now_us() - t0;
	*cpu = tv_us(ru.ru_utime) + tv_us(ru.ru_stime);
	if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0)
		return -1;
	return 0;
}

/* A failed run stops everything: a refused or broken command is never
 * timed.  Say which command (1-based, in the order given) and how. */
static void
report_failure(int k, char **argv, long run, int status)
{
	fprintf(stderr, "benchrun: command %d (%s) failed on run %ld: ", k + 1,
		argv[0], run + 1);
	if (status == -1)
		fprintf(stderr, "fork/wait: %s\n", strerror(errno));
	else if (WIFEXITED(status))
		fprintf(stderr, "exit %d\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "signal %d\n", WTERMSIG(status));
	else
		fprintf(stderr, "wait status %d\n", status);
}

/* Split argv at ":::" into at most MAX_CMDS commands; returns the count. */
static int
split_cmds(int argc, char **argv, struct cmd *cmds)
{
	int n = 0;

	cmds[n++].argv = argv;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], ":::") != 0)
			continue;
		argv[i] = NULL;
		if (n == MAX_CMDS || i + 1 >= argc)
			return -1;
		cmds[n++].argv = argv + i + 1;
	}
	for (int k = 0; k < n; k++)
		if (cmds[k].argv[0] == NULL)
			return -1;
	return n;
}

static double
pick(double *v, long n, int pct)
{
	return v[(n * pct) / 100 < n ? (n * pct) / 100 : n - 1];
}

int
main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS];
	char *end;
	long n;
	int ncmd, devnull;

	if (argc < 3) {
		fprintf(stderr, "usage: benchrun <n> <command> [args...]"
				" [::: <command> [args...]]...\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || *end || n < 1 || n > 100000) {
		fprintf(stderr, "benchrun: bad count %s\n", argv[1]);
		return 2;
	}
	ncmd = split_cmds(argc - 2, argv + 2, cmds);
	if (ncmd < 0) {
		fprintf(stderr, "benchrun: an empty command around :::\n");
		return 2;
	}
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return 2;
	for (int k = 0; k < ncmd; k++) {
		cmds[k].wall = calloc((size_t)n, sizeof(double));
		cmds[k].cpu = calloc((size_t)n, sizeof(double));
		if (cmds[k].wall == NULL || cmds[k].cpu == NULL)
			return 2;
	}
	for (long i = ncmd > 1 ? -1 : 0; i < n; i++) {
		for (int k = 0; k < ncmd; k++) {
			double w, c;
			int st;

			if (run_once(cmds[k].argv, devnull, &w, &c, &st) < 0) {
				report_failure(k, cmds[k].argv, i, st);
				return 1;
			}
			if (i >= 0) {
				cmds[k].wall[i] = w;
				cmds[k].cpu[i] = c;
			}
		}
	}
	for (int k = 0; k < ncmd; k++) {
		qsort(cmds[k].wall, (size_t)n, sizeof(double), cmp_double);
		qsort(cmds[k].cpu, (size_t)n, sizeof(double), cmp_double);
		if (ncmd == 1)
			printf("%.0f %.0f\n", pick(cmds[k].wall, n, 50),
			       pick(cmds[k].wall, n, 90));
		else
			printf("%.0f %.0f %.0f %.0f\n", pick(cmds[k].wall, n, 50),
			       pick(cmds[k].wall, n, 10), pick(cmds[k].wall, n, 90),
			       pick(cmds[k].cpu, n, 50));
		free(cmds[k].wall);
		free(cmds[k].cpu);
	}
	return 0;
}
