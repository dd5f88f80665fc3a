/* SPDX-License-Identifier: MIT */
/* worktree_parse.c -- the worktree verb's pure parsers of outside text: a
 * remote URL's owner/name, the one flat JSON object gh prints, git's
 * branch-name rules (worktree.h; tests/unit/test_worktree.c,
 * tests/fuzz/fuzz_worktree.c). */
#include "verbs/worktree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verbs/verbs.h"

/* ---- small pure helpers ------------------------------------------------ */

int
wt_hex_lower(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* git's branch-name rules (check-ref-format --branch), checked here so
 * the value never has to be handed to git to be judged. */
int
wt_branch_ok(const char *b)
{
	size_t n = strlen(b);

	if (n == 0 || n > 255 || b[0] == '-' || b[0] == '/' || b[n - 1] == '/' ||
	    b[n - 1] == '.' || strstr(b, "..") || strstr(b, "@{") ||
	    strstr(b, "//") || strcmp(b, "@") == 0 ||
	    (n >= 5 && strcmp(b + n - 5, ".lock") == 0))
		return 0;
	for (const unsigned char *p = (const unsigned char *)b; *p; p++)
		if (*p <= 0x20 || *p == 0x7f || strchr("~^:?*[\\", *p) ||
		    (*p == '.' && (p == (const unsigned char *)b || p[-1] == '/')))
			return 0;
	return 1;
}

/* An owner or repository name as forges spell them. */
static int
forge_word_ok(const char *s, size_t n)
{
	if (n == 0 || n > 100 || s[0] == '-' || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return 0;
	return 1;
}

/* A remote that names a place on this machine names no forge. */
static int
local_remote(const char *u)
{
	const char *sch = strstr(u, "://");

	if (sch != NULL)
		return (size_t)(sch - u) == 4 && strncasecmp(u, "file", 4) == 0;
	if (u[0] == '/' || u[0] == '.')
		return 1;
	return isalpha((unsigned char)u[0]) && u[1] == ':' &&
	       (u[2] == '/' || u[2] == '\\');
}

/* "owner/name" out of a remote URL (https, ssh, scp-like, an alias
 * "x:owner/name", "owner/name"), or NULL: none, or a word a forge would
 * not name a repository with.  Heap. */
char *
worktree_owner_name(const char *url)
{
	const char *p = url, *sch, *s1, *s2, *end;
	size_t n = strlen(url);

	if (n >= 4 && strcmp(url + n - 4, ".git") == 0)
		n -= 4;
	if (n == 0 || local_remote(url))
		return NULL;
	end = url + n;
	sch = strstr(url, "://");
	if (sch != NULL && sch < end) {
		p = memchr(sch + 3, '/', (size_t)(end - sch - 3));
		if (p == NULL)
			return NULL;
		p++;
	} else if ((sch = memchr(url, ':', n)) != NULL) {
		p = sch + 1;
	}
	s1 = memchr(p, '/', (size_t)(end - p));
	if (s1 == NULL)
		return NULL;
	s2 = memchr(s1 + 1, '/', (size_t)(end - s1 - 1));
	if (s2 == NULL)
		s2 = end;
	if (!forge_word_ok(p, (size_t)(s1 - p)) ||
	    !forge_word_ok(s1 + 1, (size_t)(s2 - s1 - 1)))
		return NULL;
	return str_fmt("%.*s/%.*s", (int)(s1 - p), p, (int)(s2 - s1 - 1),
		       s1 + 1);
}

/* ---- JSON: the one flat object gh prints -------------------------------- */

struct jcur {
	const char *p;
};

static void
jws(struct jcur *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static int
jhex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int d = isdigit((unsigned char)p[i]) ? p[i] - '0' :
			(p[i] >= 'a' && p[i] <= 'f') ? p[i] - 'a' + 10 :
			(p[i] >= 'A' && p[i] <= 'F') ? p[i] - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*v = *v * 16 + (unsigned)d;
	}
	return 0;
}

static void
jutf8(struct sbuf *b, unsigned v)
{
	char u[4];
	size_t n;

	if (v < 0x80) {
		u[0] = (char)v; n = 1;
	} else if (v < 0x800) {
		u[0] = (char)(0xc0 | (v >> 6)); u[1] = (char)(0x80 | (v & 0x3f));
		n = 2;
	} else {
		u[0] = (char)(0xe0 | (v >> 12));
		u[1] = (char)(0x80 | ((v >> 6) & 0x3f));
		u[2] = (char)(0x80 | (v & 0x3f));
		n = 3;
	}
	sbuf_addn(b, u, n);
}

/* A string at c->p into out (heap); -1 when it is not one.  A \u escape
 * outside the BMP or of NUL is refused: nothing gh says needs one. */
static int
jstring(struct jcur *c, char **out)
{
	struct sbuf b = {0};
	unsigned v;

	if (*c->p != '"')
		return -1;
	for (c->p++; *c->p != '"'; c->p++) {
		if (*c->p == '\0' || (unsigned char)*c->p < 0x20)
			goto bad;
		if (*c->p != '\\') {
			sbuf_addn(&b, c->p, 1);
			continue;
		}
		c->p++;
		if (*c->p == 'u') {
			if (jhex4(c->p + 1, &v) != 0 || v == 0 ||
			    (v >= 0xd800 && v <= 0xdfff))
				goto bad;
			jutf8(&b, v);
			c->p += 4;
		} else if (*c->p && strchr("\"\\/bfnrt", *c->p)) {
			static const char from[] = "\"\\/bfnrt",
					  to[] = "\"\\/\b\f\n\r\t";
			sbuf_addn(&b, &to[strchr(from, *c->p) - from], 1);
		} else {
			goto bad;
		}
	}
	c->p++;
	*out = sbuf_take(&b);
	return *out ? 0 : -1;
bad:
	sbuf_free(&b);
	return -1;
}

/* Skip one value of any kind. */
static int
jskip(struct jcur *c, int depth)
{
	char *s;

	jws(c);
	if (depth > 32)
		return -1;
	if (*c->p == '"') {
		if (jstring(c, &s) != 0)
			return -1;
		free(s);
		return 0;
	}
	if (*c->p == '{' || *c->p == '[') {
		char close = *c->p == '{' ? '}' : ']';

		c->p++;
		jws(c);
		if (*c->p == close) {
			c->p++;
			return 0;
		}
		for (;;) {
			if (close == '}') {
				if (jskip(c, depth + 1) != 0)
					return -1;
				jws(c);
				if (*c->p++ != ':')
					return -1;
			}
			if (jskip(c, depth + 1) != 0)
				return -1;
			jws(c);
			if (*c->p == ',') {
				c->p++;
				continue;
			}
			if (*c->p++ != close)
				return -1;
			return 0;
		}
	}
	if (*c->p == '\0' || !strchr("-0123456789tfn", *c->p))
		return -1;
	while (*c->p && (isalnum((unsigned char)*c->p) || strchr("+-.", *c->p)))
		c->p++;
	return 0;
}

/* The three fields of `gh pr view --json headRefOid,baseRefName,state`
 * (missing ones are NULL).  0, or -1 when the text is not one object. */
int
worktree_parse_pr(const char *text, char **head, char **base, char **state)
{
	struct jcur c = { text };
	static const char *const keys[] = { "headRefOid", "baseRefName",
					    "state" };
	char **dst[] = { head, base, state };
	char *k, *v;

	*head = *base = *state = NULL;
	jws(&c);
	if (*c.p++ != '{')
		goto bad;
	jws(&c);
	if (*c.p == '}')
		c.p++;
	else
		for (;;) {
			int hit = -1;

			jws(&c);
			if (jstring(&c, &k) != 0)
				goto bad;
			for (int i = 0; i < 3; i++)
				if (strcmp(k, keys[i]) == 0)
					hit = i;
			free(k);
			jws(&c);
			if (*c.p++ != ':')
				goto bad;
			jws(&c);
			if (hit >= 0 && *c.p == '"') {
				if (jstring(&c, &v) != 0)
					goto bad;
				free(*dst[hit]);
				*dst[hit] = v;
			} else if (jskip(&c, 0) != 0) {
				goto bad;
			}
			jws(&c);
			if (*c.p == ',') {
				c.p++;
				continue;
			}
			if (*c.p++ != '}')
				goto bad;
			break;
		}
	jws(&c);
	if (*c.p == '\0')
		return 0;
bad:
	for (int i = 0; i < 3; i++) {
		free(*dst[i]);
		*dst[i] = NULL;
	}
	return -1;
}
