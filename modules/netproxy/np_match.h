/* SPDX-License-Identifier: MIT */
/* np_match.h -- the proxy's decision, pure functions: the host a client
 * asked for normalised (a DNS name or an IP literal, never anything a
 * resolver would read as a number), matched against the --net-allow
 * entries, and each resolved address vetted (loopback, private,
 * link-local ... refused unless an address entry names it). */
#ifndef NS_NETPROXY_NP_MATCH_H
#define NS_NETPROXY_NP_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "ns_backend.h"

#define NP_NAME_MAX 253 /* a DNS name without its trailing dot */
#define NP_ADDR_TEXT 46 /* INET6_ADDRSTRLEN */

/* An address: fam 4 (a[0..3]) or 6 (a[0..15]), network order. */
struct np_addr {
	uint8_t fam;
	uint8_t a[16];
};

/* What np_host_norm found. */
enum np_host { NP_HOST_BAD = 0, NP_HOST_NAME = 1, NP_HOST_ADDR = 2 };

/* The verdicts; the deny line's why for each (np_why_token). */
enum np_verdict {
	NP_ALLOW = 0,
	NP_NOT_ALLOWED = 1, /* no entry names the host */
	NP_PORT = 2,        /* an entry names the host, not this port */
	NP_PRIVATE = 3,     /* it resolves to a special address only */
	NP_SNI = 4,         /* the ClientHello names another host */
	NP_BAD = 5          /* not a request the proxy speaks */
};

/* The report token of a verdict ("not_allowed", ...). */
const char *np_why_token(int verdict);

/* The host the client sent (len bytes, not NUL-terminated, any bytes):
 * an IPv4 dotted quad or an IPv6 text (no brackets, no zone) read by
 * inet_pton only, into *addr (IPv4-mapped IPv6 stays 6); else a DNS
 * name: lowercased, one trailing dot dropped, LDH labels of 1..63 bytes
 * (no '-' at either end), at most 253 bytes, whose last label is not
 * numeric (all digits, or 0x and hex: what inet_aton would take), into
 * name (cap > NP_NAME_MAX).  NP_HOST_BAD for anything else. */
int np_host_norm(const char *in, size_t len, char *name, size_t cap,
		 struct np_addr *addr);

/* 1 when a is loopback, private (RFC 1918), CGNAT (100.64/10),
 * link-local, unique-local or site-local, unspecified, multicast,
 * reserved (240/4, broadcast), IPv4-compatible, or an IPv6 form that
 * embeds such an IPv4 (mapped, NAT64 64:ff9b::/96, 6to4 2002::/16). */
int np_addr_special(const struct np_addr *a);

/* 1 when an NS_NET_ADDR entry for `port` covers a (IPv4-mapped on
 * either side is compared as its IPv4). */
int np_addr_covered(const struct ns_net_entry *allow, size_t n,
		    const struct np_addr *a, uint16_t port);

/* The decision on a name (normalised): NP_ALLOW when a NAME entry equal
 * to it or a SUFFIX entry strictly above it has this port, NP_PORT when
 * such entries exist for other ports only, else NP_NOT_ALLOWED. */
int np_decide_name(const struct ns_net_entry *allow, size_t n,
		   const char *name, uint16_t port);

/* The decision on an address literal: the same over NS_NET_ADDR
 * entries covering it. */
int np_decide_addr(const struct ns_net_entry *allow, size_t n,
		   const struct np_addr *a, uint16_t port);

/* A resolved address of an allowed name: NP_ALLOW unless it is special
 * and no NS_NET_ADDR entry for port covers it (NP_PRIVATE). */
int np_vet_resolved(const struct ns_net_entry *allow, size_t n,
		    const struct np_addr *a, uint16_t port);

/* a as text (inet_ntop) into out (cap >= NP_ADDR_TEXT). */
void np_addr_text(const struct np_addr *a, char *out, size_t cap);

/* Two hosts the same name (case-insensitive, a trailing dot on either
 * ignored): the SNI check. */
int np_same_name(const char *a, const char *b);

#endif
