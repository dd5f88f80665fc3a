/* SPDX-License-Identifier: MIT */
/* test_seatbelt.c -- seatbelt.dylib's portable core: the profile generator
 * (every rule, the injection cases, ancestors, realpath, size cap, network,
 * read-noexec, gpu), the sandbox-exec argv and failure mapping, the
 * unified-log parser, the GPU taxonomy, and the ops against the fake
 * sandbox-exec and log (tests/fakes/).  Built with -DSB_TESTING. */
#include <CUnit/Basic.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sb.h"
#include "common/cu_run.h"
#include "common/cu_tree.h"
#include "common/fake_host.h"

extern const struct ns_backend_ops ns_backend_v1;

static char top[256];  /* a fresh directory */
static char fakes[PATH_MAX];

/* ---- a policy ------------------------------------------------------------ */

#define T_RULES 1200
static struct ns_rule rules[T_RULES];
static char paths[T_RULES][PATH_MAX];
static const char *allow[4];
static const char *t_argv[4] = { "sh", "-c", "exit 0", NULL };
extern char **environ;

static void
pol_init(struct ns_policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	pol->struct_size = sizeof(*pol);
	pol->rules = rules;
	pol->gpu = "none";
	pol->command = "/bin/sh";
	pol->argv = t_argv;
	pol->envp = (const char *const *)environ;
	pol->cwd = top;
	pol->tmp = top;
	pol->home = top;
	pol->net_allow = allow;
}

/* <top>/<leaf>, made, as rule n of pol */
static void
rule(struct ns_policy *pol, const char *leaf, uint32_t access)
{
	size_t n = pol->n_rules++;

	snprintf(paths[n], sizeof(paths[n]), "%s/%s", top, leaf);
	mkdir(paths[n], 0755);
	rules[n].path = paths[n];
	rules[n].access = access;
	rules[n].origin = NS_ORIGIN_READ;
}

static int
build(const struct ns_policy *pol, struct sb_prof *p, char *err)
{
	err[0] = '\0';
	return sb_profile_build(pol, p, err, 768);
}

/* The name of the parameter whose value is v, or NULL. */
static const char *
param_of(const struct sb_prof *p, const char *v)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->params[i].value, v) == 0)
			return p->params[i].name;
	return NULL;
}

static int
balanced(const char *t)
{
	int d = 0, in = 0;

	for (; *t; t++) {
		if (in) {
			if (*t == '\\')
				t++;
			else if (*t == '"')
				in = 0;
			continue;
		}
		if (*t == ';')
			while (t[1] && t[1] != '\n')
				t++;
		else if (*t == '"')
			in = 1;
		else if (*t == '(')
			d++;
		else if (*t == ')' && --d < 0)
			return 0;
	}
	return d == 0 && !in;
}

/* ---- set-up ---------------------------------------------------------------- */

static int
suite_init(void)
{
	char tmpl[] = "/tmp/sbtest.XXXXXX";

	char real[PATH_MAX];

	if (mkdtemp(tmpl) == NULL || realpath(tmpl, real) == NULL ||
	    strlen(real) >= sizeof(top))
		return -1;
	memcpy(top, real, strlen(real) + 1);
	if (realpath("modules/seatbelt/tests/fakes", fakes) == NULL)
		return -1;
	return 0;
}

static int
suite_clean(void)
{
	return cu_rm_tree(top);
}

/* ---- the profile ---------------------------------------------------------- */

static void
test_profile_shape(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768];

	pol_init(&pol);
	rule(&pol, "r", NS_ACCESS_READ_EXEC);
	rule(&pol, "w", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_EQUAL(strncmp(p.text, "(version 1)\n", 12), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "\n(deny default (with message "
					      "\"nova-sandbox\"))\n"));
	CU_ASSERT(balanced(p.text));
	/* no path of any kind is in the text */
	CU_ASSERT_PTR_NULL(strchr(p.text, '/'));
	/* every reference is a passed param, every param is referenced */
	for (size_t i = 0; i < p.n; i++) {
		char ref[64];

		snprintf(ref, sizeof(ref), "(param \"%s\")", p.params[i].name);
		CU_ASSERT_PTR_NOT_NULL(strstr(p.text, ref));
		CU_ASSERT_PTR_NULL(strstr(p.text, p.params[i].value));
	}
	CU_ASSERT_PTR_NOT_NULL(param_of(&p, paths[0]));
	CU_ASSERT_EQUAL(param_of(&p, paths[0])[0], 'R');
	CU_ASSERT_EQUAL(param_of(&p, paths[1])[0], 'W');
	/* baseline clauses */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(allow process-fork)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(sysctl-name \"hw.ncpu\")"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(global-name \"com.apple.system."
					      "opendirectoryd.libinfo\")"));
	CU_ASSERT_PTR_NOT_NULL(param_of(&p, "/dev/fd"));
	CU_ASSERT_PTR_NOT_NULL(param_of(&p, "/tmp"));
	sb_profile_free(&p);
}

