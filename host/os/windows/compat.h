/* SPDX-License-Identifier: MIT */
/* compat.h -- the POSIX types the host's rooms name that mingw-w64 does
 * not define, forced into every Windows object of the host (the
 * Makefile's -include): types only, never a flag or a function that would
 * pretend a POSIX behaviour Windows does not have. */
#ifndef NS_HOST_OS_WINDOWS_COMPAT_H
#define NS_HOST_OS_WINDOWS_COMPAT_H

#include <sys/types.h>

typedef unsigned int uid_t;
typedef unsigned int gid_t;

#endif
