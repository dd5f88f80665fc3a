/* SPDX-License-Identifier: MIT */
/* ns_execenv.c -- run a program with exactly the environment entries
 * given, in order, duplicates kept (env(1) folds a name given twice into
 * one, so it cannot make the environment a caller may really hand the
 * tool).
 *
 * usage: ns_execenv [NAME=VALUE]... -- PROGRAM [ARG]... */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	int i = 1;

	while (i < argc && strcmp(argv[i], "--") != 0)
		i++;
	if (i + 1 >= argc) {
		fputs("usage: ns_execenv [NAME=VALUE]... -- PROGRAM [ARG]...\n",
		      stderr);
		return 2;
	}
	argv[i] = NULL; /* argv[1..i) is the environment */
	execve(argv[i + 1], argv + i + 1, argv + 1);
	perror(argv[i + 1]);
	return 127;
}
