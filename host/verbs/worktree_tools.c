/* SPDX-License-Identifier: MIT */
/* worktree_tools.c -- git and gh run through os/tool.h: the two
 * environments built here, what is never printed, git pinned to one
 * repository and tree (wt.h). */
#include "verbs/wt.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/exit.h"
#include "base/out.h"
#include "os/os.h"
#include "verbs/worktree.h"

/* ---- the environments and what is never printed ----------------------- */

/* name's value in env, as the platform compares names (os_env_get). */
const char *
env_get(char **env, const char *name)
{
	return os_env_get(env, name);
}

/* What both programs need to reach the network the caller reaches. */
static const char *const env_common[] = {
	"PATH", "HOME", "XDG_CONFIG_HOME", "http_proxy", "https_proxy",
	"HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy",
	"ALL_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", NULL,
};
/* git only: the ssh agent a fetch over ssh authenticates with. */
static const char *const env_git[] = { "SSH_AUTH_SOCK", NULL };
static const char *const env_git_fixed[] = {
	"LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
	"GCM_INTERACTIVE=never", NULL,
};
/* gh only: where it keeps its login, which forge, and the token. */
static const char *const env_gh[] = {
	"GH_CONFIG_DIR", "GH_HOST", "GH_TOKEN", "GITHUB_TOKEN",
	"GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", NULL,
};
static const char *const env_gh_fixed[] = {
	"LC_ALL=C", "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1",
	"NO_COLOR=1", "GH_PAGER=cat", NULL,
};
/* The values that are secrets: never in a line this verb prints. */
static const char *const env_secret[] = {
	"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN",
	"GITHUB_ENTERPRISE_TOKEN", NULL,
};

static void
env_copy(struct strv *sv, char **from, const char *const *names)
{
	for (; *names; names++) {
		const char *v = env_get(from, *names);

		if (v != NULL)
			strv_pushf(sv, "%s=%s", *names, v);
	}
}

static void
env_fixed(struct strv *sv, const char *const *vals)
{
	for (; *vals; vals++)
		strv_push(sv, *vals);
}

static unsigned
timeout_from_env(char **env, unsigned dflt)
{
	const char *v = os_is_setid() ? NULL :
			env_get(env, "NOVA_SANDBOX_WORKTREE_TIMEOUT");
	unsigned long long s;

	if (v == NULL || parse_u64(v, 86400, &s) != 0 || s == 0)
		return dflt;
	return (unsigned)s * 1000u;
}

/* Both programs also get what any program needs on this platform (POSIX
 * nothing more; Windows SystemRoot and the profile's directories). */
int
build_envs(struct wt *w)
{
	env_copy(&w->genv, w->env, env_common);
	env_copy(&w->genv, w->env, os_env_system());
	env_copy(&w->genv, w->env, os_env_profile());
	env_copy(&w->genv, w->env, env_git);
	env_fixed(&w->genv, env_git_fixed);
	env_copy(&w->ghenv, w->env, env_common);
	env_copy(&w->ghenv, w->env, os_env_system());
	env_copy(&w->ghenv, w->env, os_env_profile());
	env_copy(&w->ghenv, w->env, env_gh);
	env_fixed(&w->ghenv, env_gh_fixed);
	for (const char *const *s = env_secret; *s; s++) {
		const char *v = env_get(w->env, *s);

		if (v != NULL && strlen(v) >= 4)
			strv_push(&w->secrets, v);
	}
	w->call_ms = timeout_from_env(w->env, WT_CALL_MS);
	w->fetch_ms = timeout_from_env(w->env, WT_FETCH_MS);
	return strv_failed(&w->genv) || strv_failed(&w->ghenv) ||
	       strv_failed(&w->secrets) ? -1 : 0;
}

/* s with every secret replaced by "<token>" and a URL's user information
 * by "<user>@".  Heap, or NULL. */
char *
wt_redact(const struct wt *w, const char *s)
{
	struct sbuf b = {0};
	const char *sch = strstr(s, "://"), *at, *slash;

	if (sch != NULL) {
		at = strchr(sch + 3, '@');
		slash = strchr(sch + 3, '/');
		if (at != NULL && (slash == NULL || at < slash)) {
			sbuf_addn(&b, s, (size_t)(sch + 3 - s));
			sbuf_add(&b, "<user>");
			s = at;
		}
	}
	while (*s) {
		size_t hit = 0;

		for (size_t i = 0; i < w->secrets.n; i++) /* the longest */
			if (strlen(w->secrets.v[i]) > hit &&
			    strncmp(s, w->secrets.v[i],
				    strlen(w->secrets.v[i])) == 0)
				hit = strlen(w->secrets.v[i]);
		if (hit) {
			sbuf_add(&b, "<token>");
			s += hit;
		} else {
			sbuf_addn(&b, s++, 1);
		}
	}
	return sbuf_take(&b);
}

/* ---- running git and gh ------------------------------------------------- */

/* What git's configuration could make these calls run, disarmed on every
 * call (docs/SPEC-SANDBOX.md "worktree", checked against git 2.39): no
 * pager, no fsmonitor, no hook (worktree add's post-checkout, a ref
 * update's reference-transaction), no submodule recursion (a submodule's
 * .git in a tree is the job's), no automatic gc or maintenance after a
 * fetch.  Filter drivers are disarmed by name once the repository's
 * configuration is known (git_filters). */
