/* SPDX-License-Identifier: MIT */
/* fdcause.c -- out of file descriptors for the verbs that have no
 * refusal list of their own when it happens (check, modules: a module
 * "not available" because its directory could not be opened): the one
 * fd_limit refusal (wall/session.h wall_fd_cause) on the verb's line. */
#include <errno.h>
#include <string.h>

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

int
wall_fd_errno(const struct refusals *r)
{
	int e = os_fd_exhausted();

	for (size_t i = 0; e == 0 && !refusals_failed(r) && i < r->n; i++)
		if (strcmp(r->v[i].reason, REASON_FD_LIMIT) == 0)
			e = r->v[i].text != NULL &&
			    (strstr(r->v[i].text, "ENFILE") != NULL ||
			     strstr(r->v[i].text, strerror(ENFILE)) != NULL) ?
			    ENFILE : EMFILE;
	return e;
}

void
wall_fd_keep(struct refusals *r, const char *verb, char *const *args)
{
	struct cmdline line = cmdline_of(verb, args);

	if (wall_fd_errno(r) != 0)
		remedy_keep(r, &line);
}
