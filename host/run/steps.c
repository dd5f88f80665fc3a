/* SPDX-License-Identifier: MIT */
/* steps.c -- the steps of `run` every platform shares: load the wall and
 * the place, resolve the reads, the policy and the lines of the run, then
 * kill, handoff, measure and delete.  run/dispatch.c orders them; what
 * runs the command in between is run/keeper.c (the keeper, the init and
 * the supervisor: forks, POSIX) or run/nofork.c (no fork: a place without
 * enter() and a wall that waits for, ends and caps its own tree;
 * Windows), each calling back only into this file. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"
#include "os/tool.h"
#include "os/os.h"
#include "policy/toolchain.h"
#include "policy/ttys.h"
#include "wall/explain.h"
#include "wall/lifecycle.h"
#include "wall/protwall.h"
#include "wall/session.h"
#include "proc/caps.h"
#include "run/flow.h"
#include "run/handoff.h"
#include "proc/reaper.h"


/* ---- loading -------------------------------------------------------- */

static int
load_place(struct runctx *c, struct refusals *r)
{
	return loader_select_place(&c->w.cfg, &c->pm, r) != 0;
}

static void
place_services(struct runctx *c)
{
	hostsvc_init(&c->phs);
	c->phs.prefix = "SANDBOX";
	c->phs.err = stderr;
	c->phs.refusals = &c->pr;
	c->phs.notes = NULL;
	c->phs.text = &c->ptext;
	c->phs.cfg = &c->w.cfg;
	c->phs.stem = c->pm.stem;
}

static void
go_note(const char *what, const struct strv *v)
{
	struct sbuf t = {0};

	sbuf_addf(&t, "--go %s %zu read root(s) from go env:", what, v->n);
	for (size_t i = 0; i < v->n; i++)
		sbuf_addf(&t, " %s", v->v[i]);
	run_note(t.s ? t.s : "");
	sbuf_free(&t);
}

/* --go: GOROOT and GOMODCACHE become read roots when they exist, go
 * asked as --toolchain go asks it (rule 3a: never a go the command could
 * have changed, in an empty private directory, GOENV=off
 * GOTOOLCHAIN=local GOFLAGS=). */
static void
go_reads(struct runctx *c, struct refusals *r)
{
	struct toolchain_ctx x = { os_getenv("PATH"), c->hr->env, NULL,
				   &c->writes, NULL };
	struct toolchain_found f = {0};
	int found = toolchain_has_tool("go", x.path);

	if (found <= 0) {
		refusals_add(r, REASON_BAD_READ, "--go could not run `go env GOROOT "
			     "GOMODCACHE` (go on PATH); install Go, or drop "
			     "--go and name the roots with --read");
		return;
	}
	if (toolchain_discover("go", &x, &f, r) == 0) {
		for (size_t i = 0; i < f.roots.n; i++)
			strv_push(&c->reads, f.roots.v[i]);
		if (f.roots.n)
			go_note("added", &f.roots);
		if (f.absent.n)
			go_note("skipped", &f.absent);
		for (size_t k = 0; k < f.notes.n; k++)
			run_note(f.notes.v[k]);
	}
	toolchain_found_free(&f);
}

/* Windows: which memory limit the job gets (args.c's job_memory). */
static void
memory_note(const struct run_args *a)
{
	struct sbuf t = {0};

	sbuf_addf(&t, "--memory %s is the job's memory limit (JobMemoryLimit, "
		  "the whole tree), as --max-mem is", a->memory_s);
	if (a->max_mem_s == NULL)
		sbuf_addf(&t, "; it replaces --max-mem's default 8g");
	else
		sbuf_addf(&t, "; with --max-mem %s the smaller, %s, applies",
			  a->max_mem_s, a->memory <= a->max_mem ? a->memory_s :
			  a->max_mem_s);
	run_note(t.s ? t.s : "--memory is the job's memory limit");
	sbuf_free(&t);
}

static void
flag_notes(const struct run_args *a)
{
	if (a->container != NULL)
		run_note("--container names an APFS container; it is "
			 "accepted and ignored on linux");
	if (a->job_flags) {
		if (a->memory != 0)
			memory_note(a);
		return;
	}
	if (a->memory_s != NULL || a->cpu != NULL || a->place != NULL) {
		struct sbuf t = {0};

		sbuf_addf(&t, "--memory, --cpu and --place are accepted and "
			  "ignored on %s; the caps are --max-procs and "
			  "--max-mem", os_platform());
		run_note(t.s ? t.s : "");
		sbuf_free(&t);
	}
}

/* Windows: --cpu needs a wall that keeps a CPU cap (NS_WALL_CAPS_CPU,
 * ABI 1.3): never a cap dropped. */
