/* SPDX-License-Identifier: MIT */
/* toolchain.c -- --toolchain discovery (toolchain.h): one table of what
 * each toolchain is asked; each tool found and run through base/tool.c (by
 * descriptor, argv only, its own process group, a deadline). */
#include "policy/toolchain.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/tool.h"

#define MAXARGS 6

enum tq_kind {
	TQ_LINES,     /* each output line is a root */
	TQ_SEARCH,    /* cc -print-search-dirs: install: and =a:b lists */
	TQ_TOOL_HOME, /* not run: the tool's real path, two levels up */
};

struct tquery {
	const char *argv[MAXARGS]; /* argv[0]: the tool, looked up on PATH */
	enum tq_kind kind;
	int required;              /* absent or failing: refused */
};

struct tchain {
	const char *name;
	const char *vars;          /* the caller's variables it is given */
	struct tquery q[3];
};

#define PY_ROOTS "import sys, site\n" \
	"for p in (sys.prefix, sys.base_prefix, " \
	"site.getusersitepackages()): print(p)"
#define NODE_ROOT "const p = require('path'); " \
	"console.log(p.dirname(p.dirname(process.execPath)))"

static const struct tchain chains[] = {
	{ "go", "GOROOT GOPATH GOMODCACHE GOTOOLCHAIN GOENV GOFLAGS", {
		{ { "go", "env", "GOROOT", "GOMODCACHE" }, TQ_LINES, 1 },
	} },
	{ "python", "VIRTUAL_ENV PYTHONHOME PYTHONUSERBASE PYENV_ROOT "
	  "PYENV_VERSION CONDA_PREFIX", {
		{ { "python3", "-c", PY_ROOTS }, TQ_LINES, 1 },
	} },
	{ "node", "NPM_CONFIG_PREFIX npm_config_prefix NVM_DIR NVM_BIN", {
		{ { "node", "-e", NODE_ROOT }, TQ_LINES, 1 },
		{ { "npm", "config", "get", "prefix" }, TQ_LINES, 0 },
	} },
	{ "rust", "CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN", {
		{ { "rustc", "--print", "sysroot" }, TQ_LINES, 1 },
		{ { "cargo" }, TQ_TOOL_HOME, 1 },
		{ { "rustup", "show", "home" }, TQ_LINES, 0 },
	} },
	{ "c", "", {
		{ { "cc", "-print-search-dirs" }, TQ_SEARCH, 1 },
	} },
};

static const struct tchain *
chain_of(const char *name)
{
	for (size_t i = 0; i < sizeof(chains) / sizeof(*chains); i++)
		if (strcmp(chains[i].name, name) == 0)
			return &chains[i];
	return NULL;
}

int
toolchain_check(const struct strv *names, const struct cmdline *line,
		struct refusals *r)
{
	size_t before = r->n;

	for (size_t i = 0; i < names->n; i++)
		if (chain_of(names->v[i]) == NULL &&
		    remedy_refuse(r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT, line,
				  &(struct cmdfix){ "--toolchain", names->v[i],
						    NULL, NULL, 0 },
				  "--toolchain wants " TOOLCHAIN_NAMES ", got "
				  "%s", names->v[i]) < 0)
			return -1;
	return r->n > before;
}

/* PATH, HOME, LC_ALL=C and the chain's own variables of env. */
static int
minimal_env(const struct tchain *c, const char *path, char *const *env,
	    struct strv *out)
{
	const char *vars = c->vars;

	if (strv_pushf(out, "PATH=%s", path ? path : "/usr/bin:/bin") < 0 ||
	    strv_push(out, "LC_ALL=C") < 0)
		return -1;
	for (char *const *e = env; e != NULL && *e != NULL; e++) {
		size_t n = strcspn(*e, "=");
		const char *v = vars;
		int want = n == 4 && strncmp(*e, "HOME", 4) == 0;

		while (!want && *v) {
			size_t k = strcspn(v, " ");

			want = k == n && strncmp(v, *e, n) == 0;
			v += k + (v[k] == ' ');
		}
		if (want && (*e)[n] == '=' && strv_push(out, *e) < 0)
			return -1;
	}
	return strv_failed(out) ? -1 : 0;
}

static int
inside_os_root(const char *p, const char *const *os_roots)
{
	for (size_t i = 0; os_roots != NULL && os_roots[i] != NULL; i++) {
		size_t n = strlen(os_roots[i]);

		if (strncmp(p, os_roots[i], n) == 0 &&
		    (p[n] == '\0' || p[n] == '/' || os_roots[i][n - 1] == '/'))
			return 1;
	}
	return 0;
}

