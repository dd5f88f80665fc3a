/* out.h -- the output grammar: field escaping, lines, JSON strings.
 * Reference: docs/SPEC-SANDBOX.md "Lines". */
#ifndef NS_HOST_OUT_H
#define NS_HOST_OUT_H

#include <stdio.h>

#include "util.h"

/* Field rendering: control characters, every whitespace character and '='
 * become \xNN (ASCII) or \uNNNN; invalid UTF-8 bytes \xNN; U+2028/2029 and
 * the bidi controls U+202A-202E, U+2066-2069 \uNNNN.  An empty value is
 * rendered as "-" (never as nothing).  Returns a heap string or NULL. */
char *out_field(const char *s);
/* The same for free text tails, keeping ' ' and '='. */
char *out_text(const char *s);
/* RFC 4648 base64url without padding of the raw bytes of s. */
char *out_b64url(const char *s);
/* A JSON string literal (with the quotes) for s. */
int out_json_str(struct sbuf *b, const char *s);
/* The JSON object of a refused verb, on stdout:
 * {"result":{"verb":V,"status":"refused","exit":E,"remedy":"nova-sandbox V -h",
 * "why":["<reason>: <text>",...]}}.  Returns 0, or -1 when it could not. */
int out_json_refused(const char *verb, int exit_code, const struct refusals *r);
/* Shell-quote one argument so it pastes back as itself. */
int out_shell_quote(struct sbuf *b, const char *s);

/* Print one whole line (a '\n' is added) to f and flush f.  Returns 0, or
 * -1 when the write failed. */
int out_line(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
