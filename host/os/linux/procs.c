/* SPDX-License-Identifier: MIT */
/* procs.c -- the processes of the system on linux (os/os.h os_procs,
 * os_task_total) from /proc, and the memory the resident sets do not show
 * (os_memfs, os_shmem, os_proc_memory): statfs's magic numbers, sysinfo(2),
 * /proc/<pid>/fd and VmSwap.  The parsers are pure and unit-tested
 * (os/linux/linux.h, tests/unit/test_linux_procs.c). */
#include "os/os.h"
#include "os/posix/posix.h"
#include "os/linux/linux.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "base/util.h"

#define STAT_MAX 1024       /* one /proc/<pid>/stat line */
#define STATUS_MAX 4096     /* one /proc/<pid>/status */
#define FS_CACHE 16         /* filesystems remembered per count */

/* ---- pure: the texts of /proc and sysinfo(2) ------------------------- */

/* The idx-th space-separated token of s (its length in *len), or NULL. */
static const char *
token(const char *s, size_t idx, size_t *len)
{
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0' || *s == '\n')
			return NULL;
		*len = strcspn(s, " \n");
		if (idx-- == 0)
			return s;
		s += *len;
	}
}

static int
span_u64(const char *s, size_t len, unsigned long long *out)
{
	char buf[32];

	if (s == NULL || len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_u64(buf, ULLONG_MAX, out);
}

static int
token_u64(const char *s, size_t idx, unsigned long long *out)
{
	size_t len = 0;
	const char *t = token(s, idx, &len);

	return span_u64(t, len, out);
}


/* "<pid> (<comm>) <state> <ppid> <pgrp> ... <starttime: field 22> ...
 * <rss: field 24> ..."; comm may hold spaces and parentheses, so the
 * fields are counted from the last ')'. */
int
linux_parse_stat(const char *text, unsigned long long page,
		 struct os_proc *p)
{
	const char *rp = strrchr(text, ')');
	unsigned long long pid, ppid, pgrp, start, rss;

	if (rp == NULL || rp[1] != ' ' || rp[2] == '\0' || rp[3] != ' ' ||
	    token_u64(text, 0, &pid) != 0 || pid == 0 || pid > INT32_MAX ||
	    token_u64(rp + 3, 0, &ppid) != 0 || ppid > INT32_MAX ||
	    token_u64(rp + 3, 1, &pgrp) != 0 || pgrp > INT32_MAX ||
	    token_u64(rp + 3, 18, &start) != 0 ||
	    token_u64(rp + 3, 20, &rss) != 0)
		return -1;
	memset(p, 0, sizeof(*p));
	p->pid = (int64_t)pid;
	p->ppid = (int64_t)ppid;
	p->pgid = (int64_t)pgrp;
	p->start = start;
	p->state = rp[2];
	p->rss = (page && rss > ULLONG_MAX / page) ? ULLONG_MAX : rss * page;
	return 0;
}

/* "0.00 0.01 0.05 <running>/<total> <lastpid>" */
int
linux_parse_loadavg(const char *text, unsigned long long *tasks)
{
	size_t len = 0;
	const char *t = token(text, 3, &len);
	const char *slash = t ? memchr(t, '/', len) : NULL;

	if (slash == NULL)
		return -1;
	return span_u64(slash + 1, len - (size_t)(slash + 1 - t), tasks);
}

/* sysinfo(2)'s shared RAM (the number /proc/meminfo shows as Shmem) in
 * bytes; 0, or -1 when it does not fit. */
int
linux_sysinfo_shmem(const struct sysinfo *si, unsigned long long *bytes)
{
	unsigned long long unit = si->mem_unit ? si->mem_unit : 1;

	if ((unsigned long long)si->sharedram > ULLONG_MAX / unit)
		return -1;
	*bytes = (unsigned long long)si->sharedram * unit;
	return 0;
}

/* sysinfo(2)'s task total (the denominator /proc/loadavg shows); -1 when
 * its 16-bit field may have wrapped: then ask /proc/loadavg. */
int
linux_sysinfo_tasks(const struct sysinfo *si, unsigned long long *tasks)
{
	if (si->procs >= USHRT_MAX)
		return -1;
	*tasks = si->procs;
	return 0;
}

/* ---- the /proc reader ------------------------------------------------ */

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Read a small file under dirfd into buf (NUL-terminated); 0 or -1. */
static int
read_small(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = posix_fd(openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
	ssize_t got;

	if (fd < 0)
		return -1;
	do
		got = read(fd, buf, size - 1);
	while (got < 0 && errno == EINTR);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	return 0;
}

int
os_procs(int (*fn)(void *arg, const struct os_proc *p), void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long pg = page > 0 ? (unsigned long long)page : 4096;
	int fd = posix_fd(open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	char path[64], text[STAT_MAX];
	struct os_proc p;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (fd < 0)
		return -1;
	if ((d = fdopendir(fd)) == NULL)
		return close(fd), -1;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!all_digits(e->d_name) ||
		    snprintf(path, sizeof(path), "%s/stat", e->d_name) >=
		    (int)sizeof(path))
			continue;
		/* one that is gone meanwhile is simply not listed */
		if (read_small(dirfd(d), path, text, sizeof(text)) != 0 ||
		    linux_parse_stat(text, pg, &p) != 0)
			continue;
		rc = fn(arg, &p);
	}
	closedir(d);
	return rc;
}

/* The system's task total: one sysinfo(2), /proc/loadavg only past what
 * sysinfo's 16-bit count can say. */
int
os_task_total(uint64_t *tasks)
{
	char text[256];
	unsigned long long t;
	struct sysinfo si;

	if (sysinfo(&si) == 0 && linux_sysinfo_tasks(&si, &t) == 0)
		return *tasks = t, 0;
	if (read_small(AT_FDCWD, "/proc/loadavg", text, sizeof(text)) != 0 ||
	    linux_parse_loadavg(text, &t) != 0)
		return -1;
	*tasks = t;
	return 0;
}

/* ---- memory the summed RSS does not see ------------------------------- */

static int
is_memfs(const struct statfs *f)
{
	return f->f_type == TMPFS_MAGIC || f->f_type == HUGETLBFS_MAGIC ||
	       f->f_type == RAMFS_MAGIC;
}

int
os_memfs(int fd, uint64_t *used)
{
	struct statfs f;
	unsigned long long u;

	if (fstatfs(fd, &f) != 0)
		return -1;
	if (!is_memfs(&f))
		return 0;
	u = f.f_blocks >= f.f_bfree ? f.f_blocks - f.f_bfree : 0;
	*used = u * (unsigned long long)f.f_bsize;
	return 1;
}

/* The machine's Shmem now: one sysinfo(2), no /proc/meminfo to render
 * and parse. */
int
os_shmem(uint64_t *bytes)
{
	struct sysinfo si;
	unsigned long long b;

	if (sysinfo(&si) != 0 || linux_sysinfo_shmem(&si, &b) != 0)
		return -1;
	*bytes = b;
	return 0;
}

/* The memory files held by the members' descriptors, deduplicated. */
struct memfile {
	dev_t dev;
	ino_t ino;
	unsigned long long bytes;
};

struct memscan {
	struct memfile *v;
	size_t n, cap;
	struct { dev_t dev; int mem; } fs[FS_CACHE];
	size_t nfs;
	int (*skip)(void *arg, uint64_t dev);
	void *skip_arg;
	size_t budget;   /* descriptors this count may still look at */
	int blind;       /* some descriptor was not looked at */
};

static int
denied(int err)
{
	return err == EACCES || err == EPERM;
}

/* Is the file's filesystem a memory one?  statfs through the magic link,
 * remembered per device. */
static int
memfs_of(struct memscan *m, dev_t dev, const char *link)
{
	struct statfs f;
	int mem;

	for (size_t i = 0; i < m->nfs; i++)
		if (m->fs[i].dev == dev)
			return m->fs[i].mem;
	mem = statfs(link, &f) == 0 && is_memfs(&f);
	if (m->nfs < FS_CACHE) {
		m->fs[m->nfs].dev = dev;
		m->fs[m->nfs++].mem = mem;
	}
	return mem;
}

static int
memscan_add(struct memscan *m, const struct stat *st)
{
	struct memfile *v;

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;

		if ((v = realloc(m->v, cap * sizeof(*v))) == NULL)
			return -1;
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n].dev = st->st_dev;
	m->v[m->n].ino = st->st_ino;
	m->v[m->n++].bytes = (unsigned long long)st->st_blocks * 512ULL;
	return 0;
}

