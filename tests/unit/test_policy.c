/* SPDX-License-Identifier: MIT */
/* test_policy.c -- the policy builder (host/policy/policy.c, host/policy/paths.c)
 * against temp directories: a fake PATH, fake caller homes and a
 * platform_roots table pointing into the tree.  Nothing outside the
 * mkdtemp directory is touched. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include "common/cu_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "policy/paths.h"
#include "policy/policy.h"

static const char *base; /* the scratch tree (cu_tree_base) */
static char start_cwd[PATH_MAX];
static struct strv keep; /* strings the inputs point at */

static const char *read_roots[5];
static const char *write_files[3];
static const char *optional_roots[4];
static const char *system_prefixes[3];
static struct platform_roots tbl = {
	read_roots, write_files, optional_roots, system_prefixes, NULL,
};

static char *test_env[] = {
	"PATH=/usr/bin", "TMPDIR=/old", "HOME=/h", NULL,
};

static int
count_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)p;
	(void)st;
	(void)flag;
	(void)ftw;
	return 0;
}

static size_t n_entries;

static int
count_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	n_entries++;
	return count_one(p, st, flag, ftw);
}

static size_t
tree_size(void)
{
	n_entries = 0;
	nftw(base, count_entry, 16, FTW_PHYS);
	return n_entries;
}

static void
make_tree(void)
{
	static const char *dirs[] = {
		"w", "w/home", "w2", "r", "r/deep", "r/deep/er", "rn",
		"bin", "bin/adir", "nx", "ch", "ch/bin", "hh", "hh/home",
		"roots", "roots/usr", "roots/usr/bin", "roots/usr/share",
		"roots/etc", "resolve", "opt", "dev", "outside", "pd",
		"pd/x", "pd/x/y", "sys", "w sp", NULL,
	};

	for (const char **d = dirs; *d; d++)
		cu_mkdir(*d);
	cu_mkfile("bin/tool", 0755);
	cu_mkfile("bin/plain", 0644);
	cu_mkfile("nx/tool", 0644);
	cu_mkfile("ch/tool", 0755);
	cu_mkfile("ch/bin/tool", 0755);
	cu_mkfile("hh/tool", 0755);
	cu_mkfile("xtool", 0755);
	cu_mkfile("sys/tool", 0755);
	cu_mkfile("roots/usr/bin/systool", 0755);
	cu_mkfile("roots/etc/hosts", 0644);
	cu_mkfile("resolve/stub.conf", 0644);
	cu_mkfile("dev/null", 0644);
	cu_mkfile("file", 0644);
	cu_mklink("tool", "bin/link");
	cu_mklink("usr", "roots/usrlink");
	cu_mklink("../../resolve/stub.conf", "roots/etc/resolv.conf");
	cu_mklink("loop", "loop");
	cu_mklink("r", "rlink");
}

static int
suite_init(void)
{
	if (getcwd(start_cwd, sizeof(start_cwd)) == NULL ||
	    cu_tree_make("/tmp/nsp") != 0)
		return -1;
	base = cu_tree_base();
	make_tree();
	read_roots[0] = cu_path("roots/usr");
	read_roots[1] = cu_path("roots/etc");
	read_roots[2] = cu_path("roots/missing");
	read_roots[3] = cu_path("roots/usrlink");
	write_files[0] = cu_path("dev/null");
	write_files[1] = cu_path("dev/none");
	optional_roots[0] = cu_path("opt");
	optional_roots[1] = cu_path("noopt");
	optional_roots[2] = cu_path("roots/usr/share");
	system_prefixes[0] = cu_path("roots/usr");
	system_prefixes[1] = cu_path("sys");
	tbl.resolver_conf = cu_path("roots/etc/resolv.conf");
	return 0;
}

static int
suite_clean(void)
{
	if (chdir(start_cwd) != 0)
		return -1;
	cu_tree_remove();
	strv_free(&keep);
	return 0;
}

/* The command's user in these tests: not root (the suite runs as root,
 * and to root every root-owned link would be one it could have planted),
 * so the tree's own links are followed and the planted ones are made
 * below with this owner or in a writable directory. */
#define TEST_UID 4242
static const uid_t test_uid = TEST_UID;

/* A sound input: --write w, command `tool arg1` on PATH nx:bin. */
static void
input_init(struct policy_input *in)
{
	memset(in, 0, sizeof(*in));
	in->as_uid = &test_uid;
	strv_push(&in->writes, cu_path("w"));
	strv_push(&in->argv, "tool");
	strv_push(&in->argv, "arg1");
	strv_push(&in->caller_homes, cu_path("ch"));
	in->home = cu_path("w/home");
	strv_pushf(&keep, "%s/nx:%s/bin", base, base);
	in->path = keep.v[keep.n - 1];
	in->env = test_env;
	in->roots = &tbl;
}

/* "tok,tok,..." of every refusal, for order assertions */
static char *
tokens(const struct refusals *r)
{
	struct sbuf b = {0};

	for (size_t i = 0; i < r->n; i++)
		sbuf_addf(&b, "%s%s", i ? "," : "", r->v[i].reason);
	return sbuf_take(&b);
}

#define ASSERT_TOKENS(r, want)                                         \
	do {                                                           \
		char *t_ = tokens(r);                                  \
		CU_ASSERT_STRING_EQUAL(t_, want);                      \
		if (strcmp(t_, want) != 0)                             \
			fprintf(stderr, "\n  got %s\n", t_);           \
		free(t_);                                              \
	} while (0)

static int
text_has(const struct refusals *r, size_t i, const char *s)
{
	return i < r->n && strstr(r->v[i].text, s) != NULL;
}

/* build with a fresh policy/refusal pair; free the input */
struct run {
	struct policy pol;
	struct refusals r;
	int rc;
};

static void
run_build(struct policy_input *in, struct run *x)
{
	memset(x, 0, sizeof(*x));
	x->rc = policy_build(in, &x->pol, &x->r);
	policy_input_free(in);
}

static void
run_free(struct run *x)
{
	policy_free(&x->pol);
	refusals_free(&x->r);
}

/* ---- tests -------------------------------------------------------- */

static void
t_ok_basic(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.r.n, 0);
	CU_ASSERT_STRING_EQUAL(x.pol.command, cu_path("bin/tool"));
	CU_ASSERT_STRING_EQUAL(x.pol.argv.v[0], "tool");
	CU_ASSERT_STRING_EQUAL(x.pol.argv.v[1], "arg1");
	CU_ASSERT_PTR_NULL(x.pol.argv.v[2]);
	CU_ASSERT_STRING_EQUAL(x.pol.cwd, cu_path("w"));
	CU_ASSERT_STRING_EQUAL(x.pol.tmp, cu_path("w/.nova-sandbox-tmp"));
	CU_ASSERT_STRING_EQUAL(x.pol.home, cu_path("w/home"));
	CU_ASSERT_STRING_EQUAL(x.pol.gpu, "none");
	CU_ASSERT_EQUAL(x.pol.tmp_created, 0);
	CU_ASSERT_EQUAL(access(cu_path("w/.nova-sandbox-tmp"), F_OK), -1);
	run_free(&x);
}

static void
gpu_case(const char *g, int ok, const char *want)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	in.gpu = g;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, ok ? 0 : 1);
	if (ok) {
		CU_ASSERT_STRING_EQUAL(x.pol.gpu, want);
	} else {
		ASSERT_TOKENS(&x.r, "bad_gpu");
		CU_ASSERT(text_has(&x.r, 0, "--gpu wants none or metal"));
	}
	run_free(&x);
}

static void
t_gpu(void)
{
	gpu_case(NULL, 1, "none");
	gpu_case("none", 1, "none");
	gpu_case("metal", 1, "metal");
	gpu_case(" metal\t", 1, "metal");
	gpu_case("Metal", 0, NULL);
	gpu_case("all", 0, NULL);
	gpu_case("metal2", 0, NULL);
}

static void
net_case(const char *allow, int ok)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	strv_push(&in.net_allow, allow);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, ok ? 0 : 1);
	if (!ok) {
		ASSERT_TOKENS(&x.r, "bad_net");
		CU_ASSERT(text_has(&x.r, 0, "--net-allow"));
		CU_ASSERT(text_has(&x.r, 0, "<host>[:<port>]"));
	} else {
		CU_ASSERT_STRING_EQUAL(x.pol.net_allow.v[0], allow);
	}
	if (x.rc != (ok ? 0 : 1))
		fprintf(stderr, "\n  net-allow %s\n", allow);
	run_free(&x);
}

static void
t_net(void)
{
	static const char *good[] = {
		"localhost:80", "LocalHost:1", "127.0.0.1:65535",
		"[::1]:443", "example.com:80", "10.0.0.1:80", "::1:80",
		"[::2]:80", "128.0.0.1:80", "*.example.com", NULL,
	};
	static const char *bad[] = {
		"127.9.8.7:8080", "127.0.0.1:0",
		"127.0.0.1:65536", "localhost", "localhost:", ":80",
		"[::1]80", "localhost:http", "*.com", "127.1:80",
		"localhost:+80", "", NULL,
	};
	struct policy_input in;
	struct run x;

	for (const char **g = good; *g; g++)
		net_case(*g, 1);
	for (const char **b = bad; *b; b++)
		net_case(*b, 0);
	input_init(&in);
	in.net_deny = in.net_listen = 1;
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_net");
	CU_ASSERT(text_has(&x.r, 0, "--net-deny"));
	CU_ASSERT(text_has(&x.r, 0, "--net-listen"));
	run_free(&x);
	input_init(&in);
	in.net_deny = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.net_deny, 1);
	run_free(&x);
}

