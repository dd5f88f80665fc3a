/* SPDX-License-Identifier: MIT */
/* remedy.c -- the one builder of paste-able remedies (remedy.h). */
#include "base/remedy.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"

int
remedy_word(struct sbuf *s, const char *w, const char *prev)
{
	const char *kv = prev != NULL && strcmp(prev, "--env") == 0 ? w :
	    strncmp(w, "--env=", 6) == 0 ? w + 6 : NULL;
	const char *eq = kv ? strchr(kv, '=') : NULL;
	struct sbuf m = {0};
	int rc;

	if (sbuf_add(s, " ") < 0)
		return -1;
	if (eq == NULL)
		return out_shell_quote(s, w);
	rc = sbuf_addn(&m, w, (size_t)(eq - w) + 1) < 0 ||
	     sbuf_add(&m, "<VALUE>") < 0 ? -1 : out_shell_quote(s, m.s);
	sbuf_free(&m);
	return rc;
}

struct cmdline
cmdline_of(const char *verb, char *const *args)
{
	struct cmdline c = { verb, args, 0 };

	while (args != NULL && args[c.n] != NULL)
		c.n++;
	return c;
}

/* The fixed flag in the form it was typed: " --f 'v'" or " '--f=v'". */
static int
fixed_flag(struct sbuf *s, const char *flag, const char *value, int eq)
{
	struct sbuf w = {0};
	int rc;

	if (!eq)
		return sbuf_addf(s, " %s ", flag) < 0 ? -1 :
		       out_shell_quote(s, value);
	rc = sbuf_addf(&w, "%s=%s", flag, value) < 0 ? -1 :
	     sbuf_add(s, " ") < 0 ? -1 : out_shell_quote(s, w.s);
	sbuf_free(&w);
	return rc;
}

/* Is args[*i] the flag f fixes?  Then *i is left on its last word and
 * its replacement (if any) printed: 1; else 0; -1 on ENOMEM. */
static int
fix_at(struct sbuf *s, const struct cmdline *c, const struct cmdfix *f,
       size_t *i)
{
	const char *w = c->args[*i];
	size_t fl = strlen(f->flag);
	int eq, last = *i + 1 >= c->n;
	const char *v;

	if (fl <= 2)
		return 0; /* "--" is the command's (remedy_cmdline) */
	/* "--size" also matches "-size", for a verb that takes both */
	if (strncmp(w, f->flag, fl) != 0) {
		if (strncmp(f->flag, "--", 2) != 0 ||
		    strncmp(w, f->flag + 1, fl - 1) != 0)
			return 0;
		fl--;
	}
	if (w[fl] != '=' && w[fl] != '\0')
		return 0;
	eq = w[fl] == '=';
	if (f->bare == FIX_MISSING &&
	    (eq || !(last || strcmp(c->args[*i + 1], "--") == 0)))
		return 0;
	v = eq ? w + fl + 1 : f->bare || last ? NULL : c->args[*i + 1];
	if (f->match != NULL && (v == NULL || strcmp(v, f->match) != 0))
		return 0;
	if (!eq && !f->bare && *i + 1 < c->n)
		(*i)++;
	if (f->value == NULL)
		return 1;
	return fixed_flag(s, f->flag, f->value, eq) < 0 ? -1 : 1;
}

int
remedy_cmdline(struct sbuf *s, const struct cmdline *c,
	       const struct cmdfix *f)
{
	int rc = sbuf_add(s, "nova-sandbox") < 0 ? -1 : 0;
	int todo = f != NULL && f->add == NULL && f->flag != NULL;

	if (rc == 0 && c->verb != NULL)
		rc = sbuf_addf(s, " %s", c->verb) < 0 ? -1 : 0;
	if (rc == 0 && f != NULL && f->add != NULL)
		rc = sbuf_addf(s, " %s ", f->add) < 0 ? -1 :
		     out_shell_quote(s, f->value);
	for (size_t i = 0; rc == 0 && c->args != NULL && i < c->n; i++) {
		const char *w = c->args[i];

		if (strcmp(w, "--") == 0) {
			/* the fix "--": the command word gets `value` */
			int cmd = todo && strcmp(f->flag, "--") == 0;

			for (size_t k = i; rc == 0 && k < c->n; k++)
				rc = sbuf_add(s, " ") < 0 ? -1 :
				     out_shell_quote(s, cmd && k == i + 1 &&
						     f->value ? f->value :
						     c->args[k]);
			break;
		}
		if (todo && (rc = fix_at(s, c, f, &i)) != 0) {
			todo = 0;
			rc = rc < 0 ? -1 : 0;
			continue;
		}
		rc = remedy_word(s, w, i ? c->args[i - 1] : NULL);
	}
	return rc < 0 ? -1 : 0;
}

