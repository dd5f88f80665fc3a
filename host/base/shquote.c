/* SPDX-License-Identifier: MIT */
/* shquote.c -- one argument shell-quoted so it pastes back as itself
 * (out.h's out_shell_quote): what out.c's lines and remedy.c's fixed
 * command lines both use, below both. */
#include <string.h>

#include "base/out.h"

static int
shell_safe(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_@%+=:,./-", *s) == NULL)
			return 0;
	return 1;
}

int
out_shell_quote(struct sbuf *b, const char *s)
{
	if (shell_safe(s))
		return sbuf_add(b, s);
	if (sbuf_add(b, "'") < 0)
		return -1;
	for (; *s; s++) {
		if (*s == '\'') {
			if (sbuf_add(b, "'\\''") < 0)
				return -1;
		} else if (sbuf_addn(b, s, 1) < 0) {
			return -1;
		}
	}
	return sbuf_add(b, "'");
}
