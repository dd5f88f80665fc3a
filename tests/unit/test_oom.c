/* SPDX-License-Identifier: MIT */
/* test_oom.c -- allocation failures stick (host/base/util.c) and never
 * widen the wall.  Linked with -Wl,--wrap for the allocators (Makefile:
 * UNIT_LDFLAGS_test_oom), so that the Nth allocation of an operation
 * fails.  For N = 1, 2, ... until the operation runs without reaching its
 * Nth allocation, each operation's result must be EITHER exactly the
 * un-failed result OR a clean failure (status -1, or the one
 * "sandbox_failed: out of memory" refusal): never a policy with fewer
 * reads or homes, never a shorter argv, never an environment with a
 * scrubbed variable back, never a shorter refusal list. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include "common/cu_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "base/util.h"
#include "verbs/verbs.h"
#include "policy/policy.h"
#include "wall/args.h"
#include "wall/session.h"

/* ---- the injector ------------------------------------------------- */

static long fail_at; /* 0: never; N: the Nth allocation from arm() fails */
static long n_alloc;
static int hit;      /* the armed failure happened */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
char *__real_realpath(const char *p, char *out);
int __real_vasprintf(char **out, const char *fmt, va_list ap);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
char *__wrap_realpath(const char *p, char *out);
int __wrap_vasprintf(char **out, const char *fmt, va_list ap);
int __wrap_asprintf(char **out, const char *fmt, ...);

static int
fails_now(void)
{
	if (fail_at == 0 || ++n_alloc != fail_at)
		return 0;
	hit = 1;
	errno = ENOMEM;
	return 1;
}

void *
__wrap_malloc(size_t n)
{
	return fails_now() ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t k, size_t n)
{
	return fails_now() ? NULL : __real_calloc(k, n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return fails_now() ? NULL : __real_realloc(p, n);
}

char *
__wrap_strdup(const char *s)
{
	return fails_now() ? NULL : __real_strdup(s);
}

char *
__wrap_strndup(const char *s, size_t n)
{
	return fails_now() ? NULL : __real_strndup(s, n);
}

char *
__wrap_realpath(const char *p, char *out)
{
	return out == NULL && fails_now() ? NULL : __real_realpath(p, out);
}

int
__wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	return fails_now() ? -1 : __real_vasprintf(out, fmt, ap);
}

int
__wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = __wrap_vasprintf(out, fmt, ap);
	va_end(ap);
	return rc;
}

static void
arm(long n)
{
	fail_at = n;
	n_alloc = 0;
	hit = 0;
}

static void
disarm(void)
{
	fail_at = 0;
}

/* The loop every case runs: op(n) performs the operation with the Nth
 * allocation failing (0: none) and returns a heap summary of its result,
 * or NULL for a clean failure; ok(summary) says the failure was clean. */
typedef char *(*op_fn)(long n);

#define MAX_N 100000

static void
each_failure(const char *what, op_fn op)
{
	char *want = op(0), *got;
	long n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	for (n = 1; n < MAX_N; n++) {
		got = op(n);
		if (got != NULL && strcmp(got, want) != 0) {
			CU_FAIL("a failed allocation changed the result");
			fprintf(stderr, "\n  %s, allocation %ld failed:\n"
				"  want %s\n  got  %s\n", what, n, want, got);
			free(got);
			break;
		}
		free(got);
		if (!hit)
			break; /* ran whole without reaching allocation n */
	}
	CU_ASSERT(n > 1);   /* the operation allocated at all */
	CU_ASSERT(n < MAX_N);
	fprintf(stderr, "(%ld allocations failed in turn) ", n - 1);
	free(want);
}

/* ---- the tree ----------------------------------------------------- */

/* the tree's paths, made before anything is armed */
static const char *p_w, *p_home, *p_r1, *p_r2, *p_r3, *p_bin, *p_hh,
	*p_ch, *p_hhhome;

/* the platform's roots: fixed, write files, optional, the resolver */
static const char *read_roots[3];
static const char *write_files[2];
static const char *optional_roots[2];
static const char *system_prefixes[1];
static struct platform_roots tbl = {
	read_roots, write_files, optional_roots, system_prefixes, NULL,
};