static void
test_profile_rules(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], want[128];

	pol_init(&pol);
	rule(&pol, "rx", NS_ACCESS_READ_EXEC);
	rule(&pol, "ro", NS_ACCESS_READ);
	rule(&pol, "rw", NS_ACCESS_WRITE);
	snprintf(paths[3], PATH_MAX, "/dev/null");
	rules[3] = (struct ns_rule){ paths[3], NS_ACCESS_WRITE_FILE,
				     NS_ORIGIN_WRITE_FILE };
	pol.n_rules = 4;
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	snprintf(want, sizeof(want), "(allow file-read* file-map-executable "
		 "process-exec* (subpath (param \"%s\")))",
		 param_of(&p, paths[0]));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	snprintf(want, sizeof(want), "(allow file-read* (subpath (param \"%s\")))",
		 param_of(&p, paths[1]));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	snprintf(want, sizeof(want), "(allow file-read* file-write* "
		 "file-map-executable process-exec* (subpath (param \"%s\")))",
		 param_of(&p, paths[2]));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	snprintf(want, sizeof(want), "(allow file-read* file-write-data "
		 "file-ioctl (literal (param \"%s\")))", param_of(&p, "/dev/null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	/* read-noexec: denied exec AFTER every allow (the last match wins) */
	snprintf(want, sizeof(want), "(deny process-exec* file-map-executable "
		 "(subpath (param \"%s\")))", param_of(&p, paths[1]));
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(p.text, want));
	CU_ASSERT(strstr(p.text, want) > strstr(p.text, "file-ioctl"));
	sb_profile_free(&p);
	/* an access class it does not know is refused, never widened */
	rules[0].access = 9;
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not know"));
	sb_profile_free(&p);
}

/* Quotes, parens, (allow default), spaces, a backslash: parameters,
 * unharmed; a newline, a relative path, a trailing slash: refused. */
static void
test_profile_injection(void)
{
	static const char *const hostile[] = {
		"q\"uote", "a\")) (allow default) ((\"", "(allow default)",
		"sp ace", "back\\slash", "semi;colon"
	};
	struct ns_policy pol;
	struct sb_prof p;
	char err[768];

	pol_init(&pol);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		rule(&pol, hostile[i], NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT(balanced(p.text));
	CU_ASSERT_PTR_NULL(strstr(p.text, "(allow default)"));
	for (size_t i = 0; i < pol.n_rules; i++) {
		CU_ASSERT_PTR_NOT_NULL(param_of(&p, paths[i]));
		CU_ASSERT_PTR_NULL(strstr(p.text, paths[i]));
	}
	sb_profile_free(&p);

	pol_init(&pol);
	rule(&pol, "new\nline", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "control character"));
	sb_profile_free(&p);
	CU_ASSERT_PTR_NOT_NULL(sb_value_bad("rel/ative"));
	CU_ASSERT_PTR_NOT_NULL(sb_value_bad("/trailing/"));
	CU_ASSERT_PTR_NOT_NULL(sb_value_bad("/tab\there"));
	CU_ASSERT_PTR_NULL(sb_value_bad("/"));
	CU_ASSERT_PTR_NULL(sb_value_bad("/a \") (allow default"));
}

/* ---- protected paths (ABI 1.4) -------------------------------------------- */

static const char *t_protect[8];
static int32_t t_pfds[8];

