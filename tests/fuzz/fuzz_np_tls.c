/* SPDX-License-Identifier: MIT */
/* fuzz_np_tls.c -- libFuzzer harness for the proxy's ClientHello server
 * name (modules/netproxy/np_tls.c, compiled in).  The input is a client's
 * first bytes.  A server name found is NUL-terminated, non-empty, holds
 * no NUL and fits the buffer; the last prefixes of the input never turn a
 * verdict back (MORE first, then one verdict that stays). */
#include "fuzz_common.h"

#include "../../modules/netproxy/np_tls.c"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char sni[256];
	int st, prev = NP_TLS_MORE;

	for (size_t k = size > 48 ? size - 48 : 0; k <= size; k++) {
		memset(sni, 'x', sizeof(sni));
		st = np_tls_sni(data, k, sni, sizeof(sni));
		if (prev != NP_TLS_MORE && st != prev)
			abort();
		if (st == NP_TLS_SNI &&
		    (memchr(sni, '\0', sizeof(sni)) == NULL || sni[0] == '\0'))
			abort();
		prev = st;
	}
	return 0;
}
