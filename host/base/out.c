/* SPDX-License-Identifier: MIT */
/* out.c -- the output grammar: field escaping, lines, JSON strings,
 * base64url and shell quoting (reference section 1 "Line rendering"). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"

/* Decode one UTF-8 sequence at s (n bytes left).  Returns its length and
 * sets *cp, or 0 when the byte at s starts no valid sequence (overlong
 * forms, surrogates and values above U+10FFFF are invalid). */
static size_t
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const struct {
		unsigned char mask, lead;
		size_t len;
		uint32_t min;
	} tab[] = {
		{ 0xe0, 0xc0, 2, 0x80 },
		{ 0xf0, 0xe0, 3, 0x800 },
		{ 0xf8, 0xf0, 4, 0x10000 },
	};
	uint32_t c;

	for (size_t t = 0; t < sizeof(tab) / sizeof(tab[0]); t++) {
		if ((s[0] & tab[t].mask) != tab[t].lead)
			continue;
		if (n < tab[t].len)
			return 0;
		c = s[0] & (unsigned char)~tab[t].mask;
		for (size_t i = 1; i < tab[t].len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			c = (c << 6) | (s[i] & 0x3f);
		}
		if (c < tab[t].min || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return 0;
		*cp = c;
		return tab[t].len;
	}
	return 0;
}

/* Unicode White_Space (Go's unicode.IsSpace) above ASCII. */
static int
is_uspace(uint32_t c)
{
	return c == 0x85 || c == 0xa0 || c == 0x1680 ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
	    c == 0x202f || c == 0x205f || c == 0x3000;
}

/* Controls (C0, DEL, C1), line/paragraph separators, bidi controls. */
static int
is_unsafe_cp(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	    is_uspace(c);
}

static int
must_escape(uint32_t c, int keep_space)
{
	if (keep_space && (c == ' ' || c == '='))
		return 0;
	if (c == ' ' || c == '=' || c == '\t' || c == '\n' || c == '\v' ||
	    c == '\f' || c == '\r')
		return 1;
	return is_unsafe_cp(c);
}

static int
add_escaped(struct sbuf *b, uint32_t c)
{
	if (c < 0x80)
		return sbuf_addf(b, "\\x%02x", (unsigned)c);
	return sbuf_addf(b, "\\u%04x", (unsigned)c);
}

static char *
render(const char *s, int keep_space)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, len;
	struct sbuf b = {0};
	uint32_t c;
	int rc = 0;

	if (n == 0)
		return strdup("-");
	while (i < n && rc == 0) {
		if (p[i] < 0x80) {
			c = p[i];
			len = 1;
		} else if ((len = utf8_decode(p + i, n - i, &c)) == 0) {
			rc = sbuf_addf(&b, "\\x%02x", p[i]);
			i++;
			continue;
		}
		if (must_escape(c, keep_space))
			rc = add_escaped(&b, c);
		else
			rc = sbuf_addn(&b, s + i, len);
		i += len;
	}
	if (rc != 0) {
		sbuf_free(&b);
		return NULL;
	}
	return sbuf_take(&b);
}

char *
out_field(const char *s)
{
	return render(s ? s : "", 0);
}

char *
out_text(const char *s)
{
	return render(s ? s : "", 1);
}

