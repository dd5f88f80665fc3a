/* SPDX-License-Identifier: MIT */
/* flags.c -- the one flag engine (flags.h): a table of flag definitions
 * and a walk of argv that collects every problem in argv order. */
#include <limits.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"

struct walk {
	const struct flagspec *s;
	int argc;
	char **argv;
	int i;
	char *out;
	struct refusals *r;
	int nomem;
};

static void refuse(struct walk *w, const char *tok, const char *remedy,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* One problem; remedy is the refusal's (struct refusal): REMEDY_IN_TEXT
 * when the text ends with it, NULL for the verb's own. */
static void
refuse(struct walk *w, const char *tok, const char *remedy, const char *fmt,
       ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (refusals_vadd(w->r, tok, fmt, ap) < 0)
		w->nomem = 1;
	else
		w->r->v[w->r->n - 1].remedy = remedy;
	va_end(ap);
}

/* The remedy of a problem of kind `fr`: in its text when the spec ends
 * such problems with it, else the verb's. */
static const char *
remedy_of(const struct flagspec *s, unsigned fr)
{
	return (s->remedy_on & fr) && s->remedy ? REMEDY_IN_TEXT : NULL;
}

/* "; run: <remedy>" when the spec ends problems of kind `fr` with it. */
static const char *
run_lead(const struct flagspec *s, unsigned fr)
{
	return (s->remedy_on & fr) && s->remedy ? "; run: " : "";
}

static const char *
run_tail(const struct flagspec *s, unsigned fr)
{
	return (s->remedy_on & fr) && s->remedy ? s->remedy : "";
}

/* ---- help words and booleans ------------------------------------------- */

int
flags_is_help(const char *s)
{
	return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0 ||
	    strcmp(s, "-help") == 0 || strcmp(s, "--h") == 0;
}

int
flags_help(int argc, char **argv, unsigned how)
{
	for (int i = 0; i < argc; i++) {
		if (!(how & FH_PAST_DD) && strcmp(argv[i], "--") == 0)
			break;
		if (flags_is_help(argv[i]))
			return 1;
		if (strcmp(argv[i], "help") == 0 &&
		    ((how & FH_WORD) || ((how & FH_WORD_FIRST) && i == 0)))
			return 1;
	}
	return 0;
}

int
flags_wants_help(int argc, char **argv)
{
	return flags_help(argc, argv, 0);
}

int
flags_parse_bool(const char *s, int *v)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true",
		"True", NULL };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false",
		"False", NULL };

	for (size_t i = 0; yes[i]; i++)
		if (strcmp(s, yes[i]) == 0)
			return *v = 1, 0;
	for (size_t i = 0; no[i]; i++)
		if (strcmp(s, no[i]) == 0)
			return *v = 0, 0;
	return -1;
}

/* ---- the nearest flag ---------------------------------------------------- */

size_t
flags_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (lb >= 63 || la >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
		}
	}
	return row[lb];
}

static int
listed(const struct flagspec *s, const struct flagdef *f)
{
	return (f->verbs & (s->lists ? s->lists : s->verb)) != 0;
}

const char *
flags_nearest(const struct flagspec *s, const char *name)
{
	const char *best = NULL;
	size_t bd = 3, d, n = strlen(name);

	for (size_t i = 0; s->near != FN_NONE && i < s->ndefs; i++) {
		if (!listed(s, &s->defs[i]))
			continue;
		if (s->near == FN_FIRST)
			return s->defs[i].name;
		d = flags_distance(name, s->defs[i].name);
		if (d < bd && d < n) {
			bd = d;
			best = s->defs[i].name;
		}
	}
	for (size_t i = 0; s->near == FN_EDIT_PREFIX && best == NULL && n >= 3 &&
	     i < s->ndefs; i++)
		if (listed(s, &s->defs[i]) &&
		    strncmp(s->defs[i].name, name, n) == 0)
			best = s->defs[i].name;
	return best;
}

/* ---- unknown and foreign flags ------------------------------------------ */

/* "; <list_lead> --a, --b" */
static void
add_list(const struct flagspec *s, struct sbuf *b)
{
	int k = 0;

	if (s->list_lead == NULL)
		return;
	sbuf_addf(b, "; %s", s->list_lead);
	for (size_t i = 0; i < s->ndefs; i++)
		if (listed(s, &s->defs[i]))
			sbuf_addf(b, "%s --%s", k++ ? "," : "", s->defs[i].name);
}

