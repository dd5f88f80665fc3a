/* SPDX-License-Identifier: MIT */
/* toolchain_unported.c -- --toolchain where its discovery is not ported
 * (the Windows build: toolchain.c runs each tool through base/tool.c's
 * POSIX process control).  Built only there, never beside toolchain.c
 * (the Makefile's HOST_UNBUILT): every --toolchain is refused, naming the
 * platform; nothing is run.  Not a stub that pretends: the refusal is the
 * flag's whole behaviour there (docs/WINDOWS.md). */
#include "policy/toolchain.h"

#include <stdlib.h>

#include "base/reasons.h"
#include "base/remedy.h"
#include "os/os.h"

int
toolchain_check(const struct strv *names, const struct cmdline *line,
		struct refusals *r)
{
	size_t before = r->n;

	for (size_t i = 0; i < names->n; i++)
		if (remedy_refuse(r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT, line,
				  &(struct cmdfix){ "--toolchain", names->v[i],
						    NULL, NULL, 0 },
				  "--toolchain %s: not ported to %s yet (its "
				  "tools are run through POSIX process control); "
				  "name the toolchain's directories with --read",
				  names->v[i], os_platform()) < 0)
			return -1;
	return r->n > before;
}

int
toolchain_discover(const char *name, const struct toolchain_ctx *x,
		   struct toolchain_found *f, struct refusals *r)
{
	struct strv one = { .v = (char **)&name, .n = 1 };

	(void)f;
	return toolchain_check(&one, x->line, r);
}

int
toolchain_has_tool(const char *name, const char *path)
{
	(void)name;
	(void)path;
	return 1;
}

char *
toolchain_note(const char *name, const struct toolchain_found *f)
{
	(void)name;
	(void)f;
	return NULL;
}
