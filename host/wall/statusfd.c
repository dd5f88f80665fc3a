/* SPDX-License-Identifier: MIT */
/* statusfd.c -- --status-fd: checked on the descriptor it names (the
 * platform's look, os/os.h), made close-on-exec, handed to base/out.c. */
#include "wall/statusfd.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "base/out.h"
#include "base/reasons.h"
#include "os/os.h"

int
status_fd_check(const char *s, int *fd, const char **why)
{
	unsigned long long v;

	*why = "";
	if (s == NULL || parse_u64(s, INT_MAX, &v) != 0 || v < 3)
		return -1;
	if (os_fd_writable((int)v, why) != 0)
		return -1;
	*fd = (int)v;
	return 0;
}

int
status_fd_take(const char *s, struct refusals *r)
{
	const char *why;
	int fd;

	if (s == NULL || status_fd_check(s, &fd, &why) != 0)
		return 0;
	/* close-on-exec: nothing the tool executes inherits it (the wall's
	 * child closes every descriptor above 2 besides, rule 14) */
	if (os_fd_cloexec(fd) == 0) {
		out_status_set(fd);
		return 0;
	}
	refusals_addr(r, REASON_BAD_STATUS_FD, REMEDY_IN_TEXT, "--status-fd %d "
		      "cannot be made "
		      "close-on-exec (%s); --status-fd wants an open, writable "
		      "descriptor of 3 or above", fd, strerror(errno));
	return 1;
}
