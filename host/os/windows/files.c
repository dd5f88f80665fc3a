/* SPDX-License-Identifier: MIT */
/* files.c -- Windows paths and descriptors for the host: absolute names
 * (a drive or a UNC name), what a name is (a reparse point is the link),
 * a descriptor's reopenable name (its handle's final path), a drop-in
 * directory's entries, the --status-fd checks; no wait statuses; other
 * processes by their handles. */
#include "os/os.h"

#include <windows.h>
#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "os/windows/wpath.h"

static int
is_sep(char c)
{
	return c == '/' || c == '\\';
}

int
os_is_absolute(const char *p)
{
	if (p == NULL)
		return 0;
	if (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) &&
	    p[1] == ':' && is_sep(p[2]))
		return 1;
	/* //server/share/...: a server name, not "//" alone */
	return is_sep(p[0]) && is_sep(p[1]) && p[2] != '\0' && !is_sep(p[2]) &&
	       p[2] != '?' && p[2] != '.';
}

static DWORD
attrs_of(const char *path)
{
	wchar_t *w = wp_wide(path);
	DWORD a;

	if (w == NULL)
		return INVALID_FILE_ATTRIBUTES;
	a = GetFileAttributesW(w);
	free(w);
	return a;
}

const char *
os_last_sep(const char *path)
{
	const char *a = strrchr(path, '/'), *b = strrchr(path, '\\');

	return a == NULL ? b : b == NULL ? a : a > b ? a : b;
}

int
os_has_sep(const char *s, size_t n)
{
	return memchr(s, '/', n) != NULL || memchr(s, '\\', n) != NULL ||
	       memchr(s, ':', n) != NULL;
}

enum os_path_kind
os_path_kind(const char *path)
{
	DWORD a = attrs_of(path);

	if (a == INVALID_FILE_ATTRIBUTES)
		return OS_PATH_ABSENT;
	return (a & FILE_ATTRIBUTE_REPARSE_POINT) ? OS_PATH_LINK :
	       (a & FILE_ATTRIBUTE_DIRECTORY) ? OS_PATH_DIR : OS_PATH_OTHER;
}

int
os_is_dir(const char *path)
{
	wchar_t *w = wp_wide(path);
	HANDLE h;
	BY_HANDLE_FILE_INFORMATION bi;
	int dir = 0;

	if (w == NULL)
		return 0;
	h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE |
			FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return 0;
	dir = GetFileInformationByHandle(h, &bi) &&
	      (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY);
	CloseHandle(h);
	return dir;
}

char *
os_fd_name(int fd)
{
	intptr_t h = _get_osfhandle(fd);
	wchar_t *f;
	char *s;

	if (h == (intptr_t)INVALID_HANDLE_VALUE)
		return NULL;
	f = wp_final((HANDLE)h);
	if (f == NULL)
		return NULL;
	s = wp_utf8(f);
	free(f);
	return s;
}

/* One component: no separator, no stream (':'), not "." or "..". */
static int
one_component(const char *name)
{
	return name[0] != '\0' && strpbrk(name, "/\\:") == NULL &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

int
os_open_own_at(int dirfd, const char *dirpath, const char *name)
{
	char *full;
	int fd;

	/* the directory is held open without delete sharing (os_open_own):
	 * it cannot be renamed or replaced, so its name still names it */
	(void)dirfd;
	if (!one_component(name)) {
		errno = EINVAL;
		return -1;
	}
	full = str_fmt("%s/%s", dirpath, name);
	if (full == NULL) {
		errno = ENOMEM;
		return -1;
	}
	fd = os_open_own(full, 0);
	free(full);
	return fd;
}

int
os_dir_names(int dirfd, const char *dirpath,
	     int (*fn)(void *arg, const char *name), void *arg)
{
	char *own = dirpath == NULL ? os_fd_name(dirfd) : NULL;
	char *pat = dirpath != NULL || own != NULL ?
			    str_fmt("%s/*", dirpath ? dirpath : own) : NULL;
	wchar_t *w = pat ? wp_wide(pat) : NULL;
	WIN32_FIND_DATAW fd;
	HANDLE h;
	int rc = 0;

	free(own);
	free(pat);
	if (w == NULL) {
		errno = ENOMEM;
		return -1;
	}
	h = FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch,
			     NULL, 0);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = GetLastError() == ERROR_FILE_NOT_FOUND ? 0 : EACCES;
		return errno ? -1 : 0;
	}
	do {
		char *name;

		if (wcscmp(fd.cFileName, L".") == 0 ||
		    wcscmp(fd.cFileName, L"..") == 0)
			continue;
		name = wp_utf8(fd.cFileName);
		if (name == NULL) {
			errno = ENOMEM;
			rc = -1;
			break;
		}
		rc = fn(arg, name);
		free(name);
	} while (rc == 0 && FindNextFileW(h, &fd));
	FindClose(h);
	return rc;
}

int
os_fd_writable(int fd, const char **why)
{
	if (_get_osfhandle(fd) == (intptr_t)INVALID_HANDLE_VALUE) {
		*why = " (not open)";
		return -1;
	}
	return 0;
}

int
os_fd_cloexec(int fd)
{
	intptr_t h = _get_osfhandle(fd);

	if (h == (intptr_t)INVALID_HANDLE_VALUE ||
	    !SetHandleInformation((HANDLE)h, HANDLE_FLAG_INHERIT, 0)) {
		errno = EBADF;
		return -1;
	}
	return 0;
}

int
os_wait_status(int st, int *code)
{
	(void)st;
	*code = 0;
	return -1;
}

int
os_pid_alive(int64_t pid)
{
	HANDLE h;
	DWORD code = 0;
	int alive;

	if (pid <= 0 || pid > (int64_t)UINT32_MAX)
		return 0;
	h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
	if (h == NULL)
		/* not allowed to look: counted alive, as EPERM is on POSIX */
		return GetLastError() == ERROR_ACCESS_DENIED;
	alive = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE &&
		WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
	CloseHandle(h);
	return alive;
}

int
os_pid_stop(int64_t pid, int hard)
{
	HANDLE h;
	BOOL ok;

	if (!hard) {
		errno = ENOSYS;
		return -1;
	}
	if (pid <= 0 || pid > (int64_t)UINT32_MAX) {
		errno = ESRCH;
		return -1;
	}
	h = OpenProcess(PROCESS_TERMINATE, FALSE, (DWORD)pid);
	if (h == NULL) {
		errno = GetLastError() == ERROR_ACCESS_DENIED ? EPERM : ESRCH;
		return -1;
	}
	ok = TerminateProcess(h, 137);
	CloseHandle(h);
	if (!ok) {
		errno = EPERM;
		return -1;
	}
	return 0;
}
