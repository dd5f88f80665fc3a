/* SPDX-License-Identifier: MIT */
/* builder.c -- the platform-independent policy build (policy_build): what
 * the caller typed becomes resolved, existing paths and rules, or EVERY
 * independent refusal at once (rule 16).  The order of the refusals is
 * the original tool's (shared/reference/original-behaviour.md section 2,
 * phase 2).  The only thing it ever creates is the default temp
 * directory (rule 8), and only once every check has passed.  It calls
 * the checks of policy.c and the seams (build.h); none calls it. */
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

#include "os/os.h"
#include "policy/build.h"

/* ---- the build ---------------------------------------------------- */

static int
copy_strv(struct strv *dst, const struct strv *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (strv_push(dst, src->v[i]) < 0)
			return -1;
	return 0;
}

/* Every check, gathering refusals; -1 only on allocation failure. */
static int
gather(struct build *b)
{
	if (check_gpu(b) < 0 || check_net(b) < 0 ||
	    check_command_and_write(b) < 0 || resolve_caller_dirs(b) < 0)
		return -1;
	if (b->pol->writes.n == 0)
		return 0; /* nothing else can be judged without a --write */
	if (check_cwd(b) < 0 || check_tmp(b) < 0 || check_home(b) < 0 ||
	    resolve_command(b) < 0 || home_guard(b) < 0)
		return -1;
	return 0;
}

/* The sound build's remaining fields; nothing here can refuse. */
static int
assemble(struct build *b)
{
	const struct policy_input *in = b->in;
	struct policy *pol = b->pol;
	struct env_opts eo;

	if (in->name != NULL && (pol->name = strdup(in->name)) == NULL)
		return -1;
	pol->net_deny = in->net_deny;
	pol->net_listen = in->net_listen;
	for (size_t i = 0; i < pol->net.n; i++)
		if (strv_push(&pol->net_allow, pol->net.v[i].text) < 0)
			return -1;
	if (copy_strv(&pol->argv, &in->argv) < 0 ||
	    copy_strv(&pol->toolchain_reads, &in->toolchain_reads) < 0 ||
	    collect_roots(b) < 0 ||
	    make_rules(pol) < 0 || count_ancestors(b) < 0)
		return -1;
	eo.clear = in->env_clear;
	eo.keep = &in->env_keep;
	eo.deny = &in->env_deny;
	eo.clean = in->env_clean;
	return policy_child_env_opts(in->env, pol->tmp, &eo, &pol->env,
				     &pol->dropped, &pol->envrep);
}

/* Did building a list the policy depends on fail?  A lost entry of any of
 * them could widen the wall (a --read, a caller's home for the guard, an
 * argument, a scrubbed variable back): the build then fails whole. */
static int
input_failed(const struct policy_input *in)
{
	return strv_failed(&in->reads) || strv_failed(&in->reads_noexec) ||
	       strv_failed(&in->writes) || strv_failed(&in->net_allow) ||
	       strv_failed(&in->net_allow_files) ||
	       strv_failed(&in->argv) || strv_failed(&in->caller_homes) ||
	       strv_failed(&in->env_keep) || strv_failed(&in->env_deny) ||
	       strv_failed(&in->protect) || strv_failed(&in->unprotect);
}

static int
built_failed(const struct policy *pol)
{
	const struct strv *lists[] = {
		&pol->roots, &pol->opt_roots, &pol->reads, &pol->reads_noexec,
		&pol->writes, &pol->write_files, &pol->ttys, &pol->net_allow,
		&pol->argv, &pol->env, &pol->dropped, &pol->notes,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strv_failed(lists[i]))
			return 1;
	return 0;
}

static void
policy_init_fds(struct policy *pol)
{
	struct rpath *one[] = {
		&pol->r_cwd, &pol->r_tmp, &pol->r_home, &pol->r_command,
		&pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		one[i]->fd = one[i]->dir_fd = -1;
}

int
policy_build(const struct policy_input *in, struct policy *pol,
	     struct refusals *r)
{
	static const struct platform_roots none = {0};
	struct policy_input local = *in;
	struct build b = {.in = &local, .pol = pol, .r = r};
	size_t n0 = r->n;
	int rc;

	if (local.roots == NULL)
		local.roots = &none;
	if (in->remedy_args != NULL) {
		struct cmdline c = build_line(&b);

		remedy_keep(r, &c); /* the one line after the list is fixed on it */
	}
	b.uid = in->as_uid != NULL ? *in->as_uid : (uid_t)os_euid();
	paths_cache_reset();
	memset(pol, 0, sizeof(*pol));
	policy_init_fds(pol);
	rc = input_failed(in) ? -1 : gather(&b);
	if (rc == 0 && r->n == n0)
		rc = assemble(&b);
	if (rc == 0 && r->n == n0) /* rule 5a */
		rc = protect_build(&(struct protect_src){ &in->protect,
			&in->unprotect, &pol->r_writes, &pol->r_cwd, b.uid,
			build_line(&b) }, &pol->prot, &pol->notes, r) < 0 ? -1 : 0;
	if (rc == 0 && built_failed(pol))
		rc = -1; /* before make_tmp: a failed build creates nothing */
	if (rc == 0 && r->n == n0 && in->create_tmp && in->tmp == NULL)
		rc = make_tmp(&b);
	paths_cache_reset(); /* no walked directory stays open */
	if (rc < 0 || refusals_failed(r))
		refusals_oom(r); /* one line, never a shorter list */
	if (rc == 0 && r->n == n0 && !refusals_failed(r))
		return 0;
	policy_free(pol);
	return rc < 0 || refusals_failed(r) ? -1 : 1;
}
