/* SPDX-License-Identifier: MIT */
/* run.h -- the `run` and `reap` verbs (reference sections 8 and 9): the
 * flag parser and validators (pure), the handoff (--out) and the shared
 * constants.  The flow itself is host/run/flow.c; reap is host/verbs/reap.c. */
#ifndef NS_HOST_RUN_H
#define NS_HOST_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define RUN_OUT_MAX_DEFAULT (64ULL << 20) /* --out-max-bytes: 64 MiB */
#define RUN_OUT_FILES_DEFAULT 10000       /* --out-max-files */
#define RUN_OUT_FILES_TOP (1ULL << 24)    /* its largest value */
#define RUN_OUT_DEPTH_DEFAULT 32          /* --out-max-depth */
#define RUN_OUT_DEPTH_TOP 255             /* 3 descriptors a level */
#define RUN_GRACE_MS 2000                 /* SIGTERM -> SIGKILL */
#define RUN_NAME_MAX 32
#define RUN_REMEDY "run: nova-sandbox run --name <n> --size <8g> " \
	"[--timeout <30m>] [--read <dir>]... [--write <cache dir>]... " \
	"[--net-deny] [--out <dir> [--artifact <relpath>]...] -- <command> " \
	"<args...>"
#define REAP_REMEDY "run: nova-sandbox reap [--dry-run]"

struct run_args {
	const char *name, *size_s, *timeout_s, *container, *max_procs_s;
	const char *max_mem_s, *out, *out_max_s, *scratch, *place, *memory_s;
	const char *cpu, *out_files_s, *out_depth_s;
	const char *status_fd_s;  /* --status-fd */
	struct strv reads;
	struct strv artifacts;
	struct strv argv;     /* after "--" */
	struct strv writes;   /* --write: outside the place, kept */
	struct strv env_keep, env_deny, toolchains;
	struct strv protect, unprotect; /* --protect, --unprotect (rule 5a) */
	int go, explain, net_deny, env_clear, env_inherit;
	int saw_dashdash;
	int help;             /* -h/--help/help before "--" */
	/* parsed values (valid when run_validate returned 0) */
	uint64_t size;
	uint64_t timeout_ms;  /* 0: none */
	uint64_t max_procs;
	uint64_t max_mem;
	uint64_t out_max;
	uint64_t out_max_files;
	uint64_t out_max_depth;
	int status_fd;        /* --status-fd, -1 when not given */
	/* the Windows job's flags (reference section 8) */
	int job_flags;        /* this platform takes them (os_run_job_flags) */
	uint64_t memory;      /* --memory in bytes, 0 when not given */
	uint32_t cpu_percent; /* --cpu 1..100, 0 when not given */
};

/* Parse and validate the words after "run": every problem into r (reason
 * tokens of reference section 8).  Returns 0 clean, 1 refusals, -1 ENOMEM.
 * a->help set means: print the usage, nothing else. */
int run_parse(int argc, char **argv, struct run_args *a, struct refusals *r);
/* The same as on a platform that takes the job's flags (job_flags 1:
 * Windows) or not (0): run_parse is this with os_run_job_flags(); the
 * unit tests take both sides on any platform. */
int run_parse_on(int argc, char **argv, struct run_args *a,
		 struct refusals *r, int job_flags);
void run_args_free(struct run_args *a);

/* Validators (0 ok, -1 bad). */
int run_valid_name(const char *s);
/* digits[.frac][k|m|g|t][b]; 1024-based; > 0. */
int run_parse_size(const char *s, uint64_t *bytes);
/* A Go duration ("1h30m", "2.5s", "300ms"), > 0, into milliseconds
 * (rounded up to 1 ms). */
int run_parse_duration(const char *s, uint64_t *ms);
/* Relative, non-empty, no "", "." or ".." element. */
int run_valid_artifact(const char *s);

/* ---- handoff ---------------------------------------------------------- */

/* The caps of one handoff: bytes in total, entries (files and directories
 * the copy would make), and depth (path components below work/). */
struct handoff_caps {
	uint64_t bytes;
	uint64_t files;
	uint64_t depth;
};

struct handoff_stats {
	size_t files;
	uint64_t bytes;
	size_t skipped;       /* links, devices, FIFOs inside directories */
	int replaced;         /* an earlier <out>/<name> was replaced */
	char old_kept[300];   /* the earlier one, moved aside, that could not
			       * be removed ("" when none) */
	int out_error;        /* it failed writing into --out (a full disk,
			       * an I/O error), not on the artifacts or caps */
};

/* A seam: called with the input's path (relative to the root) after its
 * descriptor was opened and checked and before its bytes are read
 * (tests swap a file for a link here); NULL in production. */
extern void (*handoff_hook)(const char *rel);

/* A test seam: called at every step of the hand-off that changes --out
 * (the stage made, each file created, each block written, each rename,
 * the earlier copy removed), so a test can kill the copy at each; NULL in
 * production. */
extern void (*handoff_step_hook)(void);