/* <top>/<leaf>: a directory (dir) or a file, protected path n of pol */
static const char *
protect(struct ns_policy *pol, const char *leaf, int dir)
{
	static char pp[8][PATH_MAX];
	size_t n = pol->n_protect++;

	snprintf(pp[n], sizeof(pp[n]), "%s/%s", top, leaf);
	if (dir)
		mkdir(pp[n], 0755);
	else
		close(open(pp[n], O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	t_protect[n] = pp[n];
	t_pfds[n] = -1;
	pol->protect = t_protect;
	pol->protect_fds = t_pfds;
	return pp[n];
}

/* The offset of the last "(allow " in t. */
static const char *
last_allow(const char *t)
{
	const char *at = NULL;

	for (const char *c = t; (c = strstr(c, "(allow ")) != NULL; c++)
		at = c;
	return at;
}

static void
test_profile_protect(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], want[256];
	const char *d, *f, *deny;

	pol_init(&pol);
	rule(&pol, "repo", NS_ACCESS_WRITE);
	d = protect(&pol, "repo/.git", 1);
	mkdir(paths[0], 0755);
	f = protect(&pol, "repo/gitfile", 0);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT(balanced(p.text));
	CU_ASSERT_PTR_NULL(strchr(p.text, '/'));
	CU_ASSERT_PTR_NOT_NULL_FATAL(param_of(&p, d));
	CU_ASSERT_EQUAL(param_of(&p, d)[0], 'P');
	/* a directory: itself and everything beneath it */
	snprintf(want, sizeof(want), "(deny file-write* file-link (literal "
		 "(param \"%s\")) (subpath (param \"%s\")))", param_of(&p, d),
		 param_of(&p, d));
	CU_ASSERT_PTR_NOT_NULL_FATAL((deny = strstr(p.text, want)));
	/* after every allow: the last match wins in SBPL */
	CU_ASSERT(deny > last_allow(p.text));
	/* a file: itself */
	CU_ASSERT_PTR_NOT_NULL_FATAL(param_of(&p, f));
	snprintf(want, sizeof(want), "(deny file-write* file-link (literal "
		 "(param \"%s\")))", param_of(&p, f));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	/* the write root above them keeps its entry (no rename moves the
	 * protected name away); "/" and the test dir are in no write root */
	CU_ASSERT_PTR_NOT_NULL_FATAL(param_of(&p, paths[0]));
	for (size_t i = 0; i < p.n; i++)
		if (p.params[i].name[0] == 'Q') {
			CU_ASSERT_STRING_EQUAL(p.params[i].value, paths[0]);
			snprintf(want, sizeof(want), "(deny file-write-unlink "
				 "file-write-create (literal (param \"%s\")))",
				 p.params[i].name);
			CU_ASSERT(strstr(p.text, want) > last_allow(p.text));
		}
	sb_profile_free(&p);

	/* a 1.3-sized policy carries no list: no protected section */
	pol.struct_size = offsetof(struct ns_policy, protect);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_PTR_NULL(strstr(p.text, "; protected"));
	CU_ASSERT_PTR_NULL(param_of(&p, d));
	sb_profile_free(&p);
}

static void
test_profile_protect_hostile(void)
{
	static const char *const hostile[] = {
		"q\"uote", "a\")) (allow default) ((\"", "back\\slash",
		"x\\\")) (allow file-write* (subpath \"\\"
	};
	struct ns_policy pol;
	struct sb_prof p;
	char err[768];

	pol_init(&pol);
	rule(&pol, "w", NS_ACCESS_WRITE);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char leaf[128];

		snprintf(leaf, sizeof(leaf), "w/%s", hostile[i]);
		protect(&pol, leaf, 1);
	}
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT(balanced(p.text));
	CU_ASSERT_PTR_NULL(strstr(p.text, "(allow default)"));
	CU_ASSERT_PTR_NULL(strchr(p.text, '/'));
	for (size_t i = 0; i < pol.n_protect; i++) {
		CU_ASSERT_PTR_NOT_NULL(param_of(&p, t_protect[i]));
		CU_ASSERT_PTR_NULL(strstr(p.text, t_protect[i]));
	}
	sb_profile_free(&p);

	/* a newline cannot be a -D parameter: refused, naming the opt-out */
	pol_init(&pol);
	rule(&pol, "w", NS_ACCESS_WRITE);
	protect(&pol, "w/new\nline", 1);
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_EQUAL(p.protect_bad, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "control character"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--unprotect"));
	sb_profile_free(&p);
}

static void
test_profile_realpath_and_ancestors(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], link[PATH_MAX + 8], deep[PATH_MAX + 8];
	const char *a;

	pol_init(&pol);
	rule(&pol, "target", NS_ACCESS_READ);
	snprintf(link, sizeof(link), "%s/lnk", top);
	CU_ASSERT_EQUAL_FATAL(symlink(paths[0], link), 0);
	rules[0].path = link;      /* given by a link: passed resolved */
	rule(&pol, "d1", NS_ACCESS_WRITE);
	rule(&pol, "d1/d2", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_PTR_NOT_NULL(param_of(&p, paths[0]));
	CU_ASSERT_PTR_NULL(param_of(&p, link));
	/* every proper ancestor, "/" included, once each, sorted */
	CU_ASSERT_PTR_NOT_NULL_FATAL((a = param_of(&p, "/")));
	CU_ASSERT_EQUAL(a[0], 'A');
	CU_ASSERT_PTR_NOT_NULL((a = param_of(&p, top)));
	CU_ASSERT(a != NULL && a[0] == 'A');
	snprintf(deep, sizeof(deep), "%s/d1", top);
	CU_ASSERT_PTR_NOT_NULL(param_of(&p, deep)); /* a W and an A */
	{
		size_t n = 0;
		const char *prev = "";

		for (size_t i = 0; i < p.n; i++) {
			if (p.params[i].name[0] != 'A')
				continue;
			n += strcmp(p.params[i].value, top) == 0;
			CU_ASSERT(strcmp(prev, p.params[i].value) < 0);
			prev = p.params[i].value;
		}
		CU_ASSERT_EQUAL(n, 1);
	}
	sb_profile_free(&p);
	/* a path that does not resolve is refused */
	pol_init(&pol);
	rule(&pol, "gone", NS_ACCESS_READ);
	rmdir(paths[0]);
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot resolve"));
	sb_profile_free(&p);
}

static void
test_profile_size_cap(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], leaf[32];

	pol_init(&pol);
	for (int i = 0; i < 1100; i++) {
		snprintf(leaf, sizeof(leaf), "many%04d", i);
		rule(&pol, leaf, NS_ACCESS_READ);
	}
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "macOS caps a compiled profile"));
	sb_profile_free(&p);
	pol.n_rules = 20;
	CU_ASSERT_EQUAL(build(&pol, &p, err), 0);
	CU_ASSERT(sb_profile_bytes(&p) <= SB_MAX_BYTES);
	sb_profile_free(&p);
}

