/* SPDX-License-Identifier: MIT */
/* tcwrite.c -- where the command could write, for rule 3a's discovery: a
 * tool or a root it names is refused when the command (or any user but
 * root) could change it, through a --write or a directory it may rename
 * (tcdisc.h). */
#include "policy/toolchain.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/policy.h"
#include "policy/tcdisc.h"

/* ---- where the command could write -------------------------------------- */

/* realpath of p, or a copy of p when it cannot be resolved (heap). */
char *
tc_canon(const char *p)
{
	char *real = os_real_path(p);

	return real != NULL ? real : strdup(p);
}

/* Is p a root ("/", "C:/", "//server/share/")? */
int
tc_is_root(const char *p)
{
	size_t n = os_root_len(p);

	return n > 0 && n >= strlen(p);
}

/* The directory above p opened (os_open_dir) and p's last component in
 * *leaf; -1 for a root (or a name ending in a separator). */
static int
parent_of(const char *p, const char **leaf)
{
	const char *s = os_last_sep(p);
	char *dir;
	int fd;

	if (tc_is_root(p) || s == NULL || s[1] == '\0')
		return -1;
	if ((dir = path_dirname(p)) == NULL)
		return -1;
	fd = os_open_dir(dir);
	free(dir);
	*leaf = s + 1;
	return fd;
}

/* p's status, a link at its end not followed (lstat): asked of its
 * directory (fstatat AT_SYMLINK_NOFOLLOW; Windows the entry opened as a
 * reparse point), so a link is looked at on every platform.  0, or -1. */
static int
lnstat(const char *p, struct os_stat *st)
{
	const char *leaf;
	int dfd, rc, e;

	if (tc_is_root(p))
		return os_stat_path(p, st);
	if ((dfd = parent_of(p, &leaf)) < 0)
		return -1;
	rc = os_fstat_at(dfd, leaf, st);
	e = errno;
	close(dfd);
	errno = e;
	return rc;
}

/* The --write (index) that p (canonical) or its identity st is inside or
 * is, or -1. */
int
tc_in_write(const struct disc *d, const char *p, const struct os_stat *st)
{
	for (size_t i = 0; i < d->wcanon.n; i++) {
		if (policy_inside(p, d->wcanon.v[i]))
			return (int)i;
		if (st != NULL && d->wid[i].ino != 0 &&
		    d->wid[i].dev == st->dev && d->wid[i].ino == st->ino)
			return (int)i;
	}
	return -1;
}

/* Can another user than root and us change st (a root-owned sticky
 * directory, /tmp, lets no one replace what is ours in it)?  Windows: the
 * owner SID and the DACL as os_fstat spells them. */
static int
changeable(const struct os_stat *st, uint32_t me)
{
	if (st->uid != 0 && st->uid != me)
		return 1;
	if ((st->mode & 022) == 0)
		return 0;
	return !(S_ISDIR(st->mode) && (st->mode & OS_S_ISVTX) && st->uid == 0);
}

/* real (canonical) and every directory above it: 0 outside every --write
 * and changeable by no other user; 1 inside --write *w; 2 changeable
 * (*why, heap); -1 ENOMEM. */
int
tc_placed(const struct disc *d, const char *real, int *w, char **why)
{
	char *p = strdup(real);
	uint32_t me = os_ruid();
	int rc = 0;

	while (rc == 0 && p != NULL) {
		struct os_stat st;
		char *up;

		if (lnstat(p, &st) != 0) {
			*why = str_fmt("%s cannot be checked (%s)", p,
				       strerror(errno));
			rc = 2;
		} else if ((*w = tc_in_write(d, p, &st)) >= 0) {
			rc = 1;
		} else if (changeable(&st, me)) {
			*why = str_fmt("%s (owner uid %u, mode %04o) could be "
				       "changed by another user", p,
				       (unsigned)st.uid,
				       (unsigned)(st.mode & 07777));
			rc = 2;
		}
		if (rc == 2 && *why == NULL)
			rc = -1;
		if (rc != 0 || tc_is_root(p))
			break;
		up = path_dirname(p);
		free(p);
		p = up;
	}
	if (p == NULL)
		rc = -1;
	free(p);
	return rc;
}

/* What the link at path holds (heap), or NULL: not a link, or unread. */
static char *
link_of(const char *path)
{
	struct os_stat st;
	const char *leaf;
	int dfd = parent_of(path, &leaf);
	char *l = NULL;

	if (dfd < 0)
		return NULL;
	if (os_fstat_at(dfd, leaf, &st) == 0 && OS_S_ISLNK(st.mode))
		l = os_link_read_at(dfd, leaf);
	close(dfd);
	return l;
}

/* The tool t found on PATH: every link from its PATH name to its file,
 * each link's directory and the file itself, as tc_placed() says; the file
 * must be the one t->fd holds. */
int
tool_placed(const struct disc *d, const struct tool *t, int *w, char **why)
{
	struct os_stat st, fst;
	char *cur = strdup(t->path), *real;
	int rc = 0;

	if (cur == NULL)
		return -1;
	for (int hop = 0; hop < MAXHOPS; hop++) {
		char *dir = path_dirname(cur), *rdir, *link = NULL, *next = NULL;

		if (dir == NULL) {
			free(cur);
			return -1;
		}
		rdir = tc_canon(dir);
		free(dir);
		if (rdir == NULL) {
			free(cur);
			return -1;
		}
		rc = tc_placed(d, rdir, w, why);
		if (rc == 0)
			link = link_of(cur);
		if (link != NULL)
			next = os_is_absolute(link) ? strdup(link) :
			       str_fmt("%s/%s", rdir, link);
		free(link);
		free(rdir);
		if (next == NULL)
			break; /* the file, or a verdict, is reached */
		free(cur);
		cur = next;
	}
	free(cur);
	if (rc != 0)
		return rc;
	real = os_real_path(t->path);
	if (real == NULL || os_stat_path(real, &st) != 0 ||
	    os_fstat(t->fd, &fst) != 0 || st.dev != fst.dev ||
	    st.ino != fst.ino) {
		free(real);
		*why = str_fmt("%s changed while it was checked", t->path);
		return *why ? 2 : -1;
	}
	rc = tc_placed(d, real, w, why);
	free(real);
	return rc;
}
