/* SPDX-License-Identifier: MIT */
/* policy.h -- the platform-independent policy builder (rules 3-9, 13, 16
 * and the home guard of docs/SPEC-SANDBOX.md).  It turns what the caller
 * typed into resolved, existing paths and rules, or into EVERY independent
 * refusal at once.  It creates exactly one directory, the default temp
 * directory, and only when the whole build is sound. */
#ifndef NS_HOST_POLICY_H
#define NS_HOST_POLICY_H

#include <stddef.h>

#include <sys/types.h>

#include "ns_backend.h"
#include "base/util.h"
#include "policy/envpol.h"
#include "policy/netallow.h"
#include "policy/paths.h"
#include "policy/protect.h"

/* The platform's root tables, taken from the wall module's ns_wall_ops. */
struct platform_roots {
	const char *const *read_roots;
	const char *const *write_files;
	const char *const *optional_roots;
	const char *const *system_prefixes;
	const char *resolver_conf;
};

/* Input: the argv as the caller typed it, before any resolution. */
struct policy_input {
	struct strv reads;        /* --read, in order */
	struct strv reads_noexec; /* --read-noexec */
	struct strv writes;       /* --write; the first is load-bearing */
	struct strv net_allow;    /* --net-allow <entry>, as typed */
	struct strv net_allow_files; /* --net-allow-file <file> */
	struct strv argv;         /* after "--"; empty when none */
	const char *cwd;          /* --cwd or NULL */
	const char *caller_cwd;   /* the caller's working directory (the
				     default cwd when inside a root), or NULL */
	const char *tmp;          /* --tmp or NULL */
	const char *name;         /* --name or NULL */
	const char *gpu;          /* --gpu or NULL (none) */
	int net_deny;
	int net_listen;
	int saw_dashdash;         /* "--" was present */
	int env_clear;            /* --env-clear (rule 9a) */
	int env_clean;            /* run's clean start (rule 9a) */
	struct strv env_keep;     /* --env KEY[=VALUE], validated */
	struct strv env_deny;     /* --env-deny PATTERN, validated */
	struct strv toolchain_reads; /* --toolchain's read roots (also in
				      * reads; kept to say their origin) */
	/* the caller's world (seams for tests) */
	const char *home;         /* caller's $HOME or NULL */
	const char *path;         /* PATH to resolve the command on, or NULL */
	char *const *env;         /* the caller's environment */
	struct strv caller_homes; /* passwd home and $HOME */
	int homes_on_demand;      /* 1: caller_homes is empty; the home guard
				     looks them up itself when it needs them
				     (no passwd lookup on a run that does not) */
	const struct platform_roots *roots;
	/* for the home_outside remedy: "nova-sandbox <verb> <args...>" */
	const char *verb;          /* NULL for the bare wrap */
	char *const *remedy_args;  /* the original args after the verb */
	int create_tmp;            /* 1: create <first write>/.nova-sandbox-tmp */
	const uid_t *as_uid;       /* the command's user (rule 5's "could have
				      planted"); NULL: the effective uid */
	int stdio_ttys;            /* 1: fds 0-2 become the command's: grant
				      the terminals they hold (ttys.h) */
	struct strv protect;      /* --protect, as typed (rule 5a) */
	struct strv unprotect;    /* --unprotect, as typed */
};

/* A rule's descriptor as its walk saw it: the identity and type of an open
 * descriptor never change, so no later check needs to ask again. */
struct rule_id {
	struct path_id id;
	mode_t mode;
};

struct policy {
	struct strv roots;        /* existing fixed read roots */
	struct strv opt_roots;    /* existing optional roots for this run */
	struct strv reads;        /* resolved --read */
	struct strv reads_noexec; /* resolved --read-noexec */
	struct strv writes;       /* resolved --write, in order */
	struct strv write_files;  /* existing write files (/dev/null, ...) */
	struct strv ttys;         /* the terminals among them (ttys.h) */
	struct strv net_allow;    /* every entry's text, in order */
	struct net_list net;      /* --net-allow and --net-allow-file's
				     entries, parsed (rule 7) */
	struct strv argv;         /* argv[0] as typed, then the arguments */
	struct strv env;          /* the child's environment */
	struct strv dropped;      /* agent variables removed, sorted */
	struct env_report envrep; /* what --env-clear/--env/--env-deny did */
	char *command;            /* resolved absolute executable */
	char *cwd;
	char *tmp;
	char *home;
	char *name;
	const char *gpu;          /* "none" or "metal" */
	int net_deny;
	int net_listen;
	int tmp_created;          /* the builder made the temp directory */
	int tmp_pfd;              /* when tmp_created: a descriptor of the
				     directory it was made in (rule 8a) */
	struct path_id tmp_id;    /* ... and the identity it was made with */
	size_t ancestors;         /* ancestors= */
	struct ns_rule *rules;    /* the module's view, in text order */
	size_t n_rules;
	/* Rule 5: each path above opened once.  Parallel to the lists of the
	 * same name; the strings above are read back from these. */
	struct rpaths r_roots, r_opt, r_reads, r_reads_noexec, r_writes,
		r_write_files;
	struct rpath r_cwd, r_tmp, r_home, r_command, r_cmd_dir;
	int32_t *rule_fds;        /* parallel to rules: the ns_policy view's */
	struct rule_id *rule_ids; /* parallel to rules: what the walk's fstat
				     of each rule's descriptor said */
	struct strv notes;        /* NOTE texts: caller paths through links */
	struct strv toolchain_reads; /* the --read roots --toolchain added */
	struct protect prot;      /* rule 5a: the protected paths (their
				     descriptors live until policy_free) */
};

