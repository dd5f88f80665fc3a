/* SPDX-License-Identifier: MIT */
/* test_out.c -- the output grammar (host/base/out.c): field and text escaping,
 * base64url, JSON strings, shell quoting, out_line. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/remedy.h"
#include "wall/statusfd.h"

struct esc {
	const char *in, *field, *text;
};

static const struct esc table[] = {
	{ "", "-", "-" },
	{ "plain/path_1.2", "plain/path_1.2", "plain/path_1.2" },
	{ "a b", "a\\x20b", "a b" },
	{ "k=v", "k\\x3dv", "k=v" },
	{ "tab\there", "tab\\x09here", "tab\\x09here" },
	{ "nl\nx", "nl\\x0ax", "nl\\x0ax" },
	{ "cr\rx", "cr\\x0dx", "cr\\x0dx" },
	{ "\x1b[31m", "\\x1b[31m", "\\x1b[31m" },
	{ "del\x7f", "del\\x7f", "del\\x7f" },
	{ "back\\slash", "back\\slash", "back\\slash" },
	{ "caf\xc3\xa9", "caf\xc3\xa9", "caf\xc3\xa9" },           /* é kept */
	{ "\xe2\x82\xac", "\xe2\x82\xac", "\xe2\x82\xac" },        /* € kept */
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" }, /* emoji */
	{ "c1\xc2\x85", "c1\\u0085", "c1\\u0085" },                 /* NEL */
	{ "nb\xc2\xa0sp", "nb\\u00a0sp", "nb\\u00a0sp" },           /* NBSP */
	{ "\xe2\x80\xa8", "\\u2028", "\\u2028" },
	{ "\xe2\x80\xa9", "\\u2029", "\\u2029" },
	{ "\xe2\x80\xae" "evil", "\\u202eevil", "\\u202eevil" },    /* RLO */
	{ "\xe2\x80\xaa", "\\u202a", "\\u202a" },
	{ "\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069", "\\u2066x\\u2069" },
	{ "\xe3\x80\x80", "\\u3000", "\\u3000" },                   /* ideographic sp */
	{ "bad\xff", "bad\\xff", "bad\\xff" },
	{ "\xc3", "\\xc3", "\\xc3" },                               /* truncated */
	{ "\xc0\xaf", "\\xc0\\xaf", "\\xc0\\xaf" },                 /* overlong / */
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80", "\\xed\\xa0\\x80" },   /* surrogate */
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "\\xf4\\x90\\x80\\x80" },
	{ "a,b", "a,b", "a,b" },
};

static void
test_escape_table(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		char *f = out_field(table[i].in), *t = out_text(table[i].in);

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		if (strcmp(f, table[i].field) != 0)
			fprintf(stderr, "field #%zu: got %s\n", i, f);
		if (strcmp(t, table[i].text) != 0)
			fprintf(stderr, "text #%zu: got %s\n", i, t);
		CU_ASSERT_STRING_EQUAL(f, table[i].field);
		CU_ASSERT_STRING_EQUAL(t, table[i].text);
		free(f);
		free(t);
	}
}

static void
test_field_null_is_dash(void)
{
	char *f = out_field(NULL);

	CU_ASSERT_STRING_EQUAL(f, "-");
	free(f);
}

static void
test_b64url(void)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob",
		"fooba", "foobar", "\xfb\xff", "/tmp/a b", NULL };
	static const char *const want[] = { "", "Zg", "Zm8", "Zm9v", "Zm9vYg",
		"Zm9vYmE", "Zm9vYmFy", "-_8", "L3RtcC9hIGI", NULL };

	for (size_t i = 0; in[i]; i++) {
		char *b = out_b64url(in[i]);

		CU_ASSERT_STRING_EQUAL(b, want[i]);
		free(b);
	}
}

static void
check_json(const char *in, const char *want)
{
	struct sbuf b = {0};

	CU_ASSERT_EQUAL(out_json_str(&b, in), 0);
	CU_ASSERT_STRING_EQUAL(b.s, want);
	sbuf_free(&b);
}

static void
test_json(void)
{
	check_json("", "\"\"");
	check_json("a\"b\\c", "\"a\\\"b\\\\c\"");
	check_json("l1\nl2\tx\r", "\"l1\\nl2\\tx\\r\"");
	check_json("\x01\x1f", "\"\\u0001\\u001f\"");
	check_json("<a&b>", "\"\\u003ca\\u0026b\\u003e\"");
	check_json("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	check_json("bad\xff", "\"bad\\ufffd\"");
	check_json("\xe2\x80\xa8", "\"\\u2028\"");
}

static void
check_quote(const char *in, const char *want)
{
	struct sbuf b = {0};

	CU_ASSERT_EQUAL(out_shell_quote(&b, in), 0);
	CU_ASSERT_STRING_EQUAL(b.s, want);
	sbuf_free(&b);
}

