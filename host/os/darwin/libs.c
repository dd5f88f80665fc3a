/* SPDX-License-Identifier: MIT */
/* libs.c -- the images dyld has mapped into this process (os/os.h
 * os_loaded_libs), by their absolute names.  Plain macOS C, not compiled
 * on Linux (docs/ARCHITECTURE.md "os/darwin"). */
#include "os/os.h"

#include <mach-o/dyld.h>
#include <stdint.h>

int
os_loaded_libs(int (*fn)(void *arg, const char *path), void *arg)
{
	uint32_t n = _dyld_image_count();

	for (uint32_t i = 0; i < n; i++) {
		const char *name = _dyld_get_image_name(i);
		int rc;

		if (name == NULL || name[0] != '/')
			continue;
		if ((rc = fn(arg, name)) != 0)
			return rc;
	}
	return 0;
}
