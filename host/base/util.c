/* SPDX-License-Identifier: MIT */
/* util.c -- string vectors, string builders, refusal lists. */
#include "base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room for `want` elements of `elem` bytes; -1 (nothing changed) when that
 * size overflows or realloc fails. */
static int
grow(void **v, size_t *cap, size_t want, size_t elem)
{
	size_t ncap;
	void *nv;

	if (want <= *cap)
		return 0;
	if (elem == 0 || want > SIZE_MAX / elem)
		return -1;
	ncap = *cap ? *cap : 8;
	while (ncap < want)
		ncap = ncap > SIZE_MAX / 2 ? want : ncap * 2;
	if (ncap > SIZE_MAX / elem)
		ncap = want;
	nv = realloc(*v, ncap * elem);
	if (nv == NULL)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Record a failed append in *oom; -1 always. */
static int
stuck(int *oom)
{
	*oom = 1;
	return -1;
}

int
strv_push(struct strv *sv, const char *s)
{
	char *c;

	if (sv->oom)
		return -1;
	if (s == NULL || sv->n > SIZE_MAX - 2 ||
	    grow((void **)&sv->v, &sv->cap, sv->n + 2, sizeof(char *)) < 0)
		return stuck(&sv->oom);
	c = strdup(s);
	if (c == NULL)
		return stuck(&sv->oom);
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

	if (sv->oom)
		return -1;
	va_start(ap, fmt);
	rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc == 0)
		rc = strv_push(sv, sbuf_str(&b));
	else
		stuck(&sv->oom);
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
	sv->oom = 0;
}

int
strv_failed(const struct strv *sv)
{
	return sv->oom != 0;
}

int
sbuf_addn(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return -1;
	if (n > SIZE_MAX - 1 - b->len ||
	    grow((void **)&b->s, &b->cap, b->len + n + 1, 1) < 0)
		return stuck(&b->oom);
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

	if (b->oom)
		return -1;
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || (size_t)n > SIZE_MAX - 1 - b->len ||
	    grow((void **)&b->s, &b->cap, b->len + (size_t)n + 1, 1) < 0)
		return stuck(&b->oom);
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

	if (b->oom) {
		sbuf_free(b);
		return NULL;
	}
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
	b->oom = 0;
}

const char *
sbuf_str(const struct sbuf *b)
{
	return b->s ? b->s : "";
}

int
sbuf_failed(const struct sbuf *b)
{
	return b->oom != 0;
}

/* A failed list is never empty: a caller that asks "any refusal?" with
 * r->n fails closed.  Its one entry is static (never freed): */
static char oom_text[] = REFUSED_OOM_TEXT;
static struct refusal oom_only = { REFUSED_OOM_REASON, oom_text,
				    REMEDY_IN_TEXT };

static int
refusals_stuck(struct refusals *r)
{
	r->oom = 1;
	if (r->n > 0)
		return -1;
	if (r->cap > 0)
		r->v[0] = oom_only;
	else
		r->v = &oom_only; /* cap stays 0: not ours to free */
	r->n = 1;
	return -1;
}

int
refusals_vadd(struct refusals *r, const char *reason, const char *fmt,
	      va_list ap)
{
	struct sbuf b = {0};
	char *text;

	if (r->oom)
		return -1;
	if (grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)) < 0)
		return refusals_stuck(r);
	sbuf_vaddf(&b, fmt, ap);
	text = sbuf_take(&b); /* NULL when the text failed */
	if (text == NULL)
		return refusals_stuck(r);
	r->v[r->n].reason = reason;
	r->v[r->n].remedy = NULL;
	r->v[r->n].text = text;
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
	if (r->n == 0 || r->oom)
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
		if (r->v[i].text != oom_text)
			free(r->v[i].text);
	if (r->v != &oom_only)
		free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
	r->oom = 0;
}

int
refusals_failed(const struct refusals *r)
{
	return r->oom != 0;
}

void
refusals_oom(struct refusals *r)
{
	refusals_stuck(r);
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
str_ndup(const char *s, size_t n)
{
	size_t len = 0;
	char *d;

	while (len < n && s[len] != '\0')
		len++;
	d = malloc(len + 1);
	if (d == NULL)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
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

/* One [...] set at p (just past '['): *matched whether c is in it; the
 * byte after its ']', or NULL when the set is not closed (then '[' is a
 * plain byte, as fnmatch takes it). */
static const char *
glob_set(const char *p, unsigned char c, int *matched)
{
	int neg = *p == '!' || *p == '^', in = 0;
	const char *q = p + neg;

	if (*q == ']') {
		in = c == ']';
		q++;
	}
	for (; *q && *q != ']'; q++) {
		unsigned char lo = (unsigned char)*q, hi;

		if (lo == '\\' && q[1])
			lo = (unsigned char)*++q;
		hi = lo;
		if (q[1] == '-' && q[2] && q[2] != ']') {
			q += 2;
			if (*q == '\\' && q[1])
				q++;
			hi = (unsigned char)*q;
		}
		in |= c >= lo && c <= hi;
	}
	if (*q != ']')
		return NULL;
	*matched = in != neg;
	return q + 1;
}

int
str_glob(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		const char *next = NULL;
		int one = 0;

		if (*pat == '*') {
			star = ++pat;
			resume = s;
			continue;
		}
		if (*pat == '?') {
			one = 1;
			next = pat + 1;
		} else if (*pat == '[' &&
			   (next = glob_set(pat + 1, (unsigned char)*s, &one)) !=
				   NULL) {
			/* the set decided */
		} else if (*pat == '\\' && pat[1] == '\0') {
			return 0; /* a pattern ending in a lone backslash: none */
		} else if (*pat) {
			const char *lit = pat + (*pat == '\\');

			one = *lit == *s;
			next = lit + 1;
		}
		if (one) {
			pat = next;
			s++;
		} else if (star != NULL) {
			pat = star;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

int
fd_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

size_t
fd_read_upto(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, c + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}
