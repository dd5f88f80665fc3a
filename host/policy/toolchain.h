/* SPDX-License-Identifier: MIT */
/* toolchain.h -- --toolchain go|python|node|rust|c (docs/SPEC-SANDBOX.md
 * rule 3a): the read roots a toolchain needs, asked of the toolchain
 * itself.  Each tool is found once on the caller's PATH (an absolute,
 * executable regular file; Windows: by PATHEXT, a PE program), run
 * unwalled as the caller -- only when the command could not have changed
 * it -- in an empty private directory with a minimal environment, stdin
 * /dev/null (NUL), its output captured, and its tree killed after
 * TOOLCHAIN_TIMEOUT_MS (os/tool.h).  Roots are only ever read roots. */
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
	struct strv absent;  /* absolute answers naming no directory */
	char *tool;          /* the absolute path of the tool asked */
	struct strv notes;   /* NOTE texts: each tool not run (inside a
				--write) */
	struct strv skipped_path; /* PATH entries inside a --write, left
				     out of the tools' PATH */
	size_t not_run;      /* tools not run: inside a --write */
};

/* What discovery must keep the tools away from. */
struct toolchain_ctx {
	const char *path;             /* the caller's PATH */
	char *const *env;             /* the caller's environment */
	const char *const *os_roots;  /* the platform's fixed read roots */
	const struct strv *writes;    /* every --write (and run's cache
					 --write), as named; may be NULL */
	const struct cmdline *line;   /* the caller's line, for the fixed
					 line of a refusal; may be NULL */
};

/* Ask toolchain `name` for its roots (docs/SPEC-SANDBOX.md rule 3a).
 * Each tool is found on x->path and run only when its file, every link
 * to it and every directory above them are outside every x->writes and
 * changeable by no user but root and the caller; one inside a --write is
 * not run (f->notes says so).  The tools run in a fresh empty private
 * directory (their cwd and HOME, removed after) with PATH (x->path
 * without its entries inside a --write), LC_ALL=C, the toolchain's fixed
 * settings and those of its own variables in x->env whose value is an
 * absolute path outside every --write.  An answer that is "/" or holds
 * HOME, a --write or the state directory is refused (too broad); one
 * inside x->os_roots is `covered`, not added.  0 with *f filled; 1 with
 * a bad_toolchain refusal naming the toolchain (absent, failed, timed
 * out, too broad, answered nothing usable), ending with x->line
 * without that --toolchain; -1 ENOMEM. */
int toolchain_discover(const char *name, const struct toolchain_ctx *x,
		       struct toolchain_found *f, struct refusals *r);
void toolchain_found_free(struct toolchain_found *f);

/* Is the tool name on the PATH value path?  1 yes, 0 no, -1 ENOMEM. */
int toolchain_has_tool(const char *name, const char *path);

/* One NOTE text for f: "--toolchain <name> (<tool>) adds the read roots
 * A B[; already readable as OS roots: C D]" (heap), or NULL on ENOMEM. */
char *toolchain_note(const char *name, const struct toolchain_found *f);

#endif
