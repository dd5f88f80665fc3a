/* SPDX-License-Identifier: MIT */
/* modfile.c -- a module file on darwin: a Mach-O dylib for this machine
 * (a thin file of another CPU is refused on the descriptor; a universal
 * file is left to dyld, which picks its slice), loaded with dlopen.
 *
 * dyld cannot load from a descriptor (there is no /proc/self/fd), and a
 * file written in place after dyld mapped it would change the code this
 * process runs.  So the checked descriptor's bytes are copied (refused
 * when the file changed while copied) to a file of its own in a new
 * 0700 directory in the user's temporary directory (confstr
 * _CS_DARWIN_USER_TEMP_DIR), that copy is loaded by name, the loaded
 * image is compared with it (device and inode of the file dyld mapped,
 * through dladdr of the entry symbol), and the copy and its directory are
 * removed: nothing but this process holds what it runs.
 * Written without a Mac, not yet compiled there. */
#include "os/os.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "os/posix/posix.h"

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

/* A new directory only this user can enter, in its temporary directory:
 * its name into dir (n bytes), 0, or -1 with errno. */
static int
private_dir(char *dir, size_t n)
{
	char tmp[PATH_MAX];
	size_t k = confstr(_CS_DARWIN_USER_TEMP_DIR, tmp, sizeof(tmp));
	int w;

	if (k == 0)
		return -1;
	w = k <= sizeof(tmp) ? snprintf(dir, n, "%s/nova-module.XXXXXX", tmp)
			     : -1;
	if (w < 0 || (size_t)w >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdtemp(dir) != NULL ? 0 : -1;
}

/* Load the copy at name, which must be the file want describes. */
static void *
load_copy(const char *name, const struct stat *want, const char *path,
	  char **why)
{
	struct stat got;
	Dl_info info;
	void *dl = dlopen(name, RTLD_NOW | RTLD_LOCAL), *sym;

	if (dl == NULL) {
		const char *e = dlerror();

		*why = str_fmt("%s: %s", path, e ? e : "dlopen failed");
		return NULL;
	}
	sym = dlsym(dl, "ns_backend_v1");
	if (sym != NULL && (dladdr(sym, &info) == 0 || info.dli_fname == NULL ||
			    stat(info.dli_fname, &got) != 0 ||
			    got.st_dev != want->st_dev ||
			    got.st_ino != want->st_ino)) {
		dlclose(dl);
		*why = str_fmt("%s: dyld loaded another file than its private "
			       "copy", path);
		return NULL;
	}
	return dl;
}

void *
os_module_open(int fd, const char *path, char **why)
{
	char dir[PATH_MAX], name[PATH_MAX];
	struct stat want;
	void *dl = NULL;
	int copy = -1;

	*why = NULL;
	if (private_dir(dir, sizeof(dir)) != 0) {
		*why = str_fmt("cannot make a private directory to load %s "
			       "from: %s", path, strerror(errno));
		return NULL;
	}
	errno = ENAMETOOLONG;
	if ((size_t)snprintf(name, sizeof(name), "%s/module.dylib", dir) <
	    sizeof(name))
		copy = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0500);
	if (copy < 0)
		*why = str_fmt("cannot make a private copy of %s to load: %s",
			       path, strerror(errno));
	else if (posix_module_copy(fd, copy, path, why) == 0) {
		if (fstat(copy, &want) == 0)
			dl = load_copy(name, &want, path, why);
		else
			*why = str_fmt("cannot stat the private copy of %s: %s",
				       path, strerror(errno));
	}
	if (copy >= 0) {
		close(copy);
		unlink(name);
	}
	rmdir(dir);
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
