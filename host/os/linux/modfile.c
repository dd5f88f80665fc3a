/* SPDX-License-Identifier: MIT */
/* modfile.c -- a module file on Linux: an ELF shared object for this
 * machine, loaded from a sealed private copy (a memfd) of the very
 * descriptor that was checked (see os/os.h): a module file written in
 * place later (cp over it) never reaches the pages this process runs. */
#include "os/os.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "os/posix/posix.h"

/* memfd_create's exec flags (Linux 6.3), for headers older than that */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* This machine as its modules' ELF headers must name it. */
#if defined(__x86_64__)
#define HOST_EM EM_X86_64
#elif defined(__aarch64__)
#define HOST_EM EM_AARCH64
#elif defined(__i386__)
#define HOST_EM EM_386
#elif defined(__arm__)
#define HOST_EM EM_ARM
#elif defined(__riscv)
#define HOST_EM EM_RISCV
#elif defined(__powerpc64__)
#define HOST_EM EM_PPC64
#elif defined(__powerpc__)
#define HOST_EM EM_PPC
#elif defined(__s390__)
#define HOST_EM EM_S390
#elif defined(__loongarch__)
#define HOST_EM EM_LOONGARCH
#elif defined(__mips__)
#define HOST_EM EM_MIPS
#endif
#define HOST_CLASS (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_DATA ELFDATA2MSB
#else
#define HOST_DATA ELFDATA2LSB
#endif

static const struct {
	unsigned em;
	const char *name;
} machines[] = {
	{ EM_386, "i386" },       { EM_X86_64, "x86-64" },
	{ EM_AARCH64, "aarch64" }, { EM_ARM, "arm" },
	{ EM_RISCV, "riscv" },     { EM_PPC64, "ppc64" },
	{ EM_PPC, "ppc" },         { EM_S390, "s390" },
	{ EM_MIPS, "mips" },       { EM_SPARCV9, "sparcv9" },
	{ EM_IA_64, "ia64" },      { EM_LOONGARCH, "loongarch" },
};

/* "aarch64", or the number when the table lacks it; extras " 32-bit" /
 * " big-endian" only where the two sides differ. */
static int
add_machine(struct sbuf *b, unsigned em, unsigned cls, unsigned data,
	    int say_cls, int say_data)
{
	const char *name = NULL;
	int rc = 0;

	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].em == em)
			name = machines[i].name;
	if (name != NULL)
		rc |= sbuf_add(b, name);
	else
		rc |= sbuf_addf(b, "%u", em);
	if (say_cls)
		rc |= sbuf_addf(b, " %s", cls == ELFCLASS64 ? "64-bit" :
				cls == ELFCLASS32 ? "32-bit" : "unknown-class");
	if (say_data)
		rc |= sbuf_addf(b, " %s", data == ELFDATA2LSB ? "little-endian"
				: data == ELFDATA2MSB ? "big-endian"
				: "unknown-byte-order");
	return rc;
}

/* An ELF file for another machine is refused here, on the descriptor:
 * glibc's dlopen said "No such file or directory" for it.  A file that is
 * not ELF at all is left to dlopen, which says so. */
int
os_module_machine(int fd, char **why)
{
	unsigned char h[EI_NIDENT + 4];
	unsigned cls, data, em;
	int d_cls, d_data, d_em, rc;
	struct sbuf b = { 0 };

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, ELFMAG, SELFMAG) != 0)
		return 0;
	cls = h[EI_CLASS];
	data = h[EI_DATA];
	/* e_type (2 bytes) then e_machine, in the file's byte order */
	em = data == ELFDATA2MSB ? (unsigned)h[EI_NIDENT + 2] << 8 |
				       h[EI_NIDENT + 3]
				 : (unsigned)h[EI_NIDENT + 3] << 8 |
				       h[EI_NIDENT + 2];
	d_cls = cls != HOST_CLASS;
	d_data = data != HOST_DATA;
#ifdef HOST_EM
	d_em = em != HOST_EM;
#else
	d_em = 0; /* a machine this table lacks: dlopen judges */
#endif
	if (!d_cls && !d_data && !d_em)
		return 0;
	rc = sbuf_add(&b, "not a module for this machine (ELF machine ");
	rc |= add_machine(&b, em, cls, data, d_cls, d_data);
	rc |= sbuf_add(&b, ", this machine ");
#ifdef HOST_EM
	rc |= add_machine(&b, HOST_EM, HOST_CLASS, HOST_DATA, d_cls, d_data);
#else
	rc |= sbuf_add(&b, "of another kind");
#endif
	rc |= sbuf_add(&b, ")");
	if (rc == 0)
		*why = sbuf_take(&b); /* else the caller says out of memory */
	sbuf_free(&b);
	return -1;
}

/* dlerror() names /proc/self/fd/N; say the real path instead. */
static char *
dl_why(const char *proc, const char *path)
{
	const char *e = dlerror();
	struct sbuf b = { 0 };
	size_t pl = strlen(proc);

	if (e == NULL)
		e = "dlopen failed";
	while (*e) {
		const char *hit = strstr(e, proc);
		size_t n = hit ? (size_t)(hit - e) : strlen(e);

		sbuf_addn(&b, e, n);
		e += n;
		if (hit) {
			sbuf_add(&b, path);
			e += pl;
		}
	}
	return sbuf_take(&b);
}

/* The anonymous file the copy goes to, sealable: said executable where
 * the kernel knows the flag (6.3 on), else as a kernel before it makes
 * one (EINVAL), else no-exec sealed where vm.memfd_noexec refuses an
 * executable one (EACCES): its pages are mapped for execution all the
 * same.  The descriptor, or -1 with errno. */
static int
copy_file(void)
{
	static const unsigned exec_flags[] = { MFD_EXEC, 0, MFD_NOEXEC_SEAL };
	int fd = -1;

	for (size_t i = 0; i < sizeof(exec_flags) / sizeof(*exec_flags);
	     i++) {
		fd = memfd_create("nova-sandbox-module", MFD_CLOEXEC |
				  MFD_ALLOW_SEALING | exec_flags[i]);
		if (fd >= 0 || (errno != EINVAL && errno != EACCES))
			break;
	}
	return fd;
}

/* A copy of the module open on fd that nothing can change: the checked
 * bytes (unchanged while copied), then sealed against writes, growing
 * and shrinking, and against new seals.  The descriptor, or -1 with
 * *why. */
static int
private_copy(int fd, const char *path, char **why)
{
	int copy = copy_file();

	if (copy < 0) {
		*why = str_fmt("cannot make a private copy of %s to load: %s",
			       path, strerror(errno));
		return -1;
	}
	if (posix_module_copy(fd, copy, path, why) != 0) {
		close(copy);
		return -1;
	}
	if (fcntl(copy, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
				     F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
		*why = str_fmt("cannot seal the private copy of %s: %s", path,
			       strerror(errno));
		close(copy);
		return -1;
	}
	return copy;
}

void *
os_module_open(int fd, const char *path, char **why)
{
	char proc[64];
	void *dl;
	int copy = private_copy(fd, path, why);

	if (copy < 0)
		return NULL;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", copy);
	dl = dlopen(proc, RTLD_NOW | RTLD_LOCAL);
	if (dl == NULL) {
		*why = dl_why(proc, path);
		close(copy);
	}
	/* Loaded, the copy stays open for the life of the process: dlopen()
	 * matches the NAME /proc/self/fd/N on later loads, and with N never
	 * closed the name can never point at another file in this process. */
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
