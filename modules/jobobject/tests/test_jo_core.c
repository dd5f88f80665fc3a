/* SPDX-License-Identifier: MIT */
/* test_jo_core.c -- jobobject.dll's portable core on any platform: the
 * CreateProcessW command line (checked by parsing it back with the C
 * runtime's own rules, written out here from Microsoft's documentation
 * "Parsing C++ command-line arguments"), the exit-code table, the owner
 * marker, the WSL refusal, the scratch name, the retry policy, the CPU
 * rate of --cpu, the label --acl caller needs, the LEAK remedy of a
 * --scratch run and the order of the environment block. */
#include <CUnit/Basic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <uchar.h>

#include "common/cu_run.h"
#include "jo_core.h"

#define MAXA 16

/* The runtime's parse of a command line: argv[0] by the program-name rule
 * (quotes toggle, nothing escapes), the rest by the 2n/2n+1 backslash
 * rule, "" inside quotes as one literal quote (post-2008 CRT). */
static int
crt_parse(const char *s, char out[MAXA][512], int *argc)
{
	int n = 0, inq = 0;
	size_t k = 0;

	while (*s != '\0' && (*s != ' ' && *s != '\t' ? 1 : inq)) {
		if (*s == '"')
			inq = !inq;
		else
			out[n][k++] = *s;
		s++;
	}
	out[n++][k] = '\0';
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		k = 0;
		inq = 0;
		while (*s != '\0' && (inq || (*s != ' ' && *s != '\t'))) {
			size_t bs = 0;

			while (*s == '\\') {
				bs++;
				s++;
			}
			if (*s == '"') {
				for (size_t i = 0; i < bs / 2; i++)
					out[n][k++] = '\\';
				if (bs % 2) {
					out[n][k++] = '"';
					s++;
				} else if (inq && s[1] == '"') {
					out[n][k++] = '"';
					s += 2;
				} else {
					inq = !inq;
					s++;
				}
			} else {
				for (size_t i = 0; i < bs; i++)
					out[n][k++] = '\\';
			if (*s != '\0' && (inq || (*s != ' ' && *s != '\t')))
					out[n][k++] = *s++;
			}
		}
		out[n++][k] = '\0';
		if (n == MAXA)
			return -1;
	}
	*argc = n;
	return 0;
}

static void
round_trip(const char *const *argv)
{
	char line[4096], got[MAXA][512];
	size_t bad;
	int argc = 0, n = 0;

	CU_ASSERT_EQUAL_FATAL(jo_cmdline(argv, 0, line, sizeof(line), &bad),
			      JO_CMD_OK);
	CU_ASSERT_EQUAL_FATAL(crt_parse(line, got, &argc), 0);
	while (argv[n] != NULL)
		n++;
	CU_ASSERT_EQUAL(argc, n);
	for (int i = 0; i < n && i < argc; i++) {
		if (strcmp(got[i], argv[i]) != 0)
			fprintf(stderr, "\n  arg %d: [%s] came back [%s] from %s\n",
				i, argv[i], got[i], line);
		CU_ASSERT_STRING_EQUAL(got[i], argv[i]);
	}
}

