/* util.c -- string vectors, string builders, refusal lists. */
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
grow(void **v, size_t *cap, size_t want, size_t elem)
{
	size_t ncap;
	void *nv;

	if (want <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < want)
		ncap *= 2;
	nv = realloc(*v, ncap * elem);
	if (nv == NULL)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

int
strv_push(struct strv *sv, const char *s)
{
	char *c;

	if (grow((void **)&sv->v, &sv->cap, sv->n + 2, sizeof(char *)) < 0)
		return -1;
	c = strdup(s);
	if (c == NULL)
		return -1;
	sv->v[sv->n++] = c;
	sv->v[sv->n] = NULL;
	return 0;
}

int
strv_pushf(struct strv *sv, const char *fmt, ...)
{
	struct sbuf b = {0};
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc == 0)
		rc = strv_push(sv, b.s ? b.s : "");
	sbuf_free(&b);
	return rc;
}

int
strv_contains(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return 1;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t
strv_count_unique(struct strv *sv)
{
	size_t n = 0;

	if (sv->n == 0)
		return 0;
	qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
	for (size_t i = 0; i < sv->n; i++)
		if (i == 0 || strcmp(sv->v[i], sv->v[i - 1]) != 0)
			n++;
	return n;
}

void
strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

int
sbuf_addn(struct sbuf *b, const char *s, size_t n)
{
	if (grow((void **)&b->s, &b->cap, b->len + n + 1, 1) < 0)
		return -1;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int
sbuf_add(struct sbuf *b, const char *s)
{
	return sbuf_addn(b, s, strlen(s));
}

int
sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return -1;
	if (grow((void **)&b->s, &b->cap, b->len + (size_t)n + 1, 1) < 0)
		return -1;
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int
sbuf_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *
sbuf_take(struct sbuf *b)
{
	char *s = b->s;

	if (s == NULL)
		s = strdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void
sbuf_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int
refusals_vadd(struct refusals *r, const char *reason, const char *fmt,
	      va_list ap)
{
	struct sbuf b = {0};

	if (grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)) < 0)
		return -1;
	if (sbuf_vaddf(&b, fmt, ap) < 0) {
		sbuf_free(&b);
		return -1;
	}
	r->v[r->n].reason = reason;
	r->v[r->n].remedy = NULL;
	r->v[r->n].text = sbuf_take(&b);
	if (r->v[r->n].text == NULL)
		return -1;
	r->n++;
	return 0;
}

int
refusals_add(struct refusals *r, const char *reason, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = refusals_vadd(r, reason, fmt, ap);
	va_end(ap);
	return rc;
}

int
refusals_addr(struct refusals *r, const char *reason, const char *remedy,
	      const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = refusals_vadd(r, reason, fmt, ap);
	va_end(ap);
	if (rc == 0)
		r->v[r->n - 1].remedy = remedy;
	return rc;
}

int
refusals_all(const struct refusals *r, const char *reason)
{
	if (r->n == 0)
		return 0;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].reason, reason) != 0)
			return 0;
	return 1;
}

void
refusals_free(struct refusals *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].text);
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

int
parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (s == NULL || *s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (unsigned long long)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	*out = v;
	return 0;
}

char *
str_fmt(const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		sbuf_free(&b);
		return NULL;
	}
	return sbuf_take(&b);
}
