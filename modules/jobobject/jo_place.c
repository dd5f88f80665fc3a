/* SPDX-License-Identifier: MIT */
/* jo_place.c -- the scratch: one directory per run, "nova-<name>", under
 * the user's temp directory or the directory `run --scratch` named (ABI
 * 1.3, ns_place_req.parent), made exclusively with an owner marker, and
 * deleted depth-first once the job is dead: a reparse point (junction,
 * symlink) is removed as a link and never entered, READONLY is cleared,
 * a sharing violation is retried (jo_retry_delay_ms).  What cannot be
 * removed is refused (the host prints SANDBOX LEAK with the remedy:
 * `nova-sandbox reap` in the temp directory, where reap looks; for a
 * --scratch run the rmdir of that scratch).  Every path goes to Win32 in
 * its "\\?\" form (jo_wpath): a scratch deeper than MAX_PATH is one. */
#include <aclapi.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "jo_win.h"
#include "common/nk_module.h"

#define JO_MARKER L".nova-sandbox-owner"
#define JO_WPATH JO_WMAX /* UTF-16 units of a path inside a scratch */

/* A place's state: the directory it was made in ("...\\"), so that its
 * own destroy() finds it ours there (reap's, with no state, looks only in
 * the temp directory). */
struct jo_pstate {
	char base[JO_PATH];
};

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
	if (wcspbrk(w, L" \t") != NULL || nk_utf8(w, out, cap) != 0)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "the temp directory's path holds a space and "
				 "has no short name; set TMP to a directory "
				 "without one");
	return NS_OK;
}

/* <base>nova-<name>; base NULL: the temp directory. */
static int
root_of(const struct ns_host *h, const char *name, const char *in,
	char *root, size_t cap)
{
	char base[JO_PATH];
	int n, rc = NS_OK;

	if (jo_scratch_name_ok(name) != 0)
		return jo_refuse(h, NS_E_REFUSED, "no_name",
				 "run name %s cannot name a Windows directory "
				 "(no trailing '.')", name);
	if (in != NULL)
		snprintf(base, sizeof(base), "%s", in);
	else
		rc = temp_base(h, base, sizeof(base));
	if (rc != NS_OK)
		return rc;
	n = snprintf(root, cap, "%snova-%s", base, name);
	if (n < 0 || (size_t)n >= cap)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "the scratch path is too long");
	return NS_OK;
}

/* path's "\\?\" form into a buffer of cap units: no MAX_PATH limit. */
static int
long_path(const char *path, wchar_t *out, size_t cap)
{
	wchar_t *w = jo_wpath(path);
	size_t n = w ? wcslen(w) : 0;

	if (w == NULL || n + 1 > cap) {
		free(w);
		return -1;
	}
	memcpy(out, w, (n + 1) * sizeof(wchar_t));
	free(w);
	return 0;
}

/* A wide buffer of JO_WPATH units (a walk's path), heap. */
static wchar_t *
wbuf(void)
{
	return malloc(JO_WPATH * sizeof(wchar_t));
}

static int
jo_look(const struct ns_host *h, const char *name, int *exists)
{
	char root[JO_PATH];
	wchar_t *w;
	int rc = root_of(h, name, NULL, root, sizeof(root));

	if (rc != NS_OK)
		return rc;
	if ((w = jo_wpath(root)) == NULL)
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a path Windows can name", root);
	*exists = GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES ||
		  GetLastError() != ERROR_FILE_NOT_FOUND;
	free(w);
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
	wchar_t *w = wbuf();
	DWORD attrs, e = 0;
	unsigned i;

	*tries = 0;
	if (w == NULL)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (long_path(root, w, JO_WPATH) != 0) {
		free(w);
		return ERROR_INVALID_NAME;
	}
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
	free(w);
	return e;
}

/* ---- create ------------------------------------------------------------ */

static int
write_marker(const wchar_t *root)
{
	wchar_t m[JO_WPATH / 4]; /* the root is under JO_PATH UTF-8 bytes */
	char text[64];
	size_t n = jo_marker_format(GetCurrentProcessId(),
				    jo_proc_start(GetCurrentProcess()), text,
				    sizeof(text));
	HANDLE f;
	DWORD wrote = 0;
	BOOL ok;

	if (n == 0 || wlen(root) + 24 >= JO_WPATH / 4)
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
	wchar_t d[JO_WPATH / 4];

	for (size_t i = 0; i < 3; i++) {
		if (wlen(root) + 8 >= JO_WPATH / 4)
			return -1;
		memcpy(d, root, (wlen(root) + 1) * sizeof(wchar_t));
		wcscat(d, subs[i]);
		if (!CreateDirectoryW(d, NULL))
			return -1;
	}
	return 0;
}

