/* SPDX-License-Identifier: MIT */
/* nk_utf16.h -- the module kit's UTF-8 <-> UTF-16 conversions for Win32
 * (modules/common/: static, hidden, not part of the ABI).  The host keeps
 * its own (host/os/windows/wpath.c): it never links module code. */
#ifndef NS_NK_UTF16_H
#define NS_NK_UTF16_H

#include <stddef.h>
#include <wchar.h>

/* UTF-8 -> UTF-16 into a buffer of cap units, and the reverse into cap
 * bytes; 0, or -1 when it does not fit or is not valid UTF-8 (UTF-16). */
int nk_wide(const char *s, wchar_t *out, size_t cap);
int nk_utf8(const wchar_t *s, char *out, size_t cap);

/* UTF-8 -> UTF-16 on the heap; NULL when it is not UTF-8, longer than
 * max units (the NUL included), or memory ran out. */
wchar_t *nk_wide_alloc(const char *s, size_t max);

#endif
