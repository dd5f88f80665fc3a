/* args.c -- the one flag table and the parser every flag verb shares
 * (reference section 2 "Flags", sections 4 and 5 step 1). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wall/args.h"

#include "base/out.h"

#define ALL3 (ARGV_BARE | ARGV_POLICY | ARGV_PROBE)
#define BP (ARGV_BARE | ARGV_POLICY)
#define OFF(m) offsetof(struct args, m)

const struct flagdef args_flags[] = {
	{ "read", FK_LIST, ALL3, 0, NULL, OFF(reads),
	  "a `dir` the command may read and execute (repeatable)" },
	{ "read-noexec", FK_LIST, ALL3, 0, NULL, OFF(reads_noexec),
	  "a `dir` the command may read but never execute from (repeatable)" },
	{ "write", FK_LIST, ALL3, 0, NULL, OFF(writes),
	  "a `dir` the command may read, write and delete in (repeatable; "
	  "required; the first holds the temp dir)" },
	{ "net-deny", FK_SWITCH, ALL3, 0, NULL, OFF(net_deny),
	  "no IP networking at all (refused where it cannot be kept)" },
	{ "net-listen", FK_SWITCH, ALL3, 0, NULL, OFF(net_listen),
	  "the command may listen (never with --net-deny)" },
	{ "net-allow", FK_LIST, BP, 0, NULL, OFF(net_allow),
	  "a loopback `host:port` the command may reach (repeatable; "
	  "grants nothing on linux)" },
	{ "cwd", FK_VALUE, BP, 0, NULL, OFF(cwd),
	  "the working `dir`, inside a --write (default: the first --write)" },
	{ "tmp", FK_VALUE, BP, 0, NULL, OFF(tmp),
	  "the temp `dir`, inside a --write (default: "
	  "<first --write>/.nova-sandbox-tmp, created)" },
	{ "name", FK_VALUE, BP, 0, NULL, OFF(name),
	  "a `container` name (accepted and ignored off windows)" },
	{ "acl", FK_VALUE, ARGV_BARE, ARGV_POLICY, "the bare form", OFF(acl),
	  "`tool|caller` whose ACL applies (accepted and ignored here)" },
	{ "gpu", FK_VALUE, ALL3, 0, NULL, OFF(gpu),
	  "the GPU `mode`: none or metal (default none)" },
	{ "status-fd", FK_VALUE, ARGV_BARE, 0, "the bare form", OFF(status_fd),
	  "a descriptor `n` (3 or above, open for writing) that carries the "
	  "tool's SANDBOX lines instead of stderr; the command never holds "
	  "it" },
	{ "secret", FK_VALUE, ARGV_PROBE, ARGV_POLICY, "probe", OFF(secret),
	  "a file `path` outside both lists the wall must keep unreadable" },
	{ "max", FK_VALUE, ARGV_PROBE, ARGV_POLICY, "probe", OFF(max),
	  "a non-negative integer `n` (accepted and unused)" },
	{ "json", FK_SWITCH, ARGV_CHECK | ARGV_POLICY | ARGV_PROBE, 0,
	  "check, policy and probe", OFF(json),
	  "print one JSON object on stdout instead of lines" },
};
const size_t args_nflags = sizeof(args_flags) / sizeof(args_flags[0]);

struct pstate {
	unsigned verb;
	int argc;
	char **argv;
	int i;
	struct args *a;
	struct refusals *r;
	int nomem;
};

static const char *
verb_token(unsigned verb)
{
	return verb == ARGV_PROBE ? REASON_CHECK :
	    verb == ARGV_POLICY ? REASON_NO_COMMAND : REASON_BAD_FLAG;
}

static const char *
verb_remedy(unsigned verb)
{
	switch (verb) {
	case ARGV_POLICY:
		return "nova-sandbox help policy";
	case ARGV_PROBE:
		return "nova-sandbox help probe";
	case ARGV_CHECK:
		return "nova-sandbox help check";
	default:
		return "nova-sandbox help";
	}
}

static void refuse(struct pstate *ps, const char *tok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
refuse(struct pstate *ps, const char *tok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (refusals_vadd(ps->r, tok, fmt, ap) < 0)
		ps->nomem = 1;
	else /* every refusal of the flag parser says its own remedy */
		ps->r->v[ps->r->n - 1].remedy = REMEDY_IN_TEXT;
	va_end(ap);
}

int
args_is_help(const char *s)
{
	return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0 ||
	    strcmp(s, "-help") == 0 || strcmp(s, "--h") == 0;
}

int
args_wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (args_is_help(argv[i]))
			return 1;
	return 0;
}

