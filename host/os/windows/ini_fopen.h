/* SPDX-License-Identifier: MIT */
/* ini_fopen.h -- forced into iniparser's Windows build (the Makefile's
 * -include; the upstream source is unchanged): its one fopen() takes the
 * name os_fd_name gave the config (conf/config.c), UTF-8, which the C
 * runtime's fopen would read in the ANSI code page -- a config under
 * C:\Users\Jürgen or a CJK directory would not open.  This fopen
 * converts the name to UTF-16 and opens it with _wfopen, in its
 * "\\?\" form when longer than a plain path may be (the name is a final
 * path, already normalised).  Not UTF-8: NULL (EINVAL). */
#ifndef NS_HOST_OS_WINDOWS_INI_FOPEN_H
#define NS_HOST_OS_WINDOWS_INI_FOPEN_H

#include <windows.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline FILE *
ns_ini_fopen(const char *path, const char *mode)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				    NULL, 0);
	wchar_t wmode[8], *w;
	size_t at = 0, i;
	FILE *f;

	if (n <= 0 || strlen(mode) >= sizeof(wmode) / sizeof(wmode[0])) {
		errno = EINVAL;
		return NULL;
	}
	w = malloc(((size_t)n + 8) * sizeof(wchar_t));
	if (w == NULL)
		return NULL;
	/* a drive path past MAX_PATH: "\\?\" ("\\?\UNC\" for "//server") */
	if ((size_t)n > MAX_PATH - 12 && path[0] != '\0' && path[1] == ':') {
		memcpy(w, L"\\\\?\\", 4 * sizeof(wchar_t));
		at = 4;
	} else if ((size_t)n > MAX_PATH - 12 && path[0] == '/' &&
		   path[1] == '/') {
		memcpy(w, L"\\\\?\\UNC", 7 * sizeof(wchar_t));
		at = 7;
		path++; /* the UNC form keeps one of the two separators */
		n--;
	}
	MultiByteToWideChar(CP_UTF8, 0, path, -1, w + at, n);
	for (wchar_t *p = w; *p != L'\0'; p++)
		if (*p == L'/')
			*p = L'\\';
	for (i = 0; mode[i] != '\0'; i++)
		wmode[i] = (wchar_t)(unsigned char)mode[i];
	wmode[i] = L'\0';
	f = _wfopen(w, wmode);
	free(w);
	return f;
}
#define fopen(path, mode) ns_ini_fopen((path), (mode))

#endif
