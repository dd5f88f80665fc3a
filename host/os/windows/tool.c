/* SPDX-License-Identifier: MIT */
/* tool.c -- os/tool.h on Windows: an external program (git, gh, a
 * toolchain's tool) found on PATH and held open from tool_find to
 * tool_free with no write or delete sharing, so that while it is kept it
 * can neither be written, replaced nor renamed (nor can a directory above
 * it be renamed): the Windows counterpart of running by descriptor.  Each
 * run is CreateProcessW with the handle's final path as the application
 * name (never a search), a command line quoted for the C runtime's parse
 * (argv[0] holding '"' and any batch file refused: a .bat/.cmd is run by
 * cmd.exe, whose parsing no quoting carries), an environment block built
 * from envp alone (UTF-16, sorted by name as Windows wants), stdin NUL,
 * stdout and stderr on pipes read by two threads (no deadlock, whatever
 * the program writes first), no console to prompt on (CREATE_NO_WINDOW),
 * and the process in a job object of its own (kill-on-close, no
 * breakaway) from before its first instruction (CREATE_SUSPENDED, assign,
 * resume): at the deadline TerminateJobObject ends the whole tree, the
 * counterpart of killing the process group, and when the program has
 * ended the job's close ends whatever it left behind.  The working
 * directory is the directory the caller's descriptor names (os_fd_name:
 * the final path of a handle that cannot be renamed while open).  The
 * exit code reads as the wrap's table reads it (docs/SPEC-SANDBOX.md
 * "Windows"): 0-255 itself, a crash status as 128 + the POSIX signal of
 * the same crash, a status saying the program could not start 125, the
 * deadline's kill 137, any other its low byte. */
#include "os/tool.h"
#include "os/os.h"

#include <windows.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/windows/wpath.h"

/* The longest command line CreateProcessW takes, UTF-16 units with the
 * NUL. */
#define TOOL_CMDLINE_MAX 32767u
/* The code TerminateJobObject gives the tree at the deadline: the
 * facility jobobject.dll's kills use (0x6E53, "NS"), reason 2, the
 * timeout; no program's exit() and no Windows status uses it.  Read as
 * SIGKILL's 137, as the POSIX runner's killed group reads. */
#define TOOL_KILL_BASE 0x6E530000u
#define TOOL_KILL_CODE (TOOL_KILL_BASE | 2u)
/* How long the readers may take once the tree is dead (a handle to a pipe
 * duplicated out of the job is the only way they can still block). */
#define TOOL_DRAIN_MS 5000u

/* ---- finding ------------------------------------------------------------ */

static int
is_batch(const char *p)
{
	size_t n = strlen(p);

	return n >= 4 && (_stricmp(p + n - 4, ".bat") == 0 ||
			  _stricmp(p + n - 4, ".cmd") == 0);
}

/* Is the file open on h a Windows program (a PE image marked executable,
 * not a DLL)?  Read from offset 0 without moving anything that matters. */
static int
pe_program(HANDLE h)
{
	unsigned char b[4096];
	OVERLAPPED at;
	DWORD n = 0;
	uint32_t pe;
	unsigned ch;

	memset(&at, 0, sizeof(at));
	if (!ReadFile(h, b, sizeof(b), &n, &at) || n < 0x40 || b[0] != 'M' ||
	    b[1] != 'Z')
		return 0;
	pe = (uint32_t)b[0x3c] | (uint32_t)b[0x3d] << 8 |
	     (uint32_t)b[0x3e] << 16 | (uint32_t)b[0x3f] << 24;
	if (pe > n || n - pe < 24 || memcmp(b + pe, "PE\0\0", 4) != 0)
		return 0;
	ch = (unsigned)b[pe + 22] | (unsigned)b[pe + 23] << 8;
	return (ch & 0x0002u) && !(ch & 0x2000u); /* EXECUTABLE, not DLL */
}

/* cand, if it is a program (or a batch file): kept in t.  0 kept, 1 not
 * one, -1 out of memory. */
