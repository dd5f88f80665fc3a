/* SPDX-License-Identifier: MIT */
/* floor -- the least a Landlock wall can cost: one ruleset, one rule per
 * path, restrict_self, execve.  `make bench` measures nova-sandbox against
 * it.  Not a sandbox to use: no refusals, no checks, no supervisor.
 *
 * usage: floor [-r DIR]... [-w DIR]... -- command [args...]
 *   -r  read and execute beneath DIR (or the file DIR)
 *   -w  read, write, create, delete beneath DIR
 * It handles every filesystem right the running kernel knows, and on ABI 6+
 * the signal and abstract-socket scopes, as the wrap does.  The command is
 * run by absolute path (no PATH search). */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's ABI, spelled out here: Debian 12's <linux/landlock.h>
 * predates truncate, ioctl and scopes. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_RULE_PATH_BENEATH 1
#define LL_VERSION (1U << 0)
#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_MAKE_SYM (1ULL << 12)
#define FS_REFER (1ULL << 13)
#define FS_TRUNCATE (1ULL << 14)
#define FS_IOCTL_DEV (1ULL << 15)
#define SCOPE_ALL ((1ULL << 0) | (1ULL << 1)) /* abstract unix, signal */

#define FS_READ (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)
#define FS_FILE (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | \
		 FS_IOCTL_DEV)

/* the filesystem rights of each ABI, cumulative (index = ABI) */
static const uint64_t fs_by_abi[] = {
	0,
	(FS_MAKE_SYM << 1) - 1,
	(FS_REFER << 1) - 1,
	(FS_TRUNCATE << 1) - 1,
	(FS_TRUNCATE << 1) - 1,
	(FS_IOCTL_DEV << 1) - 1,
};

static int
add_path(int ruleset, const char *path, uint64_t want, uint64_t handled)
{
	struct ll_path_beneath rule = { 0 };
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC);
	int rc;

	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		want &= FS_FILE;
	rule.allowed_access = want & handled;
	rule.parent_fd = fd;
	rc = (int)syscall(SYS_landlock_add_rule, ruleset,
			  LL_RULE_PATH_BENEATH, &rule, 0);
	if (rc != 0)
		perror(path);
	close(fd);
	return rc;
}

static int
build(int argc, char **argv, int *cmd)
{
	struct ll_ruleset_attr attr = { 0 };
	int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			       LL_VERSION);
	size_t size = sizeof(attr);
	int ruleset, i;

	if (abi < 1)
		return perror("landlock"), -1;
	attr.handled_access_fs = fs_by_abi[abi < 5 ? abi : 5];
	if (abi >= 6)
		attr.scoped = SCOPE_ALL;
	else
		size = offsetof(struct ll_ruleset_attr, scoped);
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return perror("landlock_create_ruleset"), -1;
	for (i = 1; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		int wr = strcmp(argv[i], "-w") == 0;
		uint64_t want = wr ? attr.handled_access_fs : FS_READ;

		if (!wr && strcmp(argv[i], "-r") != 0)
			break;
		if (add_path(ruleset, argv[i + 1], want, attr.handled_access_fs))
			return -1;
	}
	if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc) {
		fputs("usage: floor [-r DIR]... [-w DIR]... -- command [args...]\n",
		      stderr);
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
		return perror("landlock_restrict_self"), -1;
	close(ruleset);
	*cmd = i + 1;
	return 0;
}

int
main(int argc, char **argv)
{
	int cmd;

	if (build(argc, argv, &cmd) != 0)
		return 125;
	execv(argv[cmd], &argv[cmd]);
	perror(argv[cmd]);
	return 127;
}
