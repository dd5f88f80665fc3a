/* SPDX-License-Identifier: MIT */
/* policy.c -- the platform-independent policy builder's checks that
 * need no seam (gpu, net, the command and --write, the caller's
 * directories, --cwd), the remedy line and helpers the seams share, and
 * the built policy's view and freeing.  The build's order is builder.c's;
 * this file calls none of the seams (build.h). */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/build.h"

/* ---- paste-able remedies (base/remedy.h) -------------------------- */

/* The caller's command line, as the verb handed it over. */
struct cmdline
build_line(const struct build *b)
{
	return cmdline_of(b->in->verb, b->in->remedy_args);
}

/* The typed line with the first `flag` whose value is `match` (NULL: any
 * value) given `value` instead (NULL: the flag and its value left out);
 * `add` (when not NULL) with `value` put first instead. */
static int
remedy_line(struct sbuf *s, const struct build *b, const char *flag,
	    const char *match, const char *value, const char *add)
{
	/* the switches a fix may leave out: one word, no value after it */
	static const char *const switches[] = { "--net-deny", "--net-listen",
		"--explain", "--env-clear", NULL };
	struct cmdline c = build_line(b);
	struct cmdfix f = { flag, match, value, add, 0 };

	for (size_t i = 0; switches[i] != NULL; i++)
		if (strcmp(flag, switches[i]) == 0)
			f.bare = FIX_SWITCH;

	return remedy_cmdline(s, &c, &f);
}

/* A refusal "<text>; run: <the command line fixed as remedy_line says>".
 * Without the typed args (a caller that gave none) the text alone, with
 * the verb's remedy. */
int
refuse_line(struct build *b, const char *tok, const char *text,
	    const char *flag, const char *match, const char *value,
	    const char *add)
{
	struct sbuf s = {0};
	int rc;

	/* past the listed problems no line: it would never print */
	if (b->in->remedy_args == NULL || !remedy_wanted(b->r))
		return ADD(b->r, tok, "%s", text);
	rc = sbuf_addf(&s, "%s; run: ", text);
	rc = rc ? rc : remedy_line(&s, b, flag, match, value, add);
	rc = rc ? rc : ADD_SAID(b->r, tok, "%s", s.s);
	sbuf_free(&s);
	return rc;
}

/* ---- flags that are not paths ------------------------------------- */

int
check_gpu(struct build *b)
{
	const char *g = b->in->gpu;
	size_t n;

	b->pol->gpu = "none";
	if (g == NULL)
		return 0;
	while (isspace((unsigned char)*g))
		g++;
	n = strlen(g);
	while (n > 0 && isspace((unsigned char)g[n - 1]))
		n--;
	if (n == 0 || (n == 4 && strncmp(g, "none", 4) == 0))
		return 0;
	if (n == 5 && strncmp(g, "metal", 5) == 0) {
		b->pol->gpu = "metal";
		return 0;
	}
	{
		struct sbuf t = {0};
		int rc = sbuf_addf(&t, "--gpu wants none or metal, got %s",
				   b->in->gpu);

		rc = rc ? rc : refuse_line(b, REASON_BAD_GPU, t.s, "--gpu",
					   NULL, "none", NULL);
		sbuf_free(&t);
		return rc;
	}
}

int
check_command_and_write(struct build *b)
{
	if (b->in->argv.n == 0 &&
	    ADD(b->r, REASON_NO_COMMAND, "no command after --: name the command "
		"and its arguments after --") < 0)
		return -1;
	if (b->in->writes.n == 0) {
		struct sbuf s = {0};
		int rc = sbuf_add(&s, "no --write was given, and refusing to "
				  "guess one: name --write <dir>, the "
				  "directory the command may change; run: ");

		/* the form in place, put first (section 3, "Lines") */
		rc = rc ? rc : remedy_line(&s, b, "--write", NULL, "</abs/dir>",
					   "--write");
		rc = rc ? rc : ADD_SAID(b->r, REASON_BAD_WRITE, "%s", s.s);
		sbuf_free(&s);
		return rc < 0 ? -1 : 0;
	}
	return 0;
}

/* ---- caller directories (rule 5) ---------------------------------- */

/* The user the command runs as: who could have planted a link.  Asked
 * once per build (builder.c), not once per path walked. */
uid_t
build_uid(const struct build *b)
{
	return b->uid;
}

