/* SPDX-License-Identifier: MIT */
/* ne.h -- nftegress internals: the codec (plan rule <-> libnftnl
 * expressions) and the netlink conversations. */
#ifndef NS_NFTEGRESS_NE_H
#define NS_NFTEGRESS_NE_H

#include <stddef.h>
#include <stdint.h>

#include "ns_egress_plan.h"

struct nftnl_rule;

/* Append the expressions of x to r (selector, dependencies, matches,
 * verdict), the layout nft itself emits.  0 or -1. */
int ne_encode(const struct ns_egress_rule *x, struct nftnl_rule *r);
/* Read r's expressions back into x.  0, or -1 when they are not exactly a
 * layout ne_encode makes (why: which expression). */
int ne_decode(const struct nftnl_rule *r, struct ns_egress_rule *x, char *why,
	      size_t n);

/* A growable list of lines. */
struct nelines {
	char **v;
	size_t n, cap;
};
int ne_lines_add(struct nelines *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ne_lines_free(struct nelines *l);

/* Kernel conversations; each returns 0 or a negative errno. */
/* The table as plan text lines; -ENOENT when it is not there. */
int ne_read_table(const char *table, struct nelines *out);
/* Remove it; absent is 0. */
int ne_drop_table(const char *table);

/* Send one batch built by the caller; fills *err_seq and *err with the first
 * failing message, *committed when the END was ACKed. */
int ne_send_batch(const char *buf, size_t len, uint32_t end_seq,
		  uint32_t *err_seq, int *err, int *committed);

#endif
