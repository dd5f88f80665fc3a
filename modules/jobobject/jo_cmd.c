/* SPDX-License-Identifier: MIT */
/* jo_cmd.c -- the command and its environment for CreateProcess: a Windows
 * program (never run through WSL), its command line (jo_cmdline; a batch
 * file's arguments refused where cmd.exe would interpret them), and the
 * environment block of exactly the policy's, sorted as Windows wants it
 * (jo_win.h). */
#include "jo_win.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

/* The command must be a Windows program before CreateProcessW sees it
 * (jo_pe_check); the job check after creation stays the backstop. */
static int
pe_check(const struct ns_host *h, const char *path)
{
	unsigned char buf[4096];
	wchar_t *w = jo_wpath(path);
	DWORD n = 0;
	HANDLE f;
	BOOL ok;

	if (w == NULL)
		return jo_refuse(h, NS_E_REFUSED, "not_executable",
				 "%s is not a path Windows can name", path);
	f = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
			FILE_ATTRIBUTE_NORMAL, NULL);
	free(w);
	if (f == INVALID_HANDLE_VALUE)
		return jo_refuse(h, NS_E_REFUSED, "not_executable",
				 "%s cannot be read (error %lu)", path,
				 GetLastError());
	ok = ReadFile(f, buf, sizeof(buf), &n, NULL);
	CloseHandle(f);
	if (!ok || jo_pe_check(buf, n) != 0)
		return jo_refuse(h, NS_E_REFUSED, "not_executable",
				 "%s is not a Windows program; it is never run "
				 "through WSL or as a Unix program", path);
	return NS_OK;
}

int
jo_check_command(const struct ns_host *h, const struct ns_policy *pol,
		 wchar_t **cmdline)
{
	char sys[MAX_PATH] = "C:\\Windows", *line;
	wchar_t wsys[MAX_PATH];
	size_t bad = 0, cap = JO_CMDLINE_MAX * 3;
	int rc;

	if (GetSystemWindowsDirectoryW(wsys, MAX_PATH) > 0)
		nk_utf8(wsys, sys, sizeof(sys));
	if (jo_is_wsl(pol->command, sys))
		return jo_refuse(h, NS_E_REFUSED, "no_sandbox",
				 "%s runs Linux programs outside the job "
				 "(WSL); the wall never runs it: name a Windows "
				 "program", pol->command);
	if (!jo_is_batch(pol->command) && pe_check(h, pol->command) != NS_OK)
		return NS_E_REFUSED;
	line = malloc(cap);
	if (line == NULL)
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "out of memory");
	rc = jo_cmdline(pol->argv, jo_is_batch(pol->command), line, cap, &bad);
	if (rc == JO_CMD_OK) {
		*cmdline = malloc(JO_CMDLINE_MAX * sizeof(wchar_t));
		if (*cmdline == NULL || nk_wide(line, *cmdline,
						JO_CMDLINE_MAX) != 0)
			rc = JO_CMD_TOO_LONG;
	}
	free(line);
	switch (rc) {
	case JO_CMD_OK:
		return NS_OK;
	case JO_CMD_ARGV0_QUOTE:
		return jo_refuse(h, NS_E_REFUSED, "sandbox_failed",
				 "the command's name holds '\"', which no "
				 "Windows command line can carry");
	case JO_CMD_BATCH_META:
		return jo_refuse(h, NS_E_REFUSED, "sandbox_failed",
				 "argument %zu holds a character cmd.exe would "
				 "interpret (\" %% ! ^ & | < > ( ) or a line "
				 "break) and %s is a batch file: run it as "
				 "cmd.exe /d /c with arguments you quote "
				 "yourself, or pass a program", bad,
				 pol->command);
	default:
		return jo_refuse(h, NS_E_REFUSED, "sandbox_failed",
				 "the command line is longer than Windows "
				 "takes (%u characters) or not UTF-8",
				 JO_CMDLINE_MAX - 1);
	}
}

/* CompareStringOrdinal ignoring case: the system's order of the block,
 * as the host's tool runner sorts its own (host/os/windows/tool.c). */
static int
env_cmp_system(const uint16_t *a, size_t na, const uint16_t *b, size_t nb)
{
	int r = CompareStringOrdinal((const wchar_t *)a, (int)na,
				     (const wchar_t *)b, (int)nb, TRUE);

	return r == CSTR_LESS_THAN ? -1 : r == CSTR_GREATER_THAN ? 1 : 0;
}

static void
free_entries(wchar_t **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The name of the UTF-16 entry e as UTF-8 into out, for a line. */
static void
entry_name(const wchar_t *e, char *out, size_t cap)
{
	size_t n = jo_env_name_len((const uint16_t *)e);
	wchar_t name[256];

	if (n >= sizeof(name) / sizeof(name[0]))
		n = sizeof(name) / sizeof(name[0]) - 1;
	memcpy(name, e, n * sizeof(wchar_t));
	name[n] = L'\0';
	if (nk_utf8(name, out, cap) != 0)
		snprintf(out, cap, "?");
}

/* The environment block of exactly pol->envp: each entry UTF-8 -> UTF-16,
 * sorted by name as Windows wants it (jo_env_sort with the system's
 * comparison); a name twice (as Windows compares names: "Path" is PATH)
 * is refused, since the command would see one of them, not both. */
int
jo_make_env(const struct ns_host *h, const struct ns_policy *pol,
	    wchar_t **out)
{
	size_t n = 0, total = 1, at = 0, dup = 0;
	wchar_t **v, *env;
	const uint16_t **tmp;
	char a[256], b[256];

	while (pol->envp[n] != NULL)
		n++;
	v = calloc(n + 1, sizeof(*v));
	tmp = calloc(n + 1, sizeof(*tmp));
	if (v == NULL || tmp == NULL) {
		free(v);
		free(tmp);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		size_t cap = strlen(pol->envp[i]) + 1; /* units <= bytes */

		v[i] = malloc(cap * sizeof(wchar_t));
		if (v[i] == NULL || nk_wide(pol->envp[i], v[i], cap) != 0) {
			free(tmp);
			free_entries(v, n);
			return jo_refuse(h, NS_E_REFUSED, "sandbox_failed",
					 "an environment variable is not "
					 "UTF-8");
		}
		total += wcslen(v[i]) + 1;
	}
	if (jo_env_sort((const uint16_t **)v, n, tmp, env_cmp_system,
			&dup) != 0) {
		entry_name(v[dup - 1], a, sizeof(a));
		entry_name(v[dup], b, sizeof(b));
		free(tmp);
		free_entries(v, n);
		return jo_refuse(h, NS_E_REFUSED, "bad_env",
				 "the environment holds %s and %s, one variable "
				 "as Windows compares names (ignoring case): "
				 "the command would see only one of them: name "
				 "it once", a, b);
	}
	free(tmp);
	env = calloc(total + 1, sizeof(wchar_t));
	if (env == NULL) {
		free_entries(v, n);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = wcslen(v[i]) + 1;

		memcpy(env + at, v[i], k * sizeof(wchar_t));
		at += k;
	}
	free_entries(v, n);
	env[at] = L'\0'; /* (an empty block: two NULs, from calloc) */
	*out = env;
	return NS_OK;
}

/* The command and its working directory in the plain form CreateProcessW
 * takes (shorter than MAX_PATH: the 8.3 short name of a longer one). */