/* path_resolve into the list's string and descriptor: 0, or -1. */
static int
resolve_one(struct build *b, const char *flag, const char *reason,
	    const char *p, struct strv *out, struct rpaths *rout)
{
	/* the OK line prints the --write roots: read back from the kernel */
	unsigned fl = strcmp(flag, "--write") == 0 ? PATH_READ_BACK : 0;
	struct rpath rp;
	struct refusals quiet = {0};
	int rc = path_resolve(flag, reason, p, build_uid(b), fl, &rp,
			      &b->pol->notes, &quiet);

	/* rule 5's text, then the command line without that root (a
	 * --write too, when it is not the only one) */
	for (size_t i = 0; rc > 0 && i < quiet.n; i++) {
		int drop = strcmp(flag, "--write") != 0 ||
			   b->in->writes.n > 1;
		struct sbuf t = {0};

		if (sbuf_addf(&t, "%s%s", quiet.v[i].text, drop ?
			      "; or leave it out" : "") < 0 ||
		    (drop ? refuse_line(b, quiet.v[i].reason, t.s, flag, p,
					NULL, NULL) :
		     ADD_SAID(b->r, quiet.v[i].reason, "%s", t.s)) < 0)
			rc = -1;
		sbuf_free(&t);
	}
	if (refusals_failed(&quiet))
		rc = -1;
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (strv_push(out, rp.path) < 0 || rpaths_push(rout, &rp) < 0) {
		rpath_free(&rp);
		return -1;
	}
	return 0;
}

/* Each typed root resolved into out/rout; `kept` gets the typed word of
 * each one resolved (rout->v[k] was typed kept->v[k]). */
static int
resolve_list(struct build *b, const struct strv *typed, const char *flag,
	     const char *reason, struct strv *out, struct rpaths *rout,
	     struct strv *kept)
{
	for (size_t i = 0; i < typed->n; i++) {
		size_t n = rout->n;

		if (resolve_one(b, flag, reason, typed->v[i], out, rout) < 0 ||
		    (rout->n > n && strv_push(kept, typed->v[i]) < 0))
			return -1;
	}
	return 0;
}

/* One flag's resolved roots and the words they were typed as. */
struct typed_roots {
	const char *flag;
	const struct rpaths *r;
	const struct strv *typed;
};

/* The same directory (by identity) under two flags: the line without
 * the one of x, the flag whose grant the other one holds or narrows. */
static int
clash(struct build *b, const struct typed_roots *x,
      const struct typed_roots *y, const char *why)
{
	for (size_t i = 0; i < x->r->n; i++)
		for (size_t j = 0; j < y->r->n; j++)
			if (rpath_same(&x->r->v[i], &y->r->v[j])) {
				struct sbuf t = {0};
				int rc = sbuf_addf(&t, "%s and %s both name "
						   "%s: name it once, with the "
						   "one flag that grants what "
						   "the command needs (%s)",
						   x->flag, y->flag,
						   x->r->v[i].path, why);

				rc = rc ? rc : refuse_line(b, REASON_BAD_READ,
							   t.s, x->flag,
							   x->typed->v[i],
							   NULL, NULL);
				sbuf_free(&t);
				if (rc < 0)
					return -1;
			}
	return 0;
}

int
resolve_caller_dirs(struct build *b)
{
	const struct policy_input *in = b->in;
	struct policy *pol = b->pol;
	struct strv tr = {0}, tn = {0}, tw = {0};
	struct typed_roots r = { "--read", &pol->r_reads, &tr };
	struct typed_roots n = { "--read-noexec", &pol->r_reads_noexec, &tn };
	struct typed_roots w = { "--write", &pol->r_writes, &tw };
	int rc = -1;

	if (resolve_list(b, &in->reads, "--read", REASON_BAD_READ, &pol->reads,
			 &pol->r_reads, &tr) < 0 ||
	    resolve_list(b, &in->reads_noexec, "--read-noexec", REASON_BAD_READ,
			 &pol->reads_noexec, &pol->r_reads_noexec, &tn) < 0 ||
	    resolve_list(b, &in->writes, "--write", REASON_BAD_WRITE, &pol->writes,
			 &pol->r_writes, &tw) < 0)
		goto out;
	if (clash(b, &r, &w, "--write grants reading and executing too") < 0 ||
	    clash(b, &r, &n, "--read-noexec grants reading, never executing; "
		  "leave out --read-noexec instead to execute from it") < 0 ||
	    clash(b, &n, &w, "--write grants reading too") < 0)
		goto out;
	rc = 0;
out:
	strv_free(&tr);
	strv_free(&tn);
	strv_free(&tw);
	return rc;
}

int
inside_caller(const struct policy *pol, const struct rpath *p)
{
	return rpath_inside_any(p, &pol->r_reads) ||
	       rpath_inside_any(p, &pol->r_reads_noexec) ||
	       rpath_inside_any(p, &pol->r_writes);
}

/* --cwd and --tmp: resolved once, and inside a --write.  *out stays NULL
 * on a refusal. */