/* An unknown flag (`known` NULL), or with FF_UNKNOWN one of another verb. */
static void
unknown(struct walk *w, const char *word, const char *name, size_t n,
	const struct flagdef *known, int has_eq)
{
	const struct flagspec *s = w->s;
	struct sbuf b = {0};
	char *nm = str_ndup(name, n);
	const char *nr;

	/* its value, if it had one: one refusal, not two */
	if ((s->opts & FO_SKIP_VALUE) && !has_eq &&
	    (known == NULL || known->kind != FK_SWITCH) &&
	    w->i + 1 < w->argc && w->argv[w->i + 1][0] != '-')
		w->i++;
	if (nm == NULL) {
		w->nomem = 1;
		return;
	}
	if (known != NULL)
		sbuf_addf(&b, "--%s is not a flag of %s", nm, s->verbname);
	else if (s->opts & FO_SHOW_LONG)
		sbuf_addf(&b, "unknown flag --%s", nm);
	else
		sbuf_addf(&b, "unknown flag %.*s", (int)(name - word + n), word);
	add_list(s, &b);
	if (known == NULL && (nr = flags_nearest(s, nm)) != NULL)
		sbuf_addf(&b, "; did you mean --%s?", nr);
	sbuf_addf(&b, "%s%s", run_lead(s, FR_UNKNOWN), run_tail(s, FR_UNKNOWN));
	if (b.s == NULL)
		w->nomem = 1;
	else
		refuse(w, s->tok_unknown, remedy_of(s, FR_UNKNOWN), "%s", b.s);
	sbuf_free(&b);
	free(nm);
}

/* A flag of another verb whose value was taken and kept. */
static void
foreign(struct walk *w, const struct flagdef *f)
{
	const struct flagspec *s = w->s;
	struct strv *others;
	char shown[64];

	if (s->foreign == FF_REFUSE) {
		refuse(w, s->tok_unknown, remedy_of(s, FR_FOREIGN),
		       "--%s is not a flag of %s%s%s%s%s%s",
		       f->name, s->verbname, f->owner ? "; it is " : "",
		       f->owner ? f->owner : "", f->owner ? "'s" : "",
		       run_lead(s, FR_FOREIGN), run_tail(s, FR_FOREIGN));
		return;
	}
	others = (struct strv *)(void *)(w->out + s->others_off);
	snprintf(shown, sizeof(shown), "--%s", f->name);
	if (!strv_contains(others, shown) && strv_push(others, shown) < 0)
		w->nomem = 1;
}

int
flags_refuse_others(const struct flagspec *s, const struct strv *others,
		    const char *tok, struct refusals *r)
{
	char shown[64];

	for (size_t i = 0; i < s->ndefs; i++) {
		const struct flagdef *f = &s->defs[i];

		if (f->verbs & s->verb)
			continue;
		snprintf(shown, sizeof(shown), "--%s", f->name);
		if (strv_contains(others, shown) &&
		    refusals_addr(r, tok, remedy_of(s, FR_FOREIGN),
				  "%s is not a flag of %s; it is %s's%s%s",
				 shown, s->verbname, f->owner ? f->owner : "",
				 run_lead(s, FR_FOREIGN),
				 run_tail(s, FR_FOREIGN)) < 0)
			return -1;
	}
	return 0;
}

/* ---- known flags ------------------------------------------------------- */

/* A value problem of flag f: its text, then the caller's line fixed as
 * fix says (fix->flag NULL: "--<f>"). */