int
remedy_append(struct refusals *r, size_t from, const struct cmdline *c,
	      const struct cmdfix *f, const char *lead)
{
	if (c != NULL && c->args != NULL)
		remedy_keep(r, c);
	/* past the listed ones no line is built: it would never print */
	for (size_t i = from; c != NULL && c->args != NULL && i < r->n &&
	     i < REFUSALS_LISTED; i++) {
		struct sbuf s = {0};

		if (sbuf_addf(&s, "%s%s", r->v[i].text,
			      lead ? lead : "; run: ") < 0 ||
		    remedy_cmdline(&s, c, f) < 0) {
			sbuf_free(&s);
			refusals_oom(r);
			return -1;
		}
		free(r->v[i].text);
		r->v[i].text = s.s;
		r->v[i].remedy = REMEDY_IN_TEXT;
	}
	return 0;
}

static int vrefuse(struct refusals *r, const char *tok, const char *noline,
		   const struct cmdline *c, const struct cmdfix *f,
		   const char *lead, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

static int
vrefuse(struct refusals *r, const char *tok, const char *noline,
	const struct cmdline *c, const struct cmdfix *f, const char *lead,
	const char *fmt, va_list ap)
{
	struct sbuf s = {0};
	int line = c != NULL && c->args != NULL && remedy_wanted(r);
	int rc = sbuf_vaddf(&s, fmt, ap) < 0 ? -1 : 0;

	if (line)
		remedy_keep(r, c);

	if (rc == 0 && line)
		rc = sbuf_add(&s, lead ? lead : "; run: ") < 0 ? -1 :
		     remedy_cmdline(&s, c, f);
	if (rc == 0)
		rc = refusals_addr(r, tok, line ? REMEDY_IN_TEXT : noline,
				   "%s", s.s) < 0 ? -1 : 0;
	sbuf_free(&s);
	return rc;
}

int
remedy_refuse(struct refusals *r, const char *tok, const char *noline,
	      const struct cmdline *c, const struct cmdfix *f,
	      const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vrefuse(r, tok, noline, c, f, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int
remedy_refuse_lead(struct refusals *r, const char *tok, const char *noline,
		   const struct cmdline *c, const struct cmdfix *f,
		   const char *lead, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vrefuse(r, tok, noline, c, f, lead, fmt, ap);
	va_end(ap);
	return rc;
}

/* ---- the one line that fixes every listed problem ---------------------- */

void
remedy_keep(struct refusals *r, const struct cmdline *c)
{
	if (r->line.args == NULL && c != NULL && c->args != NULL)
		r->line = *c;
}

int
remedy_wanted(const struct refusals *r)
{
	return r->n < REFUSALS_LISTED;
}

/* One shell word of a printed line. */
struct word {
	const char *p;
	size_t n;
};

struct words {
	struct word *v;
	size_t n, cap;
	int bad;  /* not a line remedy_cmdline prints */
};

static int
safe_char(char c)
{
	return c != '\0' && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmno"
				   "pqrstuvwxyz0123456789_@%+=:,./-&", c);
}

/* The end of the word at p: safe characters, '...' quoted runs and \'
 * (out_shell_quote's forms); NULL when p holds anything else. */
static const char *
word_end(const char *p)
{
	while (*p != '\0' && *p != ' ') {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (q == NULL)
				return NULL;
			p = q + 1;
		} else if (p[0] == '\\' && p[1] == '\'') {
			p += 2;
		} else if (safe_char(*p)) {
			p++;
		} else {
			return NULL;
		}
	}
	return p;
}

/* Split a printed line into its words, a trailing shell comment left
 * out: 0, or -1 (ENOMEM; w->bad when it is no printed line). */
static int
split_words(const char *s, struct words *w)
{
	const char *e;

	while (*s != '\0') {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (*s == '#')
			break;
		if ((e = word_end(s)) == NULL) {
			w->bad = 1;
			return 0;
		}
		if (w->n == w->cap) {
			size_t cap = w->cap ? w->cap * 2 : 32;
			struct word *v = realloc(w->v, cap * sizeof(*v));

			if (v == NULL)
				return -1;
			w->v = v;
			w->cap = cap;
		}
		w->v[w->n++] = (struct word){ s, (size_t)(e - s) };
		s = e;
	}
	return 0;
}

static int
word_eq(const struct word *a, const struct word *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* A line that points at the help ("nova-sandbox help run", "... -h"):
 * no fixed line of the caller's, unless the caller's own line ends so
 * too (`-- ls -h`). */
static int
help_line(const struct words *w, const struct cmdline *base)
{
	static const char *const help[] = { "help", "-h", "--help", NULL };
	const struct word *last = &w->v[w->n - 1];
	const char *own = base != NULL && base->args != NULL && base->n > 0 ?
	    base->args[base->n - 1] : "";

	if (w->n > 1 && w->v[1].n == 4 && memcmp(w->v[1].p, "help", 4) == 0)
		return 1;
	for (size_t i = 0; help[i] != NULL; i++)
		if (last->n == strlen(help[i]) &&
		    memcmp(last->p, help[i], last->n) == 0 &&
		    strcmp(own, help[i]) != 0)
			return 1;
	return 0;
}

const char *
remedy_located(const char *text, const struct cmdline *base)
{
	const char *p = text;
	struct words w = {0};

	while ((p = strstr(p, "run: ")) != NULL) {
		p += 5;
		w.n = 0;
		w.bad = 0;
		if (split_words(p, &w) < 0)
			break; /* no memory: print the text whole */
		if (!w.bad && w.n > 0) {
			int help = help_line(&w, base);

			free(w.v);
			return help ? NULL : p;
		}
	}
	free(w.v);
	return NULL;
}

/* One fix: the base's words [at, end) become rep's [from, to). */
struct edit {
	size_t at, end;
	const struct words *rep;
	size_t from, to;
};

/* The one edit that makes base's words line's: the longest common head,
 * then the longest common tail of what is left; a removal or an
 * insertion is moved to its leftmost equal place, so that fixes of
 * neighbouring flags ("--read a --read b") touch different words. */
static struct edit
edit_of(const struct words *base, const struct words *line)
{
	struct edit e = { 0, 0, line, 0, 0 };
	size_t t = 0;

	while (e.at < base->n && e.at < line->n &&
	       word_eq(&base->v[e.at], &line->v[e.at]))
		e.at++;
	while (t < base->n - e.at && t < line->n - e.at &&
	       word_eq(&base->v[base->n - 1 - t], &line->v[line->n - 1 - t]))
		t++;
	e.end = base->n - t;
	e.from = e.at;
	e.to = line->n - t;
	while (e.at > 0 && e.to == e.from && e.end > e.at &&
	       word_eq(&base->v[e.at - 1], &base->v[e.end - 1])) {
		e.at--;
		e.end--;
	}
	while (e.at > 0 && e.end == e.at && e.to > e.from &&
	       word_eq(&base->v[e.at - 1], &line->v[e.to - 1])) {
		/* the inserted words, rotated: the line still reads the same */
		e.at--;
		e.end--;
		e.from--;
		e.to--;
	}
	return e;
}

static int
edit_same(const struct edit *a, const struct edit *b)
{
	if (a->at != b->at || a->end != b->end || a->to - a->from !=
	    b->to - b->from)
		return 0;
	for (size_t i = 0; i < a->to - a->from; i++)
		if (!word_eq(&a->rep->v[a->from + i], &b->rep->v[b->from + i]))
			return 0;
	return 1;
}

/* Sorted by place, the same fix once; 0 when two touch the same words
 * (or two put words before the command: their order would matter). */
static int
edits_order(struct edit *e, size_t *n)
{
	size_t k = 0;

	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && (e[j].at < e[j - 1].at ||
		     (e[j].at == e[j - 1].at && e[j].end < e[j - 1].end)); j--) {
			struct edit t = e[j];

			e[j] = e[j - 1];
			e[j - 1] = t;
		}
	for (size_t i = 0; i < *n; i++) {
		if (k > 0 && edit_same(&e[k - 1], &e[i]))
			continue;
		if (k > 0 && (e[i].at < e[k - 1].end ||
			      (e[i].at == 0 && e[k - 1].at == 0)))
			return 0;
		e[k++] = e[i];
	}
	*n = k;
	return 1;
}

static int
add_words(struct sbuf *s, const struct words *w, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (sbuf_addf(s, "%s%.*s", s->len ? " " : "", (int)w->v[i].n,
			      w->v[i].p) < 0)
			return -1;
	return 0;
}

int
remedy_combine(const struct refusals *r, size_t upto, struct sbuf *out)
{
	struct sbuf b = {0};
	struct words base = {0}, lines[REFUSALS_LISTED];
	struct edit e[REFUSALS_LISTED];
	size_t n = 0, at = 0;
	int rc = 0;

	if (r->line.args == NULL)
		return 0;
	memset(lines, 0, sizeof(lines));
	if (remedy_cmdline(&b, &r->line, NULL) < 0 ||
	    split_words(b.s, &base) < 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < upto && i < REFUSALS_LISTED &&
	     i < r->n; i++) {
		const char *l = r->v[i].remedy != NULL &&
		    *r->v[i].remedy == '\0' ?
		    remedy_located(r->v[i].text, &r->line) :
		    NULL;

		if (l == NULL)
			continue;
		lines[n].n = 0;
		lines[n].bad = 0;
		if (split_words(l, &lines[n]) < 0)
			rc = -1;
		else if (!lines[n].bad)
			e[n] = edit_of(&base, &lines[n]), n++;
	}
	if (rc == 0 && !base.bad && n > 0 && edits_order(e, &n)) {
		for (size_t i = 0; rc == 0 && i < n; i++) {
			rc = add_words(out, &base, at, e[i].at);
			rc = rc ? rc : add_words(out, e[i].rep, e[i].from,
						 e[i].to);
			at = e[i].end;
		}
		rc = rc ? rc : add_words(out, &base, at, base.n);
		rc = rc ? rc : 1;
	}
	for (size_t i = 0; i < REFUSALS_LISTED; i++)
		free(lines[i].v);
	free(base.v);
	sbuf_free(&b);
	return rc;
}
