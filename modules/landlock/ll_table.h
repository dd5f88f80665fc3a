/* SPDX-License-Identifier: MIT */
/* ll_table.h -- landlock.so internals: the Landlock uapi under our own
 * names, the ABI table, the access masks, the texts (note, clamp, policy)
 * and the seccomp filter.  Everything here except ll_sys_* is pure, so the
 * unit suite (modules/landlock/tests/test_landlock.c) can call it.
 *
 * Never include <linux/landlock.h>: Debian 12's copy stops at ABI 2 and its
 * struct landlock_ruleset_attr is the 8-byte ABI 1 struct. */
#ifndef NS_LL_TABLE_H
#define NS_LL_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ns_backend.h"

/* ---- uapi, under our own names ------------------------------------
 * Source of every row: include/uapi/linux/landlock.h.
 *   ABI 1..5: torvalds/linux @f057b572 (the fs rights 1<<0..1<<15, the net
 *             rights, struct landlock_net_port_attr, RULE_NET_PORT = 2);
 *   ABI 6..9: linux-next, linuxppc/linux-next-ci @c9d50ab6: `scoped`,
 *             LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0),
 *             LANDLOCK_SCOPE_SIGNAL (1ULL << 1), the restrict_self flags
 *             LOG_SAME_EXEC_OFF (1U << 0), LOG_NEW_EXEC_ON (1U << 1),
 *             LOG_SUBDOMAINS_OFF (1U << 2), TSYNC (1U << 3) and
 *             LANDLOCK_ACCESS_FS_RESOLVE_UNIX (1ULL << 16), "available since
 *             the ninth version of the Landlock ABI".
 *   ABI 6 and 7 were also measured on this kernel (ABI 7, 6.18); TSYNC as
 *   ABI 8 per the landlock_restrict_self(2) man page.  The same header has
 *   UDP rights "added in Landlock ABI version 10" and quiet_* fields: not in
 *   this table until they reach a released kernel (an ABI 10 kernel is
 *   clamped to 9). */
struct nova_ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;             /* ABI 6 */
};

struct nova_ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct nova_ll_net_port_attr { /* ABI 4 */
	uint64_t allowed_access;
	uint64_t port;
} __attribute__((packed));

#define NOVA_LL_CREATE_RULESET_VERSION (1U << 0)
#define NOVA_LL_RULE_PATH_BENEATH 1
#define NOVA_LL_RULE_NET_PORT 2

#define NOVA_LL_FS_EXECUTE (1ULL << 0)
#define NOVA_LL_FS_WRITE_FILE (1ULL << 1)
#define NOVA_LL_FS_READ_FILE (1ULL << 2)
#define NOVA_LL_FS_READ_DIR (1ULL << 3)
#define NOVA_LL_FS_REMOVE_DIR (1ULL << 4)
#define NOVA_LL_FS_REMOVE_FILE (1ULL << 5)
#define NOVA_LL_FS_MAKE_CHAR (1ULL << 6)
#define NOVA_LL_FS_MAKE_DIR (1ULL << 7)
#define NOVA_LL_FS_MAKE_REG (1ULL << 8)
#define NOVA_LL_FS_MAKE_SOCK (1ULL << 9)
#define NOVA_LL_FS_MAKE_FIFO (1ULL << 10)
#define NOVA_LL_FS_MAKE_BLOCK (1ULL << 11)
#define NOVA_LL_FS_MAKE_SYM (1ULL << 12)
#define NOVA_LL_FS_REFER (1ULL << 13)        /* ABI 2 */
#define NOVA_LL_FS_TRUNCATE (1ULL << 14)     /* ABI 3 */
#define NOVA_LL_FS_IOCTL_DEV (1ULL << 15)    /* ABI 5 */
#define NOVA_LL_FS_RESOLVE_UNIX (1ULL << 16) /* ABI 9 */

#define NOVA_LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define NOVA_LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */

#define NOVA_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define NOVA_LL_SCOPE_SIGNAL (1ULL << 1)        /* ABI 6 */

#define NOVA_LL_LOG_SAME_EXEC_OFF (1U << 0)  /* ABI 7 */
#define NOVA_LL_LOG_NEW_EXEC_ON (1U << 1)    /* ABI 7 */
#define NOVA_LL_LOG_SUBDOMAINS_OFF (1U << 2) /* ABI 7 */
#define NOVA_LL_RESTRICT_TSYNC (1U << 3)     /* ABI 8 */

