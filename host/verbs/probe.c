/* SPDX-License-Identifier: MIT */
/* probe.c -- `nova-sandbox probe` (reference section 5): prove the
 * wall holds here.  The unwalled control runs first (the Landlock wall
 * confines this process at the first walled step), then every walled step
 * runs as a probe-step child with the fd-3 nonce pipe. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/explain.h"
#include "wall/lifecycle.h"
#include "wall/session.h"
#include "verbs/verbs.h"

#define PROBE_REMEDY "nova-sandbox help probe"
#define NONCE_ENV "NOVA_SANDBOX_PROBE_NONCE"

struct probe {
	struct wallctx w;
	struct args a;
	struct policy_input in;
	struct policy pol;
	struct refusals r;
	struct ns_policy view;
	void *state;
	char *secret;  /* resolved --secret */
	char *outside; /* <parent of first write>/.nova-sandbox-probe-<pid> */
	char *inside;
	int json, explain;
	size_t steps, passed;
	struct sbuf items; /* JSON items */
	struct strv why;   /* JSON refusals */
	struct cmdline line; /* the caller's, for fd_limit's remedy */
};

/* ---- output ------------------------------------------------------- */

static void
say_refusals(struct probe *p, struct refusals *r)
{
	if (os_fd_exhausted() && r->line.args == NULL && p->line.verb != NULL)
		remedy_keep(r, &p->line);
	wall_fd_cause(r); /* out of descriptors: the one cause */
	if (!p->json) {
		out_refusals(stderr, "PROBE", r, PROBE_REMEDY, 1);
		return;
	}
	if (refusals_failed(r)) {
		strv_push(&p->why, REFUSED_OOM_REASON ": " REFUSED_OOM_TEXT);
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		strv_pushf(&p->why, "%s: %s", r->v[i].reason, r->v[i].text);
}

/* remedy: as struct refusal's (NULL: the printer's). */
static void refuse1(struct probe *p, const char *tok, const char *remedy,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
refuse1(struct probe *p, const char *tok, const char *remedy,
	const char *fmt, ...)
{
	struct refusals r = {0};
	va_list ap;

	va_start(ap, fmt);
	if (refusals_vadd(&r, tok, fmt, ap) < 0)
		refusals_add(&r, REASON_SANDBOX_FAILED, "out of memory");
	else
		r.v[r.n - 1].remedy = remedy;
	va_end(ap);
	say_refusals(p, &r);
	refusals_free(&r);
}

static void
step_line(struct probe *p, const char *name, const char *exp,
	  const char *got, const char *path)
{
	char *f = out_field(path);

	if (p->json) {
		sbuf_addf(&p->items, "%s{\"kind\":\"step\",\"fields\":{"
			  "\"name\":\"%s\",\"expect\":\"%s\",\"got\":\"%s\","
			  "\"path\":", p->items.len ? "," : "", name, exp, got);
		out_json_str(&p->items, path);
		sbuf_add(&p->items, "}}");
	} else {
		out_kind(stdout, "PROBE", OUT_STEP,
			 "name=%s expect=%s got=%s path=%s",
			 name, exp, got, f ? f : "-");
	}
	free(f);
}

static void
json_end(struct probe *p, const char *status, int code)
{
	struct sbuf b = {0};

	sbuf_addf(&b, "{\"result\":{\"verb\":\"probe\",\"status\":\"%s\","
		  "\"exit\":%d", status, code);
	if (p->why.n) {
		sbuf_add(&b, ",\"remedy\":\"nova-sandbox probe -h\",\"why\":[");
		for (size_t i = 0; i < p->why.n; i++) {
			if (i)
				sbuf_add(&b, ",");
			out_json_str(&b, p->why.v[i]);
		}
		sbuf_add(&b, "]");
	}
	sbuf_addf(&b, "},\"items\":[%s]", p->items.s ? p->items.s : "");
	if (code != 2 && p->w.loaded) {
		sbuf_add(&b, ",\"facts\":{\"backend\":");
		out_json_str(&b, p->w.mod.ops.name);
		sbuf_add(&b, ",\"abi\":");
		out_json_str(&b, p->w.facts.abi);
		sbuf_addf(&b, ",\"steps\":%zu,\"passed\":%zu,\"net\":\"%s\","
			  "\"gpu\":", p->steps, p->passed,
			  wall_net_word(p->pol.net_deny));
		out_json_str(&b, p->pol.gpu ? p->pol.gpu : "none");
		sbuf_add(&b, "}");
	}
	sbuf_add(&b, "}");
	out_json(stdout, b.s);
	sbuf_free(&b);
}

/* ---- gathering ---------------------------------------------------- */

static int
bad_chars(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* --secret as a FILE: absolute, existing, not a directory, resolved. */
static void
resolve_secret(struct probe *p)
{
	const char *s = p->a.secret;
	struct stat st;
	char *real;

	if (s == NULL)
		return;
	if (*s == '\0' || bad_chars(s) || s[0] != '/') {
		refusals_add(&p->r, REASON_BAD_READ, "--secret %s must be an "
			     "absolute path to a file with no control "
			     "character", *s ? s : "\"\"");
		return;
	}
	real = realpath(s, NULL);
	if (real == NULL) {
		refusals_add(&p->r, REASON_BAD_READ, "--secret %s cannot be "
			     "resolved (%s)", s, strerror(errno));
		return;
	}
	if (stat(real, &st) != 0 || S_ISDIR(st.st_mode)) {
		refusals_add(&p->r, REASON_BAD_READ, "--secret %s is a directory, "
			     "not a file", s);
		free(real);
		return;
	}
	p->secret = real;
}

static const char *
inside_lists(const struct policy *pol, const char *path)
{
	const struct strv *l[] = { &pol->reads, &pol->reads_noexec,
		&pol->writes };

	for (size_t k = 0; k < 3; k++)
		for (size_t i = 0; i < l[k]->n; i++)
			if (policy_inside(path, l[k]->v[i]))
				return l[k]->v[i];
	return NULL;
}

static int
placement(struct probe *p)
{
	const char *w = p->pol.writes.v[0], *d;
	struct sbuf b = {0};
	size_t k = strrchr(w, '/') - w;

	if (p->secret && (d = inside_lists(&p->pol, p->secret)) != NULL)
		return refuse1(p, REASON_SECRET_INSIDE_ALLOW, NULL,
			       "--secret %s is "
			       "inside %s; the secret is never inside either "
			       "list: name a file outside every --read and "
			       "--write", p->a.secret, d), 1;
	sbuf_addf(&b, "%.*s/.nova-sandbox-probe-%ld", (int)k, w,
		  (long)getpid());
	p->outside = sbuf_take(&b);
	sbuf_addf(&b, "%s/.nova-sandbox-probe-inside", w);
	p->inside = sbuf_take(&b);
	if ((d = inside_lists(&p->pol, p->outside)) != NULL)
		return refuse1(p, REASON_PROBE_OUTSIDE_INSIDE, REMEDY_IN_TEXT,
			       "the outside path %s "
			       "is inside %s; run: nova-sandbox probe with a "
			       "first --write whose parent is outside every "
			       "--read and --write", p->outside, d), 1;
	return 0;
}

static int
gather(struct probe *p, const struct hostrun *hr, char **rargs)
{
	struct cmdline line = cmdline_of("probe", rargs);

	p->in.verb = "probe";
	p->in.remedy_args = rargs;
	if (wall_input(&p->w, hr, &p->a, &p->in) < 0 ||
	    strv_push(&p->in.argv, hr->exe) < 0 ||
	    strv_push(&p->in.argv, "probe-step") < 0)
		return refusals_add(&p->r, REASON_CHECK, "out of memory"), 1;
	p->in.saw_dashdash = 1;
	p->in.stdio_ttys = 0; /* a step's stdout and stderr are /dev/null */
	resolve_secret(p);
	/* rule 8: a refusal creates nothing, the secret's included */
	if (p->r.n)
		p->in.create_tmp = 0;
	if (policy_build(&p->in, &p->pol, &p->r) < 0 || (p->r.n == 0 &&
	    ownfiles_check(hr, &p->w.cfg, &p->pol, &line, &p->r) < 0))
		refusals_add(&p->r, REASON_CHECK, "out of memory");
	if (p->r.n) {
		say_refusals(p, &p->r);
		return 1;
	}
	return placement(p);
}

/* ---- steps -------------------------------------------------------- */

static int
control(struct probe *p)
{
	int fd = os_fd_made(open(p->outside, O_WRONLY | O_CREAT | O_TRUNC |
				 O_NOFOLLOW | O_CLOEXEC, 0600));
	int ok = fd >= 0 && write(fd, "nova", 4) == 4;

	if (fd >= 0) {
		close(fd);
		unlink(p->outside);
	}
	p->steps++;
	step_line(p, "write_outside_control", "allow", ok ? "allow" : "deny",
		  p->outside);
	if (!ok)
		return refuse1(p, REASON_PROBE_OUTSIDE_UNWRITABLE, REMEDY_IN_TEXT,
			       "cannot write %s "
			       "outside the wall, so a denial there would "
			       "prove nothing; run: nova-sandbox probe with a "
			       "--write whose parent is writable",
			       p->outside), 1;
	p->passed++;
	return 0;
}

static int
child_env(const struct probe *p, const char *hex, struct strv *env)
{
	size_t n = strlen(NONCE_ENV);

	for (size_t i = 0; i < p->pol.env.n; i++) {
		const char *e = p->pol.env.v[i];

		if (strncmp(e, NONCE_ENV, n) == 0 && e[n] == '=')
			continue;
		if (strv_push(env, e) < 0)
			return -1;
	}
	return strv_pushf(env, "%s=%s", NONCE_ENV, hex);
}

/* Wait for one step, then the wall's finish() and its denials (ABI 1.2,
 * "PROBE DENIED" lines).  The step's own exit 1 is its answer, not a
 * failure: no rerun NOTE. */
static int
wait_code(struct probe *p, const struct ns_policy *v,
	  const struct ns_proc *proc, int64_t start_ns)
{
	struct wall_end end;
	int st;

	memset(&end, 0, sizeof(end));
	if (wall_can_wait(&p->w)) {
		/* the wall waits itself (ABI 1.2; --explain's tracer takes
		 * its stops there): the host never waitpid()s meanwhile */
		if (wall_wait_end(&p->w, p->state, proc, 1000, &end.exit) != 0)
			return -1;
	} else {
		while (waitpid((pid_t)proc->pid, &st, 0) < 0)
			if (errno != EINTR)
				return -1;
		explain_exit_of_status(st, &end.exit);
	}
	end.proc = *proc;
	end.start_ns = start_ns;
	end.end_ns = explain_now_ns();
	wall_finish(&p->w, "PROBE", v, p->state, &end);
	return end.exit.how == NS_END_CODE ? end.exit.code : -1;
}

/* One walled probe-step child; returns its exit code, -1 when it died
 * otherwise, -2 when it could not be started (refusals said). */
static int
spawn_step(struct probe *p, const char *name, const char *path)
{
	unsigned char nonce[16];
	char hex[33];
	struct strv env = {0};
	int fds[2], dn, wrote, code = -2;
	struct ns_proc proc = { sizeof(proc), 0, 0 };
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, NULL, 1 };
	const char *argv[6] = { p->pol.argv.v[0], "probe-step", hex, name,
		path, NULL };
	struct ns_policy v = p->view;

	if (os_random_bytes(nonce, sizeof(nonce)) != 0 || os_pipe(fds) != 0)
		return -2;
	for (size_t i = 0; i < sizeof(nonce); i++)
		snprintf(hex + 2 * i, 3, "%02x", nonce[i]);
	dn = os_fd_made(open("/dev/null", O_RDWR | O_CLOEXEC));
	wrote = write(fds[1], nonce, sizeof(nonce)) == (ssize_t)sizeof(nonce);
	if (close(fds[1]) == 0 && wrote && dn >= 0 &&
	    child_env(p, hex, &env) == 0) {
		l.stdio[1] = l.stdio[2] = dn;
		l.extra_fds = &fds[0];
		v.argv = argv;
		v.envp = (const char *const *)env.v;
		int64_t start = explain_now_ns();

		if (wall_spawn(&p->w, p->state, &v, &l, &proc) == 0)
			code = wait_code(p, &v, &proc, start);
	}
	close(fds[0]);
	if (dn >= 0)
		close(dn);
	strv_free(&env);
	return code;
}

static int
walled(struct probe *p, const char *name, int expect_allow, const char *path)
{
	const char *exp = expect_allow ? "allow" : "deny", *got;
	int code = spawn_step(p, name, path);

	if (code == -2) {
		if (p->w.r.n == 0)
			refusals_add(&p->w.r, REASON_CHECK, "%s could not be started "
				     "inside the wall", name);
		say_refusals(p, &p->w.r);
		return -1;
	}
	got = code == 0 ? "allow" : code == 1 ? "deny" : "error";
	p->steps++;
	step_line(p, name, exp, got, path);
	if (strcmp(got, exp) == 0)
		p->passed++;
	else
		refuse1(p, REASON_CHECK, REMEDY_IN_TEXT,
			"%s expected %s and got %s at %s; run: "
			"nova-sandbox help probe", name, exp, got, path);
	return 0;
}

static int
run_steps(struct probe *p)
{
	if (control(p) != 0)
		return NS_EXIT_USAGE;
	if (walled(p, "write_outside", 0, p->outside) < 0 ||
	    (p->secret && walled(p, "read_secret", 0, p->secret) < 0) ||
	    walled(p, "write_inside", 1, p->inside) < 0 ||
	    walled(p, "read_root", 1, p->pol.command) < 0)
		return NS_EXIT_USAGE;
	unlink(p->outside); /* a wall that leaked left it behind */
	return p->passed == p->steps ? NS_EXIT_OK : NS_EXIT_PROBE_WRONG;
}

static int
ok_line(struct probe *p)
{
	char *b = out_field(p->w.mod.ops.name), *a = out_field(p->w.facts.abi);

	out_kind(stdout, "PROBE", OUT_OK,
		 "backend=%s abi=%s steps=%zu passed=%zu "
		 "net=%s gpu=%s", b ? b : "-", a ? a : "-", p->steps,
		 p->passed, wall_net_word(p->pol.net_deny),
		 p->pol.gpu ? p->pol.gpu : "none");
	free(b);
	free(a);
	return 0;
}

static int
prepare_and_run(struct probe *p)
{
	int code;

	policy_view(&p->pol, &p->view);
	wall_view_extras(&p->view, p->explain, 0, 0, 0);
	if (wall_prepare(&p->w, &p->view, &p->state) != 0) {
		if (p->w.r.n == 0)
			refusals_add(&p->w.r, REASON_NO_SANDBOX, "the wall could "
				     "not be prepared");
		say_refusals(p, &p->w.r);
		return NS_EXIT_USAGE;
	}
	policy_close_fds(&p->pol); /* the ruleset is built */
	wall_print_notes(&p->w, "PROBE");
	code = run_steps(p);
	if (code == 0 && !p->json)
		ok_line(p);
	wall_release(&p->w, p->state);
	return code;
}

/* Phase 0: root is refused first and alone (the walled steps would be
 * refused by the wall; HOME and the flags are the user's to fix).  1
 * refused and said, 0 not root. */
static int
refused_root(struct probe *p, char **argv)
{
	struct cmdline line = cmdline_of("probe", argv + 1);
	struct refusals r = {0};
	int rc = wall_refuse_root(&line, &r);

	if (rc != 0)
		say_refusals(p, &r);
	refusals_free(&r);
	return rc != 0;
}

static int
probe_main(struct probe *p, const struct hostrun *hr, int argc, char **argv)
{
	int rc = args_parse(ARGV_PROBE, argc - 1, argv + 1, &p->a, &p->r);

	p->json = p->a.json;
	p->line = cmdline_of("probe", argv + 1);
	if (refused_root(p, argv))
		return NS_EXIT_USAGE;
	if (rc != 0) {
		say_refusals(p, &p->r);
		return NS_EXIT_USAGE;
	}
	if (p->a.saw_dashdash) {
		refuse1(p, REASON_CHECK, REMEDY_IN_TEXT,
			"probe runs no command: -- is not part of "
			"probe; run: nova-sandbox help probe");
		return NS_EXIT_USAGE;
	}
	p->explain = p->a.explain;
	wall_line(&p->w, "probe", argv + 1);
	if (wall_open(&p->w, hr, "PROBE") != 0 ||
	    wall_explain_refused(&p->w, p->explain, &p->w.r) != 0) {
		if (p->w.r.n == 0)
			refusals_add(&p->w.r, REASON_CHECK, "out of memory");
		say_refusals(p, &p->w.r);
		return NS_EXIT_USAGE;
	}
	if (gather(p, hr, argv + 1) != 0)
		return NS_EXIT_USAGE;
	return prepare_and_run(p);
}

static void
probe_note(const char *text)
{
	out_note("PROBE", text);
}

int
verb_probe(const struct hostrun *hr, int argc, char **argv)
{
	struct probe *p;
	int code;

	if (flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("probe") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NS_EXIT_USAGE;
	code = probe_main(p, hr, argc, argv);
	if (p->json)
		json_end(p, code == NS_EXIT_OK ? "ok" :
			 code == NS_EXIT_PROBE_WRONG ? "failed" :
			 "refused", code);
	/* the steps are done (rule 8a) */
	(void)policy_remove_tmp_said(&p->pol, probe_note);
	policy_free(&p->pol);
	policy_input_free(&p->in);
	refusals_free(&p->r);
	wall_close(&p->w);
	args_free(&p->a);
	free(p->secret);
	free(p->outside);
	free(p->inside);
	sbuf_free(&p->items);
	strv_free(&p->why);
	free(p);
	return code;
}
