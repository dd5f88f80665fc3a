/* SPDX-License-Identifier: MIT */
/* runargs.h -- the `run` verb's words (reference section 8): the flag
 * parser and validators (pure), the shared constants and the usage texts.
 * The hand-off is run/handoff.h, the flow run/flow.h; reap's own parts
 * are verbs/reap.h. */
#ifndef NS_HOST_RUN_RUNARGS_H
#define NS_HOST_RUN_RUNARGS_H

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

struct run_args {
	const char *name, *size_s, *timeout_s, *container, *max_procs_s;
	const char *max_mem_s, *out, *out_max_s, *scratch, *place, *memory_s;
	const char *cpu, *out_files_s, *out_depth_s;
	const char *status_fd_s;  /* --status-fd */
	const char *egress;       /* --egress <id>: an applied egress plan */
	struct strv reads;
	struct strv artifacts;
	struct strv argv;     /* after "--" */
	struct strv writes;   /* --write: outside the place, kept */
	struct strv net_allow, net_allow_files; /* rule 7 */
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

/* The usage texts (host/run/help.c). */
int run_usage(void);
int reap_usage(void);

#endif
