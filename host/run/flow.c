/* SPDX-License-Identifier: MIT */
/* flow.c -- the steps of `run`: load the wall and the place, resolve
 * the reads, look, create, the keeper and the init, then the supervisor's
 * run, kill, handoff and delete (see verb_run.c for the picture). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/out.h"
#include "base/tool.h"
#include "os/os.h"
#include "policy/toolchain.h"
#include "policy/ttys.h"
#include "wall/explain.h"
#include "wall/session.h"
#include "run/caps.h"
#include "run/flow.h"

struct runctx {
	struct wallctx w;
	struct module pm;
	int pm_loaded;
	struct hostsvc phs;
	struct refusals pr;   /* the place module's refusals */
	struct sbuf ptext;
	struct ns_place place;
	int created;
	int create_said;      /* the create step's state=done is printed */
	struct caps_watch watch; /* the place's root, when a memory fs */
	struct strv reads;    /* resolved --read */
	struct strv writes;   /* resolved --write (outside the place) */
	int out_fd;           /* --out, opened before the command (-1) */
	char *out;            /* ... its resolved name, for messages */
	struct strv homes;    /* the caller's homes (home guard) */
	const struct hostrun *hr;
	struct run_args *a;
	char **args;
	uint64_t t0;
};

/* ---- loading -------------------------------------------------------- */