int
args_parse_bool(const char *s, int *v)
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

static size_t
lev(const char *a, const char *b)
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

size_t
args_distance(const char *a, const char *b)
{
	return lev(a, b);
}

static int
listed(unsigned verb, const struct flagdef *f)
{
	/* the bare form lists every flag it knows, its own and the three of
	 * other verbs it names (secret, max, json) */
	return verb == ARGV_BARE || (f->verbs & verb) != 0;
}

const char *
args_nearest(unsigned verb, const char *name)
{
	const char *best = NULL;
	size_t bd = 3, d, n = strlen(name);

	for (size_t i = 0; i < args_nflags; i++) {
		if (!listed(verb, &args_flags[i]))
			continue;
		d = lev(name, args_flags[i].name);
		if (d < bd && d < n) {
			bd = d;
			best = args_flags[i].name;
		}
	}
	for (size_t i = 0; best == NULL && n >= 3 && i < args_nflags; i++)
		if (listed(verb, &args_flags[i]) &&
		    strncmp(args_flags[i].name, name, n) == 0)
			best = args_flags[i].name;
	return best;
}

static char *
flag_list(unsigned verb)
{
	struct sbuf b = {0};

	for (size_t i = 0; i < args_nflags; i++) {
		if (!listed(verb, &args_flags[i]))
			continue;
		if (b.len && sbuf_add(&b, ", ") < 0)
			break;
		sbuf_addf(&b, "--%s", args_flags[i].name);
	}
	return sbuf_take(&b);
}

static const struct flagdef *
lookup(const char *name, size_t n)
{
	for (size_t i = 0; i < args_nflags; i++)
		if (strlen(args_flags[i].name) == n &&
		    strncmp(args_flags[i].name, name, n) == 0)
			return &args_flags[i];
	return NULL;
}

static void
unknown_flag(struct pstate *ps, const char *w, size_t dashes, size_t n,
	     int has_eq)
{
	struct sbuf b = {0};
	char *shown = strndup(w, dashes + n), *list, *near;
	const char *nr;

	if (!has_eq && ps->i + 1 < ps->argc && ps->argv[ps->i + 1][0] != '-')
		ps->i++; /* its value, if it had one: one refusal, not two */
	if (shown == NULL || (near = strndup(w + dashes, n)) == NULL) {
		free(shown);
		ps->nomem = 1;
		return;
	}
	sbuf_addf(&b, "unknown flag %s", shown);
	if (ps->verb == ARGV_BARE && (list = flag_list(ps->verb)) != NULL) {
		sbuf_addf(&b, "; the flags are %s", list);
		free(list);
	}
	if ((nr = args_nearest(ps->verb, near)) != NULL)
		sbuf_addf(&b, "; did you mean --%s?", nr);
	sbuf_addf(&b, "; run: %s", verb_remedy(ps->verb));
	refuse(ps, verb_token(ps->verb), "%s", b.s ? b.s : "");
	sbuf_free(&b);
	free(shown);
	free(near);
}

static const char *
take_value(struct pstate *ps, const struct flagdef *f, const char *eq)
{
	if (eq != NULL)
		return eq + 1;
	if (ps->i + 1 < ps->argc && strcmp(ps->argv[ps->i + 1], "--") != 0)
		return ps->argv[++ps->i];
	refuse(ps, ps->verb == ARGV_PROBE ? REASON_CHECK : REASON_NO_COMMAND,
	       "--%s wants a value", f->name);
	return NULL;
}

static int
check_value(struct pstate *ps, const struct flagdef *f, const char *v)
{
	unsigned long long n;
	const char *tok = ps->verb == ARGV_PROBE ? REASON_CHECK : REASON_NO_COMMAND;
	const char *why;
	int fd;

	if (strcmp(f->name, "max") == 0 && parse_u64(v, ~0ULL, &n) != 0) {
		refuse(ps, tok, "--max wants a non-negative integer, got %s",
		       v);
		return -1;
	}
	if (strcmp(f->name, "status-fd") == 0 && ps->verb == ARGV_BARE &&
	    out_status_check(v, &fd, &why) != 0) {
		refuse(ps, REASON_BAD_STATUS_FD, OUT_STATUS_WANTS "%s%s", v, why);
		return -1;
	}
	if (strcmp(f->name, "acl") == 0 && ps->verb == ARGV_BARE &&
	    strcmp(v, "tool") != 0 && strcmp(v, "caller") != 0) {
		refuse(ps, tok, "--acl wants tool or caller, got %s", v);
		return -1;
	}
	return 0;
}

