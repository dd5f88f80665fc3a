/* SPDX-License-Identifier: MIT */
/* fuzz_np_match.c -- libFuzzer harness for the proxy's decision
 * (modules/netproxy/np_match.c, compiled in).  The first two bytes are a
 * port, the rest the host a client asked for.  A name taken is lowercase
 * LDH labels, not an address inet_pton or inet_aton reads (so nothing
 * numeric ever reaches the resolver), and matches itself for SNI; an
 * address taken round-trips through its text; the decisions are the
 * verdicts they may be; the special-address test takes the bytes as an
 * address too. */
#include "fuzz_common.h"

#include <arpa/inet.h>

#include "../../modules/netproxy/np_match.c"

static const struct ns_net_entry allow[] = {
	{ .kind = NS_NET_NAME, .port = 443, .name = "pypi.org" },
	{ .kind = NS_NET_SUFFIX, .port = 443, .name = "example.com" },
	{ .kind = NS_NET_ADDR, .port = 443, .fam = 4, .plen = 24,
	  .addr = { 192, 0, 2, 0 } },
	{ .kind = NS_NET_ADDR, .port = 8080, .fam = 6, .plen = 128,
	  .addr = { [15] = 1 } },
	{ .kind = NS_NET_LOOPBACK, .port = 3000 },
};
#define N_ALLOW (sizeof(allow) / sizeof(allow[0]))

static void
check_name(const char *name)
{
	struct in_addr a4;
	uint8_t a6[16];
	int v = np_decide_name(allow, N_ALLOW, name, 443);

	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-.", *p))
			abort();
	if (inet_aton(name, &a4) || inet_pton(AF_INET6, name, a6) == 1 ||
	    !np_same_name(name, name))
		abort();
	if (v != NP_ALLOW && v != NP_PORT && v != NP_NOT_ALLOWED)
		abort();
}

static void
check_addr(const struct np_addr *a)
{
	char text[NP_ADDR_TEXT], n2[NP_NAME_MAX + 1];
	struct np_addr back;
	int v = np_decide_addr(allow, N_ALLOW, a, 443);

	np_addr_text(a, text, sizeof(text));
	if (np_host_norm(text, strlen(text), n2, sizeof(n2), &back) !=
		    NP_HOST_ADDR ||
	    back.fam != a->fam || memcmp(back.a, a->a, 16) != 0)
		abort();
	if (v != NP_ALLOW && v != NP_PORT && v != NP_NOT_ALLOWED)
		abort();
	(void)np_vet_resolved(allow, N_ALLOW, a, 443);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[NP_NAME_MAX + 1];
	struct np_addr a;
	int k;

	if (size < 2)
		return 0;
	k = np_host_norm((const char *)data + 2, size - 2, name, sizeof(name),
			 &a);
	if (k == NP_HOST_NAME)
		check_name(name);
	else if (k == NP_HOST_ADDR)
		check_addr(&a);
	if (size >= 18) {
		memset(&a, 0, sizeof(a));
		a.fam = (data[0] & 1) ? 6 : 4;
		memcpy(a.a, data + 2, a.fam == 4 ? 4 : 16);
		(void)np_addr_special(&a);
		(void)np_vet_resolved(allow, N_ALLOW, &a,
				      (uint16_t)(data[0] << 8 | data[1]));
	}
	return 0;
}
