/* SPDX-License-Identifier: MIT */
/* test_run.c -- the `run` and `reap` verbs' pure logic: the flag parser and
 * the validation matrix of reference section 8 (every problem at once),
 * sizes, Go durations, names, artifacts; the reap line parser and the
 * live-owner decision; the keeper channel (a descriptor across
 * SCM_RIGHTS); and the handoff on a real directory standing in for the
 * place: regular files, links, FIFOs, devices (as root), the cap, a file
 * swapped for a link during the copy (the seam), nothing written outside
 * --out. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/handoff.h"
#include "run/runargs.h"
#include "run/flow.h"
#include "verbs/reap.h"

/* ---- parser --------------------------------------------------------- */

static int
parse(struct run_args *a, struct refusals *r, const char *const *words)
{
	char *argv[64];
	int n = 0;

	for (; words[n] != NULL; n++)
		argv[n] = (char *)words[n];
	argv[n] = NULL;
	memset(a, 0, sizeof(*a));
	memset(r, 0, sizeof(*r));
	return run_parse(n, argv, a, r);
}

/* The same as on Windows (job_flags 1) or POSIX (0), on any platform. */
static int
parse_on(struct run_args *a, struct refusals *r, const char *const *words,
	 int job_flags)
{
	char *argv[64];
	int n = 0;

	for (; words[n] != NULL; n++)
		argv[n] = (char *)words[n];
	argv[n] = NULL;
	memset(a, 0, sizeof(*a));
	memset(r, 0, sizeof(*r));
	return run_parse_on(n, argv, a, r, job_flags);
}

/* The refusal with tok, or NULL. */
static const char *
text_of(const struct refusals *r, const char *tok)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].reason, tok) == 0)
			return r->v[i].text;
	return NULL;
}

static int
has(const struct refusals *r, const char *tok)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].reason, tok) == 0)
			return 1;
	return 0;
}

static void
test_parse_ok(void)
{
	static const char *const w[] = { "--name", "job-1.a", "--size=8g",
		"--timeout", "1h30m", "--read", "/usr", "--max-procs", "9",
		"--out", "/o", "--artifact", "d/x", "--out-max-bytes", "1k",
		"--out-max-files=7", "--out-max-depth", "255", "--", "sh", "-c",
		"x", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, w), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_STRING_EQUAL(a.name, "job-1.a");
	CU_ASSERT_EQUAL(a.size, 8ULL << 30);
	CU_ASSERT_EQUAL(a.timeout_ms, 5400000);
	CU_ASSERT_EQUAL(a.max_procs, 9);
	CU_ASSERT_EQUAL(a.max_mem, 8ULL << 30);
	CU_ASSERT_EQUAL(a.out_max, 1024);
	CU_ASSERT_EQUAL(a.out_max_files, 7);
	CU_ASSERT_EQUAL(a.out_max_depth, 255);
	CU_ASSERT_EQUAL(a.argv.n, 3);
	CU_ASSERT_EQUAL(a.reads.n, 1);
	run_args_free(&a);
	refusals_free(&r);
}

static void
test_parse_defaults(void)
{
	static const char *const w[] = { "--name", "a", "--size", "1m", "--",
		"true", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, w), 0);
	CU_ASSERT_EQUAL(a.max_procs, 256);
	CU_ASSERT_EQUAL(a.max_mem, 8ULL << 30);
	CU_ASSERT_EQUAL(a.out_max, RUN_OUT_MAX_DEFAULT);
	CU_ASSERT_EQUAL(a.out_max_files, RUN_OUT_FILES_DEFAULT);
	CU_ASSERT_EQUAL(a.out_max_depth, RUN_OUT_DEPTH_DEFAULT);
	CU_ASSERT_EQUAL(a.timeout_ms, 0);
	run_args_free(&a);
	refusals_free(&r);
}

/* --egress <id>: the id's shape, and never with --net-deny (bad_net,
 * both at once); a good one is kept for the check step. */
static void
test_egress_flag(void)
{
	static const char *const ok[] = { "--name", "a", "--size", "1m",
		"--egress", "agent_1", "--", "true", NULL };
	static const char *const bad[] = { "--name", "a", "--size", "1m",
		"--egress", "a-b", "--net-deny", "--", "true", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, ok), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_STRING_EQUAL(a.egress, "agent_1");
	run_args_free(&a);
	refusals_free(&r);
	CU_ASSERT_EQUAL(parse(&a, &r, bad), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(r.n == 2 && strcmp(r.v[0].reason, "bad_net") == 0 &&
		  strcmp(r.v[1].reason, "bad_net") == 0);
	CU_ASSERT(text_of(&r, "bad_net") != NULL &&
		  strstr(text_of(&r, "bad_net"), "1-32 of [A-Za-z0-9_]") != NULL);
	CU_ASSERT(r.n == 2 && strstr(r.v[1].text, "--net-deny nothing at all") != NULL);
	run_args_free(&a);
	refusals_free(&r);
}

/* Every independent problem at once, one refusal each. */
static void
test_matrix_all_at_once(void)
{
	static const char *const w[] = { "--name", "-bad", "--size", "8%",
		"--timeout", "-1s", "--artifact", "/abs", "--out-max-bytes",
		"x", "--max-procs", "0", "--max-mem", "0", "--container",
		"disk", "--scratch", "/s", "--place", "nope", "--memory", "q",
		"--cpu", "101", "--bogus", NULL };
	static const char *const toks[] = { "no_name", "bad_size",
		"bad_timeout", "bad_artifact", "bad_out_max", "no_out",
		"bad_max_procs", "bad_max_mem", "no_container", "bad_scratch",
		"bad_place", "bad_memory", "bad_cpu", "no_command", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, w), 1);
	for (size_t i = 0; toks[i] != NULL; i++)
		if (!has(&r, toks[i]))
			CU_FAIL(toks[i]);
	CU_ASSERT_EQUAL(r.n, 15); /* + the unknown flag, + no "--" */
	run_args_free(&a);
	refusals_free(&r);
}

