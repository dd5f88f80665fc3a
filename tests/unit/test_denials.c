/* SPDX-License-Identifier: MIT */
/* test_denials.c -- ABI 1.2's denials in the host: the de-duplicated list
 * behind ns_host.denial (module/denials.c, module/hostsvc.c) and the
 * DENIED lines with their remedies (wall/explain.c). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module/denials.h"
#include "module/hostsvc.h"
#include "wall/explain.h"

static char g_dir[64];

static int
setup(void)
{
	char p[PATH_MAX];

	snprintf(g_dir, sizeof(g_dir), "/tmp/ns-denials.XXXXXX");
	if (mkdtemp(g_dir) == NULL)
		return -1;
	snprintf(p, sizeof(p), "%s/sub", g_dir);
	if (mkdir(p, 0755) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s/a b", g_dir);
	if (mkdir(p, 0755) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s/file", g_dir);
	FILE *f = fopen(p, "w");
	if (f == NULL)
		return -1;
	fclose(f);
	return 0;
}

static int
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *
at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s%s", g_dir, rel);
	return buf[k];
}

/* ---- the list --------------------------------------------------------- */

static void
test_dedupe_counts_order(void)
{
	struct denials d = {0};

	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_READ, "/a", 1), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_WRITE, "/b", 2), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_READ, "/a", 3), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_WRITE, "/a", 0), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_READ, "/a/", 1), 0);
	CU_ASSERT_EQUAL_FATAL(d.n, 4);
	/* first seen first; the same (op, path) added up */
	CU_ASSERT_STRING_EQUAL(d.v[0].path, "/a");
	CU_ASSERT_EQUAL(d.v[0].op, NS_OP_READ);
	CU_ASSERT_EQUAL(d.v[0].count, 4);
	CU_ASSERT_STRING_EQUAL(d.v[1].path, "/b");
	CU_ASSERT_EQUAL(d.v[1].count, 2);
	/* another op on the same path is another entry; count 0 counts 1 */
	CU_ASSERT_EQUAL(d.v[2].op, NS_OP_WRITE);
	CU_ASSERT_STRING_EQUAL(d.v[2].path, "/a");
	CU_ASSERT_EQUAL(d.v[2].count, 1);
	CU_ASSERT_STRING_EQUAL(d.v[3].path, "/a/");
	denials_free(&d);
	CU_ASSERT_EQUAL(d.n, 0);
}

static void
test_odd_input(void)
{
	struct denials d = {0};

	CU_ASSERT_EQUAL(denials_add(&d, 0, "/x", 1), 0);
	CU_ASSERT_EQUAL(denials_add(&d, 77, "/x", 1), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_OTHER, "/x", UINT64_MAX), 0);
	CU_ASSERT_EQUAL(denials_add(&d, NS_OP_READ, NULL, 1), -1);
	CU_ASSERT_EQUAL_FATAL(d.n, 1); /* unknown ops are "other" */
	CU_ASSERT_EQUAL(d.v[0].op, NS_OP_OTHER);
	CU_ASSERT_EQUAL(d.v[0].count, UINT64_MAX); /* saturates */
	CU_ASSERT_STRING_EQUAL(explain_op_word(77), "other");
	CU_ASSERT_STRING_EQUAL(explain_op_word(NS_OP_RENAME), "rename");
	denials_free(&d);
}

/* ns_host.denial lands only while finish() runs, and only a struct whose
 * struct_size covers count. */
static void
test_host_service(void)
{
	struct hostsvc hs;
	struct denials d = {0};
	struct ns_denial one = { sizeof(one), NS_OP_READ, "/s", 2, NULL };
	struct ns_denial shrt = { 8, NS_OP_READ, "/short", 1, NULL };

	memset(&hs, 0, sizeof(hs));
	hostsvc_init(&hs);
	CU_ASSERT(NS_HOST_HAS_DENIAL(&hs.host));
	hs.host.denial(hs.host.cookie, &one); /* not in finish(): dropped */
	hs.denials = &d;
	hs.host.denial(hs.host.cookie, &one);
	hs.host.denial(hs.host.cookie, &one);
	hs.host.denial(hs.host.cookie, &shrt);
	hs.host.denial(hs.host.cookie, NULL);
	hs.denials = NULL;
	CU_ASSERT_EQUAL_FATAL(d.n, 1);
	CU_ASSERT_EQUAL(d.v[0].count, 4);
	denials_free(&d);
}