static int
suite_init(void)
{
	static const char *dirs[] = { "w", "w/home", "r1", "r2", "r3", "bin",
		"ch", "hh", "hh/home", "usr", "etc", "opt", "dev", NULL };
	if (cu_tree_make("/tmp/nsoom") != 0)
		return -1;
	for (const char **d = dirs; *d; d++)
		cu_mkdir(*d);
	cu_mkfile("bin/tool", 0755);
	cu_mkfile("hh/tool", 0755);
	cu_mkfile("dev/null", 0755);
	cu_mkfile("etc/resolv.conf", 0755);
	read_roots[0] = cu_path("usr");
	read_roots[1] = cu_path("missing");
	write_files[0] = cu_path("dev/null");
	optional_roots[0] = cu_path("opt");
	tbl.resolver_conf = cu_path("etc/resolv.conf");
	p_w = cu_path("w");
	p_home = cu_path("w/home");
	p_r1 = cu_path("r1");
	p_r2 = cu_path("r2");
	p_r3 = cu_path("r3");
	p_bin = cu_path("bin");
	p_hh = cu_path("hh");
	p_ch = cu_path("ch");
	p_hhhome = cu_path("hh/home");
	return 0;
}

static int
suite_clean(void)
{
	cu_tree_remove();
	return 0;
}

/* ---- summaries (built disarmed) ----------------------------------- */

static void
sum_list(struct sbuf *b, const char *name, const struct strv *sv)
{
	sbuf_addf(b, " %s=[", name);
	for (size_t i = 0; i < sv->n; i++)
		sbuf_addf(b, "%s%s", i ? "," : "", sv->v[i]);
	sbuf_add(b, "]");
}

static void
sum_refusals(struct sbuf *b, const struct refusals *r)
{
	sbuf_add(b, " refusals=[");
	for (size_t i = 0; i < r->n; i++)
		sbuf_addf(b, "%s%s: %s", i ? "," : "", r->v[i].reason,
			  r->v[i].text);
	sbuf_add(b, "]");
}

/* A clean failure: -1 and the list failed, or NULL for the summary. */
static int
clean_failure(int rc, const struct refusals *r)
{
	int ok = rc == -1 && refusals_failed(r) && r->n >= 1;

	if (!ok) {
		CU_FAIL("an allocation failure was not a clean failure");
		fprintf(stderr, "\n  rc=%d failed=%d n=%zu\n", rc,
			refusals_failed(r), r->n);
	}
	return ok;
}

static char *
sum_policy(int rc, const struct policy *pol, const struct refusals *r)
{
	struct sbuf b = {0};

	sbuf_addf(&b, "rc=%d", rc);
	sum_refusals(&b, r);
	if (rc == 0) {
		sum_list(&b, "reads", &pol->reads);
		sum_list(&b, "reads_noexec", &pol->reads_noexec);
		sum_list(&b, "writes", &pol->writes);
		sum_list(&b, "roots", &pol->roots);
		sum_list(&b, "opt_roots", &pol->opt_roots);
		sum_list(&b, "write_files", &pol->write_files);
		sum_list(&b, "argv", &pol->argv);
		sum_list(&b, "env", &pol->env);
		sum_list(&b, "dropped", &pol->dropped);
		sbuf_addf(&b, " command=%s cwd=%s home=%s tmp=%s rules=%zu",
			  pol->command, pol->cwd, pol->home, pol->tmp,
			  pol->n_rules);
		for (size_t i = 0; i < pol->n_rules; i++)
			sbuf_addf(&b, " %s:%u", pol->rules[i].path,
				  (unsigned)pol->rules[i].access);
	}
	return sbuf_take(&b);
}

static const uid_t test_uid = 4242;

static char *oom_env[] = {
	"PATH=/usr/bin", "LANG=C", "SSH_AUTH_SOCK=/tmp/agent",
	"TMPDIR=/old", "DBUS_SESSION_BUS_ADDRESS=unix:x", "KEEP=1", NULL,
};

/* ---- caller_homes ------------------------------------------------- */

static char *
op_homes(long n)
{
	struct strv homes = {0};
	struct sbuf b = {0};
	int rc;

	arm(n);
	rc = caller_homes(&homes);
	disarm();
	if (rc < 0) {
		strv_free(&homes);
		return NULL;
	}
	CU_ASSERT_FALSE(strv_failed(&homes));
	sum_list(&b, "homes", &homes);
	strv_free(&homes);
	return sbuf_take(&b);
}

static void
t_caller_homes(void)
{
	char *old = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	setenv("HOME", cu_path("ch"), 1); /* a second home beside passwd's */
	each_failure("caller_homes", op_homes);
	if (old != NULL)
		setenv("HOME", old, 1);
	else
		unsetenv("HOME");
	free(old);
}

/* ---- the policy builder ------------------------------------------- */

/* The input is built armed too: a --read or a home lost while the
 * caller's lists were built must fail the build, not narrow the guard. */