static const char *const git_safe[] = {
	"--no-pager",
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "submodule.recurse=false",
	"-c", "fetch.recurseSubmodules=false",
	"-c", "diff.ignoreSubmodules=all",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	NULL,
};

/* git's environment for one call: the built one, then every filter
 * driver git's configuration defines disarmed through GIT_CONFIG_COUNT
 * (a driver's name may hold '=', which `-c` cannot say): its process,
 * smudge and clean commands empty, not required. */
static void
git_env(const struct wt *w, struct strv *env)
{
	static const char *const var[] = { "process", "smudge", "clean",
					   "required" };
	size_t k = 0;

	for (size_t i = 0; i < w->genv.n; i++)
		strv_push(env, w->genv.v[i]);
	if (w->filters.n == 0)
		return;
	strv_pushf(env, "GIT_CONFIG_COUNT=%zu", w->filters.n * 4);
	for (size_t i = 0; i < w->filters.n; i++)
		for (size_t j = 0; j < 4; j++, k++) {
			strv_pushf(env, "GIT_CONFIG_KEY_%zu=filter.%s.%s", k,
				   w->filters.v[i], var[j]);
			strv_pushf(env, "GIT_CONFIG_VALUE_%zu=%s", k,
				   j == 3 ? "false" : "");
		}
}

/* git <args...> in the directory cwd_fd, with git's environment, its
 * commands disarmed and its directories named (never discovered): the
 * repository's, or the tree's of p.  args[0] is "git". */
int
git_at(struct wt *w, const struct gplace *p, int cwd_fd, unsigned ms,
       struct toolres *res, char *const *args)
{
	struct strv av = {0}, env = {0};
	int rc = -1, e = ENOMEM;

	strv_push(&av, args[0]);
	for (const char *const *o = git_safe; *o; o++)
		strv_push(&av, *o);
	if (p != NULL) {
		strv_pushf(&av, "--git-dir=%s", p->gitdir);
		strv_pushf(&av, "--work-tree=%s", p->worktree);
	} else if (w->gitdir != NULL) {
		strv_pushf(&av, "--git-dir=%s", w->gitdir);
		strv_pushf(&av, "--work-tree=%s", w->repo.path);
	}
	for (size_t i = 1; args[i] != NULL; i++)
		strv_push(&av, args[i]);
	git_env(w, &env);
	if (!strv_failed(&av) && !strv_failed(&env)) {
		rc = tool_run(&w->git, cwd_fd, av.v, env.v, ms, res);
		e = errno;
	} else {
		memset(res, 0, sizeof(*res));
	}
	strv_free(&av);
	strv_free(&env);
	errno = e;
	return rc;
}

/* git <args...> on the repository, in the directory cwd_fd. */
int
wt_git(struct wt *w, int cwd_fd, unsigned ms, struct toolres *res,
    char *const *args)
{
	return git_at(w, NULL, cwd_fd, ms, res, args);
}

/* The first line of a program's stderr, redacted, for a refusal text. */
char *
first_line(const struct wt *w, const struct toolres *res)
{
	const char *e = sbuf_str(&res->err);
	const char *nl = strchr(e, '\n');
	char *one = nl ? str_fmt("%.*s", (int)(nl - e), e) : str_fmt("%s", e);
	char *r = one ? wt_redact(w, one) : NULL;

	free(one);
	return r;
}

/* stdout without its trailing newline, when the run exited 0: 0; -1 it
 * did not, -2 git could not be started (errno).  On the repository (p
 * NULL) or a tree. */
int
git_line(struct wt *w, const struct gplace *p, int cwd_fd, char *const *args,
	 char *buf, size_t n)
{
	struct toolres res;
	int ok, started, e;
	size_t len;

	started = git_at(w, p, cwd_fd, w->call_ms, &res, args) == 0;
	e = errno;
	ok = started && res.status == 0 && !sbuf_failed(&res.out);
	len = strlen(sbuf_str(&res.out));
	while (ok && len > 0 && sbuf_str(&res.out)[len - 1] == '\n')
		len--;
	ok = ok && len < n;
	if (ok) {
		memcpy(buf, sbuf_str(&res.out), len);
		buf[len] = '\0';
	}
	toolres_free(&res);
	errno = e;
	return ok ? 0 : started ? -1 : -2;
}

/* ---- the verb's lines after validation -------------------------------- */

/* One refusal after validation: the text redacted, then the remedy line. */
int
refuse_one(const struct wt *w, const char *tok, const char *remedy,
	   const char *text)
{
	char *safe = wt_redact(w, text ? text : "out of memory");

	out_refused("WORKTREE", tok, safe ? safe : "out of memory", NULL);
	out_usage(stderr, remedy);
	free(safe);
	return NS_EXIT_USAGE;
}

void
wt_note(const struct wt *w, const char *text)
{
	char *safe = wt_redact(w, text ? text : "out of memory");

	out_note("WORKTREE", safe ? safe : "out of memory");
	free(safe);
}
