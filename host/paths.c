/* SPDX-License-Identifier: MIT */
/* paths.c -- rule 5 (a caller directory is absolute, existing, a directory,
 * resolved, and carries nothing a generated policy cannot) and the "inside"
 * question, which the filesystem answers by device and inode. */
#include "paths.h"
#include "policy.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
path_bad_char(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			return 1;
	}
	return 0;
}

/* Push one component of a path being cleaned: "." is nothing, ".."
 * drops the last component (never above "/"). */
static int
clean_push(struct strv *parts, const char *s, size_t n)
{
	struct sbuf b = {0};
	int rc;

	if (n == 0 || (n == 1 && s[0] == '.'))
		return 0;
	if (n == 2 && s[0] == '.' && s[1] == '.') {
		if (parts->n > 0) {
			free(parts->v[--parts->n]);
			parts->v[parts->n] = NULL;
		}
		return 0;
	}
	if (sbuf_addn(&b, s, n) < 0)
		return -1;
	rc = strv_push(parts, b.s);
	sbuf_free(&b);
	return rc;
}

static char *
clean_join(const struct strv *parts)
{
	struct sbuf b = {0};

	if (parts->n == 0)
		return strdup("/");
	for (size_t i = 0; i < parts->n; i++)
		if (sbuf_add(&b, "/") < 0 || sbuf_add(&b, parts->v[i]) < 0) {
			sbuf_free(&b);
			return NULL;
		}
	return sbuf_take(&b);
}

static int
clean_split(struct strv *parts, const char *p)
{
	while (*p) {
		size_t n = strcspn(p, "/");

		if (clean_push(parts, p, n) < 0)
			return -1;
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

char *
path_abs(const char *p)
{
	struct strv parts = {0};
	char cwd[PATH_MAX];
	char *out = NULL;

	if (p[0] != '/') {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return NULL;
		if (clean_split(&parts, cwd) < 0)
			goto out_free;
	}
	if (clean_split(&parts, p) < 0)
		goto out_free;
	out = clean_join(&parts);
out_free:
	strv_free(&parts);
	return out;
}

char *
path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	struct sbuf b = {0};

	if (slash == NULL || slash == p)
		return strdup("/");
	if (sbuf_addn(&b, p, (size_t)(slash - p)) < 0)
		return NULL;
	return sbuf_take(&b);
}

int
path_ancestors_add(struct strv *set, const char *p)
{
	char *d = path_dirname(p);
	int rc = 0;

	while (rc == 0 && d != NULL && strcmp(d, "/") != 0) {
		char *up;

		rc = strv_push(set, d);
		up = path_dirname(d);
		free(d);
		d = up;
	}
	if (d == NULL)
		rc = -1;
	free(d);
	return rc;
}

int
path_inside_any(const char *path, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n; i++)
		if (policy_inside(path, dirs->v[i]))
			return 1;
	return 0;
}

int
path_inside_list(const char *path, const char *const *dirs)
{
	for (; dirs != NULL && *dirs != NULL; dirs++)
		if (policy_inside(path, *dirs))
			return 1;
	return 0;
}

static int
prefix_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(path, dir) == 0)
		return 1;
	if (n == 0 || strncmp(path, dir, n) != 0)
		return 0;
	return dir[n - 1] == '/' || path[n] == '/';
}

/* ---- identities ---------------------------------------------------- */

/* A building policy asks "inside?" for every caller path against every
 * list, and each negative answer walks the path's ancestors by inode: with
 * many --read paths that is tens of stat(2) calls per path.  The policy is
 * built from one view of the filesystem, so each distinct name is stat'ed
 * once per build (paths_cache_reset() at the start of policy_build). */
struct ident {
	struct ident *next;
	dev_t dev;
	ino_t ino;
	int ok; /* stat succeeded */
	char name[];
};

#define IDENT_BUCKETS 1024
static struct ident *ident_tab[IDENT_BUCKETS];

static size_t
ident_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IDENT_BUCKETS;
}

void
paths_cache_reset(void)
{
	for (size_t i = 0; i < IDENT_BUCKETS; i++) {
		while (ident_tab[i] != NULL) {
			struct ident *n = ident_tab[i]->next;

			free(ident_tab[i]);
			ident_tab[i] = n;
		}
	}
}

/* stat(p) through the cache: 0 with the device and inode set, or -1 when
 * p cannot be stat'ed.  Out of memory, it answers without caching. */
