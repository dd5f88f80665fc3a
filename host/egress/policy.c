/* SPDX-License-Identifier: MIT */
/* policy.c -- the reviewed allowlist file and the shapes of the
 * egress flags (docs/SPEC-SANDBOX.md "Egress", policy grammar). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "egress/allowlist.h"

const char *const egress_base_names[] = { "github.com", "api.github.com",
	"objects.githubusercontent.com", NULL };

static int
label_ok(const char *s, size_t n, int last)
{
	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return !last || islower((unsigned char)s[0]);
}

int
egress_name_ok(const char *s)
{
	size_t n = strlen(s), labels = 0;
	const char *p = s, *dot;

	if (n == 0 || n > 253)
		return 0;
	for (;;) {
		dot = strchr(p, '.');
		if (!label_ok(p, dot ? (size_t)(dot - p) : strlen(p),
			      dot == NULL))
			return 0;
		labels++;
		if (dot == NULL)
			break;
		p = dot + 1;
	}
	return labels >= 2;
}

static int
only(const char *s, size_t lo, size_t hi, const char *set)
{
	size_t n = strlen(s);

	return n >= lo && n <= hi && strspn(s, set) == n;
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

int
egress_run_ok(const char *s)
{
	return s != NULL && only(s, 1, EGRESS_RUN_MAX, ALNUM "_");
}

int
egress_veth_ok(const char *s)
{
	return s != NULL && only(s, 1, 15, ALNUM "-_.@");
}

void
egress_table_name(const char *run, char *buf, size_t n)
{
	snprintf(buf, n, "nova_egress_%s", run);
}

/* One line: strip the comment and the edges; lowercase. */
static int
policy_line(const char *path, unsigned lineno, const char *s, size_t n,
	    struct strv *names, struct refusals *r)
{
	char name[256];
	const char *hash = memchr(s, '#', n);
	size_t a = 0, b;

	if (hash != NULL)
		n = (size_t)(hash - s);
	while (a < n && isspace((unsigned char)s[a]))
		a++;
	b = n;
	while (b > a && isspace((unsigned char)s[b - 1]))
		b--;
	if (a == b)
		return 0;
	if (b - a >= sizeof(name))
		return refusals_add(r, REASON_BAD_POLICY, "%s:%u: a hostname of "
				    "at most 253 characters", path, lineno) <
		    0 ? -1 : 1;
	for (size_t i = a; i < b; i++)
		name[i - a] = (char)tolower((unsigned char)s[i]);
	name[b - a] = '\0';
	if (strcspn(name, " \t\r\v\f") != b - a || !egress_name_ok(name))
		return refusals_add(r, REASON_BAD_POLICY, "%s:%u: one DNS name "
				    "per line (two or more labels of a-z 0-9 "
				    "-, the last starting with a letter), "
				    "got %.80s", path, lineno, name) < 0 ?
		    -1 : 1;
	if (strv_contains(names, name))
		return 0;
	return strv_push(names, name) < 0 ? -1 : 0;
}

int
egress_parse_policy(const char *path, const char *text, size_t len,
		    struct strv *names, struct refusals *r)
{
	size_t i = 0, e;
	unsigned lineno = 0;
	int bad = 0, k;

	if (memchr(text, '\0', len) != NULL)
		return refusals_add(r, REASON_BAD_POLICY, "%s: a text file (it "
				    "holds a NUL byte)", path) < 0 ? -1 : 1;
	while (i < len) {
		e = i;
		while (e < len && text[e] != '\n')
			e++;
		k = policy_line(path, ++lineno, text + i, e - i, names, r);
		if (k < 0)
			return -1;
		bad += k;
		i = e + 1;
	}
	if (bad == 0 && names->n == 0) {
		if (refusals_add(r, REASON_BAD_POLICY, "%s: at least the base names "
				 "github.com, api.github.com, "
				 "objects.githubusercontent.com (the file is "
				 "empty)", path) < 0)
			return -1;
		bad++;
	}
	return bad;
}