static void
t_cmdline_hostile(void)
{
	static const char *const cases[][6] = {
		{ "C:\\p\\a.exe", "plain", NULL },
		{ "C:\\Program Files\\x.exe", "two words", "", NULL },
		{ "a.exe", "\"", "\\\"", "\\\\\"", "a\\\\b", NULL },
		{ "a.exe", "trailing\\", "trailing with space\\", "\\\\", NULL },
		{ "a.exe", "\" & calc.exe & \"", "--x=\"a b\"\\", NULL },
		{ "a.exe", "tab\there", "nl\nhere", "vt\vhere", NULL },
		{ "a.exe", "\"\"\"", "a\"b\"c", "\\\"\\\"", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		round_trip(cases[i]);
}

static void
t_cmdline_exact(void)
{
	const char *const argv[] = { "a.exe", "x y", "q\"", "b\\", "e\\\\\"",
				     "", NULL };
	char line[256];
	size_t bad;

	CU_ASSERT_EQUAL(jo_cmdline(argv, 0, line, sizeof(line), &bad), 0);
	CU_ASSERT_STRING_EQUAL(line,
			       "\"a.exe\" \"x y\" \"q\\\"\" b\\ "
			       "\"e\\\\\\\\\\\"\" \"\"");
}

static void
t_cmdline_refusals(void)
{
	const char *const q0[] = { "a\"b.exe", NULL };
	const char *const bat[] = { "x.bat", "ok", "a&calc", NULL };
	const char *const batok[] = { "x.cmd", "ok", "with space", NULL };
	const char *const none[] = { NULL };
	char line[64], big[3000];
	const char *const longv[] = { "a.exe", big, big, NULL };
	size_t bad = 0;

	CU_ASSERT_EQUAL(jo_cmdline(q0, 0, line, sizeof(line), &bad),
			JO_CMD_ARGV0_QUOTE);
	CU_ASSERT_EQUAL(jo_cmdline(bat, 1, line, sizeof(line), &bad),
			JO_CMD_BATCH_META);
	CU_ASSERT_EQUAL(bad, 2);
	CU_ASSERT_EQUAL(jo_cmdline(batok, 1, line, sizeof(line), &bad), 0);
	CU_ASSERT_EQUAL(jo_cmdline(bat, 0, line, sizeof(line), &bad), 0);
	CU_ASSERT_EQUAL(jo_cmdline(none, 0, line, sizeof(line), &bad),
			JO_CMD_EMPTY);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CU_ASSERT_EQUAL(jo_cmdline(longv, 0, line, sizeof(line), &bad),
			JO_CMD_TOO_LONG);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_STRING_EQUAL(line, "");
	CU_ASSERT(jo_is_batch("C:\\x\\RUN.BAT"));
	CU_ASSERT(jo_is_batch("a.Cmd"));
	CU_ASSERT(!jo_is_batch("a.exe"));
	CU_ASSERT(!jo_is_batch("bat"));
}

static void
t_exit_map(void)
{
	static const struct {
		uint32_t code, how;
		int32_t c;
	} t[] = {
		{ 0, NS_END_CODE, 0 },
		{ 3, NS_END_CODE, 3 },
		{ 255, NS_END_CODE, 255 },
		{ 0xFFFFFFFFu, NS_END_CODE, 255 }, /* exit(-1) */
		{ 256, NS_END_CODE, 0 },
		{ 0xC0000005u, NS_END_SIGNAL, 11 },
		{ 0xC00000FDu, NS_END_SIGNAL, 11 },
		{ 0xC000001Du, NS_END_SIGNAL, 4 },
		{ 0xC0000094u, NS_END_SIGNAL, 8 },
		{ 0xC0000409u, NS_END_SIGNAL, 6 },
		{ 0xC000013Au, NS_END_SIGNAL, 2 },
		{ 0x80000003u, NS_END_SIGNAL, 5 },
		{ JO_KILL_CODE(NS_TERM_SIGNAL), NS_END_SIGNAL, 15 },
		{ JO_KILL_CODE(NS_TERM_TIMEOUT), NS_END_SIGNAL, 9 },
		{ JO_KILL_CODE(NS_TERM_CAP), NS_END_SIGNAL, 9 },
		{ JO_KILL_CODE(NS_TERM_DONE), NS_END_SIGNAL, 9 },
		{ 0xC0000135u, NS_END_STATUS, 0 },
		{ 0xC0000142u, NS_END_STATUS, 0 },
		/* unnamed exceptions: never their low byte (0 here) */
		{ 0xE0000000u, NS_END_SIGNAL, 6 },
		{ 0xC0000100u, NS_END_SIGNAL, 6 },
		{ 0x80000100u, NS_END_SIGNAL, 6 },
		{ 0x7FFFFF00u, NS_END_CODE, 0 }, /* an exit code: its low byte */
	};
	struct ns_exit e;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		jo_exit_map(t[i].code, &e);
		CU_ASSERT_EQUAL(e.struct_size, sizeof(e));
		CU_ASSERT_EQUAL(e.how, t[i].how);
		CU_ASSERT_EQUAL(e.code, t[i].c);
		CU_ASSERT_EQUAL(e.status,
				t[i].how == NS_END_STATUS ? t[i].code : 0);
	}
}

static void
t_marker(void)
{
	char m[64];
	uint32_t pid = 0;
	uint64_t start = 0;
	static const char *const garbage[] = {
		"", "pid=\nstart=1\n", "pid=01\nstart=1\n", "pid=1\nstart=1",
		"pid=1\nstart=1\nx", "pid=4294967296\nstart=1\n",
		"pid=1\nstart=9223372036854775808\n", "pid=-1\nstart=1\n",
		"start=1\npid=1\n", "pid=1 \nstart=1\n", "pid=0\nstart=1\n",
	};

	CU_ASSERT_EQUAL(jo_marker_format(4242, 133000000000000000ULL, m,
					 sizeof(m)),
			strlen("pid=4242\nstart=133000000000000000\n"));
	CU_ASSERT_STRING_EQUAL(m, "pid=4242\nstart=133000000000000000\n");
	CU_ASSERT_EQUAL(jo_marker_parse(m, strlen(m), &pid, &start), 0);
	CU_ASSERT_EQUAL(pid, 4242);
	CU_ASSERT_EQUAL(start, 133000000000000000ULL);
	snprintf(m, sizeof(m), "pid=4294967295\nstart=9223372036854775807\n");
	CU_ASSERT_EQUAL(jo_marker_parse(m, strlen(m), &pid, &start), 0);
	CU_ASSERT_EQUAL(pid, UINT32_MAX);
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		int rc = jo_marker_parse(garbage[i], strlen(garbage[i]), &pid,
					 &start);

		if (rc == 0)
			fprintf(stderr, "\n  garbage %zu accepted\n", i);
		CU_ASSERT_EQUAL(rc, -1);
	}
	CU_ASSERT_EQUAL(jo_marker_format(1, 1, m, 8), 0);
	CU_ASSERT_STRING_EQUAL(m, "");
}

