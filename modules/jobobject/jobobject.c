/* SPDX-License-Identifier: MIT */
/* jobobject.c -- jobobject.dll: the descriptor, the optional Win32 entry
 * points (GetProcAddress, never a static import: a missing export must be
 * a clean refusal, not a failed load or Wine's abort), and small helpers.
 * The wall is jo_wall.c, the place (the scratch) jo_place.c. */
#include <stdarg.h>
#include <stdio.h>

#include "banned.h"
#include "jo_win.h"

static const char *const jo_options[] = { NULL };

NS_BACKEND_DEFINE = {
	NS_BACKEND_HEADER,
	.roles = NS_ROLE_WALL | NS_ROLE_PLACE,
	.name = "jobobject",
	.version = "0.1.0",
	.summary = "Windows: a Job Object and a low-integrity restricted "
		   "token, with a per-run scratch directory as one unit",
	.options = jo_options,
	.wall = &jo_wall_ops,
	.place = &jo_place_ops,
};

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

int
jo_wide(const char *s, wchar_t *out, size_t cap)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, out,
				    (int)cap);

	return n > 0 ? 0 : -1;
}

int
jo_utf8(const wchar_t *s, char *out, size_t cap)
{
	int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, s, -1, out,
				    (int)cap, NULL, NULL);

	return n > 0 ? 0 : -1;
}

int
jo_refuse(const struct ns_host *h, int st, const char *reason,
	  const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	h->refuse(h->cookie, reason, buf);
	return st;
}

void
jo_note(const struct ns_host *h, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	h->note(h->cookie, buf);
}

uint64_t
jo_proc_start(HANDLE proc)
{
	FILETIME c, e, k, u;

	if (!GetProcessTimes(proc, &c, &e, &k, &u))
		return 0;
	return ((uint64_t)c.dwHighDateTime << 32) | c.dwLowDateTime;
}
