/* SPDX-License-Identifier: MIT */
/* procs.c -- the tool's own processes on Windows (os/os.h "the tool's own
 * processes"): run's keeper channel, the SIGCHLD wait, the subreaper and
 * the parent-death signal belong to the forked flow (run/keeper.c,
 * run/supervise.c, proc/reaper.c), which the Windows build leaves out
 * (proc/noreaper.c, run/nofork.c): each says ENOSYS, never pretends.  The
 * random source is the C runtime's rand_s (RtlGenRandom). */
#define _CRT_RAND_S
#include "os/os.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
os_pipe(int fds[2])
{
	fds[0] = fds[1] = -1;
	errno = ENOSYS;
	return -1;
}

int
os_hold_dir(int dirfd, int keepfd, int64_t *pid)
{
	(void)dirfd;
	(void)keepfd;
	*pid = -1;
	errno = ENOSYS;
	return -1;
}

int
os_pid_cwd_name(int64_t pid, char *buf, size_t n)
{
	(void)pid;
	if (n > 0)
		buf[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int
os_msg_pair(int sv[2])
{
	sv[0] = sv[1] = -1;
	errno = ENOSYS;
	return -1;
}

int
os_msg_send(int sock, const void *buf, size_t len, int fd)
{
	(void)sock;
	(void)buf;
	(void)len;
	(void)fd;
	errno = ENOSYS;
	return -1;
}

int
os_msg_recv(int sock, void *buf, size_t len, int *fd)
{
	(void)sock;
	(void)buf;
	(void)len;
	*fd = -1;
	errno = ENOSYS;
	return -1;
}

void
os_sigchld_block(void)
{
}

void
os_sigchld_wait(long long ns)
{
	(void)ns;
}

int
os_subreaper(void)
{
	errno = ENOSYS;
	return -1;
}

int
os_die_with_parent(void)
{
	errno = ENOSYS;
	return -1;
}

/* Windows has no root to drop (the job object's token is the run's). */
int
os_become_nobody(void)
{
	return 0;
}

/* No inherited descriptor table to close: handles are inherited only
 * where a launch names them. */
void
os_close_from(int lowfd)
{
	(void)lowfd;
}

int
os_random_bytes(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		unsigned int v;
		size_t k = n < sizeof(v) ? n : sizeof(v);

		if (rand_s(&v) != 0) {
			errno = EIO;
			return -1;
		}
		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
	return 0;
}

/* ---- the caps' process list and memory: the wall keeps the caps on
 * Windows (NS_WALL_CAPS_NATIVE, the job's limits): never asked here ---- */

int
os_procs(int (*fn)(void *arg, const struct os_proc *p), void *arg)
{
	(void)fn;
	(void)arg;
	errno = ENOSYS;
	return -1;
}

int
os_task_total(uint64_t *tasks)
{
	*tasks = 0;
	errno = ENOSYS;
	return -1;
}

int
os_memfs(int fd, uint64_t *used)
{
	(void)fd;
	*used = 0;
	return 0;
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

int
os_proc_exe(int64_t pid, struct os_stat *st)
{
	(void)pid;
	memset(st, 0, sizeof(*st));
	errno = ENOSYS;
	return -1;
}

int
os_proc_owner_comm(int64_t pid, uint32_t *uid, char *comm, size_t n)
{
	(void)pid;
	*uid = 0;
	if (n > 0)
		comm[0] = '\0';
	errno = ENOSYS;
	return -1;
}
