/* SPDX-License-Identifier: MIT */
/* args.h -- the flags of the bare wrap, policy, probe and check: one
 * table (args.c) for the flag engine (base/flags.h) naming every flag, its
 * kind, the verbs that accept it, its owner for "is not a flag of" texts
 * and its help line; and the refusal printer the verbs share. */
#ifndef NS_HOST_ARGS_H
#define NS_HOST_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "base/flags.h"
#include "base/hostrun.h"
#include "base/util.h"

/* The verbs that parse flags through the table. */
#define ARGV_BARE 0x1u
#define ARGV_POLICY 0x2u
#define ARGV_PROBE 0x4u
#define ARGV_CHECK 0x8u

extern const struct flagdef args_flags[];
extern const size_t args_nflags;

struct args {
	struct strv reads, reads_noexec, writes, net_allow, net_allow_files;
	struct strv argv;   /* after "--" */
	struct strv others; /* flags of another verb, as "--name", in order */
	struct strv env_keep, env_deny; /* --env, --env-deny */
	struct strv toolchains;         /* --toolchain */
	struct strv protect, unprotect; /* --protect, --unprotect */
	const char *cwd, *tmp, *name, *gpu, *acl, *secret, *max;
	const char *status_fd; /* --status-fd, validated (out_status_check) */
	int net_deny, net_listen, json, explain, env_clear;
	size_t env_deny_n;  /* how many --env-deny (kept after the move) */
	int saw_dashdash;
};

/* Parse argv (the words after the verb; for the bare form all words) for
 * `verb` (one ARGV_*).  Every problem is added to r in argv order with the
 * verb's token (bare: bad_flag for unknown flags, no_command otherwise;
 * policy: no_command; probe: check; check: bad_flag).  For the bare form the
 * missing "--" and the flags of other verbs follow.  Returns 0 when r got
 * nothing, 1 when it did, -1 on ENOMEM. */
int args_parse(unsigned verb, int argc, char **argv, struct args *a,
	       struct refusals *r);
void args_free(struct args *a);

/* The flag of `verb` nearest to `name` (no dashes), or NULL. */
const char *args_nearest(unsigned verb, const char *name);

#endif
