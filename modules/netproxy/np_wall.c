/* SPDX-License-Identifier: MIT */
/* np_wall.c -- the proxy's own wall, its portable half (np.h): resource
 * limits (address space, descriptors, no core, no file growth), then the
 * platform's wall (np_sys_<os>.c). */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "banned.h"
#include "common/nk_say.h"
#include "np.h"

/* No RLIMIT_AS under ASan (it reserves terabytes of shadow) nor on
 * darwin (macOS aliases it to RLIMIT_RSS and does not enforce it). */
#if defined(__SANITIZE_ADDRESS__) || defined(__APPLE__)
#define NP_NO_AS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NP_NO_AS 1
#endif
#endif

/* Per connection: the client, the server and a pipe each way. */
#define FDS_PER_CONN 6
#define FDS_SPARE 32

size_t
np_conns(const struct ns_proxy_conf *conf)
{
	size_t n = conf->max_conns == 0 ? NP_CONNS_DEFAULT : conf->max_conns;

	return n > NP_CONNS_MAX ? NP_CONNS_MAX : n;
}

#ifndef NP_NO_AS

static uint64_t
mem_limit(const struct ns_proxy_conf *conf)
{
	uint64_t want = (256ull << 20) + (uint64_t)np_conns(conf) * (1u << 20);

	if (conf->max_mem_bytes != 0)
		return conf->max_mem_bytes;
	return want > NP_MEM_DEFAULT ? want : NP_MEM_DEFAULT;
}
#endif

/* Lower both limits to v (never above the hard limit already set). */
static int
lower(int res, rlim_t v)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) != 0)
		return -1;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < v)
		v = rl.rlim_max;
	rl.rlim_cur = rl.rlim_max = v;
	return setrlimit(res, &rl);
}

int
np_wall(const struct ns_host *host, const struct ns_proxy_conf *conf,
	size_t nlisten)
{
	rlim_t fds = (rlim_t)(FDS_SPARE + nlisten +
			      np_conns(conf) * FDS_PER_CONN);
	const char *what = NULL;

	if (lower(RLIMIT_NOFILE, fds) != 0)
		what = "RLIMIT_NOFILE";
	else if (lower(RLIMIT_CORE, 0) != 0)
		what = "RLIMIT_CORE";
	else if (lower(RLIMIT_FSIZE, 0) != 0)
		what = "RLIMIT_FSIZE";
#ifndef NP_NO_AS
	else if (lower(RLIMIT_AS, (rlim_t)mem_limit(conf)) != 0)
		what = "RLIMIT_AS";
#endif
	if (what != NULL)
		return nk_say(host, -1, "no_proxy", "the proxy could not set "
			      "its %s: %s", what, strerror(errno));
	return np_sys_wall(host, conf) == 0 ? 0 : -1;
}
