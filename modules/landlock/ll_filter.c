/* SPDX-License-Identifier: MIT */
/* ll_filter.c -- the child's seccomp filter, hand-written classic BPF (no
 * libseccomp).  What it refuses (the spec's section 6 says the same):
 *   - a system call of another architecture: the process is killed (an
 *     x86_64 process could otherwise enter through the i386 or x32 tables,
 *     where the numbers below mean something else);
 *   - ioctl: TIOCSTI and TIOCLINUX (terminal injection), TIOCEXCL (an
 *     exclusive caller's terminal refuses every later open of it, after
 *     the run too), and the ioctls
 *     that set a file's flags, attributes, version, verity or encryption
 *     (owner-only, not Landlock rights: they work on a read-only fd, so on
 *     a --read file): EPERM;
 *   - fcntl(F_SETLEASE): EPERM (a lease on a --read file stalls every
 *     outside open for write and tells the holder when one happens);
 *   - calls that act on a process by pid (prlimit64, sched_set*,
 *     migrate_pages, move_pages): allowed on pid 0 or the command's own
 *     pid only; setpriority and ioprio_set: PRIO_PROCESS / WHO_PROCESS on
 *     0 or self only, never a process group or a uid: EPERM.  Landlock's
 *     ptrace and signal scoping cover none of these: the kernel checks
 *     only that the uid matches;
 *   - refused outright (EPERM): process_madvise, process_mrelease, kcmp,
 *     the keyring calls (keyctl, add_key, request_key), fanotify_init,
 *     file_setattr, System V IPC (shm*, msg*, sem*) and POSIX message
 *     queues (mq_open, mq_unlink): none is a Landlock right, each reaches
 *     an object outside the wall;
 *   - with net-deny: socket() and socketpair() of any family but AF_UNIX:
 *     EACCES (an allowlist: UDP, raw IP, MPTCP, vsock, netlink, packet
 *     ...), and io_uring_setup: ENOSYS (IORING_OP_SOCKET creates sockets
 *     without the socket() system call).
 *
 * Argument width (CVE-2019-10063, flatpak): the kernel reads ioctl's and
 * fcntl's `cmd`, socket's `domain`, setpriority's `which` and every pid_t
 * as a 32-bit int and drops the upper half of the 64-bit register.  A
 * filter that compared the whole 64-bit value would let TIOCSTI | 1 << 32
 * through, and the kernel runs it as TIOCSTI.  So the filter decides on
 * the low half only, whatever the high half holds: the kernel acts on
 * exactly what the filter looked at.
 *
 * Cost: the dispatch reads only the architecture and the number before it
 * branches, so the kernel's seccomp action cache (Linux 5.11+) proves
 * every other system call "always allowed" at install and never runs the
 * filter for it; only the calls listed here pay for the walk. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "banned.h"
#include "ll_filter.h"

#if defined(__x86_64__)
#define LL_AUDIT_ARCH AUDIT_ARCH_X86_64
#define LL_X32_BIT 0x40000000u /* __X32_SYSCALL_BIT */
#elif defined(__aarch64__)
#define LL_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* Numbers newer than the build host's headers; the same on x86_64 and on
 * aarch64 (which uses the generic table) from 5.1 on. */
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif
#ifndef SYS_file_setattr
#define SYS_file_setattr 469 /* Linux 6.17 */
#endif

/* ioctl requests missing from older uapi headers (values from the
 * kernel's include/uapi/linux/fs.h, fscrypt.h and fsverity.h). */
