/* SPDX-License-Identifier: MIT */
/* np_socks.h -- the proxy's SOCKS5 handshake (RFC 1928), pure functions:
 * the method greeting (no authentication only) and the request (CONNECT
 * only; ATYP IPv4, domain name, IPv6). */
#ifndef NS_NETPROXY_NP_SOCKS_H
#define NS_NETPROXY_NP_SOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "np_parse.h"

/* Reply codes (RFC 1928 6). */
enum np_socks_rep {
	NP_SOCKS_OK = 0x00,
	NP_SOCKS_FAIL = 0x01,        /* general failure */
	NP_SOCKS_NOT_ALLOWED = 0x02, /* not allowed by ruleset */
	NP_SOCKS_NET_UNREACH = 0x03,
	NP_SOCKS_HOST_UNREACH = 0x04,
	NP_SOCKS_REFUSED = 0x05,
	NP_SOCKS_TTL = 0x06,
	NP_SOCKS_CMD = 0x07,         /* command not supported */
	NP_SOCKS_ATYP = 0x08         /* address type not supported */
};

/* Extra results of np_socks_request besides NP_P_*. */
#define NP_P_SOCKS_CMD 3  /* a command other than CONNECT: reply 0x07 */
#define NP_P_SOCKS_ATYP 4 /* an unknown address type: reply 0x08 */
/* Extra result of np_socks_greeting: no acceptable method (0xff). */
#define NP_P_SOCKS_NOAUTH 3

/* The greeting: 05 n methods[n].  DONE when method 00 is offered, with
 * its length in *used. */
int np_socks_greeting(const uint8_t *b, size_t len, size_t *used);

/* The request: 05 cmd 00 atyp addr port.  host: the domain's bytes, or
 * the address as text, NUL-terminated (a domain holding a NUL is BAD). */
struct np_socks_req {
	uint8_t cmd, atyp;
	uint16_t port;
	char host[256];
};
int np_socks_request(const uint8_t *b, size_t len, struct np_socks_req *r,
		     size_t *used);

/* The 10-byte reply: 05 rep 00 01 0.0.0.0:0. */
void np_socks_reply(uint8_t rep, uint8_t out[10]);

#endif
