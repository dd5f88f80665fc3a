/* SPDX-License-Identifier: MIT */
/* platform.c -- which platform and machine this host was built for. */
#include "os/os.h"

#if defined(__x86_64__)
#define NS_ARCH "amd64"
#elif defined(__aarch64__)
#define NS_ARCH "arm64"
#elif defined(__i386__)
#define NS_ARCH "386"
#elif defined(__arm__)
#define NS_ARCH "arm"
#elif defined(__riscv)
#define NS_ARCH "riscv64"
#else
#define NS_ARCH "unknown"
#endif

const char *
os_platform(void)
{
	return "linux";
}

const char *
os_arch(void)
{
	return NS_ARCH;
}

/* util-linux's setpriv: essential on Debian, no configuration asked */
static const struct os_as_user_word as_user[] = {
	{ "setpriv", 0 }, { "--reuid=", 'u' }, { "--regid=", 'g' },
	{ "--clear-groups", 0 }, { "--", 0 }, { NULL, 0 },
};

const struct os_as_user_word *
os_as_user(void)
{
	return as_user;
}