static void
test_profile_network(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], want[160];

	pol_init(&pol);
	rule(&pol, "w", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "\n(allow network*)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "com.apple.SystemConfiguration."
					      "DNSConfiguration"));
	sb_profile_free(&p);

	pol.flags = NS_POLICY_NET_DENY;
	allow[0] = "localhost:8080";
	allow[1] = "127.0.0.1:0443";
	allow[2] = "[::1]:9";
	pol.n_net_allow = 3;
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_PTR_NULL(strstr(p.text, "network*"));
	CU_ASSERT_PTR_NULL(strstr(p.text, "DNSConfiguration"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(remote ip \"localhost:8080\")"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(remote ip \"localhost:443\")"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "(remote ip \"localhost:9\")"));
	CU_ASSERT_PTR_NULL(strstr(p.text, "127.0.0.1"));
	snprintf(want, sizeof(want), "(allow network-outbound (remote "
		 "unix-socket (subpath (param \"%s\"))))", param_of(&p, paths[0]));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, want));
	sb_profile_free(&p);

	allow[0] = "10.0.0.1:80";
	pol.n_net_allow = 1;
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--net-allow 10.0.0.1:80"));
	sb_profile_free(&p);
	allow[0] = "localhost:70000";
	CU_ASSERT_EQUAL(build(&pol, &p, err), -1);
	sb_profile_free(&p);

	pol.flags = NS_POLICY_NET_LISTEN;
	pol.n_net_allow = 0;
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "--net-listen"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.text, "\n(allow network*)\n"));
	sb_profile_free(&p);
}

