/* SPDX-License-Identifier: MIT */
/* caps.h -- the bare wrap's process and memory caps (reference section 2,
 * "Caps"): the command's tree is the tool's descendants (the tool is a
 * child subreaper, so orphans stay in it), counted every second and once
 * more at the end; past a cap the tree is frozen (SIGSTOP) and killed
 * (SIGKILL) by pid, and the wrap reports SANDBOX RUNAWAY with status 137.
 *
 * The seam: everything that decides works on a caps_table of (pid, ppid,
 * rss, state) entries and is pure (unit-tested with fabricated tables);
 * caps_read_proc() is the only reader (os_procs: /proc on Linux, sysctl
 * on darwin), caps_runaway() and caps_limit_nproc() the only effects.
 * Where the process model keeps the command in a process group instead of
 * under a subreaper (proc/pgreaper.c: darwin), caps_group() adds that
 * group's processes to every tree. */
#ifndef NS_HOST_PROC_CAPS_H
#define NS_HOST_PROC_CAPS_H

#include <stddef.h>
#include <sys/types.h>

#include "base/exit.h"
#include "base/util.h"
#include "os/os.h"

#define CAPS_PROCS 256ULL          /* default process cap */
#define CAPS_MEM   (8ULL << 30)    /* default RSS cap: 8 GiB */
#define CAPS_STATUS NS_EXIT_CAP           /* the wrap's status past a cap */
#define CAPS_FD_MEMBER OS_FD_PER_PROC /* descriptors looked at per member */
#define CAPS_FD_TICK OS_FD_PER_COUNT  /* ... and per count, all members */

/* The tmpfs (shmem, hugetlbfs, ramfs) write roots whose growth counts as
 * the tree's memory: one per filesystem, its used bytes at the start. */
struct caps_root {
	int fd;                    /* os_open_dir's, close-on-exec */
	dev_t dev;
	unsigned long long base;   /* used bytes when added */
};

struct caps_watch {
	struct caps_root *v;
	size_t n;
	int shmem_ok;              /* shmem_base was read */
	unsigned long long shmem_base; /* the machine's Shmem at the start,
				    * bytes (caps_watch_shmem) */
};

struct caps_limits {
	unsigned long long procs;
	unsigned long long mem;    /* bytes */
	const struct caps_watch *watch; /* NULL: no tmpfs root watched */
};

struct caps_proc {
	pid_t pid;
	pid_t ppid;
	unsigned long long rss;    /* bytes */
	char state;                /* 'Z' zombie, 'X' dead (os_proc) */
	int member;                /* set by caps_tree() */
	pid_t pgid;                /* its process group */
	unsigned long long start;  /* when it started (os_proc's unit) */
};

struct caps_table {
	struct caps_proc *v;
	size_t n;
	size_t cap;
};

struct caps_usage {
	size_t procs;              /* members, zombies included */
	size_t live;               /* members that are not zombies */
	unsigned long long mem;    /* summed RSS of the members, bytes (plus
				    * held, swap and tmpfs below when
				    * caps_measure counted them) */
	unsigned long long held;   /* memory files held by descriptors */
	unsigned long long swap;   /* swapped-out anonymous memory */
	unsigned long long tmpfs;  /* growth of the watched tmpfs roots */
	int blind;                 /* some member's descriptors were not all
				    * read (denied, or past CAPS_FD_*) */
	unsigned long long shmem;  /* machine Shmem growth, read when blind */
};

enum caps_over { CAPS_UNDER, CAPS_OVER_PROCS, CAPS_OVER_MEM };

enum caps_tail { CAPS_KILLED, CAPS_SURVIVORS, CAPS_UNCOUNTED };

/* ---- pure ------------------------------------------------------------ */
int caps_table_add(struct caps_table *t, const struct caps_proc *p);
void caps_table_free(struct caps_table *t);

/* The RLIMIT_NPROC value to set: tasks + 2*cap, or cur when tighter. */
unsigned long long caps_nproc(unsigned long long tasks,
			      unsigned long long cap, unsigned long long cur);

/* Mark every descendant of root (root itself excluded; the table may be
 * in any order and is sorted by pid) and sum them into u.  With a group
 * set (caps_group), every process of that group is a member too, root
 * and what was in the group before the command (and its descendants)
 * excepted, and so are the descendants of those members. */
void caps_tree(struct caps_table *t, pid_t root, struct caps_usage *u);