static int
load_place(struct runctx *c, struct refusals *r)
{
	int rc = loader_select_place(&c->w.cfg, &c->pm, r);

	c->pm_loaded = rc == 0 || rc == 2;
	return rc != 0;
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
	struct toolchain_ctx x = { getenv("PATH"), c->hr->env, NULL,
				   &c->writes, NULL };
	struct toolchain_found f = {0};
	struct tool go = { -1, NULL };
	int found = tool_find("go", x.path, &go);

	tool_free(&go);
	if (found != 0) {
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

static void
flag_notes(const struct run_args *a)
{
	if (a->container != NULL)
		run_note("--container names an APFS container; it is "
			 "accepted and ignored on linux");
	if (a->memory != NULL || a->cpu != NULL || a->place != NULL)
		run_note("--memory, --cpu and --place are windows flags; they "
			 "are accepted and ignored on linux");
}

/* --toolchain: each toolchain's roots become reads, said in a NOTE. */
static void
run_toolchains(struct runctx *c, struct refusals *r)
{
	struct cmdline line = cmdline_of("run", c->args);

	for (size_t i = 0; i < c->a->toolchains.n; i++) {
		struct toolchain_found f = {0};
		char *note;

		struct toolchain_ctx x = { getenv("PATH"), c->hr->env,
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

		if (c->a->writes.v[i][0] == '/' &&
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
static const char *
out_elsewhere(const struct runctx *c)
{
	static const char *const fixed[] = { "/var/tmp", "/tmp" };
	const char *home = getenv("HOME");

	for (size_t i = 0; i < 3; i++) {
		const char *d = i == 0 ? home : fixed[i - 1];
		int clash = d == NULL || d[0] != '/';
		struct stat sb;

		for (size_t k = 0; !clash && k < c->writes.n; k++)
			clash = policy_inside(d, c->writes.v[k]) ||
				policy_inside(c->writes.v[k], d);
		if (!clash && stat(d, &sb) == 0 && S_ISDIR(sb.st_mode))
			return d;
	}
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

/* --out: resolved by rule 5 and opened now, before the command starts;
 * the hand-off goes by this descriptor only.  One inside, or an ancestor
 * of, a --write is refused: the command could replace it. */
static void
run_out(struct runctx *c, struct refusals *r)
{
	struct strv notes = {0};
	char *res = NULL;

	c->out_fd = -1;
	if (c->a->out == NULL || c->a->out[0] != '/')
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
	c->out_fd = open(res, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->out_fd < 0)
		refusals_addr(r, REASON_BAD_OUT, NULL, "--out %s cannot be "
			      "opened: %s", res, strerror(errno));
	c->out = res;
}

/* Everything that can refuse before anything is made. */
static int
preflight(struct runctx *c, struct refusals *r)
{
	int rc;

	wall_line(&c->w, "run", c->args);
	c->phs.line = &c->w.line;
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
	run_toolchains(c, r);
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

static void
hidden_check(struct runctx *c, struct refusals *r)
{
	const char *hid = c->place.hidden, *cmd = c->a->argv.v[0];
	char real[PATH_MAX];

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
	if (strchr(cmd, '/') != NULL && realpath(cmd, real) != NULL &&
	    policy_inside(real, hid))
		refusals_add(r, REASON_BAD_READ, "the command %s is under %s, "
			     "which the place (%s) is mounted over: it would "
			     "not be there inside; install it outside %s", real,
			     hid, c->pm.ops.name, hid);
}

/* ---- the init (the host's first process in the place's PID namespace) -- */

static volatile sig_atomic_t g_cmd;
static volatile sig_atomic_t g_own_ns; /* the init is in the place's PID ns */
static volatile sig_atomic_t g_relayed; /* a signal went to the command */
static volatile sig_atomic_t g_wall_ends; /* the wall has terminate() */
static volatile sig_atomic_t g_pending;   /* a signal for terminate() */

static void
relay(int sig)
{
	int saved = errno;

	if (g_wall_ends && g_cmd > 0)
		g_pending = sig; /* the wait loop asks the wall */
	else if (g_own_ns)
		kill(-1, sig); /* every process of the run (not pid 1, not us) */
	else if (g_cmd > 0)
		kill((pid_t)g_cmd, sig);
	g_relayed = g_cmd > 0;
	errno = saved;
}

static void
relay_install(void)
{
	sigset_t none;

	os_catch_stop_signals(relay);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A wall that waits itself (ABI 1.2): its wait() one second at a time
 * until the command ended; a signal the supervisor relayed (the caller's,
 * or the --timeout's SIGTERM) ends the tree through the wall's terminate()
 * when it has one (else by kill, as the relay does).  The supervisor keeps
 * the timeout and the caps, and ends the run's tree.  The exit code as
 * wait_exit_code() would give it. */
static int
init_wall_wait(struct runctx *c, void *state, struct wall_end *end)
{
	int rc;

	while ((rc = wall_wait_tick(&c->w, state, &end->proc, 1000,
				    &end->exit)) == 0) {
		int sig = g_pending;

		if (sig == 0)
			continue;
		g_pending = 0;
		if (wall_end_tree(&c->w, state, &end->proc, NS_TERM_SIGNAL) != 0)
			kill(g_own_ns ? -1 : (pid_t)end->proc.pid, sig);
	}
	if (rc < 0)
		return NS_EXIT_REFUSED;
	return explain_exit_code(&end->exit);
}

/* The command ended: reap what of its tree already ended (what still runs
 * is ended by the supervisor's kill, after this), then finish() and the
 * denials, printed before the supervisor's DONE. */
static void
init_finish(struct runctx *c, const struct ns_policy *view, void *state,
	    struct wall_end *end, int code)
{
	int st;

	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	end->end_ns = explain_now_ns();
	end->code = code;
	/* a signal the supervisor relayed (the caller's, or its --timeout's
	 * SIGTERM: the init cannot tell them apart) */
	end->killed = g_relayed ? NS_TERM_SIGNAL : 0;
	if (end->exit.struct_size == 0) {
		end->exit.struct_size = sizeof(end->exit);
		end->exit.how = NS_END_CODE;
		end->exit.code = code;
	}
	wall_finish(&c->w, "SANDBOX", view, state, end);
}

static void __attribute__((noreturn))
init_main(struct runctx *c, struct ns_policy *view, void *state,
	  pid_t keeper)
{
	struct ns_launch launch = { sizeof(launch), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc proc = { sizeof(proc), 0, 0 };
	struct wall_end end;
	int st, code = NS_EXIT_REFUSED;
	pid_t p;

	memset(&end, 0, sizeof(end));

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != keeper)
		_exit(NS_EXIT_REFUSED);
	/* a parent outside our PID namespace reads as 0: the place made one
	 * (its pid 1 may be the place's own, e.g. nsplace's /proc anchor) */
	g_own_ns = keeper == 0;
	/* a subreaper: an orphan of the command's tree comes back to the init
	 * (not to the namespace's pid 1, the place's anchor), so the tree the
	 * supervisor counts from the init holds every process of the command */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	relay_install();
	end.start_ns = explain_now_ns();
	if (c->w.mod.wall.spawn(&c->w.hs.host, state, view, &launch, &proc) !=
	    NS_OK || proc.pid <= 0) {
		refusals_add(&c->w.r, REASON_SANDBOX_FAILED, "the command could "
			     "not be started inside the wall");
		run_refuse(&c->w.r, NS_EXIT_REFUSED);
		_exit(NS_EXIT_REFUSED);
	}
	g_wall_ends = c->w.mod.wall.terminate != NULL &&
		      c->w.mod.wall.wait != NULL;
	g_cmd = (sig_atomic_t)proc.pid;
	end.proc = proc;
	if (c->w.mod.wall.wait != NULL)
		code = init_wall_wait(c, state, &end);
	else {
		for (;;) {
			p = waitpid(-1, &st, 0);
			if (p < 0 && errno == EINTR)
				continue;
			if (p < 0)
				break;
			if (p == (pid_t)proc.pid) {
				code = wait_exit_code(st);
				explain_exit_of_status(st, &end.exit);
				break;
			}
		}
	}
	init_finish(c, view, state, &end, code);
	_exit(code);
}

/* ---- the keeper ------------------------------------------------------- */

static int
child_env(struct runctx *c, const char *home, struct strv *env)
{
	char **e = c->hr->env;

	for (size_t i = 0; e != NULL && e[i] != NULL; i++)
		if (strncmp(e[i], "HOME=", 5) != 0 && strv_push(env, e[i]) < 0)
			return -1;
	return strv_pushf(env, "HOME=%s", home);
}

static int
keeper_policy(struct runctx *c, struct policy *pol, struct refusals *r)
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
	in.env_clear = c->a->env_clear;
	in.net_deny = c->a->net_deny;
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
	in.path = getenv("PATH");
	in.env = env.v;
	in.roots = &c->w.roots;
	in.stdio_ttys = 1; /* init and the command inherit the tool's 0-2 */
	in.verb = "run";
	in.remedy_args = c->args;
	rc = policy_build(&in, pol, r);
	if (rc == 0)
		rc = ownfiles_check(c->hr, &c->w.cfg, pol, &line, r);
	policy_input_free(&in);
	strv_free(&env);
	return rc;
}

static const char *
base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* deletes= goes on with each --write outside the place (field-escaped,
 * a comma as \x2c: the list's separator). */
static int
add_cache_deletes(struct sbuf *b, const struct strv *writes)
{
	for (size_t i = 0; i < writes->n; i++) {
		char *f = out_field(writes->v[i]);

		if (f == NULL || sbuf_add(b, ",") < 0)
			return free(f), -1;
		for (const char *p = f; *p; p++)
			if ((*p == ',' ? sbuf_add(b, "\\x2c") :
			     sbuf_addn(b, p, 1)) < 0)
				return free(f), -1;
		free(f);
	}
	return 0;
}

static void
ok_line(struct runctx *c, const struct policy *pol)
{
	struct sbuf b = {0};
	char *n = out_field(c->a->name), *cwd = out_field(pol->cwd);
	char *b64 = out_b64url(pol->cwd), *cmd = out_field(base_name(pol->command));
	char *root = out_field(c->place.root), *abi = out_field(c->w.facts.abi);

	if (n && cwd && b64 && cmd && root && abi &&
	    sbuf_addf(&b, "SANDBOX OK name=%s place=%s backend=%s abi=%s", n,
		      c->pm.ops.name, c->w.mod.ops.name, abi) == 0 &&
	    (c->w.facts.used[0] == '\0' ||
	     sbuf_addf(&b, " used=%s", c->w.facts.used) == 0) &&
	    sbuf_addf(&b, " read=%zu write=%zu net=%s cwd=%s cwdb64=%s "
		      "ancestors=%zu cmd=%s gpu=none env-dropped=%zu",
		      pol->reads.n, pol->writes.n, wall_net_word(pol->net_deny),
		      cwd, b64, pol->ancestors, cmd,
		      policy_env_dropped(pol)) == 0 &&
	    ttys_field(&b, &pol->ttys) == 0 &&
	    sbuf_addf(&b, " deletes=%s", root) == 0 &&
	    add_cache_deletes(&b, &c->writes) == 0)
		out_line(stderr, "%s", b.s);
	sbuf_free(&b);
	free(n);
	free(cwd);
	free(b64);
	free(cmd);
	free(root);
	free(abi);
}

static void
keeper_notes(struct runctx *c, const struct policy *pol)
{
	struct sbuf names = {0};

	for (size_t i = 0; i < pol->dropped.n; i++)
		sbuf_addf(&names, "%s%s", i ? " " : "", pol->dropped.v[i]);
	if (pol->dropped.n) {
		struct sbuf t = {0};

		sbuf_addf(&t, "dropped from the child's environment: %s; "
			  POLICY_DROPPED_WHY, names.s);
		run_note(t.s ? t.s : "");
		sbuf_free(&t);
	}
	sbuf_free(&names);
	(void)envpol_notes(&pol->envrep, c->a->env_clear, c->a->env_deny.n,
			   run_note);
	for (size_t i = 0; i < pol->notes.n; i++)
		run_note(pol->notes.v[i]); /* caller paths through links */
	if (c->w.facts.used[0] != '\0' && c->w.facts.clamp[0] != '\0')
		run_note(c->w.facts.clamp);
	wall_print_notes(&c->w, "SANDBOX");
}

static void __attribute__((noreturn))
keeper_fail(int sock, struct refusals *r, int code)
{
	if (r->n == 0)
		refusals_add(r, REASON_SANDBOX_FAILED, "the place could not be "
			     "entered");
	run_refuse(r, NS_EXIT_REFUSED);
	kmsg_send(sock, 'F', code, -1);
	_exit(code);
}

static int
keeper_enter(struct runctx *c, int sock, pid_t sup)
{
	if (c->pm.place.enter != NULL &&
	    c->pm.place.enter(&c->phs.host, &c->place) != NS_OK)
		keeper_fail(sock, &c->pr, NS_EXIT_REFUSED);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != sup)
		_exit(NS_EXIT_REFUSED);
	if (c->place.root_fd < 0)
		c->place.root_fd = open(c->place.root, O_PATH | O_DIRECTORY |
					O_NOFOLLOW | O_CLOEXEC);
	if (c->place.root_fd < 0) {
		refusals_add(&c->pr, REASON_VOLUME_FAILED, "cannot open the place "
			     "%s: %s", c->place.root, strerror(errno));
		keeper_fail(sock, &c->pr, NS_EXIT_REFUSED);
	}
	return kmsg_send(sock, 'R', 0, c->place.root_fd);
}

static void __attribute__((noreturn))
keeper_main(struct runctx *c, int sock, pid_t sup)
{
	struct policy pol;
	struct ns_policy view;
	struct refusals r = {0};
	struct kmsg m;
	void *state = NULL;
	int fd, rc, st;
	pid_t init;

	memset(&pol, 0, sizeof(pol));
	if (keeper_enter(c, sock, sup) != 0)
		_exit(NS_EXIT_REFUSED);
	rc = keeper_policy(c, &pol, &r);
	if (rc != 0) {
		if (rc < 0)
			refusals_oom(&r);
		keeper_fail(sock, &r, refusals_all(&r, REASON_NOT_FOUND) ?
			    NS_EXIT_NOT_FOUND : NS_EXIT_REFUSED);
	}
	policy_view(&pol, &view);
	wall_view_extras(&view, c->a->explain, c->a->max_procs, c->a->max_mem,
			 (long long)c->a->timeout_ms);
	if (c->w.mod.wall.prepare(&c->w.hs.host, &view, &state) != NS_OK)
		keeper_fail(sock, &c->w.r, NS_EXIT_REFUSED);
	policy_close_fds(&pol); /* the ruleset is built: only the cwd's stays */
	if (kmsg_send(sock, 'P', 0, -1) != 0 || kmsg_recv(sock, &m, &fd) != 0 ||
	    m.type != 'G')
		_exit(NS_EXIT_REFUSED);
	keeper_notes(c, &pol);
	ok_line(c, &pol);
	init = fork();
	if (init == 0) {
		close(sock);
		init_main(c, &view, state, getppid());
	}
	kmsg_send(sock, 'I', init, -1);
	close(sock);
	if (init < 0)
		_exit(NS_EXIT_REFUSED);
	while (waitpid(init, &st, 0) < 0)
		if (errno != EINTR)
			_exit(NS_EXIT_REFUSED);
	/* the module rules: release() once the run's init has ended, in the
	 * process that called prepare() */
	if (c->w.mod.wall.release != NULL)
		c->w.mod.wall.release(&c->w.hs.host, state);
	_exit(wait_exit_code(st));
}

/* ---- the supervisor ------------------------------------------------------ */

/* Wait for one message of the keeper: its type, or 0 when the keeper is
 * gone (EOF) or a caught signal interrupted. */
static char
await(int sock, struct kmsg *m, int *fd)
{
	for (;;) {
		if (kmsg_recv(sock, m, fd) == 0)
			return m->type;
		if (errno != EINTR || run_caught())
			return 0;
	}
}

static void
leak_line(struct runctx *c, const struct sv *s, size_t left)
{
	struct sbuf rem = {0};

	if (c->place.remedy[0] != '\0' && left == 0)
		sbuf_add(&rem, c->place.remedy);
	else
		sbuf_addf(&rem, "kill -KILL %ld", (long)(s->init > 0 ? s->init :
							 s->keeper));
	run_leak_line(c->a->name, c->place.id, rem.s ? rem.s : "");
	run_note("the place could not be removed: run the remedy, then "
		 "nova-sandbox reap");
	sbuf_free(&rem);
}

/* <root>/work, checked: a directory on the root's device. */
static int
open_work(int root_fd)
{
	struct stat rs, ws;
	int fd = openat(root_fd, "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(root_fd, &rs) != 0 || fstat(fd, &ws) != 0 ||
	    rs.st_dev != ws.st_dev || !S_ISDIR(ws.st_mode)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

static int
handoff(struct runctx *c, int code)
{
	struct handoff_stats st;
	uint64_t t = run_now_ms();
	char *why = NULL, *n;
	int work = open_work(c->place.root_fd), rc = -1;

	run_step("out", 0);
	if (work < 0) {
		struct sbuf b = {0};

		sbuf_addf(&b, "the place's work/ cannot be opened as a "
			  "directory on the place: %s", strerror(errno));
		why = sbuf_take(&b);
	} else {
		struct handoff_caps caps = { c->a->out_max,
			c->a->out_max_files, c->a->out_max_depth };

		rc = handoff_copy(work, c->out_fd, c->out ? c->out : c->a->out,
				  c->a->name,
				  &c->a->artifacts, &caps, &st, &why);
		close(work);
	}
	if (rc != 0) {
		struct refusals r = {0};

		run_step("out", t);
		refusals_addr(&r, REASON_OUT_FAILED, REMEDY_IN_TEXT,
			      "%s; run: nova-sandbox help run",
			      why ? why : "the handoff failed");
		run_refuse(&r, NS_EXIT_REFUSED);
		free(why);
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
	out_line(stderr, "SANDBOX OUT name=%s files=%zu bytes=%llu", n ? n : "-",
		 st.files, (unsigned long long)st.bytes);
	free(n);
	return code;
}

static void
done_line(const struct runctx *c, int code, uint64_t freed)
{
	uint64_t ms = run_now_ms() - c->t0;
	char *n = out_field(c->a->name);

	out_line(stderr, "SANDBOX DONE name=%s exit=%d wall=%llu.%03llu "
		 "freed=%llu", n ? n : "-", code, (unsigned long long)(ms / 1000),
		 (unsigned long long)(ms % 1000), (unsigned long long)freed);
	free(n);
}

/* The create step's state=done, once: when the keeper has entered the
 * place, or at the latest when the run ends (a refusal after create). */
static void
create_done(struct runctx *c)
{
	if (c->create_said)
		return;
	c->create_said = 1;
	run_step("create", c->t0);
}

/* Kill, handoff, measure, delete, DONE (and LEAK). */
static int
finish(struct runctx *c, struct sv *s, int code, int ran)
{
	uint64_t t = run_now_ms(), freed = 0;
	size_t left = 0;
	int killed, gone;

	if (c->created)
		create_done(c);
	run_step("kill", 0);
	killed = run_kill_all(&left) == 0;
	run_step("kill", t);
	if (ran && code != 0 && code < NS_EXIT_TIMEOUT &&
	    !wall_has_feature(&c->w, NS_WALL_EXPLAIN))
		run_note("the command exited non-zero; the linux wall does not "
			 "report its denials: a path it needs may be missing a "
			 "--read");
	if (ran && c->a->out != NULL && c->place.root_fd >= 0 && killed)
		code = handoff(c, code);
	if (c->place.root_fd >= 0 &&
	    c->pm.place.used(&c->phs.host, &c->place, &freed) != NS_OK)
		freed = 0;
	refusals_free(&c->pr);
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
	done_line(c, code, gone ? freed : 0);
	if (gone)
		return code;
	leak_line(c, s, left);
	return NS_EXIT_LEAK;
}

static int
supervise_run(struct runctx *c, struct sv *s, int sock)
{
	struct kmsg m;
	uint64_t t = run_now_ms();
	int fd, code;
	char ty;

	/* the machine's shared memory before the command: the fallback of a
	 * count that cannot read a member's descriptors (caps.h) */
	(void)caps_watch_shmem(&c->watch);
	s->watch = &c->watch;
	s->caps_native = wall_has_feature(&c->w, NS_WALL_CAPS_NATIVE);
	ty = await(sock, &m, &fd);
	if (ty == 'R') {
		c->place.root_fd = fd;
		/* the place's tmpfs: its growth is memory of the run */
		(void)caps_watch_fd(&c->watch, fd);
		create_done(c);
		ty = await(sock, &m, &fd);
	}
	if (ty != 'P')
		return finish(c, s, ty == 'F' ? (int)m.val :
			      run_caught() ? NS_EXIT_SIGNAL + run_caught() : NS_EXIT_REFUSED, 0);
	t = run_now_ms();
	run_step("run", 0);
	if (kmsg_send(sock, 'G', 0, -1) != 0)
		return finish(c, s, NS_EXIT_REFUSED, 0);
	ty = await(sock, &m, &fd);
	if (ty == 'I' && m.val > 0) {
		s->init = (pid_t)m.val;
		run_set_target(s->init);
	}
	code = run_supervise(s, c->a);
	run_step("run", t);
	return finish(c, s, code, 1);
}

static int
start_keeper(struct runctx *c)
{
	struct sv s = SV_INIT;
	struct caps_limits caps = { c->a->max_procs, c->a->max_mem, NULL };
	int sv[2], code;
	pid_t sup = getpid();

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	(void)caps_limit_nproc(&caps); /* inherited by the keeper and the run */
	s.keeper = fork();
	if (s.keeper == 0) {
		close(sv[0]);
		keeper_main(c, sv[1], sup);
	}
	close(sv[1]);
	if (s.keeper < 0) {
		close(sv[0]);
		return -1;
	}
	run_signals_install();
	code = supervise_run(c, &s, sv[0]);
	close(sv[0]);
	return code;
}

static int
look_and_create(struct runctx *c)
{
	struct ns_place_req req = { sizeof(req), c->a->name, c->a->size };
	int exists = 0;
	uint64_t t = run_now_ms();

	run_step("look", 0);
	if (c->pm.place.look(&c->phs.host, c->a->name, &exists) != NS_OK)
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	run_step("look", t);
	if (exists) {
		remedy_refuse(&c->pr, REASON_VOLUME_EXISTS, NULL, c->phs.line,
			      &(struct cmdfix){ "--name", NULL, "<name>", NULL,
						0 }, "a place named %s already "
			      "exists; nothing was made; pick another --name",
			      c->a->name);
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	}
	c->t0 = run_now_ms();
	run_step("create", 0);
	c->place.struct_size = sizeof(c->place);
	c->place.root_fd = -1;
	if (c->pm.place.create(&c->phs.host, &req, &c->place) != NS_OK)
		return run_refuse(&c->pr, NS_EXIT_REFUSED);
	c->created = 1;
	return 0;
}

/* The place exists: from here every path ends in finish(). */
static int
run_created(struct runctx *c, struct refusals *r)
{
	struct sv s = SV_INIT;
	int code;

	hidden_check(c, r);
	if (r->n) {
		create_done(c);
		run_refuse(r, NS_EXIT_REFUSED);
		return finish(c, &s, NS_EXIT_REFUSED, 0);
	}
	code = start_keeper(c);
	return code >= 0 ? code : finish(c, &s, NS_EXIT_REFUSED, 0);
}

static void
ctx_free(struct runctx *c)
{
	if (c->pm_loaded)
		module_free(&c->pm);
	wall_close(&c->w);
	refusals_free(&c->pr);
	sbuf_free(&c->ptext);
	strv_free(&c->reads);
	strv_free(&c->writes);
	if (c->out_fd >= 0)
		close(c->out_fd);
	free(c->out);
	strv_free(&c->homes);
	caps_watch_free(&c->watch);
}

int
run_flow(const struct hostrun *hr, struct run_args *a, char **args)
{
	struct runctx c;
	struct refusals r = {0};
	int code;

	memset(&c, 0, sizeof(c));
	c.out_fd = -1;
	c.hr = hr;
	c.a = a;
	c.args = args;
	c.t0 = run_now_ms();
	if (preflight(&c, &r) != 0) {
		run_refuse(&r, NS_EXIT_REFUSED);
		out_line(stderr, "%s", RUN_REMEDY);
		ctx_free(&c);
		return NS_EXIT_REFUSED;
	}
	code = look_and_create(&c);
	if (code == 0)
		code = run_created(&c, &r);
	ctx_free(&c);
	return code;
}
