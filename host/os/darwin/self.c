/* SPDX-License-Identifier: MIT */
/* self.c -- this process on darwin: its binary (_NSGetExecutablePath,
 * resolved), a directory's canonical name (F_GETPATH on the open
 * descriptor), whether it is set-id (issetugid), the stop signals.
 * Written without a Mac, not yet compiled there. */
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mach-o/dyld.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
os_self_exe(char *buf, size_t n)
{
	char raw[PATH_MAX], real[PATH_MAX];
	uint32_t size = sizeof(raw);
	size_t len;

	if (_NSGetExecutablePath(raw, &size) != 0 ||
	    realpath(raw, real) == NULL)
		return -1;
	len = strlen(real);
	if (len + 1 > n || real[0] != '/')
		return -1;
	memcpy(buf, real, len + 1);
	return 0;
}

const char *
os_self_exe_hint(void)
{
	return "_NSGetExecutablePath and realpath did not name it";
}

char *
os_real_dir(const char *path)
{
	char buf[PATH_MAX];
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

	if (fd < 0)
		return NULL;
	if (fcntl(fd, F_GETPATH, buf) == -1 || buf[0] != '/') {
		e = errno;
		close(fd);
		errno = e ? e : ENOENT;
		return NULL;
	}
	close(fd);
	return strdup(buf);
}

int
os_is_setid(void)
{
	return issetugid() != 0 || getuid() != geteuid() ||
	       getgid() != getegid();
}