static int
try_file(const char *cand, struct tool *t)
{
	wchar_t *w = wp_wide(cand);
	BY_HANDLE_FILE_INFORMATION bi;
	HANDLE h;
	int fd;

	if (w == NULL)
		return 1; /* not UTF-8, or longer than any path */
	/* no write or delete sharing: while kept, the file cannot be written,
	 * replaced or renamed, and no directory above it renamed */
	h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
			FILE_ATTRIBUTE_NORMAL, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return 1;
	if (!GetFileInformationByHandle(h, &bi) ||
	    (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ||
	    (!is_batch(cand) && !pe_program(h))) {
		CloseHandle(h);
		return 1;
	}
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		return -1;
	}
	t->path = strdup(cand);
	if (t->path == NULL) {
		close(fd);
		return -1;
	}
	t->fd = fd;
	return 0;
}

static int
try_dir(const char *dir, size_t dn, const char *name, struct tool *t)
{
	const char *const *sfx = os_exe_suffixes(name);
	int rc = 1;

	while (dn > 0 && (dir[dn - 1] == '/' || dir[dn - 1] == '\\'))
		dn--;
	for (; rc == 1 && *sfx != NULL; sfx++) {
		char *cand = str_fmt("%.*s/%s%s", (int)dn, dir, name, *sfx);

		if (cand == NULL)
			return -1;
		for (char *c = cand; *c; c++)
			if (*c == '\\')
				*c = '/';
		rc = try_file(cand, t);
		free(cand);
	}
	return rc;
}

int
tool_find(const char *name, const char *pathvar, struct tool *t)
{
	char sep = os_path_list_sep();
	const char *p = pathvar, *e;
	int rc;

	t->fd = -1;
	t->path = NULL;
	if (p == NULL || name[0] == '\0' || os_has_sep(name, strlen(name)))
		return 1;
	for (; *p; p = *e ? e + 1 : e) {
		char *entry;

		e = strchr(p, sep);
		if (e == NULL)
			e = p + strlen(p);
		entry = str_ndup(p, (size_t)(e - p));
		if (entry == NULL)
			return -1;
		/* relative, empty or quoted entries are skipped */
		rc = os_is_absolute(entry) ?
			     try_dir(entry, strlen(entry), name, t) : 1;
		free(entry);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

void
tool_free(struct tool *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->path);
	t->path = NULL;
}

/* ---- the command line and the environment ----------------------------- */

/* UTF-8 to UTF-16 as it is (no separator changed); heap or NULL. */
static wchar_t *
wide(const char *s, size_t *units)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL,
				    0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	w = malloc((size_t)n * sizeof(wchar_t));
	if (w == NULL || MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s,
					     -1, w, n) != n) {
		free(w);
		return NULL;
	}
	if (units != NULL)
		*units = (size_t)n - 1;
	return w;
}

static int
needs_quotes(const char *a)
{
	return a[0] == '\0' || strpbrk(a, " \t\n\v\"") != NULL;
}

static void
put_n(struct sbuf *b, char c, size_t n)
{
	while (n-- > 0)
		sbuf_addn(b, &c, 1);
}

/* One argument as the Microsoft C runtime (and CommandLineToArgvW) parses
 * it back exactly: 2n backslashes before a '"' are n and the quote ends
 * or starts a run, 2n+1 are n and a literal '"'; backslashes anywhere
 * else are literal. */
static void
quote_arg(struct sbuf *b, const char *a)
{
	if (!needs_quotes(a)) {
		sbuf_add(b, a);
		return;
	}
	sbuf_add(b, "\"");
	for (;;) {
		size_t bs = 0;

		while (*a == '\\') {
			a++;
			bs++;
		}
		if (*a == '\0') {
			put_n(b, '\\', bs * 2); /* before the closing quote */
			break;
		}
		if (*a == '"') {
			put_n(b, '\\', bs * 2 + 1);
			sbuf_add(b, "\"");
		} else {
			put_n(b, '\\', bs);
			sbuf_addn(b, a, 1);
		}
		a++;
	}
	sbuf_add(b, "\"");
}

