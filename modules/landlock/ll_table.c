/* SPDX-License-Identifier: MIT */
/* ll_table.c -- the fixed roots and devices, the Landlock ABI table and the
 * access masks.  Pure: no system call here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "banned.h"
#include "ll_table.h"

/* /dev is not a root: a rule on it is inherited by every terminal in
 * /dev/pts and every object in /dev/shm and /dev/mqueue.  The devices are
 * named one by one (SPEC section 6, the device rows). */
const char *const ll_read_roots[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc",
	"/run/systemd/resolve", "/opt", "/proc",
	"/dev/random", "/dev/urandom", /* read only: no pool mixing */
	NULL
};

const char *const ll_write_files[] = {
	"/dev/null", "/dev/zero", "/dev/full", NULL
};

/* /dev stays a prefix: a command in /dev/shm must not make it a root. */
const char *const ll_system_prefixes[] = {
	"/usr", "/bin", "/sbin", "/dev", NULL
};

#define FS_V1 ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define FS_V2 (FS_V1 | NOVA_LL_FS_REFER)
#define FS_V3 (FS_V2 | NOVA_LL_FS_TRUNCATE)
#define FS_V5 (FS_V3 | NOVA_LL_FS_IOCTL_DEV)
#define FS_V9 (FS_V5 | NOVA_LL_FS_RESOLVE_UNIX)
#define NET_V4 (NOVA_LL_NET_BIND_TCP | NOVA_LL_NET_CONNECT_TCP)
#define SCOPE_V6 (NOVA_LL_SCOPE_ABSTRACT_UNIX | NOVA_LL_SCOPE_SIGNAL)
#define LOG_V7                                                  \
	(NOVA_LL_LOG_SAME_EXEC_OFF | NOVA_LL_LOG_NEW_EXEC_ON | \
	 NOVA_LL_LOG_SUBDOMAINS_OFF)
#define FLAGS_V8 (LOG_V7 | NOVA_LL_RESTRICT_TSYNC)

/* One row per ABI; rows are cumulative.  Sources: ll_table.h. */
static const struct ll_abi_row table[] = {
	{ 1, "5.13", FS_V1, 0, 0, 0, "create_ruleset, add_rule, restrict_self" },
	{ 2, "5.19", FS_V2, 0, 0, 0, "FS_REFER (link/rename across dirs)" },
	{ 3, "6.2", FS_V3, 0, 0, 0, "FS_TRUNCATE" },
	{ 4, "6.7", FS_V3, NET_V4, 0, 0, "NET_BIND_TCP, NET_CONNECT_TCP" },
	{ 5, "6.10", FS_V5, NET_V4, 0, 0, "FS_IOCTL_DEV" },
	{ 6, "6.12", FS_V5, NET_V4, SCOPE_V6, 0,
	  "SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL" },
	{ 7, "6.15", FS_V5, NET_V4, SCOPE_V6, LOG_V7,
	  "restrict_self LOG_* flags (audit)" },
	{ 8, "7.0", FS_V5, NET_V4, SCOPE_V6, FLAGS_V8,
	  "restrict_self TSYNC (no new access right)" },
	{ 9, "-", FS_V9, NET_V4, SCOPE_V6, FLAGS_V8,
	  "FS_RESOLVE_UNIX (pathname unix socket connect)" },
};

#define TABLE_N (sizeof(table) / sizeof(table[0]))

int
ll_table_top(void)
{
	return table[TABLE_N - 1].abi;
}

const struct ll_abi_row *
ll_row(int abi)
{
	if (abi < 1 || abi > ll_table_top())
		return NULL;
	return &table[abi - 1];
}

int
ll_built_abi(int kabi)
{
	return kabi > ll_table_top() ? ll_table_top() : kabi;
}

static uint64_t
class_rights(uint32_t access, uint64_t handled)
{
	switch (access) {
	case NS_ACCESS_READ_EXEC:
		return NOVA_LL_FS_EXECUTE | NOVA_LL_FS_READ_FILE |
		       NOVA_LL_FS_READ_DIR;
	case NS_ACCESS_READ:
		return NOVA_LL_FS_READ_FILE | NOVA_LL_FS_READ_DIR;
	case NS_ACCESS_WRITE:
		return handled;
	case NS_ACCESS_WRITE_FILE:
		return NOVA_LL_FS_EXECUTE | NOVA_LL_FS_READ_FILE |
		       NOVA_LL_FS_WRITE_FILE | NOVA_LL_FS_TRUNCATE |
		       NOVA_LL_FS_IOCTL_DEV;
	default:
		return 0;
	}
}

uint64_t
ll_access_mask(uint32_t access, int abi, int is_dir)
{
	const struct ll_abi_row *row = ll_row(abi);
	uint64_t m;

	if (row == NULL)
		return 0;
	m = class_rights(access, row->fs) & row->fs;
	if (!is_dir)
		m &= NOVA_LL_ACCESS_FILE;
	return m;
}

uint32_t
ll_restrict_flags(int abi)
{
	const struct ll_abi_row *row = ll_row(abi);

	/* LOG_NEW_EXEC_ON so audit can name the command's denials later
	 * (landlock.md 2); never LOG_SAME_EXEC_OFF: it hides the fs.execute
	 * denial of the command itself. */
	if (row == NULL || !(row->restrict_flags & NOVA_LL_LOG_NEW_EXEC_ON))
		return 0;
	return NOVA_LL_LOG_NEW_EXEC_ON;
}

void
ll_scope_layer(int abi, struct nova_ll_ruleset_attr *attr)
{
	const struct ll_abi_row *row = ll_row(abi);

	memset(attr, 0, sizeof(*attr));
	if (row != NULL && row->scoped != 0) {
		attr->scoped = NOVA_LL_SCOPE_SIGNAL |
			       NOVA_LL_SCOPE_ABSTRACT_UNIX;
		return;
	}
	/* Below ABI 6 there is no scope: a layer must handle one fs right to
	 * exist at all.  MAKE_BLOCK with no rule is harmless to lose, and the
	 * new layer still puts the tool outside the command's sub-domain, so
	 * ptrace of the tool is refused (landlock.md 4.5). */
	attr->handled_access_fs = NOVA_LL_FS_MAKE_BLOCK;
}

int
ll_net_enforceable(int kabi)
{
	return kabi >= 1 && ll_built_abi(kabi) >= 4;
}