/* A minimal PE image header: MZ, e_lfanew, "PE\0\0", COFF header. */
static size_t
pe_image(unsigned char *b, size_t cap, unsigned chars)
{
	memset(b, 0, cap);
	b[0] = 'M';
	b[1] = 'Z';
	b[0x3c] = 0x80;
	memcpy(b + 0x80, "PE\0\0", 4);
	b[0x80 + 4] = 0x64; /* machine 0x8664 */
	b[0x80 + 5] = 0x86;
	b[0x80 + 22] = (unsigned char)(chars & 0xff);
	b[0x80 + 23] = (unsigned char)(chars >> 8);
	return 0x200;
}

static void
t_pe(void)
{
	unsigned char b[0x200];
	size_t n = pe_image(b, sizeof(b), 0x0022);

	CU_ASSERT_EQUAL(jo_pe_check(b, n), 0);
	CU_ASSERT_EQUAL(jo_pe_check(b, 0x80 + 23), -1); /* truncated */
	pe_image(b, sizeof(b), 0x2022);                  /* a DLL */
	CU_ASSERT_EQUAL(jo_pe_check(b, n), -1);
	pe_image(b, sizeof(b), 0x0020);                  /* not executable */
	CU_ASSERT_EQUAL(jo_pe_check(b, n), -1);
	pe_image(b, sizeof(b), 0x0022);
	b[0x3c] = 0xff;
	b[0x3d] = 0xff;                                  /* e_lfanew far out */
	CU_ASSERT_EQUAL(jo_pe_check(b, n), -1);
	memcpy(b, "\x7f" "ELF", 4);
	CU_ASSERT_EQUAL(jo_pe_check(b, n), -1);
	CU_ASSERT_EQUAL(jo_pe_check((const unsigned char *)"#!/bin/sh\n", 10),
			-1);
}

