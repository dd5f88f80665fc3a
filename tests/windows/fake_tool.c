/* SPDX-License-Identifier: MIT */
/* fake_tool.c -- the programs the Windows suite has no real copy of (no
 * git, gh or go for Windows on the test machine), one binary that is what
 * its own name says (tests/windows/host.sh copies it as git.exe, gh.exe
 * and go.exe), and the runner's test child under any other name
 * (tests/windows/tooltest.c).  Every fake call appends what it got to
 * calls.log beside the binary: "call <name>", "arg <hex>" per argument
 * (the exact UTF-8 bytes), "cwd <dir>", "env <NAME=value>" per entry of
 * the block it was given, "end".
 *
 *   git  exactly the calls `nova-sandbox worktree` makes, over a fake
 *        repository: <repo>/.git/ a directory, .git/origin the origin
 *        URL, .git/worktrees.list the linked trees' paths; a tree made by
 *        `worktree add` holds .git (a gitfile naming
 *        <repo>/.git/worktrees/<name>, whose gitdir names it back, as
 *        git makes them), .fakehead (its head) and README ("pr");
 *        .git/fetch.hang makes a fetch hang, .git/add.fail makes
 *        `worktree add` fail.  The options every call starts with
 *        (--no-pager, -c <k=v>, --git-dir=, --work-tree=) are taken off
 *        first; a call without --git-dir and --work-tree is refused.
 *   gh   `gh pr view <n> ...`: prints pr-<n>.json beside the binary, or
 *        says the pull request is not found (exit 1).
 *   go   `go env GOROOT GOMODCACHE`: prints go.answer beside the binary;
 *        with go.hang there, starts a grandchild (its pid in
 *        go.grandchild) and sleeps for ever.
 *   else args | env | cwd | out <n> | both <n> | exit <n> |
 *        status <hex> | tree <pidfile> | sleep <ms>: the runner's child
 *        (print each argument NUL-terminated, the environment block one
 *        entry a line, the working directory; n bytes to stdout; n bytes
 *        to stderr then to stdout; exit codes; a grandchild whose pid goes
 *        to pidfile, then sleep for ever). */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static wchar_t self[MAX_PATH], dir[MAX_PATH];

static char *
utf8(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s = n > 0 ? malloc((size_t)n) : NULL;

	if (s != NULL)
		WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
	return s != NULL ? s : strdup("?");
}

static void
put(HANDLE h, const void *p, size_t n)
{
	DWORD w = 0;

	while (n > 0 && WriteFile(h, p, (DWORD)n, &w, NULL) && w > 0) {
		p = (const char *)p + w;
		n -= w;
	}
}

static void
say(HANDLE h, const char *s)
{
	put(h, s, strlen(s));
}

/* dir\name, into out (MAX_PATH). */
static void
beside(const wchar_t *name, wchar_t *out)
{
	_snwprintf(out, MAX_PATH, L"%ls\\%ls", dir, name);
	out[MAX_PATH - 1] = 0;
}

/* The whole of a file, NUL-terminated, or NULL. */
static char *
slurp(const wchar_t *path, DWORD *len)
{
	HANDLE f = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ |
			       FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, 0, NULL);
	DWORD n = 0, size;
	char *b;

	if (f == INVALID_HANDLE_VALUE)
		return NULL;
	size = GetFileSize(f, NULL);
	b = malloc(size + 1);
	if (b == NULL || !ReadFile(f, b, size, &n, NULL)) {
		CloseHandle(f);
		free(b);
		return NULL;
	}
	CloseHandle(f);
	b[n] = 0;
	if (len != NULL)
		*len = n;
	return b;
}

static int
spew(const wchar_t *path, const char *text, int append)
{
	HANDLE f = CreateFileW(path, append ? FILE_APPEND_DATA : GENERIC_WRITE,
			       FILE_SHARE_READ, NULL,
			       append ? OPEN_ALWAYS : CREATE_ALWAYS, 0, NULL);

	if (f == INVALID_HANDLE_VALUE)
		return -1;
	put(f, text, strlen(text));
	CloseHandle(f);
	return 0;
}

static int
exists(const wchar_t *path)
{
	return GetFileAttributesW(path) != INVALID_FILE_ATTRIBUTES;
}

/* ---- the call log ------------------------------------------------------ */