static void
test_shell_quote(void)
{
	check_quote("/bin/sh", "/bin/sh");
	check_quote("--write", "--write");
	check_quote("", "''");
	check_quote("a b", "'a b'");
	check_quote("it's", "'it'\\''s'");
	check_quote("$HOME", "'$HOME'");
	check_quote("a;rm -rf /", "'a;rm -rf /'");
	check_quote("*", "'*'");
}

static void
test_out_line(void)
{
	char buf[128] = {0};
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(out_line(f, "X %s=%d", "k", 3), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "X k=3\n");
}

/* A line leaves in one write(2): on a SOCK_SEQPACKET socket every write is
 * one message, so the first message must be the whole line, newline
 * included (a stream that wrote the text and the newline apart would
 * leave "X k=3" alone, the glue of issue 7).  The real stderr is swapped
 * for the socket for the test. */
static void
test_out_line_one_write(void)
{
	char buf[256];
	int sv[2], saved = dup(2);
	ssize_t n;

	CU_ASSERT_FATAL(saved >= 0);
	CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	fflush(stderr);
	CU_ASSERT_FATAL(dup2(sv[0], 2) == 2);
	CU_ASSERT_EQUAL(out_line(stderr, "SANDBOX STEP name=%s state=%s",
				 "create", "done"), 0);
	dup2(saved, 2);
	close(saved);
	n = recv(sv[1], buf, sizeof(buf) - 1, MSG_DONTWAIT);
	CU_ASSERT_EQUAL_FATAL(n, 36);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "SANDBOX STEP name=create state=done\n");
	close(sv[0]);
	close(sv[1]);
}

/* --status-fd: the value's checks, and the routing of stderr lines. */
static void
test_status_fd(void)
{
	char buf[128];
	const char *why = NULL;
	int p[2], ro, fd = -1;
	ssize_t n;

	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	ro = p[0];
	CU_ASSERT_NOT_EQUAL(status_fd_check("2", &fd, &why), 0);
	CU_ASSERT_STRING_EQUAL(why, "");
	CU_ASSERT_NOT_EQUAL(status_fd_check("x", &fd, &why), 0);
	CU_ASSERT_NOT_EQUAL(status_fd_check("-4", &fd, &why), 0);
	CU_ASSERT_NOT_EQUAL(status_fd_check("", &fd, &why), 0);
	CU_ASSERT_NOT_EQUAL(status_fd_check("999999", &fd, &why), 0);
	CU_ASSERT_STRING_EQUAL(why, " (not open)");
	snprintf(buf, sizeof(buf), "%d", ro);
	CU_ASSERT_NOT_EQUAL(status_fd_check(buf, &fd, &why), 0);
	CU_ASSERT_STRING_EQUAL(why, " (open read-only)");
	snprintf(buf, sizeof(buf), "%d", p[1]);
	CU_ASSERT_EQUAL_FATAL(status_fd_check(buf, &fd, &why), 0);
	CU_ASSERT_EQUAL(fd, p[1]);
	{
		struct refusals r = {0};

		CU_ASSERT_EQUAL(status_fd_take(buf, &r), 0);
		CU_ASSERT_EQUAL(r.n, 0);
		refusals_free(&r);
	}
	CU_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	CU_ASSERT_EQUAL(out_line(stderr, "SANDBOX DONE exit=%d", 0), 0);
	CU_ASSERT_EQUAL(out_status_set(-1), 0);
	n = read(ro, buf, sizeof(buf) - 1);
	CU_ASSERT_EQUAL_FATAL(n, 20);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "SANDBOX DONE exit=0\n");
	close(p[0]);
	close(p[1]);
}

/* The probe's form: every token but its own prints as "check", the token
 * in parentheses before the remedy, whether the text carries the remedy
 * (REMEDY_IN_TEXT) or the printer appends it. */
static void
test_refusals_probe_paren(void)
{
	struct refusals r = {0};
	char buf[1024] = {0};
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	refusals_addr(&r, REASON_BAD_WRITE, REMEDY_IN_TEXT,
		      "no --write; run: nova-sandbox help probe");
	refusals_add(&r, REASON_HOME_OUTSIDE, "HOME is unset");
	refusals_addr(&r, REASON_CHECK, REMEDY_IN_TEXT,
		      "unknown flag --bogus; run: nova-sandbox help probe");
	CU_ASSERT_EQUAL(out_refusals(f, "PROBE", &r,
				     "nova-sandbox help probe", 1), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
	    "PROBE REFUSED reason=check: no --write (bad_write); run: "
	    "nova-sandbox help probe\n"
	    "PROBE REFUSED reason=check: HOME is unset (home_outside); run: "
	    "nova-sandbox help probe\n"
	    "PROBE REFUSED reason=check: unknown flag --bogus; run: "
	    "nova-sandbox help probe\n");
	refusals_free(&r);
}