char *
out_b64url(const char *s)
{
	static const char al[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *r = malloc(n / 3 * 4 + 5);
	uint32_t v;

	if (r == NULL)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		size_t k = n - i < 3 ? n - i : 3;

		v = (uint32_t)p[i] << 16;
		if (k > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (k > 2)
			v |= p[i + 2];
		for (size_t j = 0; j <= k; j++)
			r[o++] = al[(v >> (18 - 6 * j)) & 0x3f];
	}
	r[o] = '\0';
	return r;
}

static int
json_char(struct sbuf *b, uint32_t c, const char *raw, size_t len)
{
	switch (c) {
	case '"':
		return sbuf_add(b, "\\\"");
	case '\\':
		return sbuf_add(b, "\\\\");
	case '\n':
		return sbuf_add(b, "\\n");
	case '\r':
		return sbuf_add(b, "\\r");
	case '\t':
		return sbuf_add(b, "\\t");
	case '<': case '>': case '&': case 0x2028: case 0x2029:
		return sbuf_addf(b, "\\u%04x", (unsigned)c);
	default:
		if (c < 0x20)
			return sbuf_addf(b, "\\u%04x", (unsigned)c);
		return sbuf_addn(b, raw, len);
	}
}

int
out_json_str(struct sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, len;
	uint32_t c;

	if (sbuf_add(b, "\"") < 0)
		return -1;
	while (i < n) {
		if (p[i] < 0x80) {
			c = p[i];
			len = 1;
		} else if ((len = utf8_decode(p + i, n - i, &c)) == 0) {
			if (sbuf_add(b, "\\ufffd") < 0)
				return -1;
			i++;
			continue;
		}
		if (json_char(b, c, s + i, len) < 0)
			return -1;
		i += len;
	}
	return sbuf_add(b, "\"");
}

static int
shell_safe(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_@%+=:,./-", *s) == NULL)
			return 0;
	return 1;
}

int
out_shell_quote(struct sbuf *b, const char *s)
{
	if (shell_safe(s))
		return sbuf_add(b, s);
	if (sbuf_add(b, "'") < 0)
		return -1;
	for (; *s; s++) {
		if (*s == '\'') {
			if (sbuf_add(b, "'\\''") < 0)
				return -1;
		} else if (sbuf_addn(b, s, 1) < 0) {
			return -1;
		}
	}
	return sbuf_add(b, "'");
}

/* The --status-fd, once set: the tool's stderr lines go there instead. */
static int g_status_fd = -1;

int
out_status_set(int fd)
{
	g_status_fd = fd;
	return 0;
}

int
out_status_fd(void)
{
	return g_status_fd;
}

/* Every byte of p, retrying short writes and EINTR. */
static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
out_line(FILE *f, const char *fmt, ...)
{
	struct sbuf b = {0};
	va_list ap;
	int rc, fd;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc != 0 || sbuf_add(&b, "\n") != 0) {
		sbuf_free(&b);
		return -1;
	}
	fd = f == stderr && g_status_fd >= 0 ? g_status_fd : fileno(f);
	if (fd < 0) {
		/* a stream with no descriptor (a memory stream in tests) */
		rc = fwrite(b.s, 1, b.len, f) == b.len && fflush(f) == 0 ?
		     0 : -1;
	} else {
		/* whatever the stream still buffers goes first; then the
		 * whole line in one write(2), so that lines of the tool's
		 * processes sharing the descriptor never interleave */
		rc = fflush(f) == 0 && write_all(fd, b.s, b.len) == 0 ? 0 : -1;
	}
	sbuf_free(&b);
	return rc;
}

int
out_json_refused(const char *verb, int exit_code, const struct refusals *r)
{
	struct sbuf b = {0};
	int rc, oom = refusals_failed(r);

	sbuf_addf(&b, "{\"result\":{\"verb\":\"%s\",\"status\":\"refused\","
		  "\"exit\":%d,\"remedy\":\"nova-sandbox %s -h\",\"why\":[",
		  verb, exit_code, verb);
	if (oom) /* a failed list says so, alone, never a shorter list */
		out_json_str(&b, REFUSED_OOM_REASON ": " REFUSED_OOM_TEXT);
	for (size_t i = 0; !oom && i < r->n; i++) {
		struct sbuf one = {0};

		sbuf_addf(&one, "%s: %s", r->v[i].reason, r->v[i].text);
		if (i)
			sbuf_add(&b, ",");
		out_json_str(&b, sbuf_str(&one));
		sbuf_free(&one);
	}
	rc = sbuf_add(&b, "]}}");
	if (rc == 0)
		rc = out_line(stdout, "%s", b.s);
	sbuf_free(&b);
	return rc;
}

int
out_refused_oom(FILE *f, const char *prefix)
{
	return out_line(f, "%s REFUSED reason=" REFUSED_OOM_REASON ": "
			REFUSED_OOM_TEXT, prefix);
}

/* ---- the line kinds: REFUSED, NOTE, key=value ------------------------- */

