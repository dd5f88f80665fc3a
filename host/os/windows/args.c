/* SPDX-License-Identifier: MIT */
/* args.c -- Windows: the arguments and the environment in UTF-8 (os/os.h
 * os_main_args, os_getenv).  The C runtime gives main() its argv and
 * environ in the ANSI code page, where a "ü" of another code page, any
 * CJK name or an emoji becomes '?' or is lost; the host speaks UTF-8 (its
 * paths reach Win32 as UTF-16 through wpath.c).  So the entry takes the
 * runtime's wide argv and environment -- __wgetmainargs, the very parse
 * the narrow argv came from (and a -municode program's), no wildcard
 * expansion -- and converts each to UTF-8, refusing (never replacing) a
 * string that holds UTF-16 which is no text: an unpaired surrogate. */
#include "os/os.h"

#include <windows.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* msvcrt.dll's (and mingw-w64's UCRT shim's) entry helper; mingw-w64
 * declares it only in its CRT's internal header. */
typedef struct {
	int newmode;
} ns_startupinfo;
extern int __cdecl __wgetmainargs(int *argc, wchar_t ***argv,
				  wchar_t ***env, int glob,
				  ns_startupinfo *si);

static char **utf8_env; /* what os_main_args gave, for os_getenv */

/* w as UTF-8 (heap), or NULL: not text (an unpaired surrogate) or out of
 * memory (*oom set). */
static char *
to_utf8(const wchar_t *w, int *oom)
{
	int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, NULL,
				    0, NULL, NULL);
	char *s;

	if (n <= 0)
		return NULL;
	s = malloc((size_t)n);
	if (s == NULL) {
		*oom = 1;
		return NULL;
	}
	if (WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, s, n, NULL,
				NULL) != n) {
		free(s);
		return NULL;
	}
	return s;
}

/* The name of the environment entry w ("NAME=value"; a name may start
 * with '=') when it is text, else NULL. */
static char *
env_name(const wchar_t *w, int *oom)
{
	const wchar_t *eq = wcschr(w + (w[0] == L'='), L'=');
	size_t n = eq != NULL ? (size_t)(eq - w) : wcslen(w);
	wchar_t *copy = malloc((n + 1) * sizeof(wchar_t));
	char *s;

	if (copy == NULL) {
		*oom = 1;
		return NULL;
	}
	memcpy(copy, w, n * sizeof(wchar_t));
	copy[n] = L'\0';
	s = to_utf8(copy, oom);
	free(copy);
	return s;
}

/* The whole NULL-terminated vector w as UTF-8 into *out; each entry that
 * is not text is named in bad ("argument 3", "the environment variable
 * NAME"): 0, -1 some were not text, -2 out of memory. */
static int
convert(wchar_t **w, int is_env, char ***out, struct strv *bad)
{
	size_t n = 0;
	char **v;
	int rc = 0, oom = 0;

	while (w != NULL && w[n] != NULL)
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL)
		return -2;
	for (size_t i = 0; i < n && !oom; i++) {
		char *name;

		if ((v[i] = to_utf8(w[i], &oom)) != NULL || oom)
			continue;
		rc = -1;
		if (!is_env) {
			strv_pushf(bad, "argument %lu", (unsigned long)i);
			continue;
		}
		name = env_name(w[i], &oom);
		if (name != NULL)
			strv_pushf(bad, "the environment variable %s", name);
		else
			strv_push(bad, "an environment variable whose name is "
				  "not text either");
		free(name);
	}
	if (oom || strv_failed(bad)) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return -2;
	}
	*out = v; /* the entries not text are left out: never used */
	return rc;
}

/* The runtime's wide argv and environment (the same vectors every call). */
static int
wide_args(int *argc, wchar_t ***argv, wchar_t ***env)
{
	ns_startupinfo si = { 0 };

	*argv = NULL;
	*env = NULL;
	return __wgetmainargs(argc, argv, env, 0, &si) < 0 || *argv == NULL ?
		       -1 : 0;
}

int
os_main_args(int *argc, char ***argv, char ***envp, char **why)
{
	wchar_t **wargv, **wenv;
	struct strv bad = { 0 };
	struct sbuf list = { 0 };
	char **a = NULL, **e = NULL;
	int wargc = 0, ra, re;

	*why = NULL;
	if (wide_args(&wargc, &wargv, &wenv) != 0) {
		*why = str_fmt("the C runtime gave no wide command line "
			       "(__wgetmainargs failed)");
		return -1;
	}
	ra = convert(wargv, 0, &a, &bad);
	re = ra == -2 ? -2 : convert(wenv, 1, &e, &bad);
	if (ra == 0 && re == 0) {
		*argc = wargc;
		*argv = a;
		*envp = utf8_env = e;
		return 0;
	}
	/* "a", "a and b", "a, b and c" */
	for (size_t i = 0; i < bad.n; i++)
		sbuf_addf(&list, "%s%s", i == 0 ? "" : i + 1 == bad.n ?
			  " and " : ", ", bad.v[i]);
	if (ra != -2 && re != -2 && !sbuf_failed(&list))
		*why = str_fmt("%s %s UTF-16 that is no text (an unpaired "
			       "surrogate), which has no UTF-8 form: refused, "
			       "never replaced%s; give %s as text",
			       sbuf_str(&list), bad.n > 1 ? "hold" : "holds",
			       ra == -1 ? " (argument 0 is the program, 1 the "
					  "first word after it)" : "",
			       bad.n > 1 ? "them" : "it");
	/* (the vectors are left: the caller refuses and exits) */
	strv_free(&bad);
	sbuf_free(&list);
	return -1;
}

const char *
os_getenv(const char *name)
{
	static char **crt;
	static int done;

	if (utf8_env != NULL)
		return os_env_get(utf8_env, name);
	/* not from the host's main() (a test program of this layer): the
	 * runtime's wide environment, each entry that is text */
	if (!done) {
		wchar_t **wargv, **wenv;
		int wargc = 0, oom = 0;
		size_t n = 0, k = 0;

		done = 1;
		if (wide_args(&wargc, &wargv, &wenv) != 0)
			return NULL;
		while (wenv != NULL && wenv[n] != NULL)
			n++;
		if ((crt = calloc(n + 1, sizeof(*crt))) == NULL)
			return NULL;
		for (size_t i = 0; i < n && !oom; i++)
			if ((crt[k] = to_utf8(wenv[i], &oom)) != NULL)
				k++;
	}
	return os_env_get(crt, name);
}
