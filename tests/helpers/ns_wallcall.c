/* SPDX-License-Identifier: MIT */
/* ns_wallcall.c -- the calls the wall's seccomp filter refuses, one per
 * subcommand, for t_wall_seccomp.sh (run walled, and unwalled as the
 * control).  Exit 0 and "ok" (plus what was read) on stdout when the call
 * SUCCEEDED, exit 1 and "denied: <call>: <why>" when the system refused
 * it, exit 2 on bad usage.
 *
 *   ns_wallcall prlimit PID        prlimit64(PID, RLIMIT_NOFILE) read
 *   ns_wallcall renice PID         setpriority(PRIO_PROCESS, PID, 19)
 *   ns_wallcall keyctl-user        keyctl(GET_KEYRING_ID, @u, create)
 *   ns_wallcall socket FAMILY      socket(vsock|netlink|packet|inet|unix)
 *   ns_wallcall socket-ns FAMILY   the same after unshare(user+net): an
 *                                  unprivileged user holds CAP_NET_RAW there
 *   ns_wallcall setflags FILE      FS_IOC_SETFLAGS (the file's own flags)
 *                                  on FILE opened read-only
 *   ns_wallcall shm-make           a 0600 segment holding "secret"; prints
 *                                  "ok id=<shmid>" and leaves it behind
 *   ns_wallcall shm-read ID        shmat(ID) read-only; prints its text
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/keyctl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

static int
denied(const char *what)
{
	printf("denied: %s: %s\n", what, strerror(errno));
	return 1;
}

static int
number(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' ? 0 : -1;
}

static int
do_prlimit(long pid)
{
	struct rlimit rl;

	if (syscall(SYS_prlimit64, pid, RLIMIT_NOFILE, NULL, &rl) != 0)
		return denied("prlimit64");
	printf("ok nofile=%llu\n", (unsigned long long)rl.rlim_cur);
	return 0;
}

static int
do_renice(long pid)
{
	if (setpriority(PRIO_PROCESS, (id_t)pid, 19) != 0)
		return denied("setpriority");
	printf("ok\n");
	return 0;
}

static int
do_keyctl(void)
{
	long id = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
			  KEY_SPEC_USER_KEYRING, 1);

	if (id < 0)
		return denied("keyctl");
	printf("ok keyring=%ld\n", id);
	return 0;
}

static const struct {
	const char *name;
	int family, type;
} families[] = {
	{ "vsock", AF_VSOCK, SOCK_STREAM },
	{ "netlink", AF_NETLINK, SOCK_RAW },
	{ "packet", AF_PACKET, SOCK_DGRAM },
	{ "inet", AF_INET, SOCK_DGRAM },
	{ "unix", AF_UNIX, SOCK_STREAM },
};

static int
do_socket(const char *name)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		int fd;

		if (strcmp(name, families[i].name) != 0)
			continue;
		fd = socket(families[i].family, families[i].type, 0);
		if (fd < 0)
			return denied("socket");
		close(fd);
		printf("ok\n");
		return 0;
	}
	fprintf(stderr, "ns_wallcall: unknown family %s\n", name);
	return 2;
}

static int
do_socket_ns(const char *name)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
		return denied("unshare");
	return do_socket(name);
}

static int
do_setflags(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), flags = 0;

	if (fd < 0)
		return denied("open");
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0)
		return denied("FS_IOC_GETFLAGS");
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
		return denied("FS_IOC_SETFLAGS");
	printf("ok flags=%#x\n", (unsigned int)flags);
	return 0;
}

static int
do_shm_make(void)
{
	int id = shmget(IPC_PRIVATE, 4096, 0600);
	char *p;

	if (id < 0)
		return denied("shmget");
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		return denied("shmat");
	memcpy(p, "secret", 7);
	shmdt(p);
	printf("ok id=%d\n", id);
	return 0;
}

static int
do_shm_read(long id)
{
	const char *p = shmat((int)id, NULL, SHM_RDONLY);

	if (p == (void *)-1)
		return denied("shmat");
	printf("ok text=%.16s\n", p);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	long n = 0;

	if (argc == 3 && strcmp(c, "prlimit") == 0 && number(argv[2], &n) == 0)
		return do_prlimit(n);
	if (argc == 3 && strcmp(c, "renice") == 0 && number(argv[2], &n) == 0)
		return do_renice(n);
	if (argc == 2 && strcmp(c, "keyctl-user") == 0)
		return do_keyctl();
	if (argc == 3 && strcmp(c, "socket") == 0)
		return do_socket(argv[2]);
	if (argc == 3 && strcmp(c, "socket-ns") == 0)
		return do_socket_ns(argv[2]);
	if (argc == 3 && strcmp(c, "setflags") == 0)
		return do_setflags(argv[2]);
	if (argc == 2 && strcmp(c, "shm-make") == 0)
		return do_shm_make();
	if (argc == 3 && strcmp(c, "shm-read") == 0 && number(argv[2], &n) == 0)
		return do_shm_read(n);
	fprintf(stderr, "usage: ns_wallcall prlimit|renice PID | keyctl-user "
			"| socket[-ns] FAMILY | setflags FILE | shm-make "
			"| shm-read ID\n");
	return 2;
}
