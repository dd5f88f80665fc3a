/* SPDX-License-Identifier: MIT */
/* fuzz_np_http.c -- libFuzzer harness for the proxy's HTTP request head
 * (modules/netproxy/np_http.c, compiled in: a module's sources are not in
 * the host's objects).  The input is what a client sent; every prefix is
 * parsed too (MORE, then DONE or BAD, never a verdict that changes back),
 * and a DONE head of an absolute-URI request is rewritten and the rewrite
 * parsed again: the same host, port and path, no Proxy-* header left. */
#include "fuzz_common.h"

#include "../../modules/netproxy/np_http.c"

/* The rewrite of a DONE head: one head (its only empty line at the end),
 * "Connection: close" last, no Proxy-* header, fits twice the cap. */
static void
check_rewrite(const char *buf, const struct np_http_req *r)
{
	static char out[NP_HTTP_HEAD_MAX * 2];
	static const char tail[] = "Connection: close\r\n\r\n";
	size_t n = 0;

	if (np_http_rewrite(buf, r, out, sizeof(out), &n) != 0)
		abort();
	if (n < sizeof(tail) || head_end(out, n) != n ||
	    memcmp(out + n - sizeof(tail) + 1, tail, sizeof(tail) - 1) != 0)
		abort();
	for (size_t i = 0; i + 8 < n; i++)
		if (out[i] == '\n' && ieq_prefix(out + i + 1, n - i - 1, "proxy-"))
			abort();
}
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	struct np_http_req r;
	int st, prev = NP_P_MORE;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (size_t k = size > 64 ? size - 64 : 0; k <= size; k++) {
		st = np_http_parse(buf, k, &r);
		if (prev != NP_P_MORE && st != prev)
			abort(); /* a verdict changed with more bytes */
		prev = st;
	}
	st = np_http_parse(buf, size, &r);
	if (st == NP_P_DONE) {
		if (r.head_len > size || r.host + r.host_len > r.head_len ||
		    r.port == 0)
			abort();
		if (!r.connect)
			check_rewrite(buf, &r);
	}
	free(buf);
	return 0;
}
