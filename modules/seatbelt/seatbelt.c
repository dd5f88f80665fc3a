/* SPDX-License-Identifier: MIT */
/* seatbelt.c -- seatbelt.dylib, the macOS wall (helper shape).
 *
 * facts()   the helper is there and executable (nothing is run);
 * prepare() refuses root, builds the profile (sb_profile.c: every path a
 *           -D parameter), PREFLIGHTS it -- the exact profile and
 *           parameters run /usr/bin/true once -- so that a profile that
 *           does not compile, an apply failure and a nested sandbox are
 *           the module's refusals and never an exit code of the command's
 *           (65 and 71 are both ordinary exit codes); with --gpu metal it
 *           then runs the GPU probe under the same profile (sb_gpu.c);
 * render()  the profile, then its parameters as comments;
 * spawn()   forks and execs <sandbox-exec> -p <profile> -D ... -- <command>
 *           by absolute path: the command keeps the child's pid;
 * finish()  after a failing command, the unified log's violations for the
 *           run's window (sb_log.c) become host->denial calls; an empty
 *           log is said as such, never as "nothing was denied".
 *
 * Options ([seatbelt]): gpu_python (the GPU probe's interpreter, absolute).
 * A test build (-DSB_TESTING, Linux only, never installed) also takes
 * sandbox_exec and log, so the suites run it against fake tools; a release
 * build has no key that can name another helper.
 *
 * NS_MODULE_REQUIRES_MINOR 0: finish() and host->denial are found by size
 * and used only when the host has them. */
#define NS_MODULE_REQUIRES_MINOR 0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "banned.h"
#include "common/nk_run.h"
#include "sb.h"
#include "common/nk_module.h"
#include "common/nk_say.h"

#define SB_TOOL "/usr/bin/sandbox-exec"
#define SB_LOG "/usr/bin/log"
#define SB_TRUE "/usr/bin/true"
#define SB_MAX_EXTRA_FDS 64
#define SB_PREFLIGHT_MS 10000u
#define SB_GPU_MS 60000u
#define SB_LOG_MS 15000u
#define HOST_SIZE_1_0 (offsetof(struct ns_host, option) + sizeof(void *))

static const char *const options[] = {
	"gpu_python",
#ifdef SB_TESTING
	"sandbox_exec", "log",
#endif
	NULL
};

/* macOS's roots: the loader, libc, the frameworks, the zone and locale
 * data, the select links.  The host resolves them and skips the absent;
 * every one reaches the profile as a parameter. */
static const char *const read_roots[] = {
	"/usr/lib", "/usr/libexec", "/usr/share", "/usr/bin", "/usr/sbin",
	"/bin", "/sbin", "/System/Library", "/System/Cryptexes",
	"/System/Volumes/Preboot/Cryptexes", "/Library/Apple/usr/libexec/oah",
	"/private/etc", "/private/var/select", "/private/var/db/timezone",
	"/Library/Preferences/com.apple.dt.Xcode.plist",
	"/dev/random", "/dev/urandom", NULL
};

static const char *const write_files[] = {
	"/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper",
	"/dev/ptmx", NULL
};

/* The developer directory through its two links (xcrun shims read it),
 * and the package managers' trees. */
static const char *const optional_roots[] = {
	"/private/var/select/developer_dir",
	"/private/var/db/xcode_select_link", "/opt/homebrew", "/opt/local",
	NULL
};

static const char *const system_prefixes[] = {
	"/usr", "/bin", "/sbin", "/System", "/Library/Apple", "/private/etc",
	"/private/var/select", "/dev", NULL
};

/* a refusal (or, reason NULL, a note), formatted: modules/common/nk_say.h */
#define say(h, reason, ...) ((void)nk_say((h), 0, (reason), __VA_ARGS__))

static int
host_ok(const struct ns_host *h)
{
	return h != NULL && h->struct_size >= HOST_SIZE_1_0 &&
	       h->refuse != NULL && h->text != NULL && h->option != NULL;
}

static int
abs_option(const struct ns_host *h, const char *key, const char *def,
	   const char **out)
{
	const char *v = h->option(h->cookie, key);

	*out = v != NULL ? v : def;
	if (*out == NULL || (v == NULL && def == NULL))
		return 0;
	if ((*out)[0] != '/' || sb_value_bad(*out) != NULL) {
		say(h, "bad_config", "seatbelt option %s = %s is not an "
		    "absolute path; set [seatbelt] %s = /absolute/path "
		    "(tools are never looked up on PATH)", key, *out, key);
		return -1;
	}
	return 0;
}

