/* SPDX-License-Identifier: MIT */
/* paths.h -- path helpers private to the policy builder (host/policy/policy.c).
 * The public half (policy_inside, policy_resolve_dir) is in policy.h. */
#ifndef NS_HOST_PATHS_H
#define NS_HOST_PATHS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/util.h"
#include "os/os.h"

/* 1 when s holds a byte a generated policy cannot carry: a control
 * character (0x00-0x1f, 0x7f), '"' or '\\'. */
int path_bad_char(const char *s);
/* The absolute, lexically cleaned form of p (relative to the process's
 * working directory when p is relative).  Heap, or NULL. */
char *path_abs(const char *p);
/* The directory part of an absolute path ("/" for "/x").  Heap, or NULL. */
char *path_dirname(const char *p);
/* Append every proper ancestor of the absolute path p, "/" excluded, to
 * set (duplicates kept: count with strv_count_unique).  0, or -1 on
 * allocation failure. */
int path_ancestors_add(struct strv *set, const char *p);
/* 1 when the cleaned absolute path is dir or below it, by name alone
 * (policy_inside adds the identity check). */
int path_name_inside(const char *path, const char *dir);
/* 1 when path is inside any directory of dirs (policy_inside). */
int path_inside_any(const char *path, const struct strv *dirs);
/* Same, for a NULL-terminated list (NULL list: 0). */
int path_inside_list(const char *path, const char *const *dirs);

/* ---- one resolution per path (rule 5) ------------------------------- */

/* A file's identity. */
struct path_id {
	uint64_t dev;
	uint64_t ino;
};

/* A caller path opened once.  Every later check (is a directory, inside,
 * the same directory twice, the home guard) and the wall's rule use fd and
 * the identities gathered on the way down, never the name again. */
struct rpath {
	int fd;               /* O_PATH|O_CLOEXEC of the object itself, or -1 */
	mode_t mode;          /* its st_mode */
	struct path_id id;    /* its identity */
	struct path_id *up;   /* "/" .. itself: every directory walked */
	size_t n_up;
	char *path;           /* the directories walked, by name (heap); with
				 PATH_READ_BACK what the kernel names fd */
	int dir_fd;           /* PATH_KEEP_DIR: the parent directory, or -1 */
};

struct rpaths {
	struct rpath *v;
	size_t n;
	size_t cap;
};

/* Why a walk stopped. */
struct path_fail {
	int err;       /* errno, or 0 when a link was refused */
	char *link;    /* the link the command could have planted (heap) */
	char *target;  /* what it holds (heap) */
	const char *why; /* why this user could have made or replaced it */
	char *venv;    /* the link is a venv's interpreter: the venv (heap;
			  NULL: it is not) */
};

/* Walk flags. */
#define PATH_TRUST_LINKS 0x1u /* platform data: follow every link silently */
#define PATH_ANY_TYPE 0x2u    /* the last component need not be a dir */
#define PATH_KEEP_DIR 0x4u    /* keep the parent's descriptor in dir_fd */
#define PATH_READ_BACK 0x8u   /* path: what the kernel reads back from fd
				 (/proc/self/fd), not the name walked */

/* Open p (absolute) once, component by component, no symlink followed by
 * the kernel: each component is openat(O_PATH|O_NOFOLLOW|O_CLOEXEC) below
 * the one before, and a link is read from its own descriptor and judged
 * (path_plantable) before its target is walked.  Every link followed is
 * pushed to links as "<link> -> <target>" (links may be NULL).  0 with
 * *out filled, 1 with *fail filled, -1 on allocation failure (ENOMEM
 * anywhere in the walk; *fail is still to be freed). */
int path_walk(const char *p, uid_t uid, unsigned flags, struct rpath *out,
	      struct strv *links, struct path_fail *fail);
/* Why uid could have made or replaced a link (lnk) in the directory dir,
 * or NULL when it could not (docs/SPEC-SANDBOX.md rule 5). */
const char *path_plantable(uid_t uid, const struct os_stat *dir,
			   const struct os_stat *lnk);
/* Why uid could have moved the directory a link is in (or one above it)
 * to its name, or NULL: dirs are the statuses of the directories walked,
 * "/" first and the link's own directory last (n of them).  An entry of a
 * directory uid can rename in is one an earlier run may have put there,
 * whoever owns it (docs/SPEC-SANDBOX.md rule 5). */
const char *path_movable(uid_t uid, const struct os_stat *dirs, size_t n);
/* Rule 5 for one caller path: typed (not empty, no control character,
 * '"' or '\\', under PATH_MAX), absolute, walked once (path_walk), a
 * directory unless PATH_ANY_TYPE, and its read-back path again free of
 * those characters.  A link the command's user (uid) could have planted is
 * refused naming the link, its target and the real path; links followed
 * are said in one NOTE pushed to notes (may be NULL).  0 with *out, 1
 * refused (added to r with reason, naming flag), -1 out of memory. */
int path_resolve(const char *flag, const char *reason, const char *p,
		 uid_t uid, unsigned flags, struct rpath *out,
		 struct strv *notes, struct refusals *r);
/* The refusal for a link the command's user could have planted (f from
 * path_walk), naming flag, the link, its target and the real path. */
int path_refuse_planted(const char *flag, const char *reason, const char *p,
			const struct path_fail *f, struct refusals *r);
/* One NOTE into notes when links (from path_walk) is not empty. */
int path_note_links(const char *flag, const char *p, const struct rpath *rp,
		    const struct strv *links, struct strv *notes);
/* The parent directory of x (walked with PATH_KEEP_DIR), taking x's
 * dir_fd.  0, 1 when there is none, -1 on allocation failure. */
int rpath_parent(struct rpath *x, struct rpath *out);
/* A second descriptor of r (F_DUPFD_CLOEXEC).  0, or -1. */
int rpath_dup(const struct rpath *r, struct rpath *out);
void path_fail_free(struct path_fail *f);
void rpath_free(struct rpath *r);
/* Move r into s (r is left empty).  0, or -1 on allocation failure. */
int rpaths_push(struct rpaths *s, struct rpath *r);
void rpaths_free(struct rpaths *s);
/* Is x the directory d or beneath it, by the identities walked? */
int rpath_inside(const struct rpath *x, const struct rpath *d);
int rpath_inside_any(const struct rpath *x, const struct rpaths *ds);
int rpath_same(const struct rpath *a, const struct rpath *b);
/* Close fd (and set it to -1). */
void rpath_close(struct rpath *r);

/* Forget the identities (device, inode) cached for "inside" answers; the
 * policy builder calls it once at the start of every build. */
void paths_cache_reset(void);

#endif
