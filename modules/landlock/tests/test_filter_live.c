/* SPDX-License-Identifier: MIT */
/* test_filter_live.c -- the seccomp filter ll_filter_build() makes, installed
 * for real in a forked child on this kernel (seccomp needs no privilege once
 * no_new_privs is set).  Every probe runs three times: in a child with the
 * filter (net-deny off, then on) and, as the control, in a child without it.
 * The calls that reach another process target a real second process this
 * suite forks; under root every child drops to nobody first, so the control
 * shows what an unprivileged process of the same user can do to another.
 * Results come back through a shared page: 0 for success, else the errno. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/fs.h>
#include <linux/keyctl.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <unistd.h>

#include "ll_filter.h"

#define TEST_UID 65534
#define TEST_GID 65534
#define NO_SUCH_UID 0x7ffffff0 /* a uid with no process */
#define ANY (-999)             /* the control's errno is not checked */

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_file_setattr
#define SYS_file_setattr 469
#endif
#ifndef F_SETLEASE
#define F_SETLEASE 1024
#endif

/* What the probes act on, made before any child starts. */
static struct {
	pid_t target;      /* a second process of the same user, in its own
			    * process group */
	int shm, msg, sem; /* System V objects made "outside" */
} ctx;

/* ---- helpers ------------------------------------------------------------ */

static void
drop_privileges(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) != 0 ||
	    setresgid(TEST_GID, TEST_GID, TEST_GID) != 0 ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID) != 0)
		_exit(90);
}

static int
rc_of(long rc)
{
	return rc < 0 ? errno : 0;
}

/* A file of our own in /tmp, opened read-only (the --read case). */
static int
own_file(void)
{
	char path[] = "/tmp/nova-ll-filter.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	close(fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	return fd;
}

/* ---- probes: 0 when the call worked, else its errno ---------------------- */

static int
p_prlimit_other(void)
{
	struct rlimit old;

	return rc_of(syscall(SYS_prlimit64, ctx.target, RLIMIT_NOFILE, NULL,
			     &old));
}

static int
p_prlimit_other_high(void)
{
	struct rlimit old;
	long pid = (long)((uint64_t)ctx.target | 1ULL << 32);

	return rc_of(syscall(SYS_prlimit64, pid, RLIMIT_NOFILE, NULL, &old));
}

static int
p_prlimit_zero(void)
{
	struct rlimit old;

	return rc_of(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &old));
}

static int
p_prlimit_self(void)
{
	struct rlimit old;

	return rc_of(syscall(SYS_prlimit64, getpid(), RLIMIT_NOFILE, NULL,
			     &old));
}

/* a child of the command sets its own limit (a shell's `ulimit`) */
static int
p_prlimit_child_zero(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct rlimit rl = { 64, 64 };

		_exit(rc_of(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &rl,
				    NULL)));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return EIO;
	return WEXITSTATUS(st);
}

static int
p_setprio_other(void)
{
	return rc_of(setpriority(PRIO_PROCESS, (id_t)ctx.target, 19));
}

static int
p_setprio_zero(void)
{
	return rc_of(setpriority(PRIO_PROCESS, 0, 19));
}

static int
p_setprio_self(void)
{
	return rc_of(setpriority(PRIO_PROCESS, (id_t)getpid(), 19));
}

static int
p_setprio_pgrp(void)
{
	return rc_of(setpriority(PRIO_PGRP, (id_t)ctx.target, 19));
}

static int
p_setprio_pgrp_high(void)
{
	long which = (long)((uint64_t)PRIO_PGRP | 1ULL << 32);

	return rc_of(syscall(SYS_setpriority, which, ctx.target, 19));
}

static int
p_setprio_user(void)
{
	return rc_of(setpriority(PRIO_USER, NO_SUCH_UID, 19));
}

static int
affinity(pid_t pid)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return errno;
	return rc_of(sched_setaffinity(pid, sizeof(set), &set));
}

static int
p_affinity_other(void)
{
	return affinity(ctx.target);
}

static int
p_affinity_zero(void)
{
	return affinity(0);
}

static int
p_setscheduler_other(void)
{
	struct sched_param sp = { 0 };

	return rc_of(sched_setscheduler(ctx.target, SCHED_OTHER, &sp));
}