static char *
build_op(long n, const char *cmd, int guard)
{
	struct policy_input in;
	struct policy pol;
	struct refusals r = {0};
	char *s;
	int rc;

	memset(&in, 0, sizeof(in));
	in.as_uid = &test_uid;
	in.env = oom_env;
	in.roots = &tbl;
	in.home = p_home;
	in.path = guard ? p_hh : p_bin;
	arm(n);
	strv_push(&in.writes, p_w);
	strv_push(&in.reads, p_r1);
	strv_push(&in.reads, p_r2);
	strv_push(&in.reads_noexec, p_r3);
	strv_push(&in.argv, cmd);
	strv_push(&in.argv, "arg1");
	strv_push(&in.argv, "arg2");
	strv_push(&in.caller_homes, p_ch);
	strv_push(&in.caller_homes, p_hhhome);
	rc = policy_build(&in, &pol, &r);
	disarm();
	if (rc < 0 || (hit && refusals_failed(&r))) {
		s = clean_failure(rc, &r) ? NULL : strdup("unclean");
	} else {
		s = sum_policy(rc, &pol, &r);
		policy_free(&pol);
	}
	refusals_free(&r);
	policy_input_free(&in);
	return s;
}

static char *
op_build(long n)
{
	return build_op(n, "tool", 0);
}

static char *
op_guard(long n)
{
	return build_op(n, "tool", 1); /* hh/tool: its dir holds hh/home */
}

static void
t_policy_build(void)
{
	char *s = op_build(0);

	/* the un-failed result is what the loop compares against */
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(strncmp(s, "rc=0 ", 5) == 0);
	CU_ASSERT(strstr(s, "argv=[tool,arg1,arg2]") != NULL);
	CU_ASSERT(strstr(s, "/opt") != NULL);         /* an optional root */
	CU_ASSERT(strstr(s, "/dev/null]") != NULL);   /* a write file */
	CU_ASSERT(strstr(s, "/etc,") != NULL);        /* the resolver's */
	free(s);
	each_failure("policy_build", op_build);
}

