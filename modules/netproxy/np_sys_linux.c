/* SPDX-License-Identifier: MIT */
/* np_sys_linux.c -- the proxy's platform layer on Linux (np.h): ready()
 * (Landlock and a seccomp filter for this machine), the wall after the
 * rlimits (no_new_privs, not dumpable, Landlock, seccomp: in that order),
 * accept4, and the relay's copy through a pipe with splice(2). */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "banned.h"
#include "common/nk_say.h"
#include "np.h"
#include "np_linux.h"

/* The pipe keeps the kernel's default size (64 KiB): a larger one is
 * taken from the user's pipe quota (fs.pipe-user-pages-soft), and many
 * tunnels would leave the user's own pipes outside the wall at a page. */
#define SPLICE_CHUNK (1 << 20)

int
np_sys_ready(const struct ns_host *host)
{
	int abi = np_landlock_abi();

	if (abi < 1)
		return nk_say(host, NS_E_UNAVAILABLE, "no_proxy",
			      "the proxy walls itself with Landlock, which "
			      "this kernel does not offer (%s): enable the "
			      "landlock LSM (lsm= boot parameter)",
			      strerror(errno));
	if (!np_seccomp_arch())
		return nk_say(host, NS_E_UNAVAILABLE, "no_proxy",
			      "the proxy's seccomp filter is written for "
			      "x86_64 and aarch64 only");
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
		return nk_say(host, NS_E_UNAVAILABLE, "no_proxy",
			      "the proxy walls itself with seccomp, which "
			      "this kernel does not offer (%s)",
			      strerror(errno));
	return NS_OK;
}

void
np_sys_prepare(void)
{
	/* one malloc arena: threads would each reserve 64 MiB of address
	 * space against RLIMIT_AS */
	(void)mallopt(M_ARENA_MAX, 1);
}

int
np_sys_wall(const struct ns_host *host, const struct ns_proxy_conf *conf)
{
	const char *what = "prctl(PR_SET_NO_NEW_PRIVS)";

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    (what = "prctl(PR_SET_DUMPABLE)",
	     prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) ||
	    np_landlock(conf, &what) != 0 ||
	    (what = "seccomp", np_seccomp() != 0))
		return nk_say(host, -1, "no_proxy", "the proxy could not wall "
			      "itself: %s: %s", what, strerror(errno));
	return 0;
}

int
np_sys_accept(int lfd)
{
	return accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
}

/* The pipe's bytes (n) all to `to`: 0 or -1. */
static int
drain(int pipe_r, int to, ssize_t n)
{
	while (n > 0) {
		ssize_t m = splice(pipe_r, NULL, to, NULL, (size_t)n,
				   SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			return -1;
		n -= m;
	}
	return 0;
}

int
np_sys_copy(int from, int to)
{
	int p[2], rc = 0;

	if (pipe2(p, O_CLOEXEC) != 0)
		return np_net_copy_rw(from, to);
	for (;;) {
		ssize_t n = splice(from, NULL, p[1], NULL, SPLICE_CHUNK,
				   SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || drain(p[0], to, n) != 0) {
			rc = n == 0 ? 0 : -1;
			break;
		}
	}
	close(p[0]);
	close(p[1]);
	return rc;
}
