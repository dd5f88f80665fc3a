/* SPDX-License-Identifier: MIT */
/* test_caps.c -- the process and memory caps (host/proc/caps.c): the tree walk
 * over fabricated (pid, ppid, rss, state) tables, with and without the
 * process group of the process-group model (caps_group), the cap decision,
 * the RUNAWAY text, the RLIMIT_NPROC value; the linux layer's
 * /proc/<pid>/stat, /proc/loadavg and sysinfo(2) parsers
 * (host/os/linux/procs.c); then the real reader and caps_runaway() on
 * children of this process.  The memory cap has no CLI override, so it is
 * tested here only.  Linux only (memfd, /proc). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/linux/linux.h"
#include "proc/caps.h"

static const struct caps_limits deflt = { CAPS_PROCS, CAPS_MEM, NULL };

static void
fill(struct caps_table *t, const struct caps_proc *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(caps_table_add(t, &v[i]), 0);
}

static int
member(const struct caps_table *t, pid_t pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].pid == pid)
			return t->v[i].member;
	return -1;
}

/* root 100; out of pid order (a child below its parent's pid, as after a
 * pid wrap); an orphan reparented to the root; strangers; a cycle that
 * does not reach the root. */
static const struct caps_proc world[] = {
	{ 1, 0, 10, 'S', 0, 0, 0 },
	{ 99, 1, 10, 'S', 0, 0, 0 },          /* the root's parent: not a member */
	{ 300, 102, 1000, 'S', 0, 0, 0 },     /* listed before its parent 102 */
	{ 100, 99, 5, 'S', 0, 0, 0 },         /* the root (the tool) */
	{ 101, 100, 100, 'S', 0, 0, 0 },      /* the command */
	{ 102, 101, 200, 'R', 0, 0, 0 },
	{ 50, 300, 400, 'Z', 0, 0, 0 },       /* low pid under 300: a zombie */
	{ 103, 1, 7, 'S', 0, 0, 0 },          /* stranger */
	{ 104, 100, 8, 'S', 0, 0, 0 },        /* orphan reparented to the root */
	{ 400, 401, 1, 'S', 0, 0, 0 },        /* cycle, unreachable */
	{ 401, 400, 1, 'S', 0, 0, 0 },
};

static void
test_tree_walk(void)
{
	struct caps_table t = {0};
	struct caps_usage u;

	fill(&t, world, sizeof(world) / sizeof(world[0]));
	caps_tree(&t, 100, &u);
	CU_ASSERT_EQUAL(u.procs, 5);    /* 101 102 300 50 104 */
	CU_ASSERT_EQUAL(u.live, 4);     /* 50 is a zombie */
	CU_ASSERT_EQUAL(u.mem, 100 + 200 + 1000 + 400 + 8);
	CU_ASSERT_EQUAL(member(&t, 100), 0);
	CU_ASSERT_EQUAL(member(&t, 99), 0);
	CU_ASSERT_EQUAL(member(&t, 103), 0);
	CU_ASSERT_EQUAL(member(&t, 400), 0);
	CU_ASSERT_EQUAL(member(&t, 50), 1);
	CU_ASSERT_EQUAL(member(&t, 104), 1);
	caps_tree(&t, 102, &u);         /* a sub-tree, members reset */
	CU_ASSERT_EQUAL(u.procs, 2);
	CU_ASSERT_EQUAL(member(&t, 101), 0);
	caps_table_free(&t);
}

static void
test_tree_empty_and_deep(void)
{
	struct caps_table t = {0};
	struct caps_usage u;
	struct caps_proc p = { 0, 0, 1, 'S', 0, 0, 0 };

	caps_tree(&t, 1, &u);
	CU_ASSERT_EQUAL(u.procs, 0);
	/* a chain 1000 deep, listed children first (worst order) */
	for (pid_t i = 1000; i >= 1; i--) {
		p.pid = i + 1;
		p.ppid = i;
		CU_ASSERT_EQUAL_FATAL(caps_table_add(&t, &p), 0);
	}
	caps_tree(&t, 1, &u);
	CU_ASSERT_EQUAL(u.procs, 1000);
	CU_ASSERT_EQUAL(u.mem, 1000);
	caps_table_free(&t);
}

