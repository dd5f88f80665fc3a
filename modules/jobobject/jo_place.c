/* SPDX-License-Identifier: MIT */
/* jo_place.c -- the scratch: one directory per run under the user's temp
 * directory, "nova-<name>", made exclusively with an owner marker, and
 * deleted depth-first once the job is dead: a reparse point (junction,
 * symlink) is removed as a link and never entered, READONLY is cleared,
 * a sharing violation is retried (jo_retry_delay_ms).  What cannot be
 * removed is refused (the host prints SANDBOX LEAK, remedy reap). */
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "jo_win.h"

#define JO_MARKER L".nova-sandbox-owner"
#define JO_WPATH 1024 /* UTF-16 units of a path inside a scratch */

/* The temp directory, UTF-8, with a trailing '\\' and no whitespace (a
 * reap line cannot carry it): its short form when the long one has a
 * space. */
static int
temp_base(const struct ns_host *h, char *out, size_t cap)
{
	wchar_t w[MAX_PATH + 1], s[MAX_PATH + 1];
	DWORD n = GetTempPathW(MAX_PATH + 1, w);

	if (n == 0 || n > MAX_PATH)
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "the temp directory cannot be found (error "
				 "%lu)", GetLastError());
	if (wcspbrk(w, L" \t") != NULL) {
		n = GetShortPathNameW(w, s, MAX_PATH + 1);
		if (n > 0 && n <= MAX_PATH)
			memcpy(w, s, (n + 1) * sizeof(wchar_t));
	}
	if (wcspbrk(w, L" \t") != NULL || jo_utf8(w, out, cap) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "the temp directory's path holds a space and "
				 "has no short name; set TMP to a directory "
				 "without one");
	return NS_OK;
}

static int
root_of(const struct ns_host *h, const char *name, char *root, size_t cap)
{
	char base[JO_PATH];
	int n, rc;

	if (jo_scratch_name_ok(name) != 0)
		return jo_refuse(h, NS_E_REFUSED, "no_name",
				 "run name %s cannot name a Windows directory "
				 "(no trailing '.')", name);
	rc = temp_base(h, base, sizeof(base));
	if (rc != NS_OK)
		return rc;
	n = snprintf(root, cap, "%snova-%s", base, name);
	if (n < 0 || (size_t)n >= cap)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "the scratch path is too long");
	return NS_OK;
}

/* "\\?\" + path: no MAX_PATH limit, no name rewriting. */
static int
long_path(const char *path, wchar_t *out, size_t cap)
{
	if (cap < 5)
		return -1;
	memcpy(out, L"\\\\?\\", 4 * sizeof(wchar_t));
	return jo_wide(path, out + 4, cap - 4);
}