static void
log_call(const char *who, int argc, wchar_t **argv)
{
	wchar_t path[MAX_PATH], cwd[MAX_PATH];
	wchar_t *blk = GetEnvironmentStringsW();
	HANDLE f;
	char line[64];

	beside(L"calls.log", path);
	/* one writer at a time: the log is opened unshared, retried */
	for (int i = 0; i < 200; i++) {
		f = CreateFileW(path, FILE_APPEND_DATA, 0, NULL, OPEN_ALWAYS, 0,
				NULL);
		if (f != INVALID_HANDLE_VALUE)
			break;
		Sleep(10);
	}
	if (f == INVALID_HANDLE_VALUE)
		return;
	snprintf(line, sizeof(line), "call %s\n", who);
	say(f, line);
	for (int i = 1; i < argc; i++) {
		char *a = utf8(argv[i]);

		say(f, "arg ");
		for (unsigned char *p = (unsigned char *)a; *p; p++) {
			snprintf(line, sizeof(line), "%02x", *p);
			say(f, line);
		}
		say(f, "\n");
		free(a);
	}
	if (GetCurrentDirectoryW(MAX_PATH, cwd) > 0) {
		char *c = utf8(cwd);

		say(f, "cwd ");
		say(f, c);
		say(f, "\n");
		free(c);
	}
	for (wchar_t *e = blk; e != NULL && *e; e += wcslen(e) + 1) {
		char *s = utf8(e);

		say(f, "env ");
		say(f, s);
		say(f, "\n");
		free(s);
	}
	say(f, "end\n");
	CloseHandle(f);
	FreeEnvironmentStringsW(blk);
}

/* ---- processes ---------------------------------------------------------- */

/* Start this binary again with args; its pid into *pid. */
static int
start_self(const wchar_t *args, DWORD *pid)
{
	wchar_t line[MAX_PATH * 2];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;

	_snwprintf(line, MAX_PATH * 2, L"\"%ls\" %ls", self, args);
	line[MAX_PATH * 2 - 1] = 0;
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	if (!CreateProcessW(self, line, NULL, NULL, FALSE, 0, NULL, NULL, &si,
			    &pi))
		return -1;
	*pid = pi.dwProcessId;
	CloseHandle(pi.hThread);
	CloseHandle(pi.hProcess);
	return 0;
}

/* A grandchild that sleeps, its pid written to pidfile, then sleep. */
static int
tree(const wchar_t *pidfile)
{
	char text[32];
	DWORD pid = 0;

	if (start_self(L"sleep 600000", &pid) != 0)
		return 2;
	snprintf(text, sizeof(text), "%lu", (unsigned long)pid);
	if (spew(pidfile, text, 0) != 0)
		return 3;
	Sleep(INFINITE);
	return 0;
}

/* ---- git ------------------------------------------------------------------ */

static int
is(int argc, wchar_t **argv, int n, ...)
{
	va_list ap;
	int ok = argc == n + 1;

	va_start(ap, n);
	for (int i = 1; ok && i <= n; i++) {
		const wchar_t *want = va_arg(ap, const wchar_t *);

		ok = want == NULL || wcscmp(argv[i], want) == 0;
	}
	va_end(ap);
	return ok;
}

static void
cwd_file(const wchar_t *name, wchar_t *out)
{
	wchar_t cwd[MAX_PATH];

	GetCurrentDirectoryW(MAX_PATH, cwd);
	_snwprintf(out, MAX_PATH, L"%ls\\%ls", cwd, name);
	out[MAX_PATH - 1] = 0;
}

/* The worktree list: the repository itself, then each linked tree. */
static int
git_list(HANDLE out)
{
	wchar_t cwd[MAX_PATH], lst[MAX_PATH];
	char *c, *l, *line, *save = NULL;

	GetCurrentDirectoryW(MAX_PATH, cwd);
	cwd_file(L".git\\worktrees.list", lst);
	c = utf8(cwd);
	for (char *p = c; *p; p++)
		if (*p == '\\')
			*p = '/';
	say(out, "worktree ");
	put(out, c, strlen(c) + 1);
	put(out, "HEAD 0000000000000000000000000000000000000000", 46);
	put(out, "branch refs/heads/main", 23);
	put(out, "", 1);
	free(c);
	l = slurp(lst, NULL);
	for (line = l ? strtok_r(l, "\n", &save) : NULL; line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		say(out, "worktree ");
		put(out, line, strlen(line) + 1);
		put(out, "detached", 9);
		put(out, "", 1);
	}
	free(l);
	return 0;
}

