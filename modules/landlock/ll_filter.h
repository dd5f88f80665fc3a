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

#endif
