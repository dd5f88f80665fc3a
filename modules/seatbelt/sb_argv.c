/* SPDX-License-Identifier: MIT */
/* sb_argv.c -- the sandbox-exec command line and what its own failures
 * mean.
 *
 *   <tool> -p <profile> -D NAME=value ... -- <command> <args...>
 *
 * The tool is an absolute path (never looked up on PATH); the command is
 * the host's resolved absolute path, argv[0] as the user typed it is not
 * kept (sandbox-exec execs its argument vector as given: the command's
 * argv[0] is the resolved path, the form every helper wall has). */
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "sb.h"

static char *
dparam(const struct sb_param *q)
{
	size_t a = strlen(q->name), b = strlen(q->value);
	char *s = malloc(a + b + 2);

	if (s == NULL)
		return NULL;
	memcpy(s, q->name, a);
	s[a] = '=';
	memcpy(s + a + 1, q->value, b + 1);
	return s;
}

char **
sb_argv(const char *tool, const struct sb_prof *p, const char *command,
	const char *const *argv)
{
	size_t na = 0, i = 0;
	char **v;

	while (argv != NULL && argv[na] != NULL)
		na++;
	v = calloc(3 + 2 * p->n + 2 + na + 1, sizeof(*v));
	if (v == NULL)
		return NULL;
	v[i++] = (char *)tool;
	v[i++] = (char *)"-p";
	v[i++] = p->text;
	for (size_t k = 0; k < p->n; k++) {
		v[i++] = (char *)"-D";
		if ((v[i++] = dparam(&p->params[k])) == NULL) {
			sb_argv_free(v);
			return NULL;
		}
	}
	v[i++] = (char *)"--";
	v[i++] = (char *)command;
	for (size_t k = 1; k < na; k++)
		v[i++] = (char *)argv[k];
	v[i] = NULL;
	return v;
}

/* The "N=v" strings sit at 4, 6, ... up to "--". */
void
sb_argv_free(char **v)
{
	if (v == NULL)
		return;
	for (size_t i = 3; v[i] != NULL && strcmp(v[i], "-D") == 0; i += 2)
		free(v[i + 1]);
	free(v);
}

enum sb_fail
sb_fail_of(int status, const char *err)
{
	int own = err != NULL && strstr(err, "sandbox-exec:") != NULL;

	if (status == 0)
		return SB_FAIL_NONE;
	if (status == 65 && own)
		return SB_FAIL_SYNTAX;
	if (status == 71 && own &&
	    (strstr(err, "forbidden-sandbox-reinit") != NULL ||
	     strstr(err, "sandbox_apply: Operation not permitted") != NULL))
		return SB_FAIL_NESTED;
	if (status == 71 && own)
		return SB_FAIL_APPLY;
	return SB_FAIL_OTHER;
}

const char *
sb_fail_reason(enum sb_fail f)
{
	return f == SB_FAIL_NESTED ? "nested_sandbox" : "sandbox_failed";
}

const char *
sb_fail_text(enum sb_fail f)
{
	switch (f) {
	case SB_FAIL_SYNTAX:
		return "sandbox-exec did not compile the generated profile "
		       "(exit 65): a bug in seatbelt.dylib or a macOS that "
		       "reads SBPL differently; `nova-sandbox policy` prints it";
	case SB_FAIL_APPLY:
		return "sandbox-exec could not apply the profile (exit 71, "
		       "sandbox_apply)";
	case SB_FAIL_NESTED:
		return "nova-sandbox runs inside another seatbelt sandbox and "
		       "macOS forbids a second one (sandbox_apply: Operation "
		       "not permitted); run it outside the other sandbox, or "
		       "tell the outer tool to run it unsandboxed";
	case SB_FAIL_OTHER:
		return "sandbox-exec failed before the command started";
	default:
		return "sandbox-exec: no failure";
	}
}
