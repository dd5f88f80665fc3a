/* SPDX-License-Identifier: MIT */
/* trust.c -- the Windows counterpart of the uid and mode checks: a file
 * the tool loads or reads as its own (a module, the config), and every
 * directory above it, must be owned by the user, SYSTEM, Administrators or
 * TrustedInstaller, and no other SID may be allowed to change it: write,
 * append, write its DACL or owner, delete it, or (a directory) delete its
 * children.  Decided on the open handle and its final path, which is read
 * again at the end (a move while checked is unsafe).  See os/os.h. */
#include "os/os.h"

#include <windows.h>
#include <aclapi.h>
#include <errno.h>
#include <io.h>
#include <fcntl.h>
#include <sddl.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "os/windows/wpath.h"

#define FILE_DANGER (FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA | \
		     WRITE_DAC | WRITE_OWNER | DELETE | GENERIC_WRITE |      \
		     GENERIC_ALL)
/* A directory: adding a name does not replace one; deleting does. */
#define DIR_DANGER (FILE_DELETE_CHILD | WRITE_DAC | WRITE_OWNER | DELETE | \
		    GENERIC_ALL)

static const char *const trusted_sids[] = {
	"S-1-5-18",     /* SYSTEM */
	"S-1-5-32-544", /* BUILTIN\Administrators */
	"S-1-3-0",      /* CREATOR OWNER: the owner, checked as owner */
	"S-1-3-4",      /* OWNER RIGHTS */
	"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464",
	/* NT SERVICE\TrustedInstaller */
};

static PSID
user_sid(void)
{
	static union {
		TOKEN_USER tu;
		unsigned char buf[256];
	} u;
	static int done;
	HANDLE t;
	DWORD n = 0;

	if (!done && OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &t)) {
		if (GetTokenInformation(t, TokenUser, &u, sizeof(u), &n))
			done = 1;
		CloseHandle(t);
	}
	return done ? u.tu.User.Sid : NULL;
}

static int
trusted(PSID sid)
{
	PSID me = user_sid();

	if (me != NULL && EqualSid(sid, me))
		return 1;
	for (size_t i = 0; i < sizeof(trusted_sids) / sizeof(trusted_sids[0]);
	     i++) {
		PSID t = NULL;
		int eq;

		if (!ConvertStringSidToSidA(trusted_sids[i], &t))
			continue;
		eq = EqualSid(sid, t);
		LocalFree(t);
		if (eq)
			return 1;
	}
	return 0;
}

static char *
sid_str(PSID sid)
{
	char *s = NULL, *out;

	if (!ConvertSidToStringSidA(sid, &s))
		return str_fmt("an unreadable SID");
	out = str_fmt("%s", s);
	LocalFree(s);
	return out;
}

/* 0 when h's owner and DACL are safe, else -1 and *why naming what. */
static int
check_sd(HANDLE h, const char *name, int is_dir, char **why)
{
	PSID owner = NULL;
	PACL dacl = NULL;
	PSECURITY_DESCRIPTOR sd = NULL;
	DWORD e = GetSecurityInfo(h, SE_FILE_OBJECT,
				  OWNER_SECURITY_INFORMATION |
					  DACL_SECURITY_INFORMATION,
				  &owner, NULL, &dacl, NULL, &sd);
	DWORD danger = is_dir ? DIR_DANGER : FILE_DANGER;
	int rc = 0;

	if (e != ERROR_SUCCESS) {
		*why = str_fmt("the security of %s cannot be read (error %lu)",
			       name, (unsigned long)e);
		return -1;
	}
	if (owner == NULL || !trusted(owner)) {
		char *s = owner ? sid_str(owner) : NULL;

		*why = str_fmt("%s is owned by %s, neither you nor SYSTEM, "
			       "Administrators or TrustedInstaller", name,
			       s ? s : "nobody");
		free(s);
		rc = -1;
	} else if (dacl == NULL) {
		*why = str_fmt("%s has no DACL: everyone may change it", name);
		rc = -1;
	}
	for (DWORD i = 0; rc == 0 && i < dacl->AceCount; i++) {
		ACE_HEADER *a = NULL;
		ACCESS_ALLOWED_ACE *al;

		if (!GetAce(dacl, i, (void **)&a) ||
		    a->AceType != ACCESS_ALLOWED_ACE_TYPE ||
		    (a->AceFlags & INHERIT_ONLY_ACE))
			continue;
		al = (ACCESS_ALLOWED_ACE *)a;
		if ((al->Mask & danger) && !trusted((PSID)&al->SidStart)) {
			char *s = sid_str((PSID)&al->SidStart);

			*why = str_fmt("%s can be changed by %s (access 0x%lx);"
				       " remove that grant", name,
				       s ? s : "another SID",
				       (unsigned long)al->Mask);
			free(s);
			rc = -1;
		}
	}
	LocalFree(sd);
	return rc;
}

