/* SPDX-License-Identifier: MIT */
/* netnone.c -- the net room where the host has no fork (Windows): no wall
 * there has NS_WALL_NETNS or NS_WALL_NET_LOOPBACK, so net_select refuses
 * every --net-allow (net_allow_unsupported) before any of these runs;
 * they stand in for netproc.c and do nothing. */
#include <errno.h>

#include "net/net.h"

int
net_plan(struct net_run *n, const struct net_list *entries)
{
	(void)entries;
	return n->active ? (errno = ENOSYS, -1) : 0;
}

int
net_start(struct net_run *n, const struct hostsvc *hs)
{
	(void)hs;
	return n->active ? (errno = ENOSYS, -1) : 0;
}

void
net_spawned(struct net_run *n)
{
	(void)n;
}

void
net_forget(struct net_run *n)
{
	(void)n;
}

void
net_tick(struct net_run *n)
{
	(void)n;
}

void
net_poll_end(struct net_run *n)
{
	(void)n;
}

void
net_stop(struct net_run *n)
{
	(void)n;
}

void
net_free(struct net_run *n)
{
	strv_free(&n->allow);
	strv_free(&n->seen);
	if (n->loaded)
		module_free(&n->mod);
	n->loaded = 0;
}