static int
ident_of(const char *p, dev_t *dev, ino_t *ino)
{
	size_t h = ident_hash(p), n = strlen(p);
	struct ident *e;
	struct stat st;

	for (e = ident_tab[h]; e != NULL; e = e->next)
		if (strcmp(e->name, p) == 0)
			break;
	if (e == NULL) {
		int ok = stat(p, &st) == 0;

		e = malloc(sizeof(*e) + n + 1);
		if (e == NULL) {
			if (!ok)
				return -1;
			*dev = st.st_dev;
			*ino = st.st_ino;
			return 0;
		}
		memcpy(e->name, p, n + 1);
		e->ok = ok;
		e->dev = ok ? st.st_dev : 0;
		e->ino = ok ? st.st_ino : 0;
		e->next = ident_tab[h];
		ident_tab[h] = e;
	}
	*dev = e->dev;
	*ino = e->ino;
	return e->ok ? 0 : -1;
}

/* Walk up from path itself: is path, or one of its existing ancestors,
 * the very directory (dev, ino)?  This holds for a symlinked spelling, a
 * case fold, a bind mount at a second name. */
static int
inode_inside(const char *path, dev_t ddev, ino_t dino)
{
	char *p = strdup(path);
	int hit = 0;

	while (p != NULL && !hit) {
		dev_t dev;
		ino_t ino;
		char *up;

		if (ident_of(p, &dev, &ino) == 0 && dev == ddev && ino == dino)
			hit = 1;
		if (strcmp(p, "/") == 0 || p[0] != '/')
			break;
		up = path_dirname(p);
		free(p);
		p = up;
	}
	free(p);
	return hit;
}

int
policy_inside(const char *path, const char *dir)
{
	dev_t dev;
	ino_t ino;

	if (path == NULL || dir == NULL)
		return 0;
	if (prefix_inside(path, dir))
		return 1;
	if (ident_of(dir, &dev, &ino) != 0)
		return 0; /* nothing has an inode: the name is all there is */
	return inode_inside(path, dev, ino);
}

/* ---- rule 5 ------------------------------------------------------- */

static int
refuse_typed(const char *flag, const char *reason, const char *p,
	     struct refusals *r)
{
	if (p == NULL || *p == '\0')
		return refusals_add(r, reason, "%s is empty: name an existing "
				    "directory by its absolute path", flag);
	if (strlen(p) >= PATH_MAX)
		return refusals_add(r, reason, "%s %.64s... is longer than "
				    "PATH_MAX (%d bytes): name a shorter path",
				    flag, p, PATH_MAX);
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
		  int err, struct refusals *r)
{
	if (err == ENOENT || err == ENOTDIR)
		return refusals_add(r, reason, "%s %s does not exist; none is "
				    "created: name an existing directory",
				    flag, p);
	return refusals_add(r, reason, "%s %s cannot be resolved (%s): name "
			    "an existing directory this user can reach",
			    flag, p, strerror(err));
}

static int
refuse_resolved(const char *flag, const char *reason, const char *p,
		const char *real, struct refusals *r)
{
	struct stat st;

	if (stat(real, &st) != 0)
		return refuse_unresolved(flag, reason, p, errno, r);
	if (!S_ISDIR(st.st_mode))
		return refusals_add(r, reason, "%s %s is not a directory: name "
				    "an existing directory", flag, p);
	if (path_bad_char(real))
		return refusals_add(r, reason, "%s %s resolves to %s, which "
				    "holds a control character, '\"' or '\\' a "
				    "generated policy cannot carry: name a "
				    "directory without them", flag, p, real);
	return 1;
}

int
policy_resolve_dir(const char *flag, const char *reason, const char *p,
		   char **out, struct refusals *r)
{
	char *real;
	int rc;

	*out = NULL;
	rc = refuse_typed(flag, reason, p, r);
	if (rc != 1)
		return rc < 0 ? -1 : 1;
	if (p[0] != '/')
		return refuse_relative(flag, reason, p, r) < 0 ? -1 : 1;
	real = realpath(p, NULL);
	if (real == NULL) {
		if (errno == ENOMEM)
			return -1;
		return refuse_unresolved(flag, reason, p, errno, r) < 0 ? -1 : 1;
	}
	rc = refuse_resolved(flag, reason, p, real, r);
	if (rc != 1) {
		free(real);
		return rc < 0 ? -1 : 1;
	}
	*out = real;
	return 0;
}
