/* SPDX-License-Identifier: MIT */
/* rmtree.c -- rmtree_at (rmtree.h), through os.h's descriptor calls so
 * every platform removes a tree the same way: a directory's names are
 * listed first, then each is removed, a link as the link. */
#include "policy/rmtree.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "os/os.h"

static int
keep_name(void *arg, const char *name)
{
	return strv_push(arg, name) < 0 ? -1 : 0;
}

/* Every entry of the directory open on fd, removed depth first. */
static int
rm_entries(int fd, unsigned max_depth)
{
	struct strv names = {0};
	int rc = os_dir_names(fd, NULL, keep_name, &names), saved;

	if (rc == 0 && strv_failed(&names)) {
		errno = ENOMEM;
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < names.n; i++)
		rc = rmtree_at(fd, names.v[i], max_depth);
	saved = errno;
	strv_free(&names);
	errno = saved;
	return rc;
}

int
rmtree_at(int dfd, const char *leaf, unsigned max_depth)
{
	struct os_stat sb;
	int fd, rc, saved;

	if (os_fstat_at(dfd, leaf, &sb) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(sb.mode))
		return os_unlink_at(dfd, leaf, 0);
	if (max_depth == 0)
		return RMTREE_TOO_DEEP;
	if ((fd = os_open_read_at(dfd, leaf, 1)) < 0)
		return -1;
	rc = rm_entries(fd, max_depth - 1);
	saved = errno;
	close(fd);
	if (rc != 0) {
		errno = saved;
		return rc == RMTREE_TOO_DEEP ? rc : -1;
	}
	return os_unlink_at(dfd, leaf, 1);
}