int
resolve_in_write(struct build *b, const char *flag, const char *reason,
		 const char *p, char **out, struct rpath *rout)
{
	struct refusals quiet = {0};
	int rc = path_resolve(flag, reason, p, build_uid(b), PATH_READ_BACK,
			      rout, &b->pol->notes, &quiet);

	*out = NULL;
	/* rule 5's own text, then the line without the flag */
	for (size_t i = 0; rc > 0 && i < quiet.n; i++) {
		struct sbuf t = {0};
		int rc2 = sbuf_addf(&t, "%s; or leave %s out (the default "
				    "applies)", quiet.v[i].text, flag);

		rc2 = rc2 ? rc2 : refuse_line(b, quiet.v[i].reason, t.s, flag,
					      NULL, NULL, NULL);
		sbuf_free(&t);
		if (rc2 < 0)
			rc = -1;
	}
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (rpath_inside_any(rout, &b->pol->r_writes)) {
		*out = strdup(rout->path);
		return *out ? 0 : -1;
	}
	rpath_free(rout);
	{
		struct sbuf t = {0};
		int rc2 = sbuf_addf(&t, "%s %s is not inside a --write: name a "
				    "directory inside one of the --write "
				    "directories, or leave it out (the default "
				    "applies)", flag, p);

		rc2 = rc2 ? rc2 : refuse_line(b, reason, t.s, flag, p, NULL,
					      NULL);
		sbuf_free(&t);
		return rc2;
	}
}

/* bad_cwd: what is wrong, then "; run: <the command line fixed>": a --cwd
 * that exists but is outside every root gets a --read of it first (it
 * becomes readable; --write it instead to write there); one that cannot
 * be used is left out (the default applies). */
static int
refuse_cwd(struct build *b, const char *why, const char *p, int exists)
{
	struct sbuf s = {0};
	int rc = sbuf_addf(&s, "--cwd %s %s; run: ", p, why);

	if (rc == 0)
		rc = exists ? remedy_line(&s, b, "--cwd", NULL, p, "--read") :
		     remedy_line(&s, b, "--cwd", NULL, NULL, NULL);
	/* a shell comment: the line still pastes */
	if (rc == 0 && exists)
		rc = sbuf_add(&s, " # or --write it, to write there");
	if (rc == 0)
		rc = ADD_SAID(b->r, REASON_BAD_CWD, "%s", s.s);
	sbuf_free(&s);
	return rc;
}

/* The caller's working directory, when it resolves (rule 5) inside a
 * --write, --read or --read-noexec: 1 with *rp set, 0 when not (nothing
 * said), -1 on ENOMEM. */
static int
caller_cwd(struct build *b, struct rpath *rp)
{
	struct refusals quiet = {0};
	struct strv notes = {0};
	int rc;

	if (b->in->caller_cwd == NULL || b->in->caller_cwd[0] != '/')
		return 0;
	rc = path_resolve("--cwd", REASON_BAD_CWD, b->in->caller_cwd,
			  build_uid(b), PATH_READ_BACK, rp, &notes, &quiet);
	strv_free(&notes);
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (inside_caller(b->pol, rp))
		return 1;
	rpath_free(rp);
	return 0;
}

static int
default_cwd(struct build *b)
{
	struct rpath rp;
	int rc = caller_cwd(b, &rp);

	if (rc < 0)
		return -1;
	if (rc == 1 && !rpath_same(&rp, &b->pol->r_writes.v[0])) {
		b->pol->r_cwd = rp;
		b->pol->cwd = strdup(rp.path);
		if (b->pol->cwd == NULL)
			return -1;
		return strv_pushf(&b->pol->notes, "the working directory is "
				  "yours, %s (inside a root of the wall); name "
				  "--cwd <dir> for another", b->pol->cwd) < 0 ?
		       -1 : 0;
	}
	if (rc == 1)
		rpath_free(&rp);
	b->pol->cwd = strdup(b->pol->writes.v[0]);
	if (b->pol->cwd == NULL)
		return -1;
	return rpath_dup(&b->pol->r_writes.v[0], &b->pol->r_cwd);
}

/* Rule 13: --cwd inside a --write, --read or --read-noexec; by default
 * the caller's working directory when it is inside one, else the first
 * --write. */
