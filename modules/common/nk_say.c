/* SPDX-License-Identifier: MIT */
/* nk_say.c -- nk_say (nk_say.h): the formatted refusal or note every
 * module wrote for itself. */
#include "nk_say.h"

#include <stdarg.h>
#include <stdio.h>

#include "banned.h"

int
nk_say(const struct ns_host *h, int st, const char *reason, const char *fmt,
       ...)
{
	char buf[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (reason != NULL)
		h->refuse(h->cookie, reason, buf);
	else if (h->note != NULL)
		h->note(h->cookie, buf);
	return st;
}
