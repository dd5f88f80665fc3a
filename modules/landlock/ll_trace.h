/* SPDX-License-Identifier: MIT */
/* ll_trace.h -- landlock.so's --explain tracer (ll_trace.c): a second
 * seccomp filter that sends the path-taking calls to the supervisor
 * (SECCOMP_RET_TRACE), the ptrace stops serviced from wall.wait(), the
 * denials recorded and reported from wall.finish(). */
#ifndef NS_LL_TRACE_H
#define NS_LL_TRACE_H

#include <stdint.h>
#include <sys/types.h>

#include "ns_backend.h"

/* Instructions the trace filter takes at most. */
#define LL_TRACE_FILTER_MAX 64

struct sock_filter;
struct ll_trace;

/* Fill prog (LL_TRACE_FILTER_MAX slots): RET_TRACE for the path-taking
 * calls (and connect, with `connect`: --net-allow at abi 4+), ALLOW for
 * every other.  The count, or -1 (no architecture). */
int ll_trace_filter_build(struct sock_filter *prog, int connect);

/* A tracer for one command; NULL when out of memory.  rules/n_rules are
 * the policy's (they outlive it: prepare() to release()). */
/* trap_net: the traced filter traps the IP sockets --net-deny refuses
 * (ll_filter_build_traced), and only then is a seccomp SIGSYS the tracer's. */
/* connect: Landlock handles TCP connect (--net-allow at abi 4+): a
 * connect to an IP address refused EACCES is named "<addr>:<port>"
 * ("[<v6>]:<port>"), op NS_OP_CONNECT -- one that bypassed the proxy. */
struct ll_trace *ll_trace_new(const struct ns_rule *rules, size_t n_rules,
			      int trap_net, int connect);
/* "/proc/self/..." and "/proc/thread-self/..." in path (n bytes) become
 * the tracee pid's "/proc/<pid>/...": the tracer must not resolve its
 * own.  0, or -1 when it does not fit. */
int ll_trace_proc_self(pid_t pid, char *path, size_t n);
void ll_trace_free(struct ll_trace *t);

/* PTRACE_SEIZE pid with every option the tracer needs; 0 or -1/errno. */
int ll_trace_seize(pid_t pid);

/* One waitpid(__WALL) report about a stopped tracee: service it and
 * resume it.  *exec_done is set to 1 at the exec event of `pid` when
 * exec_done is not NULL. */
void ll_trace_stop(struct ll_trace *t, pid_t pid, int status, int *exec_done);
/* The tracee `pid` is gone (exited or killed). */
void ll_trace_gone(struct ll_trace *t, pid_t pid);

/* Report the recorded denials the wall made (not DAC's) through
 * host->denial, and a note for what could not be named. */
void ll_trace_report(const struct ns_host *host, struct ll_trace *t);

/* 1 when the tracer recorded path, or a path directly beneath it. */
int ll_trace_names(const struct ll_trace *t, const char *path);

/* ---- pure helpers, for the unit suite ---- */
/* "<base>/<rel>" (rel absolute: rel) into out; 0, or -1 when it does not
 * fit or base is not absolute. */
int ll_trace_join(const char *base, const char *rel, char *out, size_t n);
/* The operation an open-like call with these flags is, given whether the
 * target exists: NS_OP_READ/WRITE/CREATE, or 0 (O_PATH: not checked). */
uint32_t ll_trace_open_op(uint64_t flags, int exists);

#endif