/* ---- remedies ----------------------------------------------------------- */

static void
test_nearest_dir(void)
{
	char out[PATH_MAX];

	CU_ASSERT_EQUAL(explain_nearest_dir(at("/sub"), out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, at("/sub"));
	CU_ASSERT_EQUAL(explain_nearest_dir(at("/sub/"), out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, at("/sub"));
	CU_ASSERT_EQUAL(explain_nearest_dir(at("/sub/no/such/x"), out,
					    sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, at("/sub"));
	CU_ASSERT_EQUAL(access(at("/sub/no"), F_OK), -1); /* nothing made */
	CU_ASSERT_EQUAL(explain_nearest_dir(at("/file"), out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, g_dir);
	CU_ASSERT_EQUAL(explain_nearest_dir(at("/file/below"), out,
					    sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, g_dir);
	CU_ASSERT_EQUAL(explain_nearest_dir("/no-such-top-nova/x", out,
					    sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "/");
	CU_ASSERT_EQUAL(explain_nearest_dir("relative/x", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(explain_nearest_dir(at("/sub"), out, 4), -1);
}

static void
expect_remedy(uint32_t op, const char *path, int net_deny, const char *want)
{
	char *r = explain_remedy(op, path, net_deny);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	if (strcmp(r, want) != 0)
		fprintf(stderr, "\n  op %u %s: got %s, wanted %s\n", op, path, r,
			want);
	CU_ASSERT_STRING_EQUAL(r, want);
	free(r);
}

static void
test_remedy_each_op(void)
{
	char rd[PATH_MAX + 8], wr[PATH_MAX + 8], top[PATH_MAX + 8];

	snprintf(rd, sizeof(rd), "--read %s", at("/sub"));
	snprintf(wr, sizeof(wr), "--write %s", at("/sub"));
	snprintf(top, sizeof(top), "--write %s", g_dir);
	expect_remedy(NS_OP_READ, at("/sub/secret"), 0, rd);
	expect_remedy(NS_OP_EXEC, at("/sub/tool"), 0, rd);
	expect_remedy(NS_OP_READ, at("/sub"), 0, rd); /* a dir names itself */
	expect_remedy(NS_OP_WRITE, at("/sub/f"), 0, wr);
	expect_remedy(NS_OP_CREATE, at("/sub/new/deeper"), 0, wr);
	expect_remedy(NS_OP_DELETE, at("/sub/old"), 0, wr);
	expect_remedy(NS_OP_RENAME, at("/sub/old"), 0, wr);
	/* an entry's rights are its directory's: rmdir, rename or create of
	 * an existing directory names the directory above it */
	expect_remedy(NS_OP_DELETE, at("/sub"), 0, top);
	expect_remedy(NS_OP_RENAME, at("/sub"), 0, top);
	expect_remedy(NS_OP_CREATE, at("/sub"), 0, top);
	expect_remedy(NS_OP_WRITE, at("/file"), 0, top);
	expect_remedy(NS_OP_CONNECT, "1.2.3.4:443", 1, "without --net-deny");
	expect_remedy(NS_OP_BIND, "0.0.0.0:80", 1, "without --net-deny");
	expect_remedy(NS_OP_CONNECT, "1.2.3.4:443", 0, "-");
	/* a socket family that is not IP: no remedy anyone would take */
	expect_remedy(NS_OP_CONNECT, "AF_NETLINK", 1, "-");
	expect_remedy(NS_OP_CONNECT, "AF_INET6", 1, "without --net-deny");
	expect_remedy(NS_OP_BIND, "0.0.0.0:80", 0, "-");
	expect_remedy(NS_OP_OTHER, at("/sub"), 1, "-");
	expect_remedy(NS_OP_READ, "relative", 0, "-");
	/* never the whole machine nor the kernel's trees */
	expect_remedy(NS_OP_READ, "/", 0, "-");
	expect_remedy(NS_OP_WRITE, "/dev/tty", 0, "-");
	expect_remedy(NS_OP_READ, "/proc/1/environ", 0, "-");
	expect_remedy(NS_OP_CREATE, "/sys/x", 0, "-");
	expect_remedy(NS_OP_CREATE, "/newdir", 0, "-");
	/* the directory is field-escaped */
	snprintf(rd, sizeof(rd), "--read %s/a\\x20b", g_dir);
	expect_remedy(NS_OP_READ, at("/a b/x"), 0, rd);
}

/* ---- the lines ---------------------------------------------------------- */

static char *
printed_cx(const struct denials *d, const struct explain_ctx *cx)
{
	FILE *f = tmpfile();
	char *s = calloc(1, 1 << 20);

	if (f == NULL || s == NULL)
		return NULL;
	CU_ASSERT_EQUAL(explain_print(f, "SANDBOX", d, cx), 0);
	fflush(f);
	rewind(f);
	(void)!fread(s, 1, (1 << 20) - 1, f);
	fclose(f);
	return s;
}

static char *
printed(const struct denials *d, int net_deny)
{
	struct explain_ctx cx = { NULL, NULL, net_deny };

	return printed_cx(d, &cx);
}

static size_t
count_lines(const char *s, const char *prefix)
{
	size_t n = 0;
	size_t k = strlen(prefix);

	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += strncmp(l, prefix, k) == 0;
	return n;
}

/* every distinct denial is listed (no cap), each directory's together in
 * the order the directories were first seen */
static void
test_all_listed_grouped(void)
{
	struct denials d = {0};
	char p[PATH_MAX], *s, *a, *b;

	for (int i = 0; i < 30; i++) {
		snprintf(p, sizeof(p), "%s/p%02d", at("/sub"), i);
		denials_add(&d, NS_OP_READ, p, 1);
		denials_add(&d, NS_OP_READ, p, 1); /* a repeat is no new line */
		snprintf(p, sizeof(p), "%s/q%02d", g_dir, i);
		denials_add(&d, NS_OP_READ, p, 1);
	}
	s = printed(&d, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX DENIED "), 60);
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX NOTE"), 0);
	/* sub/ first (seen first), all its thirty, then the top's thirty */
	a = strstr(s, "/sub/p29 ");
	b = strstr(s, "/q00 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(a < b);
	CU_ASSERT(strstr(s, "/sub/p00 ") < strstr(s, "/sub/p01 "));
	CU_ASSERT(strstr(s, "/q28 ") < strstr(s, "/q29 "));
	free(s);
	denials_free(&d);
}

/* a denial no flag can grant is counted in one NOTE, never a DENIED
 * line with remedy "-" */
static void
test_no_remedy_counted(void)
{
	struct denials d = {0};
	char *s;

	denials_add(&d, NS_OP_READ, "/sys/fs/cgroup", 1);
	denials_add(&d, NS_OP_READ, "/sys/devices/system/cpu/online", 1);
	denials_add(&d, NS_OP_CONNECT, "AF_NETLINK", 2);
	denials_add(&d, NS_OP_WRITE, "/dev/tty", 1);
	denials_add(&d, NS_OP_READ, at("/sub/x"), 1);
	denials_add(&d, NS_OP_CONNECT, "AF_INET", 1);
	s = printed(&d, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX DENIED "), 2);
	CU_ASSERT_PTR_NULL(strstr(s, "remedy=\"-\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "path=AF_INET op=connect remedy=\""
				      "without --net-deny\"\n"));
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX NOTE 4 denied paths no flag "
				    "can grant, not listed (a kernel file, a "
				    "device, a socket that is not IP): "
				    "/sys/fs/cgroup read, "
				    "/sys/devices/system/cpu/online read, "
				    "AF_NETLINK connect, ...\n"), 1);
	free(s);
	denials_free(&d);
}

static void
expect_warn(const char *flag, const char *dir, const struct explain_ctx *cx,
	    const char *want)
{
	char out[64];
	int rc = explain_warn(flag, dir, cx, out, sizeof(out));

	CU_ASSERT_EQUAL(rc, want[0] != '\0');
	if (strcmp(out, want) != 0)
		fprintf(stderr, "\n  %s %s: got %s, wanted %s\n", flag, dir,
			out, want);
	CU_ASSERT_STRING_EQUAL(out, want);
}

static void
test_warn_words(void)
{
	struct strv homes = {0}, reads = {0};
	struct explain_ctx cx = { &homes, &reads, 0 };

	strv_push(&homes, "/home/u");
	strv_push(&reads, "/src/pr");
	expect_warn("--read", "/home/u/.ssh", &cx, "secrets");
	expect_warn("--read", "/home/u/.ssh/keys", &cx, "secrets");
	expect_warn("--read", "/home/u/.config/gcloud", &cx, "secrets");
	expect_warn("--read", "/home/u/.mozilla/firefox/x.default", &cx,
		    "secrets");
	expect_warn("--read", "/home/u/.local/share/keyrings", &cx, "secrets");
	expect_warn("--read", "/home/u/.aws", &cx, "secrets");
	expect_warn("--read", "/home/u/.kube", &cx, "secrets");
	expect_warn("--read", "/home/u/.docker", &cx, "secrets");
	/* .config holds gcloud's and the browsers' */
	expect_warn("--read", "/home/u/.config", &cx, "secrets");
	expect_warn("--write", "/home/u", &cx, "secrets,home");
	expect_warn("--write", "/home", &cx, "secrets,home");
	expect_warn("--read", "/home/u/src", &cx, "");
	expect_warn("--read", "/home/u/.sshx", &cx, "");
	expect_warn("--read", "/usr/lib", &cx, "");
	/* a --read root written, or a directory that holds one */
	expect_warn("--write", "/src/pr", &cx, "read-source");
	expect_warn("--write", "/src", &cx, "read-source");
	expect_warn("--write", "/src/pr/build", &cx, "");
	expect_warn("--read", "/src/pr", &cx, "");
	expect_warn("--write", "/", &cx, "secrets,home,read-source");
	strv_free(&homes);
	strv_free(&reads);
}

/* the warn= word is on the DENIED line, after the remedy */
static void
test_warn_on_line(void)
{
	struct denials d = {0};
	struct strv homes = {0}, reads = {0};
	struct explain_ctx cx = { &homes, &reads, 0 };
	char p[PATH_MAX], *s;

	strv_push(&homes, g_dir);
	strv_push(&reads, at("/sub"));
	denials_add(&d, NS_OP_CREATE, at("/sub/new"), 1);
	denials_add(&d, NS_OP_READ, at("/a b/x"), 1);
	s = printed_cx(&d, &cx);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(p, sizeof(p), "SANDBOX DENIED path=%s op=create remedy=\""
		 "--write %s\" warn=read-source\n", at("/sub/new"), at("/sub"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, p));
	snprintf(p, sizeof(p), "remedy=\"--read %s/a\\x20b\"\n", g_dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, p));
	free(s);
	denials_free(&d);
	strv_free(&homes);
	strv_free(&reads);
}

static void
test_escaping(void)
{
	struct denials d = {0};
	char *s, p[PATH_MAX], want[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/new\nline=1 SANDBOX DONE", at("/sub"));
	denials_add(&d, NS_OP_WRITE, p, 1);
	denials_add(&d, NS_OP_CONNECT, "10.0.0.1:22", 1);
	s = printed(&d, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(want, sizeof(want), "SANDBOX DENIED path=%s/new\\x0aline"
		 "\\x3d1\\x20SANDBOX\\x20DONE op=write remedy=\"--write %s\"\n",
		 at("/sub"), at("/sub"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "SANDBOX DENIED path=10.0.0.1:22 "
				      "op=connect remedy=\"without --net-deny\""
				      "\n"));
	CU_ASSERT_EQUAL(count_lines(s, ""), 2);
	free(s);
	denials_free(&d);
}

/* ---- the end NOTE -------------------------------------------------------- */

static void
test_denial_kind(void)
{
	CU_ASSERT_EQUAL(explain_denial_kind(0), 0);
	CU_ASSERT_EQUAL(explain_denial_kind(1), 1);
	CU_ASSERT_EQUAL(explain_denial_kind(2), 1);   /* make */
	CU_ASSERT_EQUAL(explain_denial_kind(126), 1); /* sh: cannot execute */
	CU_ASSERT_EQUAL(explain_denial_kind(128), 1);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGSEGV), 1);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGABRT), 1);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGSYS), 1);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGKILL), 0);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGTERM), 0);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGINT), 0);
	CU_ASSERT_EQUAL(explain_denial_kind(128 + SIGPIPE), 0);
	CU_ASSERT_EQUAL(explain_denial_kind(200), 1); /* no signal: its own */
}

