/* SPDX-License-Identifier: MIT */
/* locate.c -- the locator: the line of a section or key iniparser accepted,
 * found by scanning the same bytes (not a second parser), and the two
 * things iniparser passes silently: a "[a:b]" header and a NUL byte
 * (cload.h). */
#include "conf/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "conf/cload.h"

/* ---- the locator ------------------------------------------------------ */

void
conf_trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static int
same_ci(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && strncasecmp(s, want, n) == 0;
}

/* One physical line: is it the header of `sec`?  Is it `key =`?  *cur
 * tracks whether the current section is `sec`. */
static int
line_matches(const char *s, size_t n, const char *sec, const char *key,
	     int *cur)
{
	const char *eq;

	conf_trim(&s, &n);
	if (n && s[0] == '[') {
		const char *end = memchr(s, ']', n);
		size_t k = end ? (size_t)(end - s - 1) : n - 1;

		s++;
		conf_trim(&s, &k);
		*cur = same_ci(s, k, sec);
		return *cur && key == NULL;
	}
	if (key == NULL || !*cur || n == 0 || s[0] == ';' || s[0] == '#')
		return 0;
	eq = memchr(s, '=', n);
	if (eq == NULL)
		return 0;
	n = (size_t)(eq - s);
	conf_trim(&s, &n);
	return same_ci(s, n, key);
}

/* The line of the nth (0-based) `[sec]` header (key NULL) or `key =` line
 * in [sec]; 0 when there is none.  Keys outside a section: sec "". */
unsigned
conf_locate(const struct cload *cl, const char *sec, const char *key,
       unsigned nth)
{
	const char *p = cl->text, *end = cl->text + cl->len;
	unsigned line = 0;
	int cur = sec[0] == '\0';

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		line++;
		if (line_matches(p, n, sec, key, &cur) && nth-- == 0)
			return line;
		p += n + 1;
	}
	return 0;
}

/* The name inside a `[...]` header line, as iniparser reads it (NULL
 * when the line is not a header). */
static const char *
header_name(const char *s, size_t n, size_t *len)
{
	const char *end;

	conf_trim(&s, &n);
	if (n < 2 || s[0] != '[' || s[n - 1] != ']')
		return NULL;
	end = memchr(s, ']', n);
	*len = (size_t)(end - s - 1);
	s++;
	conf_trim(&s, len);
	return s;
}

/* iniparser keeps "[a:b]" as the key "b" of [a], with no value: the
 * header would erase that key, and its own keys pose as options of [a].
 * Refuse each one; 1 when there was one (the rest cannot be trusted). */
int
check_colon_headers(struct cload *cl)
{
	const char *p = cl->text, *end = cl->text + cl->len;
	unsigned line = 0;
	int found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), k = 0;
		const char *name = header_name(p, n, &k);
		char *low;

		line++;
		p += n + 1;
		if (name == NULL || memchr(name, ':', k) == NULL)
			continue;
		found = 1;
		low = str_ndup(name, k);
		for (char *c = low; c != NULL && *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (low == NULL)
			cl->nomem = 1;
		else
			conf_bad(cl, line, "section [%s] has a ':'; a section name "
			    "is [nova-sandbox], a platform or a module's stem, "
			    "with no ':'", low);
		free(low);
	}
	return found;
}
