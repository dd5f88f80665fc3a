/* SPDX-License-Identifier: MIT */
/* envpol.c -- --env-clear, --env and --env-deny, and the credential-
 * looking names (envpol.h; docs/SPEC-SANDBOX.md rule 9a). */
#include "policy/envpol.h"

#include <ctype.h>
#include <string.h>

#include "os/os.h"

/* Credential-looking names: shell patterns (str_glob) on the upper-cased
 * name. */
static const char *const cred_patterns[] = {
	"*_TOKEN", "*_TOKEN_*", "TOKEN", "*SECRET*", "*_KEY", "*_KEY_ID",
	"*APIKEY*", "*API_KEY*", "AWS_*", "*PASSWORD*", "*PASSWD*", "*_PASS",
	"*_PAT", "*CREDENTIAL*", "*_AUTH", "*_AUTH_TOKEN*", "*PRIVATE_KEY*",
	"*_COOKIE", "*SESSION_KEY*",
};

/* Names of the credential-looking shapes that are clearly no secret: a
 * certificate authority's or a certificate's path, a public key, and
 * AWS's region, profile, config file, output and pager (AWS_* above
 * names the rest of AWS's variables).  Not said, unless the name also
 * holds a word of secret_words. */
static const char *const not_secret[] = {
	"*_CA_BUNDLE", "*_CA_CERTS", "*_CA_FILE", "*_CA_PATH", "*_CERT_FILE",
	"*_CERT_DIR", "*_PUBLIC_KEY", "AWS_REGION", "AWS_DEFAULT_REGION",
	"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE",
	"AWS_DEFAULT_OUTPUT", "AWS_PAGER",
};

/* A name holding one of these is said whatever its shape. */
static const char *const secret_words[] = {
	"*SECRET*", "*PASSWORD*", "*PASSWD*", "*TOKEN*", "*PRIVATE*",
	"*APIKEY*", "*API_KEY*", "*CREDENTIAL*",
};

/* What --env-clear keeps besides HOME and the temp variables. */
static const char *const clear_keeps[] = { "PATH", "HOME", "LANG", "TERM" };

/* What run's clean environment keeps besides the temp variables, and
 * every LC_* (ENV_CLEAN_KEEPS); on top, what a program needs on this
 * platform (os_env_system: nothing on POSIX). */
static const char *const clean_keeps[] = { "PATH", "HOME", "LANG", "TERM",
					   "TZ" };

static const char *const tool_vars[] = {
	"HOME", "TMPDIR", "TMP", "TEMP", "TMPPREFIX",
};

static int
name_in(const char *e, size_t n, const char *const *set, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (strlen(set[i]) == n && strncmp(e, set[i], n) == 0)
			return 1;
	return 0;
}

int
envpol_tool_var(const char *e, size_t n)
{
	return name_in(e, n, tool_vars, sizeof(tool_vars) / sizeof(*tool_vars));
}

/* The name e[0..n) into buf (NUL-terminated), upper-cased when up: 0, or
 * -1 when it does not fit (such a name matches no pattern). */
static int
name_copy(const char *e, size_t n, int up, char *buf, size_t cap)
{
	if (n >= cap)
		return -1;
	for (size_t i = 0; i < n; i++)
		buf[i] = up ? (char)toupper((unsigned char)e[i]) : e[i];
	buf[n] = '\0';
	return 0;
}

static int
glob_any(const char *const *pats, size_t k, const char *up)
{
	for (size_t i = 0; i < k; i++)
		if (str_glob(pats[i], up))
			return 1;
	return 0;
}

int
envpol_cred(const char *e, size_t n)
{
	char up[256];

	if (name_copy(e, n, 1, up, sizeof(up)) != 0)
		return 1; /* an absurdly long name: said, never assumed safe */
	if (!glob_any(cred_patterns, sizeof(cred_patterns) /
		      sizeof(*cred_patterns), up))
		return 0;
	return !glob_any(not_secret, sizeof(not_secret) / sizeof(*not_secret),
			 up) ||
	       glob_any(secret_words, sizeof(secret_words) /
			sizeof(*secret_words), up);
}