static void
job_cpu(struct runctx *c, struct refusals *r)
{
	if (c->a->cpu_percent == 0 ||
	    wall_has_feature(&c->w, NS_WALL_CAPS_CPU))
		return;
	remedy_refuse(r, REASON_BAD_CPU, REMEDY_IN_TEXT, c->phs.line,
		      &(struct cmdfix){ "--cpu", c->a->cpu, NULL, NULL, 0 },
		      "--cpu %s: the wall %s cannot cap the CPU (no "
		      "NS_WALL_CAPS_CPU); run without --cpu", c->a->cpu,
		      c->w.mod.ops.name);
}

/* A --scratch inside or above a --write is one the command may change:
 * it could move its scratch away and leave a decoy in its place, and the
 * delete would remove the decoy (the red team did).  1 refused, 0 not. */
static int
scratch_in_write(const struct runctx *c, const char *res,
		 struct refusals *r)
{
	for (size_t i = 0; i < c->writes.n; i++) {
		const char *w = c->writes.v[i];
		int in = policy_inside(res, w);

		if (!in && !policy_inside(w, res))
			continue;
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s is %s --write "
			     "%s: the command could move its scratch away and "
			     "leave another in its place; name a --scratch "
			     "outside every --write", res, in ? "inside" :
			     "an ancestor of", w);
		return 1;
	}
	return 0;
}

/* Windows: --scratch, the directory the place is made in (ABI 1.3,
 * ns_place_req.parent): a place that takes one (NS_PLACE_PARENT); rule
 * 5's resolution; not itself a link or reparse point; the caller's own
 * and changeable by no one else (another user could move the scratch
 * away or plant in it).  Nothing is made here. */
static void
run_scratch(struct runctx *c, struct refusals *r)
{
	const char *p = c->a->scratch;
	struct strv notes = {0};
	struct os_stat st;
	char *res = NULL;

	if (p == NULL || os_root_len(p) == 0)
		return; /* absent, or refused by args.c */
	if ((c->pm.place.features & NS_PLACE_PARENT) == 0) {
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s: the place %s "
			     "makes its scratch where it chooses (no "
			     "NS_PLACE_PARENT); run without --scratch", p,
			     c->pm.ops.name);
		return;
	}
	if (os_path_kind(p) == OS_PATH_LINK) {
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s is a link or "
			     "reparse point: name the directory itself", p);
		return;
	}
	if (policy_resolve_dir_noted("--scratch", REASON_BAD_SCRATCH, p, &res,
				     &notes, r) != 0 || res == NULL) {
		strv_free(&notes);
		return;
	}
	for (size_t k = 0; k < notes.n; k++)
		run_note(notes.v[k]);
	strv_free(&notes);
	if (os_stat_path(res, &st) != 0)
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s cannot be "
			     "looked at: %s", res, strerror(errno));
	else if (st.uid != os_euid())
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s is not yours "
			     "(another user or the system owns it): name a "
			     "directory you own", res);
	else if ((st.mode & (S_IWGRP | S_IWOTH)) != 0)
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch %s can be changed "
			     "by another user, who could move the scratch away "
			     "or plant in it: name a directory only you may "
			     "change", res);
	else if (scratch_in_write(c, res, r) != 0)
		; /* said */
	else {
		c->scratch = res;
		return;
	}
	free(res);
}

int
flow_nofork_fits(const struct runctx *c)
{
	return !reaper_here() && c->pm.place.enter == NULL &&
	       wall_keeps_tree(&c->w);
}

/* Where the host has no fork (reaper_here() 0: Windows) run is the
 * no-fork flow (run/nofork.c) or nothing: its place and wall must fit it.
 * Before anything is made. */
static void
nofork_refusals(struct runctx *c, struct refusals *r)
{
	const char *pf = os_platform();

	if (!flow_nofork_fits(c))
		refusals_add(r, REASON_NO_SANDBOX, "on %s run needs a place "
			     "without enter() and a wall that waits for, ends "
			     "and caps its own tree (wait, terminate, "
			     "NS_WALL_CAPS_NATIVE): %s or %s is not one", pf,
			     c->pm.ops.name, c->w.mod.ops.name);
}

/* --toolchain: each toolchain's roots become reads, said in a NOTE. */
static void
run_toolchains(struct runctx *c, struct refusals *r)
{
	struct cmdline line = cmdline_of("run", c->args);

	for (size_t i = 0; i < c->a->toolchains.n; i++) {
		struct toolchain_found f = {0};
		char *note;

		struct toolchain_ctx x = { os_getenv("PATH"), c->hr->env,
					   c->w.roots.read_roots, &c->writes,
					   &line };

		if (toolchain_discover(c->a->toolchains.v[i], &x, &f, r) == 0) {
			for (size_t k = 0; k < f.roots.n; k++)
				if (!strv_contains(&c->reads, f.roots.v[k]))
					strv_push(&c->reads, f.roots.v[k]);
			note = toolchain_note(c->a->toolchains.v[i], &f);
			run_note(note ? note : "--toolchain: out of memory");
			if (note == NULL)
				refusals_oom(r);
			free(note);
			for (size_t k = 0; k < f.notes.n; k++)
				run_note(f.notes.v[k]);
		}
		toolchain_found_free(&f);
	}
}

