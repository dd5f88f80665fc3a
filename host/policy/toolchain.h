/* SPDX-License-Identifier: MIT */
/* toolchain.h -- --toolchain go|python|node|rust|c (docs/SPEC-SANDBOX.md
 * rule 3a): the read roots a toolchain needs, asked of the toolchain
 * itself.  Each tool is found once on the caller's PATH (an absolute,
 * executable regular file), run unwalled as the caller with a minimal
 * environment, stdin and stderr /dev/null, and killed after
 * TOOLCHAIN_TIMEOUT_MS.  Roots are only ever read roots. */
#ifndef NS_HOST_TOOLCHAIN_H
#define NS_HOST_TOOLCHAIN_H

#include "base/remedy.h"
#include "base/util.h"

#define TOOLCHAIN_TIMEOUT_MS 10000
#define TOOLCHAIN_NAMES "go, python, node, rust or c"

/* Each --toolchain value is one of TOOLCHAIN_NAMES: bad_toolchain
 * otherwise (every one at once), then the caller's `line` (NULL: none)
 * without it.  0 clean, 1 refused, -1 ENOMEM. */
int toolchain_check(const struct strv *names, const struct cmdline *line,
		    struct refusals *r);

/* What discovery found for one toolchain. */
struct toolchain_found {
	struct strv roots;   /* existing directories to add as --read */
	struct strv covered; /* existing, already inside an OS root */
	char *tool;          /* the absolute path of the tool asked */
};

/* Ask toolchain `name` for its roots, the tools found on `path` (the
 * caller's PATH), env the caller's environment (only HOME, LANG and the
 * toolchain's own variables such as GOROOT, VIRTUAL_ENV, CARGO_HOME pass
 * to it).  os_roots: the platform's fixed read roots (a root inside one
 * is `covered`, not added).  0 with *f filled; 1 with a bad_toolchain
 * refusal naming the toolchain (absent, failed, timed out, answered
 * nothing usable), ending with the caller's `line` (NULL: none) without
 * that --toolchain; -1 ENOMEM. */
int toolchain_discover(const char *name, const char *path, char *const *env,
		       const char *const *os_roots, struct toolchain_found *f,
		       const struct cmdline *line, struct refusals *r);
void toolchain_found_free(struct toolchain_found *f);

/* One NOTE text for f: "--toolchain <name> (<tool>) adds the read roots
 * A B[; already readable as OS roots: C D]" (heap), or NULL on ENOMEM. */
char *toolchain_note(const char *name, const struct toolchain_found *f);

#endif
