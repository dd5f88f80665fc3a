/* SPDX-License-Identifier: MIT */
/* tooltest.c -- the host's tool runner on Windows (os/tool.h,
 * host/os/windows/tool.c) under test, with fake_tool.exe as the program:
 * found on PATH by PATHEXT's order and held so it cannot be replaced,
 * argv carried exactly, exactly the environment given (sorted), the
 * working directory from a descriptor, stdout and stderr captured with
 * their caps and no deadlock, the deadline ending the whole tree (the
 * grandchild too), the exit codes read as the wrap's table reads them, a
 * batch file and an argv[0] holding '"' refused.
 *
 *   tooltest.exe <fake_tool.exe> <scratch dir>   (full paths)
 */
#include <windows.h>
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/tool.h"
#include "os/os.h"
#include "wt.h"

static char child[MAX_PATH], dir[MAX_PATH], bin[MAX_PATH], path[MAX_PATH];
static struct tool t;

static wchar_t *
w16(const char *s)
{
	static wchar_t w[4][MAX_PATH];
	static int k;

	k = (k + 1) % 4;
	MultiByteToWideChar(CP_UTF8, 0, s, -1, w[k], MAX_PATH);
	return w[k];
}

/* dir/<sub> made afresh. */
static void
fresh(const char *sub, char *out)
{
	snprintf(out, MAX_PATH, "%s\\%s", dir, sub);
	CreateDirectoryW(w16(out), NULL);
}

/* Run the kept child with its mode and args, envp, 10 s. */
static int
go(char *const argv[], char *const envp[], unsigned ms, struct toolres *r)
{
	return tool_run(&t, -1, argv, envp, ms, r);
}

static char *const env0[] = { "SystemRoot=C:\\windows", NULL };