int
check_cwd(struct build *b)
{
	struct refusals quiet = {0};
	struct rpath *rp = &b->pol->r_cwd;
	int rc;

	if (b->in->cwd == NULL)
		return default_cwd(b);
	rc = path_resolve("--cwd", REASON_BAD_CWD, b->in->cwd, build_uid(b),
			  PATH_READ_BACK, rp, &b->pol->notes, &quiet);
	if (rc < 0) {
		refusals_free(&quiet);
		return -1;
	}
	if (rc != 0) {
		/* rule 5's own text (a planted link, not a directory ...),
		 * then the command line without the --cwd */
		for (size_t i = 0; rc >= 0 && i < quiet.n; i++) {
			struct sbuf t = {0};

			rc = sbuf_addf(&t, "%s; or leave --cwd out (the "
				       "default applies); run: ",
				       quiet.v[i].text);
			rc = rc ? rc : remedy_line(&t, b, "--cwd", NULL, NULL,
						   NULL);
			rc = rc ? rc : ADD_SAID(b->r, quiet.v[i].reason, "%s",
						t.s);
			sbuf_free(&t);
		}
		refusals_free(&quiet);
		return rc < 0 ? -1 : 0;
	}
	refusals_free(&quiet);
	if (inside_caller(b->pol, rp))
		return (b->pol->cwd = strdup(rp->path)) ? 0 : -1;
	rpath_free(rp);
	return refuse_cwd(b, "is not inside a --write, --read or --read-noexec",
			  b->in->cwd, 1);
}

void
policy_view(const struct policy *pol, struct ns_policy *view)
{
	memset(view, 0, sizeof(*view));
	view->struct_size = sizeof(*view);
	view->flags = (pol->net_deny ? NS_POLICY_NET_DENY : 0) |
		      (pol->net_listen ? NS_POLICY_NET_LISTEN : 0);
	view->rules = pol->rules;
	view->n_rules = pol->n_rules;
	/* the net room (host/net/) says what the wall is told of them */
	view->net_allow = NULL;
	view->n_net_allow = 0;
	view->net_sink = -1; /* only with NS_POLICY_NET_PROXIED */
	view->gpu = pol->gpu;
	view->name = pol->name;
	view->command = pol->command;
	view->argv = (const char *const *)pol->argv.v;
	view->envp = (const char *const *)pol->env.v;
	view->cwd = pol->cwd;
	view->tmp = pol->tmp;
	view->home = pol->home;
	view->rule_fds = pol->rule_fds;
	view->cwd_fd = pol->r_cwd.fd >= 0 ? &pol->r_cwd.fd : NULL;
	view->protect = pol->prot.paths;
	view->n_protect = pol->prot.n;
	view->protect_fds = pol->prot.fds;
}

void
policy_close_fds(struct policy *pol)
{
	struct rpaths *lists[] = {
		&pol->r_roots, &pol->r_opt, &pol->r_reads, &pol->r_reads_noexec,
		&pol->r_writes, &pol->r_write_files,
	};
	struct rpath *one[] = {
		&pol->r_tmp, &pol->r_home, &pol->r_command, &pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (size_t j = 0; j < lists[i]->n; j++)
			rpath_close(&lists[i]->v[j]);
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		rpath_close(one[i]);
	for (size_t i = 0; pol->rule_fds != NULL && i < pol->n_rules; i++)
		pol->rule_fds[i] = -1;
}

void
policy_free(struct policy *pol)
{
	struct strv *lists[] = {
		&pol->roots, &pol->opt_roots, &pol->reads, &pol->reads_noexec,
		&pol->writes, &pol->write_files, &pol->ttys, &pol->net_allow,
		&pol->argv,
		&pol->env, &pol->dropped,
	};

	struct rpaths *rlists[] = {
		&pol->r_roots, &pol->r_opt, &pol->r_reads, &pol->r_reads_noexec,
		&pol->r_writes, &pol->r_write_files,
	};
	struct rpath *one[] = {
		&pol->r_cwd, &pol->r_tmp, &pol->r_home, &pol->r_command,
		&pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		strv_free(lists[i]);
	for (size_t i = 0; i < sizeof(rlists) / sizeof(rlists[0]); i++)
		rpaths_free(rlists[i]);
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		rpath_free(one[i]);
	strv_free(&pol->notes);
	env_report_free(&pol->envrep);
	if (pol->tmp_created && pol->tmp_pfd >= 0)
		close(pol->tmp_pfd);
	strv_free(&pol->toolchain_reads);
	net_list_free(&pol->net);
	protect_free(&pol->prot);
	free(pol->rule_fds);
	free(pol->rule_ids);
	free(pol->command);
	free(pol->cwd);
	free(pol->tmp);
	free(pol->home);
	free(pol->name);
	free(pol->rules);
	memset(pol, 0, sizeof(*pol));
}

void
policy_input_free(struct policy_input *in)
{
	strv_free(&in->reads);
	strv_free(&in->reads_noexec);
	strv_free(&in->writes);
	strv_free(&in->net_allow);
	strv_free(&in->net_allow_files);
	strv_free(&in->argv);
	strv_free(&in->caller_homes);
	strv_free(&in->env_keep);
	strv_free(&in->env_deny);
	strv_free(&in->toolchain_reads);
	strv_free(&in->protect);
	strv_free(&in->unprotect);
}
