/* SPDX-License-Identifier: MIT */
/* linux.h -- the linux layer's own pure parsers (os/linux/procs.c), for
 * its unit tests (tests/unit/test_linux_procs.c): only inside os/linux/
 * and the tests. */
#ifndef NS_OS_LINUX_H
#define NS_OS_LINUX_H

#include "os/os.h"

struct sysinfo; /* <sys/sysinfo.h> */

/* One /proc/<pid>/stat text; the resident pages are multiplied by page.
 * 0, or -1 when it is not one. */
int linux_parse_stat(const char *text, unsigned long long page,
		     struct os_proc *p);
/* The system task total: /proc/loadavg's 4th field's denominator. */
int linux_parse_loadavg(const char *text, unsigned long long *tasks);
/* sysinfo(2)'s shared RAM (what /proc/meminfo calls Shmem) in bytes;
 * 0, or -1 when it does not fit. */
int linux_sysinfo_shmem(const struct sysinfo *si, unsigned long long *bytes);
/* sysinfo(2)'s task total (/proc/loadavg's denominator); 0, or -1 when
 * its 16-bit field may have wrapped (then /proc/loadavg must answer). */
int linux_sysinfo_tasks(const struct sysinfo *si, unsigned long long *tasks);

#endif
