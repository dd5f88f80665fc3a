/* SPDX-License-Identifier: MIT */
/* ns_memhog.c -- memory a tree can pin without it showing in summed RSS,
 * for the memory-cap tests (run --max-mem):
 *
 *   ns_memhog memfd MIB SECS        memfd_create + fallocate, held by its fd
 *   ns_memhog file MIB SECS PATH    a file of MIB allocated at PATH (a tmpfs
 *                                   write root), closed
 *   ns_memhog anon MIB SECS         ordinary anonymous memory, touched
 *   ns_memhog nondump MIB SECS      memfd as above, after making itself
 *                                   non-dumpable (PR_SET_DUMPABLE 0: its
 *                                   /proc/<pid>/fd is closed to its uid)
 *
 * Prints "held" once the memory is allocated, then sleeps SECS seconds and
 * exits 0 (a cap that saw the memory kills it first). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

static int
hog(const char *kind, off_t size, const char *path)
{
	int fd = -1;
	char *p;

	if (strcmp(kind, "nondump") == 0) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
			return -1;
		kind = "memfd";
	}
	if (strcmp(kind, "memfd") == 0) {
		fd = memfd_create("ns_memhog", MFD_CLOEXEC);
		return fd < 0 || posix_fallocate(fd, 0, size) != 0 ? -1 : 0;
	}
	if (strcmp(kind, "file") == 0 && path != NULL) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || posix_fallocate(fd, 0, size) != 0)
			return -1;
		return close(fd);
	}
	if (strcmp(kind, "anon") == 0) {
		p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		memset(p, 1, (size_t)size);
		return 0;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: ns_memhog memfd|nondump|file|anon "
			"MIB SECS [PATH]\n");
		return 2;
	}
	if (hog(argv[1], (off_t)strtol(argv[2], NULL, 10) << 20,
		argc > 4 ? argv[4] : NULL) != 0) {
		perror("ns_memhog");
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	sleep((unsigned)strtoul(argv[3], NULL, 10));
	return 0;
}
