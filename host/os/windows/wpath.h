/* SPDX-License-Identifier: MIT */
/* wpath.h -- the Windows layer's path helpers (host/os/windows/ only).
 * The host speaks UTF-8 with '/' (Windows takes both separators); the
 * Win32 calls take UTF-16 with '\\'. */
#ifndef NS_HOST_OS_WINDOWS_WPATH_H
#define NS_HOST_OS_WINDOWS_WPATH_H

#include <windows.h>
#include <stdint.h>

#define WP_MAX 32768 /* UTF-16 units of the longest path */
/* The longest path (UTF-16 units with the NUL) every Win32 call takes in
 * its plain form: MAX_PATH less the 12 CreateDirectoryW keeps for an 8.3
 * name.  A longer one goes as its "\\\\?\\" form. */
#define WP_PLAIN_MAX (MAX_PATH - 12)

/* path (UTF-8, either separator) as UTF-16 with '\\'; heap or NULL.  An
 * absolute drive or UNC path longer than WP_PLAIN_MAX comes back in its
 * "\\\\?\\" ("\\\\?\\UNC\\") form, normalised (wp_long_form), so that the
 * Win32 calls take it. */
wchar_t *wp_wide(const char *path);
/* The "\\\\?\\" or "\\\\?\\UNC\\" form of the absolute drive or UNC path
 * w: GetFullPathNameW's normalisation (separators as '\\', "." and ".."
 * resolved by name, as Win32 resolves a plain path, trailing dots and
 * spaces dropped) with the prefix, which turns every later rewriting and
 * the MAX_PATH limit off.  Heap; NULL for anything else (a relative path,
 * a device such as "C:\\x\\nul") or when it cannot be made. */
wchar_t *wp_long_form(const wchar_t *w);
/* A UTF-16 path as UTF-8 with '/', the "\\\\?\\" (or "\\\\?\\UNC\\")
 * prefix of a final path dropped; heap or NULL. */
char *wp_utf8(const wchar_t *w);
/* The final path of an open handle (links resolved), UTF-16 with its
 * "\\\\?\\" prefix, however long (where GetFinalPathNameByHandleW stops
 * short, Wine's, the object's "\\??\\" name); heap or NULL. */
wchar_t *wp_final(HANDLE h);

/* The owner of h as the walk's uid and whether another SID may change it
 * (trust.c; os/os.h struct os_stat).  0, or -1 unreadable. */
int ws_security(HANDLE h, int is_dir, uint32_t *uid, int *others_write);

#endif
