/* SPDX-License-Identifier: MIT */
/* jo_child.c -- the command the Windows suite runs inside jobobject.dll's
 * job (tests/windows/wintest.c).  One mode per run:
 *   exit <n>               exit with n (decimal)
 *   status <hex>           ExitProcess with a raw code (an NTSTATUS)
 *   crash                  an access violation, unhandled
 *   sleep <ms>             sleep, then exit 0
 *   args                   print each argument after "args" on stdout,
 *                          UTF-8, each followed by a NUL byte
 *   injob                  exit 0 when this process is in a job, else 1
 *   tree <pidfile> [stay]  start "sleep 60000" (a grandchild), write its
 *                          pid to pidfile, exit 0 (or sleep with stay)
 *   many <n>               start n sleeping children, then sleep
 *   hold <file>            create file, keep it open unshared, sleep
 *   write <file>           create file with "x", exit 0 (1 if refused)
 *   alloc <mib>            commit and touch mib MiB, exit 0 (3 if refused)
 *   alive <pidfile>        exit 0 when the process whose pid pidfile holds
 *                          runs, 1 when it does not, 2 no pid there
 *   env <name>...          print the value of each variable on stdout,
 *                          UTF-8, each followed by a NUL byte (exit 3
 *                          when one is not set)
 *   envsorted              exit 0 when its environment block is sorted
 *                          as Windows wants (by name, CompareStringOrdinal
 *                          ignoring case, strictly increasing), else print
 *                          the first two names out of order and exit 1
 *   lone <exe> <word>...   run exe with the words as its arguments, each
 *                          "@S" in a word an unpaired surrogate (U+D800),
 *                          with NS_LONE=a<U+D800> added to the environment
 *                          when the first word is "+env" (then dropped);
 *                          stdout and stderr its own; exit with exe's code
 *   limits                 print the limits of its own job on stdout,
 *                          "cpu=<ControlFlags hex>:<CpuRate> mem=<LimitFlags
 *                          hex>:<JobMemoryLimit>" ("cpu=none" when the CPU
 *                          rate cannot be read); exit 0, 5 no job limits
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int
start_self(const wchar_t *args, DWORD *pid)
{
	wchar_t self[MAX_PATH], line[MAX_PATH * 2];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;

	if (GetModuleFileNameW(NULL, self, MAX_PATH) == 0)
		return -1;
	_snwprintf(line, MAX_PATH * 2, L"\"%ls\" %ls", self, args);
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

static int
write_file(const wchar_t *path, const char *text, int keep)
{
	HANDLE f = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			       FILE_ATTRIBUTE_NORMAL, NULL);
	DWORD n = 0;

	if (f == INVALID_HANDLE_VALUE)
		return 1;
	WriteFile(f, text, (DWORD)strlen(text), &n, NULL);
	if (keep)
		Sleep(INFINITE);
	CloseHandle(f);
	return 0;
}

/* Is the process whose pid the file holds running? */
static int
alive(const wchar_t *pidfile)
{
	FILE *f = _wfopen(pidfile, L"r");
	unsigned long pid = 0;
	HANDLE h;
	DWORD code = 0;
	int ok;

	if (f == NULL)
		return 2;
	ok = fscanf(f, "%lu", &pid) == 1 && pid != 0;
	fclose(f);
	if (!ok)
		return 2;
	h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
	if (h == NULL)
		return 1;
	ok = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
	CloseHandle(h);
	return ok ? 0 : 1;
}

/* The job's own limits, asked from inside it (a NULL job handle is the
 * caller's job). */