static int
jo_look(const struct ns_host *h, const char *name, int *exists)
{
	char root[JO_PATH];
	wchar_t w[JO_WPATH];
	int rc = root_of(h, name, root, sizeof(root));

	if (rc != NS_OK)
		return rc;
	if (long_path(root, w, JO_WPATH) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a path Windows can name", root);
	*exists = GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES ||
		  GetLastError() != ERROR_FILE_NOT_FOUND;
	return NS_OK;
}

/* ---- delete ------------------------------------------------------------ */

static size_t
wlen(const wchar_t *s)
{
	return wcslen(s);
}

/* Remove one entry: a reparse point as a link, a directory depth-first,
 * a file with READONLY cleared.  Returns the first Win32 error, 0.  At
 * the top (keep_marker) the owner marker is left for last: a scratch
 * that could not be emptied keeps it, so reap still knows it as ours. */
static DWORD
remove_tree(wchar_t *path, size_t len, size_t cap, DWORD attrs,
	    int keep_marker)
{
	DWORD err = 0;

	if (attrs & FILE_ATTRIBUTE_READONLY)
		SetFileAttributesW(path, attrs & ~(DWORD)FILE_ATTRIBUTE_READONLY);
	if ((attrs & FILE_ATTRIBUTE_DIRECTORY) &&
	    !(attrs & FILE_ATTRIBUTE_REPARSE_POINT)) {
		WIN32_FIND_DATAW fd;
		HANDLE f;

		if (len + 3 >= cap)
			return ERROR_FILENAME_EXCED_RANGE;
		memcpy(path + len, L"\\*", 3 * sizeof(wchar_t));
		f = FindFirstFileExW(path, FindExInfoBasic, &fd,
				     FindExSearchNameMatch, NULL, 0);
		path[len] = L'\0';
		if (f == INVALID_HANDLE_VALUE)
			return GetLastError();
		do {
			size_t n = wlen(fd.cFileName);
			DWORD e;

			if (wcscmp(fd.cFileName, L".") == 0 ||
			    wcscmp(fd.cFileName, L"..") == 0 ||
			    (keep_marker && wcscmp(fd.cFileName,
						   JO_MARKER) == 0))
				continue;
			if (len + 1 + n + 1 >= cap) {
				err = err ? err : ERROR_FILENAME_EXCED_RANGE;
				continue;
			}
			path[len] = L'\\';
			memcpy(path + len + 1, fd.cFileName,
			       (n + 1) * sizeof(wchar_t));
			e = remove_tree(path, len + 1 + n, cap,
					fd.dwFileAttributes, 0);
			path[len] = L'\0';
			if (e != 0 && err == 0)
				err = e;
		} while (FindNextFileW(f, &fd));
		FindClose(f);
		if (keep_marker && err == 0 && len + 24 < cap) {
			memcpy(path + len, L"\\" JO_MARKER,
			       (wlen(L"\\" JO_MARKER) + 1) * sizeof(wchar_t));
			SetFileAttributesW(path, FILE_ATTRIBUTE_NORMAL);
			if (!DeleteFileW(path) &&
			    GetLastError() != ERROR_FILE_NOT_FOUND)
				err = GetLastError();
			path[len] = L'\0';
		}
		if (err == 0 && !RemoveDirectoryW(path))
			err = GetLastError();
		return err;
	}
	if (attrs & FILE_ATTRIBUTE_DIRECTORY) /* a directory link itself */
		return RemoveDirectoryW(path) ? 0 : GetLastError();
	return DeleteFileW(path) ? 0 : GetLastError();
}

static int
retryable(DWORD e)
{
	return e == ERROR_SHARING_VIOLATION || e == ERROR_ACCESS_DENIED ||
	       e == ERROR_DIR_NOT_EMPTY || e == ERROR_LOCK_VIOLATION;
}

/* The scratch is ours only with a marker in it; its root itself must be
 * a plain directory (never a link someone put in its place). */
static DWORD
delete_scratch(const char *root, int *tries)
{
	wchar_t w[JO_WPATH];
	DWORD attrs, e = 0;
	unsigned i;

	if (long_path(root, w, JO_WPATH) != 0)
		return ERROR_INVALID_NAME;
	for (i = 0;; i++) {
		int d;

		attrs = GetFileAttributesW(w);
		if (attrs == INVALID_FILE_ATTRIBUTES) {
			e = GetLastError();
			e = (e == ERROR_FILE_NOT_FOUND ||
			     e == ERROR_PATH_NOT_FOUND) ? 0 : e;
			break;
		}
		if (attrs & FILE_ATTRIBUTE_REPARSE_POINT) {
			e = ERROR_REPARSE_TAG_MISMATCH; /* never ours */
			break;
		}
		e = remove_tree(w, wlen(w), JO_WPATH, attrs, 1);
		if (e == 0 || !retryable(e))
			break;
		d = jo_retry_delay_ms(i);
		if (d < 0)
			break;
		Sleep((DWORD)d);
	}
	*tries = (int)i + 1;
	return e;
}

/* ---- create ------------------------------------------------------------ */

static int
write_marker(const wchar_t *root)
{
	wchar_t m[JO_WPATH];
	char text[64];
	size_t n = jo_marker_format(GetCurrentProcessId(),
				    jo_proc_start(GetCurrentProcess()), text,
				    sizeof(text));
	HANDLE f;
	DWORD wrote = 0;
	BOOL ok;

	if (n == 0 || wlen(root) + 24 >= JO_WPATH)
		return -1;
	memcpy(m, root, (wlen(root) + 1) * sizeof(wchar_t));
	wcscat(m, L"\\" JO_MARKER);
	f = CreateFileW(m, GENERIC_WRITE, 0, NULL, CREATE_NEW,
			FILE_ATTRIBUTE_NORMAL, NULL);
	if (f == INVALID_HANDLE_VALUE)
		return -1;
	ok = WriteFile(f, text, (DWORD)n, &wrote, NULL) && wrote == n;
	return CloseHandle(f) && ok ? 0 : -1;
}

static int
sub_dirs(const wchar_t *root)
{
	static const wchar_t *const subs[] = { L"\\work", L"\\home", L"\\tmp" };
	wchar_t d[JO_WPATH];

	for (size_t i = 0; i < 3; i++) {
		if (wlen(root) + 8 >= JO_WPATH)
			return -1;
		memcpy(d, root, (wlen(root) + 1) * sizeof(wchar_t));
		wcscat(d, subs[i]);
		if (!CreateDirectoryW(d, NULL))
			return -1;
	}
	return 0;
}

static int
jo_create(const struct ns_host *h, const struct ns_place_req *req,
	  struct ns_place *out)
{
	wchar_t w[JO_WPATH];
	int rc = root_of(h, req->name, out->root, sizeof(out->root)), tries;
	DWORD e;

	if (rc != NS_OK)
		return rc;
	if (long_path(out->root, w, JO_WPATH) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a path Windows can name", out->root);
	if (!CreateDirectoryW(w, NULL)) { /* exclusive: never an old one */
		e = GetLastError();
		if (e == ERROR_ALREADY_EXISTS)
			return jo_refuse(h, NS_E_REFUSED, "volume_exists",
					 "%s already exists; another run has "
					 "the name, or `nova-sandbox reap` "
					 "clears a dead one", out->root);
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "%s cannot be made (error %lu)", out->root, e);
	}
	if (write_marker(w) != 0 || sub_dirs(w) != 0) {
		e = GetLastError();
		delete_scratch(out->root, &tries);
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "%s cannot be filled (error %lu); removed",
				 out->root, e);
	}
	snprintf(out->id, sizeof(out->id), "nova-%s", req->name);
	snprintf(out->remedy, sizeof(out->remedy), "nova-sandbox reap");
	out->hidden[0] = '\0';
	out->state = NULL;
	return NS_OK;
}