static int
switch_value(struct pstate *ps, const struct flagdef *f, const char *eq)
{
	int v = 1;

	if (eq != NULL && args_parse_bool(eq + 1, &v) != 0) {
		refuse(ps, ps->verb == ARGV_PROBE ? REASON_CHECK : REASON_NO_COMMAND,
		       "--%s wants true or false, got %s; run: %s",
		       f->name, eq + 1, verb_remedy(ps->verb));
		return -1;
	}
	return v;
}

static void
store(struct pstate *ps, const struct flagdef *f, const char *v, int sw)
{
	char *base = (char *)ps->a + f->off;

	if (f->kind == FK_SWITCH)
		*(int *)(void *)base = sw;
	else if (f->kind == FK_VALUE)
		*(const char **)(void *)base = v;
	else if (strv_push((struct strv *)(void *)base, v) < 0)
		ps->nomem = 1;
}

static void
foreign(struct pstate *ps, const struct flagdef *f)
{
	char shown[32];

	snprintf(shown, sizeof(shown), "--%s", f->name);
	if (ps->verb == ARGV_PROBE) {
		refuse(ps, REASON_CHECK, "%s is not a flag of probe; it is %s's; "
		       "run: nova-sandbox help probe",
		       shown, f->owner ? f->owner : "the bare form");
		return;
	}
	if (!strv_contains(&ps->a->others, shown) &&
	    strv_push(&ps->a->others, shown) < 0)
		ps->nomem = 1;
}

static void
known_flag(struct pstate *ps, const struct flagdef *f, const char *eq)
{
	const char *v = NULL;
	int sw = 0;

	if (f->kind == FK_SWITCH) {
		if ((sw = switch_value(ps, f, eq)) < 0)
			return;
	} else if ((v = take_value(ps, f, eq)) == NULL ||
		   check_value(ps, f, v) != 0) {
		return;
	}
	if (f->verbs & ps->verb)
		store(ps, f, v, sw);
	else
		foreign(ps, f);
}

static void
flag_word(struct pstate *ps, const char *w)
{
	size_t dashes = w[1] == '-' ? 2 : 1, n;
	const char *name = w + dashes, *eq = strchr(name, '=');
	const struct flagdef *f;

	n = eq ? (size_t)(eq - name) : strlen(name);
	f = lookup(name, n);
	if (f == NULL || (dashes == 1 && f->kind != FK_SWITCH))
		unknown_flag(ps, w, dashes, n, eq != NULL);
	else
		known_flag(ps, f, eq);
}

static void
bare_tail(struct pstate *ps)
{
	if (!ps->a->saw_dashdash)
		refuse(ps, REASON_NO_COMMAND, "no -- before the command: the form "
		       "is nova-sandbox --write <dir> -- <command> <args...>; "
		       "run: nova-sandbox help");
	for (size_t i = 0; i < args_nflags; i++) {
		char shown[32];

		if (args_flags[i].verbs & ARGV_BARE)
			continue;
		snprintf(shown, sizeof(shown), "--%s", args_flags[i].name);
		if (strv_contains(&ps->a->others, shown))
			refuse(ps, REASON_NO_COMMAND, "%s is not a flag of the bare "
			       "form; it is %s's; run: nova-sandbox help",
			       shown, args_flags[i].owner);
	}
}

int
args_parse(unsigned verb, int argc, char **argv, struct args *a,
	   struct refusals *r)
{
	struct pstate ps = { verb, argc, argv, 0, a, r, 0 };
	size_t before = r->n;
	const char *w;

	for (; ps.i < argc && !ps.nomem; ps.i++) {
		w = argv[ps.i];
		if (strcmp(w, "--") == 0) {
			a->saw_dashdash = 1;
			for (int j = ps.i + 1; j < argc; j++)
				if (strv_push(&a->argv, argv[j]) < 0)
					ps.nomem = 1;
			break;
		}
		if (w[0] == '-' && w[1] != '\0')
			flag_word(&ps, w);
		else
			refuse(&ps, verb == ARGV_PROBE ? REASON_CHECK :
			       verb == ARGV_CHECK ? REASON_BAD_FLAG : REASON_NO_COMMAND,
			       "unexpected argument %s; run: %s", w,
			       verb_remedy(verb));
	}
	if (verb == ARGV_BARE && !ps.nomem)
		bare_tail(&ps);
	if (ps.nomem)
		return -1;
	return r->n > before;
}

void
args_free(struct args *a)
{
	strv_free(&a->reads);
	strv_free(&a->reads_noexec);
	strv_free(&a->writes);
	strv_free(&a->net_allow);
	strv_free(&a->argv);
	strv_free(&a->others);
}
