/* SPDX-License-Identifier: MIT */
/* build.h -- the policy builder's private state, shared by the files of
 * one build (builder.c, the order; policy.c, tempdir.c, cmdguard.c, rules.c)
 * and by no other room: struct build and what builder.c calls in the others
 * and the others in policy.c (which calls none of them). */
#ifndef NS_HOST_POLICY_BUILD_H
#define NS_HOST_POLICY_BUILD_H

#include "base/remedy.h"
#include "policy/policy.h"

#define TMP_NAME ".nova-sandbox-tmp"

struct build {
	const struct policy_input *in;
	struct policy *pol;
	struct refusals *r;
	size_t n_resolver; /* 1 when opt_roots[0] is the resolver's dir */
	uid_t uid;         /* the command's user, asked once per build */
	/* the home_outside refusal, for the home guard's joint line: its
	 * index in r plus one (0: none) and the length of its text before
	 * "; run: " */
	size_t home_ref, home_cut;
};

/* refusals_add's status folded to the builder's: 0 or -1 (allocation). */
#define ADD(r, ...) (refusals_add((r), __VA_ARGS__) < 0 ? -1 : 0)
/* ... for a text that ends with its own remedy (struct refusal). */
#define ADD_SAID(r, tok, ...) \
	(refusals_addr((r), (tok), REMEDY_IN_TEXT, __VA_ARGS__) < 0 ? -1 : 0)

/* policy.c: the paste-able remedies and the shared steps */
struct cmdline build_line(const struct build *b);
int refuse_line(struct build *b, const char *tok, const char *text,
		const char *flag, const char *match, const char *value,
		const char *add);
uid_t build_uid(const struct build *b);
int inside_caller(const struct policy *pol, const struct rpath *p);
int resolve_in_write(struct build *b, const char *flag, const char *reason,
		     const char *p, char **out, struct rpath *rout);

/* policy.c: the checks that need no seam, in the build's order */
int check_gpu(struct build *b);
int check_net(struct build *b);
int check_command_and_write(struct build *b);
int resolve_caller_dirs(struct build *b);
int check_cwd(struct build *b);

/* tempdir.c: the default temp directory (rule 8) */
int is_root_dir(const char *w);
int check_tmp(struct build *b);
int make_tmp(struct build *b);

/* cmdguard.c: HOME, the command, the home guard */
int check_home(struct build *b);
int resolve_command(struct build *b);
int home_guard(struct build *b);

/* rules.c: the roots, the rules, ancestors= */
int collect_roots(struct build *b);
int make_rules(struct policy *pol);
int count_ancestors(struct build *b);

#endif
