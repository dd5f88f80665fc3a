/* SPDX-License-Identifier: MIT */
/* test_os.c -- host/os/linux: the user database's fast path.  The home
 * os_user_home gives must be the one getpwuid(3) gives, for a user in
 * /etc/passwd, for root and for a uid nobody has; and the nsswitch.conf
 * reading that allows the fast path must say yes only when NSS would
 * answer from /etc/passwd first. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "os/os.h"

static void
t_files_first(void)
{
	static const struct {
		const char *conf;
		int want;
	} cases[] = {
		{ "passwd:         files systemd\ngroup: files\n", 1 },
		{ "passwd:files\n", 1 },
		{ "  passwd:\tfiles # the file first\n", 1 },
		{ "# passwd: ldap\npasswd: files\n", 1 },
		{ "group: files\n", 0 },                   /* no passwd line */
		{ "passwd: compat\n", 0 },                 /* NIS +/- lines */
		{ "passwd: sss files\n", 0 },              /* files not first */
		{ "passwd: files [NOTFOUND=return] ldap\n", 0 }, /* an action */
		{ "passwd: files[SUCCESS=continue] ldap\n", 0 },
		{ "passwd: filesystem\n", 0 },
		{ "passwdx: files\n", 0 },
		{ "#passwd: files\n", 0 },                 /* a comment */
		{ "passwd:\n", 0 },
		{ "", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = os_nss_files_first(cases[i].conf, "passwd");

		CU_ASSERT_EQUAL(got, cases[i].want);
		if (got != cases[i].want)
			fprintf(stderr, "\n  case %zu: got %d\n", i, got);
	}
	CU_ASSERT_EQUAL(os_nss_files_first("group: files\n", "group"), 1);
}

/* NSS's own answer for uid, compared with the fast path's. */
static void
same_as_nss(unsigned uid)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	const char *want = pw != NULL && pw->pw_dir != NULL &&
			   pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	char copy[4096] = "";
	const char *got;

	if (want != NULL)
		snprintf(copy, sizeof(copy), "%s", want);
	got = os_user_home(uid);
	if (want == NULL) {
		CU_ASSERT_PTR_NULL(got);
	} else {
		CU_ASSERT_STRING_EQUAL(got, copy);
	}
	/* asked again: the same answer from the per-process memory */
	CU_ASSERT(os_user_home(uid) == got);
}

static void
t_home_matches_nss(void)
{
	same_as_nss(0);
	same_as_nss((unsigned)getuid());
	same_as_nss(3999999u); /* a uid nobody has: NULL both ways */
	same_as_nss(0);        /* back to an earlier uid */
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "nsswitch.conf: files first", t_files_first },
		{ "os_user_home is getpwuid's answer", t_home_matches_nss },
		{ NULL, NULL }
	};

	return cu_run("os", NULL, NULL, cases);
}
