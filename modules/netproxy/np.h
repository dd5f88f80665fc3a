/* SPDX-License-Identifier: MIT */
/* np.h -- netproxy internals: the serving context, one connection's slot,
 * the network helpers (np_net.c), the connection's course (np_conn.c) and
 * the platform layer (np_sys_<os>.c: the self-wall and the relay copy). */
#ifndef NS_NETPROXY_NP_H
#define NS_NETPROXY_NP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "np_http.h"
#include "np_match.h"
#include "np_tls.h"
#include "ns_backend.h"

#define NP_LISTEN_MAX 256        /* listeners from the sink */
#define NP_CONNS_DEFAULT 256     /* max_conns 0 */
#define NP_CONNS_MAX 4096
#define NP_MEM_DEFAULT (512ull << 20)
#define NP_STACK (256u << 10)    /* each thread's stack */
#define NP_IDLE_MS 10000         /* a handshake read that waits longer */
#define NP_HEAD_MS 30000         /* the whole request head, at most */
#define NP_CONNECT_MS 10000      /* one address's connect */
#define NP_PEEK_MS 5000          /* the first bytes after CONNECT */
#define NP_LINGER_MS 200         /* reading and dropping after an answer */
#define NP_LINGER_BYTES 65536    /* ... at most this much */
#define NP_STOP_MS 2000          /* stop: relays given this long to end */
#define NP_ADDRS_MAX 16          /* resolved addresses tried */
#define NP_HELLO_CAP (NP_TLS_MAX + 2048)

struct np_listener {
	int fd;
	uint16_t port; /* the payload: proxy_port, or the bridged port */
};

/* One client connection; the slot table is made before the wall. */
struct np_slot {
	int used;
	int cfd, sfd;         /* client, server (-1: none) */
	uint16_t bridge;      /* 0: the proxy listener; else the host port */
	char host[NP_NAME_MAX + 1]; /* as decided (name or address text) */
	uint16_t port;
	struct np_addr lit;   /* the host when it is a literal */
	int is_lit;
	size_t have;          /* bytes in buf */
	char buf[NP_HTTP_HEAD_MAX + 1];
	uint8_t hello[NP_HELLO_CAP];
	struct np_ctx *ctx;
};

struct np_ctx {
	const struct ns_proxy_conf *conf;
	struct np_slot *slots;
	size_t nslots;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t active;
	int stopping;
	pthread_attr_t attr;  /* a connection's thread: detached */
	pthread_attr_t jattr; /* a relay's second direction: joinable */
};

/* ---- np_net.c ---- */
/* Receive the listeners from sink until end-of-file (or stop_fd's):
 * each a listening TCP socket, else closed and said.  0, or -1 on a
 * failure of the sink itself. */
int np_net_listeners(int sink, int stop, struct np_listener *ls, size_t cap,
		     size_t *n);
/* A read of stop_fd (readable): 1 at end-of-file or on an error (stop),
 * 0 when it held bytes (ignored). */
int np_net_stop_now(int fd);
/* Resolve name (never a numeric form: np_host_norm said so) into up to
 * cap addresses, duplicates dropped; the count, or -1. */
int np_net_resolve(const char *name, struct np_addr *out, size_t cap);
/* Connect to the first of addrs that answers within NP_CONNECT_MS each;
 * the fd, or -1 with *why ("refused", "unreachable", "timeout"). */
int np_net_connect(const struct np_addr *addrs, size_t n, uint16_t port,
		   const char **why);
int np_net_write_all(int fd, const void *buf, size_t n);
/* One recv with EINTR retried: >0, 0 at EOF, -1 (EAGAIN on timeout). */
long np_net_recv(int fd, void *buf, size_t cap);
void np_net_timeouts(int fd, int ms);
/* Wait up to ms for fd to be readable: 1, 0 on timeout, -1. */
int np_net_wait(int fd, int ms);
/* Copy with read/write until EOF: 0, or -1 on an error. */
int np_net_copy_rw(int from, int to);

/* ---- np_conn.c ---- */
/* A connection's whole course, in its own thread (the slot is used). */
void *np_conn_run(void *slot);
/* The relay: both directions until both ends are done. */
void np_conn_relay(struct np_slot *s);

/* ---- np_serve.c ---- */
int np_serve(const struct ns_host *host, const struct ns_proxy_conf *conf);
/* The connections served at once (max_conns, defaulted and capped). */
size_t np_conns(const struct ns_proxy_conf *conf);
/* The server fd of a slot, under ctx->mu (stop shuts it down; set
 * while stopping it is shut down at once). */
void np_slot_set_server(struct np_slot *s, int fd);
/* Close the slot's fds and give it back. */
void np_slot_release(struct np_slot *s);

/* ---- np_wall.c (portable) + np_sys_<os>.c ---- */
/* The rlimits and the platform wall; 0, or -1 after refuse(). */
int np_wall(const struct ns_host *host, const struct ns_proxy_conf *conf,
	    size_t nlisten);
int np_sys_ready(const struct ns_host *host);
int np_sys_wall(const struct ns_host *host,
		const struct ns_proxy_conf *conf);
void np_sys_prepare(void);
int np_sys_accept(int lfd);
int np_sys_copy(int from, int to);

#endif
