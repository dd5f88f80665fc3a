/* SPDX-License-Identifier: MIT */
/* tcdisc.h -- one toolchain discovery's private state, shared by
 * toolchain.c and tcwrite.c (where the command could write) and by no
 * other file. */
#ifndef NS_HOST_POLICY_TCDISC_H
#define NS_HOST_POLICY_TCDISC_H

#include "os/tool.h"
#include "os/os.h"
#include "policy/tccache.h"
#include "policy/toolchain.h"

struct tchain;

#define MAXHOPS 40 /* links followed to a tool's real file */

/* One discovery: what the tools must not touch, where they run. */
struct disc {
	const struct tchain *c;
	const struct toolchain_ctx *x;
	struct strv wcanon;        /* each --write, canonical */
	struct os_stat *wid;       /* ... and its identity (ino 0: none) */
	char *home;                /* the caller's HOME (Windows USERPROFILE),
				      canonical, or NULL */
	char *state;               /* the tool's state directory */
	char *priv;                /* the private empty directory, or NULL */
	int priv_fd;               /* priv held open (os_walk_at), or -1 */
	struct strv env;           /* the tools' whole environment */
	const char *tool;          /* the tool being asked, for messages */
	struct toolchain_found *f;
	struct refusals *r;
	int cache_fd;              /* the state directory, or -1: no answer
				      is read or kept */
	struct tcc_record kept;    /* the answers kept by an earlier call */
	struct tcc_record now;     /* this call's, to keep */
	int kept_ok;               /* the kept answers still hold (no earlier
				      question of this call missed) */
	size_t asked;              /* tools run by this call */
};

/* tcwrite.c: realpath of p (or a copy); a root alone; the --write p is
 * inside (or -1); tc_placed and tool_placed: 0 outside every --write and
 * changeable by no other user, 1 inside --write *w, 2 changeable (*why,
 * heap), -1 ENOMEM */
char *tc_canon(const char *p);
int tc_is_root(const char *p);
int tc_in_write(const struct disc *d, const char *p,
		const struct os_stat *st);
int tc_placed(const struct disc *d, const char *real, int *w, char **why);
int tool_placed(const struct disc *d, const struct tool *t, int *w,
		char **why);

#endif
