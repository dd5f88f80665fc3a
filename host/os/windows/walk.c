/* SPDX-License-Identifier: MIT */
/* walk.c -- the policy's walk on Windows (os/os.h "the policy's walk" and
 * "terminals").  A component is opened by its directory's final path and
 * its name (CreateFileW, FILE_FLAG_OPEN_REPARSE_POINT: a reparse point is
 * opened as itself, never followed), without delete sharing: while the
 * walk holds a directory's handle neither it nor a directory above it can
 * be renamed, so the name the next component is opened by still names
 * the directory walked.  The identity is the volume serial and the file
 * index; the owner and the DACL stand in for uid and mode (trust.c's
 * ws_security).  No terminal is ever granted by name: the console is a
 * handle the command inherits. */
#include "os/os.h"

#include <winsock2.h> /* before windows.h */
#include <ws2tcpip.h>
#include <windows.h>
#include <winioctl.h>
#include <psapi.h>
#include <errno.h>
#include <io.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "os/windows/wpath.h"

/* The uid the walk gives the caller (never 0: uid 0 owns nothing). */
#define WIN_CALLER_UID 1000u

uint32_t
os_euid(void)
{
	return WIN_CALLER_UID;
}

uint32_t
os_ruid(void)
{
	return WIN_CALLER_UID;
}

int
os_in_group(uint32_t gid)
{
	(void)gid;
	return 0; /* no groups in the mode: the DACL is in its bits */
}

static int
is_sep(char c)
{
	return c == '/' || c == '\\';
}

size_t
os_root_len(const char *p)
{
	size_t i;

	if (p == NULL)
		return 0;
	if (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) &&
	    p[1] == ':' && is_sep(p[2]))
		return 3;
	/* //server/share/ */
	if (!os_is_absolute(p))
		return 0;
	for (i = 2; p[i] && !is_sep(p[i]); i++)
		;
	if (!is_sep(p[i]) || p[i + 1] == '\0' || is_sep(p[i + 1]))
		return 0;
	for (i++; p[i] && !is_sep(p[i]); i++)
		;
	return is_sep(p[i]) ? i + 1 : 0;
}

static int
errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_BAD_NETPATH:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
		return EACCES;
	case ERROR_SHARING_VIOLATION:
		return EBUSY;
	case ERROR_ALREADY_EXISTS:
	case ERROR_FILE_EXISTS:
		return EEXIST;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_DIR_NOT_EMPTY:
		return ENOTEMPTY;
	case ERROR_FILE_READ_ONLY:
		return EACCES;
	default:
		return EIO;
	}
}

/* Open the UTF-16 path w to look at (attributes, security), link not
 * followed when nofollow, no delete sharing; as a descriptor. */
static int
open_w(const wchar_t *w, int nofollow)
{
	HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES | READ_CONTROL |
				       SYNCHRONIZE,
			       FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			       OPEN_EXISTING,
			       FILE_FLAG_BACKUP_SEMANTICS |
				       (nofollow ? FILE_FLAG_OPEN_REPARSE_POINT :
						   0),
			       NULL);
	int fd;

	if (h == INVALID_HANDLE_VALUE) {
		errno = errno_of(GetLastError());
		return -1;
	}
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