/* Which cap, if any, the usage is past (processes first). */
enum caps_over caps_decide(const struct caps_usage *u,
			   const struct caps_limits *l);

/* The RUNAWAY text (without the "SANDBOX RUNAWAY " prefix). */
int caps_text(struct sbuf *b, enum caps_over over,
	      const struct caps_usage *u, const struct caps_limits *l,
	      enum caps_tail tail, size_t left);

/* The memory-file term of a count: seen (the held files plus the watched
 * roots' growth) when every member's descriptors were read; otherwise the
 * larger of seen and the machine's shared-memory growth (now - base, never
 * negative), not their sum: the growth already holds the seen files. */
unsigned long long caps_files_term(unsigned long long seen, int blind,
				   unsigned long long shmem_growth);

/* The command's tree by process group (proc/pgreaper.c): every tree is
 * then also group pgid's processes, but those before (the entries of
 * `before` in that group, by pid and start: a pipeline's other programs)
 * and their descendants; pgid 0 turns it off.  0, or -1 (no memory). */
int caps_group(pid_t pgid, const struct caps_table *before);
/* The group caps_group set, or 0. */
pid_t caps_group_id(void);

/* ---- the reader and effects ------------------------------------------- */
/* Fill t (emptied first) from os_procs; 0 or -1. */
int caps_read_proc(struct caps_table *t);

/* Count root's tree now: 0 and u filled, or -1 (could not count). */
int caps_count(pid_t root, struct caps_usage *u);

/* Lower RLIMIT_NPROC (soft and hard) to caps_nproc(); 0 or -1. */
int caps_limit_nproc(const struct caps_limits *l);

/* Freeze root's tree (SIGSTOP every walk until a walk finds no member it
 * had not stopped), then SIGKILL every member, reap what the tool may reap
 * and walk again until a walk finds nothing.  SIGCHLD must be blocked.
 * Returns the tail; *left is the members still running. */
enum caps_tail caps_runaway(pid_t root, size_t *left);

/* The end of every run (bare and `run`): wait at most gone_ms for the
 * tool's children to be gone by themselves, then freeze and kill every
 * descendant of the tool (caps_runaway(getpid())) and reap them.  0 when
 * none is left, -1 with *left the survivors.  SIGCHLD must be blocked. */
int caps_kill_all(unsigned gone_ms, size_t *left);

/* ---- memory the summed RSS does not see ------------------------------- */
/* Watch the filesystem of dirfd (dup'ed) when it is a memory filesystem
 * (tmpfs/shmem, hugetlbfs, ramfs) not watched yet: its used bytes now are
 * the base.  1 watched, 0 not a memory filesystem (or already), -1 error. */
int caps_watch_fd(struct caps_watch *w, int dirfd);
/* The same for a path (opened by os_open_dir). */
int caps_watch_path(struct caps_watch *w, const char *path);
void caps_watch_free(struct caps_watch *w);
/* Read the machine's Shmem (os_shmem) now as the base of the fallback (shmem_ok);
 * 0 or -1 (then a count that cannot read a member has no fallback). */
int caps_watch_shmem(struct caps_watch *w);
/* Sum of (used now - base) over the watched roots, 0 when it shrank. */
unsigned long long caps_watch_growth(const struct caps_watch *w);

/* Count root's tree with everything the memory cap covers: summed RSS,
 * swapped-out memory (VmSwap), the memory files (tmpfs, shmem, memfd,
 * hugetlbfs) held by the members' descriptors, each file once (device and
 * inode) and only when not on a watched root, and the watched roots'
 * growth.  When some member's descriptors could not all be read (denied,
 * or past CAPS_FD_MEMBER / CAPS_FD_TICK), the files and roots count as
 * caps_files_term() with the machine's Shmem growth since
 * caps_watch_shmem().  0, or -1 when the tree could not be counted. */
int caps_measure(pid_t root, const struct caps_watch *w,
		 struct caps_usage *u);

/* One count of root's tree against l: past a cap, the tool's whole tree
 * is frozen and killed (caps_runaway(getpid())) and the RUNAWAY text
 * (caps_text) is put into b.  1 when it was past a cap, 0 when under or
 * when the tree could not be counted (it is let run). */
int caps_enforce(pid_t root, const struct caps_limits *l, struct sbuf *b);
/* caps_enforce, then the line "SANDBOX RUNAWAY <text>" on stderr when it
 * was past a cap (the wrap and `run` say it the same way).  1 or 0. */
int caps_enforce_said(pid_t root, const struct caps_limits *l);

#endif