static void
t_no_command(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	strv_free(&in.argv);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "no_command");
	CU_ASSERT(text_has(&x.r, 0, "after --"));
	run_free(&x);
}

static void
t_no_write_stops(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	strv_free(&in.writes);
	in.home = NULL;                /* would be home_outside */
	in.cwd = cu_path("outside");         /* would be bad_cwd */
	strv_free(&in.argv);
	strv_push(&in.argv, "nosuchcmd"); /* would be not_found */
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "refusing to guess"));
	CU_ASSERT(text_has(&x.r, 0, "--write"));
	run_free(&x);
}

static void
t_bad_write_stops(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	strv_free(&in.writes);
	strv_push(&in.writes, cu_path("nowhere"));
	in.home = NULL;
	in.cwd = cu_path("outside");
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "does not exist; none is created"));
	CU_ASSERT_EQUAL(access(cu_path("nowhere"), F_OK), -1);
	run_free(&x);
}

struct perr {
	const char *path;
	const char *words;
};

static void
path_error(const char *flag, const char *token, const char *p,
	   const char *words)
{
	struct policy_input in;
	struct run x;
	struct strv *sv;

	input_init(&in);
	sv = strcmp(flag, "--read") == 0	  ? &in.reads
	     : strcmp(flag, "--read-noexec") == 0 ? &in.reads_noexec
						  : &in.writes;
	strv_push(sv, p);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, token);
	CU_ASSERT(text_has(&x.r, 0, flag));
	CU_ASSERT(text_has(&x.r, 0, words));
	if (!text_has(&x.r, 0, words))
		fprintf(stderr, "\n  %s %s: %s\n", flag, p,
			x.r.n ? x.r.v[0].text : "(none)");
	run_free(&x);
}

static void
t_path_errors(void)
{
	static const char *flags[][2] = {
		{"--read", "bad_read"},
		{"--read-noexec", "bad_read"},
		{"--write", "bad_write"},
	};
	char longp[PATH_MAX + 16];
	struct perr cases[] = {
		{"", "is empty"},
		{"rel/dir", "is relative"},
		{cu_path("missing"), "does not exist; none is created"},
		{cu_path("file"), "is not a directory"},
		{cu_path("loop"), "cannot be resolved"},
		{cu_path("r\001x"), "control character"},
		{cu_path("r\177x"), "control character"},
		{cu_path("r\"x"), "control character"},
		{cu_path("r\\x"), "control character"},
		{longp, "longer than PATH_MAX"},
	};

	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	for (size_t f = 0; f < 3; f++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			path_error(flags[f][0], flags[f][1], cases[i].path,
				   cases[i].words);
	CU_ASSERT_EQUAL(access(cu_path("missing"), F_OK), -1);
}

static void
t_relative_text(void)
{
	struct policy_input in;
	struct run x;
	struct sbuf want = {0};

	CU_ASSERT_EQUAL_FATAL(chdir(base), 0);
	input_init(&in);
	strv_push(&in.reads, "./r/../rn/sub");
	run_build(&in, &x);
	sbuf_addf(&want, "absolute path, %s/rn/sub", base);
	ASSERT_TOKENS(&x.r, "bad_read");
	CU_ASSERT(text_has(&x.r, 0, want.s));
	CU_ASSERT(text_has(&x.r, 0, "./r/../rn/sub is relative"));
	sbuf_free(&want);
	run_free(&x);
	CU_ASSERT_EQUAL(chdir(start_cwd), 0);
}

static void
clash_case(const char *fa, const char *fb)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	if (strcmp(fa, "--read") == 0)
		strv_push(&in.reads, cu_path("r"));
	else
		strv_push(&in.reads_noexec, cu_path("r"));
	if (strcmp(fb, "--write") == 0)
		strv_push(&in.writes, cu_path("rlink")); /* another spelling */
	else
		strv_push(&in.reads_noexec, cu_path("rlink"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_read");
	CU_ASSERT(text_has(&x.r, 0, fa));
	CU_ASSERT(text_has(&x.r, 0, fb));
	run_free(&x);
}

static void
t_contradictions(void)
{
	struct policy_input in;
	struct run x;

	clash_case("--read", "--write");
	clash_case("--read", "--read-noexec");
	clash_case("--read-noexec", "--write");
	/* control: a read BELOW a write is no contradiction */
	input_init(&in);
	strv_push(&in.reads, cu_path("w/home"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	run_free(&x);
}

static void
t_order_all_at_once(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	in.gpu = "all";
	in.net_deny = in.net_listen = 1;
	strv_push(&in.net_allow, "example.com:80");
	strv_push(&in.writes, cu_path("missing-w"));
	strv_push(&in.reads, cu_path("missing-r"));
	strv_push(&in.reads_noexec, cu_path("missing-rn"));
	strv_push(&in.net_allow, "localhost:0");
	in.cwd = cu_path("outside");
	in.tmp = cu_path("outside");
	in.home = cu_path("outside");
	strv_free(&in.argv);
	strv_push(&in.argv, "nosuchcmd");
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_gpu,bad_net,bad_net,bad_net,bad_read,"
		      "bad_read,bad_write,bad_cwd,bad_write,home_outside,"
		      "not_found");
	CU_ASSERT(text_has(&x.r, 2, "localhost:0"));
	/* example.com:80 with --net-deny: the contradiction, after */
	CU_ASSERT(text_has(&x.r, 3, "example.com:80"));
	CU_ASSERT(text_has(&x.r, 3, "contradict"));
	CU_ASSERT(text_has(&x.r, 4, "--read "));
	CU_ASSERT(text_has(&x.r, 5, "--read-noexec"));
	CU_ASSERT(text_has(&x.r, 8, "--tmp"));
	CU_ASSERT_FALSE(refusals_all(&x.r, "not_found"));
	run_free(&x);
	/* no_command sits between the net refusals and the paths */
	input_init(&in);
	in.gpu = "x";
	in.net_deny = in.net_listen = 1;
	strv_free(&in.argv);
	strv_free(&in.writes);
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_gpu,bad_net,no_command,bad_write");
	run_free(&x);
}

static void
t_cwd(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	in.cwd = cu_path("outside");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_cwd");
	CU_ASSERT(text_has(&x.r, 0, "--cwd"));
	CU_ASSERT(text_has(&x.r, 0, "not inside a --write"));
	run_free(&x);
	input_init(&in);
	in.cwd = cu_path("nocwd");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_cwd");
	CU_ASSERT(text_has(&x.r, 0, "does not exist"));
	run_free(&x);
	input_init(&in); /* control: inside the second --write */
	strv_push(&in.writes, cu_path("w2"));
	in.cwd = cu_path("w2");
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_STRING_EQUAL(x.pol.cwd, cu_path("w2"));
	run_free(&x);
}

static void
t_tmp_flag(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	in.tmp = cu_path("outside");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "--tmp"));
	CU_ASSERT(text_has(&x.r, 0, "not inside a --write"));
	run_free(&x);
	input_init(&in);
	in.tmp = cu_path("w/notmp");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "none is created"));
	CU_ASSERT_EQUAL(access(cu_path("w/notmp"), F_OK), -1);
	run_free(&x);
	input_init(&in);
	in.tmp = cu_path("w/home");
	in.create_tmp = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_STRING_EQUAL(x.pol.tmp, cu_path("w/home"));
	CU_ASSERT_EQUAL(x.pol.tmp_created, 0);
	CU_ASSERT_EQUAL(access(cu_path("w/.nova-sandbox-tmp"), F_OK), -1);
	run_free(&x);
}

static void
home_case(const char *home, const char *words)
{
	struct policy_input in;
	struct run x;
	struct sbuf want = {0};

	input_init(&in);
	in.home = home;
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "home_outside");
	CU_ASSERT(text_has(&x.r, 0, words));
	sbuf_addf(&want, "; run: mkdir -p %s/w/home && HOME=%s/w/home "
		  "nova-sandbox", base, base);
	CU_ASSERT(text_has(&x.r, 0, want.s));
	sbuf_free(&want);
	run_free(&x);
}

static void
t_home(void)
{
	home_case(NULL, "HOME is unset");
	home_case("", "HOME is unset");
	home_case(cu_path("nohome"), "cannot be resolved");
	home_case(cu_path("outside"), "outside every --write");
}

static void
t_home_remedy_args(void)
{
	char *args[] = {"--write", "/a b", "--", "sh", "-c", "it's", NULL};
	struct policy_input in;
	struct run x;
	struct sbuf want = {0};

	input_init(&in);
	in.home = cu_path("outside");
	in.verb = "probe";
	in.remedy_args = args;
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "home_outside");
	CU_ASSERT(text_has(&x.r, 0, "nova-sandbox probe --write '/a b' -- "
			   "sh -c 'it'\\''s'"));
	run_free(&x);
	/* a first --write with a space pastes back quoted */
	input_init(&in);
	strv_free(&in.writes);
	strv_push(&in.writes, cu_path("w sp"));
	in.home = cu_path("outside");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "home_outside");
	sbuf_addf(&want, "mkdir -p '%s/w sp/home' && HOME='%s/w sp/home' "
		  "nova-sandbox", base, base);
	CU_ASSERT(text_has(&x.r, 0, want.s));
	sbuf_free(&want);
	run_free(&x);
}