static void
t_wsl(void)
{
	const char *sys = "C:\\Windows";

	CU_ASSERT(jo_is_wsl("C:\\Windows\\System32\\wsl.exe", sys));
	CU_ASSERT(jo_is_wsl("D:\\anywhere\\WSL.EXE", sys));
	CU_ASSERT(jo_is_wsl("C:\\x\\wslhost.exe", sys));
	CU_ASSERT(jo_is_wsl("c:/windows/system32/BASH.exe", sys));
	CU_ASSERT(jo_is_wsl("\\\\?\\C:\\Windows\\Sysnative\\bash.exe", sys));
	CU_ASSERT(jo_is_wsl("C:\\Windows\\SysWOW64\\bash.exe", "C:\\Windows\\"));
	CU_ASSERT(!jo_is_wsl("C:\\msys64\\usr\\bin\\bash.exe", sys));
	CU_ASSERT(!jo_is_wsl("C:\\Windows\\System32\\sub\\bash.exe", sys));
	CU_ASSERT(!jo_is_wsl("C:\\Windows\\bash.exe", sys));
	CU_ASSERT(!jo_is_wsl("C:\\x\\wsl.exe.txt", sys));
	CU_ASSERT(!jo_is_wsl("C:\\x\\notwsl.exe", sys));
}

static void
t_scratch_name(void)
{
	CU_ASSERT_EQUAL(jo_scratch_name_ok("a"), 0);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("run-1.x_y"), 0);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("a."), -1);
	CU_ASSERT_EQUAL(jo_scratch_name_ok(".a"), -1);
	CU_ASSERT_EQUAL(jo_scratch_name_ok(""), -1);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("a\\b"), -1);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("a b"), -1);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("abcdefghijabcdefghijabcdefghijab"),
			0);
	CU_ASSERT_EQUAL(jo_scratch_name_ok("abcdefghijabcdefghijabcdefghijabc"),
			-1);
}

static void
t_retry(void)
{
	int total = 0, d;
	unsigned i;

	for (i = 0; (d = jo_retry_delay_ms(i)) >= 0; i++) {
		CU_ASSERT(d > 0);
		total += d;
	}
	CU_ASSERT(i >= 5);
	CU_ASSERT(total >= 1000 && total <= 3000);
}

/* --cpu: percent -> the job's CpuRate (cycles per 10000), nothing else */
static void
t_cpu_rate(void)
{
	CU_ASSERT_EQUAL(jo_cpu_rate(1), 100);
	CU_ASSERT_EQUAL(jo_cpu_rate(25), 2500);
	CU_ASSERT_EQUAL(jo_cpu_rate(100), 10000);
	CU_ASSERT_EQUAL(jo_cpu_rate(0), 0);
	CU_ASSERT_EQUAL(jo_cpu_rate(101), 0);
}

/* --acl caller: only a label at low (or below), or one without
 * no-write-up, lets the low-integrity command write */
static void
t_low_may_write(void)
{
	CU_ASSERT_EQUAL(jo_low_may_write(0, 0, 0), 0);       /* no label */
	CU_ASSERT_EQUAL(jo_low_may_write(1, 0x1000, 1), 1);  /* low, NW */
	CU_ASSERT_EQUAL(jo_low_may_write(1, 0x0000, 1), 1);  /* untrusted */
	CU_ASSERT_EQUAL(jo_low_may_write(1, 0x2000, 1), 0);  /* medium, NW */
	CU_ASSERT_EQUAL(jo_low_may_write(1, 0x2000, 0x2), 1); /* NR only */
	CU_ASSERT_EQUAL(jo_low_may_write(1, 0x3000, 0x3), 0); /* high */
}

static int
starts(const char *s, const char *lead)
{
	return strncmp(s, lead, strlen(lead)) == 0;
}

/* The LEAK remedy of a --scratch run: rmdir on the root, quoted when it
 * holds a space, the \\?\ form when long, refused with a '"' */
