/* SPDX-License-Identifier: MIT */
/* egress_plan.c -- bench only: render a big egress plan WITHOUT DNS, with
 * the host's own (unit-tested) renderer and auditor, for `make bench`.
 * The addresses come from a table lookup in place of the resolver (the
 * same seam the unit suite uses); the CLI has no such path.
 * usage: egress_plan <out> <run> <pins per name, 1..256>
 * Writes the plan (4 names x n pins, half IPv4 half IPv6, selector
 * meta skuid 4242) and prints "pins=<n> rules=<n>" on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egress/allowlist.h"

static int
table_lookup(void *ctx, const struct ns_egress_addr *res, const char *name,
	     struct ns_egress_addr *out, size_t max, size_t *n, char **why)
{
	size_t *per = ctx, k = 0;
	char a[64];

	(void)res; (void)why;
	for (const char *c = name; *c; c++)
		k = k * 31 + (unsigned char)*c;
	k %= 200;
	*n = 0;
	for (size_t i = 0; i < *per && *n < max; i++) {
		if (i % 2 == 0)
			snprintf(a, sizeof(a), "10.%zu.%zu.%zu", k, i / 512,
				 (i / 2) % 256);
		else
			snprintf(a, sizeof(a), "fd00:b:%zx::%zx", k, i);
		if (ns_egress_parse_addr(a, 0, &out[(*n)++]) < 0)
			return -1;
	}
	return 0;
}

static int
write_all(const char *path, const struct sbuf *b)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (f == NULL)
		return -1;
	bad = fwrite(b->s, 1, b->len, f) != b->len;
	return fclose(f) != 0 || bad ? -1 : 0;
}

int
main(int argc, char **argv)
{
	static const char pol[] = "github.com\napi.github.com\n"
	    "objects.githubusercontent.com\napi.anthropic.com\n";
	struct egress_input in;
	struct egress_plan p;
	struct egress_audit au;
	struct refusals r = { 0 };
	struct ns_egress_addr cidr;
	size_t per;

	if (argc != 4 || (per = strtoul(argv[3], NULL, 10)) == 0 ||
	    per > EGRESS_PER_NAME_MAX)
		return fprintf(stderr, "usage: egress_plan <out> <run> "
			       "<1..%d>\n", EGRESS_PER_NAME_MAX), 2;
	memset(&in, 0, sizeof(in));
	in.run = argv[2];
	in.policy_path = "bench";
	egress_parse_policy("bench", pol, strlen(pol), &in.names, NULL, &r);
	in.model_host = "api.anthropic.com";
	ns_egress_parse_addr("198.51.100.53", 0, &in.resolver);
	ns_egress_parse_addr("198.51.100.128/25", 0, &cidr);
	in.cidrs = &cidr;
	in.n_cidrs = 1;
	in.uid = "4242";
	in.lookup = table_lookup;
	in.lookup_ctx = &per;
	in.per_name = per;
	if (egress_check_input(&in, &r) != 0 || egress_build(&in, &p, &r) != 0 ||
	    egress_audit(p.text.s, p.text.len, &au, &r) != 0 ||
	    write_all(argv[1], &p.text) < 0)
		return fprintf(stderr, "egress_plan: could not render or "
			       "write the plan\n"), 1;
	printf("pins=%zu rules=%zu\n", p.allow - 1, au.rules);
	egress_plan_free(&p);
	strv_free(&in.names);
	refusals_free(&r);
	return 0;
}
