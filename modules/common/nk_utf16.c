/* SPDX-License-Identifier: MIT */
/* nk_utf16.c -- nk_utf16.h through MultiByteToWideChar and
 * WideCharToMultiByte, invalid sequences refused. */
#include <windows.h>

#include "nk_utf16.h"

#include <stdlib.h>

#include "banned.h"

int
nk_wide(const char *s, wchar_t *out, size_t cap)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, out,
				    (int)cap);

	return n > 0 ? 0 : -1;
}

int
nk_utf8(const wchar_t *s, char *out, size_t cap)
{
	int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, s, -1, out,
				    (int)cap, NULL, NULL);

	return n > 0 ? 0 : -1;
}

wchar_t *
nk_wide_alloc(const char *s, size_t max)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL,
				    0);
	wchar_t *w;

	if (n <= 0 || (size_t)n > max)
		return NULL;
	w = malloc((size_t)n * sizeof(wchar_t));
	if (w == NULL || MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s,
					     -1, w, n) != n) {
		free(w);
		return NULL;
	}
	return w;
}
