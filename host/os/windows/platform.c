/* SPDX-License-Identifier: MIT */
/* platform.c -- Windows: which platform and machine, the user's profile
 * directory, no set-id, and the console's stop events as signals. */
#include "os/os.h"

#include <windows.h>
#include <signal.h>
#include <stdlib.h>

#include "os/windows/wpath.h"

#if defined(__x86_64__) || defined(_M_AMD64)
#define NS_ARCH "amd64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define NS_ARCH "arm64"
#else
#define NS_ARCH "unknown"
#endif

const char *
os_platform(void)
{
	return "windows";
}

const char *
os_arch(void)
{
	return NS_ARCH;
}

/* Windows has no set-id binaries: the environment of a process is its
 * caller's, never a more privileged one's. */
int
os_is_setid(void)
{
	return 0;
}

/* No nsswitch on Windows: never "files first". */
int
os_nss_files_first(const char *conf, const char *db)
{
	(void)conf;
	(void)db;
	return 0;
}

/* The profile directory of the user this process runs as (uid is a
 * POSIX notion the Windows layer ignores: there is one user, the token's),
 * from the token, not from USERPROFILE (the environment may lie). */
const char *
os_user_home(unsigned uid)
{
	static char *home;
	static int done;
	HANDLE tok = NULL;
	wchar_t w[MAX_PATH];
	DWORD n = MAX_PATH;
	HMODULE ue;
	BOOL(WINAPI * get)(HANDLE, LPWSTR, LPDWORD) = NULL;
	FARPROC p;

	(void)uid;
	if (done)
		return home;
	done = 1;
	ue = LoadLibraryExW(L"userenv.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
	p = ue ? GetProcAddress(ue, "GetUserProfileDirectoryW") : NULL;
	memcpy(&get, &p, sizeof(p));
	if (get != NULL && OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY,
					    &tok)) {
		if (get(tok, w, &n))
			home = wp_utf8(w);
		CloseHandle(tok);
	}
	return home;
}

static void (*stop_fn)(int);

/* Runs on a thread of its own (the console's); fn only records. */
static BOOL WINAPI
on_ctrl(DWORD ev)
{
	int sig = ev == CTRL_C_EVENT ? SIGINT :
		  ev == CTRL_BREAK_EVENT ? SIGBREAK :
		  ev == CTRL_CLOSE_EVENT ? SIGTERM : SIGTERM;

	if (stop_fn == NULL)
		return FALSE;
	stop_fn(sig);
	return TRUE;
}

void
os_signals_start(void)
{
	/* no SIGCHLD: the wall's wait is the process model */
}

const char *
os_stop_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGBREAK ? "SIGBREAK" :
	    sig == SIGTERM ? "SIGTERM" : "a stop signal";
}

void
os_catch_stop_signals(void (*fn)(int))
{
	stop_fn = fn;
	SetConsoleCtrlHandler(on_ctrl, TRUE);
}

const struct os_as_user_word *
os_as_user(void)
{
	return NULL; /* os_euid() is never 0 here */
}
