/* SPDX-License-Identifier: MIT */
/* fdcause.c -- out of file descriptors: the one fd_limit refusal, with
 * the limit and `ulimit -n` (wall_fd_cause, on r's kept line), and the
 * same for the verbs that have no refusal list of their own when it
 * happens (check, modules: a module "not available" because its
 * directory could not be opened), on the verb's line. */
#include <errno.h>
#include <string.h>

#include "base/remedy.h"
#include "base/reasons.h"
#include "os/os.h"
#include "wall/session.h"

/* The limit a caller is told to raise to: 1024, or twice one above it. */
static long
fd_raise_to(long limit)
{
	return limit < 512 ? 1024 : limit * 2;
}

int
wall_fd_cause(struct refusals *r)
{
	int e = wall_fd_errno(r);
	struct cmdline line;
	long lim = os_fd_limit(), to = fd_raise_to(lim);
	struct sbuf lead = {0};
	int rc;

	if (e == 0 || r->n == 0)
		return 0;
	line = r->line;
	refusals_free(r);
	if (e != EMFILE)
		return refusals_add(r, REASON_FD_LIMIT, "out of file "
				    "descriptors: the system's file table is "
				    "full (ENFILE, fs.file-max): end programs that "
				    "hold many files, or raise fs.file-max (sysctl "
				    "-w fs.file-max=<n>), then run it again") < 0 ?
		       -1 : 1;
	sbuf_addf(&lead, "; run: ulimit -n %ld && ", to);
	rc = remedy_refuse_lead(r, REASON_FD_LIMIT, NULL,
				line.args != NULL ? &line : NULL, NULL, lead.s,
				"out of file descriptors: the tool could not "
				"make one it needs (EMFILE: this process's limit, "
				"ulimit -n, is %ld; what it would have refused "
				"followed from that); raise it, to %ld or more "
				"(the tool needs one per root it names and some "
				"40 of its own)", lim, to);
	sbuf_free(&lead);
	return rc < 0 ? -1 : 1;
}

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
