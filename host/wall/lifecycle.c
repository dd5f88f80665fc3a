/* SPDX-License-Identifier: MIT */
/* lifecycle.c -- the wall's operations, called from here only, and the
 * lines every walled command shares: the OK line (one table of fields),
 * the NOTEs before it and the stop signals passed on (wall/lifecycle.h). */
#include "wall/lifecycle.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "os/os.h"
#include "policy/envpol.h"
#include "policy/ttys.h"
#include "proc/reaper.h"
#include "wall/protwall.h"

/* ---- the wall's operations -------------------------------------------- */

int
wall_prepare(struct wallctx *w, const struct ns_policy *view, void **state)
{
	return w->mod.wall.prepare(&w->hs.host, view, state) == NS_OK ? 0 : -1;
}

int
wall_spawn(struct wallctx *w, void *state, const struct ns_policy *view,
	   const struct ns_launch *launch, struct ns_proc *proc)
{
	if (w->mod.wall.spawn(&w->hs.host, state, view, launch, proc) != NS_OK)
		return -1;
	return proc->pid > 0 ? 0 : -1;
}

void
wall_release(struct wallctx *w, void *state)
{
	if (w->mod.wall.release != NULL)
		w->mod.wall.release(&w->hs.host, state);
}

int
wall_can_wait(const struct wallctx *w)
{
	return w->mod.wall.wait != NULL;
}

int
wall_can_end(const struct wallctx *w)
{
	return w->mod.wall.wait != NULL && w->mod.wall.terminate != NULL;
}

int
wall_keeps_tree(const struct wallctx *w)
{
	return wall_can_end(w) && wall_has_feature(w, NS_WALL_CAPS_NATIVE);
}

static void
call_finish(struct wallctx *w, const char *prefix, void *state,
	    const struct wall_end *e, struct denials *d)
{
	struct ns_finish fin;
	int rc;

	memset(&fin, 0, sizeof(fin));
	fin.struct_size = sizeof(fin);
	fin.proc = e->proc;
	fin.start_ns = e->start_ns;
	fin.end_ns = e->end_ns;
	fin.exit = e->exit;
	fin.killed = e->killed;
	w->hs.denials = d;
	rc = w->mod.wall.finish(&w->hs.host, state, &fin);
	w->hs.denials = NULL;
	wall_print_notes(w, prefix);
	for (size_t i = 0; i < w->r.n; i++)
		out_note(prefix, w->r.v[i].text);
	refusals_free(&w->r);
	if (rc != NS_OK) {
		char *t = str_fmt("the wall's finish() failed (status %d); the "
				  "exit code is the command's", rc);

		out_note(prefix, t ? t : "the wall's finish() failed");
		free(t);
	}
}


void
wall_finish(struct wallctx *w, const char *prefix,
	    const struct ns_policy *view, void *state,
	    const struct wall_end *e)
{
	struct denials d = {0};
	struct end_facts f;
	char text[512];

	if (w->mod.wall.finish != NULL)
		call_finish(w, prefix, state, e, &d);
	explain_denials(prefix, view, &d);
	denials_free(&d);
	if (e->verb_says_end)
		return;
	memset(&f, 0, sizeof(f));
	f.code = e->code;
	f.killed = e->killed;
	f.explain = (view->flags & NS_POLICY_EXPLAIN) != 0;
	f.names = wall_has_feature(w, NS_WALL_EXPLAIN);
	if (explain_end_note(&f, text, sizeof(text)))
		out_note(prefix, text);
}


int
wall_wait_tick(struct wallctx *w, void *state, const struct ns_proc *proc,
	       int64_t tick_ms, struct ns_exit *out)
{
	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	out->how = NS_END_RUNNING;
	if (w->mod.wall.wait(&w->hs.host, state, proc, tick_ms, out) != NS_OK)
		return -1;
	return out->how != NS_END_RUNNING;
}

int
wall_wait_end(struct wallctx *w, void *state, const struct ns_proc *proc,
	      int64_t tick_ms, struct ns_exit *out)
{
	int rc;

	while ((rc = wall_wait_tick(w, state, proc, tick_ms, out)) == 0)
		;
	return rc < 0 ? -1 : 0;
}

int
wall_end_tree(struct wallctx *w, void *state, const struct ns_proc *proc,
	      uint32_t why)
{
	if (w->mod.wall.terminate == NULL)
		return -1;
	return w->mod.wall.terminate(&w->hs.host, state, proc, why) == NS_OK ?
		       0 : -1;
}

/* ---- the OK line ------------------------------------------------------- */

struct ok_ctx {
	const struct wallctx *w;
	const struct policy *pol;
	const struct wall_ok *ok;
};