int
sb_cfg_load(const struct ns_host *h, struct sb_cfg *c)
{
	int bad = 0;

	memset(c, 0, sizeof(*c));
	c->sandbox_exec = SB_TOOL;
	c->log = SB_LOG;
#ifdef SB_TESTING
	bad |= abs_option(h, "sandbox_exec", SB_TOOL, &c->sandbox_exec);
	bad |= abs_option(h, "log", SB_LOG, &c->log);
#endif
	bad |= abs_option(h, "gpu_python", NULL, &c->gpu_python);
	return bad ? -1 : 0;
}

/* The helper: a regular executable file (stat on the name: it is run by
 * name, and sandbox-exec is a system file under SIP on a Mac). */
static int
tool_ok(const char *tool, char *why, size_t len)
{
	struct stat st;

	if (stat(tool, &st) != 0) {
		snprintf(why, len, "%s: %s; seatbelt.dylib needs macOS's "
			 "sandbox-exec", tool, strerror(errno));
		return 0;
	}
	if (!S_ISREG(st.st_mode) || access(tool, X_OK) != 0) {
		snprintf(why, len, "%s is not an executable file; seatbelt."
			 "dylib needs macOS's sandbox-exec", tool);
		return 0;
	}
	return 1;
}

static int
sb_facts(const struct ns_host *h, struct ns_wall_facts *out)
{
	struct sb_cfg c;

	if (!host_ok(h) || out == NULL)
		return NS_E_INTERNAL;
	if (sb_cfg_load(h, &c) != 0)
		return NS_E_UNAVAILABLE;
	out->available = tool_ok(c.sandbox_exec, out->why, sizeof(out->why));
	out->net_enforceable = 1;
	snprintf(out->abi, sizeof(out->abi), "-");
	snprintf(out->note, sizeof(out->note),
		 "seatbelt: an SBPL profile through %s (every path a -D "
		 "parameter); denials from the unified log after a failing "
		 "command, which may hold none (macOS 26 logs none for "
		 "sandbox-exec -p)", c.sandbox_exec);
	return NS_OK;
}

/* ---- prepare: build, preflight, GPU probe ----------------------------- */

static int
preflight(const struct ns_host *h, const struct sb_state *st,
	  const struct ns_policy *pol)
{
	const char *const targv[] = { "true", NULL };
	char **argv = sb_argv(st->cfg.sandbox_exec, &st->prof, SB_TRUE, targv);
	struct sb_run *r = malloc(sizeof(*r));
	enum sb_fail f;
	int rc;

	if (argv == NULL || r == NULL) {
		free(r);
		sb_argv_free(argv);
		say(h, "sandbox_failed", "seatbelt.dylib: out of memory");
		return NS_E_SYSTEM;
	}
	rc = sb_exec(argv, (char *const *)pol->envp, -1, 0, SB_PREFLIGHT_MS, r);
	f = rc == 0 ? sb_fail_of(r->status, r->err) : SB_FAIL_OTHER;
	nk_flatten(r->err);
	if (f != SB_FAIL_NONE) {
		if (rc != 0)
			say(h, "sandbox_failed", "%s (preflight of the profile "
			    "with %s): %s", sb_fail_text(f),
			    st->cfg.sandbox_exec, r->why);
		else
			say(h, sb_fail_reason(f), "%s (preflight, exit %d)%s%s",
			    sb_fail_text(f), r->status, r->err[0] ? ": " : "",
			    r->err);
	}
	free(r);
	sb_argv_free(argv);
	return f == SB_FAIL_NONE ? NS_OK :
	       f == SB_FAIL_NESTED ? NS_E_UNAVAILABLE : NS_E_REFUSED;
}

static const char *
gpu_interpreter(const struct sb_state *st, const struct ns_policy *pol)
{
	const char *base;

	if (st->cfg.gpu_python != NULL)
		return st->cfg.gpu_python;
	base = strrchr(pol->command, '/');
	base = base ? base + 1 : pol->command;
	return strncmp(base, "python", 6) == 0 ? pol->command :
						 "/usr/bin/python3";
}