/* metal differs from none by one comment line: nothing is widened */
static void
test_profile_gpu(void)
{
	struct ns_policy pol;
	struct sb_prof a, b;
	char err[768];
	const char *x, *y;

	pol_init(&pol);
	rule(&pol, "w", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &a, err), 0);
	pol.gpu = "metal";
	CU_ASSERT_EQUAL_FATAL(build(&pol, &b, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(a.text, "\n; gpu none\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.text, "\n; gpu metal: intent recorded"));
	x = strstr(a.text, "; gpu");
	y = strstr(b.text, "; gpu");
	CU_ASSERT_EQUAL(x - a.text, y - b.text);
	CU_ASSERT_EQUAL(strncmp(a.text, b.text, (size_t)(x - a.text)), 0);
	CU_ASSERT_STRING_EQUAL(strchr(x, '\n') ? "" : "x", "");
	CU_ASSERT_EQUAL(a.n, b.n);
	sb_profile_free(&a);
	sb_profile_free(&b);
}

/* ---- argv and failures ----------------------------------------------------- */

static void
test_argv(void)
{
	struct ns_policy pol;
	struct sb_prof p;
	char err[768], **v;
	const char *args[] = { "typed", "a b", "--", NULL };
	size_t i;

	pol_init(&pol);
	rule(&pol, "w", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	v = sb_argv("/usr/bin/sandbox-exec", &p, "/bin/echo", args);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_STRING_EQUAL(v[0], "/usr/bin/sandbox-exec");
	CU_ASSERT_STRING_EQUAL(v[1], "-p");
	CU_ASSERT_PTR_EQUAL(v[2], p.text);
	for (i = 3; strcmp(v[i], "-D") == 0; i += 2)
		CU_ASSERT_PTR_NOT_NULL(strchr(v[i + 1], '='));
	CU_ASSERT_EQUAL((i - 3) / 2, p.n);
	CU_ASSERT_STRING_EQUAL(v[i], "--");
	CU_ASSERT_STRING_EQUAL(v[i + 1], "/bin/echo");
	CU_ASSERT_STRING_EQUAL(v[i + 2], "a b");
	CU_ASSERT_STRING_EQUAL(v[i + 3], "--");
	CU_ASSERT_PTR_NULL(v[i + 4]);
	sb_argv_free(v);
	sb_profile_free(&p);
}

static void
test_fail_mapping(void)
{
	CU_ASSERT_EQUAL(sb_fail_of(0, ""), SB_FAIL_NONE);
	CU_ASSERT_EQUAL(sb_fail_of(65, "sandbox-exec: unbound variable: R1 at "
				       "<input string>, line 4"), SB_FAIL_SYNTAX);
	/* a 65 that is not sandbox-exec's own line is not a syntax error */
	CU_ASSERT_EQUAL(sb_fail_of(65, "data error"), SB_FAIL_OTHER);
	CU_ASSERT_EQUAL(sb_fail_of(71, "sandbox-exec: sandbox_apply: Operation "
				       "not permitted"), SB_FAIL_NESTED);
	CU_ASSERT_EQUAL(sb_fail_of(71, "sandbox-exec: sandbox_apply: Invalid "
				       "argument"), SB_FAIL_APPLY);
	CU_ASSERT_EQUAL(sb_fail_of(71, NULL), SB_FAIL_OTHER);
	CU_ASSERT_EQUAL(sb_fail_of(1, "sandbox-exec: x"), SB_FAIL_OTHER);
	CU_ASSERT_STRING_EQUAL(sb_fail_reason(SB_FAIL_NESTED), "nested_sandbox");
	CU_ASSERT_STRING_EQUAL(sb_fail_reason(SB_FAIL_SYNTAX), "sandbox_failed");
	CU_ASSERT_STRING_EQUAL(sb_fail_reason(SB_FAIL_APPLY), "sandbox_failed");
}

/* ---- the log ----------------------------------------------------------------- */

static void
test_log_parser(void)
{
	struct sb_deny d;

	CU_ASSERT_EQUAL_FATAL(sb_log_line("{\"eventMessage\":\"Sandbox: touch(4242)"
				  " deny(1) file-write-create \\/private\\/tmp\\/x y\","
				  "\"processID\":0}", &d), 0);
	CU_ASSERT_EQUAL(d.pid, 4242);
	CU_ASSERT_STRING_EQUAL(d.proc, "touch");
	CU_ASSERT_STRING_EQUAL(d.opword, "file-write-create");
	CU_ASSERT_STRING_EQUAL(d.path, "/private/tmp/x y");
	CU_ASSERT_EQUAL(d.op, NS_OP_CREATE);
	CU_ASSERT_EQUAL(d.tagged, 0);
	/* a process name with parentheses; the tag on a second line */
	CU_ASSERT_EQUAL_FATAL(sb_log_line("{\"eventMessage\" : \"Sandbox: Web "
				  "Content (Pre)(77) deny(1) file-read-data /a\\nViolation:"
				  " nova-sandbox\"}", &d), 0);
	CU_ASSERT_STRING_EQUAL(d.proc, "Web Content (Pre)");
	CU_ASSERT_EQUAL(d.pid, 77);
	CU_ASSERT_STRING_EQUAL(d.path, "/a");
	CU_ASSERT_EQUAL(d.op, NS_OP_READ);
	CU_ASSERT_EQUAL(d.tagged, 1);
	CU_ASSERT_EQUAL(sb_log_line("{\"eventMessage\":\"Sandbox: p(1) deny(1) "
				    "network-outbound 1.2.3.4:443\"}", &d), 0);
	CU_ASSERT_EQUAL(d.op, NS_OP_CONNECT);
	CU_ASSERT_STRING_EQUAL(d.path, "1.2.3.4:443");
	/* not denials */
	CU_ASSERT_EQUAL(sb_log_line("{\"count\":5,\"finished\":1}", &d), -1);
	CU_ASSERT_EQUAL(sb_log_line("Filtering the log data using ...", &d), -1);
	CU_ASSERT_EQUAL(sb_log_line("{\"eventMessage\":\"hello\"}", &d), -1);
	CU_ASSERT_EQUAL(sb_log_line("{\"eventMessage\":\"Sandbox: p() deny(1) x /a\"}", &d), -1);
	CU_ASSERT_EQUAL(sb_log_line("{\"eventMessage\":\"Sandbox: p(1) deny(1) x /a", &d), -1);
	CU_ASSERT_EQUAL(sb_log_line("{\"eventMessage\":\"Sandbox: p(1) deny(1)\"}", &d), -1);
	/* the operation table */
	CU_ASSERT_EQUAL(sb_op_of("file-write-unlink"), NS_OP_DELETE);
	CU_ASSERT_EQUAL(sb_op_of("file-write-data"), NS_OP_WRITE);
	CU_ASSERT_EQUAL(sb_op_of("file-read-metadata"), NS_OP_READ);
	CU_ASSERT_EQUAL(sb_op_of("process-exec*"), NS_OP_EXEC);
	CU_ASSERT_EQUAL(sb_op_of("file-map-executable"), NS_OP_EXEC);
	CU_ASSERT_EQUAL(sb_op_of("network-bind"), NS_OP_BIND);
	CU_ASSERT_EQUAL(sb_op_of("mach-lookup"), NS_OP_OTHER);
}

/* ---- the GPU taxonomy ---------------------------------------------------------- */

static void
test_gpu_taxonomy(void)
{
	static const struct {
		int status;
		const char *out;
		enum sb_gpu want;
	} cases[] = {
		{ 0, "NOVA_GPU_OK 8.0\n", SB_GPU_OK },
		{ 1, "NOVA_GPU_OK 8.0\n", SB_GPU_DEVICE_UNAVAILABLE },
		{ 127, "", SB_GPU_RUNTIME_MISSING },
		{ 127, "sh: python3: command not found\n", SB_GPU_RUNTIME_MISSING },
		{ 1, "Traceback (most recent call last):\nModuleNotFoundError: "
		     "No module named 'mlx'\n", SB_GPU_PACKAGE_DISCOVERY },
		{ 1, "RuntimeError: [metal::load_device] No Metal device "
		     "available\n", SB_GPU_NO_METAL_DEVICE },
		/* MLX's own message wins over the refusal beside it */
		{ 1, "open: Operation not permitted\n[metal::load_device] No "
		     "Metal device available\n", SB_GPU_NO_METAL_DEVICE },
		{ 1, "PermissionError: [Errno 1] Operation not permitted: "
		     "'/x'\n", SB_GPU_POLICY_REFUSED },
		{ 1, "Segmentation fault\n", SB_GPU_DEVICE_UNAVAILABLE },
		{ -1, "", SB_GPU_DEVICE_UNAVAILABLE },
	};
	char detail[192], big[2048];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum sb_gpu g = sb_gpu_classify(cases[i].status, cases[i].out,
						detail, sizeof(detail));

		CU_ASSERT_EQUAL(g, cases[i].want);
		if (g != cases[i].want)
			fprintf(stderr, "case %zu: %s\n", i, sb_gpu_word(g));
		CU_ASSERT(strlen(detail) <= 160 && strchr(detail, '\n') == NULL);
	}
	sb_gpu_classify(1, "Traceback\nModuleNotFoundError: No module named "
			"'mlx'\nmore\n", detail, sizeof(detail));
	CU_ASSERT_STRING_EQUAL(detail, "ModuleNotFoundError: No module named 'mlx'");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big + 100, "No module named", 15);
	sb_gpu_classify(1, big, detail, sizeof(detail));
	CU_ASSERT_EQUAL(strlen(detail), 160);
	CU_ASSERT_STRING_EQUAL(sb_gpu_word(SB_GPU_PACKAGE_DISCOVERY),
			       "package_discovery_failed");
	CU_ASSERT_STRING_EQUAL(sb_gpu_word(SB_GPU_NO_METAL_DEVICE),
			       "no_metal_device");
	CU_ASSERT_STRING_EQUAL(sb_gpu_word(SB_GPU_RUNTIME_MISSING),
			       "runtime_missing");
	CU_ASSERT_STRING_EQUAL(sb_gpu_word(SB_GPU_POLICY_REFUSED),
			       "policy_refused");
	CU_ASSERT_STRING_EQUAL(sb_gpu_word(SB_GPU_DEVICE_UNAVAILABLE),
			       "device_unavailable");
}

/* ---- the ops against the fakes ---------------------------------------------- */

static char tool_se[PATH_MAX + 32], tool_log[PATH_MAX + 32];
static const struct ns_wall_ops *Wl;

static void
fakes_on(void)
{
	fh_reset();
	snprintf(tool_se, sizeof(tool_se), "%s/sandbox-exec", fakes);
	snprintf(tool_log, sizeof(tool_log), "%s/log", fakes);
	fh_set("sandbox_exec", tool_se);
	fh_set("log", tool_log);
	unsetenv("FAKE_SB_FAIL");
	unsetenv("FAKE_SB_LLEXEC");
	unsetenv("FAKE_LOG_REPLAY");
	unsetenv("FAKE_LOG_FAIL");
	setenv("FAKE_SB_STATE", top, 1);
	Wl = ns_backend_v1.wall;
}

static void
test_ops_descriptor(void)
{
	CU_ASSERT_STRING_EQUAL(ns_backend_v1.name, "seatbelt");
	CU_ASSERT_EQUAL(ns_backend_v1.roles, NS_ROLE_WALL);
	CU_ASSERT_EQUAL(ns_backend_v1.wall->shape, NS_SHAPE_HELPER);
	CU_ASSERT_EQUAL(ns_backend_v1.abi_minor, 0);
	CU_ASSERT_PTR_NOT_NULL(ns_backend_v1.wall->finish);
	CU_ASSERT_EQUAL(ns_backend_v1.wall->features & NS_WALL_EXPLAIN, 0);
	/* --net-allow (ABI 1.5): the host's proxy on its loopback */
	CU_ASSERT_NOT_EQUAL(ns_backend_v1.wall->features & NS_WALL_NET_LOOPBACK,
			    0);
	CU_ASSERT_EQUAL(ns_backend_v1.wall->features & NS_WALL_NETNS, 0);
}

static void
test_ops_facts(void)
{
	struct ns_wall_facts f;

	fakes_on();
	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	CU_ASSERT_EQUAL(Wl->facts(&fake_ns_host, &f), NS_OK);
	CU_ASSERT_EQUAL(f.available, 1);
	fh_set("sandbox_exec", "/nonexistent/sandbox-exec");
	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	CU_ASSERT_EQUAL(Wl->facts(&fake_ns_host, &f), NS_OK);
	CU_ASSERT_EQUAL(f.available, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.why, "sandbox-exec"));
	fh_set("sandbox_exec", "relative/sandbox-exec");
	CU_ASSERT_EQUAL(Wl->facts(&fake_ns_host, &f), NS_E_UNAVAILABLE);
	CU_ASSERT_STRING_EQUAL(fh.reason, "bad_config");
}