#ifndef FS_IOC_FSSETXATTR
#define FS_IOC_FSSETXATTR 0x401c5820u
#endif
#define LL_FS_IOC_ENABLE_VERITY 0x40806685u        /* _IOW('f', 133, 128) */
#define LL_FS_IOC_SET_ENCRYPTION_POLICY 0x800c6613u /* _IOR('f', 19, 12) */
#define LL_FS_IOC_ADD_ENCRYPTION_KEY 0xc0506617u    /* _IOWR('f', 23, 80) */
#define LL_FS_IOC_REMOVE_ENCRYPTION_KEY 0xc0406618u /* _IOWR('f', 24, 64) */
#define LL_FS_IOC32_SETFLAGS 0x40046602u            /* _IOW('f', 2, int) */
#define LL_FS_IOC32_SETVERSION 0x40047602u          /* _IOW('v', 2, int) */
#define LL_EXT4_IOC_SETVERSION 0x40086604u          /* _IOW('f', 4, long) */
#define LL_EXT4_IOC32_SETVERSION 0x40046604u        /* _IOW('f', 4, int) */
#define LL_FIDEDUPERANGE 0xc0189436u                /* _IOWR(0x94, 54, 24) */
#define LL_BTRFS_IOC_SUBVOL_SETFLAGS 0x4008941au    /* _IOW(0x94, 26, u64) */

#define LL_PRIO_PROCESS 0       /* setpriority(2) */
#define LL_IOPRIO_WHO_PROCESS 1 /* ioprio_set(2) */

/* seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i; the low half of
 * an argument is first on a little-endian machine. */
#define OFF_NR offsetof(struct seccomp_data, nr)
#define OFF_ARCH offsetof(struct seccomp_data, arch)
#define OFF_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))

/* ---- the tables --------------------------------------------------------- */

/* ioctl requests refused with EPERM (compared on the low 32 bits). */
static const unsigned int refused_ioctls[] = {
	TIOCSTI, TIOCLINUX, TIOCEXCL,
	FS_IOC_SETFLAGS, LL_FS_IOC32_SETFLAGS,
	FS_IOC_FSSETXATTR,
	FS_IOC_SETVERSION, LL_FS_IOC32_SETVERSION,
	LL_EXT4_IOC_SETVERSION, LL_EXT4_IOC32_SETVERSION,
	LL_FS_IOC_ENABLE_VERITY,
	LL_FS_IOC_SET_ENCRYPTION_POLICY,
	LL_FS_IOC_ADD_ENCRYPTION_KEY, LL_FS_IOC_REMOVE_ENCRYPTION_KEY,
	LL_FIDEDUPERANGE,
	LL_BTRFS_IOC_SUBVOL_SETFLAGS,
};

/* Calls whose first argument is a pid: allowed on 0 or self. */
static const int pid_first[] = {
	SYS_prlimit64,
	SYS_sched_setaffinity, SYS_sched_setscheduler, SYS_sched_setparam,
	SYS_sched_setattr,
	SYS_migrate_pages, SYS_move_pages,
};

/* Calls refused outright with EPERM. */
static const int refused_calls[] = {
	SYS_process_madvise, SYS_process_mrelease, SYS_kcmp,
	SYS_keyctl, SYS_add_key, SYS_request_key,
	SYS_fanotify_init,
	SYS_file_setattr,
	SYS_shmget, SYS_shmat, SYS_shmctl,
	SYS_msgget, SYS_msgsnd, SYS_msgrcv, SYS_msgctl,
	SYS_semget, SYS_semop, SYS_semtimedop, SYS_semctl,
	SYS_mq_open, SYS_mq_unlink,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a tiny assembler with labels ---------------------------------------- */

enum label { L_NEXT, L_KILL, L_ALLOW, L_EPERM, L_EACCES, L_ENOSYS,
	     L_IOCTL, L_FCNTL, L_SOCKET, L_INET, L_PID_FIRST, L_SETPRIO,
	     L_IOPRIO, L_COUNT };

struct bpf_asm {
	struct sock_filter *p;
	int n;
	int at[L_COUNT];
	unsigned char jt[LL_FILTER_MAX];
	unsigned char jf[LL_FILTER_MAX];
};

static void
emit(struct bpf_asm *a, unsigned short code, unsigned int k, enum label jt,
     enum label jf)
{
	if (a->n >= LL_FILTER_MAX) {
		a->n = LL_FILTER_MAX + 1; /* overflow: resolve() fails */
		return;
	}
	a->p[a->n] = (struct sock_filter)BPF_STMT(code, k);
	a->jt[a->n] = (unsigned char)jt;
	a->jf[a->n] = (unsigned char)jf;
	a->n++;
}

#define LD(a, off) emit(a, BPF_LD | BPF_W | BPF_ABS, (unsigned int)(off), \
			L_NEXT, L_NEXT)
