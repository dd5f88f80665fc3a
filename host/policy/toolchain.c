/* SPDX-License-Identifier: MIT */
/* toolchain.c -- --toolchain discovery (toolchain.h): one table of what
 * each toolchain is asked; each tool found and run through os/tool.h
 * (kept open from the moment it is found, argv only, a tree the deadline
 * ends whole), every file question asked of os/os.h so that discovery is
 * the same on every platform (Windows: ';' in PATH, drive roots,
 * %USERPROFILE% as the home, the temp directory for the private one). */
#include "policy/toolchain.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/tool.h"
#include "os/os.h"
#include "policy/ownfiles.h"
#include "policy/paths.h"
#include "policy/policy.h"
#include "policy/rmtree.h"
#include "policy/tccache.h"
#include "policy/tcdisc.h"

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
	const char *vars;          /* the caller's variables it is given, each
				      only when an absolute path outside every
				      --write */
	const char *fixed;         /* always set, whatever the caller has */
	struct tquery q[TCC_QUERIES];
	int unkept;                /* its answers are never kept (tccache.h):
				      rustup's proxies answer by its settings
				      file, which changes no binary */
};

#define PY_ROOTS "import sys, site\n" \
	"for p in (sys.prefix, sys.base_prefix, " \
	"site.getusersitepackages()): print(p)"
#define NODE_ROOT "const p = require('path'); " \
	"console.log(p.dirname(p.dirname(process.execPath)))"

/* Never passed: GOFLAGS, GOENV, GOTOOLCHAIN, NODE_OPTIONS, PYTHON*: each
 * makes the tool load or run what it names. */