static int
ok_name(struct sbuf *b, const struct ok_ctx *c)
{
	return out_kv(b, "name", c->ok->name);
}

static int
ok_place(struct sbuf *b, const struct ok_ctx *c)
{
	return sbuf_addf(b, " place=%s", c->ok->place);
}

static int
ok_backend(struct sbuf *b, const struct ok_ctx *c)
{
	return out_kv(b, "backend", c->w->mod.ops.name);
}

static int
ok_abi(struct sbuf *b, const struct ok_ctx *c)
{
	return out_kv(b, "abi", c->w->facts.abi);
}

static int
ok_used(struct sbuf *b, const struct ok_ctx *c)
{
	if (c->w->facts.used[0] == '\0')
		return 0;
	return sbuf_addf(b, " used=%s", c->w->facts.used);
}

static int
ok_counts(struct sbuf *b, const struct ok_ctx *c)
{
	if (sbuf_addf(b, " read=%zu", c->pol->reads.n) < 0 ||
	    (c->ok->verb == WALL_OK_WRAP &&
	     sbuf_addf(b, " read-noexec=%zu", c->pol->reads_noexec.n) < 0))
		return -1;
	if (c->pol->net.n > 0) /* rule 7: --net-allow's entries (and run's
				  --egress table beside them) */
		return sbuf_addf(b, " write=%zu net=allow:%zu%s%s",
				 c->pol->writes.n, c->pol->net.n,
				 c->w->net ? "+" : "",
				 c->w->net ? c->w->net : "");
	return sbuf_addf(b, " write=%zu net=%s", c->pol->writes.n,
			 c->w->net ? c->w->net :
			 wall_net_word(c->pol->net_deny));
}

static int
ok_cwd(struct sbuf *b, const struct ok_ctx *c)
{
	char *b64 = out_b64url(c->pol->cwd);
	int rc = b64 == NULL || out_kv(b, "cwd", c->pol->cwd) < 0 ? -1 :
		 sbuf_addf(b, " cwdb64=%s ancestors=%zu", b64,
			   c->pol->ancestors);

	free(b64);
	return rc;
}

static int
ok_cmd(struct sbuf *b, const struct ok_ctx *c)
{
	char *cmd = wall_cmd_field(c->pol);
	int rc = cmd == NULL ? -1 : sbuf_addf(b, " cmd=%s", cmd);

	free(cmd);
	return rc;
}

/* run takes no --gpu: its line says none */
static int
ok_gpu(struct sbuf *b, const struct ok_ctx *c)
{
	const char *gpu = c->ok->verb == WALL_OK_WRAP ? c->pol->gpu : NULL;

	return sbuf_addf(b, " gpu=%s", gpu ? gpu : "none");
}

static int
ok_env_dropped(struct sbuf *b, const struct ok_ctx *c)
{
	return sbuf_addf(b, " env-dropped=%zu", policy_env_dropped(c->pol));
}

static int
ok_env(struct sbuf *b, const struct ok_ctx *c)
{
	return sbuf_addf(b, " env=%s", c->ok->env);
}

static int
ok_ttys(struct sbuf *b, const struct ok_ctx *c)
{
	return ttys_field(b, &c->pol->ttys);
}

/* protected=: rule 5a's paths, or "-" */
static int
ok_protected(struct sbuf *b, const struct ok_ctx *c)
{
	return protect_field(b, &c->pol->prot);
}

/* One entry of deletes=: field-escaped, a comma as \x2c (the list's
 * separator). */
static int
add_delete(struct sbuf *b, const char *path)
{
	char *f = out_field(path);

	if (f == NULL)
		return -1;
	for (const char *p = f; *p; p++)
		if ((*p == ',' ? sbuf_add(b, "\\x2c") : sbuf_addn(b, p, 1)) < 0)
			return free(f), -1;
	free(f);
	return 0;
}

/* deletes=: run's place root (as a field), then every write the command
 * may change ("-" when there is none) */
static int
ok_deletes(struct sbuf *b, const struct ok_ctx *c)
{
	const struct strv *v = c->ok->keeps;
	int first = 1;

	if (sbuf_add(b, " deletes=") < 0)
		return -1;
	if (c->ok->root != NULL) {
		char *root = out_field(c->ok->root);
		int rc = root == NULL ? -1 : sbuf_add(b, root);

		free(root);
		if (rc < 0)
			return -1;
		first = 0;
	}
	if (first && (v == NULL || v->n == 0))
		return sbuf_add(b, "-");
	for (size_t i = 0; v != NULL && i < v->n; i++) {
		if ((!first && sbuf_add(b, ",") < 0) ||
		    add_delete(b, v->v[i]) < 0)
			return -1;
		first = 0;
	}
	return 0;
}