static int
p_setscheduler_zero(void)
{
	struct sched_param sp = { 0 };

	return rc_of(sched_setscheduler(0, SCHED_OTHER, &sp));
}

static int
p_setparam_other(void)
{
	struct sched_param sp = { 0 };

	return rc_of(sched_setparam(ctx.target, &sp));
}

static int
p_setparam_zero(void)
{
	struct sched_param sp = { 0 };

	return rc_of(sched_setparam(0, &sp));
}

/* struct sched_attr, version 0 (48 bytes) */
struct attr0 {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
};

static int
setattr(pid_t pid)
{
	struct attr0 a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.policy = SCHED_OTHER;
	a.nice = 19;
	return rc_of(syscall(SYS_sched_setattr, pid, &a, 0));
}

static int
p_setattr_other(void)
{
	return setattr(ctx.target);
}

static int
p_setattr_zero(void)
{
	return setattr(0);
}

#define IOPRIO_BE_7 ((2 << 13) | 7)

static int
p_ioprio_other(void)
{
	return rc_of(syscall(SYS_ioprio_set, 1, ctx.target, IOPRIO_BE_7));
}

static int
p_ioprio_zero(void)
{
	return rc_of(syscall(SYS_ioprio_set, 1, 0, IOPRIO_BE_7));
}

static int
p_ioprio_pgrp(void)
{
	return rc_of(syscall(SYS_ioprio_set, 2, ctx.target, IOPRIO_BE_7));
}

static int
p_ioprio_user(void)
{
	return rc_of(syscall(SYS_ioprio_set, 3, NO_SUCH_UID, IOPRIO_BE_7));
}

static int
migrate(pid_t pid)
{
	unsigned long nodes = 1; /* node 0 to node 0: nothing moves */

	return rc_of(syscall(SYS_migrate_pages, pid, 64, &nodes, &nodes));
}

static int
p_migrate_other(void)
{
	return migrate(ctx.target);
}

static int
p_migrate_zero(void)
{
	return migrate(0);
}

static int
p_move_pages_other(void)
{
	return rc_of(syscall(SYS_move_pages, ctx.target, 0, NULL, NULL, NULL,
			     0));
}

static int
p_move_pages_zero(void)
{
	return rc_of(syscall(SYS_move_pages, 0, 0, NULL, NULL, NULL, 0));
}

static int
p_process_madvise_self(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	int rc;

	if (fd < 0)
		return errno;
	rc = rc_of(syscall(SYS_process_madvise, fd, NULL, 0, MADV_COLD, 0));
	close(fd);
	return rc;
}

static int
p_process_mrelease(void)
{
	int fd = (int)syscall(SYS_pidfd_open, ctx.target, 0);
	int rc;

	if (fd < 0)
		return errno;
	rc = rc_of(syscall(SYS_process_mrelease, fd, 0));
	close(fd);
	return rc;
}

static int
p_kcmp(void)
{
	return rc_of(syscall(SYS_kcmp, getpid(), ctx.target, 0 /* FILE */,
			     0, 0));
}

static int
p_keyctl_user(void)
{
	return rc_of(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
			     KEY_SPEC_USER_KEYRING, 1));
}

static int
p_add_key(void)
{
	return rc_of(syscall(SYS_add_key, "user", "nova-ll-filter", "x", 1,
			     KEY_SPEC_PROCESS_KEYRING));
}

static int
p_request_key(void)
{
	return rc_of(syscall(SYS_request_key, "user", "nova-ll-none", NULL,
			     KEY_SPEC_PROCESS_KEYRING));
}

static int
p_fanotify_init(void)
{
	/* FAN_CLASS_NOTIF | FAN_REPORT_FID: what an unprivileged user may
	 * ask for (Linux 5.13+) */
	long fd = syscall(SYS_fanotify_init, 0x200, O_RDONLY);

	if (fd >= 0)
		close((int)fd);
	return rc_of(fd);
}

static int
p_file_setattr(void)
{
	/* size 0 is below the smallest struct: EINVAL once it is reached */
	return rc_of(syscall(SYS_file_setattr, AT_FDCWD, "/tmp", NULL, 0, 0));
}

static int
p_shmget(void)
{
	int id = shmget(IPC_PRIVATE, 4096, 0600);

	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
	return rc_of(id);
}

