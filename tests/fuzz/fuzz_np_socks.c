/* SPDX-License-Identifier: MIT */
/* fuzz_np_socks.c -- libFuzzer harness for the proxy's SOCKS5 handshake
 * (modules/netproxy/np_socks.c, compiled in).  The input is what a client
 * sent: the greeting, then (when it offers no-auth) the request from the
 * bytes after it.  What is used never exceeds what was read; a request
 * taken has a NUL-terminated host and a port; each prefix of the request
 * is MORE or the same verdict. */
#include "fuzz_common.h"

#include "../../modules/netproxy/np_socks.c"

static void
request(const uint8_t *b, size_t n)
{
	struct np_socks_req q;
	size_t used = 0;
	int st = np_socks_request(b, n, &q, &used);

	if (st == NP_P_DONE &&
	    (used > n || memchr(q.host, '\0', sizeof(q.host)) == NULL ||
	     q.host[0] == '\0' || q.port == 0))
		abort();
	if (st == NP_P_MORE)
		return;
	for (size_t k = n > 32 ? n - 32 : 0; k < n; k++) {
		int p = np_socks_request(b, k, &q, &used);

		if (p != NP_P_MORE && p != st && used <= k)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t used = 0;
	uint8_t rep[10];
	int st = np_socks_greeting(data, size, &used);

	np_socks_reply((uint8_t)size, rep);
	if (rep[0] != 5 || rep[3] != 1)
		abort();
	if (st != NP_P_DONE)
		return 0;
	if (used > size)
		abort();
	request(data + used, size - used);
	return 0;
}
