/* SPDX-License-Identifier: MIT */
/* ll_socks.h -- the agent and bus sockets a walled command can still reach
 * below Landlock ABI 9, where pathname unix sockets are not walled
 * (docs/SPEC-SANDBOX.md section 6, the gap; issue 7 class 6).
 *
 * The kernel's unix socket table is read once per process (at facts(),
 * else at prepare()): NETLINK_SOCK_DIAG asked for the listening sockets,
 * or /proc/net/unix where that is absent; kept are the listening pathname
 * sockets whose path looks like an agent,
 * a bus or a server that acts as the user.  Whether each is reachable is
 * asked at prepare() time, in the mount namespace the command will run
 * in, with fstatat and faccessat on the path (never opened): a socket the
 * user owns, or may write. */
#ifndef NS_LL_SOCKS_H
#define NS_LL_SOCKS_H

#include <stddef.h>

#include "ns_backend.h"

#define LL_SOCKS_MAX 32  /* candidates kept; the rest counted */
#define LL_SOCKS_LIST 8  /* paths a NOTE names; the rest counted */
#define LL_SOCK_PATH 108 /* sizeof(sun_path) */

struct ll_socks {
	int scanned;  /* 1 once the table was read (or tried) */
	int err;      /* errno when it could not be read, else 0 */
	size_t n;     /* candidates in path[] */
	size_t more;  /* candidates past LL_SOCKS_MAX */
	char path[LL_SOCKS_MAX][LL_SOCK_PATH];
};

/* One line of /proc/net/unix (no newline): 1 with *path and *plen set when it
 * is a listening socket bound to an absolute pathname, else 0. */
int ll_socks_line(const char *line, size_t len, const char **path,
		  size_t *plen);
/* 1 when an absolute socket path looks like an agent, a bus or a server
 * that acts as the user (the table in ll_socks.c), else 0. */
int ll_socks_kind(const char *path);
/* Keep p[0..n) when it is an absolute path of an agent or bus kind. */
void ll_socks_add_path(struct ll_socks *s, const char *p, size_t n);
/* One whole line of /proc/net/unix. */
void ll_socks_add_line(struct ll_socks *s, const char *line, size_t len);
/* Read `file` (the /proc/net/unix format) into s: 0, or -1 with s->err. */
int ll_socks_read(struct ll_socks *s, const char *file);
/* Ask the kernel (NETLINK_SOCK_DIAG) for the listening unix sockets and
 * their names: 0, or -1 with s->err. */
int ll_socks_diag(struct ll_socks *s);
/* ll_socks_diag, else ll_socks_read of /proc/net/unix. */
int ll_socks_scan(struct ll_socks *s);

/* Which reachable sockets: those this process's effective uid owns
 * (they answer as the user), and another account's it may write (that
 * account answers as it lets this user). */
#define LL_SOCKS_MINE 1u
#define LL_SOCKS_OTHERS 2u

/* The candidates reachable by this process's effective ids, of the kinds
 * `which` (LL_SOCKS_MINE, LL_SOCKS_OTHERS, or both), as one
 * space-separated list (each path with space, ',', '\' and control bytes
 * as \xNN), at most `max` named and " and <k> more" after; into buf.
 * Returns how many are reachable. */
size_t ll_socks_reachable(const struct ll_socks *s, unsigned which,
			  size_t max, char *buf, size_t n);

/* Below built ABI 9: append "; reachable from inside now: <list>" to
 * the check note when s names a reachable socket. */
void ll_socks_facts_note(int kabi, const struct ll_socks *s, char *note,
			 size_t n);
/* Below built ABI 9: the OK-time NOTE for s into buf and 1, or 0 when
 * there is nothing to say (nothing reachable, or ABI 9 walls them). */
int ll_socks_note(int kabi, const struct ll_socks *s, char *buf, size_t n);

/* facts(): read the table for this process (once) and, below built ABI
 * 9, append "; reachable from inside now: <list>" to the check note. */
void ll_socks_on_facts(int kabi, char *note, size_t n);
/* prepare(): below built ABI 9, the one NOTE naming what stays
 * reachable (or why it cannot be named). */
void ll_socks_on_prepare(const struct ns_host *host, int kabi);

#endif
