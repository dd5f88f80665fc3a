/* SPDX-License-Identifier: MIT */
/* np_report.h -- the proxy's lines to the host on report_fd (the line
 * protocol in ns_backend.h): deny, fail and note, each distinct (host,
 * port, why) once, written without ever blocking the proxy. */
#ifndef NS_NETPROXY_NP_REPORT_H
#define NS_NETPROXY_NP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define NP_REPORT_SEEN 512 /* distinct (host, port, why) remembered */

/* The descriptor the lines go to (made non-blocking); -1: none. */
void np_report_init(int fd);

/* "deny <host> <port> <why> [<addr>]" once per (host, port, why); addr
 * may be NULL.  host is sanitised (np_report_field). */
void np_report_deny(const char *host, uint16_t port, int verdict,
		    const char *addr);

/* "fail <host> <port> <why>" once per (host, port, why). */
void np_report_fail(const char *host, uint16_t port, const char *why);

/* "note <text>", every time it is called. */
void np_report_note(const char *text);

/* A note said once per key (a small set of fixed keys, NP_ONCE_*). */
enum np_once { NP_ONCE_FULL, NP_ONCE_CAP, NP_ONCE_THREAD, NP_ONCE_LISTENER,
	       NP_ONCE_LISTENERS, NP_ONCE_UNNAMED, NP_ONCE_N };
void np_report_once(enum np_once key, const char *text);

/* The lines dropped because report_fd was full (for a last note). */
unsigned long np_report_dropped(void);
/* At the end of serve(): when lines were dropped, one note saying how
 * many, its write retried for up to 500 ms (the host reads meanwhile). */
void np_report_lost(void);

/* s as a report field: the bytes [a-z0-9.:-] kept (A-Z lowercased),
 * others '?', at most cap - 1 bytes; "-" when empty. */
void np_report_field(const char *s, char *out, size_t cap);

/* The line for (kind, host, port, why, addr) into out; its length. */
size_t np_report_format(char *out, size_t cap, const char *kind,
			const char *host, uint16_t port, const char *why,
			const char *addr);

#endif