/* Every descriptor of pid: a regular file on a memory filesystem that is
 * not a watched root (counted by its growth) is added.  A process gone
 * meanwhile adds nothing; one whose descriptors are denied to the tool
 * (non-dumpable), or past the bounds (OS_FD_PER_PROC, m->budget), makes
 * the count blind: the rest is left to the Shmem growth. */
static int
scan_fds(struct memscan *m, int procfd, pid_t pid)
{
	char path[64], link[300];
	struct dirent *e;
	struct stat st;
	size_t seen = 0;
	DIR *d;
	int fd, rc = 0;

	if (m->budget == 0) {  /* the count's bound is spent: not opened */
		m->blind = 1;
		return 0;
	}
	snprintf(path, sizeof(path), "%d/fd", (int)pid);
	fd = posix_fd(openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (fd < 0) {
		m->blind |= denied(errno);
		return 0;
	}
	if ((d = fdopendir(fd)) == NULL)
		return close(fd), 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!all_digits(e->d_name))
			continue;
		if (seen == OS_FD_PER_PROC || m->budget == 0) {
			m->blind = 1;
			break;
		}
		seen++;
		m->budget--;
		if (fstatat(dirfd(d), e->d_name, &st, 0) != 0) {
			m->blind |= denied(errno);
			continue;
		}
		if (!S_ISREG(st.st_mode) ||
		    (m->skip != NULL && m->skip(m->skip_arg, (uint64_t)st.st_dev)))
			continue;
		if (snprintf(link, sizeof(link), "/proc/%d/fd/%s", (int)pid,
			     e->d_name) >= (int)sizeof(link))
			continue;
		if (memfs_of(m, st.st_dev, link))
			rc = memscan_add(m, &st);
	}
	closedir(d);
	return rc;
}