/* The remedy is the refusal's, not a guess from its text: a text that
 * merely mentions "-h" or "wants " still gets the printer's remedy unless
 * it was added as carrying its own; a refusal's own remedy wins; with no
 * printer remedy nothing is appended; the whole text is text-escaped. */
static void
test_refusals_remedy_field(void)
{
	struct refusals r = {0};
	char buf[1024] = {0};
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	refusals_add(&r, REASON_BAD_READ, "--read /x -h wants nothing");
	refusals_addr(&r, REASON_BAD_GPU, REMEDY_IN_TEXT,
		      "--gpu wants none or metal, got x");
	refusals_addr(&r, REASON_NO_NAME, "nova-sandbox help run",
		      "tab\there");
	CU_ASSERT_EQUAL(out_refusals(f, "SANDBOX", &r, "nova-sandbox help",
				     0), 0);
	CU_ASSERT_EQUAL(out_refusals(f, "MODULES", &r, NULL, 0), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
	    "SANDBOX REFUSED reason=bad_read: --read /x -h wants nothing; "
	    "run: nova-sandbox help\n"
	    "SANDBOX REFUSED reason=bad_gpu: --gpu wants none or metal, "
	    "got x\n"
	    "SANDBOX REFUSED reason=no_name: tab\\x09here; run: "
	    "nova-sandbox help run\n"
	    "MODULES REFUSED reason=bad_read: --read /x -h wants nothing\n"
	    "MODULES REFUSED reason=bad_gpu: --gpu wants none or metal, "
	    "got x\n"
	    "MODULES REFUSED reason=no_name: tab\\x09here; run: "
	    "nova-sandbox help run\n");
	refusals_free(&r);
}

/* Issue 29: more than one problem with a fixed line prints each problem
 * without it, then ONE line with every fix applied to the caller's line;
 * fixes of the same words fall back to the first; past REFUSALS_LISTED a
 * count; no line over REMEDY_LINE_MAX. */
static void
test_refusals_one_line(void)
{
	static char *args[] = { "--read", "/a", "--read", "/b", "--size",
		"8x", "--write", "/w", "--", "/bin/true", NULL };
	struct cmdline c = cmdline_of(NULL, args);
	struct refusals r = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	remedy_refuse_lead(&r, REASON_BAD_READ, NULL, &c, &(struct cmdfix){
			   "--read", "/a", NULL, NULL, 0 }, "; or leave it "
			   "out; run: ", "--read /a does not exist");
	remedy_refuse_lead(&r, REASON_BAD_READ, NULL, &c, &(struct cmdfix){
			   "--read", "/b", NULL, NULL, 0 }, "; or leave it "
			   "out; run: ", "--read /b does not exist");
	remedy_refuse(&r, REASON_BAD_SIZE, NULL, &c, &(struct cmdfix){
		      "--size", NULL, "<n>m", NULL, 0 }, "--size wants a size");
	refusals_addr(&r, REASON_NO_NAME, NULL, "no name");
	CU_ASSERT_EQUAL(out_refusals(f, "SANDBOX", &r, "nova-sandbox help",
				     0), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
	    "SANDBOX REFUSED reason=bad_read: --read /a does not exist; or "
	    "leave it out\n"
	    "SANDBOX REFUSED reason=bad_read: --read /b does not exist; or "
	    "leave it out\n"
	    "SANDBOX REFUSED reason=bad_size: --size wants a size\n"
	    "SANDBOX REFUSED reason=no_name: no name; run: nova-sandbox help\n"
	    "SANDBOX NOTE one line fixes the 3 problems above that carry a "
	    "fix; run: nova-sandbox --size '<n>m' --write /w -- /bin/true\n");
	free(buf);
	refusals_free(&r);

	/* two fixes of the same word: the first one's line */
	f = open_memstream(&buf, &len);
	remedy_refuse(&r, REASON_BAD_SIZE, NULL, &c, &(struct cmdfix){
		      "--size", NULL, "<n>m", NULL, 0 }, "--size wants a size");
	remedy_refuse(&r, REASON_BAD_SIZE, NULL, &c, &(struct cmdfix){
		      "--size", NULL, NULL, NULL, 0 }, "--size is too big");
	out_refusals(f, "SANDBOX", &r, NULL, 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nSANDBOX NOTE the fixes of the "
	    "problems above touch the same flags: this line fixes the first "
	    "(it then names the next fix); run: nova-sandbox --read /a --read "
	    "/b --size '<n>m' --write /w -- /bin/true\n"));
	free(buf);
	refusals_free(&r);

	/* past REFUSALS_LISTED: a count; no line is built for the rest */
	f = open_memstream(&buf, &len);
	for (int i = 0; i < REFUSALS_LISTED + 5; i++)
		remedy_refuse(&r, i < REFUSALS_LISTED ? REASON_BAD_READ :
			      REASON_BAD_SIZE, NULL, &c, &(struct cmdfix){
			      "--read", "/a", NULL, NULL, 0 }, "problem %d", i);
	CU_ASSERT_PTR_NULL(strstr(r.v[REFUSALS_LISTED].text, "run:"));
	out_refusals(f, "SANDBOX", &r, NULL, 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "REFUSED reason=bad_read: problem "
				      "19\nSANDBOX NOTE 5 more problems are not "
				      "listed (the first 20 are): bad_size; "));
	CU_ASSERT_PTR_NULL(strstr(buf, "problem 20"));
	free(buf);
	refusals_free(&r);
}

