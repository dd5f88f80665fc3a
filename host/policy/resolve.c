/* SPDX-License-Identifier: MIT */
/* resolve.c -- rule 5's entry: one caller path refused (empty, too long,
 * relative, unresolved, not a directory, planted) or walked once
 * (pathwalk.c) into an rpath, with the links it went through as a NOTE;
 * and the reset of what a build walked and cached.  Above paths.c and
 * pathwalk.c, which call nothing of it. */
#include "policy/paths.h"
#include "policy/policy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/os.h"
#include "policy/pathwalk.h"

void
paths_cache_reset(void)
{
	path_dirs_reset();
	path_idents_reset();
}

/* ---- rule 5 ------------------------------------------------------- */

static int
refuse_typed(const char *flag, const char *reason, const char *p,
	     struct refusals *r)
{
	if (p == NULL || *p == '\0')
		return refusals_add(r, reason, "%s is empty: name an existing "
				    "directory by its absolute path", flag);
	if (strlen(p) >= OS_PATH_MAX)
		return refusals_add(r, reason, "%s %.64s... is longer than "
				    "PATH_MAX (%d bytes): name a shorter path",
				    flag, p, OS_PATH_MAX);
	if (path_bad_char(p))
		return refusals_add(r, reason, "%s %s holds a control "
				    "character, '\"' or '\\', which a generated "
				    "policy cannot carry: name a directory "
				    "without them", flag, p);
	return 1;
}

static int
refuse_relative(const char *flag, const char *reason, const char *p,
		struct refusals *r)
{
	char *abs = path_abs(p);
	int rc;

	rc = refusals_add(r, reason, "%s %s is relative: name it by its "
			  "absolute path, %s", flag, p,
			  abs ? abs : "(the working directory is unknown)");
	free(abs);
	return rc;
}

static int
refuse_unresolved(const char *flag, const char *reason, const char *p,
		  int err, unsigned flags, struct refusals *r)
{
	const char *what = flags & PATH_ANY_TYPE ? "file or directory" :
			   "directory";

	if (err == ENOENT || err == ENOTDIR)
		return refusals_add(r, reason, "%s %s does not exist; none is "
				    "created: name an existing %s",
				    flag, p, what);
	return refusals_add(r, reason, "%s %s cannot be resolved (%s): name "
			    "an existing %s this user can reach",
			    flag, p, strerror(err), what);
}

static int
refuse_walked(const char *flag, const char *reason, const char *p,
	      unsigned flags, const struct rpath *rp, struct refusals *r)
{
	if (!(flags & PATH_ANY_TYPE) && !S_ISDIR(rp->mode))
		return refusals_add(r, reason, "%s %s is not a directory: name "
				    "an existing directory", flag, p);
	if (path_bad_char(rp->path))
		return refusals_add(r, reason, "%s %s resolves to %s, which "
				    "holds a control character, '\"' or '\\' a "
				    "generated policy cannot carry: name a "
				    "directory without them", flag, p, rp->path);
	return 1;
}

static int
resolve_normal(const char *flag, const char *reason, const char *p,
	       uid_t uid, unsigned flags, struct rpath *out,
	       struct strv *notes, struct refusals *r)
{
	struct strv links = {0};
	struct path_fail f;
	int rc;

	rc = refuse_typed(flag, reason, p, r);
	if (rc != 1)
		return rc < 0 ? -1 : 1;
	if (os_root_len(p) == 0)
		return refuse_relative(flag, reason, p, r) < 0 ? -1 : 1;
	rc = path_walk(p, uid, flags, out, &links, &f);
	if (rc == 1 && f.link != NULL)
		rc = path_refuse_planted(flag, reason, p, &f, r) < 0 ? -1 : 1;
	else if (rc == 1 && f.err == ENOMEM)
		rc = -1;
	else if (rc == 1)
		rc = refuse_unresolved(flag, reason, p, f.err, flags, r) < 0 ? -1 : 1;
	path_fail_free(&f);
	if (rc == 0) {
		int ok = refuse_walked(flag, reason, p, flags, out, r);

		rc = ok == 1 ? path_note_links(flag, p, out, &links, notes)
			     : (ok < 0 ? -1 : 1);
	}
	if (rc != 0)
		rpath_free(out);
	strv_free(&links);
	return rc;
}

int
path_resolve(const char *flag, const char *reason, const char *p, uid_t uid,
	     unsigned flags, struct rpath *out, struct strv *notes,
	     struct refusals *r)
{
	/* in the host's spelling: a Windows caller's '\\' is '/' */
	char *np = os_path_normal(p);
	int rc;

	memset(out, 0, sizeof(*out));
	out->fd = out->dir_fd = -1;
	if (np == NULL)
		return -1;
	rc = resolve_normal(flag, reason, np, uid, flags, out, notes, r);
	free(np);
	return rc;
}

int
policy_resolve_dir(const char *flag, const char *reason, const char *p,
		   char **out, struct refusals *r)
{
	return policy_resolve_dir_noted(flag, reason, p, out, NULL, r);
}

int
policy_resolve_dir_noted(const char *flag, const char *reason, const char *p,
			 char **out, struct strv *notes, struct refusals *r)
{
	struct rpath rp;
	int rc = path_resolve(flag, reason, p, os_euid(), 0, &rp, notes, r);

	path_dirs_reset(); /* outside a build: keep no directory open */
	*out = NULL;
	if (rc == 0) {
		*out = rp.path;
		rp.path = NULL;
	}
	rpath_free(&rp);
	return rc;
}
