/* SPDX-License-Identifier: MIT */
/* jo_win.h -- what jobobject.dll's Win32 files share (not portable: the
 * portable logic is jo_core.h). */
#ifndef NS_JO_WIN_H
#define NS_JO_WIN_H

#include <windows.h>

#include "jo_core.h"
#include "ns_backend.h"

#define JO_PATH 512 /* UTF-8 bytes of a path the module keeps */

/* Optional Win32 entry points, resolved with GetProcAddress: absent means
 * the wall is unavailable (facts says which), never a weaker wall. */
struct jo_api {
	BOOL(WINAPI *CreateRestrictedToken)(HANDLE, DWORD, DWORD,
					    PSID_AND_ATTRIBUTES, DWORD,
					    PLUID_AND_ATTRIBUTES, DWORD,
					    PSID_AND_ATTRIBUTES, PHANDLE);
	BOOL(WINAPI *CreateProcessAsUserW)(HANDLE, LPCWSTR, LPWSTR,
					   LPSECURITY_ATTRIBUTES,
					   LPSECURITY_ATTRIBUTES, BOOL, DWORD,
					   LPVOID, LPCWSTR, LPSTARTUPINFOW,
					   LPPROCESS_INFORMATION);
	BOOL(WINAPI *InitializeProcThreadAttributeList)(
		LPPROC_THREAD_ATTRIBUTE_LIST, DWORD, DWORD, PSIZE_T);
	BOOL(WINAPI *UpdateProcThreadAttribute)(LPPROC_THREAD_ATTRIBUTE_LIST,
						DWORD, DWORD_PTR, PVOID, SIZE_T,
						PVOID, PSIZE_T);
	VOID(WINAPI *DeleteProcThreadAttributeList)(
		LPPROC_THREAD_ATTRIBUTE_LIST);
	const char *missing; /* the first one absent, or NULL */
	const char *wine;    /* wine_get_version() under Wine, else NULL */
};
const struct jo_api *jo_api(void);

/* UTF-8 -> UTF-16 into a buffer of cap units; -1 when it does not fit or
 * is not UTF-8.  The reverse likewise. */
int jo_wide(const char *s, wchar_t *out, size_t cap);
int jo_utf8(const wchar_t *s, char *out, size_t cap);

/* host->refuse with a format; returns st. */
int jo_refuse(const struct ns_host *h, int st, const char *reason,
	      const char *fmt, ...) __attribute__((format(gnu_printf, 4, 5)));
void jo_note(const struct ns_host *h, const char *fmt, ...)
	__attribute__((format(gnu_printf, 2, 3)));

/* The creation time of a process as FILETIME 100 ns units, 0 if unknown. */
uint64_t jo_proc_start(HANDLE proc);

extern const struct ns_wall_ops jo_wall_ops;
extern const struct ns_place_ops jo_place_ops;

#endif /* NS_JO_WIN_H */