/* --write: a directory outside the place (a package cache) the command
 * may write too; resolved by rule 5, kept after the run, said in a NOTE. */
static void
run_writes(struct runctx *c, struct refusals *r)
{
	for (size_t i = 0; i < c->a->writes.n; i++) {
		struct strv notes = {0};
		char *res = NULL;

		if (os_root_len(c->a->writes.v[i]) != 0 &&
		    policy_resolve_dir_noted("--write", REASON_BAD_WRITE,
					     c->a->writes.v[i], &res, &notes,
					     r) == 0 && res != NULL) {
			struct sbuf t = {0};

			strv_push(&c->writes, res);
			sbuf_addf(&t, "--write %s is outside the place: the "
				  "command may write and delete there, and "
				  "what it leaves there is not deleted with the "
				  "place (a cache a later run reads may hold "
				  "what this command planted)", res);
			run_note(t.s ? t.s : "--write: outside the place");
			sbuf_free(&t);
			free(res);
		}
		for (size_t k = 0; k < notes.n; k++)
			run_note(notes.v[k]);
		strv_free(&notes);
	}
}

/* An existing directory outside every --write and no ancestor of one,
 * for the corrected line: HOME, /var/tmp, /tmp.  NULL: none. */
#define ELSEWHERE_N 3

/* The i-th of HOME, /var/tmp, /tmp when it is an existing directory
 * outside every --write and no ancestor of one; NULL otherwise. */
static const char *
elsewhere_at(const struct runctx *c, size_t i)
{
	static const char *const fixed[] = { "/var/tmp", "/tmp" };
	const char *d = i == 0 ? os_getenv(os_home_var()) : fixed[i - 1];
	int clash = d == NULL || os_root_len(d) == 0;
	struct os_stat sb;

	for (size_t k = 0; !clash && k < c->writes.n; k++)
		clash = policy_inside(d, c->writes.v[k]) ||
			policy_inside(c->writes.v[k], d);
	return !clash && os_stat_path(d, &sb) == 0 && S_ISDIR(sb.mode) ? d :
	    NULL;
}

static const char *
out_elsewhere(const struct runctx *c)
{
	for (size_t i = 0; i < ELSEWHERE_N; i++)
		if (elsewhere_at(c, i) != NULL)
			return elsewhere_at(c, i);
	return NULL;
}

/* The run line with --out's value replaced by dir, shell-quoted. */
static void
out_corrected(const struct runctx *c, const char *dir, struct sbuf *b)
{
	int next = 0, dashdash = 0;

	sbuf_add(b, "nova-sandbox run");
	for (char **a = c->args; a != NULL && *a != NULL; a++) {
		sbuf_add(b, " ");
		if (next) {
			out_shell_quote(b, dir);
		} else if (!dashdash && strncmp(*a, "--out=", 6) == 0) {
			sbuf_add(b, "--out=");
			out_shell_quote(b, dir);
		} else {
			out_shell_quote(b, *a);
		}
		next = !dashdash && strcmp(*a, "--out") == 0;
		dashdash = dashdash || strcmp(*a, "--") == 0;
	}
}

/* --out takes the hand-off, asked before anything is made: a sibling of
 * the name can be made and renamed there, and it has room for what the
 * hand-off may write, the smaller of --out-max-bytes and --size (the
 * artifacts can exceed neither). */
static void
out_room(const struct runctx *c, const char *res, struct refusals *r)
{
	uint64_t need = c->a->out_max < c->a->size ? c->a->out_max :
	    c->a->size;
	char *why = NULL;

	if (c->a->name == NULL ||
	    handoff_check_out(c->out_fd, res, c->a->name, need, &why) == 0)
		return;
	refusals_addr(r, REASON_BAD_OUT, NULL, "%s", why ? why :
		      "--out cannot take the hand-off");
	free(why);
}

/* --out: resolved by rule 5 and opened now, before the command starts;
 * the hand-off goes by this descriptor only.  One inside, or an ancestor
 * of, a --write is refused: the command could replace it. */
