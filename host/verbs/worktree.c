/* SPDX-License-Identifier: MIT */
/* worktree.c -- `nova-sandbox worktree` (reference section 10): one pull
 * request's exact head in a scratch tree of its own, and --prune.
 *
 * git and gh are run through base/tool.h: found once on PATH and kept open,
 * argv only, "--" before every operand that comes from outside, an
 * environment built here (the caller's GIT_* never reach git; the forge
 * token reaches gh only), a deadline per call.  The repository and the
 * scratch are walked once (policy/paths.h) and used by descriptor after:
 * git runs with its working directory set from the descriptor, a tree is
 * deleted entry by entry below the scratch's descriptor, never through a
 * link and never across a mount.  Every file operation is os/os.h's, so
 * the verb is the same on every platform.  docs/SPEC-SANDBOX.md
 * "worktree". */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/flags.h"
#include "base/out.h"
#include "base/tool.h"
#include "os/os.h"
#include "policy/paths.h"
#include "wall/session.h"
#include "verbs/verbs.h"
#include "verbs/worktree.h"

#define WT_REMEDY "run: nova-sandbox worktree --repo <dir> --scratch <dir> --pr <id>"
#define WT_RETRY WT_REMEDY "; retry once the forge answers"
#define WT_HELP "nova-sandbox help worktree"
#define WT_STALE_S (24 * 60 * 60)
#define WT_CALL_MS 60000u   /* one git or gh question */
#define WT_FETCH_MS 600000u /* a fetch, a checkout */
#define WT_GUID_LEN 32
#define WT_HEAD_LEN 40
#define WT_RECORD_MAX 4096
#define WT_RM_DEPTH 512 /* one descriptor a level: inside the default 1024 open files */
#define WT_PR_MAX 2147483647ull


struct wt {
	struct wtargs a;
	unsigned long long id;
	struct rpath repo, scratch;
	struct tool git, gh;
	struct strv genv, ghenv;  /* the two environments */
	char *gitdir;             /* the repository's git directory */
	char *common;             /* its common directory (worktrees/ there) */
	int commonfd;             /* O_PATH of common, or -1 */
	struct strv filters;      /* the filter drivers git's config defines */
	struct strv secrets;      /* token values, never printed */
	unsigned call_ms, fetch_ms;
	char **env;               /* the caller's */
};

/* What the forge said of one pull request. */
struct prinfo {
	char head[WT_HEAD_LEN + 1];
	char *base;
	char *state;
};

enum forge_rc { FG_OK, FG_NO_PR, FG_NO_FORGE, FG_BAD_ORIGIN, FG_BAD_HEAD,
		FG_OOM };

/* ---- flags (worktree_flags.c) ------------------------------------------ */

static const struct flagspec wt_spec = {
	.defs = NULL, /* worktree_flags.c: set where it is parsed */
	.ndefs = 0,
	.verb = 1,
	.verbname = "worktree",
	.remedy = WT_HELP,
	.list_lead = "the flags of worktree are",
	.near = FN_EDIT,
	.single = FS_NONE,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_BAD_FLAG,
	.tok_positional = REASON_BAD_FLAG,
	.tok_value = REASON_BAD_FLAG,
	.opts = FO_ONCE | FO_VALUE_NOT_DD,
	.remedy_on = FR_UNKNOWN | FR_POSITIONAL,
};

/* A value flag as the last word has no value: that is its own flag's
 * problem (bad_repo, bad_pr, ...), said once, not a second bad_flag. */
static int
strip_valueless(int argc, char **argv, struct wtargs *a)
{
	static const char *const names[] = { "--repo", "--scratch", "--pr",
					     "--base" };

	if (argc == 0)
		return argc;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(argv[argc - 1], names[i]) == 0) {
			a->valueless[i] = 1;
			return argc - 1;
		}
	return argc;
}

/* ---- small pure helpers ------------------------------------------------ */

