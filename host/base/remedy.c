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
	for (size_t i = from; c != NULL && c->args != NULL && i < r->n; i++) {
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
	int line = c != NULL && c->args != NULL;
	int rc = sbuf_vaddf(&s, fmt, ap) < 0 ? -1 : 0;

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
