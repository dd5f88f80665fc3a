/* SPDX-License-Identifier: MIT */
/* caps.c -- the process and memory caps of the bare wrap (see caps.h):
 * pure table logic first, then the /proc reader, then the effects. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/caps.h"

#include "base/out.h"

#define STAT_MAX 1024       /* one /proc/<pid>/stat line */
#define STATUS_MAX 4096     /* one /proc/<pid>/status */
#define FS_CACHE 16         /* filesystems remembered per count */
#define FREEZE_ROUNDS 1000  /* walks at most while freezing (converges
			     * in a few: see freeze_tree) */
#define SETTLE_ROUNDS 40    /* kill walks, each followed by a wait of at
			     * most SETTLE_NS for a SIGCHLD */
#define SETTLE_NS 50000000L
#define KILL_REAP_ROUNDS 200 /* caps_kill_all: waits of KILL_REAP_NS for */
#define KILL_REAP_NS 10000000L /* the last children to be reaped */

/* ---- pure ------------------------------------------------------------ */

int
caps_table_add(struct caps_table *t, const struct caps_proc *p)
{
	struct caps_proc *v;
	size_t cap;

	if (t->n == t->cap) {
		cap = t->cap ? t->cap * 2 : 256;
		v = realloc(t->v, cap * sizeof(*v));
		if (v == NULL)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *p;
	return 0;
}

void
caps_table_free(struct caps_table *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

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

/* "<pid> (<comm>) <state> <ppid> ... <rss: field 24> ..."; comm may hold
 * spaces and parentheses, so the fields are counted from the last ')'. */
int
caps_parse_stat(const char *text, unsigned long long page,
		struct caps_proc *p)
{
	const char *rp = strrchr(text, ')');
	unsigned long long pid, ppid, rss;

	if (rp == NULL || rp[1] != ' ' || rp[2] == '\0' || rp[3] != ' ' ||
	    token_u64(text, 0, &pid) != 0 || pid == 0 || pid > INT32_MAX ||
	    token_u64(rp + 3, 0, &ppid) != 0 || ppid > INT32_MAX ||
	    token_u64(rp + 3, 20, &rss) != 0)
		return -1;
	p->pid = (pid_t)pid;
	p->ppid = (pid_t)ppid;
	p->state = rp[2];
	p->rss = (page && rss > ULLONG_MAX / page) ? ULLONG_MAX : rss * page;
	p->member = 0;
	return 0;
}

/* "0.00 0.01 0.05 <running>/<total> <lastpid>" */
int
caps_parse_loadavg(const char *text, unsigned long long *tasks)
{
	size_t len = 0;
	const char *t = token(text, 3, &len);
	const char *slash = t ? memchr(t, '/', len) : NULL;

	if (slash == NULL)
		return -1;
	return span_u64(slash + 1, len - (size_t)(slash + 1 - t), tasks);
}

unsigned long long
caps_nproc(unsigned long long tasks, unsigned long long cap,
	   unsigned long long cur)
{
	unsigned long long want = ULLONG_MAX;

	if (cap <= (ULLONG_MAX - tasks) / 2)
		want = tasks + 2 * cap;
	return cur < want ? cur : want;
}

static int
by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct caps_proc *)a)->pid;
	pid_t y = ((const struct caps_proc *)b)->pid;

	return (x > y) - (x < y);
}

static int
is_member(const struct caps_table *t, pid_t pid)
{
	struct caps_proc key = { .pid = pid };
	const struct caps_proc *p;

	p = bsearch(&key, t->v, t->n, sizeof(*t->v), by_pid);
	return p != NULL && p->member;
}

/* One pass; returns how many entries it marked.  Sorted by pid, a parent
 * mostly precedes its children, so one or two passes usually do. */
static size_t
mark_pass(struct caps_table *t, pid_t root)
{
	size_t marked = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct caps_proc *p = &t->v[i];

		if (p->member || p->pid == root)
			continue;
		if (p->ppid == root || is_member(t, p->ppid)) {
			p->member = 1;
			marked++;
		}
	}
	return marked;
}