static void
run_out(struct runctx *c, struct refusals *r)
{
	struct strv notes = {0};
	char *res = NULL;

	c->out_fd = -1;
	if (c->a->out == NULL || os_root_len(c->a->out) == 0)
		return; /* absent, or refused by args.c */
	if (policy_resolve_dir_noted("--out", REASON_BAD_OUT, c->a->out, &res,
				     &notes, r) != 0 || res == NULL) {
		strv_free(&notes);
		return;
	}
	for (size_t k = 0; k < notes.n; k++)
		run_note(notes.v[k]);
	strv_free(&notes);
	for (size_t i = 0; i < c->writes.n; i++) {
		const char *w = c->writes.v[i], *d;
		int in = policy_inside(res, w);
		struct sbuf b = {0};

		if (!in && !policy_inside(w, res))
			continue;
		d = out_elsewhere(c);
		sbuf_addf(&b, "--out %s is %s --write %s: the command could "
			  "replace it (and what the hand-off moves and deletes "
			  "there) before the hand-off; name an --out outside "
			  "every --write", res, in ? "inside" : "an ancestor of",
			  w);
		if (d != NULL) {
			sbuf_add(&b, "; run: ");
			out_corrected(c, d, &b);
		}
		refusals_addr(r, REASON_BAD_OUT, d ? REMEDY_IN_TEXT : NULL, "%s",
			      b.s ? b.s : "--out is inside a --write");
		sbuf_free(&b);
		free(res);
		return;
	}
	c->out_fd = os_open_readdir(res);
	if (c->out_fd < 0)
		refusals_addr(r, REASON_BAD_OUT, NULL, "--out %s cannot be "
			      "opened: %s", res, strerror(errno));
	else
		out_room(c, res, r);
	c->out = res;
}

/* Everything that can refuse before anything is made. */
int
flow_preflight(struct runctx *c, struct refusals *r)
{
	int rc;

	wall_line(&c->w, "run", c->args);
	c->phs.line = &c->w.line;
	run_line_set(&c->w.line);
	rc = wall_open(&c->w, c->hr, "SANDBOX");

	if (rc != 0) {
		for (size_t i = 0; i < c->w.r.n; i++)
			refusals_add(r, c->w.r.v[i].reason, "%s",
				     c->w.r.v[i].text);
		if (refusals_failed(&c->w.r))
			refusals_oom(r);
		return 1;
	}
	if (wall_explain_refused(&c->w, c->a->explain, r) != 0) {
		if (r->n == 0)
			refusals_oom(r);
		return 1;
	}
	if (load_place(c, r) != 0)
		return 1;
	place_services(c);
	if (flow_net_check(c, r) < 0)
		refusals_oom(r);
	for (size_t i = 0; i < c->a->reads.n; i++) {
		struct strv notes = {0};
		char *res = NULL;

		if (policy_resolve_dir_noted("--read", REASON_BAD_READ,
					     c->a->reads.v[i], &res, &notes,
					     r) == 0 && res != NULL) {
			strv_push(&c->reads, res);
			free(res);
		}
		for (size_t k = 0; k < notes.n; k++)
			run_note(notes.v[k]); /* rule 5: links followed */
		strv_free(&notes);
	}
	run_writes(c, r); /* first: no toolchain tool inside one is run */
	if (c->a->go)
		go_reads(c, r);
	run_out(c, r);
	flow_egress_check(c, r);
	run_toolchains(c, r);
	if (!reaper_here())
		nofork_refusals(c, r);
	if (c->a->job_flags) {
		run_scratch(c, r);
		job_cpu(c, r);
	}
	flag_notes(c->a);
	/* a read, a home of the guard, an argument or an artifact lost to
	 * an allocation: one sandbox_failed line, before anything runs */
	if (caller_homes(&c->homes) < 0 || strv_failed(&c->reads) ||
	    strv_failed(&c->writes) ||
	    strv_failed(&c->a->reads) || strv_failed(&c->a->argv) ||
	    strv_failed(&c->a->artifacts))
		refusals_oom(r);
	return r->n ? 1 : 0;
}

/* ---- the place's hidden directory ------------------------------------- */

void
flow_hidden_check(struct runctx *c, struct refusals *r)
{
	const char *hid = c->place.hidden, *cmd = c->a->argv.v[0];
	char *real;

	if (hid[0] == '\0')
		return;
	for (size_t i = 0; i < c->reads.n; i++)
		if (policy_inside(c->reads.v[i], hid))
			refusals_add(r, REASON_BAD_READ, "--read %s is under %s, "
				     "which the place (%s) is mounted over: it "
				     "would not be there inside; name a "
				     "directory outside %s", c->reads.v[i], hid,
				     c->pm.ops.name, hid);
	for (size_t i = 0; i < c->writes.n; i++)
		if (policy_inside(c->writes.v[i], hid))
			refusals_add(r, REASON_BAD_WRITE, "--write %s is under "
				     "%s, which the place (%s) is mounted over: "
				     "it would not be there inside; name a "
				     "directory outside %s", c->writes.v[i],
				     hid, c->pm.ops.name, hid);
	real = os_has_sep(cmd, strlen(cmd)) ? os_real_path(cmd) : NULL;
	if (real != NULL && policy_inside(real, hid))
		refusals_add(r, REASON_BAD_READ, "the command %s is under %s, "
			     "which the place (%s) is mounted over: it would "
			     "not be there inside; install it outside %s", real,
			     hid, c->pm.ops.name, hid);
	free(real);
}

