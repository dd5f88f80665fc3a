/* SPDX-License-Identifier: MIT */
/* ll_filter.h -- the child's seccomp filter (ll_filter.c). */
#ifndef NS_LL_FILTER_H
#define NS_LL_FILTER_H

#include <sys/types.h>

/* Instructions the longest filter may take (net-deny, every arch check). */
#define LL_FILTER_MAX 128

struct sock_filter;

/* Fill prog (LL_FILTER_MAX slots) with the child's filter; returns the
 * number of instructions, or -1 when this architecture has no filter.
 * `self` is the pid the command will have (the child's getpid() just
 * before execve): a pid-taking call is allowed on 0 or on `self` only. */
int ll_filter_build(struct sock_filter *prog, int net_deny, pid_t self);
/* net_deny: 0 (no socket rule), LL_NET_DENY (AF_UNIX only) or
 * LL_NET_PROXIED (--net-allow's namespace: AF_UNIX, and AF_INET/AF_INET6
 * with protocol 0, TCP or UDP only); socketpair() AF_UNIX only and
 * io_uring_setup() ENOSYS under both. */
#define LL_NET_DENY 1
#define LL_NET_PROXIED 2
/* The same filter for --explain's traced command: the sockets --net-deny
 * refuses are trapped (SECCOMP_RET_TRAP with LL_TRAP_NET as its data)
 * instead of failed with EACCES, so that the tracer sees them.  The call
 * never runs either way: the tracer turns the trap into EACCES and names
 * it, and without a tracer the SIGSYS ends the process. */
int ll_filter_build_traced(struct sock_filter *prog, int net_deny,
			   pid_t self);
#define LL_TRAP_NET 0x4e54u /* "NT": the data of the socket trap */

#endif