/* ---- leftovers of killed hand-offs (outsweep.c) ----------------------- */

enum { HANDOFF_SWEEP_REMOVED, HANDOFF_SWEEP_RESTORED, HANDOFF_SWEEP_KEPT };
/* One leftover cleared (or, dry, that would be): its entry in --out, the
 * run name and the pid in it, what became of it. */
typedef void (*handoff_sweep_say)(void *arg, const char *entry,
				  const char *name, long pid, int did);
/* ".<name>.nova-<new|old|check>-<pid>[-<k>][-r]": 0 with name (cap
 * bytes), kind and pid, or -1. */
int handoff_leftover_parse(const char *entry, char *name, size_t cap,
			   const char **kind, long *pid);
/* Clear what killed hand-offs left in the directory out_fd: every
 * leftover that is a directory of the caller's uid whose pid is not alive
 * (or, held not NULL, of the run name the caller holds, another pid):
 * an old one is renamed back to <name> when no <name> exists (the only
 * copy), every other removed beneath out_fd.  dry: said, nothing changed.
 * The number cleared, or -1 when out_fd cannot be listed. */
int handoff_sweep(int out_fd, const char *held, int dry,
		  handoff_sweep_say say, void *arg);

/* The record of a hand-off in progress, <state>/out-<pid> holding the
 * --out path, so `reap` finds an --out a killed tool left leftovers in. */
struct handoff_rec {
	int dirfd;
	char file[32];
};
int handoff_record(const char *out, struct handoff_rec *rec);
void handoff_unrecord(struct handoff_rec *rec);
/* reap: every record of a tool that is gone: said (out NULL: unreadable;
 * opened 0: the directory is gone), its --out swept, the record removed
 * (dry: nothing changed).  0, or -1 when the state directory cannot be
 * listed. */
typedef void (*handoff_rec_say)(void *arg, const char *out, long pid,
				int opened);
int handoff_reap_records(int dry, handoff_rec_say rsay,
			 handoff_sweep_say say, void *arg);

/* --out, checked before anything is made: a sibling of <name>
 * (.<name>.nova-check-<pid>) can be made and renamed in out_fd, then it
 * is removed; the filesystem has at least `need` bytes free.  0, or -1
 * with *why (heap) saying which (`out` is for messages). */
int handoff_check_out(int out_fd, const char *out, const char *name,
		      uint64_t need, char **why);

/* Copy the artifacts from the place (root_fd, a descriptor of its root;
 * every input must sit on root_fd's device) into <out>/<name>/, where
 * out_fd is the --out directory opened before the command started (every
 * step goes by it, never by the name `out` again: `out` is for messages):
 * staged in
 * a fresh sibling <out>/.<name>.nova-new-<pid> and renamed into place at
 * the end (an earlier <name> moved aside first, then removed), so
 * <out>/<name> holds exactly one run's files.  An earlier <name> that
 * cannot be moved aside fails the handoff, both kept and said in *why.  `named`
 * empty: the defaults (RESULT.md, usage.tsv, repo.bundle), each only when
 * present; otherwise every named one must exist.  The bytes, the entries
 * and the depth are measured first against caps (the walk stops at the
 * first cap passed); growth past one during the copy fails too.  On
 * failure *why (heap) says why, what was written is removed, and -1 is
 * returned; 0 on success. */
int handoff_copy(int root_fd, int out_fd, const char *out, const char *name,
		 const struct strv *named, const struct handoff_caps *caps,
		 struct handoff_stats *st, char **why);

/* <root>/work of a place, checked: a directory on the root's device,
 * opened for reading (what handoff_copy takes).  The descriptor, or -1
 * with errno (EXDEV: not on the root's device). */
int handoff_open_work(int root_fd);

/* ---- reap (pure parts) ------------------------------------------------ */

/* One line of place.list(): "name=<n> id=<id> root=<root> owner=<pid>
 * start=<rest of line>" (root= may be absent: a 1.0 module).  Pointers
 * into `line`, which is modified.  0, or -1 when malformed. */
struct reap_entry {
	char *name, *id, *root, *start;
	long owner;   /* -1: no (or a garbage) owner marker */
};
int reap_parse_line(char *line, struct reap_entry *e);

/* Is the owner live?  alive: kill(owner, 0) found it (or EPERM);
 * start_rc: 0 when `now` holds its start time, else unreadable.  A pid
 * alive with an unreadable start counts as live; a missing marker or a
 * changed start time (a recycled pid) is an orphan. */
int reap_is_live(const struct reap_entry *e, int alive, int start_rc,
		 const char *now);

/* After SIGTERM to a place's holders: wait until every one of them is
 * gone (polling), at most ms.  pid 1, pids below and the calling process
 * are never waited for (never signalled).  The number still alive. */
size_t reap_grace(const int64_t *pids, size_t n, unsigned ms);

/* The usage texts (host/run/help.c). */
int run_usage(void);
int reap_usage(void);

#endif