void
caps_tree(struct caps_table *t, pid_t root, struct caps_usage *u)
{
	memset(u, 0, sizeof(*u));
	if (t->n == 0)
		return;
	qsort(t->v, t->n, sizeof(*t->v), by_pid);
	for (size_t i = 0; i < t->n; i++)
		t->v[i].member = 0;
	while (mark_pass(t, root) > 0)
		;
	for (size_t i = 0; i < t->n; i++) {
		if (!t->v[i].member)
			continue;
		u->procs++;
		u->live += t->v[i].state != 'Z' && t->v[i].state != 'X';
		u->mem = t->v[i].rss > ULLONG_MAX - u->mem ? ULLONG_MAX :
			 u->mem + t->v[i].rss;
	}
}

enum caps_over
caps_decide(const struct caps_usage *u, const struct caps_limits *l)
{
	/* hitting a cap is a runaway: a tree held at the process cap (forks
	 * refused, retried) is caught as one past it */
	if (u->procs >= l->procs)
		return CAPS_OVER_PROCS;
	if (u->mem >= l->mem)
		return CAPS_OVER_MEM;
	return CAPS_UNDER;
}

int
caps_text(struct sbuf *b, enum caps_over over, const struct caps_usage *u,
	  const struct caps_limits *l, enum caps_tail tail, size_t left)
{
	int rc;

	if (over == CAPS_OVER_PROCS)
		rc = sbuf_addf(b, "runaway: %zu processes (cap %llu); ",
			       u->procs, l->procs);
	else if (over == CAPS_OVER_MEM)
		rc = sbuf_addf(b, "runaway: %llu bytes of memory (cap %llu); ",
			       u->mem, l->mem);
	else
		return -1;
	if (rc != 0)
		return rc;
	if (tail == CAPS_KILLED)
		return sbuf_add(b, "the process tree was killed");
	if (tail == CAPS_SURVIVORS)
		return sbuf_addf(b, "the process tree was sent SIGKILL and %zu "
				 "of its processes are still running", left);
	return sbuf_add(b, "the process tree could not be counted after");
}

/* sysinfo(2)'s shared RAM (the number /proc/meminfo shows as Shmem) in
 * bytes; 0, or -1 when it does not fit. */
int
caps_sysinfo_shmem(const struct sysinfo *si, unsigned long long *bytes)
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
caps_sysinfo_tasks(const struct sysinfo *si, unsigned long long *tasks)
{
	if (si->procs >= USHRT_MAX)
		return -1;
	*tasks = si->procs;
	return 0;
}

unsigned long long
caps_files_term(unsigned long long seen, int blind,
		unsigned long long shmem_growth)
{
	if (!blind)
		return seen;
	return shmem_growth > seen ? shmem_growth : seen;
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
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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

/* One process; one that is gone meanwhile is simply not added. */
static int
add_pid(struct caps_table *t, int procfd, const char *name,
	unsigned long long page)
{
	char path[64], text[STAT_MAX];
	struct caps_proc p;

	if (snprintf(path, sizeof(path), "%s/stat", name) >= (int)sizeof(path))
		return 0;
	if (read_small(procfd, path, text, sizeof(text)) != 0 ||
	    caps_parse_stat(text, page, &p) != 0)
		return 0;
	return caps_table_add(t, &p);
}

int
caps_read_proc(struct caps_table *t)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;
	int rc = 0;

	t->n = 0;
	if (fd < 0)
		return -1;
	if ((d = fdopendir(fd)) == NULL)
		return close(fd), -1;
	while (rc == 0 && (e = readdir(d)) != NULL)
		if (all_digits(e->d_name))
			rc = add_pid(t, dirfd(d), e->d_name,
				     page > 0 ? (unsigned long long)page : 4096);
	closedir(d);
	return rc;
}

/* ---- effects --------------------------------------------------------- */

int
caps_count(pid_t root, struct caps_usage *u)
{
	struct caps_table t = {0};
	int rc = caps_read_proc(&t);

	if (rc == 0)
		caps_tree(&t, root, u);
	caps_table_free(&t);
	return rc;
}