static void
t_command_path(void)
{
	struct policy_input in;
	struct run x;
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	/* nx/tool (not executable) comes first on PATH; bin/tool wins */
	input_init(&in);
	run_build(&in, &x);
	CU_ASSERT_STRING_EQUAL(x.pol.command, cu_path("bin/tool"));
	run_free(&x);
	/* in->path NULL: the process's own PATH */
	setenv("PATH", cu_path("ch/bin"), 1);
	input_init(&in);
	in.path = NULL;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	if (x.rc == 0)
		CU_ASSERT_STRING_EQUAL(x.pol.command, cu_path("ch/bin/tool"));
	run_free(&x);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	/* a relative PATH entry is never searched */
	CU_ASSERT_EQUAL_FATAL(chdir(base), 0);
	input_init(&in);
	in.path = "bin";
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "not_found");
	CU_ASSERT(text_has(&x.r, 0, "tool is not on PATH"));
	CU_ASSERT(refusals_all(&x.r, "not_found"));
	run_free(&x);
	CU_ASSERT_EQUAL(chdir(start_cwd), 0);
}

static void
slash_case(const char *argv0, const char *tok, const char *want)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(argv0);
	run_build(&in, &x);
	if (tok == NULL) {
		CU_ASSERT_EQUAL(x.rc, 0);
		if (x.rc == 0) {
			CU_ASSERT_STRING_EQUAL(x.pol.command, want);
			CU_ASSERT_STRING_EQUAL(x.pol.argv.v[0], argv0);
		}
	} else {
		ASSERT_TOKENS(&x.r, tok);
		CU_ASSERT(text_has(&x.r, 0, want));
	}
	run_free(&x);
}

static void
t_command_slash(void)
{
	CU_ASSERT_EQUAL_FATAL(chdir(base), 0);
	slash_case("./bin/tool", NULL, cu_path("bin/tool"));
	slash_case("bin/link", NULL, cu_path("bin/tool"));
	slash_case(cu_path("bin/link"), NULL, cu_path("bin/tool"));
	slash_case(cu_path("bin/adir"), "not_executable", "is a directory");
	slash_case(cu_path("bin/plain"), "not_executable", "not executable");
	slash_case(cu_path("bin/nothere"), "not_executable", "cannot be found");
	slash_case("plain", "not_found", "plain is not on PATH");
	CU_ASSERT_EQUAL(chdir(start_cwd), 0);
}

static void
t_not_found_mixed(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup("nosuchcmd");
	run_build(&in, &x);
	CU_ASSERT(refusals_all(&x.r, "not_found"));
	run_free(&x);
	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup("nosuchcmd");
	in.cwd = cu_path("outside");
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_cwd,not_found");
	CU_ASSERT_FALSE(refusals_all(&x.r, "not_found"));
	run_free(&x);
}

static void
guard_case(const char *cmd, const char *home, const char *read, int ok)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(cmd);
	strv_free(&in.caller_homes);
	strv_push(&in.caller_homes, home);
	if (read)
		strv_push(&in.reads, read);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, ok ? 0 : 1);
	if (!ok) {
		ASSERT_TOKENS(&x.r, "bad_read");
		CU_ASSERT(text_has(&x.r, 0, "read root"));
		CU_ASSERT(text_has(&x.r, 0, home));
	}
	run_free(&x);
}

static void
t_home_guard(void)
{
	guard_case(cu_path("ch/tool"), cu_path("ch"), NULL, 0);     /* directly in ~ */
	guard_case(cu_path("ch/bin/tool"), cu_path("ch"), NULL, 1); /* ~/bin: fine */
	guard_case(cu_path("hh/tool"), cu_path("hh/home"), NULL, 0); /* dir holds ~ */
	guard_case(cu_path("ch/tool"), cu_path("ch"), cu_path("ch"), 1);  /* named by --read */
	guard_case(cu_path("xtool"), cu_path("ch"), NULL, 0);       /* base holds ch */
	guard_case(cu_path("xtool"), cu_path("w/home"), NULL, 1);   /* ~ in a --write */
}

static void
t_inside(void)
{
	CU_ASSERT_TRUE(policy_inside(cu_path("r"), cu_path("r")));
	CU_ASSERT_TRUE(policy_inside(cu_path("r/deep"), cu_path("r")));
	CU_ASSERT_TRUE(policy_inside(cu_path("r/deep/er"), cu_path("r")));
	CU_ASSERT_FALSE(policy_inside(cu_path("rn"), cu_path("r")));   /* not a prefix */
	CU_ASSERT_FALSE(policy_inside(cu_path("r"), cu_path("r/deep")));
	CU_ASSERT_FALSE(policy_inside(cu_path("w"), cu_path("r")));
	/* the same directory under another name: device and inode decide */
	CU_ASSERT_TRUE(policy_inside(cu_path("r/deep"), cu_path("rlink")));
	CU_ASSERT_TRUE(policy_inside(cu_path("r"), cu_path("rlink")));
	CU_ASSERT_TRUE(policy_inside(cu_path("rlink/deep"), cu_path("r")));
	CU_ASSERT_FALSE(policy_inside(cu_path("rn"), cu_path("rlink")));
	CU_ASSERT_FALSE(policy_inside(cu_path("rlinkx"), cu_path("rlink")));
	/* dir absent: the name is all there is */
	CU_ASSERT_TRUE(policy_inside(cu_path("ghost/a"), cu_path("ghost")));
	CU_ASSERT_FALSE(policy_inside(cu_path("ghostly"), cu_path("ghost")));
	CU_ASSERT_TRUE(policy_inside(cu_path("ghost/a"), cu_path("ghost/")));
	CU_ASSERT_TRUE(policy_inside(cu_path("r"), "/"));
	CU_ASSERT_TRUE(policy_inside("/", "/"));
	CU_ASSERT_FALSE(policy_inside("/", cu_path("r")));
}

static void
t_env(void)
{
	char *env[] = {
		"TMPDIR=/old", "PATH=/bin", "SSH_AUTH_SOCK=/s",
		"GPG_AGENT_INFO=x", "SSH_AGENT_PID=1", "FOO_AGENT_SOCK=y",
		"BAR_AGENT_INFO=z", "X_AGENT_PID=2", "AI_AGENT=keep",
		"CLAUDE_AGENT_SDK_VERSION=1", "FOO_TOKEN=t", "TMP=/o",
		"TEMP=/o", "TMPPREFIX=/o/zsh", "SSH_AGENT=keep2",
		"TMPDIRX=keep3", "SSH_AUTH_SOCK=/again", "NOEQ",
		/* issue 7 class 6: buses, displays, credentials, daemons */
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus",
		"DBUS_SYSTEM_BUS_ADDRESS=unix:path=/s", "XDG_RUNTIME_DIR=/r",
		"DISPLAY=:0", "XAUTHORITY=/h/.Xauthority",
		"WAYLAND_DISPLAY=wayland-0", "KRB5CCNAME=KCM:",
		"GNOME_KEYRING_CONTROL=/r/keyring", "DOCKER_HOST=unix:///d",
		"TMUX=/tmp/tmux-1/default,1,0", "TMUX_PANE=%1",
		"XDG_SESSION_TYPE=x11", "NOTIFY_SOCKET=/n", "DISPLAYX=keep4",
		/* the red team's list: compositors, terminals, daemons */
		"SWAYSOCK=/r/sway-ipc.1.2.sock", "PODMAN_HOST=unix:///p",
		"WEZTERM_UNIX_SOCKET=/w", "EMACS_SOCKET_NAME=/e",
		NULL,
	};
	static const char *want[] = {
		"PATH=/bin", "AI_AGENT=keep", "CLAUDE_AGENT_SDK_VERSION=1",
		"FOO_TOKEN=t", "SSH_AGENT=keep2", "TMPDIRX=keep3",
		/* NOEQ: no variable (no '='), dropped (rule 9) */
		"DBUS_SYSTEM_BUS_ADDRESS=unix:path=/s", "TMUX_PANE=%1",
		"XDG_SESSION_TYPE=x11", "DISPLAYX=keep4",
		"TMPDIR=/t", "TMP=/t", "TEMP=/t", "TMPPREFIX=/t/zsh", NULL,
	};
	static const char *want_dropped[] = {
		"BAR_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY",
		"DOCKER_HOST", "EMACS_SOCKET_NAME", "FOO_AGENT_SOCK",
		"GNOME_KEYRING_CONTROL", "GPG_AGENT_INFO", "KRB5CCNAME",
		"NOTIFY_SOCKET", "PODMAN_HOST", "SSH_AGENT_PID",
		"SSH_AUTH_SOCK", "SWAYSOCK", "TMUX", "WAYLAND_DISPLAY",
		"WEZTERM_UNIX_SOCKET", "XAUTHORITY", "XDG_RUNTIME_DIR",
		"X_AGENT_PID", NULL,
	};
	struct strv out = {0}, dropped = {0};
	size_t i;

	CU_ASSERT_EQUAL(policy_child_env(env, "/t", &out, &dropped), 0);
	for (i = 0; want[i] && i < out.n; i++)
		CU_ASSERT_STRING_EQUAL(out.v[i], want[i]);
	CU_ASSERT_EQUAL(out.n, 14);
	for (i = 0; want_dropped[i] && i < dropped.n; i++)
		CU_ASSERT_STRING_EQUAL(dropped.v[i], want_dropped[i]);
	CU_ASSERT_EQUAL(dropped.n, 20);
	strv_free(&out);
	strv_free(&dropped);
}

