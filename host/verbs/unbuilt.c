/* SPDX-License-Identifier: MIT */
/* unbuilt.c -- the verbs a platform's build leaves out (the Makefile's
 * source list for that platform; never linked beside the real verb): each
 * refuses with no_sandbox, naming the platform, and changes nothing.  On
 * Windows: egress (nftables, the bench's Linux allowlist) and probe
 * (Landlock's walled steps, Linux only).  Not a stub that pretends: the
 * refusal is the verb's whole behaviour there (docs/SPEC-SANDBOX.md
 * "Windows"). */
#include <stdio.h>

#include "base/exit.h"
#include "base/out.h"
#include "base/reasons.h"
#include "os/os.h"
#include "verbs/verbs.h"

static int
unbuilt(const char *verb, const char *why, int code)
{
	char text[384];

	snprintf(text, sizeof(text), "%s is not built on %s: %s; run: "
		 "nova-sandbox help", verb, os_platform(), why);
	out_refused("SANDBOX", REASON_NO_SANDBOX, text, NULL);
	return code;
}

int
verb_egress(const struct hostrun *hr, int argc, char **argv)
{
	(void)hr;
	(void)argc;
	(void)argv;
	return unbuilt("egress", "the outbound allowlist is an nftables "
		       "table, a Linux kernel mechanism", NS_EXIT_USAGE);
}

int
verb_probe(const struct hostrun *hr, int argc, char **argv)
{
	(void)hr;
	(void)argc;
	(void)argv;
	return unbuilt("probe", "its walled steps are Landlock's (a Linux "
		       "wall that restricts the tool itself)", NS_EXIT_USAGE);
}

/* `nova-sandbox help egress` says the same as the verb. */
int
egress_help(const char *sub)
{
	(void)sub;
	return verb_egress(NULL, 0, NULL) ? -1 : 0;
}

int
verb_probe_step(const struct hostrun *hr, int argc, char **argv)
{
	return verb_probe(hr, argc, argv);
}
