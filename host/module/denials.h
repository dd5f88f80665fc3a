/* SPDX-License-Identifier: MIT */
/* denials.h -- what a wall's finish() reported through host->denial
 * (ABI 1.2): one entry per distinct (op, path) in first-seen order, the
 * counts of the same pair added up.  Filled by hostsvc (module/hostsvc.c)
 * while finish() runs; printed by the wall room (wall/explain.h). */
#ifndef NS_HOST_DENIALS_H
#define NS_HOST_DENIALS_H

#include <stddef.h>
#include <stdint.h>

struct denial_ent {
	uint32_t op;   /* enum ns_op; an unknown value is kept as NS_OP_OTHER */
	char *path;
	uint64_t count;
};

struct denials {
	struct denial_ent *v;
	size_t n, cap;
	int oom; /* an add failed: the list is short */
};

/* Add one denial: a new (op, path) is appended, a known one gets count
 * added (a count of 0 counts as 1; the sum saturates).  0, or -1 on ENOMEM
 * (sticky, see d->oom) or a NULL path. */
int denials_add(struct denials *d, uint32_t op, const char *path,
		uint64_t count);
void denials_free(struct denials *d);

#endif