/* The command line, UTF-16; NULL with errno (EINVAL: argv[0] holds '"',
 * which the program-name rule cannot carry; E2BIG: too long). */
static wchar_t *
command_line(char *const argv[])
{
	struct sbuf b = {0};
	size_t units = 0;
	wchar_t *w;

	if (argv == NULL || argv[0] == NULL || strchr(argv[0], '"') != NULL) {
		errno = EINVAL;
		return NULL;
	}
	/* argv[0]: quotes delimit, backslashes are literal */
	sbuf_addf(&b, "\"%s\"", argv[0]);
	for (size_t i = 1; argv[i] != NULL; i++) {
		sbuf_add(&b, " ");
		quote_arg(&b, argv[i]);
	}
	if (sbuf_failed(&b)) {
		errno = ENOMEM;
		return NULL;
	}
	w = wide(b.s, &units);
	sbuf_free(&b);
	if (w == NULL) {
		errno = EINVAL; /* not UTF-8 */
		return NULL;
	}
	if (units + 1 > TOOL_CMDLINE_MAX) {
		free(w);
		errno = E2BIG;
		return NULL;
	}
	return w;
}

static size_t
name_len(const wchar_t *e)
{
	const wchar_t *eq = wcschr(e + 1, L'=');

	return eq != NULL ? (size_t)(eq - e) : wcslen(e);
}

/* Windows wants the block sorted by name, case-insensitively, in
 * ordinal (not locale) order. */
static int
env_cmp(const void *a, const void *b)
{
	const wchar_t *x = *(const wchar_t *const *)a,
		      *y = *(const wchar_t *const *)b;
	int r = CompareStringOrdinal(x, (int)name_len(x), y, (int)name_len(y),
				     TRUE);

	return r == CSTR_LESS_THAN ? -1 : r == CSTR_GREATER_THAN ? 1 : 0;
}

/* The environment block of exactly envp: NULL with errno (EINVAL: an
 * entry that is not NAME=value with a name, not UTF-8, or a name twice). */
static wchar_t *
env_block(char *const envp[])
{
	size_t n = 0, total = 1, at = 0;
	wchar_t **v, *blk = NULL;
	int e = 0;

	while (envp != NULL && envp[n] != NULL)
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; e == 0 && i < n; i++) {
		size_t u = 0;
		const char *eq = strchr(envp[i], '=');

		if (eq == NULL || eq == envp[i])
			e = EINVAL;
		else if ((v[i] = wide(envp[i], &u)) == NULL)
			e = EINVAL;
		total += u + 1;
	}
	if (e == 0 && n > 1) {
		qsort(v, n, sizeof(*v), env_cmp);
		for (size_t i = 1; e == 0 && i < n; i++)
			if (env_cmp(&v[i - 1], &v[i]) == 0)
				e = EINVAL;
	}
	if (e == 0 && (blk = calloc(total + 1, sizeof(wchar_t))) == NULL)
		e = ENOMEM;
	for (size_t i = 0; e == 0 && i < n; i++) {
		size_t k = wcslen(v[i]) + 1;

		memcpy(blk + at, v[i], k * sizeof(wchar_t));
		at += k;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	if (e != 0) {
		errno = e;
		return NULL;
	}
	blk[at] = L'\0';
	if (n == 0)
		blk[1] = L'\0'; /* an empty block is two NULs */
	return blk;
}

/* ---- how it ended ------------------------------------------------------- */

/* The wrap's table (docs/SPEC-SANDBOX.md "Windows"): the POSIX signal of
 * the same crash, or 0 for a status saying the program could not start. */