static int
p_shmat_outside(void)
{
	void *p = shmat(ctx.shm, NULL, SHM_RDONLY);

	if (p == (void *)-1)
		return errno;
	shmdt(p);
	return 0;
}

static int
p_shmctl_outside(void)
{
	struct shmid_ds ds;

	return rc_of(shmctl(ctx.shm, IPC_STAT, &ds));
}

static int
p_msgget(void)
{
	int id = msgget(IPC_PRIVATE, 0600);

	if (id >= 0)
		msgctl(id, IPC_RMID, NULL);
	return rc_of(id);
}

struct one_msg {
	long type;
	char c;
};

static int
p_msgsnd_outside(void)
{
	struct one_msg m = { 1, 'x' };

	return rc_of(msgsnd(ctx.msg, &m, 1, IPC_NOWAIT));
}

static int
p_msgrcv_outside(void)
{
	struct one_msg m;

	return rc_of(msgrcv(ctx.msg, &m, 1, 0, IPC_NOWAIT));
}

static int
p_msgctl_outside(void)
{
	struct msqid_ds ds;

	return rc_of(msgctl(ctx.msg, IPC_STAT, &ds));
}

static int
p_semget(void)
{
	int id = semget(IPC_PRIVATE, 1, 0600);

	if (id >= 0)
		semctl(id, 0, IPC_RMID);
	return rc_of(id);
}

static int
p_semop_outside(void)
{
	struct sembuf op = { 0, 1, IPC_NOWAIT };

	return rc_of(semop(ctx.sem, &op, 1));
}

static int
p_semtimedop_outside(void)
{
	struct sembuf op = { 0, -1, IPC_NOWAIT };

	return rc_of(syscall(SYS_semtimedop, ctx.sem, &op, 1, NULL));
}

static int
p_semctl_outside(void)
{
	return rc_of(semctl(ctx.sem, 0, GETVAL));
}

static int
p_mq_open(void)
{
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/nova-ll-filter-%d", (int)getpid());
	q = mq_open(name, O_CREAT | O_RDWR | O_CLOEXEC, 0600, NULL);
	if (q == (mqd_t)-1)
		return errno;
	mq_close(q);
	mq_unlink(name);
	return 0;
}

/* the system call: glibc's mq_unlink turns EPERM into EACCES */
static int
p_mq_unlink(void)
{
	return rc_of(syscall(SYS_mq_unlink, "nova-ll-filter-none"));
}

/* Each request on fd -1: the filter answers before the fd is looked up
 * (EPERM), the kernel after (EBADF).  Written out here, not taken from
 * the filter, so a request dropped from the filter fails this test. */
static int
p_ioctls_refused(void)
{
	static const unsigned long req[] = {
		TIOCSTI, TIOCLINUX,
		0x540c,     /* TIOCEXCL */
		0x40086602, /* FS_IOC_SETFLAGS */
		0x40046602, /* FS_IOC32_SETFLAGS */
		0x401c5820, /* FS_IOC_FSSETXATTR */
		0x40087602, /* FS_IOC_SETVERSION */
		0x40047602, /* FS_IOC32_SETVERSION */
		0x40086604, /* EXT4_IOC_SETVERSION */
		0x40046604, /* EXT4_IOC32_SETVERSION */
		0x40806685, /* FS_IOC_ENABLE_VERITY */
		0x800c6613, /* FS_IOC_SET_ENCRYPTION_POLICY */
		0xc0506617, /* FS_IOC_ADD_ENCRYPTION_KEY */
		0xc0406618, /* FS_IOC_REMOVE_ENCRYPTION_KEY */
		0xc0189436, /* FIDEDUPERANGE */
		0x4008941a, /* BTRFS_IOC_SUBVOL_SETFLAGS */
	};
	int first = -1;

	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		int e = rc_of(syscall(SYS_ioctl, -1, req[i], NULL));

		if (first < 0)
			first = e;
		else if (e != first)
			return 1000 + (int)i; /* mixed answers: say which */
	}
	return first;
}

static int
setflags(unsigned long hi)
{
	int fd = own_file(), flags = 0, rc;

	if (fd < 0)
		return errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) {
		rc = errno;
		close(fd);
		return rc;
	}
	rc = rc_of(syscall(SYS_ioctl, fd, FS_IOC_SETFLAGS | hi, &flags));
	close(fd);
	return rc;
}