/* Rule 9a: --env-clear, --env, --env-deny and the credential names. */
static void
t_env_flags(void)
{
	static char *const env[] = {
		"PATH=/usr/bin", "HOME=/h", "LANG=C", "TERM=dumb", "FOO=1",
		"AWS_SECRET_ACCESS_KEY=v", "GH_TOKEN=v", "KEEP=k", "TMPDIR=/x",
		"SSH_AUTH_SOCK=/s", "NPM_TOKEN=v", NULL,
	};
	struct strv kept = {0}, deny = {0}, out = {0}, dropped = {0};
	struct env_opts o = { 1, &kept, &deny, 0 };
	struct env_report rep = {0};
	struct refusals r = {0};

	strv_push(&kept, "KEEP");
	strv_push(&kept, "SET=a=b");
	strv_push(&kept, "SET=c");
	strv_push(&kept, "NPM_TOKEN");
	CU_ASSERT_EQUAL(envpol_check(&o, NULL, &r), 0);
	CU_ASSERT_EQUAL(policy_child_env_opts(env, "/t", &o, &out, &dropped,
					      &rep), 0);
	/* the caller's order, the --env sets, then the temp variables */
	CU_ASSERT_EQUAL_FATAL(out.n, 11);
	CU_ASSERT_STRING_EQUAL(out.v[0], "PATH=/usr/bin");
	CU_ASSERT_STRING_EQUAL(out.v[1], "HOME=/h");
	CU_ASSERT_STRING_EQUAL(out.v[2], "LANG=C");
	CU_ASSERT_STRING_EQUAL(out.v[3], "TERM=dumb");
	CU_ASSERT_STRING_EQUAL(out.v[4], "KEEP=k");
	CU_ASSERT_STRING_EQUAL(out.v[5], "NPM_TOKEN=v");
	CU_ASSERT_STRING_EQUAL(out.v[6], "SET=c");
	CU_ASSERT_STRING_EQUAL(out.v[7], "TMPDIR=/t");
	CU_ASSERT_EQUAL_FATAL(dropped.n, 1);
	CU_ASSERT_STRING_EQUAL(dropped.v[0], "SSH_AUTH_SOCK");
	CU_ASSERT_EQUAL_FATAL(rep.by_flag.n, 3);
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[0], "AWS_SECRET_ACCESS_KEY");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[1], "FOO");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[2], "GH_TOKEN");
	CU_ASSERT_EQUAL(rep.creds_dropped.n, 2);
	CU_ASSERT_EQUAL(rep.creds_passed.n, 0);
	CU_ASSERT_EQUAL_FATAL(rep.creds_set.n, 1);
	CU_ASSERT_STRING_EQUAL(rep.creds_set.v[0], "NPM_TOKEN");
	strv_free(&out);
	strv_free(&dropped);
	env_report_free(&rep);
	/* no --env-clear: a pattern drops, the credentials that pass are
	 * reported; HOME never drops */
	o.clear = 0;
	strv_free(&kept);
	strv_push(&deny, "AWS_*");
	strv_push(&deny, "H*");
	CU_ASSERT_EQUAL(policy_child_env_opts(env, "/t", &o, &out, &dropped,
					      &rep), 0);
	CU_ASSERT(strv_contains(&out, "HOME=/h"));
	CU_ASSERT(!strv_contains(&out, "AWS_SECRET_ACCESS_KEY=v"));
	CU_ASSERT_EQUAL_FATAL(rep.by_flag.n, 1);
	CU_ASSERT_EQUAL_FATAL(rep.creds_passed.n, 2);
	CU_ASSERT_STRING_EQUAL(rep.creds_passed.v[0], "GH_TOKEN");
	CU_ASSERT_STRING_EQUAL(rep.creds_passed.v[1], "NPM_TOKEN");
	strv_free(&out);
	strv_free(&dropped);
	env_report_free(&rep);
	strv_free(&deny);
	/* the names that look like credentials, and some that do not */
	CU_ASSERT(envpol_cred("GITHUB_TOKEN", 12));
	CU_ASSERT(envpol_cred("DB_PASSWORD", 11));
	CU_ASSERT(envpol_cred("MY_API_KEY", 10));
	CU_ASSERT(envpol_cred("CLIENT_SECRET_X", 15));
	CU_ASSERT(!envpol_cred("PATH", 4));
	CU_ASSERT(!envpol_cred("KEYBOARD", 8));
	CU_ASSERT(!envpol_cred("TOKENIZER_DIR", 13));
	/* bad --env and --env-deny: each refused, no value in the text */
	strv_push(&kept, "1BAD=secretvalue");
	strv_push(&kept, "TMPDIR=/x");
	strv_push(&deny, "A=B");
	strv_push(&deny, "");
	CU_ASSERT_EQUAL(envpol_check(&o, NULL, &r), 1);
	CU_ASSERT_EQUAL_FATAL(r.n, 4);
	for (size_t i = 0; i < r.n; i++) {
		CU_ASSERT_STRING_EQUAL(r.v[i].reason, "bad_env");
		CU_ASSERT(strstr(r.v[i].text, "secretvalue") == NULL);
	}
	refusals_free(&r);
	strv_free(&kept);
	strv_free(&deny);
}

/* Rule 9a, run's clean start: only PATH, HOME, LANG, LC_*, TERM, TZ and
 * the temp variables pass, --env adds; rule 9 still drops its names; the
 * rest is dropped by the clean start (reported by name); --env-clear,
 * when given too, is the narrower. */
static void
t_env_clean(void)
{
	static char *const env[] = {
		"PATH=/usr/bin", "HOME=/h", "LANG=C", "LC_ALL=C", "LC_=x",
		"LCX=1", "TERM=dumb", "TZ=UTC", "FOO=1", "GH_TOKEN=v",
		"KEEP=k", "TMPDIR=/x", "SSH_AUTH_SOCK=/s", "path=/lower", NULL,
	};
	struct strv kept = {0}, out = {0}, dropped = {0};
	struct env_opts o = { 0, &kept, NULL, 1 };
	struct env_report rep = {0};
	const char *by = NULL;

	strv_push(&kept, "KEEP");
	strv_push(&kept, "SET=v");
	CU_ASSERT_EQUAL(policy_child_env_opts(env, "/t", &o, &out, &dropped,
					      &rep), 0);
	CU_ASSERT_EQUAL_FATAL(out.n, 12);
	CU_ASSERT_STRING_EQUAL(out.v[0], "PATH=/usr/bin");
	CU_ASSERT_STRING_EQUAL(out.v[1], "HOME=/h");
	CU_ASSERT_STRING_EQUAL(out.v[2], "LANG=C");
	CU_ASSERT_STRING_EQUAL(out.v[3], "LC_ALL=C");
	CU_ASSERT_STRING_EQUAL(out.v[4], "TERM=dumb");
	CU_ASSERT_STRING_EQUAL(out.v[5], "TZ=UTC");
	CU_ASSERT_STRING_EQUAL(out.v[6], "KEEP=k");
	CU_ASSERT_STRING_EQUAL(out.v[7], "SET=v");
	CU_ASSERT_STRING_EQUAL(out.v[8], "TMPDIR=/t");
	CU_ASSERT_EQUAL_FATAL(dropped.n, 1);
	CU_ASSERT_STRING_EQUAL(dropped.v[0], "SSH_AUTH_SOCK");
	CU_ASSERT_EQUAL_FATAL(rep.by_flag.n, 5);
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[0], "FOO");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[1], "GH_TOKEN");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[2], "LCX");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[3], "LC_");
	CU_ASSERT_STRING_EQUAL(rep.by_flag.v[4], "path"); /* POSIX: exact */
	CU_ASSERT_EQUAL_FATAL(rep.creds_dropped.n, 1);
	CU_ASSERT_STRING_EQUAL(rep.creds_dropped.v[0], "GH_TOKEN");
	CU_ASSERT_EQUAL(rep.creds_passed.n, 0);
	CU_ASSERT_EQUAL(envpol_decide(&o, "FOO=1", 3, &by), 0);
	CU_ASSERT(by != NULL && strcmp(by, "the clean environment") == 0);
	strv_free(&out);
	strv_free(&dropped);
	env_report_free(&rep);
	/* --env-clear too: its narrower list (no LC_*, no TZ) */
	o.clear = 1;
	CU_ASSERT_EQUAL(policy_child_env_opts(env, "/t", &o, &out, &dropped,
					      &rep), 0);
	CU_ASSERT(!strv_contains(&out, "LC_ALL=C"));
	CU_ASSERT(!strv_contains(&out, "TZ=UTC"));
	CU_ASSERT(strv_contains(&out, "LANG=C"));
	strv_free(&out);
	strv_free(&dropped);
	env_report_free(&rep);
	/* neither: the caller's whole environment but rule 9's names */
	o.clear = 0;
	o.clean = 0;
	CU_ASSERT_EQUAL(policy_child_env_opts(env, "/t", &o, &out, &dropped,
					      &rep), 0);
	CU_ASSERT(strv_contains(&out, "FOO=1"));
	CU_ASSERT(strv_contains(&out, "GH_TOKEN=v"));
	CU_ASSERT_EQUAL(rep.by_flag.n, 0);
	strv_free(&out);
	strv_free(&dropped);
	env_report_free(&rep);
	strv_free(&kept);
}

