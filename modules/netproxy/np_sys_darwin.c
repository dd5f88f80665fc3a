/* SPDX-License-Identifier: MIT */
/* np_sys_darwin.c -- the proxy's platform layer on darwin (np.h).  The
 * wall there is the rlimits np_wall.c sets and nothing more: sandbox_init
 * is deprecated and not in the headers the portable check compiles
 * against, so the darwin proxy does not confine its own filesystem or
 * system calls (docs/SPEC-SANDBOX.md says so).  The relay copies with
 * read/write. */
#include <fcntl.h>
#include <sys/socket.h>

#include "banned.h"
#include "np.h"

int
np_sys_ready(const struct ns_host *host)
{
	(void)host;
	return NS_OK;
}

void
np_sys_prepare(void)
{
}

int
np_sys_wall(const struct ns_host *host, const struct ns_proxy_conf *conf)
{
	(void)host;
	(void)conf;
	return 0;
}

int
np_sys_accept(int lfd)
{
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0)
		return -1;
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int
np_sys_copy(int from, int to)
{
	return np_net_copy_rw(from, to);
}
