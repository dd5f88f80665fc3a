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
