/* ll_filter.c -- the child's seccomp filter, hand-written classic BPF (no
 * libseccomp).  What it refuses:
 *   - a system call of another architecture: the process is killed (an
 *     x86_64 process could otherwise enter through the i386 or x32 tables,
 *     where the numbers below mean something else);
 *   - ioctl(TIOCSTI) and ioctl(TIOCLINUX): EPERM, terminal injection;
 *   - with net-deny: socket(AF_INET|AF_INET6, ...): EACCES, so UDP, raw IP
 *     and MPTCP (IPPROTO_MPTCP bypasses Landlock's TCP rules) are closed, and
 *     io_uring_setup: ENOSYS (IORING_OP_SOCKET creates sockets without the
 *     socket() system call, so it would bypass the socket rule).
 *
 * Argument width (CVE-2019-10063, flatpak): the kernel reads ioctl's `cmd`
 * and socket's `domain` as 32-bit ints and drops the upper half of the
 * 64-bit register.  A filter that compares the whole 64-bit value for
 * equality lets ioctl(fd, TIOCSTI | 1UL << 32) through, and the kernel runs
 * it as TIOCSTI.  So the filter decides on the low half and refuses
 * WHATEVER the high half holds: both halves are covered, none can smuggle
 * the request past it. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "../../host/banned.h"
#include "ll_table.h"

#if defined(__x86_64__)
#define LL_AUDIT_ARCH AUDIT_ARCH_X86_64
#define LL_X32_BIT 0x40000000u /* __X32_SYSCALL_BIT */
#elif defined(__aarch64__)
#define LL_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif

/* seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i; the low half of
 * an argument is first on a little-endian machine. */
#define OFF_NR offsetof(struct seccomp_data, nr)
#define OFF_ARCH offsetof(struct seccomp_data, arch)
#define OFF_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))

enum label { L_NEXT, L_KILL, L_ALLOW, L_IOCTL, L_SOCKET, L_EPERM, L_EACCES,
	     L_ENOSYS, L_COUNT };

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
#define JEQ(a, k, t, f) emit(a, BPF_JMP | BPF_JEQ | BPF_K, (k), t, f)
#define JGE(a, k, t, f) emit(a, BPF_JMP | BPF_JGE | BPF_K, (k), t, f)
#define RET(a, k) emit(a, BPF_RET | BPF_K, (k), L_NEXT, L_NEXT)
#define LABEL(a, l) ((a)->at[l] = (a)->n)

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

static void
dispatch(struct bpf_asm *a, int net_deny)
{
#ifdef LL_AUDIT_ARCH
	LD(a, OFF_ARCH);
	JEQ(a, LL_AUDIT_ARCH, L_NEXT, L_KILL);
#endif
	LD(a, OFF_NR);
#ifdef LL_X32_BIT
	JGE(a, LL_X32_BIT, L_KILL, L_NEXT);
#endif
	JEQ(a, SYS_ioctl, L_IOCTL, L_NEXT);
	if (net_deny) {
		JEQ(a, SYS_socket, L_SOCKET, L_NEXT);
		JEQ(a, SYS_io_uring_setup, L_ENOSYS, L_NEXT);
	}
	RET(a, SECCOMP_RET_ALLOW);
}

static void
bodies(struct bpf_asm *a, int net_deny)
{
	LABEL(a, L_IOCTL);
	LD(a, OFF_ARG_LO(1));
	JEQ(a, TIOCSTI, L_EPERM, L_NEXT);
	JEQ(a, TIOCLINUX, L_EPERM, L_ALLOW);
	if (net_deny) {
		LABEL(a, L_SOCKET);
		LD(a, OFF_ARG_LO(0));
		JEQ(a, AF_INET, L_EACCES, L_NEXT);
		JEQ(a, AF_INET6, L_EACCES, L_ALLOW);
		LABEL(a, L_EACCES);
		RET(a, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA));
		LABEL(a, L_ENOSYS);
		RET(a, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
	}
	LABEL(a, L_ALLOW);
	RET(a, SECCOMP_RET_ALLOW);
	LABEL(a, L_EPERM);
	RET(a, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	LABEL(a, L_KILL);
	RET(a, SECCOMP_RET_KILL_PROCESS);
}

int
ll_filter_build(struct sock_filter *prog, int net_deny)
{
	struct bpf_asm a;
	int i;

#ifndef LL_AUDIT_ARCH
	(void)prog;
	(void)net_deny;
	return -1;
#endif
	memset(&a, 0, sizeof(a));
	a.p = prog;
	for (i = 0; i < L_COUNT; i++)
		a.at[i] = -1;
	dispatch(&a, net_deny);
	bodies(&a, net_deny);
	return resolve(&a);
}