static void
test_decide(void)
{
	struct caps_usage u = { 255, 255, CAPS_MEM - 1, 0, 0, 0, 0, 0 };

	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_UNDER);
	u.procs = 256;                  /* hitting the cap is a runaway */
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_OVER_PROCS);
	u.procs = 257;
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_OVER_PROCS);
	u.mem = CAPS_MEM + 1;           /* both: processes reported */
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_OVER_PROCS);
	u.procs = 3;
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_OVER_MEM);
	CU_ASSERT_EQUAL(CAPS_MEM, 8589934592ULL);
	CU_ASSERT_EQUAL(CAPS_PROCS, 256);
}

/* The process-group model (caps_group): the command's group is a tree of
 * its own, orphans (reparented to init, 1) included, but the tool (the
 * root, which may lead the group), what was in the group before the
 * command (by pid and start: a pid reused is newer) and their descendants;
 * a member's child that left the group stays a member by its parent. */
static void
test_tree_group(void)
{
	static const struct caps_proc before[] = {
		{ 50, 40, 1, 'S', 0, 100, 7 },   /* `| less`, before */
		{ 60, 1, 1, 'S', 0, 100, 8 },    /* an old orphan, same pid as
						    a new one below */
		{ 70, 1, 1, 'S', 0, 300, 9 },    /* another group */
	};
	static const struct caps_proc now[] = {
		{ 100, 40, 1, 'S', 0, 100, 10 }, /* the tool, its group 100 */
		{ 101, 100, 1, 'S', 0, 100, 11 },/* the command */
		{ 102, 1, 1, 'S', 0, 100, 12 },  /* its orphan: init's child */
		{ 103, 102, 1, 'S', 0, 555, 13 },/* left the group, parent in */
		{ 104, 1, 1, 'S', 0, 555, 14 },  /* left and orphaned: out */
		{ 50, 40, 1, 'S', 0, 100, 7 },   /* before: not ours */
		{ 51, 50, 1, 'S', 0, 100, 15 },  /* its child: not ours */
		{ 60, 1, 1, 'S', 0, 100, 16 },   /* pid 60 again, newer: ours */
		{ 105, 1, 1, 'Z', 0, 100, 17 },  /* a zombie orphan: a member,
						    not live */
		{ 70, 1, 1, 'S', 0, 300, 9 },    /* another group: out */
	};
	struct caps_table t = {0}, b = {0};
	struct caps_usage u;

	fill(&b, before, sizeof(before) / sizeof(before[0]));
	fill(&t, now, sizeof(now) / sizeof(now[0]));
	caps_tree(&t, 100, &u);
	CU_ASSERT_EQUAL(u.procs, 1);  /* without a group: the command alone */
	CU_ASSERT_EQUAL_FATAL(caps_group(100, &b), 0);
	CU_ASSERT_EQUAL(caps_group_id(), 100);
	caps_tree(&t, 100, &u);
	CU_ASSERT_EQUAL(u.procs, 5);  /* 101 102 103 60 105 */
	CU_ASSERT_EQUAL(u.live, 4);
	CU_ASSERT_EQUAL(member(&t, 100), 0);
	CU_ASSERT_EQUAL(member(&t, 101), 1);
	CU_ASSERT_EQUAL(member(&t, 102), 1);
	CU_ASSERT_EQUAL(member(&t, 103), 1);
	CU_ASSERT_EQUAL(member(&t, 104), 0);
	CU_ASSERT_EQUAL(member(&t, 50), 0);
	CU_ASSERT_EQUAL(member(&t, 51), 0);
	CU_ASSERT_EQUAL(member(&t, 60), 1);
	CU_ASSERT_EQUAL(member(&t, 70), 0);
	/* a root outside the group (run's supervisor counting its init) */
	caps_tree(&t, 1, &u);
	CU_ASSERT_EQUAL(member(&t, 100), 1); /* the tool's group has it */
	CU_ASSERT_EQUAL_FATAL(caps_group(0, NULL), 0);
	caps_tree(&t, 100, &u);
	CU_ASSERT_EQUAL(u.procs, 1);
	caps_table_free(&t);
	caps_table_free(&b);
}

