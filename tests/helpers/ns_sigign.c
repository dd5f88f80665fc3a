/* SPDX-License-Identifier: MIT */
/* ns_sigign.c -- run a program with the signals named ignored (SIG_IGN
 * survives execve), as a caller such as nohup or a shell's background job
 * hands them on; a shell's `trap "" CHLD` does not reliably do this.
 *
 * usage: ns_sigign SIGNO... -- PROGRAM [ARG]... */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		char *end;
		long s = strtol(argv[i], &end, 10);

		if (*end != '\0' || s <= 0 || s >= NSIG ||
		    signal((int)s, SIG_IGN) == SIG_ERR) {
			fprintf(stderr, "ns_sigign: bad signal %s\n", argv[i]);
			return 2;
		}
	}
	if (i + 1 >= argc) {
		fputs("usage: ns_sigign SIGNO... -- PROGRAM [ARG]...\n", stderr);
		return 2;
	}
	execv(argv[i + 1], argv + i + 1);
	perror(argv[i + 1]);
	return 127;
}