/* The system's task total: one sysinfo(2), /proc/loadavg only past what
 * sysinfo's 16-bit count can say. */
static int
system_tasks(unsigned long long *tasks)
{
	char text[256];
	struct sysinfo si;

	if (sysinfo(&si) == 0 && caps_sysinfo_tasks(&si, tasks) == 0)
		return 0;
	if (read_small(AT_FDCWD, "/proc/loadavg", text, sizeof(text)) != 0)
		return -1;
	return caps_parse_loadavg(text, tasks);
}

int
caps_limit_nproc(const struct caps_limits *l)
{
	unsigned long long tasks;
	struct rlimit rl;

	if (system_tasks(&tasks) != 0 || getrlimit(RLIMIT_NPROC, &rl) != 0)
		return -1;
	rl.rlim_cur = (rlim_t)caps_nproc(tasks, l->procs, rl.rlim_cur);
	rl.rlim_max = (rlim_t)caps_nproc(tasks, l->procs, rl.rlim_max);
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NPROC, &rl);
}

/* ---- the kill: freeze until no new member, then SIGKILL until none -- */

struct pidset {
	pid_t *v;
	size_t n, cap;
};

static int
pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Is p among the first n (sorted) entries of s? */
static int
pidset_has(const struct pidset *s, size_t n, pid_t p)
{
	return n && bsearch(&p, s->v, n, sizeof(*s->v), pid_cmp) != NULL;
}

static int
pidset_add(struct pidset *s, pid_t p)
{
	pid_t *v;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;

		if ((v = realloc(s->v, cap * sizeof(*v))) == NULL)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = p;
	return 0;
}

/* SIGSTOP to every member, every walk (a tracer that let a stopped tracee
 * go on is itself stopped by then), until a walk finds no member that an
 * earlier walk had not already stopped.  A stopped process cannot fork and
 * a process with a stop pending cannot finish a fork, so only children
 * forked between a walk's read and its signal are new in the next walk:
 * the frontier shrinks to nothing.  Members that change their session or
 * process group stay members (the walk follows parents, and orphans come
 * back to the subreaper).  -1 when /proc could not be read. */
static int
freeze_tree(pid_t root)
{
	struct caps_table t = {0};
	struct pidset seen = {0};
	struct caps_usage u;
	size_t fresh = 1;
	int rc = 0, blind = 0;

	for (int r = 0; r < FREEZE_ROUNDS && fresh > 0 && rc == 0; r++) {
		size_t had = seen.n;

		if ((rc = caps_read_proc(&t)) != 0)
			break;
		caps_tree(&t, root, &u);
		fresh = 0;
		for (size_t i = 0; i < t.n; i++) {
			if (!t.v[i].member)
				continue;
			kill(t.v[i].pid, SIGSTOP);
			/* the new are appended past `had`, the sorted part
			 * (a walk lists each pid once); with no memory for
			 * the set every member counts as new, so the walks
			 * go on stopping to the last round, never stop early */
			if (blind || !pidset_has(&seen, had, t.v[i].pid)) {
				fresh++;
				if (!blind && pidset_add(&seen, t.v[i].pid) != 0)
					blind = 1;
			}
		}
		qsort(seen.v, seen.n, sizeof(*seen.v), pid_cmp);
	}
	free(seen.v);
	caps_table_free(&t);
	return rc;
}

/* One walk: SIGKILL every member; u is the tree as found. */
static int
kill_walk(pid_t root, struct caps_usage *u)
{
	struct caps_table t = {0};
	int rc = caps_read_proc(&t);

	memset(u, 0, sizeof(*u));
	if (rc == 0) {
		caps_tree(&t, root, u);
		for (size_t i = 0; i < t.n; i++)
			if (t.v[i].member)
				kill(t.v[i].pid, SIGKILL);
	}
	caps_table_free(&t);
	return rc;
}

/* Reap every child that has exited; 1 when no child is left at all. */
static int
reap_exited(void)
{
	int st;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG)) > 0 ||
	       (p < 0 && errno == EINTR))
		;
	return p < 0 && errno == ECHILD;
}