/* A fabricated tree over the memory cap with few processes. */
static void
test_memory_cap_tree(void)
{
	struct caps_table t = {0};
	struct caps_proc v[] = {
		{ 10, 1, 0, 'S', 0, 0, 0 },
		{ 11, 10, 5ULL << 30, 'S', 0, 0, 0 },
		{ 12, 11, 3ULL << 30, 'S', 0, 0, 0 },
		{ 13, 1, 100ULL << 30, 'S', 0, 0, 0 },   /* not ours */
	};
	struct caps_usage u;

	fill(&t, v, 3);
	t.v[2].rss -= 1;
	caps_tree(&t, 10, &u);
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_UNDER); /* 8G - 1 */
	t.v[2].rss += 1;
	caps_tree(&t, 10, &u);
	CU_ASSERT_EQUAL(caps_decide(&u, &deflt), CAPS_OVER_MEM); /* 8G: hit */
	CU_ASSERT_EQUAL(u.mem, 8ULL << 30);
	t.v[2].rss -= 1;
	t.n = 0;
	fill(&t, v, 4);
	caps_tree(&t, 10, &u);
	CU_ASSERT_EQUAL(u.mem, 8ULL << 30);
	caps_table_free(&t);
}

static void
check_text(enum caps_over over, const struct caps_usage *u,
	   enum caps_tail tail, size_t left, const char *want)
{
	struct sbuf b = {0};

	CU_ASSERT_EQUAL(caps_text(&b, over, u, &deflt, tail, left), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.s);
	if (strcmp(b.s, want) != 0)
		fprintf(stderr, "got: %s\n", b.s);
	CU_ASSERT_STRING_EQUAL(b.s, want);
	sbuf_free(&b);
}

static void
test_text(void)
{
	struct caps_usage u = { 400, 400, 9000000000ULL, 0, 0, 0, 0, 0 };
	struct sbuf b = {0};

	check_text(CAPS_OVER_PROCS, &u, CAPS_KILLED, 0,
		   "runaway: 400 processes (cap 256); "
		   "the process tree was killed");
	check_text(CAPS_OVER_PROCS, &u, CAPS_SURVIVORS, 3,
		   "runaway: 400 processes (cap 256); the process tree was "
		   "sent SIGKILL and 3 of its processes are still running");
	check_text(CAPS_OVER_MEM, &u, CAPS_UNCOUNTED, 0,
		   "runaway: 9000000000 bytes of memory (cap 8589934592); "
		   "the process tree could not be counted after");
	check_text(CAPS_OVER_MEM, &u, CAPS_KILLED, 0,
		   "runaway: 9000000000 bytes of memory (cap 8589934592); "
		   "the process tree was killed");
	CU_ASSERT_NOT_EQUAL(caps_text(&b, CAPS_UNDER, &u, &deflt,
				      CAPS_KILLED, 0), 0);
	sbuf_free(&b);
}

