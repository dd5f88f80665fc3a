/* SPDX-License-Identifier: MIT */
/* modfile.c -- a module file on darwin: a Mach-O dylib for this machine
 * (a thin file of another CPU is refused on the descriptor; a universal
 * file is left to dyld, which picks its slice), loaded with dlopen.
 *
 * dyld cannot load from a descriptor (there is no /proc/self/fd), so the
 * file is loaded by the name F_GETPATH gives the checked descriptor, and
 * the loaded image is then compared with that descriptor (device and
 * inode of the file dyld mapped, through dladdr of the entry symbol):
 * a file swapped in between is refused, never used.  The directories
 * above it passed os_trust_fd, so only their owner or root could swap it.
 * Written without a Mac, not yet compiled there. */
#include "os/os.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#define MH_MAGIC_64_LE 0xfeedfacfu
#define CPU_X86_64 0x01000007u
#define CPU_ARM64 0x0100000cu
#if defined(__x86_64__)
#define HOST_CPU CPU_X86_64
#elif defined(__aarch64__) || defined(__arm64__)
#define HOST_CPU CPU_ARM64
#endif

static const char *
cpu_name(uint32_t cpu)
{
	return cpu == CPU_X86_64 ? "x86_64" : cpu == CPU_ARM64 ? "arm64" : NULL;
}

int
os_module_machine(int fd, char **why)
{
	uint32_t h[2];

	*why = NULL;
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h[0] != MH_MAGIC_64_LE)
		return 0; /* not a thin 64-bit Mach-O: dyld judges */
#ifdef HOST_CPU
	if (h[1] != HOST_CPU) {
		const char *n = cpu_name(h[1]);

		*why = n ? str_fmt("not a module for this machine (Mach-O %s, "
				   "this machine %s)", n, cpu_name(HOST_CPU))
			 : str_fmt("not a module for this machine (Mach-O cpu "
				   "%u, this machine %s)", (unsigned)h[1],
				   cpu_name(HOST_CPU));
		return -1;
	}
#endif
	return 0;
}

void *
os_module_open(int fd, const char *path, char **why)
{
	char name[PATH_MAX];
	struct stat want, got;
	Dl_info info;
	void *dl, *sym;

	*why = NULL;
	if (fstat(fd, &want) != 0 || fcntl(fd, F_GETPATH, name) == -1) {
		*why = str_fmt("%s: cannot name the checked file", path);
		return NULL;
	}
	dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (dl == NULL) {
		const char *e = dlerror();

		*why = str_fmt("%s", e ? e : "dlopen failed");
		return NULL;
	}
	sym = dlsym(dl, "ns_backend_v1");
	if (sym != NULL && (dladdr(sym, &info) == 0 || info.dli_fname == NULL ||
			    stat(info.dli_fname, &got) != 0 ||
			    got.st_dev != want.st_dev ||
			    got.st_ino != want.st_ino)) {
		dlclose(dl);
		*why = str_fmt("%s changed between its check and its load",
			       path);
		return NULL;
	}
	return dl;
}

void *
os_module_sym(void *dl, const char *name)
{
	return dlsym(dl, name);
}

void
os_module_close(void *dl)
{
	dlclose(dl);
}
