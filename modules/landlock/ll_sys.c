/* SPDX-License-Identifier: MIT */
/* ll_sys.c -- the three Landlock system calls (glibc has no wrappers).
 * Every function here is async-signal-safe: the child calls them between
 * fork and execve. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "banned.h"
#include "ll_table.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

int
ll_sys_abi(int *err)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, (size_t)0,
			 NOVA_LL_CREATE_RULESET_VERSION);

	if (v < 0) {
		*err = errno;
		return LL_NO_LANDLOCK;
	}
	*err = 0;
	return (int)v;
}

int
ll_sys_create_ruleset(const struct nova_ll_ruleset_attr *attr)
{
	/* Always the 24-byte struct: a kernel that knows less accepts a
	 * larger struct whose tail is zero (landlock.md 1). */
	return (int)syscall(SYS_landlock_create_ruleset, attr, sizeof(*attr),
			    0U);
}

int
ll_sys_add_path(int ruleset, int fd, uint64_t allowed)
{
	struct nova_ll_path_beneath_attr pb = {
		.allowed_access = allowed,
		.parent_fd = fd,
	};

	return (int)syscall(SYS_landlock_add_rule, ruleset,
			    NOVA_LL_RULE_PATH_BENEATH, &pb, 0U);
}

int
ll_sys_add_port(int ruleset, uint16_t port, uint64_t allowed)
{
	struct nova_ll_net_port_attr np = {
		.allowed_access = allowed,
		.port = port,
	};

	return (int)syscall(SYS_landlock_add_rule, ruleset,
			    NOVA_LL_RULE_NET_PORT, &np, 0U);
}

int
ll_sys_restrict_self(int ruleset, uint32_t flags)
{
	return (int)syscall(SYS_landlock_restrict_self, ruleset, flags);
}

/* CAP_AUDIT_READ (37) in the effective set: the audit records are
 * readable.  capget is async-signal-safe and changes nothing. */
int
ll_can_read_audit(void)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522u, 0 }; /* _LINUX_CAPABILITY_VERSION_3 */
	struct {
		uint32_t effective, permitted, inheritable;
	} data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return 0;
	return (data[37 / 32].effective >> (37 % 32)) & 1u;
}