static void
test_parse_stat(void)
{
	static const char real[] = "31949 (cat) R 31947 31947 24766 0 -1 "
		"4194304 97 0 0 0 0 0 0 0 20 0 1 0 121838 3133440 404 "
		"18446744073709551615 94026108456960 0 17 0 0 0\n";
	static const char odd[] = "7 (a) b (c)) Z 1 7 7 0 -1 0 0 0 0 0 0 0 "
		"0 0 20 0 1 0 5 0 0 18446744073709551615\n";
	static const char *bad[] = {
		"", "12", "12 (x)", "12 (x) S", "x (y) S 1 2",
		"12 (x) S -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1",
		"12 (x) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", /* no rss */
	};
	struct os_proc p;

	CU_ASSERT_EQUAL_FATAL(linux_parse_stat(real, 4096, &p), 0);
	CU_ASSERT_EQUAL(p.pid, 31949);
	CU_ASSERT_EQUAL(p.ppid, 31947);
	CU_ASSERT_EQUAL(p.pgid, 31947);
	CU_ASSERT_EQUAL(p.start, 121838);
	CU_ASSERT_EQUAL(p.state, 'R');
	CU_ASSERT_EQUAL(p.rss, 404ULL * 4096);
	CU_ASSERT_EQUAL_FATAL(linux_parse_stat(odd, 4096, &p), 0);
	CU_ASSERT_EQUAL(p.pid, 7);
	CU_ASSERT_EQUAL(p.ppid, 1);
	CU_ASSERT_EQUAL(p.pgid, 7);
	CU_ASSERT_EQUAL(p.start, 5);
	CU_ASSERT_EQUAL(p.state, 'Z');
	CU_ASSERT_EQUAL(p.rss, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_NOT_EQUAL(linux_parse_stat(bad[i], 4096, &p), 0);
}

static void
test_loadavg_and_nproc(void)
{
	unsigned long long tasks = 0;

	CU_ASSERT_EQUAL(linux_parse_loadavg("1.62 1.08 0.50 2/91 30678\n",
					   &tasks), 0);
	CU_ASSERT_EQUAL(tasks, 91);
	CU_ASSERT_NOT_EQUAL(linux_parse_loadavg("1 2 3 4 5", &tasks), 0);
	CU_ASSERT_NOT_EQUAL(linux_parse_loadavg("1 2 3", &tasks), 0);
	CU_ASSERT_NOT_EQUAL(linux_parse_loadavg("1 2 3 4/ 5", &tasks), 0);
	CU_ASSERT_EQUAL(caps_nproc(91, 256, ~0ULL), 91 + 512);
	CU_ASSERT_EQUAL(caps_nproc(91, 256, 604), 603);
	CU_ASSERT_EQUAL(caps_nproc(91, 256, 100), 100); /* user's is tighter */
	CU_ASSERT_EQUAL(caps_nproc(~0ULL, 256, 5), 5);   /* no overflow */
}

/* The real reader: this process is a member of its parent's tree. */
static void
test_read_proc(void)
{
	struct caps_table t = {0};
	struct caps_usage u;

	CU_ASSERT_EQUAL_FATAL(caps_read_proc(&t), 0);
	CU_ASSERT(t.n > 1);
	caps_tree(&t, getppid(), &u);
	CU_ASSERT_EQUAL(member(&t, getpid()), 1);
	CU_ASSERT(u.mem > 0);
	caps_table_free(&t);
}

static pid_t
sleeper(void)
{
	pid_t p = fork();

	if (p == 0) {
		if (fork() == 0)        /* a grandchild, orphaned below */
			for (;;)
				pause();
		for (;;)
			pause();
	}
	return p;
}

/* caps_runaway on a real tree of children and grandchildren, one of them
 * orphaned to this (subreaper) process: nothing survives. */
static void
test_runaway_kills(void)
{
	struct caps_usage u;
	size_t left = 99;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_FATAL(sleeper() > 0);
	/* wait until the three grandchildren exist too (no timing bound) */
	for (;;) {
		CU_ASSERT_EQUAL_FATAL(caps_count(getpid(), &u), 0);
		if (u.live >= 6)
			break;
		nanosleep(&(struct timespec){ 0, 10000000L }, NULL);
	}
	CU_ASSERT_EQUAL(u.procs, 6);
	CU_ASSERT_EQUAL(caps_runaway(getpid(), &left), CAPS_KILLED);
	CU_ASSERT_EQUAL(left, 0);
	CU_ASSERT_EQUAL(caps_count(getpid(), &u), 0);
	CU_ASSERT_EQUAL(u.procs, 0);
	CU_ASSERT_EQUAL(waitpid(-1, NULL, WNOHANG), -1); /* all reaped */
}

/* A member that never stops forking: each child forks on (at most
 * `left` more), every other one double-forks and exits, so its child is
 * orphaned to the subreaper while the walk runs; one calls setsid. */
static void __attribute__((noreturn))
forker(int left)
{
	setsid();
	while (left-- > 0) {
		pid_t p = fork();

		if (p == 0) {
			if (left % 2 == 0 && fork() != 0)
				_exit(0);       /* its child is orphaned */
			for (;;)
				pause();
		}
		nanosleep(&(struct timespec){ 0, 200000L }, NULL);
	}
	for (;;)
		pause();
}

/* caps_runaway converges while members keep forking, orphaning and
 * changing session: nothing of the tree is left, all reaped. */
static void
test_runaway_converges(void)
{
	struct caps_usage u;
	size_t left = 99;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	for (int i = 0; i < 4; i++) {
		pid_t p = fork();

		CU_ASSERT_FATAL(p >= 0);
		if (p == 0)
			forker(2000);
	}
	/* let the tree grow past 100 while the forkers keep going */
	for (;;) {
		CU_ASSERT_EQUAL_FATAL(caps_count(getpid(), &u), 0);
		if (u.procs >= 100)
			break;
		nanosleep(&(struct timespec){ 0, 10000000L }, NULL);
	}
	CU_ASSERT_EQUAL(caps_runaway(getpid(), &left), CAPS_KILLED);
	CU_ASSERT_EQUAL(left, 0);
	CU_ASSERT_EQUAL(caps_count(getpid(), &u), 0);
	CU_ASSERT_EQUAL(u.procs, 0);
	CU_ASSERT_EQUAL(waitpid(-1, NULL, WNOHANG), -1); /* all reaped */
}

/* A child that holds a memfd of `mib` MiB (fallocated, not mapped, not
 * in its RSS), and forks a grandchild that holds the same file. */
static pid_t
memfd_holder(int mib, int share)
{
	int fd = memfd_create("test_caps", MFD_CLOEXEC), ready[2];
	pid_t p;
	char c;

	CU_ASSERT_FATAL(fd >= 0 && pipe(ready) == 0);
	CU_ASSERT_FATAL(posix_fallocate(fd, 0, (off_t)mib << 20) == 0);
	p = fork();
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed test leaves none */
		if (share && fork() == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (write(ready[1], "g", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
		if (write(ready[1], "c", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fd);              /* only the tree holds it now */
	for (int i = 0; i < 1 + share; i++)
		CU_ASSERT(read(ready[0], &c, 1) == 1);
	close(ready[0]);
	close(ready[1]);
	return p;
}

/* The memory the summed RSS misses: a memfd held by a descriptor counts
 * by its blocks, once for two holders; a watched tmpfs root counts by
 * its growth; two different files add up. */
static void
test_measure_memfd_and_roots(void)
{
	struct caps_watch w = {0};
	struct caps_usage u, plain;
	char dir[] = "/dev/shm/test_caps.XXXXXX", file[64];
	size_t left;
	int fd;

	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	CU_ASSERT_FATAL(memfd_holder(8, 1) > 0);
	CU_ASSERT_EQUAL_FATAL(caps_measure(getpid(), NULL, &u), 0);
	CU_ASSERT_EQUAL_FATAL(caps_count(getpid(), &plain), 0);
	CU_ASSERT_EQUAL(u.procs, 2);
	CU_ASSERT_EQUAL(u.held, 8ULL << 20);            /* once, not twice */
	/* summed RSS alone (the old count) misses it: the measure is the RSS
	 * plus the file, whatever the RSS is (large under ASan) */
	CU_ASSERT(u.mem >= u.held + plain.mem / 2);
	CU_ASSERT(plain.held == 0);
	CU_ASSERT_FATAL(memfd_holder(4, 0) > 0);
	CU_ASSERT_EQUAL_FATAL(caps_measure(getpid(), NULL, &u), 0);
	CU_ASSERT_EQUAL(u.held, 12ULL << 20);
	/* a tmpfs root: its growth counts (this process writes it here; the
	 * count is of the filesystem, whoever wrote) */
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL(caps_watch_path(&w, dir), 1);
	CU_ASSERT_EQUAL(caps_watch_path(&w, dir), 0);  /* one per fs */
	snprintf(file, sizeof(file), "%s/f", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(posix_fallocate(fd, 0, 16 << 20), 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(caps_measure(getpid(), &w, &u), 0);
	CU_ASSERT(u.tmpfs >= (16ULL << 20));
	CU_ASSERT(u.mem >= u.held + u.tmpfs);
	unlink(file);
	rmdir(dir);
	CU_ASSERT_EQUAL(caps_watch_path(&w, "/proc"), 0); /* not memory */
	caps_watch_free(&w);
	CU_ASSERT_EQUAL(caps_runaway(getpid(), &left), CAPS_KILLED);
	CU_ASSERT_EQUAL(waitpid(-1, NULL, WNOHANG), -1);
}

/* The fallback of a count that could not read every descriptor. */
static void
test_files_term_and_shmem(void)
{
	unsigned long long b = 0;
	struct sysinfo si;

	/* everything read: the files seen, the machine's growth ignored */
	CU_ASSERT_EQUAL(caps_files_term(100, 0, 5000), 100);
	CU_ASSERT_EQUAL(caps_files_term(100, 0, 0), 100);
	/* blind: the larger, not the sum (the growth holds the seen files) */
	CU_ASSERT_EQUAL(caps_files_term(100, 1, 5000), 5000);
	CU_ASSERT_EQUAL(caps_files_term(5000, 1, 100), 5000);
	CU_ASSERT_EQUAL(caps_files_term(0, 1, 0), 0);
	CU_ASSERT_EQUAL(caps_files_term(ULLONG_MAX, 1, 1), ULLONG_MAX);

	memset(&si, 0, sizeof(si));
	si.sharedram = 8964;
	si.mem_unit = 1024;
	CU_ASSERT_EQUAL(linux_sysinfo_shmem(&si, &b), 0);
	CU_ASSERT_EQUAL(b, 8964ULL * 1024);
	si.mem_unit = 0; /* old kernels: bytes */
	CU_ASSERT_EQUAL(linux_sysinfo_shmem(&si, &b), 0);
	CU_ASSERT_EQUAL(b, 8964);
	si.sharedram = ULONG_MAX;
	si.mem_unit = 4096;
	CU_ASSERT_EQUAL(linux_sysinfo_shmem(&si, &b), -1);
}

/* The task total from sysinfo, and its 16-bit wrap sent to loadavg; the
 * real kernel's two answers agree. */
static void
test_sysinfo_tasks(void)
{
	struct sysinfo si;
	unsigned long long t = 0, lt = 0;
	char text[256];
	FILE *f;

	memset(&si, 0, sizeof(si));
	si.procs = 91;
	CU_ASSERT_EQUAL(linux_sysinfo_tasks(&si, &t), 0);
	CU_ASSERT_EQUAL(t, 91);
	si.procs = USHRT_MAX; /* may be 65535 + k*65536: not an answer */
	CU_ASSERT_EQUAL(linux_sysinfo_tasks(&si, &t), -1);

	CU_ASSERT_EQUAL_FATAL(sysinfo(&si), 0);
	f = fopen("/proc/loadavg", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(text, sizeof(text), f));
	fclose(f);
	CU_ASSERT_EQUAL(linux_parse_loadavg(text, &lt), 0);
	CU_ASSERT_EQUAL(linux_sysinfo_tasks(&si, &t), 0);
	/* the same count a moment apart: threads come and go */
	CU_ASSERT(t + 64 > lt && lt + 64 > t);
}

/* A child holding n descriptors and a memfd of 8 MiB; its pid, or -1. */
static pid_t
fd_holder(size_t n, int *ready)
{
	int p[2];
	pid_t pid;
	char c = 'r';

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		struct rlimit rl = { n + 64, n + 64 };
		int mfd = memfd_create("caps-bound", MFD_CLOEXEC);

		if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || mfd < 0 ||
		    posix_fallocate(mfd, 0, 8 << 20) != 0)
			_exit(1);
		for (size_t i = 0; i < n; i++)
			if (dup(mfd) < 0)
				_exit(1);
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	*ready = pid > 0 && read(p[0], &c, 1) == 1;
	close(p[0]);
	return pid;
}

/* Past CAPS_FD_MEMBER descriptors the count stops looking and is blind
 * (the machine's Shmem growth stands in); under it, it is not. */
static void
test_fd_bound(void)
{
	struct caps_watch w = {0};
	struct caps_usage u;
	size_t left;
	int ready = 0;
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(caps_watch_shmem(&w), 0);
	pid = fd_holder(16, &ready);
	CU_ASSERT_FATAL(pid > 0 && ready);
	CU_ASSERT_EQUAL_FATAL(caps_measure(getpid(), &w, &u), 0);
	CU_ASSERT_EQUAL(u.blind, 0);
	CU_ASSERT(u.held >= (8ULL << 20));
	CU_ASSERT_EQUAL(caps_runaway(getpid(), &left), CAPS_KILLED);

	pid = fd_holder(CAPS_FD_MEMBER + 8, &ready);
	CU_ASSERT_FATAL(pid > 0 && ready);
	CU_ASSERT_EQUAL_FATAL(caps_measure(getpid(), &w, &u), 0);
	CU_ASSERT_EQUAL(u.blind, 1);
	/* the first CAPS_FD_MEMBER are read (the memfd among them); the term
	 * is the larger of them and the Shmem growth (the machine's, which
	 * other processes may shrink: not asserted) */
	CU_ASSERT(u.held >= (8ULL << 20));
	CU_ASSERT(u.mem >= u.held && u.mem >= u.shmem);
	CU_ASSERT_EQUAL(caps_runaway(getpid(), &left), CAPS_KILLED);
	CU_ASSERT_EQUAL(waitpid(-1, NULL, WNOHANG), -1);
	caps_watch_free(&w);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "tree walk over a fabricated table", test_tree_walk },
		{ "empty and deep trees", test_tree_empty_and_deep },
		{ "tree by process group (the process-group model)", test_tree_group },
		{ "cap decision", test_decide },
		{ "memory cap over a fabricated tree", test_memory_cap_tree },
		{ "RUNAWAY texts", test_text },
		{ "/proc/<pid>/stat parser", test_parse_stat },
		{ "loadavg and RLIMIT_NPROC value", test_loadavg_and_nproc },
		{ "the /proc reader", test_read_proc },
		{ "runaway freezes and kills a real tree", test_runaway_kills },
		{ "runaway converges on a tree that keeps forking", test_runaway_converges },
		{ "memory: memfd held, deduplicated; tmpfs roots' growth", test_measure_memfd_and_roots },
		{ "blind counts: max(files seen, Shmem growth); sysinfo's Shmem", test_files_term_and_shmem },
		{ "task total from sysinfo, loadavg past its 16 bits", test_sysinfo_tasks },
		{ "descriptor bound per member makes the count blind", test_fd_bound },
		{ NULL, NULL }
	};

	return cu_run("caps", NULL, NULL, cases);
}