/* The clean start's NOTE: what it dropped, the credentials among them
 * and how to pass them; none when it dropped nothing. */
static struct strv clean_notes;

static void
clean_note(const char *text)
{
	strv_push(&clean_notes, text);
}

static void
t_env_clean_notes(void)
{
	struct env_report rep = {0};

	CU_ASSERT_EQUAL(envpol_notes(&rep, ENV_CLEAN, 0, clean_note), 0);
	CU_ASSERT_EQUAL(clean_notes.n, 0);
	strv_push(&rep.by_flag, "FOO");
	strv_push(&rep.by_flag, "GH_TOKEN");
	strv_push(&rep.creds_dropped, "GH_TOKEN");
	CU_ASSERT_EQUAL(envpol_notes(&rep, ENV_CLEAN, 0, clean_note), 0);
	CU_ASSERT_EQUAL_FATAL(clean_notes.n, 1);
	CU_ASSERT_STRING_EQUAL(clean_notes.v[0], "the clean environment "
			       "dropped 2 variable(s) from the child's "
			       "environment; named like credentials, now "
			       "absent inside: GH_TOKEN (--env KEY passes one, "
			       "--env-inherit all)");
	strv_free(&clean_notes);
	CU_ASSERT_EQUAL(envpol_notes(&rep, ENV_CLEAR, 0, clean_note), 0);
	CU_ASSERT_EQUAL_FATAL(clean_notes.n, 1);
	CU_ASSERT(strncmp(clean_notes.v[0], "--env-clear dropped 2 ", 22) == 0);
	strv_free(&clean_notes);
	env_report_free(&rep);
}

/* The credential-looking names (rule 9a): real secrets named, paths to
 * certificates, public keys and AWS's region, profile and config file
 * not (a false alarm teaches the reader to skip the NOTE). */
static void
t_env_cred_names(void)
{
	static const char *const named[] = {
		"GITHUB_TOKEN", "DB_PASSWORD", "MY_API_KEY", "CLIENT_SECRET_X",
		"AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN",
		"AWS_SECURITY_TOKEN", "aws_secret_access_key", "NPM_TOKEN",
		"SSH_PRIVATE_KEY", "STRIPE_SECRET_KEY", "AWS_MY_THING",
		"AWS_SHARED_CREDENTIALS_FILE", "GH_TOKEN_CA_BUNDLE",
		"VAULT_SECRET_CERT_FILE", "DEPLOY_PRIVATE_KEY_CA_FILE",
		"PGPASSWORD", "REGISTRY_AUTH", "SESSION_COOKIE",
	};
	static const char *const unnamed[] = {
		"PATH", "KEYBOARD", "TOKENIZER_DIR", "AWS_CA_BUNDLE",
		"aws_ca_bundle", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
		"AWS_REGION", "aws_region", "AWS_DEFAULT_REGION", "AWS_PROFILE",
		"AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE", "AWS_DEFAULT_OUTPUT",
		"AWS_PAGER", "STRIPE_PUBLIC_KEY", "VAPID_PUBLIC_KEY",
		"AWS_CA_FILE", "PIP_CERT_FILE",
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (!envpol_cred(named[i], strlen(named[i]))) {
			fprintf(stderr, "not named: %s\n", named[i]);
			CU_FAIL("a secret's name not named");
		}
	for (size_t i = 0; i < sizeof(unnamed) / sizeof(*unnamed); i++)
		if (envpol_cred(unnamed[i], strlen(unnamed[i]))) {
			fprintf(stderr, "named: %s\n", unnamed[i]);
			CU_FAIL("a name that is no secret named");
		}
}

static void
t_env_in_build(void)
{
	struct policy_input in;
	struct run x;

	input_init(&in);
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.pol.env.n, 6);
	CU_ASSERT_STRING_EQUAL(x.pol.env.v[0], "PATH=/usr/bin");
	CU_ASSERT_STRING_EQUAL(x.pol.env.v[1], "HOME=/h");
	CU_ASSERT(strstr(x.pol.env.v[2], "TMPDIR=") == x.pol.env.v[2]);
	CU_ASSERT(strstr(x.pol.env.v[2], "/w/.nova-sandbox-tmp") != NULL);
	CU_ASSERT(strstr(x.pol.env.v[5], "/w/.nova-sandbox-tmp/zsh") != NULL);
	CU_ASSERT_EQUAL(x.pol.dropped.n, 0);
	run_free(&x);
}

static void
t_tmp_create(void)
{
	struct policy_input in;
	struct run x;
	struct stat st;

	input_init(&in);
	in.create_tmp = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.tmp_created, 1);
	CU_ASSERT_EQUAL_FATAL(lstat(cu_path("w/.nova-sandbox-tmp"), &st), 0);
	CU_ASSERT(S_ISDIR(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	run_free(&x);
	/* already there: used, not made */
	input_init(&in);
	in.create_tmp = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.tmp_created, 0);
	run_free(&x);
	CU_ASSERT_EQUAL(rmdir(cu_path("w/.nova-sandbox-tmp")), 0);
}

static char said_tmp[512];
static int said_n;

static void
say_tmp(const char *text)
{
	snprintf(said_tmp, sizeof(said_tmp), "%s", text);
	said_n++;
}

/* Rule 8a's leftovers are said, never silent: a tree nested deeper than
 * the removal descends is left (what lies above the cut goes) with a NOTE
 * saying so, not an errno's words; a plain tree goes without one. */
static void
t_tmp_said(void)
{
	struct policy_input in;
	struct run x;
	int fd, next;

	input_init(&in);
	in.create_tmp = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.pol.tmp_created, 1);
	CU_ASSERT_EQUAL(mkdir(cu_path("w/.nova-sandbox-tmp/a"), 0700), 0);
	said_n = 0;
	CU_ASSERT_EQUAL(policy_remove_tmp_said(&x.pol, say_tmp), 0);
	CU_ASSERT_EQUAL(said_n, 0);
	CU_ASSERT(access(cu_path("w/.nova-sandbox-tmp"), F_OK) != 0);
	run_free(&x);

	input_init(&in);
	in.create_tmp = 1;
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.pol.tmp_created, 1);
	fd = open(cu_path("w/.nova-sandbox-tmp"), O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(fd >= 0);
	for (unsigned i = 0; fd >= 0 && i < POLICY_TMP_DEPTH + 2; i++) {
		if (mkdirat(fd, "d", 0700) != 0)
			break;
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = next;
	}
	if (fd >= 0)
		close(fd);
	said_n = 0;
	CU_ASSERT_EQUAL(policy_remove_tmp_said(&x.pol, say_tmp), 2);
	CU_ASSERT_EQUAL(said_n, 1);
	CU_ASSERT(strstr(said_tmp, "nested deeper than 512 levels") != NULL);
	CU_ASSERT(strstr(said_tmp, "symbolic") == NULL);
	CU_ASSERT(access(cu_path("w/.nova-sandbox-tmp"), F_OK) == 0);
	{
		char cmd[1024];

		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'",
			 cu_path("w/.nova-sandbox-tmp"));
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	run_free(&x);
}

static void
planted(const char *target, int create)
{
	struct policy_input in;
	struct run x;

	CU_ASSERT_EQUAL_FATAL(symlink(target, cu_path("w/.nova-sandbox-tmp")), 0);
	input_init(&in);
	in.create_tmp = create;
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "never followed"));
	CU_ASSERT_EQUAL(x.pol.tmp_created, 0);
	run_free(&x);
	CU_ASSERT_EQUAL(unlink(cu_path("w/.nova-sandbox-tmp")), 0);
}

static void
t_tmp_planted(void)
{
	planted(cu_path("outside/made"), 1); /* dangling: never created through */
	CU_ASSERT_EQUAL(access(cu_path("outside/made"), F_OK), -1);
	planted(cu_path("outside"), 1);      /* a directory behind a symlink */
	planted(cu_path("outside"), 0);      /* refused even when not creating */
	cu_mkfile("w/.nova-sandbox-tmp", 0600); /* a file */
	{
		struct policy_input in;
		struct run x;

		input_init(&in);
		in.create_tmp = 1;
		run_build(&in, &x);
		ASSERT_TOKENS(&x.r, "bad_write");
		run_free(&x);
	}
	CU_ASSERT_EQUAL(unlink(cu_path("w/.nova-sandbox-tmp")), 0);
}

