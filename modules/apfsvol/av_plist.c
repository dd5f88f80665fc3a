/* SPDX-License-Identifier: MIT */
/* av_plist.c -- read what apfsvol needs from diskutil's output: one value
 * of a plist by key, and the identifier addVolume prints. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "av.h"

static const struct {
	const char *ent;
	char c;
} av_ents[] = {
	{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
	{ "&quot;", '"' }, { "&apos;", '\'' },
};

/* Copy [s, e) into out unescaping XML entities; -1 when it does not fit. */
static int
unescape(const char *s, const char *e, char *out, size_t len)
{
	size_t n = 0;

	while (s < e) {
		char ch = *s;
		size_t adv = 1;

		for (size_t i = 0; ch == '&' && i < 5; i++)
			if (strncmp(s, av_ents[i].ent, strlen(av_ents[i].ent)) == 0) {
				ch = av_ents[i].c;
				adv = strlen(av_ents[i].ent);
			}
		if (n + 1 >= len)
			return -1;
		out[n++] = ch;
		s += adv;
	}
	out[n] = '\0';
	return 0;
}

static const char *
skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* The value element right after p: <string>, <integer> or <string/>. */
static int
value_at(const char *p, char *out, size_t len)
{
	static const char *const tags[] = { "string", "integer" };
	char open[16], close[16];
	const char *e;

	p = skip_ws(p);
	if (strncmp(p, "<string/>", 9) == 0)
		return unescape(p, p, out, len);
	for (size_t i = 0; i < 2; i++) {
		snprintf(open, sizeof(open), "<%s>", tags[i]);
		snprintf(close, sizeof(close), "</%s>", tags[i]);
		if (strncmp(p, open, strlen(open)) != 0)
			continue;
		p += strlen(open);
		e = strstr(p, close);
		return e == NULL ? -1 : unescape(p, e, out, len);
	}
	return -1;
}

int
av_plist_get(const char *plist, const char *key, char *out, size_t len)
{
	char want[160];
	const char *p;

	if (snprintf(want, sizeof(want), "<key>%s</key>", key) >=
	    (int)sizeof(want))
		return -1;
	p = strstr(plist, want);
	if (p == NULL)
		return -1;
	return value_at(p + strlen(want), out, len);
}

int
av_created_id(const char *out, char *id, size_t len)
{
	static const char said[] = "Created new APFS Volume ";
	const char *p = strstr(out, said), *e;

	if (p == NULL)
		return -1;
	p += sizeof(said) - 1;
	e = p;
	while (*e && !isspace((unsigned char)*e))
		e++;
	if ((size_t)(e - p) >= len)
		return -1;
	memcpy(id, p, (size_t)(e - p));
	id[e - p] = '\0';
	return av_valid_id(id) ? 0 : -1;
}
