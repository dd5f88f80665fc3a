/* SPDX-License-Identifier: MIT */
/* np_http.c -- the proxy's HTTP request head (np_http.h). */
#include "np_http.h"

#include <string.h>

#include "banned.h"

#define TARGET_MAX 8192
#define METHOD_MAX 32

static int
is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') ||
	       (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The first k bytes of s equal lit's (lowercase), case-insensitively. */
static int
ieq_n(const char *s, const char *lit, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (lower((unsigned char)s[i]) != lit[i])
			return 0;
	return 1;
}

static int
ieq_prefix(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && ieq_n(s, lit, k);
}

/* Offset of "\r\n\r\n" + 4 in buf, or 0. */
static size_t
head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (memcmp(buf + i, "\r\n\r\n", 4) == 0)
			return i + 4;
	return 0;
}

/* 1..65535 from 1..5 digits. */
static int
port_of(const char *s, size_t n, uint16_t *port)
{
	unsigned v = 0;

	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

/* host[:port] or [v6][:port] at buf+at (n bytes); need_port for
 * CONNECT.  Fills host, host_len, port (def when absent). */
static int
authority(const char *buf, size_t at, size_t n, int need_port, uint16_t def,
	  struct np_http_req *r)
{
	const char *s = buf + at;
	const char *colon;
	size_t hl;

	if (n == 0 || memchr(s, '@', n) != NULL)
		return -1;
	if (s[0] == '[') {
		const char *rb = memchr(s, ']', n);

		if (rb == NULL || rb == s + 1)
			return -1;
		r->host = at + 1;
		r->host_len = (size_t)(rb - s) - 1;
		colon = rb + 1 < s + n ? rb + 1 : NULL;
		if (colon != NULL && *colon != ':')
			return -1;
	} else {
		colon = memchr(s, ':', n);
		hl = colon != NULL ? (size_t)(colon - s) : n;
		if (hl == 0 || (colon && memchr(colon + 1, ':', n - hl - 1)))
			return -1;
		r->host = at;
		r->host_len = hl;
	}
	r->port = def;
	if (colon == NULL)
		return need_port ? -1 : 0;
	return port_of(colon + 1, (size_t)(s + n - colon - 1), &r->port);
}

/* The target of a non-CONNECT request: http://authority[path]. */
static int
absolute(const char *buf, size_t at, size_t n, struct np_http_req *r)
{
	size_t a = at + 7, end = at + n, p;

	if (!ieq_prefix(buf + at, n, "http://"))
		return -1;
	for (p = a; p < end && !strchr("/?#", buf[p]); p++)
		;
	if (authority(buf, a, p - a, 0, 80, r) != 0)
		return -1;
	r->auth = a;
	r->auth_len = p - a;
	r->path = p;
	r->path_len = end - p;
	return 0;
}

/* method SP target SP HTTP/1.x CRLF, from 0; the offset after it. */
static size_t
request_line(const char *buf, size_t head_len, struct np_http_req *r)
{
	size_t i = 0, t;

	while (i < head_len && i <= METHOD_MAX && is_tchar((unsigned char)buf[i]))
		i++;
	if (i == 0 || i > METHOD_MAX || buf[i] != ' ')
		return 0;
	r->method_len = i;
	t = ++i;
	while (i < head_len && i - t <= TARGET_MAX &&
	       (unsigned char)buf[i] > 0x20 && (unsigned char)buf[i] < 0x7f)
		i++;
	if (i == t || i - t > TARGET_MAX || buf[i] != ' ' || i + 11 > head_len)
		return 0;
	r->version = i + 1;
	if (memcmp(buf + i + 1, "HTTP/1.", 7) != 0 ||
	    (buf[i + 8] != '0' && buf[i + 8] != '1') ||
	    memcmp(buf + i + 9, "\r\n", 2) != 0)
		return 0;
	r->connect = r->method_len == 7 && memcmp(buf, "CONNECT", 7) == 0;
	if (r->connect ? authority(buf, t, i - t, 1, 0, r) != 0
		       : absolute(buf, t, i - t, r) != 0)
		return 0;
	if (r->connect) {
		r->auth = t;
		r->auth_len = i - t;
	}
	return i + 11;
}

static int
value_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 1;
}

size_t
np_http_first_header(const char *buf, size_t head_len)
{
	struct np_http_req r;

	memset(&r, 0, sizeof(r));
	return request_line(buf, head_len, &r);
}