static void
t_nothing_created(void)
{
	static const char *cmds[] = {"nosuchcmd", NULL};
	size_t before = tree_size();
	struct policy_input in;
	struct run x;

	/* a not_found alone, with create_tmp */
	input_init(&in);
	in.create_tmp = 1;
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(cmds[0]);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	run_free(&x);
	/* a not_executable alone */
	input_init(&in);
	in.create_tmp = 1;
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(cu_path("bin/plain"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	run_free(&x);
	/* a home_outside alone, and a home guard alone */
	input_init(&in);
	in.create_tmp = 1;
	in.home = cu_path("outside");
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	run_free(&x);
	guard_case(cu_path("ch/tool"), cu_path("ch"), NULL, 0);
	CU_ASSERT_EQUAL(tree_size(), before);
	CU_ASSERT_EQUAL(access(cu_path("w/.nova-sandbox-tmp"), F_OK), -1);
}

/* Build with --read r/deep/er and the PATH in keep's last entry; check
 * that ancestors= is the tree's own ancestors plus `more`. */
static void
ancestors_are(size_t more)
{
	struct policy_input in;
	struct run x;
	size_t slashes = 0;
	const char *path = keep.v[keep.n - 1]; /* before input_init's own */

	for (const char *c = base; *c; c++)
		slashes += *c == '/';
	input_init(&in);
	strv_push(&in.reads, cu_path("r/deep/er"));
	in.path = path;
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	/* base's own ancestors (slashes - 1) and base, then `more` */
	CU_ASSERT_EQUAL(x.pol.ancestors, slashes + more);
	if (x.pol.ancestors != slashes + more)
		fprintf(stderr, "\n  ancestors=%zu want %zu\n",
			x.pol.ancestors, slashes + more);
	run_free(&x);
}

static void
t_ancestors(void)
{
	strv_pushf(&keep, "%s/nx:%s/bin:%s/pd/x/y:%s/roots/usr/bin", base,
		   base, base, base);
	/* w (from tmp), r, r/deep, pd, pd/x; roots/usr/bin is under a
	 * system prefix */
	ancestors_are(1 + 2 + 2);
}

/* PATH entries for ancestors=: a symlinked entry counts its target's
 * directories, an entry typed twice counts once, an entry that is a file
 * counts its directories, an entry through a link into a --read counts
 * nothing, a looping link and a relative entry are skipped. */
static void
t_ancestors_path_links(void)
{
	CU_ASSERT_EQUAL_FATAL(symlink("pd/x", cu_path("pdl")), 0);
	strv_pushf(&keep, "%s/nx:%s/bin:%s/pdl/y:%s/pdl/y/:%s/hh/tool:"
		   "%s/rlink/deep:%s/loop:pd::%s/pdl/y", base, base, base,
		   base, base, base, base, base);
	/* w (from tmp), r, r/deep, pd and pd/x (through pdl, never pdl
	 * itself), hh (the file's) */
	ancestors_are(1 + 2 + 2 + 1);
	CU_ASSERT_EQUAL(unlink(cu_path("pdl")), 0);
}

struct want_rule {
	const char *rel;
	uint32_t access;
	uint32_t origin;
};

static void
assert_rules(const struct policy *pol, const struct want_rule *w, size_t n)
{
	CU_ASSERT_EQUAL(pol->n_rules, n);
	for (size_t i = 0; i < n && i < pol->n_rules; i++) {
		CU_ASSERT_STRING_EQUAL(pol->rules[i].path, cu_path(w[i].rel));
		CU_ASSERT_EQUAL(pol->rules[i].access, w[i].access);
		CU_ASSERT_EQUAL(pol->rules[i].origin, w[i].origin);
		if (strcmp(pol->rules[i].path, cu_path(w[i].rel)) != 0)
			fprintf(stderr, "\n  rule %zu %s\n", i,
				pol->rules[i].path);
	}
}

static void
t_rules(void)
{
	static const struct want_rule want[] = {
		{"roots/usr", NS_ACCESS_READ_EXEC, NS_ORIGIN_ROOT},
		{"roots/etc", NS_ACCESS_READ_EXEC, NS_ORIGIN_ROOT},
		{"resolve", NS_ACCESS_READ_EXEC, NS_ORIGIN_OPTIONAL},
		{"opt", NS_ACCESS_READ_EXEC, NS_ORIGIN_OPTIONAL},
		{"bin", NS_ACCESS_READ_EXEC, NS_ORIGIN_OPTIONAL},
		{"r", NS_ACCESS_READ_EXEC, NS_ORIGIN_READ},
		{"rn", NS_ACCESS_READ, NS_ORIGIN_READ_NOEXEC},
		{"w", NS_ACCESS_WRITE, NS_ORIGIN_WRITE},
		{"w2", NS_ACCESS_WRITE, NS_ORIGIN_WRITE},
		{"dev/null", NS_ACCESS_WRITE_FILE, NS_ORIGIN_WRITE_FILE},
	};
	struct policy_input in;
	struct run x;

	input_init(&in);
	strv_push(&in.reads, cu_path("r"));
	strv_push(&in.reads_noexec, cu_path("rn"));
	strv_push(&in.writes, cu_path("w2"));
	strv_push(&in.writes, cu_path("w2")); /* a duplicate: one rule */
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	assert_rules(&x.pol, want, sizeof(want) / sizeof(want[0]));
	CU_ASSERT_EQUAL(x.pol.roots.n, 2);     /* usrlink == usr, dropped */
	CU_ASSERT_EQUAL(x.pol.opt_roots.n, 3); /* share: system prefix */
	CU_ASSERT_EQUAL(x.pol.write_files.n, 1);
	run_free(&x);
}

static void
t_rules_command_dir(void)
{
	struct policy_input in;
	struct run x;

	/* under a system prefix: no optional root for it */
	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(cu_path("roots/usr/bin/systool"));
	tbl.resolver_conf = cu_path("roots/etc/hosts"); /* under a fixed root */
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.opt_roots.n, 1);
	CU_ASSERT_STRING_EQUAL(x.pol.opt_roots.v[0], cu_path("opt"));
	run_free(&x);
	tbl.resolver_conf = cu_path("roots/etc/resolv.conf");
	/* under a system prefix that is not a fixed root */
	input_init(&in);
	free(in.argv.v[0]);
	in.argv.v[0] = strdup(cu_path("sys/tool"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	CU_ASSERT_FALSE(strv_contains(&x.pol.opt_roots, cu_path("sys")));
	CU_ASSERT_EQUAL(x.pol.opt_roots.n, 2);
	run_free(&x);
	/* inside a --read: no optional root either */
	input_init(&in);
	strv_push(&in.reads, cu_path("bin"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.opt_roots.n, 2);
	CU_ASSERT_FALSE(strv_contains(&x.pol.opt_roots, cu_path("bin")));
	run_free(&x);
}

static void
t_view(void)
{
	struct policy_input in;
	struct run x;
	struct ns_policy v;

	input_init(&in);
	in.net_deny = 1;
	in.name = "box";
	in.gpu = "metal";
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	policy_view(&x.pol, &v);
	CU_ASSERT_EQUAL(v.struct_size, sizeof(v));
	CU_ASSERT_EQUAL(v.flags, NS_POLICY_NET_DENY);
	CU_ASSERT_PTR_EQUAL(v.rules, x.pol.rules);
	CU_ASSERT_EQUAL(v.n_rules, x.pol.n_rules);
	CU_ASSERT_STRING_EQUAL(v.gpu, "metal");
	CU_ASSERT_STRING_EQUAL(v.name, "box");
	CU_ASSERT_STRING_EQUAL(v.command, cu_path("bin/tool"));
	CU_ASSERT_STRING_EQUAL(v.argv[0], "tool");
	CU_ASSERT_PTR_NULL(v.argv[2]);
	CU_ASSERT_STRING_EQUAL(v.cwd, cu_path("w"));
	CU_ASSERT_STRING_EQUAL(v.home, cu_path("w/home"));
	CU_ASSERT_PTR_EQUAL(v.envp, (const char *const *)x.pol.env.v);
	run_free(&x);
}

static void
t_resolve_dir(void)
{
	struct refusals r = {0};
	char *out = NULL;

	CU_ASSERT_EQUAL(policy_resolve_dir("--x", "tok", cu_path("r/./deep/er/.."),
					   &out, &r), 0);
	if (out != NULL)
		CU_ASSERT_STRING_EQUAL(out, cu_path("r/deep"));
	CU_ASSERT_EQUAL(r.n, 0);
	free(out);
	/* it judges links as the effective user: root here, whose own links
	 * count as no user's (the command never runs as root) ... (as an
	 * ordinary user the link is that user's own: the planted case, which
	 * t_planted covers) */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(policy_resolve_dir("--x", "tok",
						   cu_path("rlink/deep"), &out, &r),
				0);
		if (out != NULL)
			CU_ASSERT_STRING_EQUAL(out, cu_path("r/deep"));
		free(out);
	}
	/* ... but a link in an other-writable directory is anyone's */
	cu_mkdir("rw");
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("rw"), 0777), 0);
	cu_mklink("../r", "rw/to_r");
	CU_ASSERT_EQUAL(policy_resolve_dir("--x", "tok", cu_path("rw/to_r/deep"),
					   &out, &r), 1);
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT(text_has(&r, 0, "resolves through the symlink"));
	CU_ASSERT(text_has(&r, 0, "name --x "));
	CU_ASSERT(text_has(&r, 0, cu_path("r/deep")));
	refusals_free(&r);
	CU_ASSERT_EQUAL(policy_resolve_dir("--x", "tok", cu_path("file"), &out,
					   &r), 1);
	CU_ASSERT_PTR_NULL(out);
	ASSERT_TOKENS(&r, "tok");
	CU_ASSERT(text_has(&r, 0, "--x "));
	refusals_free(&r);
}

/* ---- rule 5: one resolution, planted links ------------------------ */

static int
find_rule(const struct policy *pol, const char *path, uint32_t origin)
{
	for (size_t i = 0; i < pol->n_rules; i++)
		if (pol->rules[i].origin == origin &&
		    strcmp(pol->rules[i].path, path) == 0)
			return (int)i;
	return -1;
}

static void
planted_case(const char *link, const char *why)
{
	struct policy_input in;
	struct run x;
	struct sbuf want = {0};

	input_init(&in);
	strv_push(&in.writes, link);
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 1);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "resolves through the symlink"));
	CU_ASSERT(text_has(&x.r, 0, why));
	sbuf_addf(&want, "name --write %s", cu_path("r"));
	CU_ASSERT(text_has(&x.r, 0, want.s));
	if (!text_has(&x.r, 0, why) || !text_has(&x.r, 0, want.s))
		fprintf(stderr, "\n  %s: %s\n", link,
			x.r.n ? x.r.v[0].text : "(none)");
	sbuf_free(&want);
	run_free(&x);
}

