/* SPDX-License-Identifier: MIT */
/* ostest.c -- the host's Windows layer (host/os/windows/) under test: the
 * platform, this process, paths as the host speaks them (UTF-8, '/'),
 * opening its own files so they cannot change, the ACL counterpart of the
 * uid and mode checks, loading a module from the checked handle, and
 * paths longer than MAX_PATH (the "\\?\" forms the layer gives Win32,
 * a long directory's final name read back).
 *
 *   ostest.exe <jobobject.dll> <scratch dir>   (full paths)
 */
#include <windows.h>
#include <aclapi.h>
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_backend.h"
#include "os/os.h"
#include "os/windows/wpath.h"
#include "wt.h"

static char dll[MAX_PATH], dir[MAX_PATH];

static int
t_platform(void)
{
	if (strcmp(os_platform(), "windows") != 0 ||
	    strcmp(os_arch(), "amd64") != 0 || os_is_setid() != 0)
		return fail("platform %s arch %s", os_platform(), os_arch());
	return 0;
}

static int
t_self(void)
{
	char exe[1024];
	const char *home = os_user_home(0);

	if (os_self_exe(exe, sizeof(exe)) != 0)
		return fail("no self path");
	if (strchr(exe, '\\') != NULL || exe[1] != ':' || exe[2] != '/' ||
	    strstr(exe, "/ostest.exe") == NULL)
		return fail("self is %s", exe);
	if (os_self_exe(exe, 8) == 0)
		return fail("a short buffer was filled");
	if (home == NULL || home[1] != ':' || home[2] != '/' ||
	    strchr(home, '\\') != NULL)
		return fail("home is %s", home ? home : "(none)");
	return 0;
}

static int
t_real_dir(void)
{
	char in[MAX_PATH], *r;
	const char *slash = strrchr(dll, '\\');

	/* "<lib>\nova-sandbox\1\..\1" -> "<lib>/nova-sandbox/1" */
	snprintf(in, sizeof(in), "%.*s\\..\\1",
		 (int)(slash - dll), dll);
	r = os_real_dir(in);
	if (r == NULL || strchr(r, '\\') != NULL ||
	    strstr(r, "/lib/nova-sandbox/1") == NULL || r[strlen(r) - 1] != '1' ||
	    strstr(r, "..") != NULL) {
		free(r);
		return fail("real dir of %s", in);
	}
	free(r);
	errno = 0;
	if (os_real_dir(dll) != NULL || errno != ENOTDIR)
		return fail("a file was a directory (errno %d)", errno);
	if (os_real_dir("C:/no/such/dir") != NULL || errno != ENOENT)
		return fail("a missing dir (errno %d)", errno);
	return 0;
}

static int
t_open_own(void)
{
	wchar_t w[MAX_PATH];
	int fd = os_open_own(dll, 0);
	HANDLE h;

	if (fd < 0)
		return fail("cannot open %s (errno %d)", dll, errno);
	MultiByteToWideChar(CP_UTF8, 0, dll, -1, w, MAX_PATH);
	h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE |
			FILE_SHARE_DELETE, NULL, OPEN_EXISTING, 0, NULL);
	if (h != INVALID_HANDLE_VALUE) {
		CloseHandle(h);
		_close(fd);
		return fail("the file could be opened for writing while held");
	}
	if (DeleteFileW(w) || MoveFileW(w, L"C:\\moved.dll")) {
		_close(fd);
		return fail("the file could be deleted or moved while held");
	}
	_close(fd);
	errno = 0;
	if (os_open_own("C:/no/such/file.dll", 0) >= 0 || errno != ENOENT)
		return fail("a missing file (errno %d)", errno);
	return 0;
}

static int
t_trust_ok(void)
{
	int fd = os_open_own(dll, 0);
	char *w = NULL;
	enum os_trust t;

	if (fd < 0)
		return fail("cannot open");
	t = os_trust_fd(fd, dll, 1, &w);
	if (t != OS_TRUST_OK) {
		_close(fd);
		return fail("%s is not trusted: %s", dll, w ? w : "?");
	}
	t = os_trust_fd(fd, dll, 0, &w);
	_close(fd);
	if (t != OS_TRUST_WRONG_TYPE)
		return fail("a file passed as a directory");
	free(w);
	return 0;
}

