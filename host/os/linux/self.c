/* SPDX-License-Identifier: MIT */
/* self.c -- this process on Linux: its binary, whether it is set-id, the
 * signals that ask it to stop. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

int
os_self_exe(char *buf, size_t n)
{
	ssize_t len;

	if (n < 2)
		return -1;
	len = readlink("/proc/self/exe", buf, n - 1);
	if (len <= 0 || (size_t)len >= n - 1)
		return -1;
	buf[len] = '\0';
	return buf[0] == '/' ? 0 : -1;
}

const char *
os_self_exe_hint(void)
{
	return "it reads /proc/self/exe, which cannot be read: is /proc mounted? (mount -t proc proc /proc)";
}

char *
os_real_dir(const char *path)
{
	char link[32], buf[PATH_MAX];
	int fd = posix_fd(open(path, O_PATH | O_DIRECTORY | O_CLOEXEC)), e;
	ssize_t len;

	if (fd < 0)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, buf, sizeof(buf) - 1);
	e = errno;
	close(fd);
	if (len <= 0 || (size_t)len >= sizeof(buf) - 1 || buf[0] != '/') {
		errno = len < 0 ? e : ENAMETOOLONG;
		return NULL;
	}
	buf[len] = '\0';
	return strdup(buf);
}

int
os_is_setid(void)
{
	return getuid() != geteuid() || getgid() != getegid() ||
	       getauxval(AT_SECURE) != 0;
}
