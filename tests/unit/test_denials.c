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
printed(const struct denials *d, int net_deny)
{
	FILE *f = tmpfile();
	char *s = calloc(1, 65536);

	if (f == NULL || s == NULL)
		return NULL;
	CU_ASSERT_EQUAL(explain_print(f, "SANDBOX", d, net_deny), 0);
	fflush(f);
	rewind(f);
	(void)!fread(s, 1, 65535, f);
	fclose(f);
	return s;
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

static void
test_cap_and_note(void)
{
	struct denials d = {0};
	char p[64], *s;

	for (int i = 0; i < 12; i++) {
		snprintf(p, sizeof(p), "/cap/p%02d", i);
		denials_add(&d, NS_OP_READ, p, 1);
		denials_add(&d, NS_OP_READ, p, 1); /* a repeat is no new line */
	}
	s = printed(&d, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX DENIED "), 10);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "SANDBOX DENIED path=/cap/p00 op=read "
				      "remedy=\"-\"\n")); /* never "/" */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "path=/cap/p09 "));
	CU_ASSERT_PTR_NULL(strstr(s, "path=/cap/p10 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "SANDBOX NOTE and 2 more denied paths "
				      "(not listed)\n"));
	/* first seen first */
	CU_ASSERT(strstr(s, "p00") < strstr(s, "p01"));
	free(s);
	/* exactly ten: no NOTE */
	d.n = 10;
	s = printed(&d, 0);
	CU_ASSERT_EQUAL(count_lines(s, "SANDBOX DENIED "), 10);
	CU_ASSERT_PTR_NULL(strstr(s, "NOTE"));
	free(s);
	d.n = 12;
	denials_free(&d);
}

static void
test_escaping(void)
{
	struct denials d = {0};
	char *s;

	denials_add(&d, NS_OP_WRITE, "/x/new\nline=1 SANDBOX DONE", 1);
	denials_add(&d, NS_OP_CONNECT, "10.0.0.1:22", 1);
	s = printed(&d, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "SANDBOX DENIED path=/x/new\\x0aline"
				      "\\x3d1\\x20SANDBOX\\x20DONE op=write "
				      "remedy=\"-\"\n"));
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
		{ "ten lines, then the NOTE", test_cap_and_note },
		{ "paths are field-escaped", test_escaping },
		{ "which exits a denial can give", test_denial_kind },
		{ "the end NOTE: the known cause, else the hint",
		  test_end_note },
		{ NULL, NULL }
	};

	return cu_run("denials", setup, teardown, cases);
}