static void
refuse_fix(struct walk *w, const char *tok, const struct flagdef *f,
	   struct cmdfix fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void
refuse_fix(struct walk *w, const char *tok, const struct flagdef *f,
	   struct cmdfix fix, const char *fmt, ...)
{
	struct sbuf t = {0}, fl = {0};
	va_list ap;

	va_start(ap, fmt);
	if (sbuf_vaddf(&t, fmt, ap) < 0 || sbuf_addf(&fl, "--%s", f->name) < 0)
		w->nomem = 1;
	va_end(ap);
	fix.flag = fl.s;
	if (!w->nomem && remedy_refuse(w->r, tok, REMEDY_IN_TEXT, w->s->line,
				       &fix, "%s", t.s) < 0)
		w->nomem = 1;
	sbuf_free(&t);
	sbuf_free(&fl);
}

/* The form a missing value of f is shown as: "<dir>" from the help's
 * back-quoted `dir`, else "<value>". */
static void
form_of(const struct flagdef *f, char *buf, size_t n)
{
	const char *a = f->help ? strchr(f->help, '`') : NULL;
	const char *b = a ? strchr(a + 1, '`') : NULL;

	if (b != NULL && b > a + 1 && (size_t)(b - a) + 2 <= n)
		snprintf(buf, n, "<%.*s>", (int)(b - a - 1), a + 1);
	else
		snprintf(buf, n, "<value>");
}

static const char *
value_of(struct walk *w, const struct flagdef *f, const char *eq)
{
	char form[64];

	if (eq != NULL)
		return eq + 1;
	if (w->i + 1 < w->argc && (!(w->s->opts & FO_VALUE_NOT_DD) ||
				   strcmp(w->argv[w->i + 1], "--") != 0))
		return w->argv[++w->i];
	form_of(f, form, sizeof(form));
	refuse_fix(w, w->s->tok_value, f,
		   (struct cmdfix){ NULL, NULL, form, NULL, 1 },
		   "--%s wants a value", f->name);
	return NULL;
}

/* A switch's value: 0 or 1, or -1 refused. */
static int
switch_of(struct walk *w, const struct flagdef *f, const char *eq)
{
	const struct flagspec *s = w->s;
	int v = 1;

	if (eq == NULL)
		return 1;
	if (s->opts & FO_LAX_BOOL)
		return strcmp(eq + 1, "true") == 0 || strcmp(eq + 1, "1") == 0;
	if (flags_parse_bool(eq + 1, &v) == 0)
		return v;
	if (s->line != NULL)
		refuse_fix(w, s->tok_value, f, (struct cmdfix){ NULL, eq + 1,
			   "<true|false>", NULL, 0 },
			   "--%s wants true or false, got %s", f->name, eq + 1);
	else
		refuse(w, s->tok_value, REMEDY_IN_TEXT,
		       "--%s wants true or false, got %s%s%s", f->name, eq + 1,
		       run_lead(s, FR_BOOL), run_tail(s, FR_BOOL));
	return -1;
}

static void
store(struct walk *w, const struct flagdef *f, const char *v, int sw)
{
	char *at = w->out + f->off;
	const char *old;

	if (f->kind == FK_SWITCH) {
		memcpy(at, &sw, sizeof(sw));
	} else if (f->kind == FK_LIST) {
		if (strv_push((struct strv *)(void *)at, v) < 0)
			w->nomem = 1;
	} else {
		memcpy(&old, at, sizeof(old));
		/* both values named: the caller picks one (issue 29); a
		 * flag problem, so the verb's unknown-flag token */
		if (old != NULL && (w->s->opts & FO_ONCE) && w->s->line)
			refuse_fix(w, w->s->tok_unknown, f, (struct cmdfix){
				   NULL, v, NULL, NULL, 0 }, "--%s is given "
				   "twice (%s, then %s); name it once",
				   f->name, old, v);
		else if (old != NULL && (w->s->opts & FO_ONCE))
			refuse(w, w->s->tok_unknown, NULL, "--%s is given twice "
			       "(%s, then %s); name it once", f->name, old, v);
		else
			memcpy(at, &v, sizeof(v));
	}
}

static void
known(struct walk *w, const struct flagdef *f, const char *eq, int mine)
{
	const char *v = NULL;
	int sw = 0, rc;

	if (f->kind == FK_SWITCH) {
		if ((sw = switch_of(w, f, eq)) < 0)
			return;
	} else if ((v = value_of(w, f, eq)) == NULL) {
		return;
	}
	if (v != NULL && w->s->check != NULL &&
	    (rc = w->s->check(w->s, f, v, w->r)) != 0) {
		if (rc < 0)
			w->nomem = 1;
		return;
	}
	if (mine)
		store(w, f, v, sw);
	else
		foreign(w, f);
}

static const struct flagdef *
lookup(const struct flagspec *s, const char *name, size_t n)
{
	for (size_t i = 0; i < s->ndefs; i++)
		if (strlen(s->defs[i].name) == n &&
		    strncmp(s->defs[i].name, name, n) == 0)
			return &s->defs[i];
	return NULL;
}

static void
flag_word(struct walk *w, const char *word)
{
	const struct flagspec *s = w->s;
	size_t dashes = word[1] == '-' ? 2 : 1, n;
	const char *name = word + dashes;
	const char *eq = (s->opts & FO_NO_EQ) ? NULL : strchr(name, '=');
	const struct flagdef *f;
	int mine;

	n = eq ? (size_t)(eq - name) : strlen(name);
	f = lookup(s, name, n);
	if (f != NULL && dashes == 1 && (s->single == FS_NONE ||
	    (s->single == FS_SWITCH && f->kind != FK_SWITCH)))
		f = NULL;
	mine = f != NULL && (f->verbs & s->verb) != 0;
	if (f == NULL || (!mine && s->foreign == FF_UNKNOWN))
		unknown(w, word, name, n, f, eq != NULL);
	else
		known(w, f, eq, mine);
}

static void
rest(struct walk *w)
{
	const struct flagspec *s = w->s;
	int one = 1;

	memcpy(w->out + s->saw_off, &one, sizeof(one));
	for (int j = w->i + 1; j < w->argc; j++)
		if (strv_push((struct strv *)(void *)(w->out + s->argv_off),
			      w->argv[j]) < 0)
			w->nomem = 1;
}

int
flags_parse(const struct flagspec *s, int argc, char **argv, void *out,
	    struct refusals *r)
{
	struct walk w = { s, argc, argv, 0, out, r, 0 };
	size_t before = r->n;
	const char *word;

	for (; w.i < argc && !w.nomem; w.i++) {
		word = argv[w.i];
		if ((s->opts & FO_DASHDASH) && strcmp(word, "--") == 0) {
			rest(&w);
			break;
		}
		if (word[0] == '-' &&
		    (word[1] != '\0' || (s->opts & FO_LONE_DASH)))
			flag_word(&w, word);
		else
			refuse(&w, s->tok_positional,
			       remedy_of(s, FR_POSITIONAL),
			       "unexpected argument %.*s%s%s",
			       s->word_max > 0 ? s->word_max : INT_MAX, word,
			       run_lead(s, FR_POSITIONAL),
			       run_tail(s, FR_POSITIONAL));
	}
	if (w.nomem)
		return -1;
	return r->n > before;
}