/* name ":" OWS value OWS CRLF at *off; -1 when malformed. */
int
np_http_next_header(const char *buf, size_t head_len, size_t *off,
		    struct np_http_hdr *h)
{
	size_t i = *off, e;

	if (i + 2 > head_len)
		return -1;
	if (memcmp(buf + i, "\r\n", 2) == 0)
		return 0;
	h->name = i;
	while (i < head_len && is_tchar((unsigned char)buf[i]))
		i++;
	if (i == h->name || i >= head_len || buf[i] != ':')
		return -1;
	h->name_len = i - h->name;
	for (e = ++i; e + 1 < head_len && memcmp(buf + e, "\r\n", 2) != 0; e++)
		;
	if (e + 1 >= head_len)
		return -1;
	*off = e + 2;
	while (i < e && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (e > i && (buf[e - 1] == ' ' || buf[e - 1] == '\t'))
		e--;
	h->value = i;
	h->value_len = e - i;
	return value_ok(buf + i, e - i) ? 1 : -1;
}

/* A prefix no head starts or goes on with: a first word that is not a
 * method token (a TLS record, SOCKS4), or a line end without its CR. */
static int
bad_prefix(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && i <= METHOD_MAX && is_tchar((unsigned char)buf[i]))
		i++;
	if (i < len && (i == 0 || i > METHOD_MAX || buf[i] != ' '))
		return 1;
	for (i = 0; i < len; i++)
		if (buf[i] == '\n' && (i == 0 || buf[i - 1] != '\r'))
			return 1;
	return 0;
}

int
np_http_parse(const char *buf, size_t len, struct np_http_req *r)
{
	size_t hl = head_end(buf, len < NP_HTTP_HEAD_MAX ? len
							: NP_HTTP_HEAD_MAX), off;
	struct np_http_hdr h;
	int k, count = 0;

	if (hl == 0)
		return len >= NP_HTTP_HEAD_MAX || bad_prefix(buf, len)
			       ? NP_P_BAD
			       : NP_P_MORE;
	memset(r, 0, sizeof(*r));
	r->head_len = hl;
	off = request_line(buf, hl, r);
	if (off == 0)
		return NP_P_BAD;
	while ((k = np_http_next_header(buf, hl, &off, &h)) == 1)
		if (++count > NP_HTTP_HEADERS_MAX)
			return NP_P_BAD;
	return k == 0 && off + 2 == hl ? NP_P_DONE : NP_P_BAD;
}

/* ---- the rewritten head ------------------------------------------------ */

/* The headers the proxy does not pass on (lowercase; a trailing '*' is a
 * prefix). */
static const char *const dropped[] = {
	"host", "connection", "keep-alive", "proxy-*",
};

static int
is_dropped(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++) {
		size_t k = strlen(dropped[i]);
		int prefix = dropped[i][k - 1] == '*';

		if (prefix && n >= k - 1 && ieq_n(name, dropped[i], k - 1))
			return 1;
		if (!prefix && n == k && ieq_n(name, dropped[i], k))
			return 1;
	}
	return 0;
}

struct out {
	char *p;
	size_t cap, n;
	int over;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->over || n > o->cap - o->n) {
		o->over = 1;
		return;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

#define PUTS(o, lit) put((o), (lit), sizeof(lit) - 1)

int
np_http_rewrite(const char *buf, const struct np_http_req *r, char *out,
		size_t cap, size_t *n)
{
	struct out o = { out, cap, 0, 0 };
	size_t off = np_http_first_header(buf, r->head_len);
	struct np_http_hdr h;

	put(&o, buf, r->method_len);
	PUTS(&o, " ");
	if (r->path_len == 0 || buf[r->path] != '/')
		PUTS(&o, "/");
	put(&o, buf + r->path, r->path_len);
	PUTS(&o, " ");
	put(&o, buf + r->version, 8);
	PUTS(&o, "\r\nHost: ");
	put(&o, buf + r->auth, r->auth_len);
	PUTS(&o, "\r\n");
	while (off != 0 && np_http_next_header(buf, r->head_len, &off, &h) == 1) {
		if (is_dropped(buf + h.name, h.name_len))
			continue;
		put(&o, buf + h.name, h.value + h.value_len - h.name);
		PUTS(&o, "\r\n");
	}
	PUTS(&o, "Connection: close\r\n\r\n");
	*n = o.n;
	return o.over ? -1 : 0;
}
