/* SPDX-License-Identifier: MIT */
/* random.c -- bytes from the system's random source (os/os.h
 * os_random_bytes): getentropy(), which both glibc and macOS (10.12+) have
 * and which gives at most 256 bytes a call. */
#include "os/os.h"

#include <errno.h>
#include <sys/random.h>
#include <unistd.h>

#define ENTROPY_MAX 256

int
os_random_bytes(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		size_t k = n < ENTROPY_MAX ? n : ENTROPY_MAX;

		if (getentropy(p, k) != 0)
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}