/* A copy of the DLL with its PE machine changed to i386. */
static int
copy_other_machine(const char *to)
{
	FILE *in = fopen(dll, "rb"), *out = fopen(to, "wb");
	static unsigned char buf[1 << 20];
	size_t n;
	unsigned off;

	if (in == NULL || out == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	off = (unsigned)buf[0x3c] | (unsigned)buf[0x3d] << 8;
	buf[off + 4] = 0x4c; /* IMAGE_FILE_MACHINE_I386 */
	buf[off + 5] = 0x01;
	fwrite(buf, 1, n, out);
	return fclose(out) == 0 ? 0 : -1;
}

static int
t_machine(void)
{
	char other[MAX_PATH], *w = NULL;
	int fd = os_open_own(dll, 0), rc;

	if (fd < 0 || os_module_machine(fd, &w) != 0)
		return fail("the DLL is not for this machine: %s", w ? w : "");
	_close(fd);
	snprintf(other, sizeof(other), "%s\\i386.dll", dir);
	if (copy_other_machine(other) != 0)
		return fail("cannot copy");
	fd = os_open_own(other, 0);
	rc = fd >= 0 ? os_module_machine(fd, &w) : 0;
	if (fd >= 0)
		_close(fd);
	DeleteFileA(other);
	if (rc != -1 || w == NULL || strstr(w, "i386") == NULL ||
	    strstr(w, "x86-64") == NULL)
		return fail("an i386 DLL: rc %d (%s)", rc, w ? w : "");
	free(w);
	return 0;
}

static int
t_module_open(void)
{
	char text[MAX_PATH], *w = NULL;
	int fd = os_open_own(dll, 0);
	void *m = fd >= 0 ? os_module_open(fd, dll, &w) : NULL;
	const struct ns_backend_ops *b;
	FILE *f;

	if (m == NULL)
		return fail("cannot load: %s", w ? w : "");
	b = os_module_sym(m, NS_BACKEND_SYMBOL);
	if (b == NULL || b->magic != NS_BACKEND_MAGIC)
		return fail("no descriptor");
	if (os_module_sym(m, "no_such_symbol") != NULL)
		return fail("a missing symbol was found");
	_close(fd); /* the module stays loaded: the host keeps it open */
	snprintf(text, sizeof(text), "%s\\text.dll", dir);
	f = fopen(text, "wb");
	fputs("not a DLL\n", f);
	fclose(f);
	fd = os_open_own(text, 0);
	m = fd >= 0 ? os_module_open(fd, text, &w) : NULL;
	if (fd >= 0)
		_close(fd);
	DeleteFileA(text);
	if (m != NULL || w == NULL)
		return fail("a text file loaded");
	free(w);
	return 0;
}

/* The denial and its control: a file others may write is unsafe. */
static int
t_trust_acl(void)
{
	char path[MAX_PATH], *w = NULL;
	wchar_t wp[MAX_PATH];
	EXPLICIT_ACCESSW ea;
	PACL old = NULL, acl = NULL;
	PSECURITY_DESCRIPTOR sd = NULL;
	FILE *f;
	int fd;
	enum os_trust before, after;

	snprintf(path, sizeof(path), "%s\\acl.conf", dir);
	f = fopen(path, "wb");
	fputs("[windows]\n", f);
	fclose(f);
	fd = os_open_own(path, 0);
	before = os_trust_fd(fd, path, 1, &w);
	_close(fd);
	MultiByteToWideChar(CP_UTF8, 0, path, -1, wp, MAX_PATH);
	GetNamedSecurityInfoW(wp, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION,
			      NULL, NULL, &old, NULL, &sd);
	memset(&ea, 0, sizeof(ea));
	ea.grfAccessPermissions = FILE_GENERIC_WRITE;
	ea.grfAccessMode = GRANT_ACCESS;
	ea.Trustee.TrusteeForm = TRUSTEE_IS_NAME;
	ea.Trustee.ptstrName = L"EVERYONE";
	SetEntriesInAclW(1, &ea, old, &acl);
	SetNamedSecurityInfoW(wp, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION,
			      NULL, NULL, acl, NULL);
	fd = os_open_own(path, 0);
	after = os_trust_fd(fd, path, 1, &w);
	_close(fd);
	LocalFree(acl);
	LocalFree(sd);
	DeleteFileA(path);
	if (before != OS_TRUST_OK)
		return fail("the control was not trusted");
	if (after != OS_TRUST_UNSAFE || w == NULL || strstr(w, "S-1-1-0") == NULL)
		return fail("a file Everyone may write was trusted (%s)",
			    w ? w : "");
	free(w);
	return 0;
}

static int
t_open_link(void)
{
	char link[MAX_PATH];
	wchar_t wl[MAX_PATH], wd[MAX_PATH];

	snprintf(link, sizeof(link), "%s\\link.dll", dir);
	MultiByteToWideChar(CP_UTF8, 0, link, -1, wl, MAX_PATH);
	MultiByteToWideChar(CP_UTF8, 0, dll, -1, wd, MAX_PATH);
	if (!CreateSymbolicLinkW(wl, wd,
				 SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE))
		return fail("no symlink (developer mode off?) error %lu",
			    GetLastError());
	errno = 0;
	if (os_open_own(link, 0) >= 0 || errno != ELOOP) {
		DeleteFileW(wl);
		return fail("a link to the DLL was opened (errno %d)", errno);
	}
	DeleteFileW(wl);
	return 0;
}

/* A path of n characters below "C:/": "./" and "../" segments that
 * normalise away, '/' separators. */
static void
long_name(char *out, size_t cap, const char *root, int n)
{
	size_t k = (size_t)snprintf(out, cap, "%s/./x/../", root);

	while ((int)k < n && k + 12 < cap)
		k += (size_t)snprintf(out + k, cap - k, "ddddddddd/");
	out[k - 1] = '\0';
}

/* wp_wide: a short path as it is ('\\' for '/'), a long drive or UNC
 * path in its "\\?\" form, normalised (no "." or "..", no '/'), which
 * Win32 takes beyond MAX_PATH; never a device in that form. */
static int
t_long_form(void)
{
	char in[1024];
	wchar_t *w;
	int rc = 0;

	w = wp_wide("C:/a/./b");
	if (w == NULL || wcscmp(w, L"C:\\a\\.\\b") != 0)
		rc = fail("a short path became %ls", w ? w : L"(null)");
	free(w);
	long_name(in, sizeof(in), "C:", 400);
	w = wp_wide(in);
	if (rc == 0 && (w == NULL || wcsncmp(w, L"\\\\?\\C:\\ddddddddd\\", 17) != 0 ||
			wcsstr(w, L"\\.\\") != NULL ||
			wcsstr(w, L"\\..\\") != NULL || wcschr(w, L'/') != NULL))
		rc = fail("a long drive path became %.60ls", w ? w : L"(null)");
	free(w);
	long_name(in, sizeof(in), "//srv/sh", 400);
	w = wp_wide(in);
	if (rc == 0 && (w == NULL ||
			wcsncmp(w, L"\\\\?\\UNC\\srv\\sh\\ddddddddd\\", 25) != 0))
		rc = fail("a long UNC path became %.60ls", w ? w : L"(null)");
	free(w);
	w = wp_long_form(L"relative\\x");
	if (rc == 0 && w != NULL)
		rc = fail("a relative path got a long form %ls", w);
	free(w);
	return rc;
}

/* A directory deeper than MAX_PATH opened by its name and named back
 * from its handle (Wine's GetFinalPathNameByHandleW stops at MAX_PATH:
 * the layer reads the object's name then). */
static int
t_long_real_path(void)
{
	char p[1024], *back = NULL;
	wchar_t w[1100] = L"\\\\?\\";
	int fd, rc = 0;

	snprintf(p, sizeof(p), "%s", dir);
	for (char *c = p; *c; c++)
		*c = *c == '\\' ? '/' : *c;
	for (int i = 0; i < 7; i++) {
		size_t n = strlen(p);

		snprintf(p + n, sizeof(p) - n, "/%d-%s", i,
			 "dddddddddddddddddddddddddddddddddddddddd");
		MultiByteToWideChar(CP_UTF8, 0, p, -1, w + 4, 1000);
		for (wchar_t *c = w + 4; *c; c++)
			*c = *c == L'/' ? L'\\' : *c;
		CreateDirectoryW(w, NULL);
	}
	fd = os_open_dir(p);
	if (fd < 0)
		rc = fail("a %zu-character directory cannot be opened (errno "
			  "%d)", strlen(p), errno);
	if (rc == 0 && ((back = os_fd_real_path(fd)) == NULL ||
			_stricmp(back, p) != 0))
		rc = fail("it is named back as %s", back ? back : "(none)");
	free(back);
	if (fd >= 0)
		_close(fd);
	for (int i = 0; i < 7; i++) {
		char *s = strrchr(p, '/');

		MultiByteToWideChar(CP_UTF8, 0, p, -1, w + 4, 1000);
		for (wchar_t *c = w + 4; *c; c++)
			*c = *c == L'/' ? L'\\' : *c;
		RemoveDirectoryW(w);
		*s = '\0';
	}
	return rc;
}

int wmain(int argc, wchar_t **argv); /* -municode's entry */

int
wmain(int argc, wchar_t **argv)
{
	wt_init();
	if (argc != 3) {
		fprintf(stderr, "usage: ostest.exe <jobobject.dll> <dir>\n");
		return 2;
	}
	WideCharToMultiByte(CP_UTF8, 0, argv[1], -1, dll, MAX_PATH, 0, 0);
	WideCharToMultiByte(CP_UTF8, 0, argv[2], -1, dir, MAX_PATH, 0, 0);
	run("os: platform windows, arch amd64, never set-id", t_platform);
	run("os: self and home as UTF-8 with '/'", t_self);
	run("os: the real name of a directory", t_real_dir);
	run("os: an own file cannot change or move while held", t_open_own);
	run("os: the module's owner and DACL are trusted", t_trust_ok);
	run("os: a DLL for another machine is refused, naming both",
	    t_machine);
	run("os: the module loads from the checked handle", t_module_open);
	run("os: a path over MAX_PATH goes to Win32 as its \\\\?\\ form",
	    t_long_form);
	run("os: a directory over MAX_PATH is opened and named back",
	    t_long_real_path);
	wine_skip("os: a file Everyone may write is not trusted",
		  "ACLs are not stored", t_trust_acl);
	wine_skip("os: a symbolic link is not opened as an own file",
		  "symbolic links are a stub", t_open_link);
	return wt_done("windows os layer");
}
