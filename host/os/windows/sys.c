/* SPDX-License-Identifier: MIT */
/* sys.c -- Windows: what the worktree verb and toolchain discovery ask of
 * the system beside the walk (os/os.h):
 * durable writes, environment names compared ignoring case, the system's
 * and the profile's variables a program needs, the user's temp directory,
 * the volume as the mount, and whether a directory is in use: every
 * directory of the tree opened with DELETE access, which a process's
 * working directory (a handle that does not share delete) refuses. */
#include "os/os.h"

#include <windows.h>
#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "os/windows/wpath.h"

#define INUSE_MAX_DEPTH 1024

static HANDLE
handle_of(int fd)
{
	intptr_t h = _get_osfhandle(fd);

	return h == (intptr_t)INVALID_HANDLE_VALUE ? NULL : (HANDLE)h;
}

int
os_fd_made(int rc)
{
	return rc; /* handles: nothing to run out of (os_fd_exhausted) */
}

int
os_fd_exhausted(void)
{
	return 0; /* handles: no per-process descriptor table to run out of */
}

long
os_fd_limit(void)
{
	return -1;
}

int
os_fsync(int fd)
{
	HANDLE h = handle_of(fd);

	if (h == NULL || !FlushFileBuffers(h)) {
		errno = h == NULL ? EBADF : EIO;
		return -1;
	}
	return 0;
}

const char *
os_env_get(char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env != NULL && *env != NULL; env++)
		if (_strnicmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

const char *const *
os_env_system(void)
{
	static const char *const names[] = {
		"SystemRoot", "windir", "SystemDrive", "ProgramData",
		"PATHEXT", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE",
		NULL,
	};

	return names;
}

const char *const *
os_env_profile(void)
{
	static const char *const names[] = {
		"USERPROFILE", "APPDATA", "LOCALAPPDATA", "TEMP", "TMP", NULL,
	};

	return names;
}

const char *const *
os_temp_dirs(void)
{
	static char *dirs[2];
	static int done;
	wchar_t w[MAX_PATH + 2];
	DWORD n;

	if (!done) {
		done = 1;
		n = GetTempPathW(MAX_PATH + 1, w);
		if (n > 0 && n <= MAX_PATH && (dirs[0] = wp_utf8(w)) != NULL) {
			size_t k = strlen(dirs[0]);

			/* "C:/x/" -> "C:/x", a root kept whole */
			if (k > 3 && dirs[0][k - 1] == '/')
				dirs[0][k - 1] = '\0';
		}
	}
	return (const char *const *)dirs;
}

int
os_mount_id(int fd, unsigned long long *id)
{
	HANDLE h = handle_of(fd);
	BY_HANDLE_FILE_INFORMATION bi;

	if (h == NULL || !GetFileInformationByHandle(h, &bi))
		return -1;
	*id = bi.dwVolumeSerialNumber;
	return 0;
}

int
os_dir_lock_at(int dirfd, const char *name, int *lockfd)
{
	(void)dirfd;
	(void)name;
	*lockfd = -1;
	return 0; /* no flock: a job's working directory is what is seen */
}

/* ---- in use ------------------------------------------------------------- */

/* 1 some process holds the directory at w (or one below it) without
 * sharing delete, 0 none, -1 it cannot be told (top: not a directory). */
static int
busy(const wchar_t *w, int top, unsigned depth)
{
	BY_HANDLE_FILE_INFORMATION bi;
	WIN32_FIND_DATAW fd;
	wchar_t *pat;
	HANDLE h;
	DWORD e;
	size_t n = wcslen(w);
	int rc = 0;

	if (depth > INUSE_MAX_DEPTH)
		return -1;
	h = CreateFileW(w, DELETE | FILE_READ_ATTRIBUTES,
			FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS |
				       FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		e = GetLastError();
		if (e == ERROR_SHARING_VIOLATION)
			return 1;
		/* gone since it was listed: nothing there to use */
		return top ? -1 : 0;
	}
	if (!GetFileInformationByHandle(h, &bi)) {
		CloseHandle(h);
		return -1;
	}
	CloseHandle(h);
	if ((bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ||
	    !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
		return top ? -1 : 0; /* a link is not entered */
	pat = malloc((n + 3) * sizeof(wchar_t));
	if (pat == NULL)
		return -1;
	memcpy(pat, w, n * sizeof(wchar_t));
	memcpy(pat + n, L"\\*", 3 * sizeof(wchar_t));
	h = FindFirstFileExW(pat, FindExInfoBasic, &fd, FindExSearchNameMatch,
			     NULL, 0);
	free(pat);
	if (h == INVALID_HANDLE_VALUE)
		return GetLastError() == ERROR_FILE_NOT_FOUND ? 0 : -1;
	do {
		wchar_t *sub;
		size_t k;

		if (!(fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ||
		    (fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ||
		    wcscmp(fd.cFileName, L".") == 0 ||
		    wcscmp(fd.cFileName, L"..") == 0)
			continue;
		k = wcslen(fd.cFileName);
		sub = malloc((n + k + 2) * sizeof(wchar_t));
		if (sub == NULL) {
			rc = -1;
			break;
		}
		memcpy(sub, w, n * sizeof(wchar_t));
		sub[n] = L'\\';
		memcpy(sub + n + 1, fd.cFileName, (k + 1) * sizeof(wchar_t));
		rc = busy(sub, 0, depth + 1);
		free(sub);
	} while (rc == 0 && FindNextFileW(h, &fd));
	FindClose(h);
	return rc;
}

int
os_dir_in_use_at(int dirfd, const char *name, unsigned *unseen)
{
	char *dir = os_fd_name(dirfd), *full;
	wchar_t *w;
	int rc;

	*unseen = 0;
	if (dir == NULL || strpbrk(name, "/\\:") != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		free(dir);
		return -1;
	}
	full = str_fmt("%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ?
			       "" : "/", name);
	free(dir);
	w = full != NULL ? wp_wide(full) : NULL;
	free(full);
	if (w == NULL)
		return -1;
	rc = busy(w, 1, 0);
	free(w);
	return rc;
}
