/* benchrun -- run a command N times (fork + execv, output to /dev/null) and
 * print the median and p90 wall time in microseconds.  A measuring tool
 * for `make bench`; tests never assert timings.
 * usage: benchrun <n> <command> [args...] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
run_once(char **argv, int devnull, double *us)
{
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(devnull, 1);
		dup2(devnull, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	*us = now_us() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	char *end;
	long n;
	double *v;
	int devnull;

	if (argc < 3) {
		fprintf(stderr, "usage: benchrun <n> <command> [args...]\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || *end || n < 1 || n > 100000) {
		fprintf(stderr, "benchrun: bad count %s\n", argv[1]);
		return 2;
	}
	v = calloc((size_t)n, sizeof(*v));
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (v == NULL || devnull < 0)
		return 2;
	for (long i = 0; i < n; i++) {
		if (run_once(argv + 2, devnull, &v[i]) < 0) {
			fprintf(stderr, "benchrun: %s failed (run %ld)\n",
				argv[2], i);
			return 1;
		}
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("%.0f %.0f\n", v[n / 2], v[(n * 9) / 10]);
	free(v);
	return 0;
}
