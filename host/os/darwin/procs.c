/* SPDX-License-Identifier: MIT */
/* procs.c -- the processes of the system on darwin (os/os.h os_procs,
 * os_task_total) and the memory the resident sets do not show (os_memfs,
 * os_shmem, os_proc_memory).
 *
 * The list is one sysctl {CTL_KERN, KERN_PROC, KERN_PROC_ALL} (sysctl(3)):
 * a struct kinfo_proc per process, with its parent (kp_eproc.e_ppid), its
 * process group (kp_eproc.e_pgid), its state (kp_proc.p_stat, SZOMB a
 * zombie) and its start (kp_proc.p_starttime).  The resident size is
 * proc_pidinfo(PROC_PIDTASKINFO)'s pti_resident_size (<libproc.h>), asked
 * only of the caller's own processes (the kernel refuses others'; the
 * command's tree is the caller's).  There is no per-process swap, no
 * tmpfs by default and no Shmem total: the memory cap counts resident
 * memory alone here (docs/SPEC-SANDBOX.md, darwin's gaps).
 *
 * Written from Apple's documentation and the XNU headers without a Mac:
 * compiled and run by no CI (docs/MACOS.md, the first-Mac checklist). */
#include "os/os.h"

#include <errno.h>
#include <libproc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/proc.h>
#include <sys/proc_info.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <unistd.h>

/* The kinfo_proc of every process: heap (*n entries), or NULL (errno). */
static struct kinfo_proc *
all_procs(size_t *n)
{
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0 };
	struct kinfo_proc *v = NULL;

	for (int tries = 0; tries < 8; tries++) {
		size_t len = 0;
		struct kinfo_proc *nv;

		if (sysctl(mib, 3, NULL, &len, NULL, 0) != 0)
			break;
		len += len / 8 + 16 * sizeof(*v); /* room for a few new ones */
		nv = realloc(v, len);
		if (nv == NULL)
			break;
		v = nv;
		if (sysctl(mib, 3, v, &len, NULL, 0) == 0) {
			*n = len / sizeof(*v);
			return v;
		}
		if (errno != ENOMEM)
			break;
	}
	free(v);
	return NULL;
}

int
os_procs(int (*fn)(void *arg, const struct os_proc *p), void *arg)
{
	uid_t me = geteuid();
	struct kinfo_proc *v;
	size_t n = 0;
	int rc = 0;

	if ((v = all_procs(&n)) == NULL)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct kinfo_proc *k = &v[i];
		struct proc_taskinfo ti;
		struct os_proc p;

		if (k->kp_proc.p_pid <= 0)
			continue;
		memset(&p, 0, sizeof(p));
		p.pid = k->kp_proc.p_pid;
		p.ppid = k->kp_eproc.e_ppid;
		p.pgid = k->kp_eproc.e_pgid;
		p.start = (uint64_t)k->kp_proc.p_starttime.tv_sec * 1000000u +
			  (uint64_t)k->kp_proc.p_starttime.tv_usec;
		p.state = k->kp_proc.p_stat == SZOMB ? 'Z' :
			  k->kp_proc.p_stat == SSTOP ? 'T' : 'S';
		if (k->kp_eproc.e_ucred.cr_uid == me &&
		    proc_pidinfo(p.pid, PROC_PIDTASKINFO, 0, &ti, sizeof(ti)) ==
		    (int)sizeof(ti))
			p.rss = ti.pti_resident_size;
		rc = fn(arg, &p);
	}
	free(v);
	return rc;
}

int
os_task_total(uint64_t *tasks)
{
	struct kinfo_proc *v;
	size_t n = 0;

	if ((v = all_procs(&n)) == NULL)
		return -1;
	free(v);
	*tasks = n;
	return 0;
}

int
os_memfs(int fd, uint64_t *used)
{
	(void)fd;
	*used = 0;
	return 0; /* no memory file system is counted on darwin */
}

int
os_shmem(uint64_t *bytes)
{
	*bytes = 0;
	errno = ENOSYS;
	return -1;
}

int
os_proc_memory(const int64_t *pids, size_t n,
	       int (*skip)(void *arg, uint64_t dev), void *arg,
	       struct os_memuse *out)
{
	(void)pids;
	(void)n;
	(void)skip;
	(void)arg;
	memset(out, 0, sizeof(*out));
	errno = ENOSYS;
	return -1;
}

/* ---- one process: what it runs, who owns it ------------------------- */

int
os_proc_exe(int64_t pid, struct os_stat *st)
{
	char path[PROC_PIDPATHINFO_MAXSIZE];

	if (proc_pidpath(pid == 0 ? getpid() : (pid_t)pid, path,
			 sizeof(path)) <= 0)
		return -1;
	return os_stat_path(path, st);
}

int
os_proc_owner_comm(int64_t pid, uint32_t *uid, char *comm, size_t n)
{
	struct proc_bsdinfo bi;
	size_t k;

	if (n == 0 || proc_pidinfo(pid == 0 ? getpid() : (pid_t)pid,
				   PROC_PIDTBSDINFO, 0, &bi, sizeof(bi)) !=
	    (int)sizeof(bi))
		return -1;
	k = strnlen(bi.pbi_comm, sizeof(bi.pbi_comm));
	if (k >= n)
		k = n - 1;
	memcpy(comm, bi.pbi_comm, k);
	comm[k] = '\0';
	*uid = (uint32_t)bi.pbi_uid;
	return 0;
}
