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
#include "base/remedy.h"

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
		rc = fflush(f) == 0 && fd_write_all(fd, b.s, b.len) == 0 ? 0 : -1;
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

static const char *const out_kinds[OUT_KINDS] = {
	[OUT_OK] = "OK", [OUT_DONE] = "DONE", [OUT_STEP] = "STEP",
	[OUT_LEAK] = "LEAK", [OUT_REAP] = "REAP", [OUT_REAP_OK] = "REAP OK",
	[OUT_OUT] = "OUT", [OUT_TIMEOUT] = "TIMEOUT",
	[OUT_RUNAWAY] = "RUNAWAY", [OUT_DENIED] = "DENIED",
	[OUT_PLAN] = "PLAN", [OUT_CHECK] = "CHECK",
	[OUT_REMOVED] = "REMOVED", [OUT_MODULE] = "MODULE",
	[OUT_OPTION] = "OPTION", [OUT_CONFIG] = "CONFIG",
};

int
out_kind(FILE *f, const char *prefix, enum out_kind kind, const char *fmt,
	 ...)
{
	struct sbuf b = {0};
	va_list ap;
	int rc;

	if ((unsigned)kind >= OUT_KINDS)
		return -1;
	va_start(ap, fmt);
	rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc == 0)
		rc = out_line(f, "%s%s%s%s%s", prefix ? prefix : "",
			      prefix ? " " : "", out_kinds[kind],
			      b.len && b.s[0] != ' ' ? " " : "",
			      b.s ? b.s : "");
	sbuf_free(&b);
	return rc;
}

int
out_version(const char *fields)
{
	return out_line(stdout, "nova-sandbox %s", fields);
}

int
out_json(FILE *f, const char *obj)
{
	return out_line(f, "%s", obj ? obj : "{}");
}

int
out_usage(FILE *f, const char *text)
{
	return out_line(f, "%s", text);
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
 * else `remedy`; none when the text carries it (REMEDY_IN_TEXT).  `cut`
 * (not NULL): where the text's fixed line begins; the text is printed
 * up to its "run: " and the line left to the one line after the list. */
static char *
compose(const struct refusal *rf, const char *remedy, int tag,
	const char *cut)
{
	struct sbuf b = {0};
	const char *rm = rf->remedy != NULL ? rf->remedy : remedy;
	const char *run = NULL;

	if (cut != NULL) {
		size_t n = (size_t)(cut - rf->text) - 5; /* "run: " */

		/* "...; or leave it out; " / "... (net=nopromise), " */
		while (n > 0 && strchr(" ;,", rf->text[n - 1]) != NULL)
			n--;
		sbuf_addn(&b, rf->text, n);
		if (tag)
			sbuf_addf(&b, " (%s)", rf->reason);
		return sbuf_take(&b);
	}
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

/* The fixed line a refusal of r carries in its text, when r keeps the
 * caller's line it was fixed on (remedy_keep), or NULL. */
static const char *
line_of(const struct refusals *r, size_t i)
{
	const struct refusal *rf = &r->v[i];

	return r->line.args != NULL && rf->remedy != NULL &&
	       *rf->remedy == '\0' ? remedy_located(rf->text, &r->line) : NULL;
}

/* How many of r's listed refusals carry a fixed line; *first the first. */
static size_t
lines_carried(const struct refusals *r, size_t listed, const char **first)
{
	size_t k = 0;

	*first = NULL;
	for (size_t i = 0; i < listed; i++) {
		const char *l = line_of(r, i);

		if (l != NULL && k++ == 0)
			*first = l;
	}
	return k;
}

/* "NOTE <n> more problems are not listed (<tok>, ...)": the tokens of
 * r->v[from..], each once. */
static int
more_line(FILE *f, const char *prefix, const struct refusals *r,
	  size_t from)
{
	struct sbuf b = {0};
	int rc;

	sbuf_addf(&b, "%zu more problems are not listed (the first %zu are):",
		  r->n - from, from);
	for (size_t i = from; i < r->n; i++) {
		size_t j = from;

		while (j < i && strcmp(r->v[j].reason, r->v[i].reason) != 0)
			j++;
		if (j == i)
			sbuf_addf(&b, "%s %s", i > from ? "," : "",
				  r->v[i].reason);
	}
	sbuf_add(&b, "; fix the ones listed and run the command again to "
		 "see them");
	rc = b.s ? text_line(f, prefix, "NOTE ", b.s) : -1;
	sbuf_free(&b);
	return rc;
}

/* After a list of problems: the one line that fixes them all (those a
 * flag fixes), else the first one's; none longer than REMEDY_LINE_MAX. */
static int
fix_line(FILE *f, const char *prefix, const struct refusals *r,
	 size_t listed, size_t k, const char *first)
{
	struct sbuf l = {0}, b = {0};
	int rc = remedy_combine(r, listed, &l), all = rc == 1;

	if (rc < 0 || (!all && sbuf_add(&l, first) < 0)) {
		sbuf_free(&l);
		return -1;
	}
	if (l.len > REMEDY_LINE_MAX)
		sbuf_addf(&b, "the fixed command line would be %zu bytes, more "
			  "than the %d a line of the tool holds: fix the "
			  "flags named above and run the command again",
			  l.len, REMEDY_LINE_MAX);
	else if (all)
		sbuf_addf(&b, "one line fixes the %zu problem%s above that "
			  "carr%s a fix; run: %s", k, k == 1 ? "" : "s",
			  k == 1 ? "ies" : "y", l.s);
	else
		sbuf_addf(&b, "the fixes of the problems above touch the same "
			  "flags: this line fixes the first (it then names "
			  "the next fix); run: %s", l.s);
	rc = b.s ? text_line(f, prefix, "NOTE ", b.s) : -1;
	sbuf_free(&b);
	sbuf_free(&l);
	return rc;
}

int
out_refusals(FILE *f, const char *prefix, const struct refusals *r,
	     const char *remedy, int paren)
{
	size_t listed = r->n < REFUSALS_LISTED ? r->n : REFUSALS_LISTED, k;
	const char *first;
	int rc = 0, one;

	if (refusals_failed(r))
		return out_refused_oom(f, prefix);
	k = lines_carried(r, listed, &first);
	/* one problem keeps its fixed line (one that fits); more get one
	 * line, after them */
	one = k == 0 || (r->n == 1 && strlen(first) <= REMEDY_LINE_MAX);
	for (size_t i = 0; i < listed; i++) {
		const char *tok = r->v[i].reason;
		int tag = paren && !probe_own_token(tok);
		char *t = compose(&r->v[i], remedy, tag,
				  one ? NULL : line_of(r, i));
		struct sbuf kb = {0};

		sbuf_addf(&kb, "REFUSED reason=%s: ", tag ? REASON_CHECK : tok);
		if (kb.s == NULL || text_line(f, prefix, kb.s,
					      t ? t : "out of memory") != 0)
			rc = -1;
		sbuf_free(&kb);
		free(t);
	}
	if (r->n > listed && more_line(f, prefix, r, listed) != 0)
		rc = -1;
	if (!one && fix_line(f, prefix, r, listed, k, first) != 0)
		rc = -1;
	return rc;
}
