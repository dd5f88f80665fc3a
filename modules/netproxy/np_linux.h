/* SPDX-License-Identifier: MIT */
/* np_linux.h -- the Linux half of the proxy's wall: Landlock (its own
 * definitions: the build host's uapi header may be older than the
 * kernel) and the seccomp filter. */
#ifndef NS_NETPROXY_NP_LINUX_H
#define NS_NETPROXY_NP_LINUX_H

#include "ns_backend.h"

/* The kernel's Landlock ABI version, or -1 with errno. */
int np_landlock_abi(void);
/* Restrict the process: the filesystem read-only to what name
 * resolution and the libraries need; with ABI >= 4 TCP bind to nothing
 * and TCP connect to the entries' ports and 53; with ABI >= 6 abstract
 * unix sockets and signals scoped.  0, or -1 with what failed in *what. */
int np_landlock(const struct ns_proxy_conf *conf, const char **what);

/* 1 when this build has a filter for the machine. */
int np_seccomp_arch(void);
/* Install the allowlist (all threads).  0, or -1 with errno. */
int np_seccomp(void);

#endif