/* --gpu metal: the probe under this very profile; its answer is a NOTE
 * (the run goes on: metal records intent, it is not a requirement). */
static void
gpu_probe(const struct ns_host *h, const struct sb_state *st,
	  const struct ns_policy *pol)
{
	const char *py = gpu_interpreter(st, pol);
	const char *const pargv[] = { py, "-c", sb_gpu_program, NULL };
	int cwd = NS_POLICY_HAS_FDS(pol) && pol->cwd_fd ? *pol->cwd_fd : -1;
	char **argv = sb_argv(st->cfg.sandbox_exec, &st->prof, py, pargv);
	struct sb_run *r = malloc(sizeof(*r));
	char detail[192];
	enum sb_gpu g;
	int rc;

	if (argv == NULL || r == NULL) {
		free(r);
		sb_argv_free(argv);
		say(h, NULL, "gpu=metal probe: not run (out of memory): "
		    "the GPU is unknown");
		return;
	}
	rc = sb_exec(argv, (char *const *)pol->envp, cwd, 1, SB_GPU_MS, r);
	g = sb_gpu_classify(rc == 0 ? r->status : -1, r->out, detail,
			    sizeof(detail));
	say(h, NULL, "gpu=metal probe (%s, under this wall): %s: %s; %s", py,
	    sb_gpu_word(g), detail[0] ? detail : "-", sb_gpu_remedy(g));
	free(r);
	sb_argv_free(argv);
}

static void
sb_release(const struct ns_host *h, void *state)
{
	struct sb_state *st = state;

	(void)h;
	if (st == NULL)
		return;
	sb_profile_free(&st->prof);
	free(st);
}

static int
build(const struct ns_host *h, const struct ns_policy *pol,
      struct sb_prof *p)
{
	char err[768] = "";
	int oom;

	if (sb_profile_build(pol, p, err, sizeof(err)) == 0)
		return NS_OK;
	say(h, p->protect_bad ? "protect_unavailable" : "sandbox_failed",
	    "%s", err);
	oom = p->oom;
	sb_profile_free(p);
	return oom ? NS_E_SYSTEM : NS_E_REFUSED;
}

static int
sb_prepare(const struct ns_host *h, const struct ns_policy *pol,
	   void **state)
{
	struct sb_state *st;
	int rc;

	if (!host_ok(h) || state == NULL || pol == NULL ||
	    pol->struct_size < NS_POLICY_SIZE_1_0)
		return NS_E_INTERNAL;
	*state = NULL;
	if (geteuid() == 0) {
		say(h, "sandbox_failed", "the wall is for an unprivileged "
		    "user; run nova-sandbox as an unprivileged user (sudo -u "
		    "<user> ...)");
		return NS_E_REFUSED;
	}
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		say(h, "sandbox_failed", "seatbelt.dylib: out of memory");
		return NS_E_SYSTEM;
	}
	if (sb_cfg_load(h, &st->cfg) != 0) {
		free(st);
		return NS_E_UNAVAILABLE;
	}
	rc = build(h, pol, &st->prof);
	if (rc == NS_OK)
		rc = preflight(h, st, pol);
	if (rc == NS_OK && pol->gpu != NULL && strcmp(pol->gpu, "metal") == 0)
		gpu_probe(h, st, pol);
	if (rc != NS_OK) {
		sb_release(h, st);
		return rc;
	}
	*state = st;
	return NS_OK;
}

/* ---- render ------------------------------------------------------------ */

static int
sb_render(const struct ns_host *h, const struct ns_policy *pol)
{
	struct sb_prof p;
	char *line, *nl, buf[PATH_MAX + 64];
	int rc;

	if (!host_ok(h) || pol == NULL || pol->struct_size < NS_POLICY_SIZE_1_0)
		return NS_E_INTERNAL;
	rc = build(h, pol, &p);
	if (rc != NS_OK)
		return rc;
	for (line = p.text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		h->text(h->cookie, line);
	}
	h->text(h->cookie, "; parameters: passed as -D NAME=value to "
			   "sandbox-exec, never part of the profile");
	for (size_t i = 0; i < p.n; i++) {
		snprintf(buf, sizeof(buf), ";   %s=%s", p.params[i].name,
			 p.params[i].value);
		h->text(h->cookie, buf);
	}
	sb_profile_free(&p);
	return NS_OK;
}

/* ---- spawn -------------------------------------------------------------- */

