/* SPDX-License-Identifier: MIT */
/* inuse.c -- is a directory some process's working directory or root
 * (os_dir_in_use_at), and the mount a descriptor is on (os_mount_id), on
 * darwin.
 *
 * There is no /proc: proc_listallpids() lists the processes and
 * proc_pidinfo(PROC_PIDVNODEPATHINFO) gives each one's working directory
 * and root (<sys/proc_info.h> struct proc_vnodepathinfo: pvi_cdir and
 * pvi_rdir, each the vnode's identity (vst_dev, vst_ino) and a path).  The
 * identity is compared first; then the path is opened and its identity
 * checked against the kernel's before it is walked up by ".." comparing
 * identities, as the Linux layer walks its /proc links: a tree reached by
 * any name is found.  A path that no longer opens to that vnode (renamed
 * meanwhile) is counted unseen, never as not in use.  Another user's
 * processes are refused to the caller (EPERM) and counted unseen.
 *
 * The mount is fstatfs()'s: f_fsid with the mount-on name (f_mntonname),
 * folded into one id, so two mounts of one file system differ too.
 *
 * Written from Apple's documentation and the XNU headers without a Mac:
 * compiled and run by no CI (docs/MACOS.md, the first-Mac checklist). */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <libproc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/param.h>
#include <sys/proc_info.h>
#include <sys/stat.h>
#include <unistd.h>

#define INUSE_MAX_DEPTH 4096

int
os_mount_id(int fd, unsigned long long *id)
{
	struct statfs f;
	unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
	const unsigned char *b;

	if (fstatfs(fd, &f) != 0)
		return -1;
	b = (const unsigned char *)&f.f_fsid;
	for (size_t i = 0; i < sizeof(f.f_fsid); i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	for (b = (const unsigned char *)f.f_mntonname; *b; b++)
		h = (h ^ *b) * 1099511628211ULL;
	*id = h;
	return 0;
}

/* One of a process's directories: 1 in use, 0 not, 2 could not look. */
static int
one_dir(const struct vnode_info_path *v, const struct stat *want)
{
	const struct vinfo_stat *vs = &v->vip_vi.vi_stat;
	struct stat st;
	int fd;

	if (v->vip_path[0] == '\0')
		return 0; /* none (no chroot: no root of its own) */
	if ((dev_t)vs->vst_dev == want->st_dev &&
	    (ino_t)vs->vst_ino == want->st_ino)
		return 1;
	fd = open(v->vip_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 2; /* gone meanwhile, or refused: not looked at */
	if (fstat(fd, &st) != 0 || st.st_dev != (dev_t)vs->vst_dev ||
	    st.st_ino != (ino_t)vs->vst_ino) {
		close(fd);
		return 2; /* the name no longer reaches that directory */
	}
	return posix_beneath(fd, want, INUSE_MAX_DEPTH);
}

/* 1 in use, 0 not, 2 could not look. */
static int
one_pid(pid_t pid, const struct stat *want)
{
	struct proc_vnodepathinfo vp;
	int r, rr;

	if (proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0, &vp, sizeof(vp)) !=
	    (int)sizeof(vp))
		return errno == ESRCH ? 0 : 2; /* gone: nothing to see */
	r = one_dir(&vp.pvi_cdir, want);
	if (r == 1)
		return 1;
	rr = one_dir(&vp.pvi_rdir, want);
	if (rr == 1)
		return 1;
	return r == 2 || rr == 2 ? 2 : 0;
}

static int
dir_in_use_fd(int dir_fd, unsigned *unseen)
{
	struct stat want;
	pid_t *pids = NULL;
	int n, cap, rc = 0;

	*unseen = 0;
	if (fstat(dir_fd, &want) != 0)
		return -1;
	/* proc_listallpids(NULL, 0) answers how many there are now */
	if ((cap = proc_listallpids(NULL, 0)) <= 0)
		return -1;
	cap += 64;
	if ((pids = calloc((size_t)cap, sizeof(*pids))) == NULL)
		return -1;
	n = proc_listallpids(pids, cap * (int)sizeof(*pids));
	if (n <= 0) {
		free(pids);
		return -1;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		int r;

		if (pids[i] <= 0)
			continue;
		r = one_pid(pids[i], &want);
		if (r == 1)
			rc = 1;
		else if (r == 2)
			(*unseen)++;
	}
	free(pids);
	return rc;
}

int
os_dir_in_use_at(int dirfd, const char *name, unsigned *unseen)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC), rc;

	*unseen = 0;
	if (fd < 0)
		return -1;
	rc = dir_in_use_fd(fd, unseen);
	close(fd);
	return rc;
}

int
os_pid_cwd_name(int64_t pid, char *buf, size_t n)
{
	(void)pid;
	if (n > 0)
		buf[0] = '\0';
	errno = ENOSYS; /* no name reaches another process's cwd */
	return -1;
}