#define JEQ(a, k, t, f) emit(a, BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)(k), \
			     t, f)
#define JGE(a, k, t, f) emit(a, BPF_JMP | BPF_JGE | BPF_K, (k), t, f)
#define RET(a, k) emit(a, BPF_RET | BPF_K, (k), L_NEXT, L_NEXT)
#define RET_ERRNO(a, e) RET(a, SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define LABEL(a, l) ((a)->at[l] = (a)->n)

/* Classic BPF jumps are 8 bits wide and only go forward: a label out of
 * reach (or never placed) fails the whole build, never a wrong jump. */
static int
target(const struct bpf_asm *a, int i, enum label l, unsigned char *out)
{
	int d;

	if (l == L_NEXT) {
		*out = 0;
		return 0;
	}
	d = a->at[l] - i - 1;
	if (a->at[l] < 0 || d < 0 || d > 255)
		return -1;
	*out = (unsigned char)d;
	return 0;
}

static int
resolve(struct bpf_asm *a)
{
	int i;

	if (a->n > LL_FILTER_MAX)
		return -1;
	for (i = 0; i < a->n; i++) {
		if (BPF_CLASS(a->p[i].code) != BPF_JMP)
			continue;
		if (target(a, i, (enum label)a->jt[i], &a->p[i].jt) != 0 ||
		    target(a, i, (enum label)a->jf[i], &a->p[i].jf) != 0)
			return -1;
	}
	return a->n;
}

/* ---- the program ---------------------------------------------------------- */

/* Architecture and number only, so the kernel's action cache can prove
 * every unlisted call allowed.  The hot calls come first. */
static void
dispatch(struct bpf_asm *a, int net_deny)
{
	size_t i;

#ifdef LL_AUDIT_ARCH
	LD(a, OFF_ARCH);
	JEQ(a, LL_AUDIT_ARCH, L_NEXT, L_KILL);
#endif
	LD(a, OFF_NR);
#ifdef LL_X32_BIT
	JGE(a, LL_X32_BIT, L_KILL, L_NEXT);
#endif
	JEQ(a, SYS_ioctl, L_IOCTL, L_NEXT);
	JEQ(a, SYS_fcntl, L_FCNTL, L_NEXT);
	if (net_deny) {
		JEQ(a, SYS_socket, L_SOCKET, L_NEXT);
		JEQ(a, SYS_socketpair, L_SOCKET, L_NEXT);
		JEQ(a, SYS_io_uring_setup, L_ENOSYS, L_NEXT);
	}
	for (i = 0; i < COUNT(pid_first); i++)
		JEQ(a, pid_first[i], L_PID_FIRST, L_NEXT);
	JEQ(a, SYS_setpriority, L_SETPRIO, L_NEXT);
	JEQ(a, SYS_ioprio_set, L_IOPRIO, L_NEXT);
	for (i = 0; i < COUNT(refused_calls); i++)
		JEQ(a, refused_calls[i], L_EPERM, L_NEXT);
	RET(a, SECCOMP_RET_ALLOW);
}

/* The accumulator holds a pid's low half: 0 and self pass. */
static void
pid_is_self(struct bpf_asm *a, pid_t self)
{
	JEQ(a, 0, L_ALLOW, L_NEXT);
	JEQ(a, (unsigned int)self, L_ALLOW, L_EPERM);
}

/* setpriority(which, who, ...) and ioprio_set(which, who, ...): the
 * process form on 0 or self; a process group or a uid never. */