static int
limits(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION l;
	JOBOBJECT_CPU_RATE_CONTROL_INFORMATION c;
	char text[128];
	DWORD n = 0;
	int k;

	memset(&l, 0, sizeof(l));
	memset(&c, 0, sizeof(c));
	if (!QueryInformationJobObject(NULL, JobObjectExtendedLimitInformation,
				       &l, sizeof(l), &n))
		return 5;
	if (QueryInformationJobObject(NULL, JobObjectCpuRateControlInformation,
				      &c, sizeof(c), &n))
		k = snprintf(text, sizeof(text), "cpu=%lx:%lu ",
			     (unsigned long)c.ControlFlags,
			     (unsigned long)c.CpuRate);
	else
		k = snprintf(text, sizeof(text), "cpu=none ");
	snprintf(text + k, sizeof(text) - (size_t)k, "mem=%lx:%llu\n",
		 (unsigned long)l.BasicLimitInformation.LimitFlags,
		 (unsigned long long)l.JobMemoryLimit);
	fputs(text, stdout);
	return 0;
}

/* s as UTF-8 on stdout, then a NUL */
static int
put_utf8(const wchar_t *s)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
	char buf[4096];
	int n = WideCharToMultiByte(CP_UTF8, 0, s, -1, buf, sizeof(buf), NULL,
				    NULL);
	DWORD w = 0;

	return n > 0 && WriteFile(out, buf, (DWORD)n, &w, NULL) ? 0 : -1;
}

static int
print_env(int argc, wchar_t **argv)
{
	wchar_t v[4096];

	for (int i = 2; i < argc; i++) {
		DWORD n = GetEnvironmentVariableW(argv[i], v, 4096);

		if (n == 0 || n >= 4096)
			return 3;
		if (put_utf8(v) != 0)
			return 2;
	}
	return 0;
}

static int
name_len(const wchar_t *e)
{
	const wchar_t *eq = wcschr(e + 1, L'=');

	return eq != NULL ? (int)(eq - e) : (int)wcslen(e);
}

/* What Wine's own process start adds to every process's block (its WINE*
 * variables and, when missing, SystemDrive and SystemRoot, at the end):
 * not the block
 * CreateProcessW was given.  Nothing on Windows. */
static int
wine_added(const wchar_t *e)
{
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");

	if (nt == NULL || GetProcAddress(nt, "wine_get_version") == NULL)
		return 0;
	return wcsncmp(e, L"WINE", 4) == 0 ||
	       wcsncmp(e, L"SystemDrive=", 12) == 0 ||
	       wcsncmp(e, L"SystemRoot=", 11) == 0;
}

/* the block as CreateProcessW gave it: each name after the one before */
static int
env_sorted(void)
{
	wchar_t *blk = GetEnvironmentStringsW(), *prev = NULL;
	char a[512], b[512];
	int na, nb;

	if (blk == NULL)
		return 2;
	for (wchar_t *e = blk; *e != L'\0'; e += wcslen(e) + 1) {
		if (wine_added(e))
			continue;
		if (prev != NULL &&
		    CompareStringOrdinal(prev, name_len(prev), e, name_len(e),
					 TRUE) != CSTR_LESS_THAN) {
			na = WideCharToMultiByte(CP_UTF8, 0, prev,
						 name_len(prev), a,
						 sizeof(a) - 1, NULL, NULL);
			nb = WideCharToMultiByte(CP_UTF8, 0, e, name_len(e), b,
						 sizeof(b) - 1, NULL, NULL);
			a[na > 0 ? na : 0] = '\0';
			b[nb > 0 ? nb : 0] = '\0';
			printf("out of order: %s before %s\n", a, b);
			FreeEnvironmentStringsW(blk);
			return 1;
		}
		prev = e;
	}
	FreeEnvironmentStringsW(blk);
	return 0;
}

/* one word of a command line, quoted as the C runtime parses it back
 * (the test's words hold no '"' and no backslash before a space) */
static void
add_word(wchar_t *line, size_t cap, const wchar_t *w)
{
	size_t at = wcslen(line);

	_snwprintf(line + at, cap - at, L"%ls\"%ls\"", at ? L" " : L"", w);
	for (wchar_t *p = line + at; *p != L'\0'; p++)
		if (p[0] == L'@' && p[1] == L'S') {
			p[0] = 0xD800;
			memmove(p + 1, p + 2, (wcslen(p + 2) + 1) * sizeof(wchar_t));
		}
}

