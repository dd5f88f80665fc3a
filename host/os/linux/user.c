/* SPDX-License-Identifier: MIT */
/* user.c -- the user database on Linux: a uid's home directory.
 *
 * getpwuid(3) goes through NSS: on a machine without nscd it tries the
 * nscd socket twice, reads nsswitch.conf, then /etc/passwd -- about 95 us,
 * measured, in a tool whose whole wrap costs about 2 ms.  When
 * nsswitch.conf names "files" first for passwd (as Debian's does: "files
 * systemd"), NSS answers a uid found in /etc/passwd from that file, with
 * the same parser fgetpwent_r(3) uses; so the tool reads it itself and asks
 * NSS only when the configuration is anything else or the uid is not in
 * the file (a systemd dynamic user, LDAP, ...). */
#include "os/os.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NSSWITCH "/etc/nsswitch.conf"
#define PASSWD "/etc/passwd"

/* Is db's first source in this nsswitch.conf text "files", with no
 * [action] after it that could send NSS on past a hit? */
int
os_nss_files_first(const char *conf, const char *db)
{
	size_t dl = strlen(db);

	for (const char *l = conf; l != NULL && *l != '\0';
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = l + strspn(l, " \t");
		size_t n;

		if (strncmp(p, db, dl) != 0 || p[dl] != ':')
			continue;
		p += dl + 1;
		p += strspn(p, " \t");
		n = strcspn(p, " \t\n#");
		if (n != 5 || strncmp(p, "files", 5) != 0)
			return 0;
		p += n;
		p += strspn(p, " \t");
		return *p != '[';
	}
	return 0; /* no line: the default is glibc's to choose, ask it */
}

static int
passwd_files_first(void)
{
	char text[8192];
	FILE *f = fopen(NSSWITCH, "re");
	size_t n;

	if (f == NULL)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	if (n == sizeof(text) - 1)
		return 0; /* too long to judge whole: ask NSS */
	text[n] = '\0';
	return os_nss_files_first(text, "passwd");
}

/* The first /etc/passwd entry of uid, as NSS's files source finds it:
 * 1 with home set, 0 not there, -1 cannot say. */
static int
passwd_file_home(unsigned uid, char *home, size_t size)
{
	char buf[4096];
	struct passwd pw, *hit;
	FILE *f = fopen(PASSWD, "re");
	int rc, found = 0;

	if (f == NULL)
		return -1;
	while ((rc = fgetpwent_r(f, &pw, buf, sizeof(buf), &hit)) == 0)
		if (hit->pw_uid == (uid_t)uid) {
			found = 1;
			break;
		}
	fclose(f);
	if (!found)
		return rc == ENOENT ? 0 : -1;
	if (hit->pw_dir == NULL || strlen(hit->pw_dir) >= size)
		return -1;
	memcpy(home, hit->pw_dir, strlen(hit->pw_dir) + 1);
	return 1;
}

static int
nss_home(unsigned uid, char *home, size_t size)
{
	struct passwd *pw = getpwuid((uid_t)uid);

	if (pw == NULL || pw->pw_dir == NULL || strlen(pw->pw_dir) >= size)
		return 0;
	memcpy(home, pw->pw_dir, strlen(pw->pw_dir) + 1);
	return 1;
}

const char *
os_user_home(unsigned uid)
{
	static char home[PATH_MAX];
	static unsigned for_uid;
	static int state; /* 0 never asked, 1 home[] holds it, 2 none */
	int rc = 0;

	if (state != 0 && for_uid == uid)
		return state == 1 ? home : NULL;
	if (passwd_files_first())
		rc = passwd_file_home(uid, home, sizeof(home));
	if (rc <= 0)
		rc = nss_home(uid, home, sizeof(home));
	for_uid = uid;
	state = rc > 0 && home[0] == '/' ? 1 : 2;
	return state == 1 ? home : NULL;
}