/* The rights a rule on a non-directory may carry (sandboxer.c ACCESS_FILE;
 * RESOLVE_UNIX is listed with the file rights in the ABI 9 header). */
#define NOVA_LL_ACCESS_FILE                                                \
	(NOVA_LL_FS_EXECUTE | NOVA_LL_FS_WRITE_FILE | NOVA_LL_FS_READ_FILE | \
	 NOVA_LL_FS_TRUNCATE | NOVA_LL_FS_IOCTL_DEV | NOVA_LL_FS_RESOLVE_UNIX)

/* ---- the fixed roots and devices (docs/SPEC-SANDBOX.md section 6) ---- */
/* Read roots (READ_EXEC), /dev/random and /dev/urandom among them: read,
 * never written. */
extern const char *const ll_read_roots[];
/* Devices read and written (WRITE_FILE): /dev/null, /dev/zero, /dev/full.
 * /dev/tty and the terminal on the command's stdio are the host's to add,
 * per run (host/policy/ttys.c). */
extern const char *const ll_write_files[];
/* A command beneath one of these adds no optional read root. */
extern const char *const ll_system_prefixes[];

/* ---- the ABI table --------------------------------------------------- */
struct ll_abi_row {
	int abi;
	const char *kernel;      /* first mainline release (informative) */
	uint64_t fs;             /* every fs right the ABI defines */
	uint64_t net;            /* every net right */
	uint64_t scoped;         /* every scope */
	uint32_t restrict_flags; /* every landlock_restrict_self flag */
	const char *adds;        /* what the row adds, for the table's reader */
};

/* The row for `abi`, or NULL when it is below 1 or above the table. */
const struct ll_abi_row *ll_row(int abi);
/* The table's highest ABI. */
int ll_table_top(void);
/* The ABI the wall is built at for the kernel's `kabi` (>= 1): kabi, or the
 * table's top when kabi is above it. */
int ll_built_abi(int kabi);

/* Rights for one ns_rule access class at built ABI `abi`; a non-directory
 * gets only file rights.  0 for an unknown class. */
uint64_t ll_access_mask(uint32_t access, int abi, int is_dir);
/* The restrict_self flags the main layer uses at built ABI `abi`. */
uint32_t ll_restrict_flags(int abi);
/* The nested, child-only layer (see ll_spawn.c) at built ABI `abi`. */
void ll_scope_layer(int abi, struct nova_ll_ruleset_attr *attr);

/* ---- facts and texts --------------------------------------------------
 * `kabi` is what the kernel reported: >= 1 an ABI, 0 an ABI below 1, -1 no
 * Landlock.  `err` is the errno of the failed query when kabi == -1. */
#define LL_NO_LANDLOCK (-1)

int ll_net_enforceable(int kabi);
void ll_fill_facts(int kabi, int err, struct ns_wall_facts *f);
void ll_note(int kabi, char *buf, size_t n);
void ll_clamp_sentence(int kabi, char *buf, size_t n);
void ll_unavailable_why(int err, char *buf, size_t n);

/* The refusals prepare() says before it touches the kernel, in order.
 * Returns NULL when none applies, else the reason token; *text is set. */
const char *ll_precheck(uid_t euid, int kabi, int err, uint32_t pol_flags,
			char *text, size_t n);

/* The policy text (original-behaviour.md section 4, Linux). */
int ll_render(const struct ns_host *host, const struct ns_policy *pol,
	      int kabi);

/* ---- seccomp: ll_filter.h ---------------------------------------------- */
#include "ll_filter.h"

/* ---- the kernel (ll_sys.c) ---------------------------------------------- */
/* The running kernel's ABI: >= 0, or LL_NO_LANDLOCK with *err set. */
int ll_sys_abi(int *err);
int ll_sys_create_ruleset(const struct nova_ll_ruleset_attr *attr);
int ll_sys_add_path(int ruleset, int fd, uint64_t allowed);
/* A net-port rule (ABI 4): `allowed` on TCP port `port`. */
int ll_sys_add_port(int ruleset, uint16_t port, uint64_t allowed);
int ll_sys_restrict_self(int ruleset, uint32_t flags);
/* CAP_AUDIT_READ is effective: the Landlock audit records are readable. */
int ll_can_read_audit(void);

#endif
