/* SPDX-License-Identifier: MIT */
/* session.h -- what the wall-using verbs (wrap, check, policy, probe)
 * share: loading the wall through the config and the loader with the
 * host services, and turning parsed flags into a policy_input. */
#ifndef NS_HOST_WALL_SESSION_H
#define NS_HOST_WALL_SESSION_H

#include "conf/config.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "policy/ownfiles.h"
#include "policy/policy.h"
#include "wall/args.h"

struct wallctx {
	struct config cfg;
	struct module mod;
	struct ns_wall_facts facts;
	struct hostsvc hs;
	struct refusals r;   /* bad_config / no_sandbox / module refusals */
	struct strv notes;   /* module notes, printed by the verb in order */
	struct sbuf text;    /* render() output */
	struct platform_roots roots;
	int loaded;
	char cwd_buf[4096];  /* the caller's working directory (wall_input) */
	struct cmdline line; /* the caller's line (wall_line), for the fixed
				line after a module's refusal */
	const char *net;     /* the OK line's net= when not the policy's
				word (run --egress: "egress:<id>"), or NULL */
};

/* Phase 0 of the verbs that wall a command (the bare wrap, probe): the
 * wall is for an unprivileged user, so euid 0 is refused first, alone
 * (reason as_root), with `line` run as a user (os_as_user; the uid and
 * gid of $SUDO_UID/$SUDO_GID when sudo set both, else the forms <uid>,
 * <gid>).  0 not root, 1 refused (r has the one refusal), -1 ENOMEM
 * (r then failed: its one out-of-memory line). */
int wall_refuse_root(const struct cmdline *line, struct refusals *r);

/* wall/fdcause.c: out of file descriptors (EMFILE, ENFILE:
 * os_fd_exhausted) is the cause of whatever r holds (a path that "cannot be resolved", "out of
 * memory" for a descriptor not duplicated, a command "not found"): r
 * becomes that one refusal, fd_limit, with the limit and `ulimit -n`, on
 * r's kept line (remedy_keep) when it has one.  1 when it did, 0 not. */
int wall_fd_cause(struct refusals *r);
/* The same where no refusal list is in hand (wall/fdcause.c): when a
 * descriptor could not be made, r (emptied first) becomes the one
 * fd_limit refusal on `line`.  1 when it did, 0 not, -1 ENOMEM. */
int wall_fd_refusal(struct refusals *r, const struct cmdline *line);
/* EMFILE or ENFILE when a descriptor could not be made: the host's own
 * (os_fd_exhausted) or a module's, which refuses with the token fd_limit
 * (its text naming ENFILE for the system's table); else 0. */
int wall_fd_errno(const struct refusals *r);
/* When a descriptor could not be made and r keeps no line yet, `verb
 * args` is the line fd_limit's remedy is built on (remedy_keep). */
void wall_fd_keep(struct refusals *r, const char *verb, char *const *args);

/* Read the config and select the wall (the only module loaded).  prefix is
 * the line prefix for the services.  Returns 0, 1 with refusals in w->r,
 * or -1 on ENOMEM.  wall_close() in every case. */
/* The caller's command line (`verb` and the NULL-terminated `args` after
 * it) for the module refusals of w (hostsvc.h `line`).  Call before
 * wall_open. */
void wall_line(struct wallctx *w, const char *verb, char *const *args);
int wall_open(struct wallctx *w, const struct hostrun *hr,
	      const char *prefix);
void wall_close(struct wallctx *w);

/* Move the parsed flags into in (a is left empty) and fill the caller's
 * world: HOME, PATH, environment, caller homes, the wall's roots. */
int wall_input(struct wallctx *w, const struct hostrun *hr, struct args *a,
	       struct policy_input *in);

/* --toolchain (rule 3a): ask each named toolchain for its read roots and
 * add them to in->reads (and in->toolchain_reads), one NOTE text each to
 * notes; an absent or failing toolchain into r (bad_toolchain).  Call
 * after wall_input.  0, or -1 on ENOMEM. */
int wall_toolchains(struct wallctx *w, const struct strv *names,
		    struct policy_input *in, struct strv *notes,
		    struct refusals *r);

/* Print w->notes as "<prefix> NOTE <text>" on stderr, then clear them. */
void wall_print_notes(struct wallctx *w, const char *prefix);

/* A wait status as an exit code: its own, 128+N for a signal, else 125
 * (wrap's command, run's init and keeper). */
int wait_exit_code(int st);

/* "denied" or "nopromise". */
const char *wall_net_word(int net_deny);

#endif
