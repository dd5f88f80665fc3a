/* SPDX-License-Identifier: MIT */
/* fake_host.h -- an ns_host for the module suites: options from a table,
 * every refusal, note and text line recorded (header-only; each suite is
 * its own binary). */
#ifndef NS_TESTS_FAKE_HOST_H
#define NS_TESTS_FAKE_HOST_H

#include <stdio.h>
#include <string.h>

#include "ns_backend.h"

#define FH_OPTS 8

struct fake_host {
	char text[16384];    /* every text() line, each + '\n' */
	size_t text_len;
	char refusals[8192]; /* every refusal: "<reason>: <text>\n" */
	size_t refusals_len;
	char reason[64];     /* the last refusal's reason */
	char refusal[1024];  /* the last refusal's text */
	int n_refusals;
	char notes[4096];
	size_t notes_len;
	const char *keys[FH_OPTS];
	const char *vals[FH_OPTS];
};

static struct fake_host fh;

static void
fh_append(char *buf, size_t cap, size_t *len, const char *a, const char *b)
{
	int n = snprintf(buf + *len, cap - *len, "%s%s%s\n", a, b ? ": " : "",
			 b ? b : "");

	if (n > 0 && (size_t)n < cap - *len)
		*len += (size_t)n;
}

static void
fh_note(void *cookie, const char *t)
{
	(void)cookie;
	fh_append(fh.notes, sizeof(fh.notes), &fh.notes_len, t, NULL);
}

static void
fh_refuse(void *cookie, const char *reason, const char *t)
{
	(void)cookie;
	snprintf(fh.reason, sizeof(fh.reason), "%s", reason);
	snprintf(fh.refusal, sizeof(fh.refusal), "%s", t);
	fh_append(fh.refusals, sizeof(fh.refusals), &fh.refusals_len, reason,
		  t);
	fh.n_refusals++;
}

static void
fh_text(void *cookie, const char *line)
{
	(void)cookie;
	fh_append(fh.text, sizeof(fh.text), &fh.text_len, line, NULL);
}

static const char *
fh_option(void *cookie, const char *key)
{
	(void)cookie;
	for (int i = 0; i < FH_OPTS && fh.keys[i] != NULL; i++)
		if (strcmp(fh.keys[i], key) == 0)
			return fh.vals[i];
	return NULL;
}

/* Set (or replace) an option; NULL removes nothing, it sets "unset". */
static inline void
fh_set(const char *key, const char *val)
{
	int i;

	for (i = 0; i < FH_OPTS - 1 && fh.keys[i] != NULL; i++)
		if (strcmp(fh.keys[i], key) == 0)
			break;
	fh.keys[i] = key;
	fh.vals[i] = val;
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

/* Forget what was said (options stay). */
static inline void
fh_clear(void)
{
	fh.text_len = fh.refusals_len = fh.notes_len = 0;
	fh.text[0] = fh.refusals[0] = fh.notes[0] = fh.reason[0] = '\0';
	fh.n_refusals = 0;
}

/* Forget everything, options included. */
static inline void
fh_reset(void)
{
	memset(&fh, 0, sizeof(fh));
}

#endif
