/* SPDX-License-Identifier: MIT */
/* denials.c -- the de-duplicated list behind host->denial (denials.h). */
#include "module/denials.h"

#include <stdlib.h>
#include <string.h>

#include "ns_backend.h"

static struct denial_ent *
find(struct denials *d, uint32_t op, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].op == op && strcmp(d->v[i].path, path) == 0)
			return &d->v[i];
	return NULL;
}

static int
grow(struct denials *d)
{
	size_t cap = d->cap ? d->cap * 2 : 16;
	struct denial_ent *v;

	if (d->n < d->cap)
		return 0;
	v = realloc(d->v, cap * sizeof(*v));
	if (v == NULL)
		return -1;
	d->v = v;
	d->cap = cap;
	return 0;
}

int
denials_add(struct denials *d, uint32_t op, const char *path, uint64_t count)
{
	struct denial_ent *e;

	if (d->oom || path == NULL)
		return -1;
	if (op < NS_OP_READ || op > NS_OP_OTHER)
		op = NS_OP_OTHER;
	if (count == 0)
		count = 1;
	e = find(d, op, path);
	if (e != NULL) {
		e->count = e->count > UINT64_MAX - count ? UINT64_MAX :
							   e->count + count;
		return 0;
	}
	if (grow(d) != 0 || (d->v[d->n].path = strdup(path)) == NULL) {
		d->oom = 1;
		return -1;
	}
	d->v[d->n].op = op;
	d->v[d->n].count = count;
	d->n++;
	return 0;
}

void
denials_free(struct denials *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].path);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
