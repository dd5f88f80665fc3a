/* SPDX-License-Identifier: MIT */
/* caps.c -- the process and memory caps of the bare wrap (see caps.h):
 * pure table logic first, then the reader (os_procs: /proc on Linux,
 * sysctl on darwin), then the effects.  What the resident sets do not
 * show (swap, memory files) is the os layer's (os_proc_memory). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/caps.h"

#include "base/out.h"
#include "os/os.h"

#define FREEZE_ROUNDS 1000  /* walks at most while freezing (converges
			     * in a few: see freeze_tree) */
#define SETTLE_ROUNDS 40    /* kill walks, each followed by a wait of at
			     * most SETTLE_NS for a SIGCHLD */
#define SETTLE_NS 50000000L
#define KILL_REAP_ROUNDS 200 /* caps_kill_all: waits of KILL_REAP_NS for */
#define KILL_REAP_NS 10000000L /* the last children to be reaped */

/* The command's process group, where the process model keeps the tree
 * by group (caps_group); pgid 0: by parent pid alone. */
static struct {
	pid_t pgid;
	struct caps_proc *skip;
	size_t nskip;
} g_group;

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


unsigned long long
caps_nproc(unsigned long long tasks, unsigned long long cap,
	   unsigned long long cur)
{
	unsigned long long want = ULLONG_MAX;

	if (cap <= (ULLONG_MAX - tasks) / 2)
		want = tasks + 2 * cap;
	return cur < want ? cur : want;
}

/* ---- the process model's group ---------------------------------------- */

int
caps_group(pid_t pgid, const struct caps_table *before)
{
	struct caps_proc *v = NULL;
	size_t n = 0;

	if (before != NULL && before->n > 0) {
		v = malloc(before->n * sizeof(*v));
		if (v == NULL)
			return -1;
		for (size_t i = 0; i < before->n; i++)
			if (before->v[i].pgid == pgid)
				v[n++] = before->v[i];
	}
	free(g_group.skip);
	g_group.pgid = pgid;
	g_group.skip = v;
	g_group.nskip = n;
	return 0;
}

pid_t
caps_group_id(void)
{
	return g_group.pgid;
}

/* The command's group as a whole, when the tool is not in it: signalled
 * at once (killpg), beside the walks' per-process signals (which also
 * reach members that left the group while their parent is a member). */
static void
group_signal(int sig)
{
	if (g_group.pgid > 1 && getpgrp() != g_group.pgid)
		(void)kill(-g_group.pgid, sig);
}