static int
by_file(const void *a, const void *b)
{
	const struct memfile *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

static unsigned long long
memscan_sum(struct memscan *m)
{
	unsigned long long sum = 0;

	if (m->n > 0) /* an empty list may have no array: qsort wants one */
		qsort(m->v, m->n, sizeof(*m->v), by_file);
	for (size_t i = 0; i < m->n; i++)
		if (i == 0 || by_file(&m->v[i - 1], &m->v[i]) != 0)
			sum += m->v[i].bytes;
	return sum;
}

/* VmSwap of pid in bytes; 0 when unreadable. */
static unsigned long long
swap_of(int procfd, pid_t pid)
{
	char path[64], text[STATUS_MAX];
	unsigned long long kb = 0;
	const char *p;

	snprintf(path, sizeof(path), "%d/status", (int)pid);
	if (read_small(procfd, path, text, sizeof(text)) != 0 ||
	    (p = strstr(text, "\nVmSwap:")) == NULL)
		return 0;
	p += strlen("\nVmSwap:");
	while (*p == ' ' || *p == '\t')
		p++;
	if (token_u64(p, 0, &kb) != 0)
		return 0;
	return kb * 1024ULL;
}

static unsigned long long
sat_add(unsigned long long a, unsigned long long b)
{
	return b > ULLONG_MAX - a ? ULLONG_MAX : a + b;
}

int
os_proc_memory(const int64_t *pids, size_t n,
	       int (*skip)(void *arg, uint64_t dev), void *arg,
	       struct os_memuse *out)
{
	struct memscan m;
	struct sysinfo si;
	int procfd = posix_fd(open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	int rc = 0, swap;

	memset(out, 0, sizeof(*out));
	if (procfd < 0)
		return -1;
	/* no swap on the machine: nothing can be swapped out, skip the reads */
	swap = sysinfo(&si) != 0 || si.totalswap > 0;
	memset(&m, 0, sizeof(m));
	m.skip = skip;
	m.skip_arg = arg;
	m.budget = OS_FD_PER_COUNT;
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = scan_fds(&m, procfd, (pid_t)pids[i]);
		if (swap)
			out->swap = sat_add(out->swap,
					    swap_of(procfd, (pid_t)pids[i]));
	}
	close(procfd);
	out->held = memscan_sum(&m);
	out->blind = m.blind;
	free(m.v);
	return rc;
}

/* ---- one process: what it runs, who owns it ------------------------- */

static void
proc_path(char *buf, size_t n, int64_t pid, const char *what)
{
	if (pid == 0)
		snprintf(buf, n, "/proc/self%s%s", what[0] ? "/" : "", what);
	else
		snprintf(buf, n, "/proc/%lld%s%s", (long long)pid,
			 what[0] ? "/" : "", what);
}

int
os_proc_exe(int64_t pid, struct os_stat *st)
{
	char p[64];

	proc_path(p, sizeof(p), pid, "exe");
	return os_stat_path(p, st);
}

int
os_proc_owner_comm(int64_t pid, uint32_t *uid, char *comm, size_t n)
{
	char p[64];
	struct stat st;
	char text[64];

	proc_path(p, sizeof(p), pid, "");
	if (stat(p, &st) != 0)
		return -1;
	proc_path(p, sizeof(p), pid, "comm");
	if (n == 0 || read_small(AT_FDCWD, p, text, sizeof(text)) != 0)
		return -1;
	text[strcspn(text, "\n")] = '\0';
	snprintf(comm, n, "%s", text);
	*uid = (uint32_t)st.st_uid;
	return 0;
}