struct child_ctx {
	char **argv;
	const struct ns_policy *pol;
	const struct ns_launch *launch;
	int report; /* write end: errno when the exec failed */
};

/* Move every source above the targets, then dup2 into place (a source
 * may sit on another's target); close the rest but the report pipe. */
static int
child_fds(struct child_ctx *c)
{
	const struct ns_launch *l = c->launch;
	int tmp[3 + SB_MAX_EXTRA_FDS];
	int base = 3 + (int)l->n_extra_fds, hi = 4096;
	struct rlimit rl;

	if (c->report < base) {
		int moved = fcntl(c->report, F_DUPFD_CLOEXEC, base);

		if (moved < 0)
			return -1;
		c->report = moved;
	}
	for (size_t i = 0; i < 3 + l->n_extra_fds; i++) {
		int src = i < 3 ? l->stdio[i] : l->extra_fds[i - 3];

		tmp[i] = -1;
		if (src >= 0 && (tmp[i] = fcntl(src, F_DUPFD_CLOEXEC, base)) < 0)
			return -1;
	}
	for (size_t i = 0; i < 3 + l->n_extra_fds; i++)
		if (tmp[i] >= 0 && dup2(tmp[i], (int)i) < 0)
			return -1;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 4096)
		hi = (int)rl.rlim_cur;
	for (int fd = base; fd < hi; fd++)
		if (fd != c->report)
			(void)close(fd);
	return 0;
}

static void __attribute__((noreturn))
child(struct child_ctx *c)
{
	const struct ns_policy *pol = c->pol;
	int e, cwd = NS_POLICY_HAS_FDS(pol) && pol->cwd_fd ? *pol->cwd_fd : -1;

	nk_child_signals();
	if ((cwd >= 0 ? fchdir(cwd) : chdir(pol->cwd)) != 0 ||
	    child_fds(c) != 0)
		goto fail;
	execve(c->argv[0], c->argv, (char *const *)pol->envp);
fail:
	e = errno;
	(void)!write(c->report, &e, sizeof(e));
	_exit(127);
}