static const struct {
	DWORD status;
	int sig;
} tool_status_map[] = {
	{ 0xC0000005u, 11 }, /* access violation */
	{ 0xC00000FDu, 11 }, /* stack overflow */
	{ 0xC0000006u, 7 },  /* in-page error: SIGBUS */
	{ 0xC000001Du, 4 },  /* illegal instruction */
	{ 0xC0000096u, 4 },  /* privileged instruction */
	{ 0xC0000094u, 8 },  /* integer divide by zero */
	{ 0xC0000095u, 8 },  /* integer overflow */
	{ 0xC000008Eu, 8 },  /* float divide by zero */
	{ 0xC0000090u, 8 },  /* float invalid operation */
	{ 0xC0000091u, 8 },  /* float overflow */
	{ 0xC0000409u, 6 },  /* fail-fast (abort) */
	{ 0x80000003u, 5 },  /* breakpoint: SIGTRAP */
	{ 0xC000013Au, 2 },  /* Ctrl-C */
	{ 0xC0000017u, 9 },  /* no memory */
	{ 0xC000012Du, 9 },  /* commitment limit */
	{ 0xC0000135u, 0 },  /* a DLL not found */
	{ 0xC0000139u, 0 },  /* an entry point not found */
	{ 0xC0000142u, 0 },  /* a DLL's init failed */
	{ 0xC000007Bu, 0 },  /* an image of the wrong format */
	{ 0xC0000022u, 0 },  /* access denied at load */
};

static int
exit_status(DWORD code)
{
	if (code <= 255)
		return (int)code;
	if ((code & 0xffffff00u) == TOOL_KILL_BASE)
		return 128 + ((code & 0xffu) == 1 ? 15 : 9);
	for (size_t i = 0; i < sizeof(tool_status_map) /
				       sizeof(tool_status_map[0]); i++)
		if (tool_status_map[i].status == code)
			return tool_status_map[i].sig ?
				       128 + tool_status_map[i].sig : 125;
	return (int)(code & 0xffu);
}

/* ---- running ------------------------------------------------------------ */

/* One pipe drained by a thread of its own into its buffer, at most max
 * bytes kept, the rest read and dropped (the program is never blocked on a
 * full pipe). */
struct reader {
	HANDLE pipe, thread;
	struct sbuf *b;
	size_t max;
	int truncated;
};

static DWORD WINAPI
reader_main(LPVOID arg)
{
	struct reader *r = arg;
	char buf[8192];
	DWORD n;

	while (ReadFile(r->pipe, buf, sizeof(buf), &n, NULL) && n > 0) {
		size_t keep = n;

		if (r->b->len + keep > r->max) {
			r->truncated = 1;
			keep = r->b->len < r->max ? r->max - r->b->len : 0;
		}
		if (keep > 0)
			sbuf_addn(r->b, buf, keep);
	}
	return 0;
}

static int
errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
		return EACCES;
	case ERROR_BAD_EXE_FORMAT:
	case ERROR_EXE_MACHINE_TYPE_MISMATCH:
		return ENOEXEC;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	default:
		return EIO;
	}
}

/* The handles one run owns. */
struct run {
	HANDLE job, nul, out_r, out_w, err_r, err_w;
	PROCESS_INFORMATION pi;
	wchar_t *app, *line, *env, *cwd;
	LPPROC_THREAD_ATTRIBUTE_LIST attrs;
};

static void
close_h(HANDLE *h)
{
	if (*h != NULL && *h != INVALID_HANDLE_VALUE)
		CloseHandle(*h);
	*h = NULL;
}

static void
run_free(struct run *r)
{
	close_h(&r->nul);
	close_h(&r->out_r);
	close_h(&r->out_w);
	close_h(&r->err_r);
	close_h(&r->err_w);
	close_h(&r->pi.hThread);
	close_h(&r->pi.hProcess);
	close_h(&r->job); /* kill-on-close: what the program left ends */
	if (r->attrs != NULL) {
		DeleteProcThreadAttributeList(r->attrs);
		free(r->attrs);
	}
	free(r->app);
	free(r->line);
	free(r->env);
	free(r->cwd);
}

/* The application name: the final path of the kept handle, without the
 * "\\\\?\\" prefix where the path is short enough not to need it. */
