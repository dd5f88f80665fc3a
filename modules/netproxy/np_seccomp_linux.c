/* SPDX-License-Identifier: MIT */
/* np_seccomp_linux.c -- the proxy's seccomp filter (np_linux.h), classic
 * BPF written here (no libseccomp).  An allowlist: what the relay, the
 * threads, the resolver (files and dns, dlopen of NSS modules) and the
 * allocator call.  socket() only for AF_INET and AF_INET6 (EAFNOSUPPORT
 * otherwise: nscd's unix socket is not asked) and only TCP streams and
 * UDP datagrams (EACCES otherwise), clone() only with
 * CLONE_THREAD (a thread, never a process), clone3() ENOSYS (glibc then
 * falls back to clone), prlimit64() on the proxy itself only (pid 0:
 * getrlimit), ioctl() FIONREAD only (the resolver sizes a
 * reply with it); execve, execveat and ptrace kill the process;
 * every other call fails with ENOSYS.  A foreign architecture or an x32
 * call kills. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "banned.h"
#include "np_linux.h"

#if defined(__x86_64__)
#define NP_AUDIT_ARCH AUDIT_ARCH_X86_64
#define NP_X32_BIT 0x40000000u
#elif defined(__aarch64__)
#define NP_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_rseq
#define SYS_rseq 334
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000u
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC 1u
#endif

#ifdef NP_AUDIT_ARCH

/* Allowed whatever their arguments. */
static const int allowed[] = {
	SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_close,
	SYS_fstat, SYS_newfstatat, SYS_lseek, SYS_openat, SYS_fcntl,
	SYS_mmap, SYS_munmap, SYS_mprotect, SYS_madvise, SYS_brk, SYS_mremap,
	SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn,
	SYS_sigaltstack, SYS_futex, SYS_set_robust_list, SYS_rseq,
	SYS_exit, SYS_exit_group, SYS_gettid, SYS_getpid, SYS_tgkill,
	SYS_clock_gettime, SYS_clock_nanosleep, SYS_nanosleep,
	SYS_gettimeofday, SYS_sched_yield, SYS_sched_getaffinity,
	SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_uname,
	SYS_getrandom, SYS_restart_syscall,
	SYS_ppoll, SYS_pselect6,
	SYS_connect, SYS_accept, SYS_accept4, SYS_sendto, SYS_recvfrom,
	SYS_sendmsg, SYS_recvmsg, SYS_sendmmsg, SYS_recvmmsg, SYS_shutdown,
	SYS_setsockopt, SYS_getsockopt, SYS_getsockname, SYS_getpeername,
	SYS_pipe2, SYS_splice,
#ifdef SYS_poll
	SYS_poll, SYS_open, SYS_stat, SYS_lstat, SYS_access, SYS_pipe,
	SYS_select, SYS_arch_prctl,
#endif
};

/* Kill the process: what an attacker inside the proxy would reach for. */
static const int killed[] = { SYS_execve, SYS_execveat, SYS_ptrace };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define OFF_NR offsetof(struct seccomp_data, nr)
#define OFF_ARCH offsetof(struct seccomp_data, arch)
#define OFF_ARG0 offsetof(struct seccomp_data, args)
#define OFF_ARG1 (OFF_ARG0 + 8)
#define OFF_ARG2 (OFF_ARG0 + 16)
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define PROG_MAX 160

struct prog {
	struct sock_filter f[PROG_MAX];
	unsigned short n;
};

static void
op(struct prog *p, unsigned short code, unsigned k, unsigned char jt,
   unsigned char jf)
{
	if (p->n < PROG_MAX)
		p->f[p->n] = (struct sock_filter){ code, jt, jf, k };
	p->n++;
}

#define LD(p, off) op(p, BPF_LD | BPF_W | BPF_ABS, (unsigned)(off), 0, 0)
#define JEQ(p, k, t, f) op(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)(k), t, f)
#define JSET(p, k, t, f) op(p, BPF_JMP | BPF_JSET | BPF_K, (unsigned)(k), t, f)
#define RET(p, k) op(p, BPF_RET | BPF_K, (unsigned)(k), 0, 0)

