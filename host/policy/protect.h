/* SPDX-License-Identifier: MIT */
/* protect.h -- rule 5a of docs/SPEC-SANDBOX.md: the paths that stay
 * readable and are not writable whatever --write covers them (ABI 1.4
 * ns_policy.protect).  By default every .git (a directory or a gitfile)
 * at the top of a --write root and in each directory from a root down to
 * the command's working directory; every --protect; and what each
 * protected git path names (a gitfile's gitdir, a git directory's
 * commondir, the worktrees' gitfiles its common directory lists) when
 * under a --write root; less every --unprotect.  Each is opened once, no link followed
 * (O_PATH|O_NOFOLLOW), and its descriptor kept for the wall. */
#ifndef NS_HOST_PROTECT_H
#define NS_HOST_PROTECT_H

#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include "base/util.h"
#include "policy/paths.h"

struct protect_ent {
	char *path;       /* absolute, resolved */
	int32_t fd;       /* O_PATH of the object itself, or -1 */
	struct path_id id;
	uint32_t mode;    /* its st_mode (a link: refused before the wall) */
	const char *why;  /* "git", "gitdir", "commondir", "--protect" */
};

/* A directory whose .git (or bare shape) the command could make: a
 * --write root's top and each directory on the way down to the working
 * directory (rule 5a's gap, looked at again after the command ends). */
struct protect_watch {
	int fd;           /* O_PATH of the directory */
	char *path;
	unsigned before;  /* which of the git names were there (a bit each) */
	struct path_id git; /* the .git there when the policy was built */
};

struct protect {
	struct protect_ent *v;
	size_t n, cap;
	struct protect_watch *w;
	size_t wn, wcap;
	/* the ns_policy view (parallel to v), made by protect_build */
	const char **paths;
	int32_t *fds;
};

/* What the protection is computed from: the caller's flags as typed, the
 * resolved --write roots and working directory of the policy, the
 * command's user (rule 5's "could have planted") and the caller's line
 * for the remedies. */
struct protect_src {
	const struct strv *protect;   /* --protect, as typed */
	const struct strv *unprotect; /* --unprotect, as typed */
	const struct rpaths *writes;
	const struct rpath *cwd;
	uid_t uid;
	struct cmdline line;
};

/* Compute the list into *out.  0 with *out filled (its NOTE texts pushed
 * to notes: a gitdir a gitfile names that does not exist), 1 with every
 * problem added to r (bad_protect: a --protect that cannot be resolved or
 * is under no --write, an --unprotect that matches nothing protected, a
 * .git that is a symbolic link, a gitdir or commondir reached through a
 * link or whose text climbs after a name, a way down to the working directory that
 * changed while walked), -1 out of memory.  *out is protect_free'd by the
 * caller in every case. */
int protect_build(const struct protect_src *src, struct protect *out,
		  struct strv *notes, struct refusals *r);
void protect_free(struct protect *p);

/* After the command ends: one NOTE (through note) for each watched
 * directory that holds a .git or a bare repository's shape (HEAD,
 * objects/, refs/) it did not hold when the policy was built, with the
 * remedy (look first, or the rm -rf of what was made).  Looked at by the
 * descriptors kept, never by name.  A directory at or below skip (run's
 * place, deleted after: NULL none) is not said. */
void protect_after(const struct protect *p, const char *skip,
		   void (*note)(const char *text));

/* " protected=<p1>,<p2>" (each field-escaped, a ',' inside as \x2c) or
 * " protected=-": the OK lines' field.  0 or -1. */
int protect_field(struct sbuf *b, const struct protect *p);

#endif