static int
t_find(void)
{
	char p[2 * MAX_PATH], junk[MAX_PATH];
	struct tool u;
	int rc;

	/* a relative entry and a directory with a non-program x.exe first */
	fresh("notpe", junk);
	snprintf(p, sizeof(p), "%s\\x.exe", junk);
	{
		FILE *f = _wfopen(w16(p), L"wb");

		if (f == NULL)
			return fail("cannot make %s", p);
		fputs("not a program", f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "rel;;%s;%s", junk, bin);
	rc = tool_find("x", p, &u);
	if (rc != 0 || u.path == NULL ||
	    strstr(u.path, "/bin/x.exe") == NULL || strchr(u.path, '\\'))
		return fail("find x on %s: rc %d path %s", p, rc,
			    u.path ? u.path : "-");
	tool_free(&u);
	/* bin\x.exe is there relative to the working directory */
	SetCurrentDirectoryW(w16(dir));
	rc = tool_find("x", "bin;.\\bin", &u);
	tool_free(&u);
	if (rc != 1)
		return fail("a relative PATH entry was searched");
	snprintf(p, sizeof(p), "%s/x", bin);
	if (tool_find(p, path, &u) != 1 || tool_find("a\\x", path, &u) != 1)
		return fail("a name with a separator was looked up");
	if (tool_find("nothere", path, &u) != 1)
		return fail("a missing program was found");
	return 0;
}

static int
t_held(void)
{
	char p[MAX_PATH], q[MAX_PATH];
	HANDLE h;

	snprintf(p, sizeof(p), "%s\\x.exe", bin);
	snprintf(q, sizeof(q), "%s\\moved.exe", bin);
	h = CreateFileW(w16(p), GENERIC_WRITE, FILE_SHARE_READ |
			FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			OPEN_EXISTING, 0, NULL);
	if (h != INVALID_HANDLE_VALUE) {
		CloseHandle(h);
		return fail("the kept program could be opened for writing");
	}
	if (MoveFileExW(w16(p), w16(q), 0))
		return fail("the kept program could be renamed");
	if (DeleteFileW(w16(p)))
		return fail("the kept program could be deleted");
	return 0;
}

static int
t_args(void)
{
	static char *argv[] = {
		"x", "args", "", "a b", "tab\there", "q\"uote", "back\\slash",
		"trail\\", "trail\\\\", "\\\"both\\\\\"", "nl\nline",
		"%PATH%&^!|<>()", "\xc3\xbc\xe2\x82\xac", "-", "--",
		"sp trail\\", "sp trail\\\\", NULL
	};
	struct toolres r;
	const char *p;
	size_t i = 2;

	if (go(argv, env0, 10000, &r) != 0)
		return fail("not started: %s", strerror(errno));
	for (p = sbuf_str(&r.out); i < 17 && p < r.out.s + r.out.len;
	     p += strlen(p) + 1, i++)
		if (strcmp(p, argv[i]) != 0)
			break;
	if (r.status != 0 || i != 17 || p != r.out.s + r.out.len) {
		toolres_free(&r);
		return fail("argument %zu came back as [%s]", i,
			    i < 17 ? p : "(extra)");
	}
	toolres_free(&r);
	return 0;
}

/* The block the child printed without what Wine's own process start adds
 * to every process (WINE* and, when missing, SystemDrive): on Windows
 * nothing is dropped.  Heap. */
static char *
without_wine(const char *blk)
{
	struct sbuf b = {0};

	while (*blk) {
		size_t n = strcspn(blk, "\n");

		if (wine == NULL || (strncmp(blk, "WINE", 4) != 0 &&
				     strncmp(blk, "SystemDrive=", 12) != 0)) {
			sbuf_addn(&b, blk, n);
			sbuf_add(&b, "\n");
		}
		blk += n + (blk[n] == '\n');
	}
	return sbuf_failed(&b) ? NULL : sbuf_take(&b);
}

static int
t_env(void)
{
	char *argv[] = { "x", "env", NULL };
	char *envp[] = { "b_low=2", "SystemRoot=C:\\windows", "A=1",
			 "C=\xc3\xa4 space=eq", NULL };
	const char *want = "A=1\nb_low=2\nC=\xc3\xa4 space=eq\n"
			   "SystemRoot=C:\\windows\n";
	struct toolres r;
	char *got;
	int ok;

	SetEnvironmentVariableW(L"NOVA_TOOLTEST_LEAK", L"1");
	if (go(argv, envp, 10000, &r) != 0)
		return fail("not started: %s", strerror(errno));
	got = without_wine(sbuf_str(&r.out));
	ok = r.status == 0 && got != NULL && strcmp(got, want) == 0;
	if (!ok)
		fail("the block was [%s]", sbuf_str(&r.out));
	free(got);
	toolres_free(&r);
	return ok ? 0 : -1;
}

static int
t_env_bad(void)
{
	char *argv[] = { "x", "env", NULL };
	char *noeq[] = { "A=1", "NOEQUALS", NULL };
	char *noname[] = { "=C:=C:\\", NULL };
	char *twice[] = { "Path=a", "PATH=b", NULL };
	struct toolres r;

	if (go(argv, noeq, 10000, &r) != -1 || errno != EINVAL)
		return fail("an entry without '=' was passed");
	if (go(argv, noname, 10000, &r) != -1 || errno != EINVAL)
		return fail("an entry without a name was passed");
	if (go(argv, twice, 10000, &r) != -1 || errno != EINVAL)
		return fail("one name twice was passed");
	return 0;
}

static int
t_empty_env(void)
{
	char *argv[] = { "x", "exit", "3", NULL };
	char *none[] = { NULL };
	struct toolres r;
	int rc = go(argv, none, 10000, &r);

	if (rc != 0 || r.status != 3)
		return fail("rc %d status %d", rc, r.status);
	toolres_free(&r);
	return 0;
}

static int
t_cwd(void)
{
	char *argv[] = { "x", "cwd", NULL }, sub[MAX_PATH], *want;
	struct toolres r;
	int fd, ok;

	fresh("cwd dir", sub);
	fd = os_open_dir(sub);
	if (fd < 0)
		return fail("cannot open %s", sub);
	want = os_fd_name(fd);
	ok = tool_run(&t, fd, argv, env0, 10000, &r) == 0 && r.status == 0;
	close(fd);
	if (ok) {
		for (char *c = r.out.s; c && *c; c++)
			if (*c == '\\')
				*c = '/';
		ok = want != NULL && _stricmp(sbuf_str(&r.out), want) == 0;
	}
	if (!ok)
		fail("cwd [%s], wanted [%s]", sbuf_str(&r.out),
		     want ? want : "-");
	free(want);
	toolres_free(&r);
	return ok ? 0 : -1;
}

static int
t_caps(void)
{
	char *argv[] = { "x", "out", "5000000", NULL };
	struct toolres r;
	int ok;

	if (go(argv, env0, 20000, &r) != 0)
		return fail("not started");
	ok = r.status == 0 && r.truncated && r.out.len == TOOL_MAX_OUT &&
	     strcmp(sbuf_str(&r.err), "done") == 0 && !r.timed_out;
	if (!ok)
		fail("status %d truncated %d out %zu err [%s]", r.status,
		     r.truncated, r.out.len, sbuf_str(&r.err));
	toolres_free(&r);
	return ok ? 0 : -1;
}

static int
t_both(void)
{
	char *argv[] = { "x", "both", "300000", NULL };
	struct toolres r;
	int ok;

	if (go(argv, env0, 20000, &r) != 0)
		return fail("not started");
	/* stderr past its cap first, then stdout: read at once, no hang */
	ok = r.status == 0 && !r.timed_out && r.out.len == 300000 &&
	     r.err.len == TOOL_MAX_ERR && r.truncated;
	if (!ok)
		fail("status %d timed_out %d out %zu err %zu", r.status,
		     r.timed_out, r.out.len, r.err.len);
	toolres_free(&r);
	return ok ? 0 : -1;
}

static int
t_timeout(void)
{
	char pidfile[MAX_PATH], *argv[] = { "x", "tree", pidfile, NULL };
	struct toolres r;
	unsigned long pid = 0;
	DWORD t0 = GetTickCount(), took;
	HANDLE h;
	FILE *f;
	int ok;

	snprintf(pidfile, sizeof(pidfile), "%s\\grandchild.pid", dir);
	DeleteFileW(w16(pidfile));
	if (go(argv, env0, 1500, &r) != 0)
		return fail("not started");
	took = GetTickCount() - t0;
	ok = r.timed_out && r.status == 137 && took < 8000;
	toolres_free(&r);
	if (!ok)
		return fail("timed_out %d status %d after %lu ms", r.timed_out,
			    r.status, (unsigned long)took);
	f = _wfopen(w16(pidfile), L"r");
	if (f == NULL || fscanf(f, "%lu", &pid) != 1) {
		if (f)
			fclose(f);
		return fail("the grandchild never wrote its pid");
	}
	fclose(f);
	h = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
	if (h != NULL) {
		DWORD w = WaitForSingleObject(h, 3000);

		CloseHandle(h);
		if (w != WAIT_OBJECT_0)
			return fail("the grandchild %lu still runs", pid);
	}
	return 0;
}

static int
t_exit_codes(void)
{
	static const struct {
		const char *mode, *arg;
		int want;
	} cases[] = {
		{ "exit", "0", 0 },	    { "exit", "7", 7 },
		{ "exit", "300", 44 },	    { "status", "C0000005", 139 },
		{ "status", "C00000FD", 139 }, { "status", "C0000409", 134 },
		{ "status", "C000013A", 130 }, { "status", "C0000094", 136 },
		{ "status", "C0000135", 125 }, { "status", "6E530002", 137 },
		{ "status", "6E530001", 143 }, { "status", "DEADBE01", 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "x", (char *)cases[i].mode,
				 (char *)cases[i].arg, NULL };
		struct toolres r;
		int rc = go(argv, env0, 10000, &r);

		toolres_free(&r);
		if (rc != 0 || r.status != cases[i].want)
			return fail("%s %s: status %d, wanted %d",
				    cases[i].mode, cases[i].arg, r.status,
				    cases[i].want);
	}
	return 0;
}

static int
t_refused(void)
{
	char p[MAX_PATH], *argv[] = { "x", "args", NULL };
	char *q0[] = { "x\"y", "args", NULL };
	struct tool b;
	struct toolres r;
	FILE *f;
	int rc, e;

	if (go(q0, env0, 10000, &r) != -1 || errno != EINVAL)
		return fail("an argv[0] holding '\"' was run");
	snprintf(p, sizeof(p), "%s\\run.bat", bin);
	f = _wfopen(w16(p), L"wb");
	if (f == NULL)
		return fail("cannot make %s", p);
	fputs("@echo ran\r\n", f);
	fclose(f);
	/* found by PATHEXT's order (.bat before .cmd) and by its own name */
	rc = tool_find("run", path, &b);
	if (rc != 0 || b.path == NULL || strstr(b.path, "run.bat") == NULL)
		return fail("run.bat not found as run (rc %d)", rc);
	rc = tool_run(&b, -1, argv, env0, 10000, &r);
	e = errno;
	tool_free(&b);
	if (rc != -1 || e != ENOEXEC)
		return fail("a batch file was run (rc %d, %s)", rc,
			    sbuf_str(&r.out));
	if (tool_find("run.bat", path, &b) != 0)
		return fail("run.bat not found by its own name");
	rc = tool_run(&b, -1, argv, env0, 10000, &r);
	e = errno;
	tool_free(&b);
	DeleteFileW(w16(p));
	return rc == -1 && e == ENOEXEC ? 0 : fail("run.bat was run");
}

static int
t_freed(void)
{
	char p[MAX_PATH];

	tool_free(&t);
	snprintf(p, sizeof(p), "%s\\x.exe", bin);
	if (!DeleteFileW(w16(p)))
		return fail("the program is still held after tool_free "
			    "(error %lu)", GetLastError());
	return 0;
}

int wmain(int argc, wchar_t **argv); /* -municode's entry */

int
wmain(int argc, wchar_t **argv)
{
	char p[MAX_PATH];

	wt_init();
	(void)wine_skip; /* Wine implements all the runner uses */
	if (argc != 3) {
		fprintf(stderr, "usage: tooltest.exe <fake_tool.exe> <dir>\n");
		return 2;
	}
	WideCharToMultiByte(CP_UTF8, 0, argv[1], -1, child, MAX_PATH, 0, 0);
	WideCharToMultiByte(CP_UTF8, 0, argv[2], -1, dir, MAX_PATH, 0, 0);
	CreateDirectoryW(argv[2], NULL);
	fresh("bin", bin);
	snprintf(p, sizeof(p), "%s\\x.exe", bin);
	if (!CopyFileW(w16(child), w16(p), FALSE)) {
		fprintf(stderr, "tooltest: cannot copy %s\n", child);
		return 2;
	}
	snprintf(path, sizeof(path), "%s\\nothere;%s", dir, bin);
	if (tool_find("x", path, &t) != 0) {
		fprintf(stderr, "tooltest: x not found on %s\n", path);
		return 2;
	}
	run("tool: found on PATH by PATHEXT, absolute entries only", t_find);
	run("tool: the kept program cannot be written, renamed or deleted",
	    t_held);
	run("tool: argv arrives exactly (the C runtime's quoting)", t_args);
	run("tool: exactly the environment given, sorted, nothing inherited",
	    t_env);
	run("tool: an environment entry that is not NAME=value is refused",
	    t_env_bad);
	run("tool: an empty environment", t_empty_env);
	run("tool: the working directory from a descriptor", t_cwd);
	run("tool: stdout past its cap is truncated, the program not blocked",
	    t_caps);
	run("tool: stderr and stdout read at once (no deadlock)", t_both);
	run("tool: the deadline ends the tree, the grandchild too: 137",
	    t_timeout);
	run("tool: exit codes read as the wrap's table reads them",
	    t_exit_codes);
	run("tool: a batch file and an argv[0] holding '\"' are refused",
	    t_refused);
	run("tool: tool_free lets the program go", t_freed);
	return wt_done("windows tool runner");
}
