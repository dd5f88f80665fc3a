/* SPDX-License-Identifier: MIT */
/* platform.c -- which platform and machine this host was built for. */
#include "os/os.h"

#if defined(__x86_64__)
#define NS_ARCH "amd64"
#elif defined(__aarch64__) || defined(__arm64__)
#define NS_ARCH "arm64"
#else
#define NS_ARCH "unknown"
#endif

const char *
os_platform(void)
{
	return "darwin";
}

const char *
os_arch(void)
{
	return NS_ARCH;
}

/* macOS has no setpriv; sudo takes a uid as #<uid> (its group: the
 * user's own) */
static const struct os_as_user_word as_user[] = {
	{ "sudo", 0 }, { "-u", 0 }, { "#", 'u' }, { "--", 0 }, { NULL, 0 },
};

const struct os_as_user_word *
os_as_user(void)
{
	return as_user;
}