static void
expect_note(const struct end_facts *f, const char *want)
{
	char buf[512];
	int got = explain_end_note(f, buf, sizeof(buf));

	if (want == NULL) {
		CU_ASSERT_EQUAL(got, 0);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(got, 1);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "\n  got %s\n  wanted %s\n", buf, want);
	CU_ASSERT_STRING_EQUAL(buf, want);
}

static void
test_end_note(void)
{
	struct end_facts f = { 2, 0, "1m", NULL, 0, 1, "linux" };

	expect_note(&f, "the command exited 2: if the wall denied it a path, "
		    "rerun with --explain to name it");
	f.explain = 1; /* the DENIED lines said it */
	expect_note(&f, NULL);
	f.explain = 0;
	f.names = 0;
	expect_note(&f, "the command exited 2; the linux wall does not report "
		    "its denials: a path it needs may be missing a --read");
	f.wall = NULL;
	expect_note(&f, NULL);
	f.names = 1;
	f.full = "8m";
	expect_note(&f, "the command exited 2: the place is full (--size 8m)");
	f.full = NULL;
	f.code = 143;
	f.killed = NS_TERM_TIMEOUT;
	expect_note(&f, "the command was ended: it timed out after 1m "
		    "(--timeout)");
	f.killed = NS_TERM_SIGNAL;
	expect_note(&f, "the command was ended: the tool was asked to stop "
		    "and passed the signal on");
	f.killed = NS_TERM_CAP;
	f.code = 137;
	expect_note(&f, "the command was ended: it passed a cap of processes "
		    "or memory");
	f.killed = 0;
	expect_note(&f, "the command exited 137: ended by signal 9, which a "
		    "refused call does not cause");
	f.code = 0;
	expect_note(&f, NULL);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "dedupe, counts, first-seen order", test_dedupe_counts_order },
		{ "unknown op, NULL path, saturated count", test_odd_input },
		{ "ns_host.denial only inside finish()", test_host_service },
		{ "nearest existing directory, nothing created", test_nearest_dir },
		{ "the remedy of each op", test_remedy_each_op },
		{ "every denial listed, by directory", test_all_listed_grouped },
		{ "no remedy: counted in one NOTE", test_no_remedy_counted },
		{ "warn= words", test_warn_words },
		{ "warn= on the DENIED line", test_warn_on_line },
		{ "paths are field-escaped", test_escaping },
		{ "which exits a denial can give", test_denial_kind },
		{ "the end NOTE: the known cause, else the hint",
		  test_end_note },
		{ NULL, NULL }
	};

	return cu_run("denials", setup, teardown, cases);
}