/* ---- the keeper ------------------------------------------------------- */

static int
child_env(struct runctx *c, const char *home, struct strv *env)
{
	char **e = c->hr->env;
	const char *var = os_home_var();
	size_t n = strlen(var);

	for (size_t i = 0; e != NULL && e[i] != NULL; i++)
		if ((strncmp(e[i], var, n) != 0 || e[i][n] != '=') &&
		    strv_push(env, e[i]) < 0)
			return -1;
	return strv_pushf(env, "%s=%s", var, home);
}

int
flow_policy(struct runctx *c, struct policy *pol, struct refusals *r)
{
	struct policy_input in;
	struct strv env = {0};
	struct cmdline line = cmdline_of("run", c->args);
	const char *root = c->place.root;
	char work[600], home[600], tmp[600];
	int rc;

	memset(&in, 0, sizeof(in));
	snprintf(work, sizeof(work), "%s/work", root);
	snprintf(home, sizeof(home), "%s/home", root);
	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	if (child_env(c, home, &env) < 0 || strv_push(&in.writes, root) < 0)
		return -1;
	for (size_t i = 0; i < c->writes.n; i++)
		strv_push(&in.writes, c->writes.v[i]);
	for (size_t i = 0; i < c->a->env_keep.n; i++)
		strv_push(&in.env_keep, c->a->env_keep.v[i]);
	for (size_t i = 0; i < c->a->env_deny.n; i++)
		strv_push(&in.env_deny, c->a->env_deny.v[i]);
	wall_protect_input(&in, &c->a->protect, &c->a->unprotect); /* 5a */
	in.env_clear = c->a->env_clear;
	in.env_clean = !c->a->env_clear && !c->a->env_inherit;
	in.net_deny = c->a->net_deny;
	for (size_t i = 0; i < c->a->net_allow.n; i++)
		strv_push(&in.net_allow, c->a->net_allow.v[i]);
	for (size_t i = 0; i < c->a->net_allow_files.n; i++)
		strv_push(&in.net_allow_files, c->a->net_allow_files.v[i]);
	/* a failed copy is sticky: policy_build refuses a failed list */
	for (size_t i = 0; i < c->reads.n; i++)
		strv_push(&in.reads, c->reads.v[i]);
	for (size_t i = 0; i < c->a->argv.n; i++)
		strv_push(&in.argv, c->a->argv.v[i]);
	for (size_t i = 0; i < c->homes.n; i++)
		strv_push(&in.caller_homes, c->homes.v[i]);
	in.cwd = work;
	in.tmp = tmp;
	in.home = home;
	in.saw_dashdash = 1;
	in.path = os_getenv("PATH");
	in.env = env.v;
	in.roots = &c->w.roots;
	in.stdio_ttys = 1; /* init and the command inherit the tool's 0-2 */
	in.verb = "run";
	in.remedy_args = c->args;
	rc = wall_protect_place(&c->a->protect, root, &line, r);
	if (rc >= 0) { /* every problem at once */
		int b = policy_build(&in, pol, r);

		rc = b < 0 ? -1 : rc || b;
	}
	if (rc == 0)
		rc = ownfiles_check(c->hr, &c->w.cfg, pol, &line, r);
	if (rc == 0)
		rc = wall_protect_refused(&c->w, pol, &line, r);
	policy_input_free(&in);
	strv_free(&env);
	return rc;
}

/* Where the command's environment started (the OK line's env=): clean,
 * run's default; inherit, --env-inherit; clear, --env-clear. */
static const char *
run_env_word(const struct run_args *a)
{
	return a->env_clear ? "clear" : a->env_inherit ? "inherit" : "clean";
}

void
flow_ok_line(struct runctx *c, const struct policy *pol)
{
	char net[48];

	snprintf(net, sizeof(net), "egress:%s", c->a->egress ? c->a->egress :
		 "");
	c->w.net = c->a->egress ? net : NULL;
	(void)wall_ok_line(&c->w, pol, &(struct wall_ok){ WALL_OK_RUN,
			   c->a->name, c->pm.ops.name, run_env_word(c->a),
			   c->place.root, &c->writes });
	c->w.net = NULL;
}

