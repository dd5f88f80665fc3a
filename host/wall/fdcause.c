/* SPDX-License-Identifier: MIT */
/* fdcause.c -- out of file descriptors for the verbs that have no
 * refusal list of their own when it happens (check, modules: a module
 * "not available" because its directory could not be opened): the one
 * fd_limit refusal (wall/session.h wall_fd_cause) on the verb's line. */
#include "base/remedy.h"
#include "base/reasons.h"
#include "os/os.h"
#include "wall/session.h"

int
wall_fd_refusal(struct refusals *r, const struct cmdline *line)
{
	if (os_fd_exhausted() == 0)
		return 0;
	refusals_free(r);
	remedy_keep(r, line);
	if (refusals_add(r, REASON_FD_LIMIT, "out of file descriptors") < 0)
		return -1;
	return wall_fd_cause(r);
}
