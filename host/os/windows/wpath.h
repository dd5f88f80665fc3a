/* SPDX-License-Identifier: MIT */
/* wpath.h -- the Windows layer's path helpers (host/os/windows/ only).
 * The host speaks UTF-8 with '/' (Windows takes both separators); the
 * Win32 calls take UTF-16 with '\\'. */
#ifndef NS_HOST_OS_WINDOWS_WPATH_H
#define NS_HOST_OS_WINDOWS_WPATH_H

#include <windows.h>
#include <stdint.h>

#define WP_MAX 32768 /* UTF-16 units of the longest path */

/* path (UTF-8, either separator) as UTF-16 with '\\'; heap or NULL. */
wchar_t *wp_wide(const char *path);
/* A UTF-16 path as UTF-8 with '/', the "\\\\?\\" (or "\\\\?\\UNC\\")
 * prefix of a final path dropped; heap or NULL. */
char *wp_utf8(const wchar_t *w);
/* The final path of an open handle (links resolved), UTF-16 with its
 * "\\\\?\\" prefix; heap or NULL. */
wchar_t *wp_final(HANDLE h);

/* The owner of h as the walk's uid and whether another SID may change it
 * (trust.c; os/os.h struct os_stat).  0, or -1 unreadable. */
int ws_security(HANDLE h, int is_dir, uint32_t *uid, int *others_write);

#endif