static int
sb_spawn(const struct ns_host *h, void *state, const struct ns_policy *pol,
	 const struct ns_launch *launch, struct ns_proc *out)
{
	struct sb_state *st = state;
	struct child_ctx c;
	int rep[2], e = 0;
	ssize_t k;
	pid_t pid;

	if (!host_ok(h) || st == NULL || pol == NULL || launch == NULL ||
	    out == NULL || launch->n_extra_fds > SB_MAX_EXTRA_FDS ||
	    (launch->n_extra_fds > 0 && launch->extra_fds == NULL))
		return NS_E_INTERNAL;
	c.argv = sb_argv(st->cfg.sandbox_exec, &st->prof, pol->command,
			 pol->argv);
	c.pol = pol;
	c.launch = launch;
	if (c.argv == NULL || pipe(rep) != 0) {
		sb_argv_free(c.argv);
		say(h, "sandbox_failed", "seatbelt.dylib: cannot start %s: %s",
		    st->cfg.sandbox_exec, strerror(errno));
		return NS_E_SYSTEM;
	}
	fcntl(rep[0], F_SETFD, FD_CLOEXEC);
	fcntl(rep[1], F_SETFD, FD_CLOEXEC);
	c.report = rep[1];
	pid = fork();
	if (pid == 0)
		child(&c);
	e = errno;
	close(rep[1]);
	sb_argv_free(c.argv);
	if (pid < 0) {
		close(rep[0]);
		say(h, "sandbox_failed", "seatbelt.dylib: fork: %s",
		    strerror(e));
		return NS_E_SYSTEM;
	}
	while ((k = read(rep[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(rep[0]);
	if (k == (ssize_t)sizeof(e)) {
		/* the child is gone (it _exit()ed): the host reaps it */
		say(h, "sandbox_failed", "seatbelt.dylib: cannot execute %s: %s",
		    st->cfg.sandbox_exec, strerror(e));
		return NS_E_SYSTEM;
	}
	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	out->pid = pid;
	st->spawned++;
	return NS_OK;
}

/* ---- finish: the unified log ------------------------------------------- */

static int
query_log(const struct sb_state *st, const struct ns_finish *fin,
	  struct sb_run *r)
{
	char t0[32], t1[32];
	char *argv[] = { (char *)st->cfg.log, (char *)"show", (char *)"--style",
			 (char *)"ndjson", (char *)"--start", t0,
			 (char *)"--end", t1, (char *)"--predicate",
			 (char *)sb_log_predicate, NULL };

	/* a second either side: the log's stamps and ours are two clocks */
	if (sb_log_time(fin->start_ns - 1000000000LL, t0, sizeof(t0)) != 0 ||
	    sb_log_time(fin->end_ns + 1000000000LL, t1, sizeof(t1)) != 0) {
		snprintf(r->why, sizeof(r->why), "no local time for the run");
		return -1;
	}
	return sb_exec(argv, NULL, -1, 0, SB_LOG_MS, r);
}

static size_t
report(const struct ns_host *h, const struct ns_finish *fin, char *out)
{
	struct sb_deny d;
	struct ns_denial nd;
	size_t n = 0;

	for (char *l = out, *nl; l != NULL && *l; l = nl) {
		nl = strchr(l, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		if (sb_log_line(l, &d) != 0)
			continue;
		/* ours: the command's own pid, or the profile's tag (its
		 * children carry the same profile) */
		if (!d.tagged && d.pid != (long)fin->proc.pid)
			continue;
		memset(&nd, 0, sizeof(nd));
		nd.struct_size = sizeof(nd);
		nd.op = d.op;
		nd.path = d.path;
		nd.count = 1;
		nd.detail = d.opword;
		h->denial(h->cookie, &nd);
		n++;
	}
	return n;
}

static int
sb_finish(const struct ns_host *h, void *state, const struct ns_finish *fin)
{
	struct sb_state *st = state;
	struct sb_run *r;
	size_t n;

	if (!host_ok(h) || st == NULL || fin == NULL)
		return NS_E_INTERNAL;
	if (!NS_HOST_HAS_DENIAL(h) ||
	    (fin->exit.how == NS_END_CODE && fin->exit.code == 0 &&
	     fin->killed == 0))
		return NS_OK;
	r = malloc(sizeof(*r));
	if (r == NULL) {
		say(h, NULL, "seatbelt: the unified log was not read (out of "
		    "memory): this run's denials are unknown");
		return NS_OK;
	}
	if (query_log(st, fin, r) != 0 || r->status != 0) {
		char why[sizeof(r->err) + 32];

		nk_flatten(r->err);
		if (r->status >= 0)
			snprintf(why, sizeof(why), "exit %d%s%s", r->status,
				 r->err[0] ? ": " : "", r->err);
		else
			snprintf(why, sizeof(why), "%s", r->why);
		say(h, NULL, "seatbelt: could not read the unified log with "
		    "%s (%s): this run's denials are unknown", st->cfg.log,
		    why);
		free(r);
		return NS_OK;
	}
	n = report(h, fin, r->out);
	if (n == 0)
		say(h, NULL, "seatbelt: the unified log holds no sandbox "
		    "violation for this run; macOS 26 logs none for a "
		    "profile applied with sandbox-exec -p, so this does not "
		    "mean nothing was denied");
	free(r);
	return NS_OK;
}

static const struct ns_wall_ops wall_ops =
	NK_WALL_OPS(NS_SHAPE_HELPER, sb_facts, sb_prepare, sb_render, sb_spawn,
		    sb_release,
		    .read_roots = read_roots, .write_files = write_files,
		    .optional_roots = optional_roots,
		    .system_prefixes = system_prefixes,
		    .resolver_conf = NULL, /* /private/etc is a root already */
		    /* no --explain (the log is read after any failure);
		     * keeps the protected paths (denials after every
		     * allow, sb_profile.c); --net-allow (ABI 1.5): with
		     * NET_DENY each net_allow "127.0.0.1:<port>" (the host's
		     * proxy) and loopback entry stays reachable, nothing
		     * else (sb_profile.c's emit_net) */
		    .features = NS_WALL_PROTECT | NS_WALL_NET_LOOPBACK,
		    .finish = sb_finish,
		    .wait = NULL,      /* the host waits for the pid: it IS the command */
		    .terminate = NULL /* the host signals the tree by pid */);

NK_DESCRIPTOR(NS_ROLE_WALL, "seatbelt",
	      "macOS wall: a generated SBPL profile through "
	      "/usr/bin/sandbox-exec, every path a -D parameter",
	      options, .wall = &wall_ops);
