/* SPDX-License-Identifier: MIT */
/* protwall.h -- rule 5a between the policy and the wall: the protected
 * paths (policy/protect.h) go only to a wall that keeps them (ABI 1.4
 * NS_WALL_PROTECT); any other wall is refused, never run without them. */
#ifndef NS_HOST_PROTWALL_H
#define NS_HOST_PROTWALL_H

#include "policy/policy.h"
#include "wall/session.h"

/* pol protects something and w's wall has no NS_WALL_PROTECT: one
 * protect_unsupported refusal per protected path into r, each with the
 * caller's line and `--unprotect <path>` added (line NULL: none).  1 when
 * it refused, 0 not, -1 ENOMEM. */
int wall_protect_refused(const struct wallctx *w, const struct policy *pol,
			 const struct cmdline *line, struct refusals *r);

/* Copy --protect and --unprotect into the policy input (a failed copy is
 * sticky: policy_build refuses a failed list). */
/* run: each --protect (as typed, cleaned) inside the place's root is
 * refused (bad_protect): the place is empty when the command starts, so
 * there is nothing of the user's there to protect.  0, 1 refused, -1. */
int wall_protect_place(const struct strv *protect, const char *place,
		       const struct cmdline *line, struct refusals *r);

void wall_protect_input(struct policy_input *in, const struct strv *protect,
			const struct strv *unprotect);

/* --explain: one NOTE text (through note) naming what stays read-only,
 * when anything does. */
void wall_protect_note(const struct policy *pol, int explain,
		       void (*note)(const char *text));

#endif