static int
p_setflags(void)
{
	return setflags(0);
}

static int
p_setflags_high(void)
{
	return setflags(1UL << 32);
}

static int
p_getflags(void)
{
	int fd = own_file(), flags = 0, rc;

	if (fd < 0)
		return errno;
	rc = rc_of(ioctl(fd, FS_IOC_GETFLAGS, &flags));
	close(fd);
	return rc;
}

static int
p_setlease(void)
{
	int fd = own_file(), rc;

	if (fd < 0)
		return errno;
	rc = rc_of(fcntl(fd, F_SETLEASE, F_RDLCK));
	close(fd);
	return rc;
}

static int
p_getfd(void)
{
	return rc_of(fcntl(1, F_GETFD));
}

static int
sock(int family, int type)
{
	int fd = socket(family, type | SOCK_CLOEXEC, 0);

	if (fd >= 0)
		close(fd);
	return rc_of(fd);
}

static int
p_sock_inet(void)
{
	return sock(AF_INET, SOCK_DGRAM);
}

static int
p_sock_inet6(void)
{
	return sock(AF_INET6, SOCK_STREAM);
}

static int
p_sock_netlink(void)
{
	return sock(AF_NETLINK, SOCK_RAW);
}

static int
p_sock_netlink_high(void)
{
	long dom = (long)((uint64_t)AF_NETLINK | 1ULL << 32);
	long fd = syscall(SYS_socket, dom, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd >= 0)
		close((int)fd);
	return rc_of(fd);
}

static int
p_sock_packet(void)
{
	return sock(AF_PACKET, SOCK_DGRAM);
}

static int
p_sock_vsock(void)
{
	return sock(AF_VSOCK, SOCK_STREAM);
}

static int
p_sock_unix(void)
{
	return sock(AF_UNIX, SOCK_STREAM);
}

