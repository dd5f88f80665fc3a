/* SPDX-License-Identifier: MIT */
/* sb.h -- seatbelt.dylib internals: the SBPL profile generator, the
 * sandbox-exec argv and its failure mapping, the unified-log reader and
 * the GPU probe classifier.  Everything here is portable POSIX C: the
 * module builds on Linux as a test artifact (never installed) and its
 * suite and the integration tests drive it against fake tools. */
#ifndef NS_SEATBELT_SB_H
#define NS_SEATBELT_SB_H

#include <stddef.h>
#include <stdint.h>

#include "ns_backend.h"

/* The tag every denial of a nova profile carries in the unified log. */
#define SB_TAG "nova-sandbox"
/* The profile plus its -D values: macOS caps a COMPILED profile at 64 KiB
 * ("pattern serialization length ... exceeds maximum (65535)"); the
 * compiled size is not knowable here, so the source is held well under. */
#define SB_MAX_BYTES 49152u
#define SB_MAX_PARAMS 1024u
#define SB_NAME_MAX 16

/* One -D NAME=value.  value is a heap copy (realpath'd for a rule). */
struct sb_param {
	char name[SB_NAME_MAX];
	char *value;
};

/* A generated profile: the text sandbox-exec gets with -p (no path is
 * ever in it) and the parameters that must go with it. */
struct sb_prof {
	char *text;
	size_t len, cap;
	struct sb_param *params;
	size_t n, pcap;
	int oom;
	int protect_bad; /* the build failed on a protected path (1.4) */
};

/* ---- sb_profile.c ---------------------------------------------------- */

/* Why a value cannot be a parameter, or NULL when it can: absolute, no
 * control character (a newline ends a -D in a log, a NUL ends it in the
 * kernel), no trailing slash but "/", under PATH_MAX. */
const char *sb_value_bad(const char *v);
/* Build the profile for pol.  0, or -1 with err (one sentence naming the
 * path and the fix) -- *oom set when it was memory. */
int sb_profile_build(const struct ns_policy *pol, struct sb_prof *p,
		     char *err, size_t errlen);
void sb_profile_free(struct sb_prof *p);
/* text + every "-D NAME=value" in bytes: what SB_MAX_BYTES caps. */
size_t sb_profile_bytes(const struct sb_prof *p);

/* ---- sb_argv.c -------------------------------------------------------- */

/* [tool, "-p", text, "-D", "N=v", ..., "--", command, argv[1..], NULL].
 * The strings "N=v" are heap; sb_argv_free frees them and the vector.
 * NULL when out of memory. */
char **sb_argv(const char *tool, const struct sb_prof *p,
	       const char *command, const char *const *argv);
void sb_argv_free(char **v);

/* What a sandbox-exec run that did not reach the command means. */
enum sb_fail {
	SB_FAIL_NONE = 0,   /* it ran the command (exit 0 of the preflight) */
	SB_FAIL_SYNTAX,     /* exit 65: the profile did not compile */
	SB_FAIL_APPLY,      /* exit 71: sandbox_apply failed */
	SB_FAIL_NESTED,     /* exit 71 inside another sandbox */
	SB_FAIL_OTHER       /* anything else */
};
/* Classify a preflight: its exit status (-1: did not run to an exit) and
 * its stderr.  Only sandbox-exec's own lines ("sandbox-exec: ...") and
 * its two exit codes count; a nested sandbox is the apply failure with
 * "forbidden-sandbox-reinit" or "Operation not permitted". */
enum sb_fail sb_fail_of(int status, const char *err);
/* The refusal reason and a sentence for f (f != SB_FAIL_NONE). */
const char *sb_fail_reason(enum sb_fail f);
const char *sb_fail_text(enum sb_fail f);

/* ---- sb_log.c: the unified log ---------------------------------------- */

struct sb_deny {
	uint32_t op;       /* enum ns_op */
	long pid;
	char proc[64];
	char opword[64];   /* the log's operation, e.g. file-write-create */
	char path[1024];   /* the operation's argument (a path, an address) */
	int tagged;        /* the message carries SB_TAG */
};
/* One line of `log show --style ndjson`: its eventMessage, JSON-unescaped,
 * matched as "Sandbox: <proc>(<pid>) deny(<n>) <op> <arg>".  0 matched,
 * -1 not a denial (a banner, another event, a malformed line). */
int sb_log_line(const char *line, struct sb_deny *d);
/* The ns_op of a seatbelt operation word. */
uint32_t sb_op_of(const char *word);
/* The log's --start/--end text for a CLOCK_REALTIME instant (local time,
 * "YYYY-MM-DD HH:MM:SS"); 0 or -1. */
int sb_log_time(int64_t ns, char *out, size_t len);
/* The predicate: the sandbox's reporting subsystem, its violations. */
extern const char sb_log_predicate[];

/* ---- sb_gpu.c: the GPU probe's taxonomy ------------------------------- */

enum sb_gpu {
	SB_GPU_OK = 0,
	SB_GPU_RUNTIME_MISSING,
	SB_GPU_PACKAGE_DISCOVERY,
	SB_GPU_NO_METAL_DEVICE,
	SB_GPU_POLICY_REFUSED,
	SB_GPU_DEVICE_UNAVAILABLE
};
/* The marker the probe program prints when its arithmetic ran. */
#define SB_GPU_MARKER "NOVA_GPU_OK"
/* The tiny MLX operation the probe runs under the run's own profile. */
extern const char sb_gpu_program[];
/* Sort one probe run (exit status, -1: no exit; its combined output) into
 * the taxonomy; detail gets one bounded line (the output's line that
 * decided, control characters dropped, at most 160 bytes). */
enum sb_gpu sb_gpu_classify(int status, const char *out, char *detail,
			    size_t len);
const char *sb_gpu_word(enum sb_gpu g);
const char *sb_gpu_remedy(enum sb_gpu g);

/* ---- sb_exec.c -------------------------------------------------------- */

#define SB_OUT_MAX 65536
struct sb_run {
	int status;           /* exit code, or -1 */
	char out[SB_OUT_MAX]; /* stdout (and stderr when merged) */
	size_t out_len;
	char err[1024];       /* stderr, the first bytes */
	char why[128];        /* status -1: what happened */
};
/* Run argv[0] (absolute) with envp (NULL: the caller's), stdin /dev/null,
 * cwd_fd (>= 0: fchdir there first), stdout kept, stderr kept apart or
 * merged into out, killed after timeout_ms (modules/common/nk_run.h, its
 * signals reset).  0 ran to an exit, -1 not. */
int sb_exec(char *const *argv, char *const *envp, int cwd_fd, int merge,
	    unsigned timeout_ms, struct sb_run *r);

/* ---- seatbelt.c ------------------------------------------------------- */

struct sb_cfg {
	const char *sandbox_exec; /* /usr/bin/sandbox-exec */
	const char *log;          /* /usr/bin/log */
	const char *gpu_python;   /* the probe's interpreter, or NULL */
};
int sb_cfg_load(const struct ns_host *h, struct sb_cfg *c);

/* What prepare() hands spawn() and finish(). */
struct sb_state {
	struct sb_cfg cfg;
	struct sb_prof prof;
	int spawned;
};

#endif
