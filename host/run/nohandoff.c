/* SPDX-License-Identifier: MIT */
/* nohandoff.c -- where run/handoff.c is not built (Windows: its copy walks
 * the place by POSIX descriptors, openat and fdopendir, not ported yet):
 * `run --out` is refused before anything is made (run/flow.c's
 * preflight), so these are never reached; each fails and says why.
 * Built only where run/handoff.c is not (the Makefile's Windows list). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/run.h"

void (*handoff_hook)(const char *rel);

int
handoff_open_work(int root_fd)
{
	(void)root_fd;
	errno = ENOSYS;
	return -1;
}

int
handoff_copy(int root_fd, const char *out, const char *name,
	     const struct strv *named, const struct handoff_caps *caps,
	     struct handoff_stats *st, char **why)
{
	(void)root_fd;
	(void)out;
	(void)name;
	(void)named;
	(void)caps;
	memset(st, 0, sizeof(*st));
	*why = str_fmt("the handoff is not ported to this platform yet");
	return -1;
}
