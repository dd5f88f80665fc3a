/* SPDX-License-Identifier: MIT */
/* ranges.c -- the addresses no egress rule may name: the plan's pins and
 * resolver (plan.c) and the policy file's address lines (policy.c) are
 * checked against them, and the plan denies some of them in every chain
 * (docs/SPEC-SANDBOX.md section 12, "Invariants"). */
#include <stddef.h>

#include "egress/allowlist.h"

struct deny_range {
	const char *cidr;
	const char *what;
	int in_rules; /* rendered as a drop in every chain */
};

/* In rule order: the metadata address by name first. */
static const struct deny_range denies[] = {
	{ "169.254.169.254/32", "the metadata address", 1 },
	{ "169.254.0.0/16", "link-local", 1 },
	{ "127.0.0.0/8", "loopback", 1 },
	{ "::1/128", "loopback", 1 },
	{ "fe80::/10", "link-local", 1 },
	{ "0.0.0.0/8", "unspecified", 0 },
	{ "::/128", "unspecified", 0 },
	{ "224.0.0.0/4", "multicast", 0 },
	{ "255.255.255.255/32", "broadcast", 0 },
	{ "ff00::/8", "multicast", 0 },
	{ "::ffff:0:0/96", "IPv4-mapped", 0 },
};
#define NDENY (sizeof(denies) / sizeof(denies[0]))

int
egress_addr_denied(const struct ns_egress_addr *a, const struct ns_egress_addr *cidrs,
		   size_t n_cidrs, const char **what)
{
	struct ns_egress_addr p;

	for (size_t i = 0; i < NDENY; i++) {
		if (ns_egress_parse_addr(denies[i].cidr, 0, &p) == 0 &&
		    ns_egress_addr_in(a, &p)) {
			*what = denies[i].what;
			return 1;
		}
	}
	for (size_t i = 0; i < n_cidrs; i++)
		if (ns_egress_addr_in(a, &cidrs[i])) {
			*what = "a bench CIDR";
			return 1;
		}
	return 0;
}

int
egress_deny_range(size_t i, struct ns_egress_addr *out)
{
	if (i >= NDENY || ns_egress_parse_addr(denies[i].cidr, 0, out) != 0)
		return -1;
	return denies[i].in_rules ? 1 : 0;
}