/* A shell-style name: a letter or _, then letters, digits, _. */
static int
valid_name(const char *s, size_t n)
{
	if (n == 0 || n > 255 || (!isalpha((unsigned char)s[0]) && s[0] != '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

/* A pattern: 1-255 bytes, no '=', no control character. */
static int
valid_pattern(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 255 || strchr(s, '=') != NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (iscntrl((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
check_keep(const char *k, const struct cmdline *line, struct refusals *r)
{
	size_t n = strcspn(k, "=");
	struct cmdfix f = { "--env", k, NULL, NULL, 0 };

	if (!valid_name(k, n))
		return remedy_refuse(r, REASON_BAD_ENV, REMEDY_IN_TEXT, line, &f,
				     "--env wants KEY or KEY=VALUE, KEY a "
				     "letter or _ then letters, digits or _, "
				     "got the KEY \"%.*s\" (a VALUE is never "
				     "printed)", (int)(n > 64 ? 64 : n), k);
	if (envpol_tool_var(k, n))
		return remedy_refuse(r, REASON_BAD_ENV, REMEDY_IN_TEXT, line, &f,
				     "--env %.*s: HOME, TMPDIR, TMP, TEMP and "
				     "TMPPREFIX are the wall's (the home guard "
				     "and the temp directory); name --tmp <dir>, "
				     "or set HOME=<dir inside a --write> before "
				     "nova-sandbox", (int)n, k);
	return 0;
}

int
envpol_check(const struct env_opts *o, const struct cmdline *line,
	     struct refusals *r)
{
	size_t before = r->n;

	for (size_t i = 0; o->keep && i < o->keep->n; i++)
		if (check_keep(o->keep->v[i], line, r) < 0)
			return -1;
	for (size_t i = 0; o->deny && i < o->deny->n; i++)
		if (!valid_pattern(o->deny->v[i]) &&
		    remedy_refuse(r, REASON_BAD_ENV, REMEDY_IN_TEXT, line,
				  &(struct cmdfix){ "--env-deny", o->deny->v[i],
						    NULL, NULL, 0 },
				  "--env-deny wants a name PATTERN (a shell "
				  "glob like 'AWS_*', 1-255 bytes, no '='), "
				  "got \"%s\"", strchr(o->deny->v[i], '=') ?
				  "<a word with '='>" : o->deny->v[i]) < 0)
			return -1;
	return r->n > before;
}

/* The last --env naming e[0..n): its index, or -1. */
static long
keep_index(const struct env_opts *o, const char *e, size_t n)
{
	long at = -1;

	for (size_t i = 0; o->keep && i < o->keep->n; i++) {
		const char *k = o->keep->v[i];
		size_t kn = strcspn(k, "=");

		if (kn == n && strncmp(k, e, n) == 0)
			at = (long)i;
	}
	return at;
}

/* Does the name e[0..n) equal `name` as this platform compares
 * variable names (os_env_get: Windows ignores case)? */
static int
env_name_is(const char *e, size_t n, const char *name)
{
	char entry[258];
	char *one[2] = { entry, NULL };

	if (n + 2 > sizeof(entry))
		return 0;
	memcpy(entry, e, n);
	entry[n] = '=';
	entry[n + 1] = '\0';
	return os_env_get(one, name) != NULL;
}

/* Does run's clean environment keep the name e[0..n)? */
static int
clean_keeps_name(const char *e, size_t n)
{
	if (n > 3 && strncmp(e, "LC_", 3) == 0)
		return 1;
	for (size_t i = 0; i < sizeof(clean_keeps) / sizeof(*clean_keeps); i++)
		if (env_name_is(e, n, clean_keeps[i]))
			return 1;
	for (const char *const *s = os_env_system(); *s != NULL; s++)
		if (env_name_is(e, n, *s))
			return 1;
	return 0;
}

int
envpol_decide(const struct env_opts *o, const char *e, size_t n,
	      const char **by)
{
	char name[256];
	long k = keep_index(o, e, n);

	*by = NULL;
	if (k >= 0)
		return strchr(o->keep->v[k], '=') != NULL ? 2 : 3;
	if (envpol_tool_var(e, n))
		return 1;
	if (o->clear && !name_in(e, n, clear_keeps,
				 sizeof(clear_keeps) / sizeof(*clear_keeps))) {
		*by = "--env-clear";
		return 0;
	}
	if (o->clean && !o->clear && !clean_keeps_name(e, n)) {
		*by = "the clean environment";
		return 0;
	}
	if (name_copy(e, n, 0, name, sizeof(name)) != 0)
		return 1;
	for (size_t i = 0; o->deny && i < o->deny->n; i++)
		if (str_glob(o->deny->v[i], name)) {
			*by = o->deny->v[i];
			return 0;
		}
	return 1;
}

/* " A B C" */
static int
names(struct sbuf *b, const struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (sbuf_addf(b, " %s", l->v[i]) < 0)
			return -1;
	return 0;
}

static int
say(struct sbuf *b, void (*note)(const char *text))
{
	int rc = sbuf_failed(b) ? -1 : 0;

	if (rc == 0)
		note(b->s);
	sbuf_free(b);
	return rc;
}

static int
note_dropped(const struct env_report *rep, int clear, size_t ndeny,
	     void (*note)(const char *text))
{
	struct sbuf b = {0};

	sbuf_addf(&b, "%s%s%s dropped %zu variable(s) from the child's "
		  "environment", clear == ENV_CLEAN ? "the clean environment" :
		  clear ? "--env-clear" : "", clear && ndeny ? " and " : "",
		  ndeny ? "--env-deny" : "", rep->by_flag.n);
	if (rep->creds_dropped.n) {
		sbuf_add(&b, "; named like credentials, now absent inside:");
		names(&b, &rep->creds_dropped);
	}
	if (clear == ENV_CLEAN)
		sbuf_add(&b, " (--env KEY passes one, --env-inherit all)");
	return say(&b, note);
}

static int
note_passed(const struct env_report *rep, void (*note)(const char *text))
{
	struct sbuf b = {0};

	sbuf_add(&b, "named like credentials and passed in from your "
		 "environment:");
	names(&b, &rep->creds_passed);
	sbuf_add(&b, "; the command can read them; to drop them:");
	for (size_t i = 0; i < rep->creds_passed.n; i++)
		sbuf_addf(&b, " --env-deny %s", rep->creds_passed.v[i]);
	sbuf_add(&b, " (or --env-clear)");
	return say(&b, note);
}

int
envpol_notes(const struct env_report *rep, int clear, size_t ndeny,
	     void (*note)(const char *text))
{
	struct sbuf b = {0};

	if (clear == ENV_CLEAN && ndeny == 0 && rep->by_flag.n == 0)
		clear = ENV_INHERIT; /* a clean start that dropped nothing */
	if ((clear || ndeny) && note_dropped(rep, clear, ndeny, note) < 0)
		return -1;
	if (rep->creds_passed.n && note_passed(rep, note) < 0)
		return -1;
	if (rep->creds_set.n) {
		sbuf_add(&b, "named like credentials and passed in by --env:");
		names(&b, &rep->creds_set);
		sbuf_add(&b, "; the command can read them (leave out --env "
			 "<KEY> to keep one out)");
		if (say(&b, note) < 0)
			return -1;
	}
	if (rep->dups.n) {
		sbuf_add(&b, "your environment holds these names more than "
			 "once; only the first of each (the one the tool "
			 "checked) is considered, the later copies are "
			 "dropped:");
		names(&b, &rep->dups);
		if (say(&b, note) < 0)
			return -1;
	}
	if (rep->malformed.n) {
		sbuf_add(&b, "your environment holds entries that are no "
			 "variable (no '=' or an empty name), which getenv never "
			 "reads: dropped:");
		names(&b, &rep->malformed);
		if (say(&b, note) < 0)
			return -1;
	}
	if (rep->unset_keep.n) {
		sbuf_add(&b, "--env names variables your environment does not "
			 "hold, so nothing of them is passed:");
		names(&b, &rep->unset_keep);
		sbuf_add(&b, " (set one with --env KEY=VALUE)");
		if (say(&b, note) < 0)
			return -1;
	}
	return 0;
}

void
env_report_free(struct env_report *rep)
{
	strv_free(&rep->by_flag);
	strv_free(&rep->creds_dropped);
	strv_free(&rep->creds_passed);
	strv_free(&rep->creds_set);
	strv_free(&rep->unset_keep);
	strv_free(&rep->dups);
	strv_free(&rep->malformed);
}
