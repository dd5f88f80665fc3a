/* fake_host.h -- an ns_host for landlock.so's suites: records refusals and
 * text lines (header-only; each suite is its own binary). */
#ifndef NS_LL_FAKE_HOST_H
#define NS_LL_FAKE_HOST_H

#include <stdio.h>
#include <string.h>

#include "ns_backend.h"

struct fake_host {
	char text[16384]; /* every text() line, each + '\n' */
	size_t text_len;
	char reason[64];  /* the last refusal */
	char refusal[1024];
	int n_refusals;
};

static struct fake_host fh;

static void
fh_note(void *cookie, const char *t)
{
	(void)cookie;
	(void)t;
}

static void
fh_refuse(void *cookie, const char *reason, const char *t)
{
	(void)cookie;
	snprintf(fh.reason, sizeof(fh.reason), "%s", reason);
	snprintf(fh.refusal, sizeof(fh.refusal), "%s", t);
	fh.n_refusals++;
}

static void
fh_text(void *cookie, const char *line)
{
	int n;

	(void)cookie;
	n = snprintf(fh.text + fh.text_len, sizeof(fh.text) - fh.text_len,
		     "%s\n", line);
	if (n > 0 && (size_t)n < sizeof(fh.text) - fh.text_len)
		fh.text_len += (size_t)n;
}

static const char *
fh_option(void *cookie, const char *key)
{
	(void)cookie;
	(void)key;
	return NULL;
}

static const struct ns_host fake_ns_host = {
	.struct_size = sizeof(struct ns_host),
	.abi_major = NS_BACKEND_ABI_MAJOR,
	.abi_minor = NS_BACKEND_ABI_MINOR,
	.cookie = NULL,
	.note = fh_note,
	.refuse = fh_refuse,
	.text = fh_text,
	.option = fh_option,
};

static void
fh_reset(void)
{
	memset(&fh, 0, sizeof(fh));
}

#endif