static int
is_hex_lower(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* git's branch-name rules (check-ref-format --branch), checked here so
 * the value never has to be handed to git to be judged. */
static int
branch_ok(const char *b)
{
	size_t n = strlen(b);

	if (n == 0 || n > 255 || b[0] == '-' || b[0] == '/' || b[n - 1] == '/' ||
	    b[n - 1] == '.' || strstr(b, "..") || strstr(b, "@{") ||
	    strstr(b, "//") || strcmp(b, "@") == 0 ||
	    (n >= 5 && strcmp(b + n - 5, ".lock") == 0))
		return 0;
	for (const unsigned char *p = (const unsigned char *)b; *p; p++)
		if (*p <= 0x20 || *p == 0x7f || strchr("~^:?*[\\", *p) ||
		    (*p == '.' && (p == (const unsigned char *)b || p[-1] == '/')))
			return 0;
	return 1;
}

/* An owner or repository name as forges spell them. */
static int
forge_word_ok(const char *s, size_t n)
{
	if (n == 0 || n > 100 || s[0] == '-' || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return 0;
	return 1;
}

/* A remote that names a place on this machine names no forge. */
static int
local_remote(const char *u)
{
	const char *sch = strstr(u, "://");

	if (sch != NULL)
		return (size_t)(sch - u) == 4 && strncasecmp(u, "file", 4) == 0;
	if (u[0] == '/' || u[0] == '.')
		return 1;
	return isalpha((unsigned char)u[0]) && u[1] == ':' &&
	       (u[2] == '/' || u[2] == '\\');
}

/* "owner/name" out of a remote URL (https, ssh, scp-like, an alias
 * "x:owner/name", "owner/name"), or NULL: none, or a word a forge would
 * not name a repository with.  Heap. */
char *
worktree_owner_name(const char *url)
{
	const char *p = url, *sch, *s1, *s2, *end;
	size_t n = strlen(url);

	if (n >= 4 && strcmp(url + n - 4, ".git") == 0)
		n -= 4;
	if (n == 0 || local_remote(url))
		return NULL;
	end = url + n;
	sch = strstr(url, "://");
	if (sch != NULL && sch < end) {
		p = memchr(sch + 3, '/', (size_t)(end - sch - 3));
		if (p == NULL)
			return NULL;
		p++;
	} else if ((sch = memchr(url, ':', n)) != NULL) {
		p = sch + 1;
	}
	s1 = memchr(p, '/', (size_t)(end - p));
	if (s1 == NULL)
		return NULL;
	s2 = memchr(s1 + 1, '/', (size_t)(end - s1 - 1));
	if (s2 == NULL)
		s2 = end;
	if (!forge_word_ok(p, (size_t)(s1 - p)) ||
	    !forge_word_ok(s1 + 1, (size_t)(s2 - s1 - 1)))
		return NULL;
	return str_fmt("%.*s/%.*s", (int)(s1 - p), p, (int)(s2 - s1 - 1),
		       s1 + 1);
}

/* ---- JSON: the one flat object gh prints -------------------------------- */

struct jcur {
	const char *p;
};

static void
jws(struct jcur *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static int
jhex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int d = isdigit((unsigned char)p[i]) ? p[i] - '0' :
			(p[i] >= 'a' && p[i] <= 'f') ? p[i] - 'a' + 10 :
			(p[i] >= 'A' && p[i] <= 'F') ? p[i] - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*v = *v * 16 + (unsigned)d;
	}
	return 0;
}

static void
jutf8(struct sbuf *b, unsigned v)
{
	char u[4];
	size_t n;

	if (v < 0x80) {
		u[0] = (char)v; n = 1;
	} else if (v < 0x800) {
		u[0] = (char)(0xc0 | (v >> 6)); u[1] = (char)(0x80 | (v & 0x3f));
		n = 2;
	} else {
		u[0] = (char)(0xe0 | (v >> 12));
		u[1] = (char)(0x80 | ((v >> 6) & 0x3f));
		u[2] = (char)(0x80 | (v & 0x3f));
		n = 3;
	}
	sbuf_addn(b, u, n);
}

/* A string at c->p into out (heap); -1 when it is not one.  A \u escape
 * outside the BMP or of NUL is refused: nothing gh says needs one. */
static int
jstring(struct jcur *c, char **out)
{
	struct sbuf b = {0};
	unsigned v;

	if (*c->p != '"')
		return -1;
	for (c->p++; *c->p != '"'; c->p++) {
		if (*c->p == '\0' || (unsigned char)*c->p < 0x20)
			goto bad;
		if (*c->p != '\\') {
			sbuf_addn(&b, c->p, 1);
			continue;
		}
		c->p++;
		if (*c->p == 'u') {
			if (jhex4(c->p + 1, &v) != 0 || v == 0 ||
			    (v >= 0xd800 && v <= 0xdfff))
				goto bad;
			jutf8(&b, v);
			c->p += 4;
		} else if (*c->p && strchr("\"\\/bfnrt", *c->p)) {
			static const char from[] = "\"\\/bfnrt",
					  to[] = "\"\\/\b\f\n\r\t";
			sbuf_addn(&b, &to[strchr(from, *c->p) - from], 1);
		} else {
			goto bad;
		}
	}
	c->p++;
	*out = sbuf_take(&b);
	return *out ? 0 : -1;
bad:
	sbuf_free(&b);
	return -1;
}

/* Skip one value of any kind. */
static int
jskip(struct jcur *c, int depth)
{
	char *s;

	jws(c);
	if (depth > 32)
		return -1;
	if (*c->p == '"') {
		if (jstring(c, &s) != 0)
			return -1;
		free(s);
		return 0;
	}
	if (*c->p == '{' || *c->p == '[') {
		char close = *c->p == '{' ? '}' : ']';

		c->p++;
		jws(c);
		if (*c->p == close) {
			c->p++;
			return 0;
		}
		for (;;) {
			if (close == '}') {
				if (jskip(c, depth + 1) != 0)
					return -1;
				jws(c);
				if (*c->p++ != ':')
					return -1;
			}
			if (jskip(c, depth + 1) != 0)
				return -1;
			jws(c);
			if (*c->p == ',') {
				c->p++;
				continue;
			}
			if (*c->p++ != close)
				return -1;
			return 0;
		}
	}
	if (*c->p == '\0' || !strchr("-0123456789tfn", *c->p))
		return -1;
	while (*c->p && (isalnum((unsigned char)*c->p) || strchr("+-.", *c->p)))
		c->p++;
	return 0;
}

/* The three fields of `gh pr view --json headRefOid,baseRefName,state`
 * (missing ones are NULL).  0, or -1 when the text is not one object. */
int
worktree_parse_pr(const char *text, char **head, char **base, char **state)
{
	struct jcur c = { text };
	static const char *const keys[] = { "headRefOid", "baseRefName",
					    "state" };
	char **dst[] = { head, base, state };
	char *k, *v;

	*head = *base = *state = NULL;
	jws(&c);
	if (*c.p++ != '{')
		goto bad;
	jws(&c);
	if (*c.p == '}')
		c.p++;
	else
		for (;;) {
			int hit = -1;

			jws(&c);
			if (jstring(&c, &k) != 0)
				goto bad;
			for (int i = 0; i < 3; i++)
				if (strcmp(k, keys[i]) == 0)
					hit = i;
			free(k);
			jws(&c);
			if (*c.p++ != ':')
				goto bad;
			jws(&c);
			if (hit >= 0 && *c.p == '"') {
				if (jstring(&c, &v) != 0)
					goto bad;
				free(*dst[hit]);
				*dst[hit] = v;
			} else if (jskip(&c, 0) != 0) {
				goto bad;
			}
			jws(&c);
			if (*c.p == ',') {
				c.p++;
				continue;
			}
			if (*c.p++ != '}')
				goto bad;
			break;
		}
	jws(&c);
	if (*c.p == '\0')
		return 0;
bad:
	for (int i = 0; i < 3; i++) {
		free(*dst[i]);
		*dst[i] = NULL;
	}
	return -1;
}

/* ---- the environments and what is never printed ----------------------- */

/* name's value in env, as the platform compares names (os_env_get). */
static const char *
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
static int
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
static char *
redact(const struct wt *w, const char *s)
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

/* Where one git call works: the repository (gitdir NULL) or a tree. */
struct gplace {
	const char *gitdir, *worktree;
};

/* git <args...> in the directory cwd_fd, with git's environment, its
 * commands disarmed and its directories named (never discovered): the
 * repository's, or the tree's of p.  args[0] is "git". */
static int
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
static int
git(struct wt *w, int cwd_fd, unsigned ms, struct toolres *res,
    char *const *args)
{
	return git_at(w, NULL, cwd_fd, ms, res, args);
}

/* The first line of a program's stderr, redacted, for a refusal text. */
static char *
first_line(const struct wt *w, const struct toolres *res)
{
	const char *e = sbuf_str(&res->err);
	const char *nl = strchr(e, '\n');
	char *one = nl ? str_fmt("%.*s", (int)(nl - e), e) : str_fmt("%s", e);
	char *r = one ? redact(w, one) : NULL;

	free(one);
	return r;
}

/* stdout without its trailing newline, when the run exited 0: 0; -1 it
 * did not, -2 git could not be started (errno).  On the repository (p
 * NULL) or a tree. */
static int
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

/* ---- validation ---------------------------------------------------------- */

static void
check_pr(struct wt *w, struct refusals *r)
{
	const struct wtargs *a = &w->a;

	if (a->prune && (a->pr != NULL || a->valueless[2])) {
		refusals_add(r, REASON_BAD_PR, "--pr and --prune are two modes: "
			     "name one");
		return;
	}
	if (a->prune)
		return;
	if (a->pr == NULL || parse_u64(a->pr, WT_PR_MAX, &w->id) != 0 ||
	    w->id == 0)
		refusals_add(r, REASON_BAD_PR, "--pr wants one pull-request "
			     "number above 0%s%s", a->pr ? ", got " : "",
			     a->pr ? a->pr : "");
}

static void
check_base(struct wt *w, struct refusals *r)
{
	if (w->a.valueless[3] || (w->a.base != NULL && !branch_ok(w->a.base)))
		refusals_add(r, REASON_BAD_BASE, "--base wants a branch name "
			     "(no leading '-', no space, control character or "
			     "~^:?*[\\, no \"..\"), got %s",
			     w->a.base ? w->a.base : "no value");
}

/* A gitfile's text ("gitdir: <dir>", one line) read from fd: the
 * directory it names (heap), or NULL when it is not one. */
static char *
gitfile_read(int fd)
{
	char buf[WT_RECORD_MAX + 1];
	struct os_stat st;
	ssize_t n;
	size_t len;

	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX || (n = read(fd, buf, WT_RECORD_MAX)) < 0)
		return NULL;
	buf[n] = '\0';
	len = (size_t)n;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (strncmp(buf, "gitdir: ", 8) != 0 || len <= 8 ||
	    strlen(buf) != len || strpbrk(buf, "\n\r") != NULL)
		return NULL;
	return str_fmt("%s", buf + 8);
}

/* The repository's git directory, named by its .git as git would find
 * it there (a directory, or a gitfile as a linked tree or a submodule
 * has; a link is never followed), never by git's discovery: 0, or -1
 * with the refusal added. */