/* Is the SID the owner of sd this process's user? */
static int
owner_is_me(PSECURITY_DESCRIPTOR sd)
{
	PSID owner = NULL;
	BOOL dflt = FALSE;
	HANDLE t = NULL;
	union {
		TOKEN_USER tu;
		char b[256];
	} u;
	DWORD n = 0;
	int me = 0;

	if (!GetSecurityDescriptorOwner(sd, &owner, &dflt) || owner == NULL ||
	    !OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &t))
		return 0;
	if (GetTokenInformation(t, TokenUser, &u, sizeof(u), &n))
		me = EqualSid(owner, u.tu.User.Sid) != 0;
	CloseHandle(t);
	return me;
}

/* --scratch: the directory the host resolved and checked, checked again
 * on the handle the scratch is made under (held open with no delete
 * sharing until it is made, so neither it nor a directory above it can
 * be renamed meanwhile): a directory, not a reparse point, the caller's,
 * and the very path named (no link above it swapped in since).  base gets
 * its name with a trailing '\\'; *held the handle. */
static int
open_parent(const struct ns_host *h, const char *parent, char *base,
	    size_t cap, HANDLE *held)
{
	BY_HANDLE_FILE_INFORMATION bi;
	PSECURITY_DESCRIPTOR sd = NULL;
	wchar_t *w = jo_wpath(parent), *fin = NULL;
	const char *why = NULL;
	size_t n;
	HANDLE f;

	*held = INVALID_HANDLE_VALUE;
	if (w == NULL || jo_upath(parent, base, cap - 1) != 0 ||
	    wcsncmp(w, L"\\\\?\\", 4) != 0) {
		free(w);
		return jo_refuse(h, NS_E_REFUSED, "bad_scratch",
				 "--scratch %s is not an absolute path Windows "
				 "can name", parent);
	}
	f = CreateFileW(w, READ_CONTROL | FILE_READ_ATTRIBUTES,
			FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS |
			FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (f == INVALID_HANDLE_VALUE) {
		DWORD e = GetLastError();

		free(w);
		return jo_refuse(h, NS_E_REFUSED, "bad_scratch",
				 "--scratch %s cannot be opened (error %lu)",
				 parent, e);
	}
	if (!GetFileInformationByHandle(f, &bi) ||
	    !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
		why = "is not a directory";
	else if (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
		why = "is a link or reparse point: name the directory itself";
	else if (GetSecurityInfo(f, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION,
				 NULL, NULL, NULL, NULL, &sd) != 0 ||
		 !owner_is_me(sd))
		why = "is not yours: name a directory you own";
	else if ((fin = jo_final(f)) == NULL || !jo_same_path(fin, w))
		why = "is not where its name leads now (a link above it "
		      "changed): name it again";
	if (sd != NULL)
		LocalFree(sd);
	free(fin);
	free(w);
	if (why != NULL) {
		CloseHandle(f);
		return jo_refuse(h, NS_E_REFUSED, "bad_scratch",
				 "--scratch %s %s", parent, why);
	}
	n = strlen(base);
	if (n > 0 && base[n - 1] != '\\')
		snprintf(base + n, cap - n, "\\");
	*held = f;
	return NS_OK;
}

/* Where the place goes: req->parent (NS_PLACE_PARENT, ABI 1.3), its
 * handle held in *held; else the temp directory (*base ""). */
static int
place_base(const struct ns_host *h, const struct ns_place_req *req,
	   char *base, size_t cap, HANDLE *held)
{
	base[0] = '\0';
	*held = INVALID_HANDLE_VALUE;
	if (!NS_PLACE_REQ_HAS_PARENT(req) || req->parent == NULL)
		return NS_OK;
	return open_parent(h, req->parent, base, cap, held);
}

/* What the place keeps: the remedy of a LEAK, and its base. */
static int
place_fill(const struct ns_host *h, const struct ns_place_req *req,
	   const char *base, struct ns_place *out)
{
	struct jo_pstate *st;

	snprintf(out->id, sizeof(out->id), "nova-%s", req->name);
	snprintf(out->remedy, sizeof(out->remedy), "nova-sandbox reap");
	out->hidden[0] = '\0';
	out->state = NULL;
	if (base[0] == '\0')
		return NS_OK;
	/* reap looks only in the temp directory: the remedy names it */
	if (jo_leak_remedy(out->root, out->remedy, sizeof(out->remedy)) != 0)
		snprintf(out->remedy, sizeof(out->remedy), "rmdir /s /q <%s>",
			 out->id);
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "out of memory");
	snprintf(st->base, sizeof(st->base), "%s", base);
	out->state = st;
	return NS_OK;
}

static int
jo_create(const struct ns_host *h, const struct ns_place_req *req,
	  struct ns_place *out)
{
	char base[JO_PATH];
	wchar_t *w = NULL;
	HANDLE held;
	int rc, tries;
	DWORD e;

	rc = place_base(h, req, base, sizeof(base), &held);
	if (rc == NS_OK)
		rc = root_of(h, req->name, base[0] ? base : NULL, out->root,
			     sizeof(out->root));
	if (rc == NS_OK && (w = jo_wpath(out->root)) == NULL)
		rc = jo_refuse(h, NS_E_REFUSED, "volume_failed",
			       "%s is not a path Windows can name", out->root);
	if (rc == NS_OK && !CreateDirectoryW(w, NULL)) { /* exclusive */
		e = GetLastError();
		rc = e == ERROR_ALREADY_EXISTS ?
			jo_refuse(h, NS_E_REFUSED, "volume_exists",
				  "%s already exists; another run has the "
				  "name, or %s clears a dead one", out->root,
				  base[0] ? "its owner" : "`nova-sandbox reap`") :
			jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				  "%s cannot be made (error %lu)", out->root, e);
	}
	if (held != INVALID_HANDLE_VALUE)
		CloseHandle(held);
	if (rc == NS_OK && (write_marker(w) != 0 || sub_dirs(w) != 0)) {
		e = GetLastError();
		delete_scratch(out->root, &tries);
		rc = jo_refuse(h, NS_E_SYSTEM, "volume_failed",
			       "%s cannot be filled (error %lu); removed",
			       out->root, e);
	}
	free(w);
	if (rc == NS_OK && (rc = place_fill(h, req, base, out)) != NS_OK)
		delete_scratch(out->root, &tries);
	return rc;
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
	wchar_t *w = wbuf();

	if (w == NULL || long_path(place->root, w, JO_WPATH) != 0) {
		free(w);
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a path Windows can name",
				 place->root);
	}
	*bytes = tree_bytes(w, wlen(w), JO_WPATH);
	free(w);
	return NS_OK;
}