static void
t_home_guard(void)
{
	char *s = op_guard(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(strncmp(s, "rc=1 refusals=[bad_read: ", 25) == 0);
	CU_ASSERT(strstr(s, cu_path("hh/home")) != NULL);
	free(s);
	each_failure("home guard", op_guard);
}

/* ---- the command's environment ------------------------------------ */

static char *
op_env(long n)
{
	struct strv out = {0}, dropped = {0};
	struct sbuf b = {0};
	int rc;

	arm(n);
	rc = policy_child_env(oom_env, "/t", &out, &dropped);
	disarm();
	if (rc == 0) {
		sum_list(&b, "env", &out);
		sum_list(&b, "dropped", &dropped);
	}
	strv_free(&out);
	strv_free(&dropped);
	return rc == 0 ? sbuf_take(&b) : NULL;
}

static void
t_child_env(void)
{
	char *s = op_env(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(strstr(s, "SSH_AUTH_SOCK=") == NULL);
	CU_ASSERT(strstr(s, "TMPDIR=/t,") != NULL);
	free(s);
	each_failure("policy_child_env", op_env);
}

/* ---- argv moved into the policy input (wall_input) ----------------- */

static char *
op_wall_input(long n)
{
	struct wallctx w;
	struct args a;
	struct policy_input in = {0};
	struct policy pol;
	struct refusals r = {0};
	struct hostrun hr = { "/x", "/", NULL, oom_env };
	char *s;
	int rc;

	memset(&w, 0, sizeof(w));
	memset(&a, 0, sizeof(a));
	arm(n);
	/* what args_parse collects, as it collects it */
	strv_push(&a.writes, p_w);
	strv_push(&a.reads, p_r1);
	strv_push(&a.argv, "tool");
	strv_push(&a.argv, "--flag");
	strv_push(&a.argv, "last");
	a.saw_dashdash = 1;
	rc = wall_input(&w, &hr, &a, &in);
	in.as_uid = &test_uid;
	in.path = p_bin;
	in.home = p_home;
	in.create_tmp = 0;
	in.stdio_ttys = 0;
	if (rc < 0)
		refusals_oom(&r);
	else
		rc = policy_build(&in, &pol, &r);
	disarm();
	if (rc < 0 || (hit && refusals_failed(&r))) {
		s = clean_failure(rc, &r) ? NULL : strdup("unclean");
	} else {
		s = sum_policy(rc, &pol, &r);
		policy_free(&pol);
	}
	refusals_free(&r);
	policy_input_free(&in);
	args_free(&a);
	return s;
}

static void
t_wall_input(void)
{
	char *s = op_wall_input(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(strstr(s, "argv=[tool,--flag,last]") != NULL);
	free(s);
	each_failure("wall_input", op_wall_input);
}

/* ---- a refusal list, printed ---------------------------------------- */

#define OOM_LINE "SANDBOX REFUSED reason=sandbox_failed: out of memory\n"

/* The list is built armed; printing runs disarmed (a printer that fails
 * itself says "out of memory" in that line's text). */
static char *
op_refusals(long n)
{
	struct refusals r = {0};
	char buf[4096];
	FILE *f = tmpfile();
	size_t len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	arm(n);
	refusals_add(&r, "bad_read", "--read %s does not exist", "/nx1");
	refusals_add(&r, "bad_write", "--write %s is a file", "/nx2");
	refusals_add(&r, "not_found", "nosuch is not on PATH; run: x");
	disarm();
	out_refusals(f, "SANDBOX", &r, "nova-sandbox help", 0);
	if (hit && refusals_failed(&r))
		CU_ASSERT_FALSE(refusals_all(&r, "not_found")); /* exit 125 */
	refusals_free(&r);
	rewind(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	if (strcmp(buf, OOM_LINE) == 0)
		return NULL;
	return strdup(buf);
}

static void
t_refusals_printed(void)
{
	char *s = op_refusals(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(strstr(s, "reason=bad_read") != NULL);
	CU_ASSERT(strstr(s, "reason=not_found") != NULL);
	free(s);
	each_failure("refusals printed", op_refusals);
}

/* ---- the worktree verb's parsers of outside text -------------------- */

/* gh's JSON and owner/name of a remote: a failed allocation is a refused
 * answer (-1, every field NULL) or no owner (NULL), never a shorter field. */
static char *
op_worktree(long n)
{
	char *h = NULL, *b = NULL, *st = NULL, *on, *out = NULL;
	int rc;

	arm(n);
	rc = worktree_parse_pr("{\"x\":[\"skip\",{\"y\":\"z\"}],"
			       "\"headRefOid\":\"0123abc\",\"baseRefName\":"
			       "\"rel\\u00e9ase\",\"state\":\"OPEN\"}", &h, &b, &st);
	on = worktree_owner_name("https://user@forge.example/owner/name.git");
	disarm();
	if (rc != 0)
		CU_ASSERT(h == NULL && b == NULL && st == NULL);
	if (rc == 0 && on != NULL)
		out = str_fmt("%s|%s|%s|%s", h, b, st, on);
	free(h);
	free(b);
	free(st);
	free(on);
	return out;
}

static void
t_worktree(void)
{
	char *s = op_worktree(0);

	CU_ASSERT_STRING_EQUAL(s, "0123abc|rel\xc3\xa9" "ase|OPEN|owner/name");
	free(s);
	each_failure("worktree parsers", op_worktree);
}

/* ---- the containers themselves ------------------------------------ */

static void
t_sticky(void)
{
	struct strv sv = {0};
	struct sbuf b = {0};
	struct refusals r = {0};

	arm(2); /* strv: the first push's vector, then its strdup */
	CU_ASSERT_EQUAL(strv_push(&sv, "a"), -1);
	CU_ASSERT_EQUAL(strv_push(&sv, "b"), -1); /* a no-op from now on */
	disarm();
	CU_ASSERT_TRUE(strv_failed(&sv));
	CU_ASSERT_EQUAL(sv.n, 0);
	strv_free(&sv);
	CU_ASSERT_FALSE(strv_failed(&sv));

	CU_ASSERT_STRING_EQUAL(sbuf_str(&b), "");
	arm(1);
	CU_ASSERT_EQUAL(sbuf_add(&b, "x"), -1);
	disarm();
	CU_ASSERT_EQUAL(sbuf_add(&b, "y"), -1);
	CU_ASSERT_TRUE(sbuf_failed(&b));
	CU_ASSERT_PTR_NULL(sbuf_take(&b)); /* never a short string */
	CU_ASSERT_FALSE(sbuf_failed(&b));

	arm(1);
	CU_ASSERT_EQUAL(refusals_add(&r, "bad_read", "x"), -1);
	disarm();
	CU_ASSERT_EQUAL(refusals_add(&r, "bad_read", "y"), -1);
	CU_ASSERT_TRUE(refusals_failed(&r));
	CU_ASSERT_EQUAL(r.n, 1); /* never empty: "refused?" fails closed */
	CU_ASSERT_STRING_EQUAL(r.v[0].reason, "sandbox_failed");
	refusals_free(&r);
	CU_ASSERT_FALSE(refusals_failed(&r));
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "failures stick", t_sticky },
		{ "caller_homes", t_caller_homes },
		{ "policy_build reads writes homes", t_policy_build },
		{ "home guard", t_home_guard },
		{ "the command's environment", t_child_env },
		{ "argv moved by wall_input", t_wall_input },
		{ "refusal list printed", t_refusals_printed },
		{ "worktree: gh's JSON, owner/name", t_worktree },
		{ NULL, NULL },
	};

	return cu_run("oom", suite_init, suite_clean, cases);
}
