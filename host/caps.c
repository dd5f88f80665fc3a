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
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"

#define STAT_MAX 1024       /* one /proc/<pid>/stat line */
#define SIGNAL_ROUNDS 16    /* walks while freezing or killing */
#define SETTLE_ROUNDS 40    /* waits of SETTLE_NS for the killed to go */
#define SETTLE_NS 50000000L

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
	if (u->procs > l->procs)
		return CAPS_OVER_PROCS;
	if (u->mem > l->mem)
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

int
caps_limit_nproc(const struct caps_limits *l)
{
	char text[256];
	unsigned long long tasks;
	struct rlimit rl;

	if (read_small(AT_FDCWD, "/proc/loadavg", text, sizeof(text)) != 0 ||
	    caps_parse_loadavg(text, &tasks) != 0 ||
	    getrlimit(RLIMIT_NPROC, &rl) != 0)
		return -1;
	rl.rlim_cur = (rlim_t)caps_nproc(tasks, l->procs, rl.rlim_cur);
	rl.rlim_max = (rlim_t)caps_nproc(tasks, l->procs, rl.rlim_max);
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NPROC, &rl);
}

/* Send sig to every member, walking again until the tree stops changing
 * (a frozen tree cannot fork).  Returns -1 when /proc could not be read. */
static int
signal_tree(pid_t root, int sig)
{
	struct caps_table t = {0};
	struct caps_usage u;
	size_t prev = SIZE_MAX;
	int rc = 0;

	for (int r = 0; r < SIGNAL_ROUNDS && rc == 0; r++) {
		if ((rc = caps_read_proc(&t)) != 0)
			break;
		caps_tree(&t, root, &u);
		for (size_t i = 0; i < t.n; i++)
			if (t.v[i].member)
				kill(t.v[i].pid, sig);
		if (u.procs == prev)
			break;
		prev = u.procs;
	}
	caps_table_free(&t);
	return rc;
}

static void
reap_all(void)
{
	int st;
	pid_t p;

	do
		p = waitpid(-1, &st, WNOHANG);
	while (p > 0 || (p < 0 && errno == EINTR));
}

static void
settle_wait(void)
{
	struct timespec ts = { 0, SETTLE_NS };
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
	signal_tree(root, SIGSTOP);
	signal_tree(root, SIGKILL);
	for (int r = 0; r < SETTLE_ROUNDS; r++) {
		reap_all();
		rc = caps_count(root, &u);
		/* done when nothing is left, zombies included: a grandchild
		 * killed late is reparented to us and reaped next round */
		if (rc == 0 && u.procs == 0)
			return CAPS_KILLED;
		if (rc == 0)
			signal_tree(root, SIGKILL);
		settle_wait();
	}
	if (rc != 0)
		return CAPS_UNCOUNTED;
	if (u.live == 0)
		return CAPS_KILLED;
	*left = u.live;
	return CAPS_SURVIVORS;
}

int
caps_enforce(pid_t root, const struct caps_limits *l, struct sbuf *b)
{
	struct caps_usage u;
	enum caps_over over;
	enum caps_tail tail;
	size_t left = 0;

	if (caps_count(root, &u) != 0)
		return 0;
	over = caps_decide(&u, l);
	if (over == CAPS_UNDER)
		return 0;
	tail = caps_runaway(getpid(), &left);
	(void)caps_text(b, over, &u, l, tail, left);
	return 1;
}