/* ---- used ----------------------------------------------------------------- */

static uint64_t
tree_bytes(wchar_t *path, size_t len, size_t cap)
{
	WIN32_FIND_DATAW fd;
	HANDLE f;
	uint64_t sum = 0;

	if (len + 3 >= cap)
		return 0;
	memcpy(path + len, L"\\*", 3 * sizeof(wchar_t));
	f = FindFirstFileExW(path, FindExInfoBasic, &fd, FindExSearchNameMatch,
			     NULL, 0);
	path[len] = L'\0';
	if (f == INVALID_HANDLE_VALUE)
		return 0;
	do {
		size_t n = wlen(fd.cFileName);

		if (wcscmp(fd.cFileName, L".") == 0 ||
		    wcscmp(fd.cFileName, L"..") == 0)
			continue;
		sum += ((uint64_t)fd.nFileSizeHigh << 32) | fd.nFileSizeLow;
		if ((fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
		    !(fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) &&
		    len + 1 + n + 1 < cap) {
			path[len] = L'\\';
			memcpy(path + len + 1, fd.cFileName,
			       (n + 1) * sizeof(wchar_t));
			sum += tree_bytes(path, len + 1 + n, cap);
			path[len] = L'\0';
		}
	} while (FindNextFileW(f, &fd));
	FindClose(f);
	return sum;
}

static int
jo_used(const struct ns_host *h, const struct ns_place *place,
	uint64_t *bytes)
{
	wchar_t w[JO_WPATH];

	if (long_path(place->root, w, JO_WPATH) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a path Windows can name",
				 place->root);
	*bytes = tree_bytes(w, wlen(w), JO_WPATH);
	return NS_OK;
}

/* ---- destroy --------------------------------------------------------------- */

/* A place from list() (reap) must still be a "nova-" directory with our
 * marker directly in the temp directory: never delete a path a line
 * merely named. */
static int
is_ours(const struct ns_host *h, const char *root)
{
	char base[JO_PATH];
	size_t bl;
	wchar_t w[JO_WPATH];
	DWORD a;

	if (temp_base(h, base, sizeof(base)) != NS_OK)
		return 0;
	bl = strlen(base);
	if (strncmp(root, base, bl) != 0 || strncmp(root + bl, "nova-", 5) ||
	    strpbrk(root + bl, "\\/") != NULL ||
	    jo_scratch_name_ok(root + bl + 5) != 0)
		return 0;
	if (long_path(root, w, JO_WPATH - 24) != 0)
		return 0;
	a = GetFileAttributesW(w);
	if (a == INVALID_FILE_ATTRIBUTES || !(a & FILE_ATTRIBUTE_DIRECTORY) ||
	    (a & FILE_ATTRIBUTE_REPARSE_POINT))
		return 0;
	wcscat(w, L"\\" JO_MARKER);
	a = GetFileAttributesW(w);
	return a != INVALID_FILE_ATTRIBUTES &&
	       !(a & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT));
}