/* Drop path from the worktree list. */
static int
git_forget(const wchar_t *path)
{
	wchar_t lst[MAX_PATH];
	char *l, *line, *save = NULL, *want = utf8(path), *keep;

	cwd_file(L".git\\worktrees.list", lst);
	l = slurp(lst, NULL);
	keep = calloc(1, (l ? strlen(l) : 0) + 1);
	for (line = l ? strtok_r(l, "\n", &save) : NULL; keep && line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (strcmp(line, want) != 0) {
			strcat(keep, line);
			strcat(keep, "\n");
		}
	if (keep != NULL)
		spew(lst, keep, 0);
	free(l);
	free(keep);
	free(want);
	return 0;
}

/* The cwd with '/' for '\\', as git prints a path (heap). */
static char *
cwd_slash(void)
{
	wchar_t cwd[MAX_PATH];
	char *c;

	GetCurrentDirectoryW(MAX_PATH, cwd);
	c = utf8(cwd);
	for (char *q = c; *q; q++)
		if (*q == '\\')
			*q = '/';
	return c;
}

/* The tree's gitdir as git makes it: <repo>/.git/worktrees/<name> (the
 * tree's last component), its file gitdir naming <path>/.git back, and
 * the tree's .git a gitfile naming it. */
static void
git_add_gitdir(const wchar_t *path)
{
	wchar_t f[MAX_PATH], rel[MAX_PATH];
	const wchar_t *name = wcsrchr(path, L'/');
	const wchar_t *bs = wcsrchr(path, L'\\');
	char *repo = cwd_slash(), *p = utf8(path), *n, *text;
	size_t len;

	if (bs != NULL && (name == NULL || bs > name))
		name = bs;
	name = name != NULL ? name + 1 : path;
	n = utf8(name);
	cwd_file(L".git\\worktrees", f);
	CreateDirectoryW(f, NULL);
	_snwprintf(rel, MAX_PATH, L".git\\worktrees\\%ls", name);
	rel[MAX_PATH - 1] = 0;
	cwd_file(rel, f);
	CreateDirectoryW(f, NULL);
	wcsncat(f, L"\\gitdir", MAX_PATH - wcslen(f) - 1);
	len = strlen(p) + 8;
	text = malloc(len);
	if (text != NULL) {
		snprintf(text, len, "%s/.git\n", p);
		spew(f, text, 0);
		free(text);
	}
	len = strlen(repo) + strlen(n) + 32;
	text = malloc(len);
	if (text != NULL) {
		snprintf(text, len, "gitdir: %s/.git/worktrees/%s\n", repo, n);
		_snwprintf(f, MAX_PATH, L"%ls\\.git", path);
		spew(f, text, 0);
		free(text);
	}
	free(repo);
	free(p);
	free(n);
}

static int
git_add(const wchar_t *path, const wchar_t *head, HANDLE err)
{
	wchar_t f[MAX_PATH], lst[MAX_PATH];
	char *h = utf8(head), *p = utf8(path);

	cwd_file(L".git\\add.fail", f);
	if (exists(f)) {
		say(err, "fatal: invalid reference: ");
		say(err, h);
		say(err, "\n");
		return 128;
	}
	if (!CreateDirectoryW(path, NULL)) {
		say(err, "fatal: could not create directory\n");
		return 128;
	}
	git_add_gitdir(path);
	_snwprintf(f, MAX_PATH, L"%ls\\.fakehead", path);
	spew(f, h, 0);
	_snwprintf(f, MAX_PATH, L"%ls\\README", path);
	spew(f, "pr", 0);
	cwd_file(L".git\\worktrees.list", lst);
	spew(lst, p, 1);
	spew(lst, "\n", 1);
	free(h);
	free(p);
	return 0;
}

/* Anything in the tree but .git, .fakehead and an unchanged README. */
static int
git_status(HANDLE out)
{
	WIN32_FIND_DATAW fd;
	wchar_t pat[MAX_PATH], rd[MAX_PATH];
	HANDLE h;
	char *readme;

	cwd_file(L"*", pat);
	h = FindFirstFileW(pat, &fd);
	while (h != INVALID_HANDLE_VALUE) {
		if (wcscmp(fd.cFileName, L".") && wcscmp(fd.cFileName, L"..") &&
		    wcscmp(fd.cFileName, L".git") &&
		    wcscmp(fd.cFileName, L".fakehead") &&
		    wcscmp(fd.cFileName, L"README")) {
			char *n = utf8(fd.cFileName);

			say(out, "?? ");
			put(out, n, strlen(n) + 1);
			free(n);
		}
		if (!FindNextFileW(h, &fd)) {
			FindClose(h);
			break;
		}
	}
	cwd_file(L"README", rd);
	readme = slurp(rd, NULL);
	if (readme == NULL || strcmp(readme, "pr") != 0)
		put(out, " M README", 10);
	free(readme);
	return 0;
}

/* The options every call of the verb starts with, taken off: argv[*i]
 * is the first word of the command.  0, or -1 when --git-dir or
 * --work-tree is missing (git would have discovered them). */
static int
git_globals(int argc, wchar_t **argv, int *i)
{
	int gd = 0, wt = 0;

	for (*i = 1; *i < argc; (*i)++) {
		if (wcscmp(argv[*i], L"--no-pager") == 0)
			continue;
		if (wcscmp(argv[*i], L"-c") == 0 && *i + 1 < argc) {
			(*i)++;
			continue;
		}
		if (wcsncmp(argv[*i], L"--git-dir=", 10) == 0) {
			gd = 1;
			continue;
		}
		if (wcsncmp(argv[*i], L"--work-tree=", 12) == 0) {
			wt = 1;
			continue;
		}
		break;
	}
	return gd && wt ? 0 : -1;
}

static int
git(int argc0, wchar_t **argv0, HANDLE out, HANDLE err)
{
	wchar_t f[MAX_PATH], **argv;
	char *s;
	int i, argc;

	if (git_globals(argc0, argv0, &i) != 0) {
		say(err, "fake git: a call without --git-dir and --work-tree\n");
		return 2;
	}
	argv = argv0 + i - 1;
	argc = argc0 - i + 1;
	if (is(argc, argv, 4, L"rev-parse", L"--is-inside-work-tree",
	       L"--path-format=absolute", L"--git-common-dir")) {
		cwd_file(L".git", f);
		if (!exists(f)) {
			say(err, "fatal: not a git repository\n");
			return 128;
		}
		s = cwd_slash();
		say(out, "true\n");
		say(out, s);
		say(out, "/.git\n");
		free(s);
		return 0;
	}
	if (is(argc, argv, 5, L"config", L"-z", L"--name-only", L"--get-regexp",
	       L"^filter\\."))
		return 1;
	if (is(argc, argv, 4, L"config", L"-z", L"--get-all",
	       L"remote.origin.url")) {
		cwd_file(L".git\\origin", f);
		if ((s = slurp(f, NULL)) == NULL)
			return 1;
		put(out, s, strlen(s) + 1);
		free(s);
		return 0;
	}
	if (is(argc, argv, 4, L"worktree", L"list", L"--porcelain", L"-z"))
		return git_list(out);
	if (is(argc, argv, 7, L"fetch", L"--quiet", L"--no-tags",
	       L"--no-write-fetch-head", L"origin", L"--", NULL)) {
		cwd_file(L".git\\fetch.hang", f);
		if (exists(f))
			Sleep(INFINITE);
		return 0;
	}
	if (is(argc, argv, 8, L"worktree", L"add", L"--quiet", L"--no-checkout",
	       L"--detach", L"--", NULL, NULL))
		return git_add(argv[7], argv[8], err);
	if (is(argc, argv, 3, L"reset", L"--hard", L"--quiet"))
		return 0; /* the fake add wrote the files already */
	if (is(argc, argv, 3, L"ls-files", L"--stage", L"-z"))
		return 0; /* no submodule */
	if (is(argc, argv, 3, L"rev-parse", L"--verify", L"HEAD")) {
		cwd_file(L".fakehead", f);
		if ((s = slurp(f, NULL)) == NULL)
			return 128;
		say(out, s);
		say(out, "\n");
		free(s);
		return 0;
	}
	if (is(argc, argv, 6, L"status", L"--porcelain", L"-z",
	       L"--untracked-files=all", L"--ignored", L"--ignore-submodules=all"))
		return git_status(out);
	if (is(argc, argv, 5, L"worktree", L"remove", L"--force", L"--", NULL))
		return git_forget(argv[5]);
	say(err, "fake git: unknown call\n");
	return 2;
}

/* ---- gh and go ---------------------------------------------------------- */

static int
gh(int argc, wchar_t **argv, HANDLE out, HANDLE err)
{
	wchar_t name[64], f[MAX_PATH];
	char *s;

	if (argc < 4 || wcscmp(argv[1], L"pr") || wcscmp(argv[2], L"view")) {
		say(err, "fake gh: only pr view\n");
		return 2;
	}
	_snwprintf(name, 64, L"pr-%ls.json", argv[3]);
	name[63] = 0;
	beside(name, f);
	if ((s = slurp(f, NULL)) == NULL) {
		say(err, "GraphQL: Could not resolve to a PullRequest with "
			 "the number of that.\n");
		return 1;
	}
	say(out, s);
	free(s);
	return 0;
}

static int
go(int argc, wchar_t **argv, HANDLE out, HANDLE err)
{
	wchar_t f[MAX_PATH];
	char *s;

	if (!is(argc, argv, 3, L"env", L"GOROOT", L"GOMODCACHE")) {
		say(err, "fake go: only go env GOROOT GOMODCACHE\n");
		return 2;
	}
	beside(L"go.hang", f);
	if (exists(f)) {
		beside(L"go.grandchild", f);
		return tree(f);
	}
	beside(L"go.answer", f);
	if ((s = slurp(f, NULL)) == NULL)
		return 1;
	say(out, s);
	free(s);
	return 0;
}

/* ---- the runner's child ------------------------------------------------ */

static int
child(int argc, wchar_t **argv, HANDLE out, HANDLE err)
{
	const wchar_t *m = argc > 1 ? argv[1] : L"";
	wchar_t cwd[MAX_PATH];

	if (wcscmp(m, L"args") == 0) {
		for (int i = 2; i < argc; i++) {
			char *a = utf8(argv[i]);

			put(out, a, strlen(a) + 1);
			free(a);
		}
		return 0;
	}
	if (wcscmp(m, L"env") == 0) {
		wchar_t *blk = GetEnvironmentStringsW();

		for (wchar_t *e = blk; e != NULL && *e; e += wcslen(e) + 1) {
			char *s = utf8(e);

			say(out, s);
			say(out, "\n");
			free(s);
		}
		FreeEnvironmentStringsW(blk);
		return 0;
	}
	if (wcscmp(m, L"cwd") == 0) {
		char *c;

		if (GetCurrentDirectoryW(MAX_PATH, cwd) == 0)
			return 2;
		c = utf8(cwd);
		say(out, c);
		free(c);
		return 0;
	}
	if ((wcscmp(m, L"out") == 0 || wcscmp(m, L"both") == 0) && argc > 2) {
		static char block[65536];
		long n = wcstol(argv[2], NULL, 10);

		memset(block, 'x', sizeof(block));
		/* both: stderr filled first, while nobody reads stdout yet */
		for (long k = n; wcscmp(m, L"both") == 0 && k > 0;
		     k -= (long)sizeof(block))
			put(err, block, k < (long)sizeof(block) ?
						(size_t)k : sizeof(block));
		for (long k = n; k > 0; k -= (long)sizeof(block))
			put(out, block, k < (long)sizeof(block) ?
						(size_t)k : sizeof(block));
		say(err, "done");
		return 0;
	}
	if (wcscmp(m, L"exit") == 0 && argc > 2)
		return _wtoi(argv[2]);
	if (wcscmp(m, L"status") == 0 && argc > 2)
		ExitProcess((UINT)wcstoul(argv[2], NULL, 16));
	if (wcscmp(m, L"tree") == 0 && argc > 2)
		return tree(argv[2]);
	if (wcscmp(m, L"sleep") == 0 && argc > 2) {
		Sleep((DWORD)_wtoi(argv[2]));
		return 0;
	}
	return 64;
}

int wmain(int argc, wchar_t **argv); /* -municode's entry */

int
wmain(int argc, wchar_t **argv)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE),
	       err = GetStdHandle(STD_ERROR_HANDLE);
	wchar_t *base, *dot;
	char *who;

	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
	if (GetModuleFileNameW(NULL, self, MAX_PATH) == 0)
		return 70;
	wcscpy(dir, self);
	base = wcsrchr(dir, L'\\');
	if (base == NULL)
		return 70;
	*base++ = 0;
	base = _wcsdup(base);
	if ((dot = wcsrchr(base, L'.')) != NULL)
		*dot = 0;
	_wcslwr(base);
	who = utf8(base);
	if (argc > 1 && wcscmp(argv[1], L"sleep") == 0 && argc > 2 &&
	    strcmp(who, "go") == 0) {
		Sleep((DWORD)_wtoi(argv[2])); /* the hanging go's grandchild */
		return 0;
	}
	if (strcmp(who, "git") == 0 || strcmp(who, "gh") == 0 ||
	    strcmp(who, "go") == 0)
		log_call(who, argc, argv);
	if (strcmp(who, "git") == 0)
		return git(argc, argv, out, err);
	if (strcmp(who, "gh") == 0)
		return gh(argc, argv, out, err);
	if (strcmp(who, "go") == 0)
		return go(argc, argv, out, err);
	return child(argc, argv, out, err);
}
