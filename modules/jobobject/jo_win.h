/* SPDX-License-Identifier: MIT */
/* jo_win.h -- what jobobject.dll's Win32 files share (not portable: the
 * portable logic is jo_core.h). */
#ifndef NS_JO_WIN_H
#define NS_JO_WIN_H

#include <windows.h>

#include "jo_core.h"
#include "common/nk_say.h"
#include "common/nk_utf16.h"
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

#define JO_WMAX 32768 /* UTF-16 units of the longest Windows path */

/* A path the host gave (UTF-8, '/' or '\\') for the Win32 calls: an
 * absolute drive or UNC path in its "\\\\?\\" ("\\\\?\\UNC\\") form,
 * normalised by GetFullPathNameW ('\\', "." and ".." resolved by name, as
 * Win32 resolves a plain path), so that no length limit or later
 * rewriting applies; anything else (a device) as it is with '\\'.  Heap;
 * NULL when it is not UTF-8 or memory ran out. */
wchar_t *jo_wpath(const char *path);
/* The same, UTF-8 with '\\' and no prefix (the host's spelling of a
 * place root, for lines): into out; -1 when it does not fit. */
int jo_upath(const char *path, char *out, size_t cap);
/* The plain form of path for what takes no "\\\\?\\" form
 * (CreateProcessW's program and working directory): the normalised path
 * when it is shorter than MAX_PATH, else its 8.3 short name when that is.
 * Heap; NULL when neither fits (*err the Win32 error, or
 * ERROR_FILENAME_EXCED_RANGE). */
wchar_t *jo_plain(const char *path, DWORD *err);
/* The final path of an open handle, "\\\\?\\" form, however long (Wine's
 * GetFinalPathNameByHandleW stops at MAX_PATH: then the object's "\\??\\"
 * name).  Heap or NULL. */
wchar_t *jo_final(HANDLE h);
/* 1 when the two paths name the same place, compared case-insensitively
 * with their "\\\\?\\" prefixes dropped. */
int jo_same_path(const wchar_t *a, const wchar_t *b);

/* host->refuse with a format, returning st; host->note likewise
 * (modules/common/nk_say.h) */
#define jo_refuse(h, st, reason, ...) \
	nk_say((h), (st), (reason), __VA_ARGS__)
#define jo_note(h, ...) ((void)nk_say((h), 0, NULL, __VA_ARGS__))

/* The creation time of a process as FILETIME 100 ns units, 0 if unknown. */
uint64_t jo_proc_start(HANDLE proc);

/* jo_cmd.c: the command checked and its line quoted (*cmdline, heap);
 * the environment block of exactly pol->envp (*out, heap); NS_OK or a
 * refusal said through the host */
int jo_check_command(const struct ns_host *h, const struct ns_policy *pol,
		     wchar_t **cmdline);
int jo_make_env(const struct ns_host *h, const struct ns_policy *pol,
		wchar_t **out);

extern const struct ns_wall_ops jo_wall_ops;
extern const struct ns_place_ops jo_place_ops;

#endif /* NS_JO_WIN_H */
