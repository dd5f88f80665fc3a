/* SPDX-License-Identifier: MIT */
/* jobobject.c -- jobobject.dll: the descriptor, the optional Win32 entry
 * points (GetProcAddress, never a static import: a missing export must be
 * a clean refusal, not a failed load or Wine's abort), and small helpers.
 * The wall is jo_wall.c, the place (the scratch) jo_place.c. */
/* It needs a 1.2 host (wait, terminate, the caps); what 1.3 added (the
 * CPU cap, --acl, --scratch's directory) is found by struct_size and sent
 * only by a host that knows it, so a 1.2 host loads it too. */
#define NS_MODULE_REQUIRES_MINOR 2

#include <winternl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "banned.h"
#include "jo_win.h"
#include "common/nk_module.h"

NK_DESCRIPTOR(NS_ROLE_WALL | NS_ROLE_PLACE, "jobobject",
	      "Windows: a Job Object and a low-integrity restricted "
	      "token, with a per-run scratch directory as one unit",
	      NK_NO_OPTIONS, .wall = &jo_wall_ops, .place = &jo_place_ops);

#define RESOLVE(dll, fn)                                                    \
	do {                                                                \
		FARPROC p_ = dll ? GetProcAddress(dll, #fn) : NULL;         \
		if (p_ == NULL && a.missing == NULL)                        \
			a.missing = #fn;                                    \
		memcpy(&a.fn, &p_, sizeof(p_));                             \
	} while (0)

const struct jo_api *
jo_api(void)
{
	static struct jo_api a;
	static int done;
	HMODULE adv, k32, nt;

	if (done)
		return &a;
	/* both are loaded in every Win32 process; no LoadLibrary here */
	adv = GetModuleHandleW(L"advapi32.dll");
	k32 = GetModuleHandleW(L"kernel32.dll");
	nt = GetModuleHandleW(L"ntdll.dll");
	RESOLVE(adv, CreateRestrictedToken);
	RESOLVE(adv, CreateProcessAsUserW);
	RESOLVE(k32, InitializeProcThreadAttributeList);
	RESOLVE(k32, UpdateProcThreadAttribute);
	RESOLVE(k32, DeleteProcThreadAttributeList);
	if (nt != NULL) {
		FARPROC w = GetProcAddress(nt, "wine_get_version");
		const char *(*ver)(void);

		memcpy(&ver, &w, sizeof(w));
		a.wine = ver != NULL ? ver() : NULL;
	}
	done = 1;
	return &a;
}

/* ---- paths ----------------------------------------------------------- */

static int
drive_or_unc(const wchar_t *w)
{
	if (((w[0] >= L'A' && w[0] <= L'Z') || (w[0] >= L'a' && w[0] <= L'z')) &&
	    w[1] == L':' && w[2] == L'\\')
		return 1;
	return w[0] == L'\\' && w[1] == L'\\' && w[2] != L'?' && w[2] != L'.' &&
	       w[2] != L'\0';
}

/* path as UTF-16 with '\\', heap */
static wchar_t *
wide_of(const char *path)
{
	wchar_t *w = nk_wide_alloc(path, JO_WMAX);

	for (wchar_t *p = w; p != NULL && *p; p++)
		if (*p == L'/')
			*p = L'\\';
	return w;
}

/* GetFullPathNameW of w when it is a drive or UNC path: heap, plain. */
static wchar_t *
full_of(const wchar_t *w)
{
	DWORD n, k;
	wchar_t *f;

	if (!drive_or_unc(w))
		return NULL;
	n = GetFullPathNameW(w, 0, NULL, NULL);
	if (n == 0 || n > JO_WMAX || (f = malloc(n * sizeof(wchar_t))) == NULL)
		return NULL;
	k = GetFullPathNameW(w, n, f, NULL);
	if (k == 0 || k >= n || !drive_or_unc(f)) {
		free(f);
		return NULL;
	}
	return f;
}

wchar_t *
jo_wpath(const char *path)
{
	wchar_t *w = wide_of(path), *f, *out;
	size_t k;

	if (w == NULL || wcsncmp(w, L"\\\\?\\", 4) == 0 ||
	    (f = full_of(w)) == NULL)
		return w;
	free(w);
	k = wcslen(f);
	out = malloc((k + 8) * sizeof(wchar_t));
	if (out != NULL && f[0] == L'\\') {
		wcscpy(out, L"\\\\?\\UNC"); /* \\srv\sh -> \\?\UNC\srv\sh */
		wcscat(out, f + 1);
	} else if (out != NULL) {
		wcscpy(out, L"\\\\?\\");
		wcscat(out, f);
	}
	free(f);
	return out;
}

int
jo_upath(const char *path, char *out, size_t cap)
{
	wchar_t *w = wide_of(path), *f = w ? full_of(w) : NULL;
	int rc = f != NULL ? nk_utf8(f, out, cap) :
		 w != NULL ? nk_utf8(w, out, cap) : -1;

	free(w);
	free(f);
	return rc;
}

/* The 8.3 short name of the long path lf, plain (no prefix), heap. */
static wchar_t *
short_of(const wchar_t *lf, DWORD *err)
{
	DWORD n = GetShortPathNameW(lf, NULL, 0);
	wchar_t *s = n > 0 && n <= JO_WMAX ? malloc(n * sizeof(wchar_t)) : NULL;
	wchar_t *p;

	if (s == NULL || GetShortPathNameW(lf, s, n) == 0) {
		*err = n == 0 ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
		free(s);
		return NULL;
	}
	p = wcsncmp(s, L"\\\\?\\UNC\\", 8) == 0 ? s + 6 :
	    wcsncmp(s, L"\\\\?\\", 4) == 0 ? s + 4 : s;
	if (p == s + 6)
		*p = L'\\'; /* \\?\UNC\srv -> \\srv */
	memmove(s, p, (wcslen(p) + 1) * sizeof(wchar_t));
	return s;
}

wchar_t *
jo_plain(const char *path, DWORD *err)
{
	wchar_t *w = wide_of(path), *f = w ? full_of(w) : NULL, *lf, *s;

	free(w);
	if (f == NULL) {
		*err = ERROR_INVALID_NAME;
		return NULL;
	}
	if (wcslen(f) < MAX_PATH)
		return f;
	free(f);
	lf = jo_wpath(path);
	*err = ERROR_NOT_ENOUGH_MEMORY;
	s = lf != NULL ? short_of(lf, err) : NULL;
	free(lf);
	if (s != NULL && wcslen(s) >= MAX_PATH) {
		free(s);
		*err = ERROR_FILENAME_EXCED_RANGE;
		return NULL;
	}
	return s;
}

typedef NTSTATUS(NTAPI *query_object_fn)(HANDLE, OBJECT_INFORMATION_CLASS,
					 PVOID, ULONG, PULONG);

/* The object's "\\??\\C:\\..." name as "\\\\?\\C:\\..." (Wine); NULL for
 * any other form (Windows' "\\Device\\...", never needed there). */
static wchar_t *
object_name(HANDLE h)
{
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");
	FARPROC p = nt ? GetProcAddress(nt, "NtQueryObject") : NULL;
	ULONG cap = (JO_WMAX + 64) * sizeof(wchar_t), got = 0;
	OBJECT_NAME_INFORMATION *oni;
	query_object_fn q;
	wchar_t *w = NULL;
	size_t n;

	if (p == NULL || (oni = malloc(sizeof(*oni) + cap)) == NULL)
		return NULL;
	memcpy(&q, &p, sizeof(q));
	if (q(h, (OBJECT_INFORMATION_CLASS)1 /* ObjectNameInformation */, oni,
	      (ULONG)(sizeof(*oni) + cap), &got) >= 0 &&
	    oni->Name.Buffer != NULL) {
		n = oni->Name.Length / sizeof(wchar_t);
		if (n > 4 && n < JO_WMAX &&
		    wcsncmp(oni->Name.Buffer, L"\\??\\", 4) == 0 &&
		    (w = malloc((n + 1) * sizeof(wchar_t))) != NULL) {
			memcpy(w, oni->Name.Buffer, n * sizeof(wchar_t));
			w[n] = L'\0';
			w[1] = L'\\';
		}
	}
	free(oni);
	return w;
}

wchar_t *
jo_final(HANDLE h)
{
	DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, VOLUME_NAME_DOS);
	wchar_t *w;

	if (n == 0 && GetLastError() == ERROR_MORE_DATA)
		return object_name(h);
	if (n == 0 || n > JO_WMAX ||
	    (w = malloc((n + 1) * sizeof(wchar_t))) == NULL)
		return NULL;
	n = GetFinalPathNameByHandleW(h, w, n + 1, VOLUME_NAME_DOS);
	if (n == 0 || n > JO_WMAX) {
		free(w);
		return n == 0 && GetLastError() == ERROR_MORE_DATA ?
			       object_name(h) : NULL;
	}
	return w;
}

int
jo_same_path(const wchar_t *a, const wchar_t *b)
{
	if (wcsncmp(a, L"\\\\?\\", 4) == 0)
		a += 4;
	if (wcsncmp(b, L"\\\\?\\", 4) == 0)
		b += 4;
	return CompareStringOrdinal(a, -1, b, -1, TRUE) == CSTR_EQUAL;
}

/* ---- lines ----------------------------------------------------------- */

uint64_t
jo_proc_start(HANDLE proc)
{
	FILETIME c, e, k, u;

	if (!GetProcessTimes(proc, &c, &e, &k, &u))
		return 0;
	return ((uint64_t)c.dwHighDateTime << 32) | c.dwLowDateTime;
}
