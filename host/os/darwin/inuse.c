/* SPDX-License-Identifier: MIT */
/* inuse.c -- darwin has no /proc to read another process's working
 * directory from (libproc's proc_pidinfo could: not written yet), so a
 * directory's use cannot be told: -1, which the worktree verb takes as
 * "in use" (never stale); and no mount id beside st_dev.  The tree lock
 * (os_dir_lock_at, flock) is os/posix/sys.c's.  Written without a Mac,
 * not compiled by CI (docs/MACOS.md). */
#include "os/os.h"

int
os_dir_in_use_at(int dirfd, const char *name, unsigned *unseen)
{
	(void)dirfd;
	(void)name;
	*unseen = 0;
	return -1;
}

int
os_mount_id(int fd, unsigned long long *id)
{
	(void)fd;
	(void)id;
	return -1;
}