/* One answered path: an existing directory, canonical, once. */
static int
take_root(const char *p, size_t n, const char *const *os_roots,
	  struct toolchain_found *f)
{
	char raw[PATH_MAX], real[PATH_MAX];
	struct stat st;

	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	if (n == 0 || n >= sizeof(raw) || p[0] != '/')
		return 0;
	memcpy(raw, p, n);
	raw[n] = '\0';
	if (realpath(raw, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	if (strv_contains(&f->roots, real) || strv_contains(&f->covered, real))
		return 0;
	return strv_push(inside_os_root(real, os_roots) ? &f->covered :
			 &f->roots, real);
}

static int
take_lines(const char *s, enum tq_kind kind, const char *const *os_roots,
	   struct toolchain_found *f)
{
	while (s != NULL && *s) {
		size_t n = strcspn(s, "\n");
		const char *v = s, *end = s + n;

		if (kind == TQ_SEARCH) {
			/* "install: D" and "libraries: =A:B" */
			const char *c = memchr(s, ':', n);

			v = c ? c + 1 : end;
			while (v < end && (*v == ' ' || *v == '='))
				v++;
		}
		while (v < end) {
			size_t k = kind == TQ_SEARCH ?
			    strcspn(v, ":\n") : (size_t)(end - v);

			if (k > (size_t)(end - v))
				k = (size_t)(end - v);
			if (take_root(v, k, os_roots, f) < 0)
				return -1;
			v += k + 1;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* The tool's real path, two levels up (<home>/bin/<tool>). */
static int
tool_home(const char *tool, const char *const *os_roots,
	  struct toolchain_found *f)
{
	char real[PATH_MAX];
	char *s;

	if (realpath(tool, real) == NULL)
		return 1;
	for (int i = 0; i < 2; i++) {
		if ((s = strrchr(real, '/')) == NULL || s == real)
			return 1;
		*s = '\0';
	}
	return take_root(real, strlen(real), os_roots, f) < 0 ? -1 : 0;
}

static int
refuse_tool(struct refusals *r, const char *name, const char *tool,
	    const char *path, const char *why)
{
	return refusals_addr(r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
			     "--toolchain %s: %s %s%s; install it (or put it "
			     "on PATH), or leave out --toolchain %s and name "
			     "its directories with --read", name, tool, why,
			     path ? path : "", name) < 0 ? -1 : 1;
}

/* Run the found tool t with q's arguments under env (base/tool.c: by
 * descriptor, argv only, its own process group, a deadline): 0 with its
 * output taken, 1 failed, 2 timed out, -1 ENOMEM. */
static int
run_query(const struct tool *t, const struct tquery *q, char *const *env,
	  const char *const *os_roots, struct toolchain_found *f)
{
	char *argv[MAXARGS + 1];
	struct toolres res;
	size_t n = 0;
	int rc;

	argv[n++] = t->path;
	for (size_t i = 1; i < MAXARGS && q->argv[i] != NULL; i++)
		argv[n++] = (char *)q->argv[i];
	argv[n] = NULL;
	if (tool_run(t, -1, argv, env, TOOLCHAIN_TIMEOUT_MS, &res) != 0)
		rc = 1;
	else if (res.timed_out)
		rc = 2;
	else if (res.status != 0 || res.truncated)
		rc = 1;
	else
		rc = take_lines(res.out.s, q->kind, os_roots, f);
	toolres_free(&res);
	return rc;
}

static int
ask(const struct tchain *c, const struct tquery *q, const char *path,
    char *const *env, const char *const *os_roots, struct toolchain_found *f,
    struct refusals *r)
{
	struct tool t = { -1, NULL };
	int rc = tool_find(q->argv[0], path, &t);

	if (rc != 0) {
		tool_free(&t);
		if (rc < 0)
			return -1;
		return q->required ? refuse_tool(r, c->name, q->argv[0], path,
						 "is not on PATH ") : 0;
	}
	if (q->kind == TQ_TOOL_HOME)
		rc = tool_home(t.path, os_roots, f);
	else if ((rc = run_query(&t, q, env, os_roots, f)) > 0)
		rc = q->required ? refuse_tool(r, c->name, t.path, NULL,
					       rc == 2 ?
					       "did not answer within 10 s" :
					       "failed when asked for its "
					       "directories") : 0;
	if (rc >= 0 && f->tool == NULL && q->required) {
		f->tool = t.path;
		t.path = NULL;
	}
	tool_free(&t);
	return rc;
}

int
toolchain_discover(const char *name, const char *path, char *const *env,
		   const char *const *os_roots, struct toolchain_found *f,
		   const struct cmdline *line, struct refusals *r)
{
	const struct tchain *c = chain_of(name);
	size_t before = r->n;
	struct strv menv = {0};
	int rc = 0;

	if (c == NULL)
		return toolchain_check(&(struct strv){ .v = (char **)&name,
						      .n = 1 }, line, r);
	if (minimal_env(c, path, env, &menv) < 0) {
		strv_free(&menv);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < 3 && c->q[i].argv[0] != NULL; i++)
		rc = ask(c, &c->q[i], path, menv.v, os_roots, f, r);
	if (rc == 0 && f->roots.n == 0 && f->covered.n == 0)
		rc = refusals_addr(r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
				   "--toolchain %s: %s named no existing "
				   "directory; name its directories with --read",
				   name, f->tool ? f->tool : name) < 0 ? -1 : 1;
	strv_free(&menv);
	if (rc == 1 && remedy_append(r, before, line, &(struct cmdfix){
		    "--toolchain", name, NULL, NULL, 0 }, NULL) < 0)
		rc = -1;
	if (rc == 0 && (strv_failed(&f->roots) || strv_failed(&f->covered)))
		rc = -1;
	return rc;
}

void
toolchain_found_free(struct toolchain_found *f)
{
	strv_free(&f->roots);
	strv_free(&f->covered);
	free(f->tool);
	f->tool = NULL;
}

char *
toolchain_note(const char *name, const struct toolchain_found *f)
{
	struct sbuf b = {0};

	sbuf_addf(&b, "--toolchain %s (%s) adds the read root(s):", name,
		  f->tool ? f->tool : name);
	for (size_t i = 0; i < f->roots.n; i++)
		sbuf_addf(&b, " %s", f->roots.v[i]);
	if (f->roots.n == 0)
		sbuf_add(&b, " none");
	if (f->covered.n) {
		sbuf_add(&b, "; already readable as OS roots:");
		for (size_t i = 0; i < f->covered.n; i++)
			sbuf_addf(&b, " %s", f->covered.v[i]);
	}
	sbuf_add(&b, "; never a write root");
	return sbuf_failed(&b) ? (sbuf_free(&b), NULL) : sbuf_take(&b);
}
