/* SPDX-License-Identifier: MIT */
/* nk_say.h -- the module kit's lines (modules/common/: static, hidden,
 * not part of the ABI): a refusal or a note through the host's services,
 * from a printf format. */
#ifndef NS_NK_SAY_H
#define NS_NK_SAY_H

#include "ns_backend.h"

/* mingw's printf attribute is Microsoft's (no %zu); the kit is built with
 * __USE_MINGW_ANSI_STDIO, whose printf is the C99 one */
#if defined(__MINGW32__)
#define NK_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define NK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

/* h->refuse(reason, text) when reason is not NULL, else h->note(text)
 * (when the host has it); the text formatted and cut at 1.5 KiB.
 * Returns st, for `return nk_say(h, NS_E_REFUSED, ...)`. */
int nk_say(const struct ns_host *h, int st, const char *reason,
	   const char *fmt, ...) NK_PRINTF(4, 5);

#endif
