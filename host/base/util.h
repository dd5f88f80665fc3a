/* SPDX-License-Identifier: MIT */
/* util.h -- small growable containers and refusal lists for the host. */
#ifndef NS_HOST_UTIL_H
#define NS_HOST_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "banned.h" /* infra/: the functions this project never calls */
#include "base/reasons.h" /* the reason tokens of struct refusal */


/* Allocation failures stick.  struct strv, struct sbuf and struct refusals
 * remember the first failed append (oom); every later append is then a
 * no-op returning -1, so a list or string is never silently shorter than
 * what was asked: a caller builds it without checking each call and tests
 * strv_failed()/sbuf_failed()/refusals_failed() ONCE before using it.
 * *_free() resets the flag with the rest. */

/* A NULL-terminated vector of owned strings; v[n] == NULL always (v may be
 * NULL while n == 0). */
struct strv {
	char **v;
	size_t n;
	size_t cap;
	int oom;    /* an append failed: the vector is incomplete */
};

int strv_push(struct strv *sv, const char *s);          /* copies s */
int strv_pushf(struct strv *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strv_contains(const struct strv *sv, const char *s);
/* Sort sv in place and return how many distinct strings it holds. */
size_t strv_count_unique(struct strv *sv);
void strv_free(struct strv *sv);
/* 1 when an append failed (the vector is short), else 0. */
int strv_failed(const struct strv *sv);

/* Write every byte of p to fd, retrying short writes and EINTR: 0, or -1
 * with errno (a write of 0 bytes is an error). */
int fd_write_all(int fd, const void *p, size_t n);
/* Read into p until n bytes or end-of-file (EINTR retried); the count
 * read, which is short only at end-of-file or on an error. */
size_t fd_read_upto(int fd, void *p, size_t n);

/* A heap string builder. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
	int oom;    /* an append failed: the string is incomplete */
};

int sbuf_add(struct sbuf *b, const char *s);
int sbuf_addn(struct sbuf *b, const char *s, size_t n);
int sbuf_addf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Returns s ("" when empty) and resets b; NULL (b freed) when an append
 * failed or "" cannot be allocated. */
char *sbuf_take(struct sbuf *b);
void sbuf_free(struct sbuf *b);
/* The string so far, "" when empty (never NULL); b keeps it. */
const char *sbuf_str(const struct sbuf *b);
int sbuf_failed(const struct sbuf *b);
/* The first n bytes of s (fewer when s ends sooner) as a heap string, or
 * NULL (strndup, which not every C library has). */
char *str_ndup(const char *s, size_t n);
/* A formatted heap string, or NULL when it could not be built. */
char *str_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One independent problem (rule 16): a reason token, a text and what to do
 * about it.  The remedy is a static string: NULL, the printer appends the
 * verb's remedy ("; run: <remedy>", see out_refusals); REMEDY_IN_TEXT, the
 * text already ends with its remedy and nothing is appended; else that
 * command, appended as "; run: <remedy>". */
struct refusal {
	const char *reason; /* static token, base/reasons.h */
	char *text;         /* owned */
	const char *remedy; /* static, see above */
};
#define REMEDY_IN_TEXT ""

/* The command line as the caller typed it (base/remedy.h builds it
 * fixed). */
struct cmdline {
	const char *verb;    /* "run", "policy", "egress plan"; NULL: bare */
	char *const *args;   /* the words after the verb; NULL: not known */
	size_t n;            /* how many */
};

/* SPEC section 3 "Lines": a printer lists at most REFUSALS_LISTED
 * problems (a count stands for the rest, and no fixed line is built for
 * them), and prints no fixed command line longer than REMEDY_LINE_MAX
 * bytes. */
#define REFUSALS_LISTED 20
#define REMEDY_LINE_MAX 65536

struct refusals {
	struct refusal *v;
	size_t n;
	size_t cap;
	int oom;    /* an add failed: the list is incomplete and prints as
		       the one REFUSED_OOM line, never as a shorter list */
	/* the caller's line the refusals' fixed lines were built from
	 * (remedy_keep): the printer builds the one line that fixes them
	 * all from it (args NULL: none) */
	struct cmdline line;
};

/* What a printer prints, alone, for a failed list (after "<PREFIX> "). */
#define REFUSED_OOM_REASON "sandbox_failed" /* REASON_SANDBOX_FAILED, as a literal */
#define REFUSED_OOM_TEXT "out of memory"

int refusals_add(struct refusals *r, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int refusals_vadd(struct refusals *r, const char *reason, const char *fmt,
		  va_list ap) __attribute__((format(printf, 3, 0)));
/* refusals_add with the refusal's own remedy (see struct refusal). */
int refusals_addr(struct refusals *r, const char *reason, const char *remedy,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* 1 when r holds refusals and every one has `reason` (0 for a failed list). */
int refusals_all(const struct refusals *r, const char *reason);
void refusals_free(struct refusals *r);
int refusals_failed(const struct refusals *r);
/* Mark r failed: an allocation the caller made failed (it then prints as
 * the one out-of-memory line).  A failed list is never empty (r->n >= 1,
 * its own entry "sandbox_failed: out of memory" when nothing else was
 * added), so a caller that tests r->n for "refused?" fails closed. */
void refusals_oom(struct refusals *r);

/* Strict unsigned parser: digits only, no sign, no spaces; 0 on success. */
int parse_u64(const char *s, unsigned long long max, unsigned long long *out);

/* Does s match the shell pattern pat, as fnmatch(pat, s, 0) would: `*`
 * any run, `?` one byte, `[...]` a set (ranges a-z, `!` or `^` negates, a
 * leading `]` is a member), a backslash quotes the next byte; byte-wise,
 * case kept.  Portable (there is no fnmatch on every platform).  1 or 0. */
int str_glob(const char *pat, const char *s);

#endif