static int
repo_gitdir(struct wt *w, struct refusals *r)
{
	struct os_stat st;
	char *named = NULL;
	int fd;

	if (os_fstat_at(w->repo.fd, ".git", &st) == 0 && S_ISDIR(st.mode)) {
		w->gitdir = str_fmt("%s/.git", w->repo.path);
	} else if (os_fstat_at(w->repo.fd, ".git", &st) == 0 &&
		   S_ISREG(st.mode) &&
		   (fd = os_open_read_at(w->repo.fd, ".git", 0)) >= 0) {
		named = gitfile_read(fd);
		close(fd);
		if (named != NULL)
			w->gitdir = os_is_absolute(named) ?
				str_fmt("%s", named) :
				str_fmt("%s/%s", w->repo.path, named);
	}
	free(named);
	if (w->gitdir != NULL)
		return 0;
	refusals_add(r, REASON_BAD_REPO, "--repo wants an existing repository "
		     "named by an absolute path: git does not call %s a work "
		     "tree: its .git is neither a directory nor a gitfile "
		     "(\"gitdir: <dir>\"; a link is never followed)", w->a.repo);
	return -1;
}

/* Every filter driver git's configuration defines where a call works (the
 * repository's, or a tree's: an includeIf may differ), added to those
 * disarmed on every later call: a tree's .gitattributes names which one
 * runs on which file, and the tree is the job's. */
static int
git_filters(struct wt *w, const struct gplace *pl)
{
	char *args[] = { "git", "config", "-z", "--name-only", "--get-regexp",
			 "^filter\\.", NULL };
	struct toolres res;
	const char *p, *end, *last;
	int rc = -1;

	if (git_at(w, pl, w->repo.fd, w->call_ms, &res, args) != 0 ||
	    (res.status != 0 && res.status != 1) || sbuf_failed(&res.out) ||
	    res.truncated)
		goto out;
	p = sbuf_str(&res.out);
	end = p + res.out.len;
	for (; p < end; p += strlen(p) + 1) {
		char *drv;

		last = strrchr(p, '.');
		if (strncmp(p, "filter.", 7) != 0 || last == NULL ||
		    last <= p + 7)
			continue;
		drv = str_fmt("%.*s", (int)(last - p - 7), p + 7);
		if (drv != NULL && !strv_contains(&w->filters, drv))
			strv_push(&w->filters, drv);
		free(drv);
	}
	rc = strv_failed(&w->filters) ? -1 : 0;
out:
	toolres_free(&res);
	return rc;
}

/* The repository's work tree and common directory, asked of git with its
 * directories named: "true", then the common directory. */
static int
repo_common(struct wt *w, char *out, size_t n)
{
	char *args[] = { "git", "rev-parse", "--is-inside-work-tree",
			 "--path-format=absolute", "--git-common-dir", NULL };
	char *nl;
	int rc = git_line(w, NULL, w->repo.fd, args, out, n);

	if (rc != 0)
		return rc;
	nl = strchr(out, '\n');
	if (nl == NULL || strncmp(out, "true\n", 5) != 0 || nl[1] == '\0')
		return -1;
	w->common = str_fmt("%s", nl + 1);
	if (w->common == NULL)
		return -1;
	w->commonfd = os_open_dir(w->common);
	return w->commonfd >= 0 ? 0 : -1;
}

static void
check_repo(struct wt *w, struct refusals *r)
{
	char out[WT_RECORD_MAX];
	int rc;

	if (w->a.repo == NULL || !os_is_absolute(w->a.repo)) {
		refusals_add(r, REASON_BAD_REPO, "--repo wants an existing "
			     "repository named by an absolute path%s%s",
			     w->a.repo ? ", got " : "",
			     w->a.repo ? w->a.repo : "");
		return;
	}
	rc = path_resolve("--repo", REASON_BAD_REPO, w->a.repo, os_euid(),
			  PATH_READ_BACK, &w->repo, NULL, r);
	if (rc != 0)
		return;
	if (w->git.fd < 0) {
		refusals_add(r, REASON_BAD_REPO, "--repo %s cannot be read: git "
			     "is on no absolute PATH entry; install git",
			     w->a.repo);
		return;
	}
	if (repo_gitdir(w, r) != 0)
		return;
	rc = repo_common(w, out, sizeof(out));
	if (rc == 0 && git_filters(w, NULL) != 0)
		rc = -1;
	if (rc == -2)
		refusals_add(r, REASON_BAD_REPO, "--repo %s cannot be read: git "
			     "(%s) could not be started: %s%s", w->a.repo,
			     w->git.path, strerror(errno), errno == ENOEXEC ?
			     " (a batch file or script the system cannot "
			     "start is never run)" : "");
	else if (rc != 0)
		refusals_add(r, REASON_BAD_REPO, "--repo wants an existing "
			     "repository named by an absolute path: git does "
			     "not call %s a work tree (or its common git "
			     "directory could not be opened)", w->a.repo);
}

static void
check_scratch(struct wt *w, struct refusals *r)
{
	if (w->a.scratch == NULL || !os_is_absolute(w->a.scratch)) {
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch wants an existing "
			     "directory named by an absolute path and is not "
			     "created%s%s", w->a.scratch ? ", got " : "",
			     w->a.scratch ? w->a.scratch : "");
		return;
	}
	path_resolve("--scratch", REASON_BAD_SCRATCH, w->a.scratch, os_euid(),
		     PATH_READ_BACK, &w->scratch, NULL, r);
}

/* ---- refusals ------------------------------------------------------------ */

/* Every refusal of r printed, its text redacted first (a word of the
 * caller's argv may hold a token too), then the remedy line. */
static int
refuse_all(const struct wt *w, struct refusals *r, char **argv)
{
	wall_fd_keep(r, "worktree", argv + 1);
	wall_fd_cause(r); /* out of descriptors: the one cause */
	for (size_t i = 0; !refusals_failed(r) && i < r->n; i++) {
		char *safe = redact(w, r->v[i].text);

		if (safe == NULL) {
			refusals_oom(r);
			break;
		}
		free(r->v[i].text);
		r->v[i].text = safe;
	}
	out_refusals(stderr, "WORKTREE", r, WT_HELP, 0);
	out_line(stderr, "%s", WT_REMEDY);
	return NS_EXIT_USAGE;
}

/* One refusal after validation: the text redacted, then the remedy line. */
static int
refuse_one(const struct wt *w, const char *tok, const char *remedy,
	   const char *text)
{
	char *safe = redact(w, text ? text : "out of memory");

	out_refused("WORKTREE", tok, safe ? safe : "out of memory", NULL);
	out_line(stderr, "%s", remedy);
	free(safe);
	return NS_EXIT_USAGE;
}

static void
note(const struct wt *w, const char *text)
{
	char *safe = redact(w, text ? text : "out of memory");

	out_note("WORKTREE", safe ? safe : "out of memory");
	free(safe);
}

/* ---- the forge ----------------------------------------------------------- */

/* origin as the repository's config names it (not rewritten by insteadOf:
 * the forge is named by what the caller configured).  The first of
 * several, as fetch uses. */
static int
origin_url(struct wt *w, char **url)
{
	char *args[] = { "git", "config", "-z", "--get-all",
			 "remote.origin.url", NULL };
	struct toolres res;
	int rc = -1;

	*url = NULL;
	if (git(w, w->repo.fd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out))
		*url = str_fmt("%s", sbuf_str(&res.out)); /* up to the NUL */
	else if (res.status == 1)
		*url = str_fmt("%s", "");
	rc = *url ? 0 : -1;
	toolres_free(&res);
	return rc;
}