static wchar_t *
app_name(int fd)
{
	intptr_t h = _get_osfhandle(fd);
	wchar_t *f, *w;
	char *u;

	if (h == (intptr_t)INVALID_HANDLE_VALUE ||
	    (f = wp_final((HANDLE)h)) == NULL)
		return NULL;
	if (wcslen(f) >= MAX_PATH)
		return f;
	u = wp_utf8(f);
	free(f);
	w = u != NULL ? wp_wide(u) : NULL;
	free(u);
	return w;
}

static int
make_job(struct run *r)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim;

	memset(&lim, 0, sizeof(lim));
	lim.BasicLimitInformation.LimitFlags =
		JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
		JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
	r->job = CreateJobObjectW(NULL, NULL); /* anonymous, not inherited */
	return r->job != NULL &&
	       SetInformationJobObject(r->job,
				       JobObjectExtendedLimitInformation, &lim,
				       sizeof(lim)) ? 0 : -1;
}

/* The pipes and NUL, inheritable (only they: the attribute list's
 * HANDLE_LIST lets nothing else of ours into the program). */
static int
make_stdio(struct run *r)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	HANDLE list[3];
	SIZE_T sz = 0;

	if (!CreatePipe(&r->out_r, &r->out_w, &sa, 0) ||
	    !CreatePipe(&r->err_r, &r->err_w, &sa, 0) ||
	    !SetHandleInformation(r->out_r, HANDLE_FLAG_INHERIT, 0) ||
	    !SetHandleInformation(r->err_r, HANDLE_FLAG_INHERIT, 0))
		return -1;
	r->nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ |
			     FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
	if (r->nul == INVALID_HANDLE_VALUE) {
		r->nul = NULL;
		return -1;
	}
	list[0] = r->nul;
	list[1] = r->out_w;
	list[2] = r->err_w;
	InitializeProcThreadAttributeList(NULL, 1, 0, &sz);
	r->attrs = malloc(sz);
	if (r->attrs == NULL ||
	    !InitializeProcThreadAttributeList(r->attrs, 1, 0, &sz)) {
		free(r->attrs);
		r->attrs = NULL;
		return -1;
	}
	return UpdateProcThreadAttribute(r->attrs, 0,
					 PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
					 list, sizeof(list), NULL, NULL) ? 0 :
									  -1;
}

/* Start the program suspended, put it in the job, let it run.  0, or -1
 * with errno. */
static int
start(struct run *r)
{
	STARTUPINFOEXW si;
	DWORD flags = CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT |
		      EXTENDED_STARTUPINFO_PRESENT | CREATE_NO_WINDOW;

	memset(&si, 0, sizeof(si));
	si.StartupInfo.cb = sizeof(si);
	si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
	si.StartupInfo.hStdInput = r->nul;
	si.StartupInfo.hStdOutput = r->out_w;
	si.StartupInfo.hStdError = r->err_w;
	si.lpAttributeList = r->attrs;
	if (!CreateProcessW(r->app, r->line, NULL, NULL, TRUE, flags, r->env,
			    r->cwd, &si.StartupInfo, &r->pi)) {
		memset(&r->pi, 0, sizeof(r->pi));
		errno = errno_of(GetLastError());
		return -1;
	}
	if (!AssignProcessToJobObject(r->job, r->pi.hProcess)) {
		TerminateProcess(r->pi.hProcess, TOOL_KILL_CODE);
		WaitForSingleObject(r->pi.hProcess, INFINITE);
		errno = EPERM;
		return -1;
	}
	if (ResumeThread(r->pi.hThread) == (DWORD)-1) {
		TerminateJobObject(r->job, TOOL_KILL_CODE);
		errno = EIO;
		return -1;
	}
	/* ours closed, so the pipes end when the tree's copies do */
	close_h(&r->out_w);
	close_h(&r->err_w);
	close_h(&r->nul);
	return 0;
}

static DWORD
left_ms(ULONGLONG deadline)
{
	ULONGLONG now = GetTickCount64();

	return now >= deadline ? 0 :
	       deadline - now > 0x7fffffffu ? 0x7fffffffu :
					      (DWORD)(deadline - now);
}

/* Wait for both pipes to close and the program to end, until the
 * deadline: 1 it passed (the tree is then ended), 0 not. */
