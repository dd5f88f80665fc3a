/* SPDX-License-Identifier: MIT */
/* ll_netns.h -- --net-allow for landlock.so (ABI 1.5, NS_WALL_NETNS): the
 * command's network namespace, loopback only, with the listeners the
 * host's proxy serves (ll_netns.c).  The namespace itself is made with
 * the wall's own user namespace (ll_protect.c: one unshare). */
#ifndef NS_LL_NETNS_H
#define NS_LL_NETNS_H

#include <stddef.h>

#include "ns_backend.h"

/* Does pol ask for the namespace (NS_POLICY_NET_PROXIED, 1.5 by size)? */
int ll_netns_wanted(const struct ns_policy *pol);

/* What is wrong with pol's 1.5 fields for the namespace, as a sentence
 * into text, or NULL when nothing is: net-deny with it, no port, port 0,
 * a port twice, no sink.  Every problem is an internal error (the host
 * builds these fields). */
const char *ll_netns_check(const struct ns_policy *pol, char *text,
			   size_t n);

/* In the new network namespace: `lo` up.  0, or -1 with errno. */
int ll_netns_lo_up(void);

/* In the new network namespace: one listener on 127.0.0.1:<port> (and
 * one on [::1]:<port> where the namespace has IPv6) for every port of
 * pol, each sent over pol->net_sink (a uint16_t port in host order and
 * the socket as one SCM_RIGHTS descriptor) and closed here.  sink < 0
 * (the probe): made and closed, nothing sent.  0, or -1 with errno and
 * *step (enum ll_pstep). */
int ll_netns_listen(const struct ns_policy *pol, int sink, int *step);

/* finish() under --net-allow: the denials the tracer and the audit log
 * report go through `counted` (a copy of host whose denial() counts the
 * connects: each one a connection that went around the proxy), then
 * ll_netns_bypass_note() says them in one NOTE. */
struct ll_bypass {
	const struct ns_host *host; /* the real one */
	struct ns_host counted;     /* cookie: this struct */
	uint64_t n;                 /* connect denials */
	char first[96];             /* the first one's "<addr>:<port>" */
};
/* Fill b from host: counted forwards every service to host. */
void ll_netns_bypass_init(struct ll_bypass *b, const struct ns_host *host);
/* The NOTE, when a connect was refused. */
void ll_netns_bypass_note(const struct ll_bypass *b);

/* "<port>,<port>,..." of pol's ports into buf (the render line). */
void ll_netns_ports(const struct ns_policy *pol, char *buf, size_t n);

#endif