static int
gh_not_found(const struct toolres *res)
{
	char *low = str_fmt("%s", sbuf_str(&res->err));
	int hit;

	if (low == NULL)
		return 0;
	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	hit = strstr(low, "not found") != NULL ||
	      strstr(low, "could not resolve to a pullrequest") != NULL ||
	      strstr(low, "no pull requests found") != NULL;
	free(low);
	return hit;
}

/* Ask gh about pull request id of repo on; *why a sentence for the
 * refusal (heap). */
static enum forge_rc
gh_pr(struct wt *w, const char *on, unsigned long long id,
      struct prinfo *pi, char **why)
{
	char num[32], *head = NULL;
	char *args[] = { "gh", "pr", "view", num, "--repo", (char *)on,
			 "--json", "headRefOid,baseRefName,state", NULL };
	struct toolres res;
	enum forge_rc rc = FG_NO_FORGE;

	snprintf(num, sizeof(num), "%llu", id);
	if (w->gh.fd < 0) {
		*why = str_fmt("gh is on no absolute PATH entry: the forge "
			       "cannot be asked");
		return FG_NO_FORGE;
	}
	if (tool_run(&w->gh, w->repo.fd, args, w->ghenv.v, w->call_ms,
		     &res) != 0)
		*why = str_fmt("gh could not be started: %s", strerror(errno));
	else if (res.timed_out)
		*why = str_fmt("gh did not answer within %u s", w->call_ms / 1000);
	else if (res.status != 0 && gh_not_found(&res))
		rc = FG_NO_PR, *why = str_fmt("the forge does not know pull "
					      "request %llu of %s", id, on);
	else if (res.status != 0)
		*why = str_fmt("the forge could not be reached (gh exited %d)",
			       res.status);
	else if (sbuf_failed(&res.out) || res.truncated ||
		 worktree_parse_pr(sbuf_str(&res.out), &head, &pi->base,
				   &pi->state) != 0)
		*why = str_fmt("gh answered something that is not the JSON "
			       "asked for");
	else if (head == NULL || !is_hex_lower(head, WT_HEAD_LEN))
		rc = FG_BAD_HEAD, *why = str_fmt("the forge reported a head "
			"that is not forty lowercase hex characters, and the "
			"head reads %.80s", head ? head : "nothing");
	else
		rc = FG_OK, memcpy(pi->head, head, WT_HEAD_LEN + 1);
	free(head);
	toolres_free(&res);
	return rc;
}

/* owner/name from origin, into *on; FG_BAD_ORIGIN with *why. */
static enum forge_rc
forge_repo(struct wt *w, char **on, char **why)
{
	char *url = NULL;

	*on = NULL;
	if (origin_url(w, &url) != 0)
		return FG_OOM;
	*on = worktree_owner_name(url);
	if (*on == NULL)
		*why = str_fmt("--repo wants an origin remote whose path names "
			       "<owner>/<name>, and origin reads %s",
			       url[0] ? url : "nothing (no origin remote)");
	free(url);
	return *on ? FG_OK : FG_BAD_ORIGIN;
}

static const char *const forge_tok[] = {
	[FG_NO_PR] = REASON_NO_PR, [FG_NO_FORGE] = REASON_NO_FORGE,
	[FG_BAD_ORIGIN] = REASON_BAD_ORIGIN, [FG_BAD_HEAD] = REASON_BAD_HEAD,
	[FG_OOM] = REASON_SANDBOX_FAILED,
};

static int
refuse_forge(const struct wt *w, enum forge_rc rc, char *why)
{
	int code = refuse_one(w, forge_tok[rc],
			      rc == FG_NO_PR || rc == FG_NO_FORGE ? WT_RETRY :
			      WT_REMEDY, why);

	free(why);
	return code;
}

/* ---- the scratch: records, trees, deletion ---------------------------- */

static char *
tree_path(const struct wt *w, const char *guid)
{
	return str_fmt("%s/%s", w->scratch.path, guid);
}

/* The record <id>.pr: its guid (32 lowercase hex) into guid.  0, or -1
 * there is none that is whole. */
static int
record_read(const struct wt *w, unsigned long long id, char *guid)
{
	char name[40], buf[WT_RECORD_MAX + 1], *line, *save = NULL;
	struct os_stat st;
	ssize_t n;
	int fd, rc = -1;

	snprintf(name, sizeof(name), "%llu.pr", id);
	fd = os_open_read_at(w->scratch.fd, name, 0); /* no link, no FIFO */
	if (fd < 0)
		return -1;
	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX ||
	    (n = read(fd, buf, WT_RECORD_MAX)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "guid=", 5) == 0 &&
		    is_hex_lower(line + 5, WT_GUID_LEN)) {
			memcpy(guid, line + 5, WT_GUID_LEN + 1);
			rc = 0;
		}
	return rc;
}

