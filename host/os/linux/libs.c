/* SPDX-License-Identifier: MIT */
/* libs.c -- the shared libraries mapped into this process (os/os.h
 * os_loaded_libs): dl_iterate_phdr's absolute names, /proc's left out. */
#include "os/os.h"

#include <link.h>
#include <string.h>

struct libs_arg {
	int (*fn)(void *arg, const char *path);
	void *arg;
};

static int
lib_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	const struct libs_arg *a = data;

	(void)size;
	if (info->dlpi_name == NULL || info->dlpi_name[0] != '/' ||
	    strncmp(info->dlpi_name, "/proc/", 6) == 0)
		return 0;
	return a->fn(a->arg, info->dlpi_name);
}

int
os_loaded_libs(int (*fn)(void *arg, const char *path), void *arg)
{
	struct libs_arg a = {fn, arg};

	return dl_iterate_phdr(lib_cb, &a);
}
