/* SPDX-License-Identifier: MIT */
/* remedy.h -- the one builder of paste-able remedies (SPEC §3 "Lines"):
 * the caller's own command line with one flag fixed, left out or added,
 * every word shell-quoted so it pastes in sh, the VALUE of a --env
 * KEY=VALUE printed KEY=<VALUE> (rule 9a).  Every refusal that prints a
 * corrected line builds it here: the policy builder (home_outside,
 * bad_cwd, bad_gpu, ...), the flag parsers' value checks, the wrap's and
 * run's command checks and the egress verbs. */
#ifndef NS_HOST_REMEDY_H
#define NS_HOST_REMEDY_H

#include <stddef.h>

#include "base/util.h"

/* struct cmdline, the command line as the caller typed it: base/util.h. */

/* The line of `verb` and the NULL-terminated `args` (NULL: none known). */
struct cmdline cmdline_of(const char *verb, char *const *args);

/* One fix of a line.  The first `flag` word ("--size" or "--size=v")
 * whose value is `match` (NULL: any) gets `value` in place of its value,
 * in the form it was typed ("--f v" or "--f=v"); value NULL leaves the
 * flag and its value out.  `bare` says the flag word has no value word
 * of its own: FIX_SWITCH, a switch (the word after it is never its
 * value); FIX_MISSING, a value flag typed last or before "--" without its
 * value (only such a word matches).  Only that word is replaced.  With `add` ("--read"), "<add> <value>" is put
 * first and nothing else changes.  A `value` that is a form the caller
 * must fill in ("<n>m") is printed as it is, quoted.  The flag "--"
 * stands for the command: the first word after "--" gets `value`. */
#define FIX_MISSING 1
#define FIX_SWITCH 2

struct cmdfix {
	const char *flag;
	const char *match;
	const char *value;
	const char *add;
	int bare;
};

/* One typed word, shell-quoted, after a space; prev is the word before
 * it (the value of a --env KEY=VALUE is never printed).  0 or -1. */
int remedy_word(struct sbuf *s, const char *w, const char *prev);

/* "nova-sandbox[ <verb>]" and c's words, fixed as f says.  0 or -1. */
int remedy_cmdline(struct sbuf *s, const struct cmdline *c,
		   const struct cmdfix *f);

/* A refusal "<text>; run: <c's line fixed as f says>" that carries its
 * remedy (REMEDY_IN_TEXT).  Without a line (c or c->args NULL) the text
 * alone, with `noline` as its remedy (struct refusal).  0 or -1. */
int remedy_refuse(struct refusals *r, const char *tok, const char *noline,
		  const struct cmdline *c, const struct cmdfix *f,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* "<text>; or leave it out; run: <line>": the same, with a lead of its
 * own between the text and the line ("; run: " when NULL). */
int remedy_refuse_lead(struct refusals *r, const char *tok,
		       const char *noline, const struct cmdline *c,
		       const struct cmdfix *f, const char *lead,
		       const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Refusals r->v[from..] (added by code that has no line, a module's
 * among them) get "<lead><c's line fixed as f says>" appended (lead
 * "; run: " when NULL) and carry their remedy in the text from then on.
 * Nothing without a line.  0 or -1 (r is then marked failed). */
int remedy_append(struct refusals *r, size_t from, const struct cmdline *c,
		  const struct cmdfix *f, const char *lead);

/* r's refusals are fixed on c: kept (the first kept stays) for the one
 * line the printer builds that fixes them all (remedy_combine). */
void remedy_keep(struct refusals *r, const struct cmdline *c);

/* 1 while r's next refusal is still listed (REFUSALS_LISTED) and so
 * wants its fixed line built; 0 past it: the line would never print. */
int remedy_wanted(const struct refusals *r);

/* Where the fixed command line of a refusal's text begins (just after
 * its "run: "), or NULL when the text carries none: the first "run: "
 * after which the rest of the text is shell words as remedy_cmdline
 * prints them, not a pointer at the help ("nova-sandbox help run",
 * "... -h", unless `base`, the caller's line, ends so too). */
const char *remedy_located(const char *text, const struct cmdline *base);

/* The one line that fixes the problems r->v[0..upto) carry lines for,
 * each fix applied to r's kept line (remedy_keep) word by word: 1 with
 * the line in `out`; 0 when there is no kept line or two fixes touch the
 * same words (the caller then prints the first fix alone); -1 ENOMEM. */
int remedy_combine(const struct refusals *r, size_t upto, struct sbuf *out);

#endif
