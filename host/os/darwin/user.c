/* SPDX-License-Identifier: MIT */
/* user.c -- a uid's home directory on darwin: Open Directory through
 * getpwuid_r (there is no nsswitch.conf and no passwd file to prefer).
 * Plain POSIX. */
#include "os/os.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* No nsswitch.conf on darwin: never "files first". */
int
os_nss_files_first(const char *conf, const char *db)
{
	(void)conf;
	(void)db;
	return 0;
}

const char *
os_user_home(unsigned uid)
{
	static char home[PATH_MAX];
	static unsigned for_uid;
	static int state; /* 0 never asked, 1 home[] holds it, 2 none */
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (state != 0 && for_uid == uid)
		return state == 1 ? home : NULL;
	for_uid = uid;
	state = 2;
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 &&
	    res != NULL && res->pw_dir != NULL && res->pw_dir[0] == '/' &&
	    strlen(res->pw_dir) < sizeof(home)) {
		memcpy(home, res->pw_dir, strlen(res->pw_dir) + 1);
		state = 1;
	}
	return state == 1 ? home : NULL;
}