/* The OK line's fields in their order, and which verbs say each. */
static const struct {
	unsigned verbs;
	int (*add)(struct sbuf *b, const struct ok_ctx *c);
} ok_fields[] = {
	{ WALL_OK_RUN, ok_name },
	{ WALL_OK_RUN, ok_place },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_backend },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_abi },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_used },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_counts },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_cwd },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_cmd },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_gpu },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_env_dropped },
	{ WALL_OK_RUN, ok_env },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_ttys },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_protected },
	{ WALL_OK_WRAP | WALL_OK_RUN, ok_deletes },
};

int
wall_ok_line(const struct wallctx *w, const struct policy *pol,
	     const struct wall_ok *ok)
{
	struct ok_ctx c = { w, pol, ok };
	struct sbuf b = {0};
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sizeof(ok_fields) /
					    sizeof(ok_fields[0]); i++)
		if (ok_fields[i].verbs & ok->verb)
			rc = ok_fields[i].add(&b, &c);
	if (rc == 0 && !sbuf_failed(&b))
		rc = out_kind(stderr, "SANDBOX", OUT_OK, "%s", b.s);
	else
		rc = -1;
	sbuf_free(&b);
	return rc;
}

char *
wall_cmd_field(const struct policy *pol)
{
	const char *s = strrchr(pol->command, '/');

	return out_field(s ? s + 1 : pol->command);
}

/* ---- the NOTEs before it ----------------------------------------------- */

static void
sandbox_note(const char *text)
{
	out_note("SANDBOX", text);
}

void
wall_policy_notes(struct wallctx *w, const struct policy *pol,
		  int env_start, size_t ndeny, int explain)
{
	struct sbuf names = {0}, t = {0};

	for (size_t i = 0; i < pol->dropped.n; i++)
		sbuf_addf(&names, "%s%s", i ? " " : "", pol->dropped.v[i]);
	if (pol->dropped.n) {
		sbuf_addf(&t, "dropped from the child's environment: %s; "
			  POLICY_DROPPED_WHY, names.s);
		sandbox_note(t.s ? t.s : "");
	}
	sbuf_free(&t);
	sbuf_free(&names);
	(void)envpol_notes(&pol->envrep, env_start, ndeny, sandbox_note);
	for (size_t i = 0; i < pol->notes.n; i++)
		sandbox_note(pol->notes.v[i]); /* caller paths through links */
	wall_protect_note(pol, explain, sandbox_note); /* rule 5a */
	if (w->facts.used[0] != '\0' && w->facts.clamp[0] != '\0')
		sandbox_note(w->facts.clamp);
	wall_print_notes(w, "SANDBOX");
}

/* ---- stop signals passed on -------------------------------------------- */

static volatile sig_atomic_t g_how;       /* enum wall_fwd_how */
static volatile sig_atomic_t g_child;     /* the command, once spawned */
static volatile sig_atomic_t g_ends;      /* the wall ends its tree */
static volatile sig_atomic_t g_pending;   /* a signal for terminate() */
static volatile sig_atomic_t g_forwarded; /* a signal went to the command */

static void
on_stop(int sig)
{
	int saved = errno;

	if (g_child > 0 && g_ends)
		g_pending = sig; /* the wait loop asks the wall */
	else if (g_how == WALL_FWD_ALL)
		reaper_kill(-1, sig); /* every process of the run */
	else if (g_child > 0 && g_how == WALL_FWD_HOLD)
		reaper_signal((int64_t)g_child, sig);
	else if (g_child > 0)
		reaper_kill((int64_t)g_child, sig);
	else if (g_how == WALL_FWD_HOLD)
		g_pending = sig; /* sent once the command runs */
	if (g_child > 0)
		g_forwarded = 1;
	errno = saved;
}

void
wall_fwd_install(enum wall_fwd_how how)
{
	g_how = (sig_atomic_t)how;
	os_catch_stop_signals(on_stop);
}

void
wall_fwd_spawned(const struct wallctx *w, int64_t pid)
{
	g_ends = wall_can_end(w);
	g_child = (sig_atomic_t)pid;
	if (g_how == WALL_FWD_HOLD && g_pending && !g_ends) {
		reaper_signal(pid, g_pending);
		g_pending = 0;
		g_forwarded = 1;
	}
}

int
wall_fwd_take(void)
{
	int sig = g_pending;

	g_pending = 0;
	return sig;
}

int
wall_fwd_forwarded(void)
{
	return g_forwarded;
}