/* Sleep until a SIGCHLD (blocked) or ns nanoseconds have passed. */
static void
settle_wait(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	(void)sigtimedwait(&chld, NULL, &ts);
}

enum caps_tail
caps_runaway(pid_t root, size_t *left)
{
	struct caps_usage u = {0};
	int rc = -1;

	*left = 0;
	(void)freeze_tree(root);
	for (int r = 0; r < SETTLE_ROUNDS; r++) {
		/* done when a walk finds nothing, zombies included: a member
		 * killed late is reparented to us and reaped next round */
		rc = kill_walk(root, &u);
		(void)reap_exited();
		if (rc == 0 && u.procs == 0)
			return CAPS_KILLED;
		settle_wait(SETTLE_NS);
	}
	if (rc != 0)
		return CAPS_UNCOUNTED;
	if (u.live == 0)
		return CAPS_KILLED;
	*left = u.live;
	return CAPS_SURVIVORS;
}

int
caps_kill_all(unsigned gone_ms, size_t *left)
{
	struct timespec t0, now;

	*left = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!reap_exited()) {
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (now.tv_sec - t0.tv_sec) * 1000L +
		     (now.tv_nsec - t0.tv_nsec) / 1000000L;
		if (ms >= (long)gone_ms)
			break;
		settle_wait(((long)gone_ms - ms) * 1000000L);
	}
	if (reap_exited())
		return 0;
	if (caps_runaway(getpid(), left) == CAPS_UNCOUNTED && *left == 0)
		*left = 1; /* children remain that no walk could count */
	for (int i = 0; i < KILL_REAP_ROUNDS; i++) {
		if (reap_exited())
			return 0;
		settle_wait(KILL_REAP_NS);
	}
	/* children remain: never report them gone */
	if (*left == 0)
		*left = 1;
	return -1;
}

/* ---- memory the summed RSS does not see ------------------------------- */

static int
is_memfs(const struct statfs *f)
{
	return f->f_type == TMPFS_MAGIC || f->f_type == HUGETLBFS_MAGIC ||
	       f->f_type == RAMFS_MAGIC;
}

static unsigned long long
used_bytes(const struct statfs *f)
{
	unsigned long long used = f->f_blocks >= f->f_bfree ?
				  f->f_blocks - f->f_bfree : 0;

	return used * (unsigned long long)f->f_bsize;
}

static int
watched(const struct caps_watch *w, dev_t dev)
{
	for (size_t i = 0; w != NULL && i < w->n; i++)
		if (w->v[i].dev == dev)
			return 1;
	return 0;
}

int
caps_watch_fd(struct caps_watch *w, int dirfd)
{
	struct caps_root *v;
	struct statfs f;
	struct stat st;
	int fd;

	if (fstat(dirfd, &st) != 0 || fstatfs(dirfd, &f) != 0)
		return -1;
	if (!is_memfs(&f) || watched(w, st.st_dev))
		return 0;
	if ((fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3)) < 0)
		return -1;
	v = realloc(w->v, (w->n + 1) * sizeof(*v));
	if (v == NULL) {
		close(fd);
		return -1;
	}
	w->v = v;
	v[w->n].fd = fd;
	v[w->n].dev = st.st_dev;
	v[w->n].base = used_bytes(&f);
	w->n++;
	return 1;
}

int
caps_watch_path(struct caps_watch *w, const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = caps_watch_fd(w, fd);
	close(fd);
	return rc;
}

/* The machine's Shmem now: one sysinfo(2), no /proc/meminfo to render
 * and parse. */
static int
read_shmem(unsigned long long *bytes)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0)
		return -1;
	return caps_sysinfo_shmem(&si, bytes);
}

int
caps_watch_shmem(struct caps_watch *w)
{
	w->shmem_ok = read_shmem(&w->shmem_base) == 0;
	return w->shmem_ok ? 0 : -1;
}

/* The machine's Shmem growth since the base; 0 when it shrank, when the
 * base or the value now could not be read. */