static void
t_planted_links(void)
{
	/* other-writable, not sticky: anyone could have put it there */
	cu_mkdir("pl");
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("pl"), 0777), 0);
	cu_mklink("../r", "pl/to_r");
	planted_case(cu_path("pl/to_r"), "writable by group or others");
	/* group-writable counts too */
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("pl"), 0775), 0);
	planted_case(cu_path("pl/to_r"), "writable by group or others");
	/* the link is the user's, in a directory it cannot write */
	cu_mkdir("pu");
	cu_mklink("../r", "pu/to_r");
	if (geteuid() != 0)
		return; /* the rest gives files to another uid: root only
			   (tests/integration/t_paths.sh covers the user's
			   own links as an ordinary user) */
	CU_ASSERT_EQUAL_FATAL(lchown(cu_path("pu/to_r"), TEST_UID, 0), 0);
	planted_case(cu_path("pu/to_r"), "the link is owned by this user");
	/* the directory is the user's: it can always make it writable */
	cu_mkdir("pd2");
	cu_mklink("../r", "pd2/to_r");
	CU_ASSERT_EQUAL_FATAL(chown(cu_path("pd2"), TEST_UID, 0), 0);
	planted_case(cu_path("pd2/to_r"), "its directory is owned by this user");
	/* a planted link in the middle of the path counts the same */
	cu_mkdir("r/deep/er");
	{
		struct policy_input in;
		struct run x;

		input_init(&in);
		strv_push(&in.reads, cu_path("pu/to_r/deep"));
		run_build(&in, &x);
		ASSERT_TOKENS(&x.r, "bad_read");
		CU_ASSERT(text_has(&x.r, 0, cu_path("pu/to_r")));
		CU_ASSERT(text_has(&x.r, 0, "name --read "));
		run_free(&x);
	}
	/* control: the real path itself is fine */
	{
		struct policy_input in;
		struct run x;

		input_init(&in);
		strv_push(&in.writes, cu_path("r"));
		run_build(&in, &x);
		CU_ASSERT_EQUAL(x.rc, 0);
		CU_ASSERT_EQUAL(x.pol.notes.n, 0);
		run_free(&x);
	}
}

static void
t_sticky_and_root_links(void)
{
	struct policy_input in;
	struct run x;

	/* root's link in root's 0755 directory: followed, said in a NOTE */
	input_init(&in);
	strv_push(&in.reads, cu_path("rlink"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	if (x.rc == 0) {
		CU_ASSERT_STRING_EQUAL(x.pol.reads.v[0], cu_path("r"));
		CU_ASSERT_EQUAL(x.pol.notes.n, 1);
		CU_ASSERT(x.pol.notes.n == 1 &&
			  strstr(x.pol.notes.v[0], "--read ") != NULL &&
			  strstr(x.pol.notes.v[0], "rlink -> r ") != NULL);
	}
	run_free(&x);
	/* a sticky, other-writable directory (/tmp's shape) where the link
	 * is someone else's: the user cannot replace it */
	cu_mkdir("st");
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("st"), 01777), 0);
	cu_mklink("../r", "st/to_r");
	input_init(&in);
	strv_push(&in.reads, cu_path("st/to_r"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(x.pol.notes.n, 1);
	run_free(&x);
	/* ... but the user's own link there is refused */
	cu_mklink("../r", "st/mine");
	if (geteuid() != 0)
		return; /* the rest gives files to another uid: root only
			   (tests/integration/t_paths.sh covers the user's
			   own links as an ordinary user) */
	CU_ASSERT_EQUAL_FATAL(lchown(cu_path("st/mine"), TEST_UID, 0), 0);
	input_init(&in);
	strv_push(&in.reads, cu_path("st/mine"));
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_read");
	run_free(&x);
}

static void
t_plantable_rule(void)
{
	struct os_stat d = {0}, l = {0};

	d.uid = 0;
	l.uid = 0;
	d.mode = S_IFDIR | 0755;
	CU_ASSERT_PTR_NULL(path_plantable(42, &d, &l));
	/* root owns nothing: the command never runs as root */
	CU_ASSERT_PTR_NULL(path_plantable(0, &d, &l));
	l.uid = 42;
	CU_ASSERT_PTR_NOT_NULL(path_plantable(42, &d, &l));
	l.uid = 0;
	d.uid = 42;
	CU_ASSERT_PTR_NOT_NULL(path_plantable(42, &d, &l));
	d.uid = 0;
	d.mode = S_IFDIR | 0757;
	CU_ASSERT_PTR_NOT_NULL(path_plantable(42, &d, &l));
	d.mode = S_IFDIR | 01777;
	CU_ASSERT_PTR_NULL(path_plantable(42, &d, &l));
	l.uid = 42;
	CU_ASSERT_PTR_NOT_NULL(path_plantable(42, &d, &l));
}

static int
swap_names(const char *a, const char *b)
{
	return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b,
			    2 /* RENAME_EXCHANGE */);
}

/* Resolve, then swap the directory for a symlink by rename: the rule's
 * descriptor still names the directory that was checked, never the
 * link's target (what a second open by name would have met). */
static void
t_swap_after_check(void)
{
	struct policy_input in;
	struct run x;
	struct stat orig, out, got, cwd;
	int i;

	cu_mkdir("sw");
	cu_mkdir("sw/a");
	cu_mklink("../outside", "sw/b");
	CU_ASSERT_EQUAL_FATAL(stat(cu_path("sw/a"), &orig), 0);
	CU_ASSERT_EQUAL_FATAL(stat(cu_path("outside"), &out), 0);
	input_init(&in);
	strv_push(&in.writes, cu_path("sw/a"));
	in.cwd = cu_path("sw/a");
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	CU_ASSERT_EQUAL_FATAL(swap_names(cu_path("sw/a"), cu_path("sw/b")), 0);
	/* the name now leads elsewhere ... */
	CU_ASSERT_EQUAL(stat(cu_path("sw/a"), &got), 0);
	CU_ASSERT_EQUAL(got.st_ino, out.st_ino);
	/* ... the rule does not */
	i = find_rule(&x.pol, cu_path("sw/a"), NS_ORIGIN_WRITE);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_FATAL(x.pol.rule_fds[i] >= 0);
	CU_ASSERT_EQUAL(fstat(x.pol.rule_fds[i], &got), 0);
	CU_ASSERT_EQUAL(got.st_ino, orig.st_ino);
	CU_ASSERT_NOT_EQUAL(got.st_ino, out.st_ino);
	CU_ASSERT_EQUAL(fstat(x.pol.r_cwd.fd, &cwd), 0);
	CU_ASSERT_EQUAL(cwd.st_ino, orig.st_ino);
	/* after prepare only the cwd's descriptor stays */
	policy_close_fds(&x.pol);
	CU_ASSERT_EQUAL(x.pol.rule_fds[i], -1);
	CU_ASSERT(x.pol.r_cwd.fd >= 0);
	run_free(&x);
	CU_ASSERT_EQUAL(swap_names(cu_path("sw/a"), cu_path("sw/b")), 0);
	/* and a walk that meets the swapped link in a directory the user
	 * could write is refused */
	if (geteuid() != 0)
		return; /* the rest gives files to another uid: root only
			   (tests/integration/t_paths.sh covers the user's
			   own links as an ordinary user) */
	CU_ASSERT_EQUAL_FATAL(chown(cu_path("sw"), TEST_UID, 0), 0);
	CU_ASSERT_EQUAL_FATAL(swap_names(cu_path("sw/a"), cu_path("sw/b")), 0);
	input_init(&in);
	strv_push(&in.writes, cu_path("sw/a"));
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_write");
	CU_ASSERT(text_has(&x.r, 0, "its directory is owned by this user"));
	run_free(&x);
}

static void
t_view_fds(void)
{
	struct policy_input in;
	struct run x;
	struct ns_policy v;

	input_init(&in);
	run_build(&in, &x);
	CU_ASSERT_EQUAL_FATAL(x.rc, 0);
	policy_view(&x.pol, &v);
	CU_ASSERT(NS_POLICY_HAS_FDS(&v));
	CU_ASSERT_PTR_NOT_NULL_FATAL(v.rule_fds);
	for (size_t i = 0; i < v.n_rules; i++) {
		struct stat a, b;

		CU_ASSERT(v.rule_fds[i] >= 0);
		CU_ASSERT(fstat(v.rule_fds[i], &a) == 0 &&
			  stat(v.rules[i].path, &b) == 0 &&
			  a.st_ino == b.st_ino && a.st_dev == b.st_dev);
		CU_ASSERT(fcntl(v.rule_fds[i], F_GETFD) & FD_CLOEXEC);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(v.cwd_fd);
	CU_ASSERT(*v.cwd_fd >= 0);
	run_free(&x);
}

/* A directory above a link's that the command's user can rename entries
 * of: the link's directory may have been moved to its name (a root-owned
 * tree holding a root-owned link, renamed inside a --write). */
static void
t_movable_rule(void)
{
	struct os_stat d[3];

	memset(d, 0, sizeof(d));
	for (size_t i = 0; i < 3; i++)
		d[i].mode = S_IFDIR | 0755;
	CU_ASSERT_PTR_NULL(path_movable(42, d, 3));  /* all root's, 0755 */
	d[1].uid = 42;                            /* the user's */
	CU_ASSERT_PTR_NOT_NULL(path_movable(42, d, 3));
	CU_ASSERT_PTR_NULL(path_movable(0, d, 3));   /* root owns nothing */
	d[1].uid = 0;
	d[1].mode = S_IFDIR | 0777;               /* anyone's to rename in */
	CU_ASSERT_PTR_NOT_NULL(path_movable(42, d, 3));
	CU_ASSERT_PTR_NOT_NULL(path_movable(0, d, 3));
	d[1].mode = S_IFDIR | 01777;              /* sticky: own entries */
	CU_ASSERT_PTR_NULL(path_movable(42, d, 3));
	d[2].uid = 42;
	CU_ASSERT_PTR_NOT_NULL(path_movable(42, d, 3));
	d[2].uid = 0;
	d[0].uid = 42;        /* "/" is the user's: every entry below is */
	CU_ASSERT_PTR_NOT_NULL(path_movable(42, d, 3));
	CU_ASSERT_PTR_NULL(path_movable(42, d, 1));  /* nothing above */
}

/* The walk: a link in a directory this user cannot write, but that sits
 * in one anyone can rename entries of, is refused; the same tree in a
 * 0755 directory is followed (control). */
static void
t_movable_walk(void)
{
	struct policy_input in;
	struct run x;

	cu_mkdir("mvx");
	cu_mkdir("mvx/rootfs");
	cu_mkdir("mvy");
	cu_mkdir("mvy/rootfs");
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("mvx"), 0777), 0);
	cu_mklink("../../r", "mvx/rootfs/L");
	cu_mklink("../../r", "mvy/rootfs/L");
	input_init(&in);
	strv_push(&in.reads, cu_path("mvx/rootfs/L"));
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_read");
	CU_ASSERT(text_has(&x.r, 0, "could have been moved to that name"));
	CU_ASSERT(text_has(&x.r, 0, "name --read "));
	run_free(&x);
	input_init(&in);
	strv_push(&in.reads, cu_path("mvy/rootfs/L"));
	run_build(&in, &x);
	CU_ASSERT_EQUAL(x.rc, 0);
	if (x.rc == 0)
		CU_ASSERT_STRING_EQUAL(x.pol.reads.v[0], cu_path("r"));
	run_free(&x);
}

