/* SPDX-License-Identifier: MIT */
/* sb_log.c -- the unified log's sandbox violations, parsed.
 *
 * finish() runs `log show --style ndjson --start <t0> --end <t1>
 * --predicate <sb_log_predicate>` and hands each line here.  A violation's
 * eventMessage reads "Sandbox: <proc>(<pid>) deny(<n>) <operation> <arg>"
 * (a process name may itself hold parentheses: the pid is the LAST
 * "(<digits>)" before " deny(").  Platform-independent: the suite feeds it
 * recorded shapes on every platform. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banned.h"
#include "sb.h"

const char sb_log_predicate[] =
	"subsystem == \"com.apple.sandbox.reporting\" AND "
	"category == \"violation\"";

struct opmap {
	const char *word;
	uint32_t op;
	int prefix;
};

/* Exact words first, then families by prefix. */
static const struct opmap ops[] = {
	{ "file-write-create", NS_OP_CREATE, 0 },
	{ "file-write-unlink", NS_OP_DELETE, 0 },
	{ "file-link", NS_OP_CREATE, 0 },
	{ "file-map-executable", NS_OP_EXEC, 0 },
	{ "file-ioctl", NS_OP_OTHER, 0 },
	{ "file-read", NS_OP_READ, 1 },
	{ "file-write", NS_OP_WRITE, 1 },
	{ "process-exec", NS_OP_EXEC, 1 },
	{ "network-outbound", NS_OP_CONNECT, 1 },
	{ "network-bind", NS_OP_BIND, 1 },
	{ "network-inbound", NS_OP_BIND, 1 },
};

uint32_t
sb_op_of(const char *word)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].word);

		if (ops[i].prefix ? strncmp(word, ops[i].word, n) == 0 :
				    strcmp(word, ops[i].word) == 0)
			return ops[i].op;
	}
	return NS_OP_OTHER;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The JSON string starting after the opening quote at s, unescaped into
 * out (\uXXXX above 0x7f and controls become '?': this is for matching,
 * never for printing raw).  0, or -1 unterminated. */
static int
json_str(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && *s != '"'; s++) {
		int c = (unsigned char)*s;

		if (c == '\\') {
			s++;
			switch (*s) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': case 'f': c = ' '; break;
			case 'u': {
				int v = 0;

				for (int k = 1; k <= 4; k++) {
					int h = hexval((unsigned char)s[k]);

					if (h < 0)
						return -1;
					v = v * 16 + h;
				}
				s += 4;
				c = (v >= 0x20 && v < 0x7f) ? v : '?';
				break;
			}
			case '\0':
				return -1;
			default: c = (unsigned char)*s; break;
			}
		}
		if (o + 1 < len)
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return *s == '"' ? 0 : -1;
}

static int
event_message(const char *line, char *msg, size_t len)
{
	static const char key[] = "\"eventMessage\"";
	const char *p = strstr(line, key);

	if (p == NULL)
		return -1;
	p += sizeof(key) - 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != ':')
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"')
		return -1;
	return json_str(p, msg, len);
}

static void
copy_span(char *out, size_t len, const char *a, const char *b)
{
	size_t n = (size_t)(b - a);

	if (n >= len)
		n = len - 1;
	memcpy(out, a, n);
	out[n] = '\0';
}

/* "<proc>(<pid>) deny(<n>) <op> <arg>" at s. */
static int
parse_deny(const char *s, struct sb_deny *d)
{
	const char *dn = strstr(s, ") deny("), *q, *op, *e;
	char *end;

	if (dn == NULL)
		return -1;
	q = dn;
	while (q > s && isdigit((unsigned char)q[-1]))
		q--;
	if (q == dn || q == s || q[-1] != '(')
		return -1;
	d->pid = strtol(q, &end, 10);
	copy_span(d->proc, sizeof(d->proc), s, q - 1);
	op = strchr(dn + 7, ')');
	if (op == NULL)
		return -1;
	while (*++op == ' ')
		;
	for (e = op; *e && *e != ' ' && *e != '\n'; e++)
		;
	if (e == op)
		return -1;
	copy_span(d->opword, sizeof(d->opword), op, e);
	while (*e == ' ')
		e++;
	op = e;
	while (*e && *e != '\n')
		e++;
	while (e > op && isspace((unsigned char)e[-1]))
		e--;
	copy_span(d->path, sizeof(d->path), op, e);
	d->op = sb_op_of(d->opword);
	return 0;
}

int
sb_log_line(const char *line, struct sb_deny *d)
{
	char msg[4096];
	const char *s;

	memset(d, 0, sizeof(*d));
	if (event_message(line, msg, sizeof(msg)) != 0)
		return -1;
	s = strstr(msg, "Sandbox:");
	if (s == NULL)
		return -1;
	s += 8;
	while (*s == ' ')
		s++;
	if (parse_deny(s, d) != 0)
		return -1;
	d->tagged = strstr(msg, SB_TAG) != NULL;
	return 0;
}

int
sb_log_time(int64_t ns, char *out, size_t len)
{
	time_t t = (time_t)(ns / 1000000000LL);
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		return -1;
	return 0;
}