/* Was p in the group before the command (same pid, same start)? */
static int
skipped(const struct caps_proc *p)
{
	for (size_t i = 0; i < g_group.nskip; i++)
		if (g_group.skip[i].pid == p->pid &&
		    g_group.skip[i].start == p->start)
			return 1;
	return 0;
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

/* Mark every process of the group g_group.pgid but root and what was
 * there before the command (g_group.skip by pid and start, and their
 * descendants): the command's tree where no subreaper keeps its orphans
 * (proc/pgreaper.c).  mark_pass then adds their descendants. */
static void
mark_group(struct caps_table *t, pid_t root)
{
	if (g_group.pgid <= 0)
		return;
	/* the processes that were there before, and their descendants */
	for (size_t i = 0; i < t->n; i++)
		t->v[i].member = skipped(&t->v[i]) ? 2 : 0;
	for (int grew = 1; grew;) {
		grew = 0;
		for (size_t i = 0; i < t->n; i++) {
			const struct caps_proc *par;
			struct caps_proc key;

			if (t->v[i].member)
				continue;
			key.pid = t->v[i].ppid;
			par = bsearch(&key, t->v, t->n, sizeof(*t->v), by_pid);
			if (par != NULL && par->member == 2) {
				t->v[i].member = 2;
				grew = 1;
			}
		}
	}
	for (size_t i = 0; i < t->n; i++)
		t->v[i].member = t->v[i].member != 2 && t->v[i].pid != root &&
				 t->v[i].pgid == g_group.pgid;
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
	mark_group(t, root);
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

unsigned long long
caps_files_term(unsigned long long seen, int blind,
		unsigned long long shmem_growth)
{
	if (!blind)
		return seen;
	return shmem_growth > seen ? shmem_growth : seen;
}

/* ---- the reader ------------------------------------------------------- */

static int
add_proc(void *arg, const struct os_proc *o)
{
	struct caps_proc p;

	memset(&p, 0, sizeof(p));
	p.pid = (pid_t)o->pid;
	p.ppid = (pid_t)o->ppid;
	p.pgid = (pid_t)o->pgid;
	p.rss = o->rss;
	p.state = o->state;
	p.start = o->start;
	return caps_table_add(arg, &p);
}

int
caps_read_proc(struct caps_table *t)
{
	t->n = 0;
	return os_procs(add_proc, t);
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

int
caps_limit_nproc(const struct caps_limits *l)
{
	uint64_t tasks;
	struct rlimit rl;

	if (os_task_total(&tasks) != 0 || getrlimit(RLIMIT_NPROC, &rl) != 0)
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
 * back to the subreaper; where the tree is kept by group, an orphan that
 * left the group is out of reach: docs/SPEC-SANDBOX.md, darwin's gaps).
 * -1 when the processes could not be listed. */
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

		group_signal(SIGSTOP);
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
	int rc;

	group_signal(SIGKILL);
	rc = caps_read_proc(&t);
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
	os_sigchld_wait(ns);
}

/* Is the walk's tree gone?  Every member, zombies included, where the
 * tool reaps them all (a subreaper: a member killed late is reparented to
 * it and reaped next round); where the tree is kept by group, its
 * orphans are reaped by init (launchd), not by the tool: every member
 * that is not a zombie. */
static int
walk_empty(const struct caps_usage *u)
{
	return g_group.pgid > 0 ? u->live == 0 : u->procs == 0;
}

enum caps_tail
caps_runaway(pid_t root, size_t *left)
{
	struct caps_usage u = {0};
	int rc = -1;

	*left = 0;
	(void)freeze_tree(root);
	for (int r = 0; r < SETTLE_ROUNDS; r++) {
		rc = kill_walk(root, &u);
		(void)reap_exited();
		if (rc == 0 && walk_empty(&u))
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

/* No child of the tool is left and, where the tree is kept by group, no
 * live member of the group either. */
static int
all_gone(void)
{
	struct caps_usage u;

	if (!reap_exited())
		return 0;
	if (g_group.pgid <= 0)
		return 1;
	return caps_count(getpid(), &u) == 0 && u.live == 0;
}

int
caps_kill_all(unsigned gone_ms, size_t *left)
{
	struct timespec t0, now;

	*left = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!all_gone()) {
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (now.tv_sec - t0.tv_sec) * 1000L +
		     (now.tv_nsec - t0.tv_nsec) / 1000000L;
		if (ms >= (long)gone_ms)
			break;
		/* children are woken for by SIGCHLD; a group's orphans are
		 * not ours: look again at most every 10 ms */
		settle_wait(g_group.pgid > 0 && ((long)gone_ms - ms) > 10 ?
			    10000000L : ((long)gone_ms - ms) * 1000000L);
	}
	if (all_gone())
		return 0;
	if (caps_runaway(getpid(), left) == CAPS_UNCOUNTED && *left == 0)
		*left = 1; /* children remain that no walk could count */
	for (int i = 0; i < KILL_REAP_ROUNDS; i++) {
		if (all_gone())
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
	struct stat st;
	uint64_t used;
	int fd, mem;

	if (fstat(dirfd, &st) != 0 || (mem = os_memfs(dirfd, &used)) < 0)
		return -1;
	if (mem == 0 || watched(w, st.st_dev))
		return 0;
	if ((fd = os_fd_dup(dirfd)) < 0)
		return -1;
	v = realloc(w->v, (w->n + 1) * sizeof(*v));
	if (v == NULL) {
		close(fd);
		return -1;
	}
	w->v = v;
	v[w->n].fd = fd;
	v[w->n].dev = st.st_dev;
	v[w->n].base = used;
	w->n++;
	return 1;
}

int
caps_watch_path(struct caps_watch *w, const char *path)
{
	int fd = os_open_dir(path), rc;

	if (fd < 0)
		return -1;
	rc = caps_watch_fd(w, fd);
	close(fd);
	return rc;
}

int
caps_watch_shmem(struct caps_watch *w)
{
	uint64_t b = 0;

	w->shmem_ok = os_shmem(&b) == 0;
	w->shmem_base = b;
	return w->shmem_ok ? 0 : -1;
}

/* The machine's Shmem growth since the base; 0 when it shrank, when the
 * base or the value now could not be read. */
static unsigned long long
shmem_growth(const struct caps_watch *w)
{
	uint64_t now;

	if (w == NULL || !w->shmem_ok || os_shmem(&now) != 0)
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
	unsigned long long sum = 0;
	uint64_t now;

	for (size_t i = 0; w != NULL && i < w->n; i++) {
		if (os_memfs(w->v[i].fd, &now) != 1)
			continue;
		if (now > w->v[i].base)
			sum += now - w->v[i].base;
	}
	return sum;
}

static unsigned long long
sat_add(unsigned long long a, unsigned long long b)
{
	return b > ULLONG_MAX - a ? ULLONG_MAX : a + b;
}

static int
skip_watched(void *arg, uint64_t dev)
{
	return watched(arg, (dev_t)dev);
}

/* The members' held files and swap into u, the roots' growth too. */
static int
measure_members(const struct caps_table *t, const struct caps_watch *w,
		struct caps_usage *u)
{
	struct os_memuse m;
	int64_t *pids = malloc((t->n ? t->n : 1) * sizeof(*pids));
	size_t n = 0;
	int rc;

	if (pids == NULL)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].member && t->v[i].state != 'Z' &&
		    t->v[i].state != 'X')
			pids[n++] = t->v[i].pid;
	rc = os_proc_memory(pids, n, skip_watched, (void *)w, &m);
	free(pids);
	if (rc != 0 && errno == ENOSYS) {
		/* the platform shows resident memory only (darwin) */
		memset(&m, 0, sizeof(m));
		rc = 0;
	}
	u->held = m.held;
	u->swap = m.swap;
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
		out_kind(stderr, "SANDBOX", OUT_RUNAWAY, "%s", b.s);
	sbuf_free(&b);
	return over;
}