static int
run_spawned(const struct ns_policy *pol, void *st)
{
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc pr;
	int status;

	if (Wl->spawn(&fake_ns_host, st, pol, &l, &pr) != NS_OK)
		return -1;
	if (waitpid((pid_t)pr.pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define CHECK(c)                                                        \
	do {                                                            \
		if (!(c)) {                                             \
			bad++;                                          \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, \
				#c);                                    \
		}                                                       \
	} while (0)

/* prepare (build + preflight), spawn and the failure mapping, as an
 * unprivileged user: the number of checks that failed. */
static int
prepare_scenario(void)
{
	struct ns_policy pol;
	void *st = NULL;
	const char *args[] = { "sh", "-c", "exit 7", NULL };
	int bad = 0;

	pol_init(&pol);
	pol.rules = rules;
	pol.n_rules = 1;
	pol.argv = args;
	CHECK(Wl->prepare(&fake_ns_host, &pol, &st) == NS_OK);
	if (st == NULL)
		return bad + 1;
	/* the fake checked the injection case and ran the command */
	CHECK(run_spawned(&pol, st) == 7);
	Wl->release(&fake_ns_host, st);

	setenv("FAKE_SB_FAIL", "syntax", 1);
	pol.envp = (const char *const *)environ; /* setenv moved it */
	CHECK(Wl->prepare(&fake_ns_host, &pol, &st) == NS_E_REFUSED);
	CHECK(strcmp(fh.reason, "sandbox_failed") == 0);
	CHECK(strstr(fh.refusal, "exit 65") != NULL);
	setenv("FAKE_SB_FAIL", "nested", 1);
	pol.envp = (const char *const *)environ; /* setenv moved it */
	CHECK(Wl->prepare(&fake_ns_host, &pol, &st) == NS_E_UNAVAILABLE);
	CHECK(strcmp(fh.reason, "nested_sandbox") == 0);
	setenv("FAKE_SB_FAIL", "apply", 1);
	pol.envp = (const char *const *)environ; /* setenv moved it */
	CHECK(Wl->prepare(&fake_ns_host, &pol, &st) == NS_E_REFUSED);
	CHECK(strstr(fh.refusal, "exit 71") != NULL);
	unsetenv("FAKE_SB_FAIL");
	return bad;
}

static void
test_ops_prepare_spawn(void)
{
	struct ns_policy pol;
	void *st = NULL;
	int status;
	pid_t pid;

	fakes_on();
	unsetenv("FAKE_SB_STATE");
	pol_init(&pol);
	rule(&pol, "w \") (allow default", NS_ACCESS_WRITE);
	if (geteuid() != 0) {
		CU_ASSERT_EQUAL(prepare_scenario(), 0);
		return;
	}
	/* root is refused ... */
	CU_ASSERT_EQUAL(Wl->prepare(&fake_ns_host, &pol, &st), NS_E_REFUSED);
	CU_ASSERT_STRING_EQUAL(fh.reason, "sandbox_failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusal, "unprivileged"));
	/* ... so the scenario runs as nobody, in a child */
	chmod(top, 0755);
	pid = fork();
	if (pid == 0)
		_exit(setgid(65534) == 0 && setuid(65534) == 0 ?
			      prepare_scenario() : 99);
	CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFEXITED(status));
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "the scenario as uid 65534: status 0x%x\n",
			status);
}

/* render: the profile, then the parameters as comments */
static void
test_ops_render(void)
{
	struct ns_policy pol;
	char want[PATH_MAX + 32];

	fakes_on();
	pol_init(&pol);
	rule(&pol, "rendered", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(Wl->render(&fake_ns_host, &pol), NS_OK);
	CU_ASSERT_EQUAL(strncmp(fh.text, "(version 1)\n", 12), 0);
	snprintf(want, sizeof(want), "=%s\n", paths[0]);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.text, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.text, "; parameters: passed as -D"));
}

static int n_denials;
static char denied[8][256];

static void
fh_denial(void *cookie, const struct ns_denial *d)
{
	(void)cookie;
	if (n_denials < 8)
		snprintf(denied[n_denials], sizeof(denied[0]), "%u %s",
			 (unsigned)d->op, d->path);
	n_denials++;
}

static void
test_ops_finish(void)
{
	struct ns_host h = fake_ns_host;
	struct ns_finish fin;
	struct ns_policy pol;
	struct sb_prof p;
	char replay[PATH_MAX + 32], err[768];
	struct sb_state st;

	fakes_on();
	h.denial = fh_denial;
	pol_init(&pol);
	rule(&pol, "fin", NS_ACCESS_WRITE);
	CU_ASSERT_EQUAL_FATAL(build(&pol, &p, err), 0);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL_FATAL(sb_cfg_load(&h, &st.cfg), 0);
	memset(&fin, 0, sizeof(fin));
	fin.struct_size = sizeof(fin);
	fin.proc.pid = 4242;
	fin.start_ns = (int64_t)time(NULL) * 1000000000LL;
	fin.end_ns = fin.start_ns;
	fin.exit.how = NS_END_CODE;
	fin.exit.code = 0;
	/* exit 0: no log */
	n_denials = 0;
	CU_ASSERT_EQUAL(Wl->finish(&h, &st, &fin), NS_OK);
	CU_ASSERT_EQUAL(fh.notes_len, 0);
	/* a failure, the replay: ours by pid and by tag, not the others */
	fin.exit.code = 1;
	snprintf(replay, sizeof(replay), "%s/denials.ndjson", fakes);
	setenv("FAKE_LOG_REPLAY", replay, 1);
	setenv("FAKE_LOG_DIR", "/d", 1);
	{
		char pidf[PATH_MAX + 8];
		FILE *f;

		snprintf(pidf, sizeof(pidf), "%s/pid", top);
		f = fopen(pidf, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fprintf(f, "4242\n");
		fclose(f);
	}
	CU_ASSERT_EQUAL(Wl->finish(&h, &st, &fin), NS_OK);
	CU_ASSERT_EQUAL(n_denials, 4);
	CU_ASSERT_STRING_EQUAL(denied[0], "4 /d/outside/new.txt");
	CU_ASSERT_STRING_EQUAL(denied[1], "1 /d/secret/key");
	CU_ASSERT_STRING_EQUAL(denied[3], "7 192.0.2.7:443");
	CU_ASSERT_EQUAL(fh.notes_len, 0);
	/* nothing in the log: said honestly */
	unsetenv("FAKE_LOG_REPLAY");
	n_denials = 0;
	CU_ASSERT_EQUAL(Wl->finish(&h, &st, &fin), NS_OK);
	CU_ASSERT_EQUAL(n_denials, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "holds no sandbox violation"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "does not mean nothing was "
						"denied"));
	/* the log fails: a note, never a refusal */
	fh_clear();
	setenv("FAKE_LOG_FAIL", "1", 1);
	CU_ASSERT_EQUAL(Wl->finish(&h, &st, &fin), NS_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "could not read the unified log"));
	CU_ASSERT_EQUAL(fh.n_refusals, 0);
	unsetenv("FAKE_LOG_FAIL");
	/* an old host without denial(): nothing is asked */
	fh_clear();
	h.struct_size = NS_HOST_SIZE_1_1;
	CU_ASSERT_EQUAL(Wl->finish(&h, &st, &fin), NS_OK);
	CU_ASSERT_EQUAL(fh.notes_len, 0);
	sb_profile_free(&p);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "profile: shape, no path in the text", test_profile_shape },
		{ "profile: each access class", test_profile_rules },
		{ "profile: protected paths denied after every allow",
		  test_profile_protect },
		{ "profile: protected paths with hostile names",
		  test_profile_protect_hostile },
		{ "profile: hostile paths are parameters", test_profile_injection },
		{ "profile: realpath and ancestors",
		  test_profile_realpath_and_ancestors },
		{ "profile: size cap", test_profile_size_cap },
		{ "profile: network deny/allow/loopback/listen",
		  test_profile_network },
		{ "profile: gpu metal widens nothing", test_profile_gpu },
		{ "argv", test_argv },
		{ "sandbox-exec failure mapping", test_fail_mapping },
		{ "unified log parser", test_log_parser },
		{ "gpu taxonomy", test_gpu_taxonomy },
		{ "ops: descriptor", test_ops_descriptor },
		{ "ops: facts", test_ops_facts },
		{ "ops: prepare, preflight, spawn", test_ops_prepare_spawn },
		{ "ops: render", test_ops_render },
		{ "ops: finish and the log", test_ops_finish },
		{ NULL, NULL }
	};

	return cu_run("seatbelt", suite_init, suite_clean, cases);
}