/* run exe with the words, each "@S" an unpaired surrogate: what a shell
 * cannot pass and a Windows parent can */
static int
lone(int argc, wchar_t **argv)
{
	static wchar_t line[8192];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	DWORD code = 99;
	int i = 3;

	if (argc > 3 && wcscmp(argv[3], L"+env") == 0) {
		static const wchar_t v[] = { L'a', 0xD800, 0 };

		if (!SetEnvironmentVariableW(L"NS_LONE", v))
			return 98;
		i = 4;
	}
	add_word(line, 8192, argv[2]);
	for (; i < argc; i++)
		add_word(line, 8192, argv[i]);
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	if (!CreateProcessW(argv[2], line, NULL, NULL, TRUE, 0, NULL, NULL, &si,
			    &pi))
		return 97;
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hThread);
	CloseHandle(pi.hProcess);
	return (int)code;
}

int wmain(int argc, wchar_t **argv); /* -municode's entry */

int
wmain(int argc, wchar_t **argv)
{
	const wchar_t *m = argc > 1 ? argv[1] : L"";
	DWORD pid = 0;

	if (wcscmp(m, L"exit") == 0 && argc > 2)
		return _wtoi(argv[2]);
	if (wcscmp(m, L"status") == 0 && argc > 2)
		ExitProcess((UINT)wcstoul(argv[2], NULL, 16));
	if (wcscmp(m, L"crash") == 0) {
		volatile int *p = NULL;

		*p = 1;
		return 0;
	}
	if (wcscmp(m, L"sleep") == 0 && argc > 2) {
		Sleep((DWORD)_wtoi(argv[2]));
		return 0;
	}
	if (wcscmp(m, L"args") == 0) {
		HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);

		for (int i = 2; i < argc; i++) {
			char buf[4096];
			int n = WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, buf,
						    sizeof(buf), NULL, NULL);
			DWORD w = 0;

			if (n <= 0 || !WriteFile(out, buf, (DWORD)n, &w, NULL))
				return 2;
		}
		return 0;
	}
	if (wcscmp(m, L"env") == 0)
		return print_env(argc, argv);
	if (wcscmp(m, L"envsorted") == 0)
		return env_sorted();
	if (wcscmp(m, L"lone") == 0 && argc > 2)
		return lone(argc, argv);
	if (wcscmp(m, L"injob") == 0) {
		BOOL in = FALSE;

		return IsProcessInJob(GetCurrentProcess(), NULL, &in) && in ? 0
									   : 1;
	}
	if (wcscmp(m, L"tree") == 0 && argc > 2) {
		char text[32];

		if (start_self(L"sleep 60000", &pid) != 0)
			return 2;
		snprintf(text, sizeof(text), "%lu", (unsigned long)pid);
		if (write_file(argv[2], text, 0) != 0)
			return 3;
		if (argc > 3)
			Sleep(INFINITE);
		return 0;
	}
	if (wcscmp(m, L"many") == 0 && argc > 2) {
		for (int i = 0; i < _wtoi(argv[2]); i++)
			if (start_self(L"sleep 60000", &pid) != 0)
				return 4; /* refused: the job's limit */
		Sleep(INFINITE);
	}
	if (wcscmp(m, L"alive") == 0 && argc > 2)
		return alive(argv[2]);
	if (wcscmp(m, L"limits") == 0)
		return limits();
	if (wcscmp(m, L"hold") == 0 && argc > 2)
		return write_file(argv[2], "held", 1);
	if (wcscmp(m, L"write") == 0 && argc > 2)
		return write_file(argv[2], "x", 0);
	if (wcscmp(m, L"alloc") == 0 && argc > 2) {
		SIZE_T n = (SIZE_T)_wtoi(argv[2]) << 20;
		char *p = VirtualAlloc(NULL, n, MEM_COMMIT | MEM_RESERVE,
				       PAGE_READWRITE);

		if (p == NULL)
			return 3;
		for (SIZE_T i = 0; i < n; i += 4096)
			p[i] = 1;
		return 0;
	}
	return 64;
}