void
flow_notes(struct runctx *c, const struct policy *pol)
{
	wall_policy_notes(&c->w, pol, c->a->env_clear ? ENV_CLEAR :
			  c->a->env_inherit ? ENV_INHERIT : ENV_CLEAN,
			  c->a->env_deny.n, c->a->explain);
}

/* ---- the supervisor ------------------------------------------------------ */

static void
leak_line(struct runctx *c, const struct sv *s, size_t left)
{
	struct sbuf rem = {0};

	if (c->place.remedy[0] != '\0' && left == 0)
		sbuf_add(&rem, c->place.remedy);
	else
		sbuf_addf(&rem, "%s%ld", reaper_kill_prefix(),
			  (long)(s->init > 0 ? s->init : s->keeper));
	run_leak_line(c->a->name, c->place.id, rem.s ? rem.s : "");
	run_note("the place could not be removed: run the remedy, then "
		 "nova-sandbox reap");
	sbuf_free(&rem);
}

/* One leftover of a killed hand-off cleared from --out (arg: the run). */
static void
sweep_note(void *arg, const char *entry, const char *name, long pid, int did)
{
	const struct runctx *c = arg;
	const char *out = c->out ? c->out : c->a->out;
	struct sbuf b = {0};

	if (did == HANDOFF_SWEEP_RESTORED)
		sbuf_addf(&b, "--out %s: %s was the only copy left of the "
			  "earlier %s/%s, moved aside by a hand-off whose tool "
			  "(pid %ld) is gone: renamed back to %s/%s", out, entry,
			  out, name, pid, out, name);
	else if (did == HANDOFF_SWEEP_REMOVED)
		sbuf_addf(&b, "--out %s: removed %s, left by a hand-off whose "
			  "tool (pid %ld) is gone", out, entry, pid);
	else
		sbuf_addf(&b, "--out %s: %s, left by a hand-off whose tool "
			  "(pid %ld) is gone, could not be removed: remove it "
			  "(rm -rf '%s/%s')", out, entry, pid, out, entry);
	run_note(b.s ? b.s : "a leftover of a killed hand-off was cleared");
	sbuf_free(&b);
}

/* What killed hand-offs left in --out, cleared once the run is accepted
 * (nothing is changed for a refused one). */
void
flow_sweep_out(struct runctx *c)
{
	if (c->out_fd >= 0)
		(void)handoff_sweep(c->out_fd, NULL, 0, sweep_note, c);
}

/* The hand-off failed writing into --out (a full disk, an I/O error):
 * the place is deleted next, so the same artifacts go to a fresh
 * <d>/nova-out-<name>-<pid> of the first of HOME, /var/tmp, /tmp that
 * takes them (never --out again, never a name that exists).  The path
 * (heap) with *st, or NULL when none did. */
static char *
handoff_elsewhere(const struct runctx *c, int work,
		  const struct handoff_caps *caps, struct handoff_stats *st)
{
	char name[80];
	struct sbuf b = {0};

	snprintf(name, sizeof(name), "nova-out-%s-%ld", c->a->name,
		 (long)getpid());
	for (size_t i = 0; i < ELSEWHERE_N; i++) {
		const char *d = elsewhere_at(c, i);
		struct os_stat sb;
		char *why = NULL;
		int fd = d != NULL && (c->out == NULL || strcmp(d, c->out) != 0) ?
		    os_open_readdir(d) : -1, rc;

		if (fd < 0)
			continue;
		if (os_fstat_at(fd, name, &sb) == 0 || errno != ENOENT) {
			close(fd);
			continue;
		}
		rc = handoff_copy(work, fd, d, name, &c->a->artifacts, caps, st,
				  &why);
		free(why);
		close(fd);
		if (rc == 0 && sbuf_addf(&b, "%s%s%s", d, d[strlen(d) - 1] ==
					 '/' ? "" : "/", name) == 0)
			return sbuf_take(&b);
		sbuf_free(&b);
	}
	return NULL;
}

/* out_failed: what went wrong, and where the work is when a failure
 * writing into --out sent it elsewhere (or that nothing could take it). */
static void
handoff_failed(const char *why, int out_error, const char *saved,
	       const struct handoff_stats *st, int kept)
{
	struct refusals r = {0};
	const char *w = why ? why : "the handoff failed";

	if (saved != NULL)
		refusals_addr(&r, REASON_OUT_FAILED, REMEDY_IN_TEXT, "%s; the "
			      "artifacts were handed off to %s instead (files=%zu "
			      "bytes=%llu); run: nova-sandbox help run", w, saved,
			      st->files, (unsigned long long)st->bytes);
	else if (out_error)
		refusals_addr(&r, REASON_OUT_FAILED, REMEDY_IN_TEXT, "%s; no "
			      "other directory (HOME, /var/tmp, /tmp) could take "
			      "the artifacts either: %s; run: nova-sandbox help "
			      "run", w, kept ? "the place is kept with them "
			      "(the LEAK line below)" : "they are deleted with "
			      "the place (it cannot outlive the tool here)");
	else
		refusals_addr(&r, REASON_OUT_FAILED, REMEDY_IN_TEXT,
			      "%s; run: nova-sandbox help run", w);
	run_refuse(&r, NS_EXIT_REFUSED);
}

