/* SPDX-License-Identifier: MIT */
/* ns_llexec.c -- the enforcing half of the fake sandbox-exec
 * (modules/seatbelt/tests/fakes/sandbox-exec): the profile's file
 * parameters as a Landlock ruleset, then exec in place (the pid stays the
 * command's, as sandbox-exec's does).  Test-only: it lets the seatbelt
 * flow tests on Linux see a write outside the profile's write roots
 * DENIED, so the probe's steps and the denial tests mean something.
 *
 *   ns_llexec [-x dir]... [-r dir]... [-w dir]... [-f file]... -- cmd args
 *
 *   -x read and execute   -r read, no execute   -w everything   -f a file
 *
 * A path that does not exist is skipped (most of macOS's roots).  The
 * Linux loader's and libc's own trees (/etc /lib /lib64 /proc) are added
 * read-only: they are what a macOS profile's /usr/lib and /private/etc
 * stand for.  Exit 126 on a Landlock failure, 127 when exec fails. */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define V1 ((1ULL << 13) - 1)
#define EXEC LANDLOCK_ACCESS_FS_EXECUTE
#define RFILE LANDLOCK_ACCESS_FS_READ_FILE
#define RDIR LANDLOCK_ACCESS_FS_READ_DIR
#define WFILE LANDLOCK_ACCESS_FS_WRITE_FILE

static uint64_t handled;

static int
add(int rs, const char *path, uint64_t want)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		want &= EXEC | RFILE | WFILE | (1ULL << 14); /* + TRUNCATE */
	pb.allowed_access = want & handled;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb,
		    0) != 0) {
		fprintf(stderr, "ns_llexec: add %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const linux_roots[] = { "/etc", "/lib", "/lib64",
						   "/proc", NULL };
	struct landlock_ruleset_attr attr = { 0 };
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);
	int rs, i;

	if (abi < 1) {
		fprintf(stderr, "ns_llexec: no landlock\n");
		return 126;
	}
	handled = V1 | (abi >= 2 ? (1ULL << 13) : 0) |
		  (abi >= 3 ? (1ULL << 14) : 0);
	attr.handled_access_fs = handled;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (rs < 0)
		return 126;
	for (i = 0; linux_roots[i] != NULL; i++)
		if (add(rs, linux_roots[i], EXEC | RFILE | RDIR) != 0)
			return 126;
	for (i = 1; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		uint64_t want = strcmp(argv[i], "-x") == 0 ? EXEC | RFILE | RDIR :
				strcmp(argv[i], "-r") == 0 ? RFILE | RDIR :
				strcmp(argv[i], "-w") == 0 ? handled :
				strcmp(argv[i], "-f") == 0 ? RFILE | WFILE : 0;

		if (want == 0 || add(rs, argv[i + 1], want) != 0)
			return 126;
	}
	if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc) {
		fprintf(stderr, "usage: ns_llexec [-x|-r|-w|-f path]... -- cmd\n");
		return 126;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_landlock_restrict_self, rs, 0) != 0)
		return 126;
	close(rs);
	execv(argv[i + 1], argv + i + 1);
	fprintf(stderr, "ns_llexec: %s: %s\n", argv[i + 1], strerror(errno));
	return 127;
}