/* "<prefix> <kind> <text>" with text text-escaped. */
static int
text_line(FILE *f, const char *prefix, const char *kind, const char *text)
{
	char *t = out_text(text ? text : "");
	int rc;

	rc = out_line(f, "%s %s%s", prefix, kind, t ? t : "out of memory");
	if (t == NULL)
		rc = -1;
	free(t);
	return rc;
}

int
out_refused(const char *prefix, const char *reason, const char *text,
	    const char *remedy)
{
	struct sbuf b = {0};
	int rc;

	sbuf_addf(&b, "REFUSED reason=%s: ", reason);
	if (remedy != NULL && *remedy != '\0') {
		struct sbuf t = {0};

		sbuf_addf(&t, "%s; run: %s", text ? text : "", remedy);
		rc = b.s && t.s ? text_line(stderr, prefix, b.s, t.s) : -1;
		sbuf_free(&t);
	} else {
		rc = b.s ? text_line(stderr, prefix, b.s, text) : -1;
	}
	sbuf_free(&b);
	return rc;
}

int
out_note(const char *prefix, const char *text)
{
	return text_line(stderr, prefix, "NOTE ", text);
}

int
out_note_to(FILE *f, const char *prefix, const char *text)
{
	return text_line(f, prefix, "NOTE ", text);
}

int
out_kv(struct sbuf *b, const char *key, const char *value)
{
	char *v = out_field(value);
	int rc;

	if (v == NULL)
		return -1;
	rc = sbuf_addf(b, "%s%s=%s", b->len ? " " : "", key, v);
	free(v);
	return rc;
}

/* The probe's own tokens: printed as they are; every other token of the
 * probe's form becomes "check" with the original in parentheses. */
static int
probe_own_token(const char *tok)
{
	static const char *const own[] = { REASON_CHECK,
		REASON_SECRET_INSIDE_ALLOW, REASON_PROBE_OUTSIDE_INSIDE,
		REASON_PROBE_OUTSIDE_UNWRITABLE, REASON_NO_SANDBOX,
		REASON_NET_UNENFORCEABLE, REASON_PROBE_STEP_NOT_A_CHILD, NULL };

	for (size_t i = 0; own[i]; i++)
		if (strcmp(tok, own[i]) == 0)
			return 1;
	return 0;
}

/* One refusal's text as printed: the text, in the probe's form the token
 * in parentheses before the remedy, then the remedy: the refusal's own,
 * else `remedy`; none when the text carries it (REMEDY_IN_TEXT). */
static char *
compose(const struct refusal *rf, const char *remedy, int tag)
{
	struct sbuf b = {0};
	const char *rm = rf->remedy != NULL ? rf->remedy : remedy;
	const char *run = NULL;

	if (tag && rm != NULL && *rm == '\0')
		run = strstr(rf->text, "; run:"); /* the tag goes before it */
	if (run != NULL) {
		sbuf_addn(&b, rf->text, (size_t)(run - rf->text));
		sbuf_addf(&b, " (%s)%s", rf->reason, run);
		return sbuf_take(&b);
	}
	sbuf_add(&b, rf->text);
	if (tag)
		sbuf_addf(&b, " (%s)", rf->reason);
	if (rm != NULL && *rm != '\0')
		sbuf_addf(&b, "; run: %s", rm);
	return sbuf_take(&b);
}



int
out_refusals(FILE *f, const char *prefix, const struct refusals *r,
	     const char *remedy, int paren)
{
	int rc = 0;

	if (refusals_failed(r))
		return out_refused_oom(f, prefix);
	for (size_t i = 0; i < r->n; i++) {
		const char *tok = r->v[i].reason;
		int tag = paren && !probe_own_token(tok);
		char *t = compose(&r->v[i], remedy, tag);
		struct sbuf k = {0};

		sbuf_addf(&k, "REFUSED reason=%s: ", tag ? REASON_CHECK : tok);
		if (k.s == NULL || text_line(f, prefix, k.s,
					     t ? t : "out of memory") != 0)
			rc = -1;
		sbuf_free(&k);
		free(t);
	}
	return rc;
}