/* The architecture, then the number (A holds it after). */
static void
head(struct prog *p)
{
	LD(p, OFF_ARCH);
	JEQ(p, NP_AUDIT_ARCH, 1, 0);
	RET(p, SECCOMP_RET_KILL_PROCESS);
	LD(p, OFF_NR);
#ifdef NP_X32_BIT
	op(p, BPF_JMP | BPF_JGE | BPF_K, NP_X32_BIT, 0, 1);
	RET(p, SECCOMP_RET_KILL_PROCESS);
#endif
}

/* socket(): AF_INET or AF_INET6 (else EAFNOSUPPORT), of type SOCK_STREAM
 * with protocol 0 or TCP, or SOCK_DGRAM (the resolver) with protocol 0 or
 * UDP, the CLOEXEC and NONBLOCK bits masked off the type; any other type
 * or protocol EACCES (no raw socket, no MPTCP: protocol 262 is not
 * Landlock's TCP).  Jump offsets count the instructions between. */
static void
sock(struct prog *p)
{
	JEQ(p, SYS_socket, 0, 16);
	LD(p, OFF_ARG0);
	JEQ(p, AF_INET, 1, 0);
	JEQ(p, AF_INET6, 0, 11);
	LD(p, OFF_ARG1);
	op(p, BPF_ALU | BPF_AND | BPF_K,
	   ~(unsigned)(SOCK_CLOEXEC | SOCK_NONBLOCK), 0, 0);
	JEQ(p, SOCK_STREAM, 0, 3);
	LD(p, OFF_ARG2);
	JEQ(p, 0, 7, 0);
	JEQ(p, IPPROTO_TCP, 6, 4);
	JEQ(p, SOCK_DGRAM, 0, 3);
	LD(p, OFF_ARG2);
	JEQ(p, 0, 3, 0);
	JEQ(p, IPPROTO_UDP, 2, 0);
	RET(p, ERRNO(EACCES));
	RET(p, ERRNO(EAFNOSUPPORT));
	RET(p, SECCOMP_RET_ALLOW);
}

/* The calls judged on an argument; A is the number on the way out. */
static void
special(struct prog *p)
{
	JEQ(p, SYS_clone3, 0, 1);
	RET(p, ERRNO(ENOSYS));
	for (size_t i = 0; i < COUNT(killed); i++) {
		JEQ(p, killed[i], 0, 1);
		RET(p, SECCOMP_RET_KILL_PROCESS);
	}
	sock(p);
	JEQ(p, SYS_clone, 0, 4);
	LD(p, OFF_ARG0);
	JSET(p, CLONE_THREAD, 0, 1);
	RET(p, SECCOMP_RET_ALLOW);
	RET(p, ERRNO(EPERM));
	JEQ(p, SYS_prlimit64, 0, 4);
	LD(p, OFF_ARG0);
	JEQ(p, 0, 0, 1);
	RET(p, SECCOMP_RET_ALLOW);
	RET(p, ERRNO(EPERM));
	JEQ(p, SYS_ioctl, 0, 4);
	LD(p, OFF_ARG1);
	JEQ(p, FIONREAD, 0, 1);
	RET(p, SECCOMP_RET_ALLOW);
	RET(p, ERRNO(ENOSYS));
}

/* The allowlist: each a jump to the final ALLOW. */
static void
list(struct prog *p)
{
	size_t n = COUNT(allowed);

	for (size_t i = 0; i < n; i++)
		JEQ(p, allowed[i], (unsigned char)(n - i), 0);
	RET(p, ERRNO(ENOSYS));
	RET(p, SECCOMP_RET_ALLOW);
}

int
np_seccomp_arch(void)
{
	return 1;
}

int
np_seccomp(void)
{
	static struct prog p;
	struct sock_fprog fp;

	p.n = 0;
	head(&p);
	special(&p);
	list(&p);
	if (p.n > PROG_MAX || COUNT(allowed) > 255) {
		errno = E2BIG;
		return -1;
	}
	fp = (struct sock_fprog){ p.n, p.f };
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_TSYNC, &fp) == 0)
		return 0;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0);
}

#else /* no filter for this architecture: ready() refuses */

int
np_seccomp_arch(void)
{
	return 0;
}

int
np_seccomp(void)
{
	errno = ENOSYS;
	return -1;
}

#endif
