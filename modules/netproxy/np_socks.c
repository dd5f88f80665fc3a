/* SPDX-License-Identifier: MIT */
/* np_socks.c -- the proxy's SOCKS5 handshake (np_socks.h). */
#include "np_socks.h"

#include <arpa/inet.h>
#include <string.h>

#include "banned.h"

int
np_socks_greeting(const uint8_t *b, size_t len, size_t *used)
{
	size_t n;

	if (len >= 1 && b[0] != 5)
		return NP_P_BAD;
	if (len >= 2 && b[1] == 0)
		return NP_P_BAD;
	if (len < 2 || len < 2 + (size_t)b[1])
		return NP_P_MORE;
	n = b[1];
	*used = 2 + n;
	return memchr(b + 2, 0, n) != NULL ? NP_P_DONE : NP_P_SOCKS_NOAUTH;
}

/* The address bytes the type takes (a domain: 1 + its length byte), or
 * 0 when unknown or not read yet. */
static size_t
addr_len(const uint8_t *b, size_t len)
{
	static const size_t fixed[] = { [1] = 4, [4] = 16 };

	if (b[3] == 3)
		return len > 4 ? 1 + (size_t)b[4] : 0;
	return b[3] < sizeof(fixed) / sizeof(fixed[0]) ? fixed[b[3]] : 0;
}

static int
host_of(const uint8_t *b, struct np_socks_req *r)
{
	size_t n;

	if (r->atyp == 1 || r->atyp == 4)
		return inet_ntop(r->atyp == 1 ? AF_INET : AF_INET6, b + 4,
				 r->host, sizeof(r->host)) != NULL ? 0 : -1;
	n = b[4];
	if (n == 0 || memchr(b + 5, '\0', n) != NULL)
		return -1;
	memcpy(r->host, b + 5, n);
	r->host[n] = '\0';
	return 0;
}

int
np_socks_request(const uint8_t *b, size_t len, struct np_socks_req *r,
		 size_t *used)
{
	size_t al;

	if ((len >= 1 && b[0] != 5) || (len >= 3 && b[2] != 0))
		return NP_P_BAD;
	if (len < 5)
		return NP_P_MORE;
	if (b[3] != 1 && b[3] != 3 && b[3] != 4)
		return NP_P_SOCKS_ATYP;
	al = addr_len(b, len);
	if (len < 4 + al + 2)
		return NP_P_MORE;
	memset(r, 0, sizeof(*r));
	r->cmd = b[1];
	r->atyp = b[3];
	r->port = (uint16_t)(b[4 + al] << 8 | b[4 + al + 1]);
	*used = 4 + al + 2;
	if (r->cmd != 1)
		return NP_P_SOCKS_CMD;
	if (host_of(b, r) != 0 || r->port == 0)
		return NP_P_BAD;
	return NP_P_DONE;
}

void
np_socks_reply(uint8_t rep, uint8_t out[10])
{
	memset(out, 0, 10);
	out[0] = 5;
	out[1] = rep;
	out[3] = 1;
}