static int
handoff(struct runctx *c, int code)
{
	struct handoff_stats st;
	struct handoff_rec rec = { -1, "" };
	uint64_t t = run_now_ms();
	char *why = NULL, *n;
	const char *out = c->out ? c->out : c->a->out;
	char *saved = NULL;
	int work = handoff_open_work(c->place.root_fd), rc = -1, out_error = 0;

	run_step("out", 0);
	(void)handoff_record(out, &rec); /* reap's way to a killed one */
	/* this run holds its name: a leftover of that name is no live run's */
	(void)handoff_sweep(c->out_fd, c->a->name, 0, sweep_note, c);
	if (work < 0) {
		struct sbuf b = {0};

		sbuf_addf(&b, "the place's work/ cannot be opened as a "
			  "directory on the place: %s", strerror(errno));
		why = sbuf_take(&b);
	} else {
		struct handoff_caps caps = { c->a->out_max,
			c->a->out_max_files, c->a->out_max_depth };

		rc = handoff_copy(work, c->out_fd, out, c->a->name,
				  &c->a->artifacts, &caps, &st, &why);
		out_error = rc != 0 && st.out_error;
		if (out_error)
			saved = handoff_elsewhere(c, work, &caps, &st);
		close(work);
	}
	handoff_unrecord(&rec);
	if (rc != 0) {
		run_step("out", t);
		/* a place that outlives the tool (no enter: a volume) is
		 * kept when it holds the only copy */
		c->unsaved = out_error && saved == NULL;
		if (c->unsaved && c->pm.place.enter != NULL &&
		    keephold_start(c->place.root_fd, c->a->name, &c->held) != 0)
			c->held = 0;
		handoff_failed(why, out_error, saved, &st, c->unsaved &&
			       (c->pm.place.enter == NULL || c->held > 0));
		free(why);
		free(saved);
		return code == 0 ? NS_EXIT_REFUSED : code;
	}
	run_step("out", t);
	if (st.old_kept[0] != '\0') {
		struct sbuf nb = {0};

		sbuf_addf(&nb, "the earlier %s/%s was replaced; its files, moved "
			  "aside to %s/%s, could not all be removed: remove "
			  "them", c->a->out, c->a->name, c->a->out, st.old_kept);
		run_note(nb.s ? nb.s : "the earlier --out directory was kept");
		sbuf_free(&nb);
	}
	n = out_field(c->a->name);
	out_kind(stderr, "SANDBOX", OUT_OUT,
		 "name=%s files=%zu bytes=%llu", n ? n : "-",
		 st.files, (unsigned long long)st.bytes);
	free(n);
	return code;
}

static void
done_line(const struct runctx *c, int code, uint64_t freed)
{
	uint64_t ms = run_now_ms() - c->t0;
	char *n = out_field(c->a->name);
	struct sbuf extra = {0};

	(void)net_done_field(&c->net, &extra);
	out_kind(stderr, "SANDBOX", OUT_DONE,
		 "name=%s exit=%d wall=%llu.%03llu "
		 "freed=%llu%s", n ? n : "-", code, (unsigned long long)(ms / 1000),
		 (unsigned long long)(ms % 1000), (unsigned long long)freed,
		 extra.s ? extra.s : "");
	sbuf_free(&extra);
	free(n);
}

/* The create step's state=done, once: when the keeper has entered the
 * place, or at the latest when the run ends (a refusal after create). */
void
flow_create_done(struct runctx *c)
{
	if (c->create_said)
		return;
	c->create_said = 1;
	run_step("create", c->t0);
}

/* The place ended full: less than 1% of --size (at least 4 KiB, a page)
 * free. */
static int
place_full(const struct runctx *c, uint64_t used)
{
	uint64_t slack = c->a->size / 100;

	if (slack < 4096)
		slack = 4096;
	return c->a->size > 0 && used + slack >= c->a->size;
}

/* The end NOTE (explain_end_note): what ended the run when the supervisor
 * knows it (its timeout, a signal it passed on, a cap, a full place), else
 * the --explain hint for an exit a denial can give. */
