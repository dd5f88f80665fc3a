/* SPDX-License-Identifier: MIT */
/* av.h -- apfsvol.so internals: configuration, running the tools, the
 * owner marker, the create lock and diskutil's output. */
#ifndef NS_APFSVOL_AV_H
#define NS_APFSVOL_AV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/nk_say.h"
#include "ns_backend.h"

#define AV_MARKER ".nova-sandbox-owner"
#define AV_PREFIX "nova-"
#define AV_OUT_MAX 65536  /* a tool's stdout, bytes kept */
#define AV_ERR_MAX 512    /* a tool's stderr tail, bytes kept */
#define AV_HOLDERS_MAX 256

/* The module options, every path absolute (checked by av_cfg_load). */
struct av_cfg {
	const char *diskutil;
	const char *lsof;
	const char *ps;
	const char *volumes;  /* the mount root */
	char lockfile[512];
	unsigned lock_wait;   /* seconds */
	unsigned timeout;     /* seconds, per tool run */
};

/* A finished tool run. */
struct av_run {
	int status;            /* exit code, or -1 (signal, timeout, exec) */
	char out[AV_OUT_MAX];  /* stdout, NUL-terminated, maybe truncated */
	size_t out_len;
	int out_truncated;
	char err[AV_ERR_MAX];  /* the last bytes of stderr, one line */
	char why[128];         /* when status == -1: what happened */
};

/* av_cfg.c */
int av_cfg_load(const struct ns_host *h, struct av_cfg *c);
/* a refusal, formatted (modules/common/nk_say.h) */
#define av_refuse(h, reason, ...) \
	((void)nk_say((h), 0, (reason), __VA_ARGS__))
int av_valid_name(const char *name);
int av_valid_id(const char *id);
int av_under_root(const struct av_cfg *c, const char *path);

/* av_exec.c: run argv[0] (absolute) with argv, no shell, stdin /dev/null.
 * Returns 0 when it ran to an exit (any code: see r->status), -1 when it
 * could not be started, was killed or timed out (r->why says). */
int av_exec(const char *const *argv, unsigned timeout, struct av_run *r);
/* av_check: map an av_exec result (its return rc and r) to a status;
 * av_tool = av_exec + av_check.  NS_OK only on exit 0; else refuse(reason, "<what>
 * failed: ...") with the exit code and stderr tail. */
int av_check(const struct ns_host *h, const char *what,
	     const char *const *argv, int rc, struct av_run *r);
int av_tool(const struct ns_host *h, const struct av_cfg *c,
	    const char *what, const char *const *argv, struct av_run *r);

/* av_plist.c: the <string> (or <integer>) value of <key>key</key> in a
 * flat plist, into out; 0 found, -1 not. */
int av_plist_get(const char *plist, const char *key, char *out, size_t len);
/* The diskXsY of "Created new APFS Volume diskXsY"; 0 or -1. */
int av_created_id(const char *out, char *id, size_t len);

/* av_disk.c: diskutil. */
struct av_vol {
	char id[128];
	char name[128];  /* VolumeName */
	char mount[512]; /* MountPoint, "" when not mounted */
};
int av_container(const struct ns_host *h, const struct av_cfg *c,
		 char *out, size_t len);
/* Look a volume up by name, id or mount point: *found 0/1. */
int av_info(const struct ns_host *h, const struct av_cfg *c,
	    const char *spec, struct av_vol *v, int *found);
int av_add(const struct ns_host *h, const struct av_cfg *c,
	   const char *container, const char *vol, uint64_t bytes,
	   char *id, size_t len);
int av_delete(const struct ns_host *h, const struct av_cfg *c,
	      const char *id);

/* av_marker.c */
int av_marker_write(const struct ns_host *h, int rootfd, long pid,
		    const char *start);
/* Parse a marker at dirfd/path: pid and start, or -1 (missing/garbage). */
int av_marker_read(int dirfd, const char *path, long *pid, char *start,
		   size_t len);

/* av_lock.c: flock(lockfile) with a bounded wait; the fd, or -1 refused. */
int av_lock(const struct ns_host *h, const struct av_cfg *c);

/* av_procs.c */
int av_proc_start(const struct ns_host *h, const struct av_cfg *c,
		  long pid, char *out, size_t len);
int av_holders(const struct ns_host *h, const struct av_cfg *c,
	       const char *root, int64_t *pids, size_t cap, size_t *n);
/* SIGTERM each, a grace, SIGKILL the survivors (never the caller). */
void av_kill_all(const int64_t *pids, size_t n);

/* av_list.c: list(). */
int av_list(const struct ns_host *h);

/* av_place.c: the ops. */
extern const struct ns_place_ops av_place_ops;

#endif
