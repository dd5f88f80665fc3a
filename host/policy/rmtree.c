/* SPDX-License-Identifier: MIT */
/* rmtree.c -- rmtree_at (rmtree.h), through os.h's descriptor calls so
 * every platform removes a tree the same way: a directory's names are
 * listed first, then each is removed, a link as the link; a directory on
 * another mount than its parent's (another file system, or a bind mount
 * of the same one) is never entered: rm -rf would empty what is mounted
 * there. */
#include "policy/rmtree.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "os/os.h"

/* Where a directory lies: its device and, where the platform can say,
 * its mount (a bind mount of the same file system differs only there). */
struct where {
	uint64_t dev;
	unsigned long long mnt;
	int has_mnt;
};

static void
where_of(int fd, const struct os_stat *st, struct where *w)
{
	w->dev = st->dev;
	w->has_mnt = os_mount_id(fd, &w->mnt) == 0;
}

static int
same_mount(const struct where *a, const struct where *b)
{
	return a->dev == b->dev &&
	       (!a->has_mnt || !b->has_mnt || a->mnt == b->mnt);
}

static int rm_at(int dfd, const char *leaf, const struct where *up,
		 unsigned max_depth, unsigned how);

static int
keep_name(void *arg, const char *name)
{
	return strv_push(arg, name) < 0 ? -1 : 0;
}

/* Every entry of the directory open on fd (at `here`), depth first. */
static int
rm_entries(int fd, const struct where *here, unsigned max_depth,
	   unsigned how)
{
	struct strv names = {0};
	int rc = os_dir_names(fd, NULL, keep_name, &names), saved;

	if (rc == 0 && strv_failed(&names)) {
		errno = ENOMEM;
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < names.n; i++)
		rc = rm_at(fd, names.v[i], here, max_depth, how);
	saved = errno;
	strv_free(&names);
	errno = saved;
	return rc;
}

/* The directory leaf of dfd (sb: what os_fstat_at said) opened, with
 * RMTREE_OWN_MODES a chmod 000 the user made undone; -1 with errno, also
 * when the directory was replaced while it was looked at. */
static int
open_dir(int dfd, const char *leaf, const struct os_stat *sb,
	 struct os_stat *ds, unsigned how)
{
	int own = (how & RMTREE_OWN_MODES) && sb->uid == os_euid();
	int fd = os_open_read_at(dfd, leaf, 1), saved;

	if (fd < 0 && errno == EACCES && own &&
	    os_fchmod_at(dfd, leaf, (sb->mode & 07777) | 0700) == 0)
		fd = os_open_read_at(dfd, leaf, 1);
	if (fd < 0)
		return -1;
	if (os_fstat(fd, ds) != 0)
		saved = errno;
	else if (ds->dev != sb->dev || ds->ino != sb->ino)
		saved = EAGAIN; /* replaced while looked at */
	else
		saved = 0;
	if (saved != 0) {
		close(fd);
		errno = saved;
		return -1;
	}
	if (own && (ds->mode & 0700) != 0700)
		os_fchmod(fd, (ds->mode & 07777) | 0700);
	return fd;
}

static int
rm_at(int dfd, const char *leaf, const struct where *up, unsigned max_depth,
      unsigned how)
{
	struct os_stat sb, ds;
	struct where here;
	int fd, rc, saved;

	if (os_fstat_at(dfd, leaf, &sb) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(sb.mode))
		return os_unlink_at(dfd, leaf, 0) == 0 || errno == ENOENT ? 0 : -1;
	if (max_depth == 0)
		return RMTREE_TOO_DEEP;
	if ((fd = open_dir(dfd, leaf, &sb, &ds, how)) < 0)
		return -1;
	where_of(fd, &ds, &here);
	if (!same_mount(&here, up)) {
		close(fd);
		return RMTREE_MOUNT; /* what is mounted there stays whole */
	}
	rc = rm_entries(fd, &here, max_depth - 1, how);
	saved = errno;
	close(fd);
	if (rc != 0) {
		errno = saved;
		return rc < -1 ? rc : -1;
	}
	return os_unlink_at(dfd, leaf, 1) == 0 || errno == ENOENT ? 0 : -1;
}

int
rmtree_at_how(int dfd, const char *leaf, unsigned max_depth, unsigned how)
{
	struct os_stat ds;
	struct where top;

	if (os_fstat(dfd, &ds) != 0)
		return -1;
	where_of(dfd, &ds, &top);
	return rm_at(dfd, leaf, &top, max_depth, how);
}

int
rmtree_at(int dfd, const char *leaf, unsigned max_depth)
{
	return rmtree_at_how(dfd, leaf, max_depth, 0);
}
