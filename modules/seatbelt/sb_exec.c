/* SPDX-License-Identifier: MIT */
/* sb_exec.c -- run one tool to its end through the kit's helper runner
 * (modules/common/nk_run.h): an absolute path (no shell, no PATH), stdout
 * kept (bounded), stderr kept apart or merged, a deadline in ms.  Used for
 * the preflight, the GPU probe and the log query; never for the command. */
#include <stdio.h>
#include <string.h>

#include "banned.h"
#include "common/nk_run.h"
#include "sb.h"

int
sb_exec(char *const *argv, char *const *envp, int cwd_fd, int merge,
	unsigned timeout_ms, struct sb_run *r)
{
	struct nk_exec x = { argv, envp, cwd_fd, merge, 1, timeout_ms };
	struct nk_keep out = NK_KEEP(r->out, 0), err = NK_KEEP(r->err, 0);
	int rc;

	memset(r, 0, sizeof(*r));
	rc = nk_exec(&x, &out, &err, &r->status, r->why, sizeof(r->why));
	r->out_len = out.len;
	if (rc == NK_LATE)
		snprintf(r->why, sizeof(r->why), "timed out after %u ms",
			 timeout_ms);
	return rc == 0 ? 0 : -1;
}
