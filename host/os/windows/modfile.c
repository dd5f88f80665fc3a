/* SPDX-License-Identifier: MIT */
/* modfile.c -- a module file on Windows: a PE DLL for this machine,
 * loaded by the final path of the very handle that was checked (which
 * os_open_own opened without write or delete sharing, so the file cannot
 * change or be replaced while it is open), with LoadLibraryExW searching
 * only the DLL's own directory and System32 for its imports.  No private
 * copy (linux's and darwin's): once loaded, Windows refuses to open the
 * DLL's file for writing, so it cannot be written in place under the
 * running tool; it can still be renamed away and replaced. */
#include "os/os.h"

#include <windows.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "os/windows/wpath.h"

#if defined(__x86_64__) || defined(_M_AMD64)
#define HOST_MACHINE IMAGE_FILE_MACHINE_AMD64
#elif defined(__aarch64__) || defined(_M_ARM64)
#define HOST_MACHINE IMAGE_FILE_MACHINE_ARM64
#endif

static const struct {
	unsigned m;
	const char *name;
} machines[] = {
	{ IMAGE_FILE_MACHINE_AMD64, "x86-64" },
	{ IMAGE_FILE_MACHINE_I386, "i386" },
	{ IMAGE_FILE_MACHINE_ARM64, "arm64" },
	{ IMAGE_FILE_MACHINE_ARMNT, "arm" },
};

static const char *
machine_name(unsigned m)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].m == m)
			return machines[i].name;
	return NULL;
}

static int
read_at(HANDLE h, LONGLONG off, void *buf, DWORD n)
{
	OVERLAPPED ov;
	DWORD got = 0;

	memset(&ov, 0, sizeof(ov));
	ov.Offset = (DWORD)(off & 0xffffffff);
	ov.OffsetHigh = (DWORD)(off >> 32);
	return ReadFile(h, buf, n, &got, &ov) && got == n ? 0 : -1;
}

/* A PE file for another machine is refused here, on the handle; a file
 * that is not PE at all is left to LoadLibraryExW, which says so. */
int
os_module_machine(int fd, char **why)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	unsigned char mz[64], pe[6];
	DWORD off;
	unsigned m;
	const char *name;

	if (h == INVALID_HANDLE_VALUE || read_at(h, 0, mz, sizeof(mz)) != 0 ||
	    mz[0] != 'M' || mz[1] != 'Z')
		return 0;
	off = (DWORD)mz[0x3c] | (DWORD)mz[0x3d] << 8 | (DWORD)mz[0x3e] << 16 |
	      (DWORD)mz[0x3f] << 24;
	if (read_at(h, off, pe, sizeof(pe)) != 0 || memcmp(pe, "PE\0\0", 4))
		return 0;
	m = (unsigned)pe[4] | (unsigned)pe[5] << 8;
#ifdef HOST_MACHINE
	if (m == HOST_MACHINE)
		return 0;
	name = machine_name(m);
	*why = name ? str_fmt("not a module for this machine (PE machine %s, "
			      "this machine %s)", name,
			      machine_name(HOST_MACHINE))
		    : str_fmt("not a module for this machine (PE machine "
			      "0x%04x, this machine %s)", m,
			      machine_name(HOST_MACHINE));
	return -1;
#else
	(void)m;
	(void)name;
	(void)why;
	return 0;
#endif
}

void *
os_module_open(int fd, const char *path, char **why)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	wchar_t *f = h != INVALID_HANDLE_VALUE ? wp_final(h) : NULL;
	HMODULE m;
	DWORD e;

	if (f == NULL) {
		*why = str_fmt("cannot name the file %s was opened as", path);
		return NULL;
	}
	m = LoadLibraryExW(f, NULL, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
					    LOAD_LIBRARY_SEARCH_SYSTEM32);
	e = GetLastError();
	free(f);
	if (m == NULL)
		*why = e == ERROR_BAD_EXE_FORMAT ?
			       str_fmt("%s is not a Windows DLL", path) :
		       e == ERROR_MOD_NOT_FOUND ?
			       str_fmt("%s or a DLL it imports was not found "
				       "(error 126)", path) :
			       str_fmt("LoadLibraryExW %s failed (error %lu)",
				       path, (unsigned long)e);
	return m;
}

void *
os_module_sym(void *handle, const char *name)
{
	FARPROC p = GetProcAddress(handle, name);
	void *v;

	memcpy(&v, &p, sizeof(v));
	return v;
}

void
os_module_close(void *handle)
{
	FreeLibrary(handle);
}