static int
pair(int family)
{
	int sv[2];

	if (socketpair(family, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return errno;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

static int
p_pair_unix(void)
{
	return pair(AF_UNIX);
}

static int
p_pair_inet(void)
{
	return pair(AF_INET);
}

static int
p_io_uring(void)
{
	char params[120];
	long fd;

	memset(params, 0, sizeof(params));
	fd = syscall(SYS_io_uring_setup, 1, params);
	if (fd >= 0)
		close((int)fd);
	return rc_of(fd);
}

/* ---- the table ------------------------------------------------------------
 * plain: filtered, net-deny off; net: filtered with net-deny; ctl: no
 * filter (ANY: not checked, the result depends on the machine). */
struct probe {
	const char *name;
	int (*fn)(void);
	int plain, net, ctl;
};

static const struct probe probes[] = {
	{ "prlimit64 other pid", p_prlimit_other, EPERM, EPERM, 0 },
	{ "prlimit64 other pid, high bits", p_prlimit_other_high, EPERM,
	  EPERM, 0 },
	{ "prlimit64 pid 0", p_prlimit_zero, 0, 0, 0 },
	{ "prlimit64 own pid", p_prlimit_self, 0, 0, 0 },
	{ "prlimit64 pid 0 in a child", p_prlimit_child_zero, 0, 0, 0 },
	{ "setpriority other pid", p_setprio_other, EPERM, EPERM, 0 },
	{ "setpriority pid 0", p_setprio_zero, 0, 0, 0 },
	{ "setpriority own pid", p_setprio_self, 0, 0, 0 },
	{ "setpriority PRIO_PGRP", p_setprio_pgrp, EPERM, EPERM, 0 },
	{ "setpriority PRIO_PGRP, high bits", p_setprio_pgrp_high, EPERM,
	  EPERM, 0 },
	{ "setpriority PRIO_USER", p_setprio_user, EPERM, EPERM, ESRCH },
	{ "sched_setaffinity other", p_affinity_other, EPERM, EPERM, 0 },
	{ "sched_setaffinity 0", p_affinity_zero, 0, 0, 0 },
	{ "sched_setscheduler other", p_setscheduler_other, EPERM, EPERM, 0 },
	{ "sched_setscheduler 0", p_setscheduler_zero, 0, 0, 0 },
	{ "sched_setparam other", p_setparam_other, EPERM, EPERM, 0 },
	{ "sched_setparam 0", p_setparam_zero, 0, 0, 0 },
	{ "sched_setattr other", p_setattr_other, EPERM, EPERM, 0 },
	{ "sched_setattr 0", p_setattr_zero, 0, 0, 0 },
	{ "ioprio_set other", p_ioprio_other, EPERM, EPERM, 0 },
	{ "ioprio_set 0", p_ioprio_zero, 0, 0, 0 },
	{ "ioprio_set PGRP", p_ioprio_pgrp, EPERM, EPERM, 0 },
	{ "ioprio_set USER", p_ioprio_user, EPERM, EPERM, ANY },
	{ "migrate_pages other", p_migrate_other, EPERM, EPERM, 0 },
	{ "migrate_pages 0", p_migrate_zero, 0, 0, 0 },
	{ "move_pages other", p_move_pages_other, EPERM, EPERM, 0 },
	{ "move_pages 0", p_move_pages_zero, 0, 0, 0 },
	{ "process_madvise", p_process_madvise_self, EPERM, EPERM, 0 },
	{ "process_mrelease", p_process_mrelease, EPERM, EPERM, EINVAL },
	{ "kcmp", p_kcmp, EPERM, EPERM, 0 },
	{ "keyctl @u", p_keyctl_user, EPERM, EPERM, 0 },
	{ "add_key", p_add_key, EPERM, EPERM, 0 },
	{ "request_key", p_request_key, EPERM, EPERM, ENOKEY },
	{ "fanotify_init", p_fanotify_init, EPERM, EPERM, 0 },
	{ "file_setattr", p_file_setattr, EPERM, EPERM, EINVAL },
	{ "shmget", p_shmget, EPERM, EPERM, 0 },
	{ "shmat outside segment", p_shmat_outside, EPERM, EPERM, 0 },
	{ "shmctl outside segment", p_shmctl_outside, EPERM, EPERM, 0 },
	{ "msgget", p_msgget, EPERM, EPERM, 0 },
	{ "msgsnd outside queue", p_msgsnd_outside, EPERM, EPERM, 0 },
	{ "msgrcv outside queue", p_msgrcv_outside, EPERM, EPERM, 0 },
	{ "msgctl outside queue", p_msgctl_outside, EPERM, EPERM, 0 },
	{ "semget", p_semget, EPERM, EPERM, 0 },
	{ "semop outside set", p_semop_outside, EPERM, EPERM, 0 },
	{ "semtimedop outside set", p_semtimedop_outside, EPERM, EPERM, 0 },
	{ "semctl outside set", p_semctl_outside, EPERM, EPERM, 0 },
	{ "mq_open", p_mq_open, EPERM, EPERM, 0 },
	{ "mq_unlink", p_mq_unlink, EPERM, EPERM, ENOENT },
	{ "ioctl requests refused", p_ioctls_refused, EPERM, EPERM, EBADF },
	{ "FS_IOC_SETFLAGS own file", p_setflags, EPERM, EPERM, 0 },
	{ "FS_IOC_SETFLAGS, high bits", p_setflags_high, EPERM, EPERM, 0 },
	{ "FS_IOC_GETFLAGS", p_getflags, 0, 0, 0 },
	{ "F_SETLEASE own file", p_setlease, EPERM, EPERM, 0 },
	{ "F_GETFD", p_getfd, 0, 0, 0 },
	{ "socket AF_INET", p_sock_inet, 0, EACCES, 0 },
	{ "socket AF_INET6", p_sock_inet6, 0, EACCES, 0 },
	{ "socket AF_NETLINK", p_sock_netlink, 0, EACCES, 0 },
	{ "socket AF_NETLINK, high bits", p_sock_netlink_high, 0, EACCES, 0 },
	{ "socket AF_PACKET", p_sock_packet, ANY, EACCES, ANY },
	{ "socket AF_VSOCK", p_sock_vsock, 0, EACCES, 0 },
	{ "socket AF_UNIX", p_sock_unix, 0, 0, 0 },
	{ "socketpair AF_UNIX", p_pair_unix, 0, 0, 0 },
	{ "socketpair AF_INET", p_pair_inet, EOPNOTSUPP, EACCES, EOPNOTSUPP },
	{ "io_uring_setup", p_io_uring, ANY, ENOSYS, ANY },
};

#define N_PROBES (sizeof(probes) / sizeof(probes[0]))

enum mode { CONTROL, PLAIN, NET };

/* Run every probe in a child (as nobody under root), the filter installed
 * first unless CONTROL; results[] is a shared page. */
static int
run_probes(enum mode m, int *results)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		drop_privileges();
		if (m != CONTROL) {
			struct sock_filter prog[LL_FILTER_MAX];
			struct sock_fprog fp;
			int n = ll_filter_build(prog, m == NET, getpid());

			if (n < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L,
					   0L) != 0)
				_exit(91);
			fp.len = (unsigned short)n;
			fp.filter = prog;
			if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) != 0)
				_exit(92);
		}
		for (size_t i = 0; i < N_PROBES; i++)
			results[i] = probes[i].fn();
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int
check(enum mode m)
{
	static const char *const names[] = { "control", "filtered",
					     "filtered, net-deny" };
	int *res = mmap(NULL, N_PROBES * sizeof(int), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int bad = 0, rc;

	if (res == MAP_FAILED)
		return -1;
	rc = run_probes(m, res);
	if (rc != 0) {
		printf("\n  probe child (%s) ended with %d\n", names[m], rc);
		munmap(res, N_PROBES * sizeof(int));
		return -1;
	}
	for (size_t i = 0; i < N_PROBES; i++) {
		const struct probe *p = &probes[i];
		int want = m == CONTROL ? p->ctl : m == PLAIN ? p->plain
							       : p->net;

		if (want == ANY || res[i] == want)
			continue;
		printf("\n  %s (%s): got %d (%s), want %d (%s)", p->name,
		       names[m], res[i], strerror(res[i]), want,
		       strerror(want));
		bad++;
	}
	munmap(res, N_PROBES * sizeof(int));
	return bad;
}

static void
test_control(void)
{
	CU_ASSERT_EQUAL(check(CONTROL), 0);
}

static void
test_filtered(void)
{
	CU_ASSERT_EQUAL(check(PLAIN), 0);
}

static void
test_filtered_net(void)
{
	CU_ASSERT_EQUAL(check(NET), 0);
}

/* The target: a second process of the same user in a group of its own. */
static int
setup(void)
{
	struct sembuf up = { 0, 1, 0 };
	struct { long type; char c; } m = { 1, 'y' };
	int ready[2];
	char c;

	if (pipe(ready) != 0)
		return -1;
	ctx.target = fork();
	if (ctx.target < 0)
		return -1;
	if (ctx.target == 0) {
		close(ready[0]);
		drop_privileges();
		/* dropping the uid cleared it; kcmp's control needs it */
		prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
		setpgid(0, 0);
		/* the probes start only once the target is the test's user */
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	setpgid(ctx.target, ctx.target); /* no race with the child's own */
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	ctx.shm = shmget(IPC_PRIVATE, 4096, 0666);
	ctx.msg = msgget(IPC_PRIVATE, 0666);
	ctx.sem = semget(IPC_PRIVATE, 1, 0666);
	if (ctx.shm < 0 || ctx.msg < 0 || ctx.sem < 0)
		return -1;
	if (msgsnd(ctx.msg, &m, 1, 0) != 0 || semop(ctx.sem, &up, 1) != 0)
		return -1;
	return 0;
}

static int
teardown(void)
{
	if (ctx.target > 0) {
		kill(ctx.target, SIGKILL);
		waitpid(ctx.target, NULL, 0);
	}
	if (ctx.shm >= 0)
		shmctl(ctx.shm, IPC_RMID, NULL);
	if (ctx.msg >= 0)
		msgctl(ctx.msg, IPC_RMID, NULL);
	if (ctx.sem >= 0)
		semctl(ctx.sem, 0, IPC_RMID);
	return 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "control: every probe unfiltered", test_control },
		{ "filtered", test_filtered },
		{ "filtered with net-deny", test_filtered_net },
		{ NULL, NULL }
	};

	ctx.shm = ctx.msg = ctx.sem = -1;
	return cu_run("landlock filter live", setup, teardown, cases);
}