static int
open_u8(const char *path, int nofollow)
{
	wchar_t *w = wp_wide(path);
	int fd;

	if (w == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open_w(w, nofollow);
	free(w);
	return fd;
}

static HANDLE
handle_of(int fd)
{
	intptr_t h = _get_osfhandle(fd);

	return h == (intptr_t)INVALID_HANDLE_VALUE ? NULL : (HANDLE)h;
}

int
os_walk_root(const char *p)
{
	size_t n = os_root_len(p);
	char *root = n ? str_ndup(p, n) : NULL;
	int fd;

	if (n == 0) {
		errno = EINVAL;
		return -1;
	}
	if (root == NULL) {
		errno = ENOMEM;
		return -1;
	}
	fd = open_u8(root, 0);
	free(root);
	return fd;
}

/* One component: no separator, no stream (':'), not "." or "..". */
static int
one_component(const char *name)
{
	return name[0] != '\0' && strpbrk(name, "/\\:") == NULL &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* dirfd's final path joined with tail ('/'-separated, already checked),
 * UTF-16; heap or NULL (errno). */
static wchar_t *
join_fd(int dirfd, const char *tail)
{
	char *dir = os_fd_name(dirfd), *full;
	wchar_t *w;

	if (dir == NULL) {
		errno = EBADF;
		return NULL;
	}
	full = str_fmt("%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ?
			       "" : "/", tail);
	free(dir);
	w = full ? wp_wide(full) : NULL;
	free(full);
	if (w == NULL)
		errno = ENAMETOOLONG;
	return w;
}

/* dirfd's final path joined with name, UTF-16; heap or NULL (errno). */
static wchar_t *
at_name(int dirfd, const char *name)
{
	if (!one_component(name)) {
		errno = EINVAL;
		return NULL;
	}
	return join_fd(dirfd, name);
}

int
os_walk_at(int dirfd, const char *name, int want_dir)
{
	wchar_t *w = at_name(dirfd, name);
	struct os_stat st;
	int fd;

	if (w == NULL)
		return -1;
	fd = open_w(w, 1);
	free(w);
	if (fd >= 0 && want_dir &&
	    (os_fstat(fd, &st) != 0 || !S_ISDIR(st.mode))) {
		close(fd);
		errno = ENOTDIR;
		return -1;
	}
	return fd;
}

/* A FILETIME (100 ns since 1601) in nanoseconds since 1970. */
static int64_t
ft_ns(const FILETIME *ft)
{
	uint64_t t = ((uint64_t)ft->dwHighDateTime << 32) | ft->dwLowDateTime;

	return ((int64_t)t - 116444736000000000LL) * 100;
}

int
os_fstat(int fd, struct os_stat *st)
{
	HANDLE h = handle_of(fd);
	BY_HANDLE_FILE_INFORMATION bi;
	int dir, others = 1;
	uint32_t uid = OS_UID_OTHER;

	memset(st, 0, sizeof(*st));
	if (h == NULL) {
		errno = EBADF;
		return -1;
	}
	if (!GetFileInformationByHandle(h, &bi)) {
		errno = GetFileType(h) == FILE_TYPE_CHAR ? ENOTSUP :
			errno_of(GetLastError());
		return -1;
	}
	dir = (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
	st->dev = bi.dwVolumeSerialNumber;
	st->ino = ((uint64_t)bi.nFileIndexHigh << 32) | bi.nFileIndexLow;
	st->nlink = bi.nNumberOfLinks;
	st->mode = (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ?
			   OS_S_IFLNK :
		   dir ? S_IFDIR : S_IFREG;
	(void)ws_security(h, dir, &uid, &others);
	st->uid = uid;
	st->size = ((uint64_t)bi.nFileSizeHigh << 32) | bi.nFileSizeLow;
	/* 100 ns since 1601 to seconds since 1970 */
	st->mtime = (int64_t)(((((uint64_t)bi.ftLastWriteTime.dwHighDateTime
				 << 32) | bi.ftLastWriteTime.dwLowDateTime) /
			       10000000u) - 11644473600u);
	st->mtime_ns = ft_ns(&bi.ftLastWriteTime);
	st->ctime_ns = ft_ns(&bi.ftCreationTime);
	st->mode |= S_IRUSR | S_IWUSR | S_IXUSR;
	if (others)
		st->mode |= S_IWGRP | S_IWOTH;
	return 0;
}

int
os_fstat_at(int dirfd, const char *name, struct os_stat *st)
{
	int fd = os_walk_at(dirfd, name, 0), rc, e;

	if (fd < 0)
		return -1;
	rc = os_fstat(fd, st);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

int
os_stat_path(const char *path, struct os_stat *st)
{
	int fd = open_u8(path, 0), rc, e;

	if (fd < 0)
		return -1;
	rc = os_fstat(fd, st);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* The reparse data of a symbolic link or a junction (ntifs.h's
 * REPARSE_DATA_BUFFER, which user-mode headers do not carry). */
struct reparse {
	ULONG tag;
	USHORT len, reserved;
	USHORT sub_off, sub_len, print_off, print_len;
	union {
		struct {
			ULONG flags;
			WCHAR path[1];
		} link;
		struct {
			WCHAR path[1];
		} mount;
	} u;
};

char *
os_link_read(int fd)
{
	HANDLE h = handle_of(fd);
	union {
		struct reparse r;
		unsigned char b[MAXIMUM_REPARSE_DATA_BUFFER_SIZE];
	} u;
	DWORD got = 0;
	WCHAR *base, *t;
	size_t n;
	char *s;

	if (h == NULL || !DeviceIoControl(h, FSCTL_GET_REPARSE_POINT, NULL, 0,
					  &u, sizeof(u), &got, NULL)) {
		errno = EINVAL;
		return NULL;
	}
	if (u.r.tag == IO_REPARSE_TAG_SYMLINK)
		base = u.r.u.link.path;
	else if (u.r.tag == IO_REPARSE_TAG_MOUNT_POINT)
		base = u.r.u.mount.path;
	else {
		errno = EINVAL; /* not a link: a placeholder, a dedup file */
		return NULL;
	}
	n = u.r.sub_len / sizeof(WCHAR);
	if ((unsigned char *)(base + u.r.sub_off / sizeof(WCHAR) + n) >
	    u.b + got) {
		errno = EINVAL;
		return NULL;
	}
	t = malloc((n + 1) * sizeof(WCHAR));
	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(t, base + u.r.sub_off / sizeof(WCHAR), n * sizeof(WCHAR));
	t[n] = 0;
	/* "\\??\\C:\\x" names C:\x */
	s = wp_utf8(wcsncmp(t, L"\\??\\", 4) == 0 ? t + 4 : t);
	free(t);
	if (s == NULL)
		errno = ENAMETOOLONG;
	return s;
}

char *
os_link_read_at(int dirfd, const char *name)
{
	wchar_t *w = at_name(dirfd, name);
	int fd;
	char *s;

	if (w == NULL)
		return NULL;
	fd = open_w(w, 1);
	free(w);
	if (fd < 0)
		return NULL;
	s = os_link_read(fd);
	close(fd);
	return s;
}

int
os_free_bytes(int fd, uint64_t *bytes)
{
	char *p = os_fd_real_path(fd);
	ULARGE_INTEGER avail;
	BOOL ok;

	if (p == NULL)
		return -1;
	ok = GetDiskFreeSpaceExA(p, &avail, NULL, NULL);
	free(p);
	if (!ok) {
		errno = EIO;
		return -1;
	}
	*bytes = (uint64_t)avail.QuadPart;
	return 0;
}

int
os_fd_dup(int fd)
{
	HANDLE h = handle_of(fd), d = NULL;
	int out;

	if (h == NULL || !DuplicateHandle(GetCurrentProcess(), h,
					  GetCurrentProcess(), &d, 0, FALSE,
					  DUPLICATE_SAME_ACCESS)) {
		errno = EBADF;
		return -1;
	}
	out = _open_osfhandle((intptr_t)d, _O_RDONLY | _O_BINARY);
	if (out < 0) {
		CloseHandle(d);
		errno = EMFILE;
	}
	return out;
}

char *
os_fd_real_path(int fd)
{
	return os_fd_name(fd);
}

int
os_mkdir_at(int dirfd, const char *name, unsigned mode)
{
	wchar_t *w = at_name(dirfd, name);
	int ok;

	if (w == NULL)
		return -1;
	(void)mode;
	ok = CreateDirectoryW(w, NULL); /* its parent's inheritable DACL */
	if (!ok)
		errno = errno_of(GetLastError());
	free(w);
	return ok ? 0 : -1;
}

/* Open w to read (a file's bytes, a directory's entries) without write
 * or delete sharing, a reparse point refused (ELOOP). */
static int
open_read_w(const wchar_t *w, int want_dir)
{
	HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL,
			       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS |
				       FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	BY_HANDLE_FILE_INFORMATION bi;
	int fd, e = 0;

	if (h == INVALID_HANDLE_VALUE) {
		errno = errno_of(GetLastError());
		return -1;
	}
	if (!GetFileInformationByHandle(h, &bi))
		e = EIO;
	else if (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
		e = ELOOP;
	else if (want_dir && !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
		e = ENOTDIR;
	if (e != 0) {
		CloseHandle(h);
		errno = e;
		return -1;
	}
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

int
os_open_read_at(int dirfd, const char *name, int want_dir)
{
	wchar_t *w = at_name(dirfd, name);
	int fd;

	if (w == NULL)
		return -1;
	fd = open_read_w(w, want_dir);
	free(w);
	return fd;
}

int
os_open_readdir(const char *path)
{
	wchar_t *w = wp_wide(path);
	int fd;

	if (w == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open_read_w(w, 1); /* a reparse point as the last: ELOOP */
	free(w);
	return fd;
}

int
os_create_at(int dirfd, const char *name, unsigned mode)
{
	wchar_t *w = at_name(dirfd, name);
	DWORD a;
	HANDLE h;
	int fd;

	(void)mode;
	if (w == NULL)
		return -1;
	a = GetFileAttributesW(w);
	if (a != INVALID_FILE_ATTRIBUTES &&
	    (a & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY))) {
		free(w);
		errno = (a & FILE_ATTRIBUTE_REPARSE_POINT) ? ELOOP : EISDIR;
		return -1;
	}
	h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
			NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = errno_of(GetLastError());
		return -1;
	}
	fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

int
os_fchmod(int fd, unsigned mode)
{
	(void)fd;
	(void)mode;
	return 0; /* the parent's inherited DACL is the file's */
}

int
os_fchmod_at(int dirfd, const char *name, unsigned mode)
{
	(void)dirfd;
	(void)name;
	(void)mode;
	return 0; /* no permission bits: a READONLY attribute is cleared
		     where the entry is removed */
}

/* A relative path below dirfd ("a/b"): every component one_component()'s,
 * joined to dirfd's final path; UTF-16, heap or NULL (errno). */
static wchar_t *
at_rel(int dirfd, const char *rel)
{
	char *copy = strdup(rel), *p, *save = NULL;
	int ok = copy != NULL && rel[0] != '\0';

	for (p = copy ? strtok_r(copy, "/", &save) : NULL; ok && p != NULL;
	     p = strtok_r(NULL, "/", &save))
		ok = one_component(p);
	free(copy);
	if (!ok) {
		errno = EINVAL;
		return NULL;
	}
	return join_fd(dirfd, rel);
}

/* Remove the entry name of dirfd through a handle of its own, opened
 * with FILE_FLAG_OPEN_REPARSE_POINT: a link (a symbolic link, a junction,
 * a volume's mount point) is removed as itself and never followed; the
 * kind is judged on that handle (a directory for is_dir, else not one,
 * a link counting as not one); a READONLY attribute (git's object files)
 * is cleared first, as POSIX unlinks a 0444 file; then the handle's
 * disposition is set. */
int
os_unlink_at(int dirfd, const char *name, int is_dir)
{
	wchar_t *w = at_rel(dirfd, name);
	BY_HANDLE_FILE_INFORMATION bi;
	FILE_DISPOSITION_INFO del = { TRUE };
	HANDLE h;
	int e = 0, dir, link;

	if (w == NULL)
		return -1;
	h = CreateFileW(w, DELETE | FILE_READ_ATTRIBUTES |
				   FILE_WRITE_ATTRIBUTES,
			FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS |
				    FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = errno_of(GetLastError());
		return -1;
	}
	if (!GetFileInformationByHandle(h, &bi)) {
		e = EIO;
	} else {
		dir = (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
		link = (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
		if (is_dir && (!dir || link))
			e = ENOTDIR;
		else if (!is_dir && dir && !link)
			e = EISDIR;
	}
	if (e == 0 && (bi.dwFileAttributes & FILE_ATTRIBUTE_READONLY)) {
		FILE_BASIC_INFO b;

		memset(&b, 0, sizeof(b));
		b.FileAttributes = bi.dwFileAttributes & ~FILE_ATTRIBUTE_READONLY;
		if (b.FileAttributes == 0)
			b.FileAttributes = FILE_ATTRIBUTE_NORMAL;
		(void)SetFileInformationByHandle(h, FileBasicInfo, &b,
						 sizeof(b));
	}
	if (e == 0 && !SetFileInformationByHandle(h, FileDispositionInfo, &del,
						  sizeof(del)))
		e = errno_of(GetLastError());
	CloseHandle(h);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

int
os_rename_at(int dirfd, const char *from, const char *to)
{
	wchar_t *wf = at_rel(dirfd, from), *wt = at_rel(dirfd, to);
	BOOL ok = wf != NULL && wt != NULL && MoveFileExW(wf, wt, 0);

	if (!ok && wf != NULL && wt != NULL)
		errno = errno_of(GetLastError());
	free(wf);
	free(wt);
	return ok ? 0 : -1;
}

int
os_replace_at(int dirfd, const char *from, const char *to)
{
	wchar_t *wf = at_rel(dirfd, from), *wt = at_rel(dirfd, to);
	BOOL ok = wf != NULL && wt != NULL &&
		  MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING |
				      MOVEFILE_WRITE_THROUGH);

	if (!ok && wf != NULL && wt != NULL)
		errno = errno_of(GetLastError());
	free(wf);
	free(wt);
	return ok ? 0 : -1;
}

int
os_dir_reopen(int fd)
{
	return os_fd_dup(fd);
}

int
os_may_write_at(int dirfd, const char *name)
{
	(void)dirfd;
	(void)name;
	return -1; /* the owner and the DACL in the mode decide */
}

/* A Windows executable: a PE image (GetBinaryTypeW), or a batch file. */
static int
exe_name(const char *path)
{
	wchar_t *w = wp_wide(path);
	DWORD type;
	const char *dot = strrchr(path, '.');
	int ok;

	if (w == NULL)
		return 0;
	ok = GetBinaryTypeW(w, &type) ||
	     (dot != NULL && (_stricmp(dot, ".cmd") == 0 ||
			     _stricmp(dot, ".bat") == 0));
	free(w);
	return ok;
}

int
os_fd_executable(int fd)
{
	char *p = os_fd_name(fd);
	int ok = p != NULL && exe_name(p);

	free(p);
	return ok;
}

int
os_path_executable(const char *path)
{
	return !os_is_dir(path) && os_path_kind(path) != OS_PATH_ABSENT &&
	       exe_name(path);
}

char *
os_real_path(const char *path)
{
	int fd = open_u8(path, 0);
	char *s;

	if (fd < 0)
		return NULL;
	s = os_fd_name(fd);
	close(fd);
	return s;
}

char *
os_cwd(void)
{
	wchar_t w[WP_MAX];
	DWORD n = GetCurrentDirectoryW(WP_MAX, w);

	return n == 0 || n >= WP_MAX ? NULL : wp_utf8(w);
}

const char *const *
os_exe_suffixes(const char *name)
{
	static const char *const none[] = {"", NULL};
	static const char *const pathext[] = {".com", ".exe", ".bat", ".cmd",
					      NULL};

	return strchr(name, '.') != NULL ? none : pathext;
}

char
os_path_list_sep(void)
{
	return ';';
}

int
os_inet_pton(const char *s, int v6, unsigned char out[16])
{
	memset(out, 0, 16);
	return inet_pton(v6 ? AF_INET6 : AF_INET, s, out) == 1;
}

int
os_ip_loopback(const char *host, int v6)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (v6)
		return inet_pton(AF_INET6, host, &a6) == 1 &&
		       IN6_IS_ADDR_LOOPBACK(&a6);
	return inet_pton(AF_INET, host, &a4) == 1 &&
	       (ntohl(a4.s_addr) >> 24) == 127;
}

char *
os_path_normal(const char *p)
{
	char *s = strdup(p);

	for (char *c = s; c != NULL && *c; c++)
		if (*c == '\\')
			*c = '/';
	return s;
}

const char *
os_home_var(void)
{
	return "USERPROFILE";
}

const char *const *
os_probe_command(void)
{
	static const char *const argv[] = {"cmd.exe", "/c", "exit", NULL};

	return argv;
}

/* ---- terminals: none by name ------------------------------------------ */

uint64_t
os_dev_make(unsigned ma, unsigned mi)
{
	return ((uint64_t)ma << 32) | mi;
}

unsigned
os_dev_major(uint64_t dev)
{
	return (unsigned)(dev >> 32);
}

unsigned
os_dev_minor(uint64_t dev)
{
	return (unsigned)(dev & 0xffffffffu);
}

int
os_tty_probe(int fd, uint64_t *dev, struct os_stat *st, int *acc)
{
	(void)fd;
	(void)dev;
	memset(st, 0, sizeof(*st));
	*acc = 0;
	return -1;
}

int
os_ctty_dev(uint64_t *dev)
{
	(void)dev;
	return 0;
}

int
os_open_nofollow(const char *path)
{
	return open_u8(path, 1);
}

/* ---- up, by name, and the DLLs mapped -------------------------------- */

int
os_walk_parent(int fd)
{
	char *p = os_fd_name(fd), *slash;
	size_t rlen;
	int out;

	if (p == NULL) {
		errno = EBADF;
		return -1;
	}
	rlen = os_root_len(p);
	slash = strrchr(p, '/');
	if (rlen == 0 || slash == NULL || (size_t)(slash - p) < rlen) {
		free(p);
		return rlen ? os_fd_dup(fd) : -1; /* the root's is itself */
	}
	slash[(size_t)(slash - p) + 1 == rlen ? 1 : 0] = '\0';
	out = open_u8(p, 1);
	free(p);
	return out;
}

int
os_open_dir(const char *path)
{
	struct os_stat st;
	int fd = open_u8(path, 0);

	if (fd >= 0 && (os_fstat(fd, &st) != 0 || !S_ISDIR(st.mode))) {
		close(fd);
		errno = ENOTDIR;
		return -1;
	}
	return fd;
}

int
os_loaded_libs(int (*fn)(void *arg, const char *path), void *arg)
{
	HMODULE mods[512];
	DWORD need = 0;
	int rc = 0;

	if (!K32EnumProcessModules(GetCurrentProcess(), mods, sizeof(mods),
				   &need))
		return 0;
	for (DWORD i = 0; rc == 0 && i < need / sizeof(HMODULE) &&
			  i < sizeof(mods) / sizeof(mods[0]); i++) {
		wchar_t w[WP_MAX];
		DWORD n = GetModuleFileNameW(mods[i], w, WP_MAX);
		char *s;

		if (n == 0 || n >= WP_MAX || (s = wp_utf8(w)) == NULL)
			continue;
		if (os_root_len(s) > 0)
			rc = fn(arg, s);
		free(s);
	}
	return rc;
}

int
os_run_name_locks(void)
{
	return 0;
}

int
os_run_job_flags(void)
{
	return 1;
}