static unsigned long long
shmem_growth(const struct caps_watch *w)
{
	unsigned long long now;

	if (w == NULL || !w->shmem_ok || read_shmem(&now) != 0)
		return 0;
	return now > w->shmem_base ? now - w->shmem_base : 0;
}

void
caps_watch_free(struct caps_watch *w)
{
	for (size_t i = 0; i < w->n; i++)
		close(w->v[i].fd);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

unsigned long long
caps_watch_growth(const struct caps_watch *w)
{
	unsigned long long sum = 0, now;
	struct statfs f;

	for (size_t i = 0; w != NULL && i < w->n; i++) {
		if (fstatfs(w->v[i].fd, &f) != 0)
			continue;
		now = used_bytes(&f);
		if (now > w->v[i].base)
			sum += now - w->v[i].base;
	}
	return sum;
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
	const struct caps_watch *w;
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
 * (non-dumpable), or past the bounds (CAPS_FD_MEMBER, m->budget), makes
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
	fd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		m->blind |= denied(errno);
		return 0;
	}
	if ((d = fdopendir(fd)) == NULL)
		return close(fd), 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!all_digits(e->d_name))
			continue;
		if (seen == CAPS_FD_MEMBER || m->budget == 0) {
			m->blind = 1;
			break;
		}
		seen++;
		m->budget--;
		if (fstatat(dirfd(d), e->d_name, &st, 0) != 0) {
			m->blind |= denied(errno);
			continue;
		}
		if (!S_ISREG(st.st_mode) || watched(m->w, st.st_dev))
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

/* The members' held files and swap into u, the roots' growth too. */
static int
measure_members(const struct caps_table *t, const struct caps_watch *w,
		struct caps_usage *u)
{
	struct memscan m;
	struct sysinfo si;
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0, swap;

	if (procfd < 0)
		return -1;
	/* no swap on the machine: nothing can be swapped out, skip the reads */
	swap = sysinfo(&si) != 0 || si.totalswap > 0;
	memset(&m, 0, sizeof(m));
	m.w = w;
	m.budget = CAPS_FD_TICK;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		if (!t->v[i].member || t->v[i].state == 'Z' ||
		    t->v[i].state == 'X')
			continue;
		rc = scan_fds(&m, procfd, t->v[i].pid);
		if (swap)
			u->swap = sat_add(u->swap,
					  swap_of(procfd, t->v[i].pid));
	}
	close(procfd);
	u->held = memscan_sum(&m);
	free(m.v);
	u->tmpfs = caps_watch_growth(w);
	u->blind = m.blind;
	/* the machine's Shmem only when some descriptor went unread */
	u->shmem = m.blind ? shmem_growth(w) : 0;
	u->mem = sat_add(sat_add(u->mem, u->swap),
			 caps_files_term(sat_add(u->held, u->tmpfs), m.blind,
					 u->shmem));
	return rc;
}

int
caps_measure(pid_t root, const struct caps_watch *w, struct caps_usage *u)
{
	struct caps_table t = {0};
	int rc = caps_read_proc(&t);

	if (rc == 0) {
		caps_tree(&t, root, u);
		rc = measure_members(&t, w, u);
	}
	caps_table_free(&t);
	return rc;
}

int
caps_enforce(pid_t root, const struct caps_limits *l, struct sbuf *b)
{
	struct caps_usage u;
	enum caps_over over;
	enum caps_tail tail;
	size_t left = 0;

	if (caps_measure(root, l->watch, &u) != 0)
		return 0;
	over = caps_decide(&u, l);
	if (over == CAPS_UNDER)
		return 0;
	tail = caps_runaway(getpid(), &left);
	(void)caps_text(b, over, &u, l, tail, left);
	return 1;
}

int
caps_enforce_said(pid_t root, const struct caps_limits *l)
{
	struct sbuf b = {0};
	int over = caps_enforce(root, l, &b);

	if (over && b.s != NULL)
		out_line(stderr, "SANDBOX RUNAWAY %s", b.s);
	sbuf_free(&b);
	return over;
}