static void
note_end(const struct runctx *c, const struct sv *s, int code, int full)
{
	struct end_facts f;
	char text[512];
	int sig = c->caught != NULL ? c->caught() : 0;

	memset(&f, 0, sizeof(f));
	f.code = code;
	if (s->timed_out && code == NS_EXIT_TIMEOUT)
		f.killed = NS_TERM_TIMEOUT;
	else if (s->signalled || (sig > 0 && code == NS_EXIT_SIGNAL + sig))
		f.killed = NS_TERM_SIGNAL; /* the keeper's end can come before
					      the supervisor's tick sees it */
	else if (s->capped)
		f.killed = NS_TERM_CAP;
	f.timeout = c->a->timeout_s;
	f.full = full ? c->a->size_s : NULL;
	f.explain = c->a->explain;
	f.names = wall_has_feature(&c->w, NS_WALL_EXPLAIN);
	f.wall = os_platform();
	if (explain_end_note(&f, text, sizeof(text)))
		run_note(text);
}

/* A stop signal caught after the command ended (sig0: none before):
 * the hand-off and the delete were finished first (the copy is the
 * command's work); now the exit is 128+N, said. */
static int
late_signal(const struct runctx *c, int sig0, int code)
{
	int sig = c->caught != NULL ? c->caught() : 0;
	const char *name = os_stop_signal_name(sig);
	char text[400];

	if (sig == 0 || sig0 != 0)
		return code;
	snprintf(text, sizeof(text), "%s came after the command ended: %s "
		 "finished first, then the run stops with exit %d", name,
		 c->a->out != NULL ? "the hand-off to --out (the command's "
		 "work) and the delete were" : "the delete was",
		 NS_EXIT_SIGNAL + sig);
	run_note(text);
	return NS_EXIT_SIGNAL + sig;
}

/* The hand-off could save the work nowhere and the place outlives the
 * tool (a volume), or a holder process keeps it open (keephold.c): it
 * is not deleted.  DONE freed=0, a LEAK whose remedy is reap (which
 * deletes or releases it once this tool is gone), and where the work is. */
static int
keep_place(struct runctx *c, int code, int sig0)
{
	struct sbuf b = {0};

	if (c->place.root_fd >= 0)
		close(c->place.root_fd);
	c->place.root_fd = -1;
	if (c->held > 0) /* the holder keeps it: the name is free */
		(void)c->pm.place.destroy(&c->phs.host, &c->place);
	code = late_signal(c, sig0, code);
	done_line(c, code, 0);
	run_leak_line(c->a->name, c->place.id, "nova-sandbox reap");
	if (c->held > 0)
		keephold_note(&b, c->held);
	else
		sbuf_addf(&b, "the place was kept: it holds the only copy of "
			  "this run's work, in %s/work; copy what you need from "
			  "there, then run the remedy (nova-sandbox reap deletes "
			  "it)", c->place.root);
	run_note(b.s ? b.s : "the place was kept with this run's work");
	sbuf_free(&b);
	return NS_EXIT_LEAK;
}

/* Kill, handoff, measure, delete, DONE (and LEAK). */
int
flow_finish(struct runctx *c, struct sv *s, int code, int ran)
{
	uint64_t t = run_now_ms(), freed = 0;
	size_t left = 0;
	int killed, gone, sig0 = c->caught != NULL ? c->caught() : 0;

	if (c->created)
		flow_create_done(c);
	net_stop(&c->net); /* the command's run is over: its proxy too */
	run_step("kill", 0);
	killed = reaper_kill_all(RUN_GONE_MS, &left) == 0;
	run_step("kill", t);
	if (c->place.root_fd >= 0 &&
	    c->pm.place.used(&c->phs.host, &c->place, &freed) != NS_OK)
		freed = 0;
	if (ran)
		note_end(c, s, code, place_full(c, freed));
	if (ran && c->a->out != NULL && c->place.root_fd >= 0 && killed)
		code = handoff(c, code);
	refusals_free(&c->pr);
	if (c->unsaved && (c->pm.place.enter == NULL || c->held > 0))
		return keep_place(c, code, sig0);
	t = run_now_ms();
	run_step("delete", 0);
	if (c->pm.place.enter == NULL && c->place.root_fd >= 0) {
		/* a volume visible to everyone: our own descriptor would keep
		 * it busy against the unmount (ABI: closed before destroy) */
		close(c->place.root_fd);
		c->place.root_fd = -1;
	}
	gone = killed && c->pm.place.destroy(&c->phs.host, &c->place) == NS_OK;
	if (c->place.root_fd >= 0)
		close(c->place.root_fd);
	c->place.root_fd = -1;
	run_step("delete", t);
	code = late_signal(c, sig0, code);
	done_line(c, code, gone ? freed : 0);
	if (gone)
		return code;
	leak_line(c, s, left);
	return NS_EXIT_LEAK;
}

