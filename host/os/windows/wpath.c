/* SPDX-License-Identifier: MIT */
/* wpath.c -- UTF-8 '/' paths to and from UTF-16 '\\' paths (wpath.h). */
#include "os/windows/wpath.h"

#include <winternl.h>
#include <stdlib.h>
#include <string.h>

/* Is w an absolute drive ("C:\\...") or UNC ("\\\\server\\share...")
 * path in its plain form (not already "\\\\?\\" or a "\\\\.\\" device)? */
static int
plain_absolute(const wchar_t *w)
{
	if (((w[0] >= L'A' && w[0] <= L'Z') || (w[0] >= L'a' && w[0] <= L'z')) &&
	    w[1] == L':' && w[2] == L'\\')
		return 1;
	return w[0] == L'\\' && w[1] == L'\\' && w[2] != L'?' && w[2] != L'.' &&
	       w[2] != L'\0';
}

wchar_t *
wp_long_form(const wchar_t *w)
{
	DWORD n, k;
	wchar_t *full, *out;
	size_t at;

	if (!plain_absolute(w))
		return NULL; /* relative: never resolved against the cwd */
	n = GetFullPathNameW(w, 0, NULL, NULL);
	if (n == 0 || n > WP_MAX)
		return NULL;
	full = malloc((size_t)n * sizeof(wchar_t));
	if (full == NULL)
		return NULL;
	k = GetFullPathNameW(w, n, full, NULL);
	if (k == 0 || k >= n || !plain_absolute(full)) {
		free(full); /* a device ("\\\\.\\nul") or a failure */
		return NULL;
	}
	out = malloc(((size_t)k + 8) * sizeof(wchar_t));
	if (out == NULL) {
		free(full);
		return NULL;
	}
	if (full[0] == L'\\') { /* \\server\share -> \\?\UNC\server\share */
		memcpy(out, L"\\\\?\\UNC", 7 * sizeof(wchar_t));
		at = 7;
		memcpy(out + at, full + 1, (size_t)k * sizeof(wchar_t));
	} else {
		memcpy(out, L"\\\\?\\", 4 * sizeof(wchar_t));
		at = 4;
		memcpy(out + at, full, ((size_t)k + 1) * sizeof(wchar_t));
	}
	free(full);
	return out;
}

wchar_t *
wp_wide(const char *path)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				    NULL, 0);
	wchar_t *w, *l;

	if (n <= 0 || n > WP_MAX)
		return NULL;
	w = malloc((size_t)n * sizeof(wchar_t));
	if (w == NULL ||
	    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w,
				n) != n) {
		free(w);
		return NULL;
	}
	for (wchar_t *p = w; *p; p++)
		if (*p == L'/')
			*p = L'\\';
	if ((size_t)n <= WP_PLAIN_MAX || !plain_absolute(w))
		return w;
	l = wp_long_form(w);
	free(w);
	return l;
}

char *
wp_utf8(const wchar_t *w)
{
	int unc = wcsncmp(w, L"\\\\?\\UNC\\", 8) == 0, n;
	char *s;

	if (unc)
		w += 7; /* "\\server\\share" less one backslash, put back below */
	else if (wcsncmp(w, L"\\\\?\\", 4) == 0)
		w += 4;
	n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, NULL, 0,
				NULL, NULL);
	if (n <= 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (s == NULL ||
	    WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, s + unc, n,
				NULL, NULL) != n) {
		free(s);
		return NULL;
	}
	s[0] = unc ? '/' : s[0];
	for (char *p = s; *p; p++)
		if (*p == '\\')
			*p = '/';
	return s;
}

typedef NTSTATUS(NTAPI *query_object_fn)(HANDLE, OBJECT_INFORMATION_CLASS,
					 PVOID, ULONG, PULONG);

/* The object's name as the system keeps it, where GetFinalPathNameByHandleW
 * cannot give a long one: Wine 8's stops at MAX_PATH (a fixed buffer:
 * ERROR_MORE_DATA whatever the caller's size), while its object name is
 * "\\??\\C:\\..." (or "\\??\\UNC\\..."), a DOS path.  Windows names the
 * object "\\Device\\HarddiskVolumeN\\..." and never needs this; any name
 * not in the "\\??\\" form is NULL. */
static wchar_t *
object_name(HANDLE h)
{
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");
	FARPROC p = nt ? GetProcAddress(nt, "NtQueryObject") : NULL;
	query_object_fn q;
	ULONG cap = (WP_MAX + 64) * sizeof(wchar_t), got = 0;
	OBJECT_NAME_INFORMATION *oni;
	wchar_t *w = NULL;
	size_t n;

	if (p == NULL)
		return NULL;
	memcpy(&q, &p, sizeof(q));
	oni = malloc(sizeof(*oni) + cap);
	if (oni == NULL)
		return NULL;
	if (q(h, (OBJECT_INFORMATION_CLASS)1 /* ObjectNameInformation */, oni,
	      (ULONG)(sizeof(*oni) + cap), &got) >= 0 &&
	    oni->Name.Buffer != NULL) {
		n = oni->Name.Length / sizeof(wchar_t);
		if (n > 4 && n < WP_MAX &&
		    wcsncmp(oni->Name.Buffer, L"\\??\\", 4) == 0 &&
		    (w = malloc((n + 1) * sizeof(wchar_t))) != NULL) {
			memcpy(w, oni->Name.Buffer, n * sizeof(wchar_t));
			w[n] = L'\0';
			w[1] = L'\\'; /* "\\??\\" -> "\\\\?\\" */
		}
	}
	free(oni);
	return w;
}

wchar_t *
wp_final(HANDLE h)
{
	DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, VOLUME_NAME_DOS);
	wchar_t *w;

	if (n == 0 && GetLastError() == ERROR_MORE_DATA)
		return object_name(h);
	if (n == 0 || n > WP_MAX)
		return NULL;
	w = malloc((size_t)(n + 1) * sizeof(wchar_t));
	if (w == NULL)
		return NULL;
	n = GetFinalPathNameByHandleW(h, w, n + 1, VOLUME_NAME_DOS);
	if (n == 0 || n > WP_MAX) {
		free(w);
		return n == 0 && GetLastError() == ERROR_MORE_DATA ?
			       object_name(h) : NULL;
	}
	return w;
}