static void
t_leak_remedy(void)
{
	char out[1200], root[600];

	CU_ASSERT_EQUAL(jo_leak_remedy("D:\\s\\nova-x", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "rmdir /s /q D:\\s\\nova-x");
	CU_ASSERT_EQUAL(jo_leak_remedy("D:\\a b\\nova-x", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "rmdir /s /q \"D:\\a b\\nova-x\"");
	CU_ASSERT_EQUAL(jo_leak_remedy("D:\\a\"b", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(jo_leak_remedy("D:\\s\\nova-x", out, 12), -1);
	memset(root, 'a', sizeof(root));
	memcpy(root, "D:\\", 3);
	root[300] = '\0';
	CU_ASSERT_EQUAL(jo_leak_remedy(root, out, sizeof(out)), 0);
	CU_ASSERT(starts(out, "rmdir /s /q \\\\?\\D:\\aaa"));
	memcpy(root, "\\\\srv\\sh\\", 9);
	CU_ASSERT_EQUAL(jo_leak_remedy(root, out, sizeof(out)), 0);
	CU_ASSERT(starts(out, "rmdir /s /q \\\\?\\UNC\\srv\\sh\\aaa"));
	root[258] = '\0'; /* 258 characters: the plain form */
	CU_ASSERT_EQUAL(jo_leak_remedy(root, out, sizeof(out)), 0);
	CU_ASSERT(starts(out, "rmdir /s /q \\\\srv\\sh\\aaa"));
}

/* ---- the environment block ---------------------------------------------- */

#define U(s) ((const uint16_t *)(s))

static size_t
u16len(const uint16_t *s)
{
	size_t n = 0;

	while (s[n] != 0)
		n++;
	return n;
}

static int
u16eq(const uint16_t *a, const char16_t *b)
{
	size_t i = 0;

	for (; a[i] != 0 && b[i] != 0; i++)
		if (a[i] != b[i])
			return 0;
	return a[i] == b[i];
}

static void
t_env_name_len(void)
{
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"PATH=C:\\x")), 4);
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"=C:=C:\\x")), 3);
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"A==b")), 1);
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"NOVALUE")), 7);
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"")), 0);
	CU_ASSERT_EQUAL(jo_env_name_len(U(u"\u65e5\u672c=v")), 2);
}

/* Windows' order: by name, ASCII case ignored by upper-casing (so '_',
 * 0x5F, after every letter), then UTF-16 units (an emoji's surrogate
 * pair, D83D DE00, before U+FF21, whose UTF-8 sorts first); the value
 * never counts; "=C:" first of all. */
static void
t_env_sort_order(void)
{
	const char16_t *in[] = {
		u"zeta=1", u"A_B=2", u"ab=3", u"\uFF21=4", u"\U0001F600=5",
		u"Path=C:\\w", u"=C:=C:\\", u"PATHEXT=.COM", u"path_x=7",
		u"\u00fc=8", u"Z=9", u"a=10",
	};
	const char16_t *want[] = {
		u"=C:=C:\\", u"a=10", u"ab=3", u"A_B=2", u"Path=C:\\w",
		u"PATHEXT=.COM", u"path_x=7", u"Z=9", u"zeta=1", u"\u00fc=8",
		u"\U0001F600=5", u"\uFF21=4",
	};
	const uint16_t *v[12], *tmp[12];
	size_t dup = 99;

	for (size_t i = 0; i < 12; i++)
		v[i] = U(in[i]);
	CU_ASSERT_EQUAL(jo_env_sort(v, 12, tmp, NULL, &dup), 0);
	for (size_t i = 0; i < 12; i++) {
		if (!u16eq(v[i], want[i]))
			fprintf(stderr, "\n  entry %zu out of order (%zu units)\n",
				i, u16len(v[i]));
		CU_ASSERT(u16eq(v[i], want[i]));
	}
	/* ASCII only: no other letter is folded by the portable comparison
	 * (the DLL's CompareStringOrdinal folds the rest as Windows does) */
	CU_ASSERT(jo_env_cmp_ascii(U(u"\u00fc"), 1, U(u"\u00dc"), 1) > 0);
	CU_ASSERT_EQUAL(jo_env_cmp_ascii(U(u"pAtH"), 4, U(u"PaTh"), 4), 0);
	CU_ASSERT(jo_env_cmp_ascii(U(u"PATH"), 4, U(u"PATHEXT"), 7) < 0);
	CU_ASSERT(jo_env_cmp_ascii(U(u"PATHEXT"), 7, U(u"PATH"), 4) > 0);
}