static int
jo_destroy(const struct ns_host *h, struct ns_place *place)
{
	int tries = 0;
	DWORD e;

	if (!is_ours(h, place->root))
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a scratch of nova-sandbox (no "
				 "owner marker, a link, or outside the temp "
				 "directory); left alone", place->root);
	e = delete_scratch(place->root, &tries);
	if (e != 0)
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "%s could not be removed after %d tries "
				 "(error %lu%s)", place->root, tries, e,
				 retryable(e) ? ": a file in it is still open"
					      : "");
	return NS_OK;
}

/* ---- list / proc_start ------------------------------------------------------- */

static void
list_one(const struct ns_host *h, const char *base, const wchar_t *wname)
{
	char name[128], root[JO_PATH], line[JO_PATH * 2 + 128], text[64];
	char owner[16] = "-", start[24] = "-";
	wchar_t m[JO_WPATH];
	HANDLE f;
	DWORD got = 0;
	uint32_t pid;
	uint64_t st;

	if (jo_utf8(wname, name, sizeof(name)) != 0 ||
	    jo_scratch_name_ok(name + 5) != 0)
		return;
	snprintf(root, sizeof(root), "%s%s", base, name);
	if (long_path(root, m, JO_WPATH - 24) != 0)
		return;
	wcscat(m, L"\\" JO_MARKER);
	f = CreateFileW(m, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
			FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (f != INVALID_HANDLE_VALUE) {
		if (ReadFile(f, text, sizeof(text) - 1, &got, NULL) &&
		    jo_marker_parse(text, got, &pid, &st) == 0) {
			snprintf(owner, sizeof(owner), "%lu",
				 (unsigned long)pid);
			snprintf(start, sizeof(start), "%llu",
				 (unsigned long long)st);
		}
		CloseHandle(f);
	}
	snprintf(line, sizeof(line), "name=%s id=%s root=%s owner=%s start=%s",
		 name, name, root, owner, start);
	h->text(h->cookie, line);
}

static int
jo_list(const struct ns_host *h)
{
	char base[JO_PATH];
	wchar_t w[JO_WPATH];
	WIN32_FIND_DATAW fd;
	HANDLE f;
	int rc = temp_base(h, base, sizeof(base));

	if (rc != NS_OK)
		return rc;
	if (long_path(base, w, JO_WPATH - 8) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "the temp directory is not a path Windows "
				 "can name");
	wcscat(w, L"nova-*");
	f = FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch,
			     NULL, 0);
	if (f == INVALID_HANDLE_VALUE)
		return GetLastError() == ERROR_FILE_NOT_FOUND ? NS_OK :
		       jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "the temp directory cannot be listed (error "
				 "%lu)", GetLastError());
	do {
		if ((fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
		    !(fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
			list_one(h, base, fd.cFileName);
	} while (FindNextFileW(f, &fd));
	FindClose(f);
	return NS_OK;
}

static int
jo_proc_start_op(const struct ns_host *h, int64_t pid, char *out,
		 size_t outlen)
{
	HANDLE p;
	uint64_t st;
	DWORD code = 0;

	if (pid <= 0 || pid > 0xffffffffLL)
		return jo_refuse(h, NS_E_UNAVAILABLE, "volume_failed",
				 "pid %lld is not a Windows process id",
				 (long long)pid);
	p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
	if (p == NULL)
		return jo_refuse(h, NS_E_UNAVAILABLE, "volume_failed",
				 "process %lld cannot be opened (error %lu)",
				 (long long)pid, GetLastError());
	st = jo_proc_start(p);
	if (!GetExitCodeProcess(p, &code) || code != STILL_ACTIVE)
		st = 0; /* a dead process's handle: no owner */
	CloseHandle(p);
	if (st == 0)
		return jo_refuse(h, NS_E_UNAVAILABLE, "volume_failed",
				 "process %lld has no start time",
				 (long long)pid);
	snprintf(out, outlen, "%llu", (unsigned long long)st);
	return NS_OK;
}

const struct ns_place_ops jo_place_ops = {
	.struct_size = sizeof(struct ns_place_ops),
	.look = jo_look,
	.create = jo_create,
	.used = jo_used,
	.destroy = jo_destroy,
	.list = jo_list,
	.proc_start = jo_proc_start_op,
};