/* Every directory above the final path f (UTF-16, "\\?\C:\..."). */
static int
check_parents(const wchar_t *f, char **why)
{
	wchar_t *d = _wcsdup(f), *cut;
	int rc = 0;

	if (d == NULL) {
		*why = NULL;
		return -1;
	}
	while (rc == 0 && (cut = wcsrchr(d, L'\\')) != NULL && cut > d + 6) {
		HANDLE h;
		char *name;

		*cut = L'\0';
		if (cut[-1] == L':') { /* the drive's root: "C:\" */
			cut[0] = L'\\';
			cut[1] = L'\0';
		}
		name = wp_utf8(d);
		h = CreateFileW(d, READ_CONTROL, FILE_SHARE_READ |
				FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
				OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
		if (h == INVALID_HANDLE_VALUE) {
			*why = str_fmt("%s cannot be opened (error %lu)",
				       name ? name : "a parent",
				       (unsigned long)GetLastError());
			rc = -1;
		} else {
			rc = check_sd(h, name ? name : "a parent", 1, why);
			CloseHandle(h);
		}
		free(name);
		if (cut[-1] == L':')
			break;
	}
	free(d);
	return rc;
}

enum os_trust
os_trust_fd(int fd, const char *path, int want_regular, char **why)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	BY_HANDLE_FILE_INFORMATION bi;
	wchar_t *f = NULL, *again = NULL;
	int is_dir;
	enum os_trust t = OS_TRUST_UNSAFE;

	*why = NULL;
	if (h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(h, &bi)) {
		*why = str_fmt("%s cannot be examined", path);
		return OS_TRUST_UNSAFE;
	}
	is_dir = (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
	if ((bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ||
	    GetFileType(h) != FILE_TYPE_DISK || is_dir == want_regular) {
		*why = str_fmt("%s is not a %s", path,
			       want_regular ? "regular file" : "directory");
		return OS_TRUST_WRONG_TYPE;
	}
	f = wp_final(h);
	if (f == NULL)
		*why = str_fmt("%s cannot be named", path);
	else if (check_sd(h, path, is_dir, why) == 0 &&
		 check_parents(f, why) == 0) {
		again = wp_final(h);
		if (again != NULL && wcscmp(again, f) == 0)
			t = OS_TRUST_OK;
		else
			*why = str_fmt("%s moved while it was checked", path);
	}
	free(f);
	free(again);
	return t;
}

int
os_open_own(const char *path, int want_dir)
{
	wchar_t *w = wp_wide(path);
	HANDLE h;
	BY_HANDLE_FILE_INFORMATION bi;
	DWORD e;
	int fd;

	if (w == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* no write or delete sharing: the file cannot change or be replaced
	 * while the tool holds it */
	h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
			FILE_FLAG_OPEN_REPARSE_POINT |
				(want_dir ? FILE_FLAG_BACKUP_SEMANTICS : 0),
			NULL);
	e = GetLastError();
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ?
				ENOENT :
			e == ERROR_SHARING_VIOLATION ? EBUSY :
			e == ERROR_ACCESS_DENIED ? EACCES : EIO;
		return -1;
	}
	if (GetFileInformationByHandle(h, &bi) &&
	    (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
		CloseHandle(h);
		errno = ELOOP;
		return -1;
	}
	fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

/* The walk's view of h's security (os/os.h struct os_stat): the owner as
 * a uid (0 for SYSTEM, Administrators, TrustedInstaller; os_euid() for
 * the caller; OS_UID_OTHER else) and whether a SID that is neither may
 * change it (an allow ACE with write, append, delete, a child's delete,
 * or the security's write): then *others_write.  0, or -1 when the
 * security cannot be read (then counted as another's, writable). */
int
ws_security(HANDLE h, int is_dir, uint32_t *uid, int *others_write)
{
	PSID owner = NULL;
	PACL dacl = NULL;
	PSECURITY_DESCRIPTOR sd = NULL;
	DWORD danger = is_dir ? (DIR_DANGER | FILE_ADD_FILE |
				 FILE_ADD_SUBDIRECTORY) : FILE_DANGER;
	PSID me = user_sid();

	*uid = OS_UID_OTHER;
	*others_write = 1;
	if (GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION |
			    DACL_SECURITY_INFORMATION, &owner, NULL, &dacl,
			    NULL, &sd) != ERROR_SUCCESS)
		return -1;
	if (owner != NULL && me != NULL && EqualSid(owner, me))
		*uid = os_euid();
	else if (owner != NULL && trusted(owner))
		*uid = 0;
	*others_write = dacl == NULL;
	for (DWORD i = 0; dacl != NULL && i < dacl->AceCount; i++) {
		ACE_HEADER *a = NULL;
		ACCESS_ALLOWED_ACE *al;

		if (!GetAce(dacl, i, (void **)&a) ||
		    a->AceType != ACCESS_ALLOWED_ACE_TYPE ||
		    (a->AceFlags & INHERIT_ONLY_ACE))
			continue;
		al = (ACCESS_ALLOWED_ACE *)a;
		if ((al->Mask & danger) && !trusted((PSID)&al->SidStart))
			*others_write = 1;
	}
	LocalFree(sd);
	return 0;
}