/* Build with --read of each in_rel (relative to the tree) and check that
 * the i-th read is want_rel[i], by name and by the inode its descriptor
 * holds.  x is left built (run_free it). */
static void
reads_land_at(const char *const *in_rel, const char *const *want_rel,
	      size_t n, struct run *x)
{
	struct policy_input in;

	input_init(&in);
	for (size_t i = 0; in_rel[i] != NULL; i++)
		strv_push(&in.reads, cu_path(in_rel[i]));
	run_build(&in, x);
	CU_ASSERT_EQUAL_FATAL(x->rc, 0);
	CU_ASSERT_EQUAL_FATAL(x->pol.r_reads.n, n);
	for (size_t i = 0; i < n; i++) {
		struct stat a, b;

		CU_ASSERT_STRING_EQUAL(x->pol.reads.v[i], cu_path(want_rel[i]));
		CU_ASSERT(fstat(x->pol.r_reads.v[i].fd, &a) == 0 &&
			  stat(cu_path(want_rel[i]), &b) == 0 &&
			  a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	}
}

/* Paths that share their parents continue from the directories the build
 * already walked: "..", a link after the shared part and a shorter path
 * must still land where a walk from "/" would. */
static void
t_shared_prefix(void)
{
	static const char *const in_rel[] = {
		"r/deep/er", "r/deep/er/..", "r/deep", "rlink/deep/er", "r",
		"rn", NULL,
	};
	static const char *const want_rel[] = {
		"r/deep/er", "r/deep", "r/deep", "r/deep/er", "r", "rn", NULL,
	};
	struct run x;

	reads_land_at(in_rel, want_rel, 6, &x);
	for (size_t i = 0; want_rel[i] != NULL; i++)
		CU_ASSERT(rpath_inside(&x.pol.r_reads.v[i], &x.pol.r_reads.v[4])
			  == (want_rel[i][1] != 'n'));
	run_free(&x);
}

/* The build keeps every directory it walked, by the path it reached it at:
 * a later path through the same directory (by a link, out of order, after
 * an unrelated one) must land on the same inode, every link met is read
 * and said again, and a planted link in front of a kept directory is
 * still refused. */
static void
t_kept_dirs(void)
{
	static const char *const in_rel[] = {
		"r/deep/er", "rn", "rlink/deep", "rlink/deep/er", "r/deep", NULL,
	};
	static const char *const want_rel[] = {
		"r/deep/er", "rn", "r/deep", "r/deep/er", "r/deep", NULL,
	};
	struct policy_input in;
	struct run x;
	size_t links = 0;

	cu_mkdir("r/deep/er");
	reads_land_at(in_rel, want_rel, 5, &x);
	for (size_t i = 0; i < x.pol.notes.n; i++)
		links += strstr(x.pol.notes.v[i], "rlink -> r ") != NULL;
	CU_ASSERT_EQUAL(links, 2); /* both walks through rlink say it */
	run_free(&x);

	/* other-writable: anyone could have planted kp/to_r; r/deep is kept
	 * by the walk before, and the link in front of it is still judged */
	cu_mkdir("kp");
	CU_ASSERT_EQUAL_FATAL(chmod(cu_path("kp"), 0777), 0);
	cu_mklink("../r", "kp/to_r");
	input_init(&in);
	strv_push(&in.reads, cu_path("r/deep"));
	strv_push(&in.reads, cu_path("kp/to_r/deep"));
	run_build(&in, &x);
	ASSERT_TOKENS(&x.r, "bad_read");
	CU_ASSERT(text_has(&x.r, 0, cu_path("kp/to_r")));
	run_free(&x);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "ok basic", t_ok_basic },
		{ "gpu", t_gpu },
		{ "net", t_net },
		{ "no command", t_no_command },
		{ "no --write stops", t_no_write_stops },
		{ "bad --write stops", t_bad_write_stops },
		{ "path errors", t_path_errors },
		{ "relative text", t_relative_text },
		{ "contradictions", t_contradictions },
		{ "order, all at once", t_order_all_at_once },
		{ "cwd", t_cwd },
		{ "tmp flag", t_tmp_flag },
		{ "home", t_home },
		{ "home remedy args", t_home_remedy_args },
		{ "command on PATH", t_command_path },
		{ "command with slash", t_command_slash },
		{ "not_found only vs mixed", t_not_found_mixed },
		{ "home guard", t_home_guard },
		{ "inside", t_inside },
		{ "child env", t_env },
		{ "child env in build", t_env_in_build },
		{ "child env: --env-clear, --env, --env-deny", t_env_flags },
		{ "child env: run's clean start", t_env_clean },
		{ "child env: the clean start's NOTE", t_env_clean_notes },
		{ "credential-looking names, and false alarms", t_env_cred_names },
		{ "tmp created when sound", t_tmp_create },
		{ "tmp leftovers said", t_tmp_said },
		{ "tmp planted", t_tmp_planted },
		{ "nothing created on refusal", t_nothing_created },
		{ "ancestors", t_ancestors },
		{ "ancestors: PATH entries through links, twice, a file",
		  t_ancestors_path_links },
		{ "rules", t_rules },
		{ "rules: command dir", t_rules_command_dir },
		{ "view", t_view },
		{ "resolve dir", t_resolve_dir },
		{ "planted links refused", t_planted_links },
		{ "sticky and root links followed", t_sticky_and_root_links },
		{ "plantable rule", t_plantable_rule },
		{ "movable rule", t_movable_rule },
		{ "movable: a link below a tree that may have been moved", t_movable_walk },
		{ "swap after check", t_swap_after_check },
		{ "view descriptors", t_view_fds },
		{ "shared prefix", t_shared_prefix },
		{ "kept directories", t_kept_dirs },
		{ NULL, NULL }
	};

	return cu_run("policy", suite_init, suite_clean, cases);
}