/* No fixed line longer than REMEDY_LINE_MAX: one problem too. */
static void
test_refusals_line_cap(void)
{
	static char big[REMEDY_LINE_MAX + 10];
	static char *args[] = { "--read", "/a", "--", "/bin/echo", big, NULL };
	struct cmdline c = cmdline_of(NULL, args);
	struct refusals r = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(big, 'x', sizeof(big) - 1);
	remedy_refuse(&r, REASON_BAD_READ, NULL, &c, &(struct cmdfix){
		      "--read", "/a", NULL, NULL, 0 }, "--read /a is missing");
	out_refusals(f, "SANDBOX", &r, NULL, 0);
	fclose(f);
	CU_ASSERT_TRUE(len < 1024);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "SANDBOX REFUSED reason=bad_read: "
				      "--read /a is missing\nSANDBOX NOTE the "
				      "fixed command line would be "));
	free(buf);
	refusals_free(&r);
}

/* out_refused and out_note print one escaped line each on stderr. */
static void
test_refused_and_note(void)
{
	char buf[512];
	int p[2];
	ssize_t n;

	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	CU_ASSERT_EQUAL_FATAL(out_status_set(p[1]), 0);
	CU_ASSERT_EQUAL(out_refused("SANDBOX", REASON_UNKNOWN_VERB,
				    "unknown verb \"a\nb\"", NULL), 0);
	CU_ASSERT_EQUAL(out_refused("PROBE", REASON_CHECK, "x is not a step",
				    "nova-sandbox help probe"), 0);
	CU_ASSERT_EQUAL(out_note("EGRESS", "a = b\x1b"), 0);
	CU_ASSERT_EQUAL(out_note("POLICY", ""), 0);
	CU_ASSERT_EQUAL(out_status_set(-1), 0);
	n = read(p[0], buf, sizeof(buf) - 1);
	CU_ASSERT_FATAL(n > 0);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf,
	    "SANDBOX REFUSED reason=unknown_verb: unknown verb "
	    "\"a\\x0ab\"\n"
	    "PROBE REFUSED reason=check: x is not a step; run: nova-sandbox "
	    "help probe\n"
	    "EGRESS NOTE a = b\\x1b\n"
	    "POLICY NOTE -\n");
	close(p[0]);
	close(p[1]);
}

/* out_kv: "key=value", a space before every pair but the first, the
 * value field-escaped, an empty or NULL value "-". */
static void
test_kv(void)
{
	struct sbuf b = {0};

	CU_ASSERT_EQUAL(out_kv(&b, "name", "a b"), 0);
	CU_ASSERT_EQUAL(out_kv(&b, "id", "k=v"), 0);
	CU_ASSERT_EQUAL(out_kv(&b, "empty", ""), 0);
	CU_ASSERT_EQUAL(out_kv(&b, "null", NULL), 0);
	CU_ASSERT_STRING_EQUAL(b.s, "name=a\\x20b id=k\\x3dv empty=- null=-");
	sbuf_free(&b);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "escape table (field and text)", test_escape_table },
		{ "NULL field is -", test_field_null_is_dash },
		{ "base64url without padding", test_b64url },
		{ "JSON strings", test_json },
		{ "shell quoting", test_shell_quote },
		{ "out_line adds newline", test_out_line },
		{ "out_line: one write(2) per whole line", test_out_line_one_write },
		{ "--status-fd: checks and routing", test_status_fd },
		{ "refusal list: the probe's form", test_refusals_probe_paren },
		{ "refusal list: the remedy is the refusal's",
		  test_refusals_remedy_field },
		{ "refusal list: one fixed line after the problems",
		  test_refusals_one_line },
		{ "refusal list: no line over REMEDY_LINE_MAX",
		  test_refusals_line_cap },
		{ "out_refused and out_note", test_refused_and_note },
		{ "out_kv", test_kv },
		{ NULL, NULL }
	};

	return cu_run("out", NULL, NULL, cases);
}
