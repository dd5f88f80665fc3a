/* SPDX-License-Identifier: MIT */
/* wpath.c -- UTF-8 '/' paths to and from UTF-16 '\\' paths (wpath.h). */
#include "os/windows/wpath.h"

#include <stdlib.h>
#include <string.h>

wchar_t *
wp_wide(const char *path)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				    NULL, 0);
	wchar_t *w;

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
	return w;
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

wchar_t *
wp_final(HANDLE h)
{
	DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, VOLUME_NAME_DOS);
	wchar_t *w;

	if (n == 0 || n > WP_MAX)
		return NULL;
	w = malloc((size_t)(n + 1) * sizeof(wchar_t));
	if (w == NULL ||
	    GetFinalPathNameByHandleW(h, w, n + 1, VOLUME_NAME_DOS) > n) {
		free(w);
		return NULL;
	}
	return w;
}
