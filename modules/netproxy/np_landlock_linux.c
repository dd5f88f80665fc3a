/* SPDX-License-Identifier: MIT */
/* np_landlock_linux.c -- the proxy's Landlock domain (np_linux.h): every
 * filesystem right the kernel's ABI knows is handled; read-only rules on
 * the resolver's files and the library directories; TCP bind handled
 * with no rule (nothing), TCP connect to the entries' ports and DNS's 53;
 * abstract unix sockets and signals scoped to the proxy. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "banned.h"
#include "np_linux.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

#define LL_VERSION 1u   /* LANDLOCK_CREATE_RULESET_VERSION */
#define LL_RULE_PATH 1  /* LANDLOCK_RULE_PATH_BENEATH */
#define LL_RULE_PORT 2  /* LANDLOCK_RULE_NET_PORT */
#define FS_EXECUTE (1ull << 0)
#define FS_READ_FILE (1ull << 2)
#define FS_READ_DIR (1ull << 3)
#define FS_ABI1 ((1ull << 13) - 1) /* execute .. make_sym */
#define FS_REFER (1ull << 13)      /* ABI 2 */
#define FS_TRUNCATE (1ull << 14)   /* ABI 3 */
#define FS_IOCTL_DEV (1ull << 15)  /* ABI 5 */
#define NET_BIND_TCP (1ull << 0)   /* ABI 4 */
#define NET_CONNECT_TCP (1ull << 1)
#define SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ull << 1)
#define DNS_PORT 53

struct ll_attr {
	uint64_t fs, net, scoped;
};

struct ll_path {
	uint64_t allowed;
	int32_t fd;
} __attribute__((packed));

struct ll_port {
	uint64_t allowed, port;
};

#define FILE_R FS_READ_FILE
#define TREE_RX (FS_READ_FILE | FS_READ_DIR | FS_EXECUTE)

/* What name resolution reads (glibc: nsswitch, the files and dns
 * modules, dlopen through ld.so.cache) and where the libraries live. */
static const struct {
	const char *path;
	uint64_t rights;
} ro[] = {
	{ "/etc/resolv.conf", FILE_R },  { "/etc/hosts", FILE_R },
	{ "/etc/nsswitch.conf", FILE_R }, { "/etc/gai.conf", FILE_R },
	{ "/etc/host.conf", FILE_R },    { "/etc/ld.so.cache", FILE_R },
	{ "/usr", TREE_RX },             { "/lib", TREE_RX },
	{ "/lib64", TREE_RX },           { "/lib32", TREE_RX },
};

int
np_landlock_abi(void)
{
	return (int)syscall(SYS_landlock_create_ruleset, NULL, (size_t)0,
			    LL_VERSION);
}

static uint64_t
fs_rights(int abi)
{
	uint64_t r = FS_ABI1;

	r |= abi >= 2 ? FS_REFER : 0;
	r |= abi >= 3 ? FS_TRUNCATE : 0;
	r |= abi >= 5 ? FS_IOCTL_DEV : 0;
	return r;
}

/* A rule per path that exists (opened following links: the rule is on
 * the file resolv.conf points to). */
static int
add_paths(int rs)
{
	for (size_t i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
		int fd = open(ro[i].path, O_PATH | O_CLOEXEC);
		struct ll_path pb = { ro[i].rights, fd };
		long r;

		if (fd < 0)
			continue;
		r = syscall(SYS_landlock_add_rule, rs, LL_RULE_PATH, &pb, 0u);
		close(fd);
		if (r != 0)
			return -1;
	}
	return 0;
}

static int
add_port(int rs, uint64_t port)
{
	struct ll_port np = { NET_CONNECT_TCP, port };

	return (int)syscall(SYS_landlock_add_rule, rs, LL_RULE_PORT, &np, 0u);
}

static int
add_ports(int rs, const struct ns_proxy_conf *conf)
{
	if (add_port(rs, DNS_PORT) != 0)
		return -1;
	for (size_t i = 0; i < conf->n_allow; i++)
		if (add_port(rs, conf->allow[i].port) != 0)
			return -1;
	return 0;
}

static int
ruleset(int abi)
{
	struct ll_attr a = { fs_rights(abi), 0, 0 };
	size_t size = sizeof(uint64_t);

	if (abi >= 4) {
		a.net = NET_BIND_TCP | NET_CONNECT_TCP;
		size = 2 * sizeof(uint64_t);
	}
	if (abi >= 6) {
		a.scoped = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL;
		size = sizeof(a);
	}
	return (int)syscall(SYS_landlock_create_ruleset, &a, size, 0u);
}

int
np_landlock(const struct ns_proxy_conf *conf, const char **what)
{
	int abi = np_landlock_abi(), rs, r = -1;

	*what = "landlock_create_ruleset";
	if (abi < 1 || (rs = ruleset(abi)) < 0)
		return -1;
	*what = "landlock_add_rule (paths)";
	if (add_paths(rs) != 0)
		goto out;
	*what = "landlock_add_rule (ports)";
	if (abi >= 4 && add_ports(rs, conf) != 0)
		goto out;
	*what = "landlock_restrict_self";
	r = (int)syscall(SYS_landlock_restrict_self, rs, 0u);
out:
	abi = errno;
	close(rs);
	errno = abi;
	return r == 0 ? 0 : -1;
}
