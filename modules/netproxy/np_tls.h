/* SPDX-License-Identifier: MIT */
/* np_tls.h -- the server name of a TLS ClientHello (RFC 8446 4.1.2,
 * RFC 6066 3), a pure function over the first bytes a client sent: the
 * handshake reassembled from consecutive handshake records (fragmented
 * ClientHellos too), bounded by NP_TLS_MAX bytes of handshake. */
#ifndef NS_NETPROXY_NP_TLS_H
#define NS_NETPROXY_NP_TLS_H

#include <stddef.h>
#include <stdint.h>

#define NP_TLS_MAX 16384 /* handshake bytes of one ClientHello */

enum np_tls {
	NP_TLS_MORE = 0,  /* a prefix of a ClientHello: read more */
	NP_TLS_NOT = 1,   /* the first byte is not a TLS record type */
	NP_TLS_NOSNI = 2, /* a whole ClientHello without server_name */
	NP_TLS_SNI = 3,   /* a whole ClientHello: its host_name in out */
	NP_TLS_BAD = 4    /* a TLS record first that is no ClientHello
			     this parser reads, or larger than the cap */
};

/* The bytes b (len) a client sent first.  out (cap >= 256) gets the
 * host_name (NUL-terminated) on NP_TLS_SNI. */
int np_tls_sni(const uint8_t *b, size_t len, char *out, size_t cap);

#endif