/* Build.  Returns 0 with *pol filled and r empty, or 1 with every
 * independent refusal in r (nothing created), or -1 on allocation failure
 * (r then refusals_failed: it prints as the one sandbox_failed line).  An
 * input list that failed while it was built (strv_failed: the caller's
 * reads, writes, argv, homes ...) fails the build the same way.
 * Exit-code choice (127 iff all not_found) is the caller's. */
int policy_build(const struct policy_input *in, struct policy *pol,
		 struct refusals *r);
/* Rule 7 alone, before anything is made (run's preflight): the network
 * flags of in (net_allow, net_allow_files, net_deny, net_listen, verb and
 * remedy_args for the fixed lines) parsed into *out (net_list_free it),
 * every refusal into r.  0, or -1 ENOMEM. */
int policy_net_check(const struct policy_input *in, struct net_list *out,
		     struct refusals *r);
/* Rule 8a: remove the temp directory the build made (only that: nothing
 * when it existed before), by the descriptor of the directory it was made
 * in, never following a link.  Call when the command's tree is dead.
 * 0 removed (or nothing to do); 1 the entry is no longer the directory
 * the build made (left alone); 2 it holds directories nested deeper than
 * POLICY_TMP_DEPTH (left); 3 it holds a mount point, not entered (left);
 * -1 it could not be removed (errno). */
/* The removal holds one descriptor a level (rmtree.h), so its depth stays
 * well inside the default limit of 1024 open files. */
#define POLICY_TMP_DEPTH 512u
int policy_remove_tmp(struct policy *pol);
/* policy_remove_tmp, and what it left said through note (the NOTE's
 * text, without a prefix): every verb that built a policy ends so. */
int policy_remove_tmp_said(struct policy *pol,
			   void (*note)(const char *text));
/* The ns_policy view of pol (pointers into pol; valid while pol lives). */
void policy_view(const struct policy *pol, struct ns_policy *view);
/* Close every descriptor but the working directory's (rules' included:
 * the view's rule_fds then read -1).  The flows call it once the wall's
 * prepare() has built its ruleset; policy_free closes the rest. */
void policy_close_fds(struct policy *pol);
void policy_free(struct policy *pol);
void policy_input_free(struct policy_input *in);

/* Rule 5 for one caller directory: absolute, existing, a directory, no
 * control character; symlinks resolved.  On success *out is the resolved
 * path (heap).  On failure returns 1 and adds a refusal with `reason`
 * naming `flag`. */
int policy_resolve_dir(const char *flag, const char *reason, const char *p,
		       char **out, struct refusals *r);
/* Same, pushing rule 5's NOTE (the links followed) to notes. */
int policy_resolve_dir_noted(const char *flag, const char *reason,
			     const char *p, char **out, struct strv *notes,
			     struct refusals *r);
/* Is `path` dir or beneath it?  Device and inode decide; the string prefix
 * is only the cheap first answer.  Both expected resolved. */
int policy_inside(const char *path, const char *dir);
/* Rule 9: the child's environment and the names dropped from it.  The
 * NOTE is "dropped from the child's environment: <NAMES>; "
 * POLICY_DROPPED_WHY. */
#define POLICY_DROPPED_WHY \
	"each names an agent, a bus or a server that acts as the user " \
	"outside the wall"
int policy_child_env(char *const *env, const char *tmp, struct strv *out,
		     struct strv *dropped);
/* The same under rule 9a's flags (o NULL: none): what they dropped and
 * the credential-looking names into rep (NULL: not wanted).  --env KEY
 * passes KEY whatever would drop it; --env KEY=VALUE replaces the
 * caller's KEY; HOME and the temp variables are never dropped by them. */
int policy_child_env_opts(char *const *env, const char *tmp,
			  const struct env_opts *o, struct strv *out,
			  struct strv *dropped, struct env_report *rep);
/* env-dropped= of the OK line: every caller variable kept out (rule 9's
 * and rule 9a's). */
size_t policy_env_dropped(const struct policy *pol);

/* The caller's homes (passwd's and $HOME, each once) appended to homes
 * (the home guard's list).  0, or -1 on ENOMEM. */
int caller_homes(struct strv *homes);

#endif