static const struct tchain chains[] = {
	{ "go", "GOROOT GOPATH GOMODCACHE",
	  "GOTOOLCHAIN=local GOENV=off GOFLAGS=", {
		{ { "go", "env", "GOROOT", "GOMODCACHE" }, TQ_LINES, 1 },
	}, 0 },
	{ "python", "VIRTUAL_ENV PYENV_ROOT CONDA_PREFIX", "", {
		{ { "python3", "-I", "-c", PY_ROOTS }, TQ_LINES, 1 },
	}, 0 },
	{ "node", "NPM_CONFIG_PREFIX npm_config_prefix NVM_DIR NVM_BIN",
	  "NPM_CONFIG_USERCONFIG=/dev/null NPM_CONFIG_GLOBALCONFIG=/dev/null", {
		{ { "node", "-e", NODE_ROOT }, TQ_LINES, 1 },
		{ { "npm", "config", "get", "prefix" }, TQ_LINES, 0 },
	}, 0 },
	{ "rust", "CARGO_HOME RUSTUP_HOME", "", {
		{ { "rustc", "--print", "sysroot" }, TQ_LINES, 1 },
		{ { "cargo" }, TQ_TOOL_HOME, 1 },
		{ { "rustup", "show", "home" }, TQ_LINES, 0 },
	}, 1 },
	{ "c", "", "", {
		{ { "cc", "-print-search-dirs" }, TQ_SEARCH, 1 },
	}, 0 },
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

/* ---- the tools' environment and directory -------------------------------- */

/* The caller's PATH without its relative entries and those inside a
 * --write (each said in f->skipped_path). */
static int
safe_path(struct disc *d, struct sbuf *out)
{
	const char *p = d->x->path ? d->x->path : "/usr/bin:/bin";
	char sep[2] = { os_path_list_sep(), '\0' };

	while (*p) {
		size_t n = strcspn(p, sep);
		char *e = str_ndup(p, n), *c;

		if (e == NULL)
			return -1;
		c = os_is_absolute(e) ? tc_canon(e) : NULL;
		if (os_is_absolute(e) && c == NULL) {
			free(e);
			return -1;
		}
		if (c != NULL && tc_in_write(d, c, NULL) >= 0) {
			if (!strv_contains(&d->f->skipped_path, e))
				strv_push(&d->f->skipped_path, e);
		} else if (c != NULL) {
			if (out->len)
				sbuf_add(out, sep);
			sbuf_add(out, e);
		}
		free(c);
		free(e);
		p += n + (p[n] == sep[0]);
	}
	return sbuf_failed(out) || strv_failed(&d->f->skipped_path) ? -1 : 0;
}

/* rustup's toolchain, given only as a plain name (never a path). */
static int
plain_name(const char *v)
{
	return *v && v[0] != '.' &&
	       strspn(v, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") == strlen(v);
}

/* PATH, HOME (the private directory; on Windows also the profile's
 * directories, USERPROFILE and the rest, os_env_profile), LC_ALL=C, what
 * a program needs on this platform (os_env_system: nothing on POSIX),
 * the chain's fixed settings, and of the chain's own variables those the
 * caller has whose value is an absolute path outside every --write;
 * rustup's toolchain only as a plain name.  Variable names are looked up
 * as the platform compares them (os_env_get). */
static int
tool_env(struct disc *d)
{
	struct sbuf path = {0};
	const char *fixed = d->c->fixed, *vars = d->c->vars, *v;
	int rc = safe_path(d, &path);

	if (rc == 0 && (strv_pushf(&d->env, "PATH=%s", path.s ? path.s : "") < 0 ||
			strv_pushf(&d->env, "HOME=%s", d->priv) < 0 ||
			strv_push(&d->env, "LC_ALL=C") < 0))
		rc = -1;
	sbuf_free(&path);
	for (const char *const *n = os_env_profile(); rc == 0 && *n; n++)
		rc = strv_pushf(&d->env, "%s=%s", *n, d->priv) < 0 ? -1 : 0;
	for (const char *const *n = os_env_system(); rc == 0 && *n; n++)
		if ((v = os_env_get(d->x->env, *n)) != NULL)
			rc = strv_pushf(&d->env, "%s=%s", *n, v) < 0 ? -1 : 0;
	while (rc == 0 && *fixed) {
		size_t k = strcspn(fixed, " ");

		if (strv_pushf(&d->env, "%.*s", (int)k, fixed) < 0)
			rc = -1;
		fixed += k + (fixed[k] == ' ');
	}
	if (rc == 0 && strcmp(d->c->name, "rust") == 0 &&
	    (v = os_env_get(d->x->env, "RUSTUP_TOOLCHAIN")) != NULL &&
	    plain_name(v))
		rc = strv_pushf(&d->env, "RUSTUP_TOOLCHAIN=%s", v) < 0 ? -1 : 0;
	while (rc == 0 && *vars) {
		size_t k = strcspn(vars, " ");
		char *name = str_ndup(vars, k), *c;

		vars += k + (vars[k] == ' ');
		if (name == NULL)
			return -1;
		v = os_env_get(d->x->env, name);
		if (v != NULL && os_is_absolute(v)) {
			if ((c = tc_canon(v)) == NULL) {
				free(name);
				return -1;
			}
			if (tc_in_write(d, c, NULL) < 0 &&
			    strv_pushf(&d->env, "%s=%s", name, v) < 0)
				rc = -1;
			free(c);
		}
		free(name);
	}
	return rc < 0 || strv_failed(&d->env) ? -1 : 0;
}

/* A fresh, empty directory nova-toolchain.<random> in base (canonical,
 * outside every --write): 0 made (d->priv, d->priv_fd), 1 not here, -1
 * ENOMEM. */
static int
priv_in(struct disc *d, const char *base)
{
	unsigned char rnd[8];
	char name[40];
	int dfd = os_open_dir(base), rc = 1;

	if (dfd < 0)
		return 1;
	for (int tries = 0; rc == 1 && tries < 16; tries++) {
		if (os_random_bytes(rnd, sizeof(rnd)) != 0)
			break;
		snprintf(name, sizeof(name), "nova-toolchain.%02x%02x%02x%02x"
			 "%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2], rnd[3],
			 rnd[4], rnd[5], rnd[6], rnd[7]);
		if (os_mkdir_at(dfd, name, 0700) != 0) {
			if (errno != EEXIST)
				break;
			continue;
		}
		d->priv = str_fmt("%s%s%s", base, base[strlen(base) - 1] == '/' ?
				  "" : "/", name);
		if (d->priv == NULL) {
			(void)os_unlink_at(dfd, name, 1);
			rc = -1;
			break;
		}
		d->priv_fd = os_walk_at(dfd, name, 1);
		rc = 0;
		if (d->priv_fd < 0) {
			(void)os_unlink_at(dfd, name, 1);
			free(d->priv);
			d->priv = NULL;
			rc = 1;
		}
	}
	close(dfd);
	return rc;
}

/* The private empty directory the tools run in (their HOME too): made
 * under the first of the state directory and the platform's temporary
 * directories (/tmp, /var/tmp; Windows the user's temp directory) that
 * exists and is outside every --write.  0, 1 refused, -1 ENOMEM. */
static int
make_priv(struct disc *d)
{
	const char *const *tmp = os_temp_dirs();

	for (size_t i = 0; i == 0 || tmp[i - 1] != NULL; i++) {
		const char *base = i == 0 ? d->state : tmp[i - 1];
		struct os_stat st;
		char *b;
		int rc;

		if (base == NULL)
			continue;
		if ((b = tc_canon(base)) == NULL)
			return -1;
		rc = os_stat_path(b, &st) != 0 || !S_ISDIR(st.mode) ||
		     tc_in_write(d, b, &st) >= 0 ? 1 : priv_in(d, b);
		free(b);
		if (rc <= 0)
			return rc;
	}
	return refusals_addr(d->r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
			     "--toolchain %s: no directory outside every "
			     "--write to ask its tools in (the state directory "
			     "%s, or a temporary directory); name its "
			     "directories with --read", d->c->name,
			     d->state) < 0 ? -1 : 1;
}

static void
drop_priv(struct disc *d)
{
	char *dir;
	const char *leaf;
	int dfd;

	if (d->priv_fd >= 0)
		close(d->priv_fd);
	d->priv_fd = -1;
	if (d->priv == NULL || (dir = path_dirname(d->priv)) == NULL)
		return;
	leaf = os_last_sep(d->priv) + 1;
	dfd = os_open_dir(dir);
	if (dfd >= 0) {
		(void)rmtree_at(dfd, leaf, 64);
		close(dfd);
	}
	free(dir);
}

/* ---- the answers ---------------------------------------------------------- */

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

/* What the root `real` holds that a read root must not: NULL when
 * nothing ("" for a root, "/" or "C:/": it holds everything). */
static const char *
too_broad(const struct disc *d, const char *real, const char **what)
{
	if (tc_is_root(real))
		return *what = "everything", "";
	if (d->home != NULL && policy_inside(d->home, real))
		return *what = "HOME", d->home;
	for (size_t i = 0; i < d->wcanon.n; i++)
		if (policy_inside(d->wcanon.v[i], real))
			return *what = "--write", d->wcanon.v[i];
	if (d->state != NULL && policy_inside(d->state, real))
		return *what = "the tool's state directory", d->state;
	return NULL;
}

/* One answered path: an existing directory, canonical, once; refused when
 * it is too broad.  0, 1 refused, -1 ENOMEM. */
static int
take_root(struct disc *d, const char *p, size_t n)
{
	const char *held, *what = NULL;
	struct toolchain_found *f = d->f;
	struct os_stat st;
	char *raw, *real;
	int rc;

	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	if (n == 0)
		return 0;
	if ((raw = str_ndup(p, n)) == NULL)
		return -1;
	if (!os_is_absolute(raw)) {
		free(raw);
		return 0;
	}
	real = os_real_path(raw);
	if (real == NULL || os_stat_path(real, &st) != 0 || !S_ISDIR(st.mode)) {
		rc = strv_contains(&f->absent, raw) ? 0 :
		     strv_push(&f->absent, raw);
		free(raw);
		free(real);
		return rc < 0 ? -1 : 0;
	}
	if ((held = too_broad(d, real, &what)) != NULL)
		rc = refusals_addr(d->r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
				   "--toolchain %s: %s answered %s, which "
				   "holds %s%s%s: too broad for a read root; "
				   "leave out --toolchain %s and name its "
				   "directories with --read", d->c->name,
				   d->tool, raw, what, held[0] ? " " : "",
				   held, d->c->name) < 0 ? -1 : 1;
	else if (strv_contains(&f->roots, real) ||
		 strv_contains(&f->covered, real))
		rc = 0;
	else
		rc = strv_push(inside_os_root(real, d->x->os_roots) ?
			       &f->covered : &f->roots, real) < 0 ? -1 : 0;
	free(raw);
	free(real);
	return rc;
}

static int
take_lines(struct disc *d, const char *s, enum tq_kind kind)
{
	int rc = 0;

	while (rc == 0 && s != NULL && *s) {
		size_t n = strcspn(s, "\n");
		const char *v = s, *end = s + n;

		if (kind == TQ_SEARCH) {
			/* "install: D" and "libraries: =A:B" (Windows
			 * "=C:/a;C:/b": the list is PATH's separator) */
			const char *c = memchr(s, ':', n);

			v = c ? c + 1 : end;
			while (v < end && (*v == ' ' || *v == '='))
				v++;
		}
		while (rc == 0 && v < end) {
			char stop[3] = { os_path_list_sep(), '\n', '\0' };
			size_t k = kind == TQ_SEARCH ?
			    strcspn(v, stop) : (size_t)(end - v);

			if (k > (size_t)(end - v))
				k = (size_t)(end - v);
			rc = take_root(d, v, k);
			v += k + 1;
		}
		s = *end ? end + 1 : end;
	}
	return rc;
}

/* The tool's real path, two levels up (<home>/bin/<tool>), never a
 * root. */
static int
tool_home(struct disc *d, const char *tool)
{
	char *real = os_real_path(tool), *s;
	int rc;

	if (real == NULL)
		return 0;
	for (int i = 0; i < 2; i++) {
		s = (char *)os_last_sep(real);
		if (s == NULL || (size_t)(s - real) < os_root_len(real)) {
			free(real);
			return 0;
		}
		*s = '\0';
	}
	rc = take_root(d, real, strlen(real));
	free(real);
	return rc;
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

/* Run the found tool t with q's arguments (os/tool.h: the file kept
 * open, argv only, its tree ended at the deadline), in the private
 * directory with d's environment: 0 with its output taken (and, raw not
 * NULL, a copy of it in *raw: heap, NULL when out of memory), 1 failed or
 * refused, 2 timed out, -1 ENOMEM. */
static int
run_query(struct disc *d, const struct tool *t, const struct tquery *q,
	  char **raw)
{
	char *argv[MAXARGS + 1];
	struct toolres res;
	size_t n = 0;
	int rc;

	argv[n++] = t->path;
	for (size_t i = 1; i < MAXARGS && q->argv[i] != NULL; i++)
		argv[n++] = (char *)q->argv[i];
	argv[n] = NULL;
	if (tool_run(t, d->priv_fd, argv, d->env.v, TOOLCHAIN_TIMEOUT_MS,
		     &res) != 0)
		rc = 1;
	else if (res.timed_out)
		rc = 2;
	else if (res.status != 0 || res.truncated)
		rc = 1;
	else if ((rc = take_lines(d, res.out.s, q->kind)) == 1)
		rc = 3; /* refused by take_root, said */
	if (rc == 0 && raw != NULL)
		*raw = strdup(res.out.s ? res.out.s : "");
	toolres_free(&res);
	return rc;
}

/* ---- the answers kept between calls (tccache.h) --------------------------- */

/* Keep the answer of question qi: t's path, the identity of the file it
 * ran, its output (the private directory's path as TCC_PRIV); an answer
 * that cannot be kept is left out (the next call asks again). */
static void
keep(struct disc *d, int qi, const char *path, const struct tcc_ident *id,
     char *kept_out, int failed)
{
	struct tcc_entry *e = &d->now.e[qi];

	e->failed = failed;
	e->path = strdup(path);
	e->out = kept_out;
	e->id = *id;
	e->have = e->path != NULL && e->out != NULL;
	if (!e->have) {
		free(e->path);
		free(e->out);
		memset(e, 0, sizeof(*e));
	}
}

/* Question qi of t: the answer kept by an earlier call when it was given
 * by this path and this very file (tcc_ident) and nothing before it in
 * this call missed; else t is run.  What an answer adds is judged now
 * either way (take_lines).  An optional tool's failure is kept too (npm
 * that fails on every call costs every call).  As run_query. */
static int
answer(struct disc *d, const struct tool *t, const struct tquery *q, int qi)
{
	const struct tcc_entry *k = &d->kept.e[qi];
	struct tcc_ident id;
	struct os_stat st;
	char *out = NULL;
	int rc, known = d->cache_fd >= 0 && os_fstat(t->fd, &st) == 0;

	if (known)
		tcc_ident_of(&st, &id);
	if (known && d->kept_ok && k->have && strcmp(k->path, t->path) == 0 &&
	    tcc_ident_eq(&k->id, &id) && (!k->failed || !q->required)) {
		if (k->failed) {
			keep(d, qi, k->path, &k->id, strdup(""), 1);
			return 1;
		}
		if ((out = tcc_out_use(k->out, d->priv)) == NULL)
			return -1;
		rc = take_lines(d, out, q->kind);
		free(out);
		if (rc == 0)
			keep(d, qi, k->path, &k->id, strdup(k->out), 0);
		return rc == 1 ? 3 : rc;
	}
	d->kept_ok = 0;
	rc = run_query(d, t, q, known ? &out : NULL);
	if (known && (rc == 0 || (rc == 1 && !q->required)))
		d->asked++;
	if (rc == 0 && out != NULL)
		keep(d, qi, t->path, &id, tcc_out_keep(out, d->priv), 0);
	else if (known && rc == 1 && !q->required)
		keep(d, qi, t->path, &id, strdup(""), 1);
	free(out);
	return rc;
}

/* The kept answers of this toolchain, when its state directory can hold
 * them: outside every --write (a walled command could write answers
 * there) and changeable by no other user; said in a NOTE when not. */
static int
cache_open(struct disc *d)
{
	const char *ask[TCC_QUERIES * MAXARGS + 1];
	char *why = NULL, *real = NULL;
	size_t n = 0;
	int w = -1, rc;

	d->cache_fd = -1;
	if (d->c->unkept || d->state == NULL || d->priv == NULL)
		return 0;
	/* made when missing, then judged by the name it has now */
	rc = tcc_dir_open(d->state, os_ruid(), &d->cache_fd, &why);
	if (rc == 0 && (real = tc_canon(d->state)) == NULL)
		rc = -1;
	if (rc == 0)
		rc = tc_placed(d, real, &w, &why);
	free(real);
	if (rc == 1 && w >= 0 &&
	    (why = str_fmt("it is inside --write %s, where the command could "
			   "write answers", d->wcanon.v[w])) == NULL)
		rc = -1;
	if (rc != 0 && d->cache_fd >= 0) {
		close(d->cache_fd);
		d->cache_fd = -1;
	}
	if (rc < 0) {
		free(why);
		return -1;
	}
	if (rc > 0) {
		rc = strv_pushf(&d->f->notes, "--toolchain %s: its tools' "
				"answers are not kept in the state directory "
				"%s: %s; they are asked on every call",
				d->c->name, d->state,
				why ? why : "it cannot be checked") < 0 ? -1 : 0;
		free(why);
		return rc;
	}
	for (int i = 0; i < TCC_QUERIES && d->c->q[i].argv[0] != NULL; i++)
		for (int j = 0; j < MAXARGS && d->c->q[i].argv[j] != NULL; j++)
			ask[n++] = d->c->q[i].argv[j];
	ask[n] = NULL;
	d->now.key = tcc_key(d->env.v, d->priv, ask);
	(void)tcc_load(d->cache_fd, d->c->name, d->now.key, os_ruid(),
		       &d->kept);
	d->kept_ok = 1;
	return 0;
}

static void
cache_close(struct disc *d, int rc)
{
	if (d->cache_fd >= 0 && rc == 0 && d->asked > 0)
		(void)tcc_store(d->cache_fd, d->c->name, &d->now);
	if (d->cache_fd >= 0)
		close(d->cache_fd);
	d->cache_fd = -1;
	tcc_record_free(&d->kept);
	tcc_record_free(&d->now);
}

/* t is inside --write w: not run, said in a NOTE. */
static int
not_run(struct disc *d, const struct tool *t, int w)
{
	d->f->not_run++;
	return strv_pushf(&d->f->notes, "--toolchain %s: %s is inside --write "
			  "%s: not run (the command could have changed it); "
			  "its directories are readable as part of that "
			  "--write", d->c->name, t->path, d->wcanon.v[w]);
}

int
toolchain_has_tool(const char *name, const char *path)
{
	struct tool t = { -1, NULL };
	int rc = tool_find(name, path, &t);

	tool_free(&t);
	return rc < 0 ? -1 : rc == 0;
}

static int
ask(struct disc *d, int qi)
{
	const struct tquery *q = &d->c->q[qi];
	const struct tchain *c = d->c;
	struct tool t = { -1, NULL };
	int rc = tool_find(q->argv[0], d->x->path, &t), w = -1;
	char *why = NULL;

	if (rc != 0) {
		tool_free(&t);
		if (rc < 0)
			return -1;
		return q->required ? refuse_tool(d->r, c->name, q->argv[0],
						 d->x->path, "is not on PATH ") :
		       0;
	}
	d->tool = t.path;
	rc = tool_placed(d, &t, &w, &why);
	if (rc == 1) {
		rc = not_run(d, &t, w) < 0 ? -1 : 0;
		tool_free(&t);
		return rc;
	}
	if (rc == 2) {
		rc = refusals_addr(d->r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
				   "--toolchain %s: %s is not run: %s; leave "
				   "out --toolchain %s and name its directories "
				   "with --read", c->name, t.path,
				   why ? why : "it cannot be checked",
				   c->name) < 0 ? -1 : 1;
		free(why);
		tool_free(&t);
		return rc;
	}
	if (rc == 0 && q->kind == TQ_TOOL_HOME)
		rc = tool_home(d, t.path);
	else if (rc == 0 && (rc = answer(d, &t, q, qi)) == 3)
		rc = 1;
	else if (rc > 0)
		rc = q->required ? refuse_tool(d->r, c->name, t.path, NULL,
					       rc == 2 ?
					       "did not answer within 10 s" :
					       "failed when asked for its "
					       "directories") : 0;
	if (rc >= 0 && d->f->tool == NULL && q->required) {
		d->f->tool = t.path;
		t.path = NULL;
	}
	d->tool = NULL;
	tool_free(&t);
	return rc;
}

static int
disc_init(struct disc *d)
{
	const struct strv *w = d->x->writes;
	size_t n = w ? w->n : 0;
	const char *home;

	d->priv_fd = -1;
	d->wid = calloc(n + 1, sizeof(*d->wid));
	if (d->wid == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *c = tc_canon(w->v[i]);

		if (c == NULL || strv_push(&d->wcanon, c) < 0) {
			free(c);
			return -1;
		}
		if (os_stat_path(c, &d->wid[i]) != 0)
			d->wid[i].ino = 0;
		free(c);
	}
	home = os_env_get(d->x->env, os_home_var());
	if (home != NULL && os_is_absolute(home) &&
	    (d->home = tc_canon(home)) == NULL)
		return -1;
	if ((d->state = ownfiles_state_dir(os_ruid())) == NULL)
		return -1;
	{
		char *c = tc_canon(d->state);

		if (c == NULL)
			return -1;
		free(d->state);
		d->state = c;
	}
	return strv_failed(&d->wcanon) ? -1 : 0;
}

static void
disc_free(struct disc *d)
{
	drop_priv(d);
	strv_free(&d->wcanon);
	strv_free(&d->env);
	free(d->wid);
	free(d->home);
	free(d->state);
	free(d->priv);
}

int
toolchain_discover(const char *name, const struct toolchain_ctx *x,
		   struct toolchain_found *f, struct refusals *r)
{
	struct disc d = { .c = chain_of(name), .x = x, .f = f, .r = r,
			  .cache_fd = -1 };
	size_t before = r->n;
	int rc = 0;

	if (d.c == NULL)
		return toolchain_check(&(struct strv){ .v = (char **)&name,
						      .n = 1 }, x->line, r);
	if (disc_init(&d) < 0 || (rc = make_priv(&d)) < 0 || tool_env(&d) < 0 ||
	    (rc == 0 && cache_open(&d) < 0))
		rc = -1;
	for (int i = 0; rc == 0 && i < TCC_QUERIES && d.c->q[i].argv[0] != NULL;
	     i++)
		rc = ask(&d, i);
	if (rc == 0 && f->roots.n == 0 && f->covered.n == 0 && f->not_run == 0)
		rc = refusals_addr(r, REASON_BAD_TOOLCHAIN, REMEDY_IN_TEXT,
				   "--toolchain %s: %s named no existing "
				   "directory; name its directories with --read",
				   name, f->tool ? f->tool : name) < 0 ? -1 : 1;
	cache_close(&d, rc);
	disc_free(&d);
	if (rc == 1 && remedy_append(r, before, x->line, &(struct cmdfix){
		    "--toolchain", name, NULL, NULL, 0 }, NULL) < 0)
		rc = -1;
	if (rc == 0 && (strv_failed(&f->roots) || strv_failed(&f->covered) ||
			strv_failed(&f->notes) || strv_failed(&f->absent)))
		rc = -1;
	return rc;
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
	if (f->skipped_path.n) {
		sbuf_add(&b, "; asked with a PATH without these entries "
			 "inside a --write:");
		for (size_t i = 0; i < f->skipped_path.n; i++)
			sbuf_addf(&b, " %s", f->skipped_path.v[i]);
	}
	sbuf_add(&b, "; never a write root");
	return sbuf_failed(&b) ? (sbuf_free(&b), NULL) : sbuf_take(&b);
}