/* The handoff count caps: whole numbers in range, each refusal naming its
 * flag and form; without --out they are no_out. */
static void
test_out_count_caps(void)
{
	static const char *const bad[] = { "0", "-1", "1k", "x", "",
		"16777217", NULL };
	static const char *const flags[] = { "--out-max-files",
		"--out-max-depth", NULL };
	static const char *const nout[] = { "--name", "a", "--size", "1m",
		"--out-max-depth", "3", "--", "true", NULL };
	struct run_args a;
	struct refusals r;

	for (size_t f = 0; flags[f] != NULL; f++)
		for (size_t i = 0; bad[i] != NULL; i++) {
			const char *w[] = { "--name", "a", "--size", "1m",
				"--out", "/o", flags[f], bad[i], "--", "true",
				NULL };

			CU_ASSERT_EQUAL(parse(&a, &r, w), 1);
			CU_ASSERT(r.n == 1 && has(&r, "bad_out_max") &&
				  strstr(r.v[0].text, flags[f]) != NULL &&
				  strstr(r.v[0].text, "wants a whole number")
				  != NULL);
			run_args_free(&a);
			refusals_free(&r);
		}
	{
		const char *w[] = { "--name", "a", "--size", "1m", "--out",
			"/o", "--out-max-depth", "256", "--", "true", NULL };

		CU_ASSERT_EQUAL(parse(&a, &r, w), 1); /* above 255 */
		run_args_free(&a);
		refusals_free(&r);
	}
	CU_ASSERT_EQUAL(parse(&a, &r, nout), 1);
	CU_ASSERT(r.n == 1 && has(&r, "no_out"));
	run_args_free(&a);
	refusals_free(&r);
}

static void
test_matrix_missing(void)
{
	static const char *const w[] = { "--", "true", NULL };
	static const char *const w2[] = { "--name", "a", "--size", "1g",
		"--place", "wsb", "--", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, w), 1);
	CU_ASSERT(has(&r, "no_name") && has(&r, "bad_size"));
	CU_ASSERT_EQUAL(r.n, 2);
	run_args_free(&a);
	refusals_free(&r);
	CU_ASSERT_EQUAL(parse(&a, &r, w2), 1);
	CU_ASSERT(has(&r, "no_wsb") && has(&r, "no_command"));
	CU_ASSERT_EQUAL(r.n, 2);
	run_args_free(&a);
	refusals_free(&r);
}

/* Windows' job flags (reference section 8): parsed there, --scratch and
 * --place wsb refused elsewhere. */
