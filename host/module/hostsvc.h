/* SPDX-License-Identifier: MIT */
/* hostsvc.h -- the services the host passes to modules (struct ns_host). */
#ifndef NS_HOST_HOSTSVC_H
#define NS_HOST_HOSTSVC_H

#include <stdio.h>

#include "base/remedy.h"
#include "ns_backend.h"
#include "base/util.h"
#include "conf/config.h"
#include "module/denials.h"

struct hostsvc {
	struct ns_host host;      /* what modules get */
	const char *prefix;       /* "SANDBOX", "POLICY", "PROBE", ... */
	FILE *err;                /* where NOTE lines go (stderr) */
	struct refusals *refusals;/* where refuse() lands */
	struct strv *notes;       /* if non-NULL, notes are collected here
				     instead of printed */
	struct sbuf *text;        /* where text() lines go, each + '\n' */
	const struct config *cfg;
	const char *stem;         /* the module's option section */
	struct denials *denials;  /* set only while finish() runs: where
				     denial() lands (else it is dropped) */
	const struct cmdline *line; /* the caller's command line while the
				     verb runs (NULL: none): a refusal whose
				     token a flag of it can remove gets that
				     line fixed after the module's text
				     (hostsvc.c's table), any other one says
				     no line can be given */
};

/* Set up hs->host to call back into hs. */
void hostsvc_init(struct hostsvc *hs);

#endif
