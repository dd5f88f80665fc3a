/* SPDX-License-Identifier: MIT */
/* fuzz_dns.c -- libFuzzer harness for the DNS reply parser of `egress
 * plan` (host/egress/dns.c, egress_dns_parse).  The input is one reply
 * datagram as a resolver (or anything that can reach the socket) would
 * send it; it is matched against two fixed queries, the A and the AAAA
 * query for example.com with id 0x1234, as egress_dns_ask sends them.
 *
 * Seeds: tests/fuzz/corpus/dns/<name>.hex, hex text ('#' starts a
 * comment); the build turns each into the reply's bytes.
 * Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include "egress/allowlist.h"

#define QID 0x1234u
#define QNAME "example.com"

static unsigned char q_a[512], q_aaaa[512];
static size_t n_a, n_aaaa;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int a = egress_dns_query(QID, QNAME, 1, q_a, sizeof(q_a));
	int b = egress_dns_query(QID, QNAME, 28, q_aaaa, sizeof(q_aaaa));

	(void)argc;
	(void)argv;
	if (a < 0 || b < 0)
		abort();
	n_a = (size_t)a;
	n_aaaa = (size_t)b;
	return 0;
}

static void
parse(const uint8_t *m, size_t len, const unsigned char *q, size_t qlen,
      size_t max, int fam)
{
	struct ns_egress_addr out[EGRESS_PER_NAME];
	const char *why = NULL;
	size_t n = 99;
	int rc = egress_dns_parse(m, len, q, qlen, out, max, &n, &why);

	if (n > max || (rc < 0 && why == NULL))
		abort();	/* the contract of egress/allowlist.h */
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (out[i].fam != fam || out[i].plen != (fam == 4 ? 32 : 128))
			abort();	/* only addresses of the asked type */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse(data, size, q_a, n_a, EGRESS_PER_NAME, 4);
	parse(data, size, q_aaaa, n_aaaa, EGRESS_PER_NAME, 6);
	parse(data, size, q_a, n_a, 1, 4);	/* the cap on what is kept */
	return 0;
}