static int
wait_tree(struct run *r, struct reader rd[2], ULONGLONG deadline)
{
	HANDLE th[2] = { rd[0].thread, rd[1].thread };
	int late = WaitForMultipleObjects(2, th, TRUE, left_ms(deadline)) ==
			   WAIT_TIMEOUT ||
		   WaitForSingleObject(r->pi.hProcess, left_ms(deadline)) ==
			   WAIT_TIMEOUT;

	if (late) {
		TerminateJobObject(r->job, TOOL_KILL_CODE);
		WaitForSingleObject(r->pi.hProcess, INFINITE);
	}
	if (WaitForMultipleObjects(2, th, TRUE, TOOL_DRAIN_MS) ==
	    WAIT_TIMEOUT) {
		/* a pipe's write end lives on outside the job */
		CancelSynchronousIo(th[0]);
		CancelSynchronousIo(th[1]);
		close_h(&r->out_r);
		close_h(&r->err_r);
		WaitForMultipleObjects(2, th, TRUE, INFINITE);
	}
	return late;
}

static int
prepare(struct run *r, const struct tool *t, int cwd_fd, char *const argv[],
	char *const envp[])
{
	char *cwd;

	if (t->fd < 0) {
		errno = ENOENT;
		return -1;
	}
	if (is_batch(t->path)) {
		errno = ENOEXEC; /* cmd.exe would parse its arguments */
		return -1;
	}
	if ((r->line = command_line(argv)) == NULL ||
	    (r->env = env_block(envp)) == NULL)
		return -1;
	if ((r->app = app_name(t->fd)) == NULL) {
		errno = EBADF;
		return -1;
	}
	if (cwd_fd >= 0) {
		cwd = os_fd_name(cwd_fd);
		r->cwd = cwd != NULL ? wp_wide(cwd) : NULL;
		free(cwd);
		if (r->cwd == NULL) {
			errno = EBADF;
			return -1;
		}
	}
	if (make_job(r) != 0 || make_stdio(r) != 0) {
		errno = errno_of(GetLastError());
		return -1;
	}
	return 0;
}

int
tool_run(const struct tool *t, int cwd_fd, char *const argv[],
	 char *const envp[], unsigned timeout_ms, struct toolres *res)
{
	struct run r;
	struct reader rd[2];
	DWORD code = 0;
	int e;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	res->status = -1;
	if (prepare(&r, t, cwd_fd, argv, envp) != 0 || start(&r) != 0) {
		e = errno;
		run_free(&r);
		errno = e;
		return -1;
	}
	rd[0] = (struct reader){ r.out_r, NULL, &res->out, TOOL_MAX_OUT, 0 };
	rd[1] = (struct reader){ r.err_r, NULL, &res->err, TOOL_MAX_ERR, 0 };
	for (int i = 0; i < 2; i++)
		rd[i].thread = CreateThread(NULL, 0, reader_main, &rd[i], 0,
					    NULL);
	if (rd[0].thread == NULL || rd[1].thread == NULL) {
		TerminateJobObject(r.job, TOOL_KILL_CODE);
		WaitForSingleObject(r.pi.hProcess, INFINITE);
		close_h(&r.out_r);
		close_h(&r.err_r);
		for (int i = 0; i < 2; i++)
			if (rd[i].thread != NULL) {
				WaitForSingleObject(rd[i].thread, INFINITE);
				CloseHandle(rd[i].thread);
			}
		run_free(&r);
		errno = EAGAIN;
		return -1;
	}
	res->timed_out = wait_tree(&r, rd, GetTickCount64() + timeout_ms);
	res->truncated = rd[0].truncated || rd[1].truncated;
	if (GetExitCodeProcess(r.pi.hProcess, &code) && code != STILL_ACTIVE)
		res->status = exit_status(code);
	CloseHandle(rd[0].thread);
	CloseHandle(rd[1].thread);
	run_free(&r);
	return 0;
}

void
toolres_free(struct toolres *res)
{
	sbuf_free(&res->out);
	sbuf_free(&res->err);
}