static void
test_job_flags(void)
{
	static const char *const w[] = { "--name", "a", "--size", "1g",
		"--scratch", "/s", "--place", "job", "--memory", "64m",
		"--cpu", "25", "--", "x", NULL };
	static const char *const rel[] = { "--name", "a", "--size", "1g",
		"--scratch", "s/x", "--place", "wsb", "--", "x", NULL };
	struct run_args a;
	struct refusals r;
	const char *t;

	/* on Windows: taken, the values parsed */
	CU_ASSERT_EQUAL(parse_on(&a, &r, w, 1), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_STRING_EQUAL(a.scratch, "/s");
	CU_ASSERT_EQUAL(a.memory, 64ULL << 20);
	CU_ASSERT_EQUAL(a.cpu_percent, 25);
	CU_ASSERT_EQUAL(a.job_flags, 1);
	run_args_free(&a);
	refusals_free(&r);
	/* elsewhere: --scratch refused (the place is made here), the rest
	 * parsed and left alone */
	CU_ASSERT_EQUAL(parse_on(&a, &r, w, 0), 1);
	CU_ASSERT(r.n == 1 && has(&r, "bad_scratch"));
	t = text_of(&r, "bad_scratch");
	CU_ASSERT(t != NULL && strstr(t, "is for windows") != NULL);
	CU_ASSERT_EQUAL(a.max_mem, 8ULL << 30);
	run_args_free(&a);
	refusals_free(&r);
	/* on Windows: a relative --scratch, and wsb with why it is not built */
	CU_ASSERT_EQUAL(parse_on(&a, &r, rel, 1), 1);
	CU_ASSERT(r.n == 2 && has(&r, "bad_scratch") && has(&r, "no_wsb"));
	t = text_of(&r, "bad_scratch");
	CU_ASSERT(t != NULL && strstr(t, "wants an absolute directory") != NULL);
	t = text_of(&r, "no_wsb");
	CU_ASSERT(t != NULL && strstr(t, "is not built: it is a Hyper-V") != NULL);
	run_args_free(&a);
	refusals_free(&r);
	CU_ASSERT_EQUAL(parse_on(&a, &r, rel, 0), 1);
	t = text_of(&r, "no_wsb");
	CU_ASSERT(t != NULL && strstr(t, "it is windows-only") != NULL);
	run_args_free(&a);
	refusals_free(&r);
}

/* Windows: --memory is the job's memory limit as --max-mem is: alone it
 * replaces the 8g default, with --max-mem the smaller applies; elsewhere
 * it changes nothing. */
static void
test_job_memory(void)
{
	static const char *const big[] = { "--name", "a", "--size", "1g",
		"--memory", "16g", "--", "x", NULL };
	static const char *const both[] = { "--name", "a", "--size", "1g",
		"--memory", "2g", "--max-mem", "1g", "--", "x", NULL };
	static const char *const both2[] = { "--name", "a", "--size", "1g",
		"--max-mem", "4g", "--memory", "512m", "--", "x", NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse_on(&a, &r, big, 1), 0);
	CU_ASSERT_EQUAL(a.max_mem, 16ULL << 30);
	run_args_free(&a);
	CU_ASSERT_EQUAL(parse_on(&a, &r, big, 0), 0);
	CU_ASSERT_EQUAL(a.max_mem, 8ULL << 30);
	run_args_free(&a);
	CU_ASSERT_EQUAL(parse_on(&a, &r, both, 1), 0);
	CU_ASSERT_EQUAL(a.max_mem, 1ULL << 30);
	run_args_free(&a);
	CU_ASSERT_EQUAL(parse_on(&a, &r, both2, 1), 0);
	CU_ASSERT_EQUAL(a.max_mem, 512ULL << 20);
	run_args_free(&a);
	refusals_free(&r);
}

static void
test_help_first(void)
{
	static const char *const w[] = { "--size", "bad", "-h", NULL };
	static const char *const w2[] = { "--name", "a", "--", "x", "-h",
		NULL };
	struct run_args a;
	struct refusals r;

	CU_ASSERT_EQUAL(parse(&a, &r, w), 0);
	CU_ASSERT_EQUAL(a.help, 1);
	CU_ASSERT_EQUAL(r.n, 0);
	run_args_free(&a);
	CU_ASSERT_EQUAL(parse(&a, &r, w2), 1); /* after "--": the command's */
	CU_ASSERT_EQUAL(a.help, 0);
	run_args_free(&a);
	refusals_free(&r);
}

static void
test_names(void)
{
	CU_ASSERT_EQUAL(run_valid_name("a"), 0);
	CU_ASSERT_EQUAL(run_valid_name("A9_-."), 0);
	CU_ASSERT_EQUAL(run_valid_name("abcdefghijabcdefghijabcdefghij12"), 0);
	CU_ASSERT_EQUAL(run_valid_name("abcdefghijabcdefghijabcdefghij123"),
			-1);
	CU_ASSERT_EQUAL(run_valid_name(""), -1);
	CU_ASSERT_EQUAL(run_valid_name(".a"), -1);
	CU_ASSERT_EQUAL(run_valid_name("_a"), -1);
	CU_ASSERT_EQUAL(run_valid_name("a/b"), -1);
	CU_ASSERT_EQUAL(run_valid_name("a b"), -1);
	CU_ASSERT_EQUAL(run_valid_name("\xc3\xa9"), -1);
}

static void
test_sizes(void)
{
	uint64_t b = 0;

	CU_ASSERT(run_parse_size("8g", &b) == 0 && b == 8ULL << 30);
	CU_ASSERT(run_parse_size("8GB", &b) == 0 && b == 8ULL << 30);
	CU_ASSERT(run_parse_size("1.5k", &b) == 0 && b == 1536);
	CU_ASSERT(run_parse_size("100", &b) == 0 && b == 100);
	CU_ASSERT(run_parse_size("100b", &b) == 0 && b == 100);
	CU_ASSERT(run_parse_size("2T", &b) == 0 && b == 2ULL << 40);
	CU_ASSERT_EQUAL(run_parse_size("0", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("8 g", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("8%", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("1.2.3g", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size(".5g", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("5.g", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("8gg", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("8p", &b), -1);
	CU_ASSERT_EQUAL(run_parse_size("-8g", &b), -1);
}

static void
test_durations(void)
{
	uint64_t ms = 0;

	CU_ASSERT(run_parse_duration("30m", &ms) == 0 && ms == 1800000);
	CU_ASSERT(run_parse_duration("1h30m", &ms) == 0 && ms == 5400000);
	CU_ASSERT(run_parse_duration("2.5s", &ms) == 0 && ms == 2500);
	CU_ASSERT(run_parse_duration("300ms", &ms) == 0 && ms == 300);
	CU_ASSERT(run_parse_duration("1us", &ms) == 0 && ms == 1);
	CU_ASSERT_EQUAL(run_parse_duration("0s", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("0", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("10", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("-1s", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("1d", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("s", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("1e3s", &ms), -1);
	CU_ASSERT_EQUAL(run_parse_duration("", &ms), -1);
}

static void
test_artifacts(void)
{
	CU_ASSERT_EQUAL(run_valid_artifact("RESULT.md"), 0);
	CU_ASSERT_EQUAL(run_valid_artifact("a/b/c"), 0);
	CU_ASSERT_EQUAL(run_valid_artifact(".hidden"), 0);
	CU_ASSERT_EQUAL(run_valid_artifact(""), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("/etc"), -1);
	CU_ASSERT_EQUAL(run_valid_artifact(".."), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("a/../b"), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("."), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("a/./b"), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("a//b"), -1);
	CU_ASSERT_EQUAL(run_valid_artifact("a/"), -1);
}

/* ---- reap --------------------------------------------------------------- */

static void
test_reap_line(void)
{
	char l1[] = "name=nova-a id=disk3s7 root=/Volumes/nova-a owner=42 "
		    "start=Sun Nov 29 13:18:45 2026";
	char l2[] = "name=nova-b id=disk3s8 owner=- start=-";
	char l3[] = "name=nova-c id=x root=/r owner=12x start=s";
	char l4[] = "id=x name=nova-d owner=1 start=s";
	struct reap_entry e;

	CU_ASSERT_EQUAL_FATAL(reap_parse_line(l1, &e), 0);
	CU_ASSERT_STRING_EQUAL(e.name, "nova-a");
	CU_ASSERT_STRING_EQUAL(e.id, "disk3s7");
	CU_ASSERT_STRING_EQUAL(e.root, "/Volumes/nova-a");
	CU_ASSERT_EQUAL(e.owner, 42);
	CU_ASSERT_STRING_EQUAL(e.start, "Sun Nov 29 13:18:45 2026");
	CU_ASSERT_EQUAL_FATAL(reap_parse_line(l2, &e), 0); /* 1.0: no root= */
	CU_ASSERT_PTR_NULL(e.root);
	CU_ASSERT_EQUAL(e.owner, -1);
	CU_ASSERT_EQUAL_FATAL(reap_parse_line(l3, &e), 0);
	CU_ASSERT_EQUAL(e.owner, -1); /* garbage marker: an orphan */
	CU_ASSERT_EQUAL(reap_parse_line(l4, &e), -1);
}

static void
test_reap_live(void)
{
	char l[] = "name=nova-a id=d root=/r owner=42 start=T1";
	char g[] = "name=nova-a id=d root=/r owner=- start=T1";
	struct reap_entry e, eg;

	CU_ASSERT_EQUAL_FATAL(reap_parse_line(l, &e), 0);
	CU_ASSERT_EQUAL_FATAL(reap_parse_line(g, &eg), 0);
	CU_ASSERT_EQUAL(reap_is_live(&e, 1, 0, "T1"), 1);  /* live owner */
	CU_ASSERT_EQUAL(reap_is_live(&e, 1, 0, "T2"), 0);  /* recycled pid */
	CU_ASSERT_EQUAL(reap_is_live(&e, 0, 0, "T1"), 0);  /* dead owner */
	CU_ASSERT_EQUAL(reap_is_live(&e, 1, -1, ""), 1);   /* unreadable */
	CU_ASSERT_EQUAL(reap_is_live(&eg, 1, 0, "T1"), 0); /* garbage */
}

/* ---- the keeper channel ------------------------------------------------- */

static void
test_kmsg_fd(void)
{
	int sv[2], fd = -1;
	struct kmsg m;
	struct stat a, b;

	CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	CU_ASSERT_EQUAL(kmsg_send(sv[0], 'R', 7, 0), 0);
	CU_ASSERT_EQUAL(kmsg_recv(sv[1], &m, &fd), 0);
	CU_ASSERT_EQUAL(m.type, 'R');
	CU_ASSERT_EQUAL(m.val, 7);
	CU_ASSERT(fd > 2);
	CU_ASSERT(fstat(0, &a) == 0 && fstat(fd, &b) == 0 &&
		  a.st_ino == b.st_ino);
	CU_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	CU_ASSERT_EQUAL(kmsg_send(sv[0], 'F', 125, -1), 0);
	CU_ASSERT_EQUAL(kmsg_recv(sv[1], &m, &fd), 0);
	CU_ASSERT(m.type == 'F' && m.val == 125 && fd == -1);
	close(sv[0]);
	CU_ASSERT_EQUAL(kmsg_recv(sv[1], &m, &fd), -1); /* EOF */
	close(sv[1]);
}

/* The message's padding (7 bytes after the type) leaves zeroed, whatever
 * the stack held before: the stack under kmsg_send is poisoned first. */
static void __attribute__((noinline))
poison_stack(void)
{
	volatile unsigned char junk[4096];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

static void
test_kmsg_padding(void)
{
	unsigned char raw[sizeof(struct kmsg)], want[sizeof(struct kmsg)];
	struct kmsg m;
	int sv[2];

	CU_ASSERT_EQUAL_FATAL(sizeof(struct kmsg), 16);
	CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	for (int round = 0; round < 4; round++) {
		poison_stack();
		CU_ASSERT_EQUAL(kmsg_send(sv[0], 'I', 0x0102030405060708LL, -1), 0);
		memset(raw, 0xee, sizeof(raw));
		CU_ASSERT_EQUAL(recv(sv[1], raw, sizeof(raw), 0),
				(ssize_t)sizeof(raw));
		memset(&m, 0, sizeof(m));
		m.type = 'I';
		m.val = 0x0102030405060708LL;
		memcpy(want, &m, sizeof(want));
		CU_ASSERT_EQUAL(memcmp(raw, want, sizeof(raw)), 0);
	}
	close(sv[0]);
	close(sv[1]);
}

/* ---- the supervisor's decisions ------------------------------------------ */

static void
sv_init(struct sv *s, uint64_t timeout_at)
{
	memset(s, 0, sizeof(*s));
	s->code = -1;
	s->timeout_at = timeout_at;
}

static void
test_sv_timeout(void)
{
	struct sv s;

	sv_init(&s, 5000);
	CU_ASSERT_EQUAL(run_decide(&s, 4999, 0), 0);
	CU_ASSERT_EQUAL(s.code, -1);
	CU_ASSERT_EQUAL(run_next_wake(&s, 4500), 500);
	CU_ASSERT_EQUAL(run_decide(&s, 5000, 0), RUN_SV_TIMEOUT);
	CU_ASSERT_EQUAL(s.code, 124);
	CU_ASSERT_EQUAL(s.grace_at, 5000 + RUN_GRACE_MS);
	CU_ASSERT_EQUAL(run_decide(&s, 6000, 0), 0); /* once; grace runs */
	CU_ASSERT_EQUAL(run_next_wake(&s, 6000), 1000);
	CU_ASSERT_EQUAL(run_decide(&s, 7000, 0), RUN_SV_STOP);
	CU_ASSERT_EQUAL(s.code, 124);
}

static void
test_sv_signal(void)
{
	struct sv s;

	sv_init(&s, 0);
	CU_ASSERT_EQUAL(run_next_wake(&s, 100), 1000); /* the cap tick */
	CU_ASSERT_EQUAL(run_decide(&s, 100, 2), 0);
	CU_ASSERT_EQUAL(s.code, 130);
	CU_ASSERT_EQUAL(s.grace_at, 100 + RUN_GRACE_MS);
	CU_ASSERT_EQUAL(run_decide(&s, 200, 15), 0); /* the first decides */
	CU_ASSERT_EQUAL(s.code, 130);
	CU_ASSERT_EQUAL(run_decide(&s, 100 + RUN_GRACE_MS, 2), RUN_SV_STOP);
}

static void
test_sv_signal_then_timeout(void)
{
	struct sv s;

	sv_init(&s, 1000);
	CU_ASSERT_EQUAL(run_decide(&s, 900, 15), 0);
	CU_ASSERT_EQUAL(s.code, 143);
	/* the timeout still SIGTERMs, keeps 143 and never extends the grace */
	CU_ASSERT_EQUAL(run_decide(&s, 1000, 15), RUN_SV_TIMEOUT);
	CU_ASSERT_EQUAL(s.code, 143);
	CU_ASSERT_EQUAL(s.grace_at, 900 + RUN_GRACE_MS);
	CU_ASSERT_EQUAL(run_next_wake(&s, 1000), 1000); /* the tick first */
	CU_ASSERT_EQUAL(run_next_wake(&s, 2500), 400);  /* then the grace */
}

/* ---- handoff ------------------------------------------------------------- */

static char place[64], outd[64], outside[96];

static void
put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", place, rel);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void)
{
	char p[128];

	snprintf(place, sizeof(place), "/tmp/nova-ut-place.XXXXXX");
	snprintf(outd, sizeof(outd), "/tmp/nova-ut-out.XXXXXX");
	if (mkdtemp(place) == NULL || mkdtemp(outd) == NULL)
		return -1;
	snprintf(outside, sizeof(outside), "%s.secret", place);
	snprintf(p, sizeof(p), "%s/d", place);
	return mkdir(p, 0755);
}

static int
teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s' '%s'", place, outd,
		 outside);
	return system(cmd) == 0 ? 0 : -1;
}

/* the entry and depth caps of copy(); the defaults unless a test sets
 * them (and puts them back) */
static uint64_t files_cap = RUN_OUT_FILES_DEFAULT;
static uint64_t depth_cap = RUN_OUT_DEPTH_DEFAULT;

static int
copy(const char *const *named, uint64_t max, struct handoff_stats *st,
     char **why)
{
	struct strv v = {0};
	struct handoff_caps caps = { max, files_cap, depth_cap };
	int fd = open(place, O_PATH | O_DIRECTORY), rc;
	int ofd = open(outd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (size_t i = 0; named && named[i]; i++)
		strv_push(&v, named[i]);
	rc = handoff_copy(fd, ofd, outd, "job", &v, &caps, st, why);
	close(fd);
	if (ofd >= 0)
		close(ofd);
	strv_free(&v);
	return rc;
}

static int
out_exists(const char *rel)
{
	char p[256];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/job/%s", outd, rel);
	return lstat(p, &sb) == 0;
}

static void
clean_out(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/job'", outd);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void
test_handoff_defaults(void)
{
	struct handoff_stats st;
	char *why = NULL;

	put("RESULT.md", "result\n");
	put("usage.tsv", "a\tb\n");
	CU_ASSERT_EQUAL(copy(NULL, 1 << 20, &st, &why), 0);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT_EQUAL(st.files, 2);
	CU_ASSERT_EQUAL(st.bytes, 11);
	CU_ASSERT(out_exists("RESULT.md") && out_exists("usage.tsv"));
	CU_ASSERT(!out_exists("repo.bundle")); /* absent: fine */
	clean_out();
}

static void
test_handoff_named_missing(void)
{
	static const char *const n[] = { "RESULT.md", "nope", NULL };
	struct handoff_stats st;
	char *why = NULL;

	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1);
	CU_ASSERT_PTR_NOT_NULL(why);
	CU_ASSERT(why && strstr(why, "nope") != NULL);
	CU_ASSERT(!out_exists("RESULT.md")); /* measured first: nothing */
	CU_ASSERT(!out_exists(""));
	free(why);
}

static void
test_handoff_link_outside(void)
{
	static const char *const n[] = { "evil", NULL };
	struct handoff_stats st;
	char p[128], *why = NULL;
	FILE *f = fopen(outside, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("secret\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/evil", place);
	CU_ASSERT_EQUAL_FATAL(symlink(outside, p), 0);
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1); /* named: refused */
	CU_ASSERT(!out_exists("evil"));
	free(why);
	/* inside a directory: skipped, the rest copied */
	snprintf(p, sizeof(p), "%s/d/evil", place);
	CU_ASSERT_EQUAL_FATAL(symlink(outside, p), 0);
	put("d/ok", "ok\n");
	{
		static const char *const d[] = { "d", NULL };

		why = NULL;
		CU_ASSERT_EQUAL(copy(d, 1 << 20, &st, &why), 0);
		CU_ASSERT(out_exists("d/ok"));
		CU_ASSERT(!out_exists("d/evil"));
		CU_ASSERT(st.skipped >= 1);
		free(why);
	}
	clean_out();
}

static void
test_handoff_fifo_device(void)
{
	static const char *const d[] = { "d", NULL };
	static const char *const f[] = { "d/fifo", NULL };
	struct handoff_stats st;
	char p[128], *why = NULL;

	snprintf(p, sizeof(p), "%s/d/fifo", place);
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0644), 0);
	if (geteuid() == 0) { /* mknod needs root: the device case */
		snprintf(p, sizeof(p), "%s/d/null", place);
		CU_ASSERT_EQUAL(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	}
	CU_ASSERT_EQUAL(copy(d, 1 << 20, &st, &why), 0); /* no hang */
	CU_ASSERT(!out_exists("d/fifo"));
	CU_ASSERT(!out_exists("d/null"));
	CU_ASSERT(out_exists("d/ok"));
	free(why);
	clean_out();
	why = NULL;
	CU_ASSERT_EQUAL(copy(f, 1 << 20, &st, &why), -1); /* named: refused */
	free(why);
	CU_ASSERT(!out_exists("d"));
}

static void
test_handoff_cap(void)
{
	static const char *const n[] = { "RESULT.md", "usage.tsv", NULL };
	struct handoff_stats st;
	char *why = NULL;

	CU_ASSERT_EQUAL(copy(n, 10, &st, &why), -1); /* 11 bytes > 10 */
	CU_ASSERT(why && strstr(why, "over --out-max-bytes") != NULL);
	CU_ASSERT(!out_exists("RESULT.md"));
	CU_ASSERT(!out_exists(""));
	free(why);
	why = NULL;
	CU_ASSERT_EQUAL(copy(n, 11, &st, &why), 0); /* exactly the cap */
	free(why);
	clean_out();
}

/* n empty files in <place>/many/ */
static void
many_files(int n)
{
	char p[160];

	snprintf(p, sizeof(p), "%s/many", place);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0755), 0);
	for (int i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/many/f%d", place, i);
		put(p + strlen(place) + 1, "");
	}
}

static void
test_handoff_files_cap(void)
{
	static const char *const n[] = { "many", NULL };
	struct handoff_stats st;
	char *why = NULL;

	many_files(9); /* 10 entries with the directory */
	files_cap = 9;
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1);
	CU_ASSERT(why && strstr(why, "more than 9 entries") != NULL &&
		  strstr(why, "--out-max-files 9") != NULL);
	CU_ASSERT(!out_exists("many"));
	CU_ASSERT(!out_exists(""));
	free(why);
	why = NULL;
	files_cap = 10; /* exactly the cap */
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), 0);
	CU_ASSERT_EQUAL(st.files, 9);
	CU_ASSERT(out_exists("many/f8"));
	files_cap = RUN_OUT_FILES_DEFAULT;
	free(why);
	clean_out();
}

static void
test_handoff_depth_cap(void)
{
	static const char *const n[] = { "deep", NULL };
	static const char *const nested[] = { "deep/a/b", NULL };
	struct handoff_stats st;
	char p[160], *why = NULL;

	snprintf(p, sizeof(p), "%s/deep/a/b/c", place);
	for (char *q = p + strlen(place) + 1; (q = strchr(q, '/')) != NULL;
	     q++) {
		*q = '\0';
		CU_ASSERT_EQUAL(mkdir(p, 0755), 0);
		*q = '/';
	}
	put("deep/a/b/c", "x"); /* "deep/a/b/c": 4 components */
	depth_cap = 3;
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1);
	CU_ASSERT(why && strstr(why, "deep/a/b/c is deeper than "
				"--out-max-depth 3") != NULL);
	CU_ASSERT(!out_exists("deep"));
	free(why);
	why = NULL;
	depth_cap = 2; /* a named artifact is measured by its own path too */
	CU_ASSERT_EQUAL(copy(nested, 1 << 20, &st, &why), -1);
	CU_ASSERT(!out_exists("deep"));
	free(why);
	why = NULL;
	depth_cap = 4;
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), 0);
	CU_ASSERT(out_exists("deep/a/b/c"));
	depth_cap = RUN_OUT_DEPTH_DEFAULT;
	free(why);
	clean_out();
}

/* The seam: after RESULT.md's descriptor was checked, swap the name for a
 * link to the secret.  The bytes copied are the checked file's, never the
 * secret's. */
static void
swap_hook(const char *rel)
{
	char p[128], q[128];

	if (strcmp(rel, "RESULT.md") != 0)
		return;
	snprintf(p, sizeof(p), "%s/RESULT.md", place);
	snprintf(q, sizeof(q), "%s/RESULT.md.old", place);
	CU_ASSERT_EQUAL(rename(p, q), 0);
	CU_ASSERT_EQUAL(symlink(outside, p), 0);
}

static void
grow_hook(const char *rel)
{
	char p[128];
	FILE *f;

	(void)rel;
	snprintf(p, sizeof(p), "%s/usage.tsv", place);
	f = fopen(p, "a");
	if (f != NULL) {
		fputs("grown past the cap\n", f);
		fclose(f);
	}
}

static void
test_handoff_swap_seam(void)
{
	static const char *const n[] = { "RESULT.md", NULL };
	struct handoff_stats st;
	char p[256], buf[64] = "";
	char *why = NULL;
	FILE *f;

	handoff_hook = swap_hook;
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), 0);
	handoff_hook = NULL;
	free(why);
	snprintf(p, sizeof(p), "%s/job/RESULT.md", outd);
	f = fopen(p, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "result\n");
	clean_out();
	/* now the name is a link: refused */
	why = NULL;
	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1);
	free(why);
	CU_ASSERT(!out_exists("RESULT.md"));
}

static void
test_handoff_growth(void)
{
	static const char *const n[] = { "d/ok", "usage.tsv", NULL };
	struct handoff_stats st;
	char *why = NULL;

	handoff_hook = grow_hook;
	CU_ASSERT_EQUAL(copy(n, 8, &st, &why), -1); /* 3 + 4 measured */
	handoff_hook = NULL;
	CU_ASSERT(why && strstr(why, "grew") != NULL);
	CU_ASSERT(!out_exists("d/ok")); /* the partial copy was removed */
	CU_ASSERT(!out_exists(""));
	free(why);
}

/* The same file named twice, or named and inside a named directory, is
 * copied and counted once (issue 29 item 7). */
static void
test_handoff_duplicates(void)
{
	static const char *const twice[] = { "twice", "twice", NULL };
	static const char *const nested[] = { "d/ok", "d", "d/ok", NULL };
	struct handoff_stats st;
	char *why = NULL;

	put("twice", "result\n");
	CU_ASSERT_EQUAL(copy(twice, 1 << 20, &st, &why), 0);
	CU_ASSERT_EQUAL(st.files, 1);
	CU_ASSERT_EQUAL(st.bytes, 7); /* "result\n" */
	free(why);
	why = NULL;
	clean_out();
	CU_ASSERT_EQUAL(copy(nested, 1 << 20, &st, &why), 0);
	CU_ASSERT_EQUAL(st.files, 1);
	CU_ASSERT_EQUAL(st.bytes, 3);
	CU_ASSERT(out_exists("d/ok"));
	free(why);
	clean_out();
}

/* An artifact whose last part is missing: refused, nothing written (and,
 * under UBSan, no pointer made from NULL: issue 29 item 8). */
static void
test_handoff_last_part_missing(void)
{
	static const char *const n[] = { "d/nothere", NULL };
	struct handoff_stats st;
	char *why = NULL;

	CU_ASSERT_EQUAL(copy(n, 1 << 20, &st, &why), -1);
	CU_ASSERT(why && strstr(why, "d/nothere is not in the place") != NULL);
	CU_ASSERT(!out_exists(""));
	free(why);
}

/* ---- a hand-off killed at every step, then swept (issue 29 item 1) ---- */

static int kill_at, steps_seen;

static void
kill_hook(void)
{
	if (++steps_seen == kill_at)
		raise(SIGKILL);
}

/* <outd> holds exactly "job", and job is whole: the earlier run's one
 * file, or this run's big (200 KiB) and d/ok; nothing else. */
static int
out_whole(void)
{
	char p[256];
	struct stat sb;
	struct dirent *e;
	DIR *d = opendir(outd);
	int n = 0, job = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			n++;
			job += strcmp(e->d_name, "job") == 0;
		}
	closedir(d);
	if (n != 1 || job != 1)
		return 0;
	if (out_exists("earlier"))
		return !out_exists("big") && !out_exists("d");
	snprintf(p, sizeof(p), "%s/job/big", outd);
	return stat(p, &sb) == 0 && sb.st_size == 200 * 1024 &&
	       out_exists("d/ok") && !out_exists("earlier");
}

static void
test_handoff_killed_every_step(void)
{
	static const char *const n[] = { "big", "d/ok", NULL };
	struct sigaction dfl = { .sa_handler = SIG_DFL }, was;
	char p[256];
	FILE *f;
	int done = 0;

	snprintf(p, sizeof(p), "%s/big", place);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int i = 0; i < 200 * 1024; i++)
		fputc('a' + i % 26, f);
	fclose(f);
	sigaction(SIGCHLD, &dfl, &was);
	for (kill_at = 1; !done && kill_at < 100; kill_at++) {
		struct handoff_stats st;
		char *why = NULL;
		int status = 0, ofd;
		pid_t pid;

		clean_out();
		snprintf(p, sizeof(p), "%s/job", outd);
		CU_ASSERT_EQUAL_FATAL(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/job/earlier", outd);
		f = fopen(p, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fclose(f);
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			handoff_step_hook = kill_hook;
			_exit(copy(n, 1 << 20, &st, &why) == 0 ? 0 : 1);
		}
		CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
		done = !WIFSIGNALED(status);
		if (done)
			CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		ofd = open(outd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CU_ASSERT(handoff_sweep(ofd, NULL, 0, NULL, NULL) >= 0);
		close(ofd);
		if (!out_whole())
			fprintf(stderr, "\n  killed at step %d: --out not whole "
				"after the sweep\n", kill_at);
		CU_ASSERT(out_whole());
	}
	sigaction(SIGCHLD, &was, NULL);
	CU_ASSERT(done);
	CU_ASSERT(kill_at > 8); /* 4 blocks of big alone are 4 steps */
	clean_out();
}

/* The names a hand-off leaves, and nothing else, are leftovers. */
static void
test_handoff_leftover_names(void)
{
	static const struct { const char *e; int ok; long pid; } v[] = {
		{ ".job.nova-new-12", 1, 12 },
		{ ".a.b.nova-old-7-3", 1, 7 },
		{ ".j.nova-new-1.nova-old-99", 1, 99 },
		{ ".job.nova-check-5-r", 1, 5 },
		{ "job.nova-new-12", 0, 0 },
		{ ".job.nova-new-", 0, 0 },
		{ ".job.nova-new-0", 0, 0 },
		{ ".job.nova-new-12x", 0, 0 },
		{ ".job.nova-tmp-12", 0, 0 },
		{ "..nova-new-12", 0, 0 },
		{ ".-x.nova-new-12", 0, 0 },
	};
	char name[64];
	const char *kind;
	long pid;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int rc = handoff_leftover_parse(v[i].e, name, sizeof(name),
						&kind, &pid);

		CU_ASSERT_EQUAL(rc, v[i].ok ? 0 : -1);
		if (rc == 0)
			CU_ASSERT_EQUAL(pid, v[i].pid);
	}
}

/* A child of ours that waits for a signal (SIGTERM ignored or not);
 * SIGCHLD is ignored by the caller, so a dead one leaves no zombie. */
static pid_t
waiter(int ignore_term)
{
	int fd[2];
	char c = 0;
	pid_t p;

	if (pipe(fd) != 0)
		return -1;
	p = fork();
	if (p == 0) {
		if (ignore_term)
			signal(SIGTERM, SIG_IGN);
		if (write(fd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	if (p > 0 && read(fd[0], &c, 1) != 1)
		p = -1; /* ready: its SIGTERM disposition is set */
	close(fd[0]);
	return p;
}

static void
test_reap_grace(void)
{
	int64_t pids[3];
	void (*old)(int) = signal(SIGCHLD, SIG_IGN);
	pid_t a = waiter(0), b = waiter(1);

	CU_ASSERT_FATAL(a > 0 && b > 0);
	/* init and the caller itself are never waited for */
	pids[0] = 1;
	pids[1] = getpid();
	CU_ASSERT_EQUAL(reap_grace(pids, 2, 2000), 0);
	/* a dies of the SIGTERM: nothing left, the grace ends */
	pids[2] = a;
	kill(a, SIGTERM);
	CU_ASSERT_EQUAL(reap_grace(pids, 3, 2000), 0);
	/* b ignores it: still there when the grace is over */
	pids[2] = b;
	kill(b, SIGTERM);
	CU_ASSERT_EQUAL(reap_grace(pids, 3, 300), 1);
	kill(b, SIGKILL);
	CU_ASSERT_EQUAL(reap_grace(pids, 3, 2000), 0);
	signal(SIGCHLD, old);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "run flags parse", test_parse_ok },
		{ "run defaults: 256 procs, 8 GiB, 64 MiB out", test_parse_defaults },
		{ "validation matrix: every problem at once", test_matrix_all_at_once },
		{ "missing name/size/command; --place wsb", test_matrix_missing },
		{ "--out-max-files and --out-max-depth", test_out_count_caps },
		{ "help before -- wins over every refusal", test_help_first },
		{ "windows' job flags: --scratch, --place, --memory, --cpu", test_job_flags },
		{ "windows: --memory and --max-mem, one job limit", test_job_memory },
		{ "names", test_names },
		{ "sizes", test_sizes },
		{ "Go durations", test_durations },
		{ "artifacts", test_artifacts },
		{ "reap: list lines", test_reap_line },
		{ "reap: live owner, recycled pid, unreadable start", test_reap_live },
		{ "reap: the grace ends when every holder is gone", test_reap_grace },
		{ "keeper channel passes a descriptor", test_kmsg_fd },
		{ "keeper channel: no uninitialised padding", test_kmsg_padding },
		{ "supervisor: timeout, SIGTERM once, grace, stop", test_sv_timeout },
		{ "supervisor: a caught signal is 128+N, the first decides", test_sv_signal },
		{ "supervisor: a signal then the timeout", test_sv_signal_then_timeout },
		{ "handoff: default artifacts when present", test_handoff_defaults },
		{ "handoff: a named artifact must exist", test_handoff_named_missing },
		{ "handoff: a link pointing outside", test_handoff_link_outside },
		{ "handoff: FIFO and device", test_handoff_fifo_device },
		{ "handoff: the cap before any byte", test_handoff_cap },
		{ "handoff: the entry cap before any byte", test_handoff_files_cap },
		{ "handoff: the depth cap before any byte", test_handoff_depth_cap },
		{ "handoff: swapped for a link during the copy", test_handoff_swap_seam },
		{ "handoff: growth past the cap removes the partial copy", test_handoff_growth },
		{ "handoff: an artifact named twice is counted once", test_handoff_duplicates },
		{ "handoff: an artifact's last part missing", test_handoff_last_part_missing },
		{ "handoff: killed at every step, then swept", test_handoff_killed_every_step },
		{ "handoff: the names of leftovers", test_handoff_leftover_names },
		{ "--egress: the id, and not with --net-deny", test_egress_flag },
		{ NULL, NULL }
	};

	return cu_run("run", setup, teardown, cases);
}
