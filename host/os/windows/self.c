/* SPDX-License-Identifier: MIT */
/* self.c -- this process on Windows: its binary and the canonical name of
 * a directory, both as UTF-8 with '/'. */
#include "os/os.h"

#include <windows.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/windows/wpath.h"

int
os_self_exe(char *buf, size_t n)
{
	wchar_t w[WP_MAX];
	DWORD len = GetModuleFileNameW(NULL, w, WP_MAX);
	char *s;
	size_t sl;

	if (len == 0 || len >= WP_MAX)
		return -1;
	s = wp_utf8(w);
	if (s == NULL)
		return -1;
	sl = strlen(s);
	if (sl + 1 > n || sl < 3 || s[1] != ':' || s[2] != '/') {
		free(s);
		return -1;
	}
	memcpy(buf, s, sl + 1);
	free(s);
	return 0;
}

const char *
os_self_exe_hint(void)
{
	return "GetModuleFileNameW did not name it";
}

char *
os_real_dir(const char *path)
{
	wchar_t *w = wp_wide(path), *f;
	HANDLE h;
	BY_HANDLE_FILE_INFORMATION bi;
	char *s = NULL;

	if (w == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE |
			FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = ENOENT;
		return NULL;
	}
	if (!GetFileInformationByHandle(h, &bi) ||
	    !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
		CloseHandle(h);
		errno = ENOTDIR;
		return NULL;
	}
	f = wp_final(h);
	CloseHandle(h);
	if (f != NULL)
		s = wp_utf8(f);
	free(f);
	if (s == NULL)
		errno = ENOMEM;
	return s;
}
