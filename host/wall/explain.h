/* SPDX-License-Identifier: MIT */
/* explain.h -- ABI 1.2's end of a walled command: finish() with the
 * process, its times and its exit, then the denials it reported as
 *   <P> DENIED path=<p> op=<op> remedy="<flag> <arg>"
 * (each directory's together; warn=<words> after a remedy that reaches
 * a secret store, a home or a --read root; the denials no flag can grant
 * counted in one NOTE)
 * and, for a non-zero exit, the end NOTE: its cause when the tool knows
 * it, else the --explain hint for an exit a denial can give
 * (docs/SPEC-SANDBOX.md section 3).  Everything
 * here is printed before the verb's DONE line. */
#ifndef NS_HOST_WALL_EXPLAIN_H
#define NS_HOST_WALL_EXPLAIN_H

#include <stdint.h>
#include <stdio.h>

#include "base/util.h"
#include "module/denials.h"
#include "wall/session.h"

/* "read", "write", ... ("other" for an unknown op). */
const char *explain_op_word(uint32_t op);

/* The directory a remedy names for path: path itself when it is an
 * existing directory, else its nearest existing ancestor directory (found
 * with fstatat walking up; nothing is created).  Into out; 0, or -1 when
 * path is not absolute or does not fit. */
int explain_nearest_dir(const char *path, char *out, size_t outlen);

/* The remedy for one denial, unquoted and field-escaped: "--read <dir>",
 * "--write <dir>", "without --net-deny" or "-".  Heap, NULL on ENOMEM. */
char *explain_remedy(uint32_t op, const char *path, int net_deny);

/* What the remedies are weighed against. */
struct explain_ctx {
	const struct strv *homes; /* the caller's homes (and their real names) */
	const struct strv *reads; /* the --read and --read-noexec roots */
	int net_deny;
};

/* The warning words of the remedy `flag dir` (docs/SPEC-SANDBOX.md
 * section 3, "Denials"), comma-joined into out: "secrets" (dir is,
 * holds or is inside a secret store of a home), "home" (dir is a home or
 * holds one), "read-source" (a --write of a --read root or of a
 * directory that holds one).  1 with words, 0 none, -1 on ENOMEM. */
int explain_warn(const char *flag, const char *dir,
		 const struct explain_ctx *cx, char *out, size_t n);

/* Print d's lines to f with prefix: every denial a flag can grant, its
 * directory's together (in the order each directory was first seen),
 * with its remedy and warn=; the ones no flag can grant counted in one
 * NOTE.  0, or -1 when a line failed. */
int explain_print(FILE *f, const char *prefix, const struct denials *d,
		  const struct explain_ctx *cx);

/* A wait status as an ns_exit. */
void explain_exit_of_status(int st, struct ns_exit *out);
/* The exit code a verb reports for how the command ended, as
 * wait_exit_code() gives it for a wait status: its code, 128+N for a
 * signal, 125 for anything else. */
int explain_exit_code(const struct ns_exit *ex);

/* CLOCK_REALTIME in nanoseconds. */
int64_t explain_now_ns(void);

/* Whether the loaded wall has 1.2's features bit `bit` / op. */
int wall_has_feature(const struct wallctx *w, uint32_t bit);

/* The policy's 1.2 members the verb sets after policy_view(): the caps
 * the host keeps (0: none) and NS_POLICY_EXPLAIN when explain. */
void wall_view_extras(struct ns_policy *view, int explain,
		      unsigned long long procs, unsigned long long mem,
		      long long timeout_ms);

/* The policy's 1.3 members: the CPU cap (0: none) and who prepares the
 * write roots (NS_ACL_*).  Each is set only when the wall says it keeps
 * it (NS_WALL_CAPS_CPU, NS_WALL_ACL_CALLER); the verbs refuse, or say
 * in a NOTE, what the wall cannot keep before they get here. */
void wall_view_job(const struct wallctx *w, struct ns_policy *view,
		   uint32_t cpu_percent, uint32_t acl);

/* --explain under a wall without NS_WALL_EXPLAIN: 1 after adding the
 * refusal explain_unavailable to r (the verb refuses, exit 125, before
 * anything runs), else 0.  -1 on ENOMEM. */
int wall_explain_refused(const struct wallctx *w, int explain,
			 struct refusals *r);

/* What the verb knows when the command's tree is gone. */
struct wall_end {
	struct ns_proc proc;  /* what spawn() returned */
	int64_t start_ns, end_ns;
	struct ns_exit exit;  /* how the command itself ended */
	uint32_t killed;      /* NS_TERM_* or 0 */
	int code;             /* the exit code the verb reports */
	int verb_says_end;    /* the verb prints the end NOTE itself (run's
				 supervisor: it knows the timeout, the caps
				 and the place) */
};

/* Could a denial have ended a command with this exit code (128+N: signal
 * N)?  A refused call fails with an error the program reports with an
 * exit code of its own, or, failing hard, crashes: a code 1..128 or above
 * 128+64, or 128+N for a fault signal N (SIGILL, SIGTRAP, SIGABRT,
 * SIGBUS, SIGFPE, SIGSEGV, SIGSYS).  Any other signal came from outside:
 * 0, as for exit 0. */
int explain_denial_kind(int code);

/* What the tool knows of how a command ended, for the end NOTE. */
struct end_facts {
	int code;            /* the command's exit code as the verb says it */
	uint32_t killed;     /* the tool ended it: NS_TERM_* or 0 */
	const char *timeout; /* --timeout as typed (killed NS_TERM_TIMEOUT) */
	const char *full;    /* --size as typed when the place ended full */
	int explain;         /* --explain was given */
	int names;           /* the wall can name denials (NS_WALL_EXPLAIN) */
	const char *wall;    /* a wall that cannot: its name for the NOTE, or
				NULL for no NOTE */
};

/* The one NOTE for a command that ended non-zero (docs/SPEC-SANDBOX.md
 * section 3, "Denials"): the cause the tool knows (its timeout, a signal
 * it passed on, a cap, a full place), else for an exit a denial can give
 * the --explain hint.  1 with the text in buf, 0 for no NOTE. */
int explain_end_note(const struct end_facts *f, char *buf, size_t n);

/* The denials d as DENIED lines with their remedies and warn= (weighed
 * against the caller's homes and view's --read roots), on stderr. */
void explain_denials(const char *prefix, const struct ns_policy *view,
		     const struct denials *d);

#endif
