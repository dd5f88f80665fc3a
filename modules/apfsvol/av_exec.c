/* SPDX-License-Identifier: MIT */
/* av_exec.c -- run one tool through the kit's helper runner
 * (modules/common/nk_run.h): an absolute path with an argv (no shell),
 * the caller's environment with the locale pinned to C, stdout kept
 * (bounded), the tail of stderr kept, a deadline in seconds. */
#include <stdio.h>
#include <string.h>

#include "av.h"
#include "common/nk_run.h"

#define AV_ENV_MAX 256

/* The caller's environment with the locale pinned to C (the tools' output
 * is parsed; `ps -o lstart=` is locale-dependent). */
static void
build_env(char **env, size_t cap)
{
	size_t n = 0;

	for (char **e = nk_environ(); e != NULL && *e != NULL && n + 2 < cap;
	     e++)
		if (strncmp(*e, "LC_", 3) != 0 && strncmp(*e, "LANG=", 5) != 0)
			env[n++] = *e;
	env[n++] = (char *)"LC_ALL=C";
	env[n] = NULL;
}

int
av_exec(const char *const *argv, unsigned timeout, struct av_run *r)
{
	char *env[AV_ENV_MAX];
	struct nk_exec x = { (char *const *)argv, env, -1, 0, 0,
			     timeout * 1000u };
	struct nk_keep out = NK_KEEP(r->out, 0), err = NK_KEEP(r->err, 1);
	int rc;

	memset(r, 0, sizeof(*r));
	build_env(env, AV_ENV_MAX);
	rc = nk_exec(&x, &out, &err, &r->status, r->why, sizeof(r->why));
	r->out_len = out.len;
	r->out_truncated = out.truncated;
	if (rc == NK_LATE)
		snprintf(r->why, sizeof(r->why), "timed out after %us",
			 timeout);
	return rc == 0 ? 0 : -1;
}

int
av_check(const struct ns_host *h, const char *what, const char *const *argv,
	 int rc, struct av_run *r)
{
	nk_flatten(r->err);
	if (rc < 0) {
		av_refuse(h, "volume_failed", "%s (%s) %s%s%s", what, argv[0],
			  r->why, r->err[0] ? ": " : "", r->err);
		return NS_E_SYSTEM;
	}
	if (r->status != 0) {
		av_refuse(h, "volume_failed", "%s (%s) failed with exit %d%s%s",
			  what, argv[0], r->status, r->err[0] ? ": " : "",
			  r->err);
		return NS_E_SYSTEM;
	}
	return NS_OK;
}

int
av_tool(const struct ns_host *h, const struct av_cfg *c, const char *what,
	const char *const *argv, struct av_run *r)
{
	return av_check(h, what, argv, av_exec(argv, c->timeout, r), r);
}