static int
new_guid(char *guid)
{
	unsigned char b[WT_GUID_LEN / 2];

	if (os_random_bytes(b, sizeof(b)) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(guid + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* Write <id>.pr whole or not at all: a new file, then renamed over. */
static int
record_write(const struct wt *w, const char *guid, const char *base,
	     const char *head)
{
	char tmp[80], name[40], rnd[WT_GUID_LEN + 1];
	struct sbuf b = {0};
	char *fb = out_field(base && *base ? base : "-");
	int fd, ok;

	snprintf(name, sizeof(name), "%llu.pr", w->id);
	if (new_guid(rnd) != 0 || fb == NULL) {
		free(fb);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), ".%s.%s", name, rnd);
	sbuf_addf(&b, "guid=%s\nbase=%s\nhead=%s\npid=%ld\n", guid, fb, head,
		  (long)getpid());
	free(fb);
	/* a new name (128 random bits): nothing there to truncate */
	fd = os_create_at(w->scratch.fd, tmp, 0644);
	ok = fd >= 0 && !sbuf_failed(&b) && os_fchmod(fd, 0644) == 0 &&
	     write(fd, b.s, b.len) == (ssize_t)b.len && os_fsync(fd) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	if (ok)
		ok = os_replace_at(w->scratch.fd, tmp, name) == 0;
	if (!ok && fd >= 0)
		os_unlink_at(w->scratch.fd, tmp, 0);
	sbuf_free(&b);
	return ok ? 0 : -1;
}

/* Where a deletion may go: the scratch's device and mount. */
struct rmroot {
	uint64_t dev;
	unsigned long long mnt;
	int has_mnt;
};

static int rm_at(int parent, const char *name, const struct rmroot *top,
		 int depth);

static int
keep_name(void *arg, const char *name)
{
	return strv_push(arg, name) < 0 ? -1 : 0;
}

/* Every entry of the directory open on fd, listed first, then each
 * removed (all are tried; -1 when one could not be). */
static int
rm_entries(int fd, const struct rmroot *top, int depth)
{
	struct strv names = {0};
	int rc = os_dir_names(fd, NULL, keep_name, &names);

	if (rc == 0 && strv_failed(&names)) {
		errno = ENOMEM;
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < names.n; i++)
		if (rm_at(fd, names.v[i], top, depth + 1) != 0)
			rc = -1;
	strv_free(&names);
	return rc;
}

/* Remove the entry name of parent: a file or link is unlinked (a link is
 * never followed; Windows: a reparse point, a junction or a mounted
 * volume too, is removed as itself), a directory emptied through its own
 * descriptor first; a directory on another device or mount is never
 * entered. */
static int
rm_at(int parent, const char *name, const struct rmroot *top, int depth)
{
	struct os_stat st, fst;
	unsigned long long mnt;
	int fd, rc;

	if (os_fstat_at(parent, name, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.mode))
		return os_unlink_at(parent, name, 0) == 0 || errno == ENOENT ?
			       0 : -1;
	if (depth > WT_RM_DEPTH) {
		errno = ELOOP; /* said as "nested too deep" by the caller */
		return -1;
	}
	if (st.dev != top->dev) {
		errno = EXDEV;
		return -1;
	}
	fd = os_open_read_at(parent, name, 1);
	if (fd < 0 && errno == EACCES && st.uid == os_euid() &&
	    os_fchmod_at(parent, name, (st.mode & 07777) | 0700) == 0)
		fd = os_open_read_at(parent, name, 1); /* a job's chmod 000 */
	if (fd < 0)
		return -1;
	if (os_fstat(fd, &fst) != 0 || fst.dev != st.dev || fst.ino != st.ino) {
		close(fd);
		errno = EAGAIN; /* replaced while looked at */
		return -1;
	}
	if (top->has_mnt && (os_mount_id(fd, &mnt) != 0 || mnt != top->mnt)) {
		close(fd);
		errno = EXDEV; /* a mount point, a bind mount too */
		return -1;
	}
	if ((fst.mode & 0700) != 0700 && fst.uid == os_euid())
		os_fchmod(fd, (fst.mode & 07777) | 0700);
	rc = rm_entries(fd, top, depth);
	close(fd);
	if (rc == 0 && os_unlink_at(parent, name, 1) != 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

/* A tree that could not be deleted (nested deeper than WT_RM_DEPTH, an
 * entry the user may not remove): renamed aside within the scratch, so
 * that the pull request's tree can be made again, and said.  A tree on
 * another device or with a mount in it stays (EXDEV): 0, or -1 with *why
 * (heap). */
static int
move_aside(struct wt *w, const char *guid, const char *path, char **why)
{
	int e = errno;
	char rnd[WT_GUID_LEN + 1], aside[WT_GUID_LEN * 2 + 16];
	char *t;

	if (e == EXDEV || new_guid(rnd) != 0) {
		*why = str_fmt("%s could not be deleted: %s", path, e == EXDEV ?
			       "it holds a mount or another device's "
			       "directory, which is never entered" :
			       strerror(e));
		return -1;
	}
	snprintf(aside, sizeof(aside), ".nova-stuck-%s-%.8s", guid, rnd);
	if (os_rename_at(w->scratch.fd, guid, aside) != 0) {
		*why = str_fmt("%s could not be deleted (%s) nor moved aside: "
			       "%s", path, e == ELOOP ? "nested deeper than "
			       "512 directories" : strerror(e),
			       strerror(errno));
		return -1;
	}
	t = str_fmt("%s could not be deleted (%s): moved aside to %s/%s, "
		    "remove it by hand (rm -rf)", path, e == ELOOP ? "nested "
		    "deeper than 512 directories" : strerror(e),
		    w->scratch.path, aside);
	note(w, t);
	free(t);
	return 0;
}

/* Take the tree <scratch>/<guid> away: its directory, below the scratch's
 * descriptor, then git's record of it.  *why on failure (heap). */
static int
tree_remove(struct wt *w, const char *guid, char **why)
{
	struct os_stat sst;
	struct rmroot top;
	char *path = tree_path(w, guid);
	char *args[] = { "git", "worktree", "remove", "--force", "--", path,
			 NULL };
	struct toolres res;
	int rc;

	*why = NULL;
	if (path == NULL || os_fstat(w->scratch.fd, &sst) != 0) {
		free(path);
		return -1;
	}
	top.dev = sst.dev;
	top.has_mnt = os_mount_id(w->scratch.fd, &top.mnt) == 0;
	if (rm_at(w->scratch.fd, guid, &top, 0) != 0 &&
	    move_aside(w, guid, path, why) != 0) {
		free(path);
		return -1;
	}
	/* the directory is gone: git only forgets its record of it */
	rc = git(w, w->repo.fd, w->call_ms, &res, args);
	toolres_free(&res);
	free(path);
	(void)rc; /* a record git keeps is one `git worktree prune` drops */
	return 0;
}

/* Is the tree <scratch>/<guid> in use?  Its lock (os_dir_lock_at: a
 * flock held shared by a job that works in it; taken here exclusively and
 * kept in *lockfd while the tree is removed; Windows has none), or a
 * process whose working directory or root is in it (os_dir_in_use_at).
 * id is the tree's identity when it was looked at: a lock taken on
 * another directory is "in use".  The caller holds no descriptor of the
 * tree.  1 in use (or cannot tell), 0 not. */
static int
tree_in_use(const struct wt *w, const char *guid, const struct os_stat *id,
	    int *lockfd)
{
	struct os_stat now;
	unsigned unseen = 0;

	if (os_dir_lock_at(w->scratch.fd, guid, lockfd) < 0)
		return 1;
	if (*lockfd >= 0 && (os_fstat(*lockfd, &now) != 0 ||
			     now.dev != id->dev || now.ino != id->ino))
		return 1; /* replaced since it was looked at */
	return os_dir_in_use_at(w->scratch.fd, guid, &unseen) != 0;
}

/* ---- materialise ----------------------------------------------------------- */

/* The paths of `git worktree list --porcelain -z`. */
static int
worktrees(struct wt *w, struct strv *out)
{
	char *args[] = { "git", "worktree", "list", "--porcelain", "-z", NULL };
	struct toolres res;
	const char *p, *end;
	int rc = -1;

	if (git(w, w->repo.fd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out) && !res.truncated) {
		p = res.out.s ? res.out.s : "";
		end = p + res.out.len;
		for (; p < end; p += strlen(p) + 1)
			if (strncmp(p, "worktree ", 9) == 0)
				strv_push(out, p + 9);
		rc = strv_failed(out) ? -1 : 0;
	}
	toolres_free(&res);
	return rc;
}

/* Is the file open on fd the object at path (links followed)? */
static int
same_object(int fd, const char *path)
{
	struct os_stat a, b;

	return os_fstat(fd, &a) == 0 && os_stat_path(path, &b) == 0 &&
	       a.dev == b.dev && a.ino == b.ino;
}

/* The tree's own git directory, checked before any git call on the tree:
 * its .git is a regular file (never a link) naming exactly the
 * repository's <common>/worktrees/<name> (by identity), and that
 * directory's gitdir names this .git back (by identity).  Everything else
 * in a tree is the job's to write.  0 with *gd the directory (heap), or
 * -1 with *why what was found (heap; NULL when out of memory). */
static int
tree_gitdir(struct wt *w, int tfd, char **gd, char **why)
{
	struct os_stat st;
	char *named = NULL, *back = NULL;
	const char *name;
	int gfd = -1, wfd = -1, nfd = -1, bfd = -1, rc = -1;

	*gd = *why = NULL;
	if (os_fstat_at(tfd, ".git", &st) != 0 || !S_ISREG(st.mode) ||
	    (gfd = os_open_read_at(tfd, ".git", 0)) < 0) {
		*why = str_fmt("its .git is not a regular file (a link, a "
			       "directory, or missing)");
		goto out;
	}
	if ((named = gitfile_read(gfd)) == NULL) {
		*why = str_fmt("its .git is not one line \"gitdir: <dir>\"");
		goto out;
	}
	name = os_last_sep(named);
	name = name != NULL ? name + 1 : named;
	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    (wfd = os_walk_at(w->commonfd, "worktrees", 1)) < 0 ||
	    (nfd = os_walk_at(wfd, name, 1)) < 0 || !same_object(nfd, named)) {
		*why = str_fmt("its .git names %s, not a git directory of the "
			       "repository's %s/worktrees", named, w->common);
		goto out;
	}
	if ((bfd = os_open_read_at(nfd, "gitdir", 0)) < 0 ||
	    os_fstat(bfd, &st) != 0 || !S_ISREG(st.mode) ||
	    st.size > WT_RECORD_MAX || (back = calloc(1, WT_RECORD_MAX + 1)) == NULL ||
	    read(bfd, back, WT_RECORD_MAX) < 0) {
		*why = str_fmt("the repository's %s/worktrees/%s has no "
			       "readable gitdir", w->common, name);
		goto out;
	}
	back[strcspn(back, "\r\n")] = '\0';
	if (!same_object(gfd, back)) {
		*why = str_fmt("the repository's %s/worktrees/%s belongs to "
			       "another tree (%s)", w->common, name, back);
		goto out;
	}
	*gd = str_fmt("%s/worktrees/%s", w->common, name);
	rc = *gd != NULL ? 0 : -1;
out:
	if (gfd >= 0)
		close(gfd);
	if (wfd >= 0)
		close(wfd);
	if (nfd >= 0)
		close(nfd);
	if (bfd >= 0)
		close(bfd);
	free(named);
	free(back);
	return rc;
}

/* ---- what a reused tree may hold ------------------------------------- */

/* The submodules' paths (gitlinks, mode 160000) of the tree's index. */
static int
gitlinks(struct wt *w, const struct gplace *p, int tfd, struct strv *out)
{
	char *args[] = { "git", "ls-files", "--stage", "-z", NULL };
	struct toolres res;
	const char *e, *end, *tab;
	int rc = -1;

	if (git_at(w, p, tfd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out) && !res.truncated) {
		e = sbuf_str(&res.out);
		end = e + res.out.len;
		for (; e < end; e += strlen(e) + 1)
			if (strncmp(e, "160000 ", 7) == 0 &&
			    (tab = strchr(e, '\t')) != NULL)
				strv_push(out, tab + 1);
		rc = strv_failed(out) ? -1 : 0;
	}
	toolres_free(&res);
	return rc;
}

struct cleanlevel {
	int fd;                   /* the directory, open to list it */
	const char *rel;          /* its path below the tree ("" the top) */
	int depth;
	size_t n;                 /* its entries */
	const struct strv *links; /* the submodules' paths */
	char **found;             /* what was found (heap) */
};

static int clean_one(void *arg, const char *name);

/* A directory below the tree: not writable by others, no set-id or sticky
 * bit, not too deep, empty exactly when it is a submodule's path. */
static int
clean_sub(const struct cleanlevel *lv, const char *name, const char *rel,
	  const struct os_stat *st)
{
	struct cleanlevel in = { -1, rel, lv->depth + 1, 0, lv->links,
				 lv->found };
	struct os_stat fst;
	int link = strv_contains(lv->links, rel), rc;

	if (st->mode & 07022) {
		*lv->found = str_fmt("%s is a directory writable by others or "
				     "with a set-id or sticky bit", rel);
		return 1;
	}
	if (in.depth > WT_RM_DEPTH) {
		*lv->found = str_fmt("%s is nested deeper than %d directories",
				     rel, WT_RM_DEPTH);
		return 1;
	}
	in.fd = os_open_read_at(lv->fd, name, 1);
	if (in.fd < 0 || os_fstat(in.fd, &fst) != 0 || fst.dev != st->dev ||
	    fst.ino != st->ino) {
		*lv->found = str_fmt("%s cannot be listed", rel);
		if (in.fd >= 0)
			close(in.fd);
		return 1;
	}
	rc = os_dir_names(in.fd, NULL, clean_one, &in);
	close(in.fd);
	if (rc != 0) {
		if (*lv->found == NULL)
			*lv->found = str_fmt("%s cannot be listed", rel);
		return 1;
	}
	if (in.n == 0 && !link)
		*lv->found = str_fmt("%s is an empty directory (git makes "
				     "none)", rel);
	else if (in.n > 0 && link)
		*lv->found = str_fmt("%s, a submodule's path, holds files", rel);
	return *lv->found != NULL;
}

/* One entry: a regular file or a link (never followed), a directory as
 * clean_sub says; no .git below the top (git run there would obey it), no
 * FIFO, socket or device.  Nonzero stops the listing. */
static int
clean_one(void *arg, const char *name)
{
	struct cleanlevel *lv = arg;
	struct os_stat st;
	char *rel;
	int rc = 0;

	lv->n++;
	if (lv->depth == 0 && strcmp(name, ".git") == 0)
		return 0; /* the gitfile tree_gitdir checked */
	rel = lv->rel[0] ? str_fmt("%s/%s", lv->rel, name) :
			   str_fmt("%s", name);
	if (rel == NULL) {
		*lv->found = str_fmt("out of memory");
		return 1;
	}
	if (strcmp(name, ".git") == 0)
		*lv->found = str_fmt("%s is a git directory or file below the "
				     "top: git run there would obey it", rel);
	else if (os_fstat_at(lv->fd, name, &st) != 0)
		*lv->found = str_fmt("%s cannot be looked at", rel);
	else if (S_ISDIR(st.mode))
		rc = clean_sub(lv, name, rel, &st);
	else if (!S_ISREG(st.mode) && !OS_S_ISLNK(st.mode))
		*lv->found = str_fmt("%s is a FIFO, socket or device", rel);
	else if (strv_contains(lv->links, rel))
		*lv->found = str_fmt("%s, a submodule's path, is not a "
				     "directory", rel);
	free(rel);
	return rc || *lv->found != NULL;
}

/* Nothing in the tree but what git checks out, looked at beneath its
 * descriptor before git is asked whether it is clean (git does not list
 * a .git below the top, a submodule's contents under
 * --ignore-submodules, an empty directory, a FIFO): 0, or -1 with *found. */
static int
tree_clean(int tfd, const struct strv *links, char **found)
{
	struct cleanlevel top = { -1, "", 0, 0, links, found };
	struct os_stat st;
	int rc;

	if (os_fstat(tfd, &st) != 0 || (st.mode & 07022)) {
		*found = str_fmt("the tree is writable by others or has a "
				 "set-id or sticky bit");
		return -1;
	}
	top.fd = os_dir_reopen(tfd);
	if (top.fd < 0) {
		*found = str_fmt("the tree cannot be listed");
		return -1;
	}
	rc = os_dir_names(top.fd, NULL, clean_one, &top);
	close(top.fd);
	if (rc != 0 && *found == NULL)
		*found = str_fmt("the tree cannot be listed");
	return rc != 0 ? -1 : 0;
}

/* Reuse: the tree's own git directory checked (tree_gitdir; when it
 * fails, *found says what was found, for a NOTE), then every git call on
 * it names that directory and the tree: the repository lists it, it is at
 * head, with nothing changed, untracked or ignored in it (submodules not
 * entered: a submodule's .git in a tree is the job's too). */
static int
reusable(struct wt *w, int tfd, const char *path, const char *head,
	 char **found)
{
	char *rev[] = { "git", "rev-parse", "--verify", "HEAD", NULL };
	char *st[] = { "git", "status", "--porcelain", "-z",
		       "--untracked-files=all", "--ignored",
		       "--ignore-submodules=all", NULL };
	struct strv list = {0}, links = {0};
	struct toolres res;
	struct gplace p;
	char now[WT_HEAD_LEN + 8], *gd;
	int ok;

	if (tree_gitdir(w, tfd, &gd, found) != 0)
		return 0;
	p.gitdir = gd;
	p.worktree = path;
	if (git_filters(w, &p) != 0 || gitlinks(w, &p, tfd, &links) != 0 ||
	    tree_clean(tfd, &links, found) != 0) {
		strv_free(&links);
		free(gd);
		return 0;
	}
	strv_free(&links);
	ok = worktrees(w, &list) == 0 && strv_contains(&list, path);
	strv_free(&list);
	if (ok && (git_line(w, &p, tfd, rev, now, sizeof(now)) != 0 ||
		   strcmp(now, head) != 0))
		ok = 0;
	if (ok) {
		ok = git_at(w, &p, tfd, w->call_ms, &res, st) == 0 &&
		     res.status == 0 && res.out.len == 0 && res.err.len == 0;
		toolres_free(&res);
	}
	free(gd);
	return ok;
}

/* The files of a tree just added without them: its git directory checked
 * as a reused one's is, the filters its own configuration defines
 * disarmed too (an includeIf on the tree's git directory), then
 * `reset --hard`. */
static int
checkout(struct wt *w, const char *guid, const char *path, char **why)
{
	char *reset[] = { "git", "reset", "--hard", "--quiet", NULL };
	struct toolres res;
	struct gplace p;
	char *gd = NULL, *found = NULL;
	int tfd = os_walk_at(w->scratch.fd, guid, 1), rc = -1;

	if (tfd < 0 || tree_gitdir(w, tfd, &gd, &found) != 0) {
		*why = str_fmt("git made the worktree at %s, but %s", path,
			       found ? found : "it cannot be opened");
		goto out;
	}
	p.gitdir = gd;
	p.worktree = path;
	if (git_filters(w, &p) != 0) {
		*why = str_fmt("git's configuration for the worktree at %s "
			       "could not be read", path);
		goto out;
	}
	rc = git_at(w, &p, tfd, w->fetch_ms, &res, reset);
	if (rc != 0 || res.status != 0) {
		char *e = first_line(w, &res);

		*why = str_fmt("git could not check out the worktree at %s: %s",
			       path, res.timed_out ? "it did not end in time" :
			       e && *e ? e : "git reset --hard failed");
		free(e);
		rc = -1;
	}
	toolres_free(&res);
out:
	if (tfd >= 0)
		close(tfd);
	free(gd);
	free(found);
	return rc;
}

static int
add_tree(struct wt *w, const char *guid, const char *path, const char *head,
	 char **why)
{
	char *fetch[] = { "git", "fetch", "--quiet", "--no-tags",
			  "--no-write-fetch-head", "origin", "--", (char *)head,
			  NULL };
	char *add[] = { "git", "worktree", "add", "--quiet", "--no-checkout",
			"--detach", "--", (char *)path, (char *)head, NULL };
	struct toolres res;
	int rc;

	*why = NULL;
	/* the head may be here already: only a fetch that hung is said */
	rc = git(w, w->repo.fd, w->fetch_ms, &res, fetch);
	if (rc == 0 && res.timed_out)
		*why = str_fmt("git could not make the worktree: fetching %s "
			       "from origin did not end within %u s", head,
			       w->fetch_ms / 1000);
	toolres_free(&res);
	if (*why != NULL)
		return -1;
	rc = git(w, w->repo.fd, w->fetch_ms, &res, add);
	if (rc != 0 || res.status != 0) {
		char *e = first_line(w, &res);

		*why = str_fmt("git could not make the worktree at %s: %s",
			       path, res.timed_out ? "it did not end in time" :
			       e && *e ? e : "git worktree add failed");
		free(e);
		rc = -1;
	}
	toolres_free(&res);
	return rc == 0 ? checkout(w, guid, path, why) : rc;
}

static int
say_ok(const char *path, const char *head)
{
	char *p = out_field(path);

	out_line(stdout, "WORKTREE OK path=%s head=%s", p ? p : "-", head);
	free(p);
	return fflush(stdout) == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
}

/* The recorded tree: reused (1), taken away (0), in use (-1), or it could
 * not be taken away (-2). */
static int
old_tree(struct wt *w, const char *guid, const char *head, char **why)
{
	char *path = tree_path(w, guid);
	struct os_stat id;
	int tfd, lockfd = -1, rc = 0, reuse = 0, seen = 0;

	*why = NULL;
	if (path == NULL)
		return -1;
	/* a job's chmod of the tree itself is undone first: else its lock
	 * and its .git could not be looked at, and it would seem in use */
	if (os_fstat_at(w->scratch.fd, guid, &id) == 0 && S_ISDIR(id.mode) &&
	    id.uid == os_euid() && (id.mode & 0700) != 0700)
		os_fchmod_at(w->scratch.fd, guid, (id.mode & 07777) | 0700);
	tfd = os_walk_at(w->scratch.fd, guid, 1);
	if (tfd >= 0) {
		char *found = NULL;

		reuse = reusable(w, tfd, path, head, &found);
		if (found != NULL) {
			char *t = str_fmt("%s is not reused: %s; it is "
					  "removed and made again", path,
					  found);

			note(w, t);
			free(t);
			free(found);
		}
		seen = os_fstat(tfd, &id) == 0;
		/* closed before its use is asked: on Windows an open
		 * descriptor of the tree counts as one */
		close(tfd);
	}
	if (reuse) {
		rc = 1;
	} else if (tfd >= 0 && (!seen || tree_in_use(w, guid, &id, &lockfd))) {
		*why = str_fmt("%s is not at %s or has changes, and a process "
			       "is working in it (its working directory or "
			       "root is there, or it holds the tree's lock): "
			       "it is not re-made under it", path, head);
		rc = -1;
	} else if (tree_remove(w, guid, why) != 0) {
		rc = -2;
	}
	if (lockfd >= 0)
		close(lockfd);
	free(path);
	return rc;
}

static int
materialise(struct wt *w)
{
	struct prinfo pi = { "", NULL, NULL };
	char guid[WT_GUID_LEN + 1], *on = NULL, *why = NULL, *path = NULL;
	enum forge_rc fr;
	int code, had, old;

	fr = forge_repo(w, &on, &why);
	if (fr == FG_OK)
		fr = gh_pr(w, on, w->id, &pi, &why);
	free(on);
	if (fr != FG_OK) {
		free(pi.base);
		free(pi.state);
		return refuse_forge(w, fr, why);
	}
	had = record_read(w, w->id, guid) == 0;
	old = had ? old_tree(w, guid, pi.head, &why) : 0;
	if (old == 1) {
		path = tree_path(w, guid);
		code = say_ok(path ? path : "-", pi.head);
	} else if (old < 0) {
		code = refuse_one(w, old == -1 ? REASON_TREE_IN_USE :
				  REASON_BAD_SCRATCH, WT_REMEDY, why);
	} else if ((!had && new_guid(guid) != 0) ||
		   (path = tree_path(w, guid)) == NULL) {
		code = refuse_one(w, REASON_SANDBOX_FAILED, WT_REMEDY,
				  "no guid could be made");
	} else if (add_tree(w, guid, path, pi.head, &why) != 0) {
		code = refuse_one(w, REASON_BAD_REPO, WT_REMEDY, why);
	} else if (record_write(w, guid, w->a.base ? w->a.base : pi.base,
				pi.head) != 0) {
		char *t = str_fmt("the record %s/%llu.pr could not be written: "
				  "%s; the tree made for it is taken away again",
				  w->scratch.path, w->id, strerror(errno));

		free(why);
		tree_remove(w, guid, &why); /* no tree without its record */
		code = refuse_one(w, REASON_BAD_SCRATCH, WT_REMEDY, t);
		free(t);
	} else {
		code = say_ok(path, pi.head);
	}
	free(why);
	free(path);
	free(pi.base);
	free(pi.state);
	return code;
}

/* ---- prune ----------------------------------------------------------------- */

struct rec {
	unsigned long long id;
	char guid[WT_GUID_LEN + 1];
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Every <n>.pr of the scratch whose record names a guid, sorted by n. */
/* One entry of the scratch: a record <n>.pr kept in *out. */
struct recs {
	struct wt *w;
	struct rec *v;
	size_t n, cap;
};

static int
take_record(void *arg, const char *name)
{
	struct recs *rs = arg;
	size_t len = strlen(name);
	char num[24];
	struct rec r;

	if (len < 4 || len > 22 || strcmp(name + len - 3, ".pr") ||
	    name[0] == '0')
		return 0;
	snprintf(num, sizeof(num), "%.*s", (int)(len - 3), name);
	if (parse_u64(num, WT_PR_MAX, &r.id) != 0 ||
	    record_read(rs->w, r.id, r.guid) != 0)
		return 0;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct rec *v = realloc(rs->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = r;
	return 0;
}

/* Every <n>.pr of the scratch whose record names a guid, sorted by n. */
static int
records(struct wt *w, struct rec **out, size_t *n)
{
	struct recs rs = { w, NULL, 0, 0 };
	int fd = os_dir_reopen(w->scratch.fd), rc;

	*out = NULL;
	*n = 0;
	if (fd < 0)
		return -1;
	rc = os_dir_names(fd, NULL, take_record, &rs);
	close(fd);
	if (rc != 0) {
		free(rs.v);
		return -1;
	}
	if (rs.n > 0)
		qsort(rs.v, rs.n, sizeof(*rs.v), rec_cmp);
	*out = rs.v;
	*n = rs.n;
	return 0;
}

/* Why the tree of r goes, or NULL: it stays. */
static const char *
prune_reason(struct wt *w, const char *on, const struct rec *r,
	     const struct os_stat *tst, int *lockfd)
{
	struct prinfo pi = { "", NULL, NULL };
	char *why = NULL;
	const char *reason = NULL;

	*lockfd = -1;
	if (on == NULL || gh_pr(w, on, r->id, &pi, &why) != FG_OK) {
		free(why);
		return NULL; /* the forge did not answer: kept */
	}
	free(why);
	if (pi.state != NULL && strcasecmp(pi.state, "merged") == 0)
		reason = "pr_merged";
	else if (pi.state != NULL && strcasecmp(pi.state, "closed") == 0)
		reason = "pr_closed";
	else if (pi.state != NULL && strcasecmp(pi.state, "open") == 0 &&
		 time(NULL) - tst->mtime > WT_STALE_S &&
		 !tree_in_use(w, r->guid, tst, lockfd))
		reason = "stale";
	free(pi.base);
	free(pi.state);
	return reason;
}

/* One recorded tree: 1 removed, 0 kept, -1 chosen but not removed. */
static int
prune_one(struct wt *w, const char *on, const struct rec *r,
	  struct strv *listed)
{
	char *path = tree_path(w, r->guid), *why = NULL, *pf;
	const char *reason;
	struct os_stat tst;
	int tfd, lockfd = -1, rc = 0, seen;

	if (path == NULL || !strv_contains(listed, path)) {
		free(path);
		return 0;
	}
	tfd = os_walk_at(w->scratch.fd, r->guid, 1);
	seen = tfd >= 0 && os_fstat(tfd, &tst) == 0;
	if (tfd >= 0)
		close(tfd); /* before its use is asked (Windows) */
	reason = seen ? prune_reason(w, on, r, &tst, &lockfd) : NULL;
	if (reason != NULL && tree_remove(w, r->guid, &why) == 0) {
		pf = out_field(path);
		out_line(stdout, "WORKTREE REMOVED path=%s reason=%s",
			 pf ? pf : "-", reason);
		free(pf);
		for (size_t i = 0; i < listed->n; i++)
			if (strcmp(listed->v[i], path) == 0)
				listed->v[i][0] = '\0'; /* no longer counted */
		rc = 1;
	} else if (reason != NULL) {
		note(w, why ? why : "a tree chosen for removal could not be "
		     "removed");
		rc = -1;
	}
	free(why);
	if (lockfd >= 0)
		close(lockfd);
	free(path);
	return rc;
}

static size_t
kept_under(const struct wt *w, const struct strv *listed)
{
	size_t n = strlen(w->scratch.path), k = 0;

	for (size_t i = 0; i < listed->n; i++)
		if (strncmp(listed->v[i], w->scratch.path, n) == 0 &&
		    listed->v[i][n] == '/' && listed->v[i][n + 1] != '\0')
			k++;
	return k;
}

static int
prune(struct wt *w)
{
	struct strv listed = {0};
	struct rec *rv = NULL;
	size_t n = 0, removed = 0;
	char *on = NULL, *why = NULL;
	int failed = 0;

	if (worktrees(w, &listed) != 0 || records(w, &rv, &n) != 0) {
		strv_free(&listed);
		free(rv);
		return refuse_one(w, REASON_BAD_REPO, WT_REMEDY, "git could not "
				  "list the repository's worktrees, or the "
				  "scratch could not be read");
	}
	if (n > 0 && forge_repo(w, &on, &why) != FG_OK) {
		char *t = str_fmt("%s: the forge is not asked, every tree is "
				  "kept", why ? why : "origin names no forge");
		note(w, t);
		free(t);
	}
	for (size_t i = 0; i < n; i++) {
		int rc = prune_one(w, on, &rv[i], &listed);

		removed += rc == 1;
		failed |= rc < 0;
	}
	out_line(stdout, "WORKTREE OK removed=%zu kept=%zu", removed,
		 kept_under(w, &listed));
	free(on);
	free(why);
	free(rv);
	strv_free(&listed);
	if (fflush(stdout) != 0)
		return NS_EXIT_USAGE;
	return failed ? NS_EXIT_WORKTREE_LEFT : NS_EXIT_OK;
}

/* ---- the verb -------------------------------------------------------------- */

static int
validate(struct wt *w, int argc, char **argv, struct refusals *r)
{
	struct flagspec spec = wt_spec;
	int n = strip_valueless(argc, argv, &w->a);

	spec.defs = worktree_flags;
	spec.ndefs = worktree_nflags;
	if (flags_parse(&spec, n, argv, &w->a, r) < 0)
		return -1;
	check_pr(w, r);
	check_base(w, r);
	check_repo(w, r);
	check_scratch(w, r);
	return refusals_failed(r) ? -1 : 0;
}

static void
wt_free(struct wt *w)
{
	rpath_free(&w->repo);
	rpath_free(&w->scratch);
	tool_free(&w->git);
	tool_free(&w->gh);
	strv_free(&w->genv);
	strv_free(&w->ghenv);
	strv_free(&w->secrets);
	strv_free(&w->filters);
	free(w->gitdir);
	free(w->common);
	if (w->commonfd >= 0)
		close(w->commonfd);
}

int
verb_worktree(const struct hostrun *hr, int argc, char **argv)
{
	struct refusals r = {0};
	struct wt w;
	const char *pathvar;
	int code;

	if (flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("worktree") == 0 ? NS_EXIT_OK :
						       NS_EXIT_USAGE;
	memset(&w, 0, sizeof(w));
	w.repo.fd = w.repo.dir_fd = w.scratch.fd = w.scratch.dir_fd = -1;
	w.commonfd = -1;
	w.env = hr->env;
	pathvar = env_get(hr->env, "PATH");
	if (build_envs(&w) != 0 || tool_find("git", pathvar, &w.git) < 0 ||
	    tool_find("gh", pathvar, &w.gh) < 0 ||
	    validate(&w, argc - 1, argv + 1, &r) != 0) {
		refusals_oom(&r);
		code = refuse_all(&w, &r, argv);
	} else if (r.n > 0) {
		code = refuse_all(&w, &r, argv);
	} else {
		code = w.a.prune ? prune(&w) : materialise(&w);
	}
	refusals_free(&r);
	wt_free(&w);
	return code;
}
