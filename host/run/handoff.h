/* SPDX-License-Identifier: MIT */
/* handoff.h -- run's hand-off of the artifacts into --out (run/handoff.c)
 * and the leftovers of killed hand-offs (run/outsweep.c), which `reap`
 * clears too. */
#ifndef NS_HOST_RUN_HANDOFF_H
#define NS_HOST_RUN_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

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

/* The entries <prefix><pid> of the caller's state directory (the
 * run-name directory: reap's records), *dirfd open on it.  0 (no
 * directory: *dirfd -1, no names), or -1 when it cannot be listed. */
int run_state_list(const char *prefix, int *dirfd, struct strv *names);
/* A place kept when it holds the only copy of the run's work and would
 * die with the tool (run/keephold.c): a holder process keeps root_fd
 * open (os_hold_dir) until reap stops it; <state>/kept-<pid>/ says which
 * (its holder file: the holder's pid and name).  0 with *pid, or -1. */
int keephold_start(int root_fd, const char *name, int64_t *pid);
/* The NOTE after the LEAK line: where the work is and how to release it. */
void keephold_note(struct sbuf *b, int64_t pid);
/* reap: every kept place whose holder lives is released (its holder
 * stopped), said (released 0: dry, or it would not stop); what a gone
 * holder left is removed.  0, or -1 when the state directory cannot be
 * listed. */
typedef void (*keephold_say)(void *arg, const char *name, long pid,
			     int released);
int keephold_reap(int dry, keephold_say say, void *arg);

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

#endif
