/* SPDX-License-Identifier: MIT */
/* envpol.h -- the caller's control of the command's environment (rule 9a
 * of docs/SPEC-SANDBOX.md): --env-clear, --env KEY[=VALUE] and
 * --env-deny PATTERN, and the names that look like credentials.  Pure:
 * no system call, never a value printed (only names). */
#ifndef NS_HOST_ENVPOL_H
#define NS_HOST_ENVPOL_H

#include <stddef.h>

#include "base/remedy.h"
#include "base/util.h"

/* Where the command's environment starts: the caller's whole one (the
 * bare wrap's default, run's --env-inherit), --env-clear's few names, or
 * run's default, the clean one (ENV_CLEAN_KEEPS).  The values of
 * env_opts.clear | clean for envpol_notes. */
enum env_start { ENV_INHERIT = 0, ENV_CLEAR = 1, ENV_CLEAN = 2 };

/* What the caller asked (pointers into the parsed flags). */
struct env_opts {
	int clear;                /* --env-clear */
	const struct strv *keep;  /* --env KEY or KEY=VALUE, in order */
	const struct strv *deny;  /* --env-deny PATTERN (str_glob), in order */
	int clean;                /* run's default: only ENV_CLEAN_KEEPS (and
				   * what the platform's programs need,
				   * os_env_system) pass; --env adds */
};

/* What the environment rules did, beside the environment itself. */
struct env_report {
	struct strv by_flag;      /* names dropped by --env-clear/--env-deny */
	struct strv creds_dropped;/* among them, the credential-looking ones */
	struct strv creds_passed; /* credential-looking names that pass in
				   * from the caller's environment */
	struct strv creds_set;    /* credential-looking names --env passes */
	struct strv unset_keep;   /* --env KEY not in the caller's env */
	struct strv dups;         /* names the caller's environment held more
				   * than once (only the first passes) */
	struct strv malformed;    /* entries that are no variable: no '=' or
				   * an empty name (dropped) */
};

/* The names --env-clear keeps (HOME and the temp variables besides). */
#define ENV_CLEAR_KEEPS "PATH HOME LANG TERM"
/* The names run's clean environment keeps (the temp variables besides). */
#define ENV_CLEAN_KEEPS "PATH HOME LANG LC_* TERM TZ"

/* Validate --env and --env-deny: every problem into r (reason bad_env),
 * naming the flag and the form, then the caller's `line` (NULL: none)
 * without that flag; a VALUE is never echoed.  0 clean, 1 refused, -1
 * ENOMEM. */
int envpol_check(const struct env_opts *o, const struct cmdline *line,
		 struct refusals *r);

/* Does the name e[0..n) look like a credential (*_TOKEN, *SECRET*, *_KEY,
 * AWS_*, *PASSWORD* ...)?  Case-insensitive. */
int envpol_cred(const char *e, size_t n);

/* Is the name e[0..n) one the wall sets (HOME is the home guard's, the
 * temp variables rule 8's)?  --env-deny and --env-clear never drop HOME. */
int envpol_tool_var(const char *e, size_t n);

/* Decide one caller variable e ("NAME=VALUE", name length n) under o:
 * 1 pass, 0 drop by a flag (*by: "--env-clear" or the pattern), 2 the
 * caller's value is replaced by a --env KEY=VALUE, 3 kept by --env KEY
 * whatever else would drop it. */
int envpol_decide(const struct env_opts *o, const char *e, size_t n,
		  const char **by);

/* The NOTEs of rule 9a, names only (never a value), each to note():
 * what --env-clear/--env-deny (or run's clean start, when it dropped
 * any) dropped and the credential-looking names among them; the
 * credential-looking names that pass in, with the flag that would drop
 * them; those --env passes; --env KEY not set.  `clear` (an enum
 * env_start) and `ndeny` say which flags were given.  0, or -1 on
 * ENOMEM. */
int envpol_notes(const struct env_report *rep, int clear, size_t ndeny,
		 void (*note)(const char *text));

void env_report_free(struct env_report *rep);

#endif
