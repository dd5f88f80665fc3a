/* SPDX-License-Identifier: MIT */
/* ns_machine.c -- ask the machine probes (machine.h) from a test script.
 *
 *   ns_machine PROBE...   exit 0 when the machine has every one; else
 *                         exit 1 and one line per missing probe on stdout:
 *                         "<probe>: <why>"
 *   ns_machine --list     every probe, its answer here and why:
 *                         "<probe> yes|no <what>[: <why>]"
 *   ns_machine --names    every probe's name, one a line (nothing asked)
 *
 * Exit 2: no such probe, or NOVA_MACHINE is malformed (said on stderr).
 * Run it as the user whose control it guards: some answers (user
 * namespaces, TIOCSTI) differ between root and an ordinary user. */
#include <stdio.h>
#include <string.h>

#include "machine.h"

static int
list(void)
{
	char why[512];
	const char *name;
	size_t i;
	int rc = 0;

	for (i = 0; (name = machine_probe_name(i)) != NULL; i++) {
		enum machine_answer a = machine_has(name, why, sizeof(why));

		if (a == MACHINE_BAD) {
			fprintf(stderr, "ns_machine: %s\n", why);
			rc = 2;
			continue;
		}
		printf("%s %s %s%s%s\n", name, a == MACHINE_HAS ? "yes" : "no",
		       machine_probe_what(name), a == MACHINE_HAS ? "" : ": ",
		       a == MACHINE_HAS ? "" : why);
	}
	return rc;
}

int
main(int argc, char **argv)
{
	char why[512];
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: ns_machine PROBE... | --list | --names\n");
		return 2;
	}
	if (strcmp(argv[1], "--list") == 0)
		return list();
	if (strcmp(argv[1], "--names") == 0) {
		const char *name;
		size_t k;

		for (k = 0; (name = machine_probe_name(k)) != NULL; k++)
			puts(name);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		switch (machine_has(argv[i], why, sizeof(why))) {
		case MACHINE_HAS:
			break;
		case MACHINE_LACKS:
			printf("%s: %s\n", argv[i], why);
			if (rc == 0)
				rc = 1;
			break;
		default:
			fprintf(stderr, "ns_machine: %s\n", why);
			rc = 2;
		}
	}
	return rc;
}