/* one variable twice, as Windows compares names: refused, both named */
static void
t_env_sort_dup(void)
{
	const uint16_t *v[4] = { U(u"Path=a"), U(u"TEMP=t"), U(u"HOME=h"),
				 U(u"PATH=b") }, *tmp[4];
	const uint16_t *one[1] = { U(u"X=1") };
	const uint16_t *same[2] = { U(u"X=1"), U(u"X=2") };
	size_t dup = 0;

	CU_ASSERT_EQUAL(jo_env_sort(v, 4, tmp, NULL, &dup), -1);
	CU_ASSERT_EQUAL(dup, 2);
	CU_ASSERT(u16eq(v[1], u"Path=a")); /* stable: as given */
	CU_ASSERT(u16eq(v[2], u"PATH=b"));
	CU_ASSERT_EQUAL(jo_env_sort(one, 1, tmp, NULL, &dup), 0);
	CU_ASSERT_EQUAL(jo_env_sort(NULL, 0, tmp, NULL, &dup), 0);
	CU_ASSERT_EQUAL(jo_env_sort(same, 2, tmp, NULL, &dup), -1);
	CU_ASSERT_EQUAL(dup, 1);
}

/* a block of many entries given in reverse comes back in order */
static void
t_env_sort_many(void)
{
	static uint16_t store[300][8];
	const uint16_t *v[300], *tmp[300];
	size_t dup = 0;

	for (size_t i = 0; i < 300; i++) {
		size_t k = 299 - i;

		store[i][0] = (uint16_t)(i % 2 ? 'v' : 'V');
		store[i][1] = (uint16_t)('0' + k / 100);
		store[i][2] = (uint16_t)('0' + k / 10 % 10);
		store[i][3] = (uint16_t)('0' + k % 10);
		store[i][4] = '=';
		store[i][5] = (uint16_t)('0' + i % 10);
		store[i][6] = 0;
		v[i] = store[i];
	}
	CU_ASSERT_EQUAL(jo_env_sort(v, 300, tmp, NULL, &dup), 0);
	for (size_t i = 1; i < 300; i++)
		CU_ASSERT(jo_env_cmp_ascii(v[i - 1], 4, v[i], 4) < 0);
	CU_ASSERT_EQUAL(v[0][3], '0');
	CU_ASSERT_EQUAL(v[299][1], '2');
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "command line round trip, hostile quoting", t_cmdline_hostile },
		{ "command line exact bytes", t_cmdline_exact },
		{ "command line refusals", t_cmdline_refusals },
		{ "exit code mapping", t_exit_map },
		{ "owner marker", t_marker },
		{ "WSL launchers refused", t_wsl },
		{ "only a Windows program is started", t_pe },
		{ "scratch name", t_scratch_name },
		{ "delete retries", t_retry },
		{ "--cpu as the job's CPU rate", t_cpu_rate },
		{ "--acl caller: the label the low command may write", t_low_may_write },
		{ "--scratch's LEAK remedy", t_leak_remedy },
		{ "environment: the name of an entry", t_env_name_len },
		{ "environment: sorted as Windows wants", t_env_sort_order },
		{ "environment: one variable twice refused", t_env_sort_dup },
		{ "environment: 300 entries sorted", t_env_sort_many },
		{ NULL, NULL },
	};

	return cu_run("jobobject core", NULL, NULL, cases);
}
