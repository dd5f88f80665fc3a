/* SPDX-License-Identifier: MIT */
/* sysloop.c -- the per-call cost of the wall's seccomp filter: runs one
 * system call N times and prints the CPU nanoseconds per call.  Run it
 * unwalled, under an old build's wrap and under this one's, and compare.
 *
 *   sysloop getppid|fcntl|ioctl|prlimit [N]
 *
 * getppid is listed nowhere in the filter (the kernel's action cache skips
 * the filter for it); fcntl(F_GETFD), ioctl(TCGETS on /dev/null) and
 * prlimit64(0, ...) are listed and walk it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "getppid";
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 2000000;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct termios t;
	struct rlimit rl;
	double t0, t1;
	long i;

	if (fd < 0 || n <= 0)
		return 2;
	t0 = cpu_ns();
	for (i = 0; i < n; i++) {
		if (strcmp(what, "getppid") == 0)
			(void)syscall(SYS_getppid);
		else if (strcmp(what, "fcntl") == 0)
			(void)syscall(SYS_fcntl, fd, F_GETFD);
		else if (strcmp(what, "ioctl") == 0)
			(void)syscall(SYS_ioctl, fd, TCGETS, &t);
		else if (strcmp(what, "prlimit") == 0)
			(void)syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl);
		else
			return 2;
	}
	t1 = cpu_ns();
	printf("%s %.1f ns/call\n", what, (t1 - t0) / (double)n);
	return 0;
}
