/* SPDX-License-Identifier: MIT */
/* out.h -- the output grammar: field escaping, lines, JSON strings.
 * Reference: docs/SPEC-SANDBOX.md "Lines". */
#ifndef NS_HOST_OUT_H
#define NS_HOST_OUT_H

#include <stdio.h>

#include "base/exit.h"
#include "base/util.h"

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
/* The one line a failed refusal list (refusals_failed) prints as, on f:
 * "<prefix> REFUSED reason=sandbox_failed: out of memory". */
int out_refused_oom(FILE *f, const char *prefix);
/* The line kinds (section 3 "Lines"); each leaves in one out_line().
 * "<prefix> REFUSED reason=<reason>: <text>[; run: <remedy>]" on stderr,
 * the text and remedy text-escaped; remedy NULL or "": the text is whole.
 * Returns 0, or -1 when it could not (it still prints "out of memory"). */
int out_refused(const char *prefix, const char *reason, const char *text,
		const char *remedy);
/* "<prefix> NOTE <text>" on stderr, the text text-escaped. */
int out_note(const char *prefix, const char *text);
/* The same to f (a module's notes go where its host services say). */
int out_note_to(FILE *f, const char *prefix, const char *text);
/* Append "key=<value>" to b (after a ' ' when b is not empty), the value
 * field-escaped (an empty or NULL value is "-").  0, or -1. */
int out_kv(struct sbuf *b, const char *key, const char *value);
/* Every refusal of r as a REFUSED line to f: its text, then its remedy
 * (struct refusal): its own, else "; run: <remedy>" (none when remedy is
 * NULL), nothing when the text carries it.  With `paren` (the probe's
 * form) every token but the probe's own is printed as "check" and goes in
 * parentheses after the text, before the remedy.  0, or -1. */
int out_refusals(FILE *f, const char *prefix, const struct refusals *r,
		 const char *remedy, int paren);

/* Shell-quote one argument so it pastes back as itself. */
int out_shell_quote(struct sbuf *b, const char *s);

/* The line kinds of reference section 3 "Lines": every one is spelled
 * here (out.c's table), never at a call site. */
enum out_kind {
	OUT_OK,       /* <P> OK <fields>: the verb's start (or its success) */
	OUT_DONE,     /* <P> DONE <fields>: the walled command's end */
	OUT_STEP,     /* <P> STEP name=<step> state=start|done [ms=] */
	OUT_LEAK,     /* <P> LEAK name= volume= remedy="" */
	OUT_REAP,     /* <P> REAP <fields>: one thing reap cleared */
	OUT_REAP_OK,  /* <P> REAP OK <fields>: reap's end */
	OUT_OUT,      /* <P> OUT <fields>: run's hand-off */
	OUT_TIMEOUT,  /* <P> TIMEOUT after= name= */
	OUT_RUNAWAY,  /* <P> RUNAWAY <fields>: a cap was passed */
	OUT_DENIED,   /* <P> DENIED path= op= remedy="" [warn=] */
	OUT_PLAN,     /* <P> PLAN <fields>: egress's plan */
	OUT_CHECK,    /* <P> CHECK <fields>: egress's live check */
	OUT_REMOVED,  /* <P> REMOVED <fields>: a worktree removed */
	OUT_MODULE,   /* MODULE <fields>: one module (modules, no prefix) */
	OUT_OPTION,   /* OPTION <fields>: one option and where it was set */
	OUT_CONFIG,   /* CONFIG file=<f>: one config file read */
	OUT_KINDS
};
/* "<prefix> <KIND> <fields>" (prefix NULL: "<KIND> <fields>") as one
 * line to f (out_line): the fields are the caller's, already escaped
 * (out_kv, out_field), after one space (a leading space of their own is
 * that space).  0, or -1. */
int out_kind(FILE *f, const char *prefix, enum out_kind kind,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The version line: "nova-sandbox <fields>" on stdout. */
int out_version(const char *fields);
/* A JSON object as one line to f (obj NULL: "{}", the object that could
 * not be built). */
int out_json(FILE *f, const char *obj);
/* A usage line as it is: the verb's form after a refusal ("run:
 * nova-sandbox run --name <n> ..."). */
int out_usage(FILE *f, const char *text);

/* Print one whole line (a '\n' is added) to f: what f buffers is flushed,
 * then the line leaves in one write(2) of the complete line (the tool's
 * processes share fd 2: a line is never split around another's).  A line
 * to stderr goes to the status descriptor instead once out_status_set()
 * named one.  Returns 0, or -1 when the write failed. */
int out_line(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* From now on the tool's stderr lines go to fd only (-1: stderr again).
 * The descriptor was checked and made close-on-exec by status_fd_take()
 * (wall/statusfd.h).  Returns 0. */
int out_status_set(int fd);
int out_status_fd(void);
#define OUT_STATUS_WANTS "--status-fd wants an open, writable descriptor " \
	"of 3 or above, got "

#endif