/* ---- destroy --------------------------------------------------------------- */

/* A place must still be a "nova-" directory with our marker directly in
 * the directory it was made in: the temp directory for a place from
 * list() (reap), or its --scratch (the place's own state).  Never delete
 * a path a line merely named. */
static int
is_ours(const struct ns_host *h, const struct ns_place *place)
{
	const struct jo_pstate *st = place->state;
	const char *root = place->root;
	char base[JO_PATH];
	size_t bl;
	wchar_t w[JO_WPATH / 4];
	DWORD a;

	if (st != NULL)
		snprintf(base, sizeof(base), "%s", st->base);
	else if (temp_base(h, base, sizeof(base)) != NS_OK)
		return 0;
	bl = strlen(base);
	if (strncmp(root, base, bl) != 0 || strncmp(root + bl, "nova-", 5) ||
	    strpbrk(root + bl, "\\/") != NULL ||
	    jo_scratch_name_ok(root + bl + 5) != 0)
		return 0;
	if (long_path(root, w, JO_WPATH / 4 - 24) != 0)
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

	if (!is_ours(h, place))
		return jo_refuse(h, NS_E_REFUSED, "volume_failed",
				 "%s is not a scratch of nova-sandbox (no "
				 "owner marker, a link, or outside the "
				 "directory it was made in); left alone",
				 place->root);
	e = delete_scratch(place->root, &tries);
	if (e != 0)
		return jo_refuse(h, NS_E_SYSTEM, "volume_failed",
				 "%s could not be removed after %d tries "
				 "(error %lu%s)", place->root, tries, e,
				 retryable(e) ? ": a file in it is still open"
					      : "");
	free(place->state);
	place->state = NULL;
	return NS_OK;
}

/* ---- list / proc_start ------------------------------------------------------- */

static void
list_one(const struct ns_host *h, const char *base, const wchar_t *wname)
{
	char name[128], root[JO_PATH], line[JO_PATH * 2 + 128], text[64];
	char owner[16] = "-", start[24] = "-";
	wchar_t m[JO_WPATH / 4];
	HANDLE f;
	DWORD got = 0;
	uint32_t pid;
	uint64_t st;

	if (nk_utf8(wname, name, sizeof(name)) != 0 ||
	    jo_scratch_name_ok(name + 5) != 0)
		return;
	snprintf(root, sizeof(root), "%s%s", base, name);
	if (long_path(root, m, JO_WPATH / 4 - 24) != 0)
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
	wchar_t w[JO_WPATH / 4];
	WIN32_FIND_DATAW fd;
	HANDLE f;
	int rc = temp_base(h, base, sizeof(base));

	if (rc != NS_OK)
		return rc;
	if (long_path(base, w, JO_WPATH / 4 - 8) != 0)
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

const struct ns_place_ops jo_place_ops =
	NK_PLACE_OPS(jo_look, jo_create, jo_used, jo_destroy, jo_list,
		     .proc_start = jo_proc_start_op,
		     .features = NS_PLACE_PARENT);
