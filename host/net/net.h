/* SPDX-License-Identifier: MIT */
/* net.h -- the net room: the filtering proxy behind --net-allow (spec
 * rule 7, section 7 "Network by name"; docs/ARCHITECTURE.md).  The proxy
 * is a module (NS_ROLE_PROXY, api/ns_backend.h 1.5); this room loads it,
 * decides how the wall gets the command's one way out, runs serve() in a
 * process of its own, reads its report lines and stops it.
 *
 * Calling sequence (the bare wrap; run's supervisor the same):
 *   net_select   before anything is created: the proxy module loaded and
 *                ready, the wall able (NS_WALL_NETNS or
 *                NS_WALL_NET_LOOPBACK), else no_proxy /
 *                net_allow_unsupported refusals;
 *   net_plan     the sink pair (and, on the loopback path, the host's own
 *                listener on 127.0.0.1:0), the proxy port, the ports;
 *   net_env      the proxy variables into the command's environment;
 *   net_view     what the wall is told (flags, net_ports, net_sink or the
 *                net_allow strings);
 *   net_start    the proxy's process, BEFORE the wall's spawn (a wall
 *                that restricts the calling process restricts its
 *                children);
 *   net_spawned  after the spawn: the host's copy of the wall's sink end
 *                closed;
 *   net_tick     while the command runs: the report lines, live;
 *   net_stop     once the command ended: stop, wait (bounded, then
 *                SIGKILL), the last lines, the NOTE of an early end;
 *   net_free.
 * Files: net.c (selection, plan, view, environment), netreport.c (the
 * report lines: adversary bytes, bounded), netproc.c (POSIX: the
 * process, the sockets; netnone.c stands in where there is no fork). */
#ifndef NS_HOST_NET_NET_H
#define NS_HOST_NET_NET_H

#include <stddef.h>
#include <stdint.h>

#include "ns_backend.h"
#include "base/util.h"
#include "conf/config.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "policy/netallow.h"

enum net_path {
	NET_PATH_NONE = 0,
	NET_PATH_NETNS = 1,    /* the wall makes the namespace (NS_WALL_NETNS) */
	NET_PATH_LOOPBACK = 2  /* the host's loopback (NS_WALL_NET_LOOPBACK) */
};

#define NET_PROXY_PORT 3128u     /* the proxy's port inside a namespace */
#define NET_LINE_MAX 1024u       /* a report line longer is dropped */
#define NET_SEEN_MAX 256u        /* distinct DENIED lines printed */
#define NET_NOTES_MAX 20u        /* proxy notes printed */
#define NET_STOP_MS 2000u        /* the proxy's time to stop by itself */
#define NET_MAX_CONNS 256u       /* the proxy's connections at once */
#define NET_MAX_MEM (512ull << 20) /* the proxy's address space */

/* What one report line said, once checked (netreport.c). */
struct net_event {
	char kind;     /* 'd' deny, 'f' fail, 'n' note, 0 not a line */
	char host[256];
	unsigned port;
	char why[33];
	char addr[64]; /* deny ... private <addr>, else "" */
	const char *text; /* note: the rest of the line */
};

struct net_run {
	int active;               /* --net-allow entries were given */
	enum net_path path;
	struct module mod;        /* the proxy module */
	int loaded;
	const struct net_list *entries;
	size_t proxied;           /* entries through the proxy */
	uint16_t proxy_port;      /* P (0: no proxied entry) */
	uint16_t ports[NETALLOW_MAX + 1]; /* net_ports (the netns path) */
	size_t n_ports;
	struct strv allow;        /* the loopback path's net_allow strings */
	int wall_sink;            /* the wall's end of the sink (-1) */
	int proxy_sink;           /* the proxy's end (-1) */
	int report_fd;            /* the report pipe's read end (-1) */
	int stop_fd;              /* the stop pipe's write end (-1) */
	int status_fd;            /* the proxy's watcher: pid, then status */
	int64_t pid;              /* the proxy's process (0: none) */
	int ended;                /* the proxy's end is known */
	int status;               /* ... its wait status */
	int cmd_done;             /* the command had ended (no NOTE then) */
	int early_said;
	/* the report lines */
	char buf[NET_LINE_MAX + 1];
	size_t blen;
	int skipping;             /* a line past NET_LINE_MAX: drop to '\n' */
	struct strv seen;         /* "<host> <port>" of each DENIED said */
	size_t denied;            /* distinct (host, port) refused */
	size_t notes;
	int seen_full_said;
	int bad_said;             /* the NOTE on bad_request refusals */
};

/* Before anything is created, when n_entries > 0: load the proxy module
 * of cfg and ask its ready() (hs: the services; its refusals are
 * gathered into one),
 * and choose the path by the wall's features.  0, or 1 with the refusals
 * in r (no_proxy; net_allow_unsupported naming wall_name), -1 ENOMEM. */
int net_select(struct net_run *n, const struct config *cfg,
	       struct hostsvc *hs, const char *wall_name,
	       uint32_t wall_features, size_t n_entries, struct refusals *r);
/* The proxy port and the ports the wall listens on (netns), pure:
 * P = NET_PROXY_PORT, or the next port no loopback entry uses, when a
 * proxied entry exists; then each loopback entry's port once. */
void net_ports_plan(struct net_run *n, const struct net_list *entries);
/* The sink pair, the listener of the loopback path, the ports.  0, or -1
 * with errno (the caller refuses sandbox_failed). */
int net_plan(struct net_run *n, const struct net_list *entries);
/* Rule 7's variables into env (a NULL-terminated strv, the command's
 * whole environment): HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, their
 * lowercase forms, NO_PROXY and no_proxy, each replacing the caller's,
 * only when a proxied entry exists.  0, or -1. */
int net_env(const struct net_run *n, struct strv *env);
/* The policy verb's view (no socket, no process): what the wall would
 * be told, the loopback path without the proxy's port (chosen when the
 * command runs).  n zeroed; net_free it. */
void net_render_view(struct net_run *n, uint32_t wall_features,
		     const struct net_list *entries, struct ns_policy *view);
/* What the wall is told, onto the view policy_view made. */
void net_view(const struct net_run *n, struct ns_policy *view);
/* The proxy's process (netproc.c): 0, or -1 with errno. */
int net_start(struct net_run *n, const struct hostsvc *hs);
void net_spawned(struct net_run *n);
/* In a child of the process that started the proxy (run's keeper): its
 * copies of the report, stop and status pipes closed (the proxy stops on
 * the stop pipe's end-of-file: no copy may outlive the supervisor's). */
void net_forget(struct net_run *n);
/* Read what the proxy reported (never blocks); print each line. */
void net_tick(struct net_run *n);
/* The command ended: stop the proxy, wait for it (bounded), print what
 * is left and the NOTE of an early end. */
void net_stop(struct net_run *n);
/* " net-denied=<k>" for DONE (into b), when active. */
int net_done_field(const struct net_run *n, struct sbuf *b);
void net_free(struct net_run *n);
/* netreport.c: one report line (no '\n') checked into *ev. */
void net_parse_line(char *line, struct net_event *ev);
/* ... and said (DENIED once per (host, port), NOTEs). */
void net_say(struct net_run *n, const struct net_event *ev);
/* Bytes read from the report pipe, split into lines and said. */
void net_feed(struct net_run *n, const char *p, size_t len);
/* netproc.c: has the proxy ended (status_fd), without blocking. */
void net_poll_end(struct net_run *n);

#endif