static void
which_who(struct bpf_asm *a, enum label at, unsigned int process, pid_t self)
{
	LABEL(a, at);
	LD(a, OFF_ARG_LO(0));
	JEQ(a, process, L_NEXT, L_EPERM);
	LD(a, OFF_ARG_LO(1));
	pid_is_self(a, self);
}

static void
bodies(struct bpf_asm *a, int net_deny, int trap_net, pid_t self)
{
	size_t i;

	LABEL(a, L_IOCTL);
	LD(a, OFF_ARG_LO(1));
	for (i = 0; i < COUNT(refused_ioctls); i++)
		JEQ(a, refused_ioctls[i], L_EPERM, L_NEXT);
	RET(a, SECCOMP_RET_ALLOW);

	LABEL(a, L_FCNTL);
	LD(a, OFF_ARG_LO(1));
	JEQ(a, F_SETLEASE, L_EPERM, L_ALLOW);

	if (net_deny) {
		LABEL(a, L_SOCKET);
		LD(a, OFF_ARG_LO(0));
		if (net_deny == LL_NET_PROXIED) {
			/* the namespace holds loopback only: IP of the two
			 * protocols Landlock's TCP rule and the loopback see
			 * (TCP, UDP); never MPTCP (past Landlock's TCP rule),
			 * vsock, netlink, packet or any other family, which a
			 * network namespace does not confine */
			JEQ(a, AF_UNIX, L_ALLOW, L_NEXT);
			JEQ(a, AF_INET, L_INET, L_NEXT);
			JEQ(a, AF_INET6, L_INET, L_EACCES);
			LABEL(a, L_INET);
			LD(a, OFF_ARG_LO(2));
			JEQ(a, 0, L_ALLOW, L_NEXT);
			JEQ(a, IPPROTO_TCP, L_ALLOW, L_NEXT);
			JEQ(a, IPPROTO_UDP, L_ALLOW, L_EACCES);
		} else {
			JEQ(a, AF_UNIX, L_ALLOW, L_EACCES);
		}
		LABEL(a, L_EACCES);
		if (trap_net)
			RET(a, SECCOMP_RET_TRAP | (LL_TRAP_NET & SECCOMP_RET_DATA));
		else
			RET_ERRNO(a, EACCES);
		LABEL(a, L_ENOSYS);
		RET_ERRNO(a, ENOSYS);
	}

	LABEL(a, L_PID_FIRST);
	LD(a, OFF_ARG_LO(0));
	pid_is_self(a, self);
	which_who(a, L_SETPRIO, LL_PRIO_PROCESS, self);
	which_who(a, L_IOPRIO, LL_IOPRIO_WHO_PROCESS, self);

	LABEL(a, L_ALLOW);
	RET(a, SECCOMP_RET_ALLOW);
	LABEL(a, L_EPERM);
	RET_ERRNO(a, EPERM);
	LABEL(a, L_KILL);
	RET(a, SECCOMP_RET_KILL_PROCESS);
}

static int
build(struct sock_filter *prog, int net_deny, int trap_net, pid_t self)
{
	struct bpf_asm a;
	int i;

#ifndef LL_AUDIT_ARCH
	(void)prog;
	(void)net_deny;
	(void)trap_net;
	(void)self;
	return -1;
#endif
	/* a pid of 0 would make "self" the same as "any pid 0": harmless,
	 * but a caller that passes it has not read getpid() */
	if (self <= 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.p = prog;
	for (i = 0; i < L_COUNT; i++)
		a.at[i] = -1;
	dispatch(&a, net_deny);
	bodies(&a, net_deny, trap_net, self);
	return resolve(&a);
}

int
ll_filter_build(struct sock_filter *prog, int net_deny, pid_t self)
{
	return build(prog, net_deny, 0, self);
}

int
ll_filter_build_traced(struct sock_filter *prog, int net_deny, pid_t self)
{
	return build(prog, net_deny, 1, self);
}
