/* SPDX-License-Identifier: MIT */
/* ns_squat.c -- try to hold a run's name the way a hostile command would,
 * and say on stdout whether it got it:
 *
 *   ns_squat abstract NAME   bind the abstract unix socket @NAME
 *   ns_squat lock FILE       open FILE for writing (creating it) and take
 *                            an OFD write lock on all of it
 *   ns_squat rlock FILE      open FILE read-only (it must exist) and take
 *                            an OFD read lock on all of it (what a command
 *                            that may only read the file can hold)
 *
 * Prints "held" (then holds it until killed, at most 60 s) or
 * "refused <errno text>" and exits 1. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int
refused(void)
{
	printf("refused %s\n", strerror(errno));
	return 1;
}

static int
hold(void)
{
	printf("held\n");
	fflush(stdout);
	sleep(60);
	return 0;
}

static int
abstract(const char *name)
{
	struct sockaddr_un sa;
	size_t n = strlen(name);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return refused();
	if (n + 1 >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return refused();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path + 1, name, n);
	if (bind(fd, (struct sockaddr *)&sa,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) != 0)
		return refused();
	return hold();
}

static int
lock(const char *file, int rd)
{
	struct flock fl;
	int fd = rd ? open(file, O_RDONLY | O_NOFOLLOW) :
	    open(file, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);

	if (fd < 0)
		return refused();
	memset(&fl, 0, sizeof(fl));
	fl.l_type = rd ? F_RDLCK : F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_OFD_SETLK, &fl) != 0)
		return refused();
	return hold();
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "abstract") == 0)
		return abstract(argv[2]);
	if (argc == 3 && strcmp(argv[1], "lock") == 0)
		return lock(argv[2], 0);
	if (argc == 3 && strcmp(argv[1], "rlock") == 0)
		return lock(argv[2], 1);
	fprintf(stderr, "usage: ns_squat abstract NAME | lock FILE | "
		"rlock FILE\n");
	return 2;
}
