/* self.c -- this process on Linux: its binary, whether it is set-id. */
#include "os/os.h"

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

int
os_is_setid(void)
{
	return getuid() != geteuid() || getgid() != getegid() ||
	       getauxval(AT_SECURE) != 0;
}
