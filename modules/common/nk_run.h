/* SPDX-License-Identifier: MIT */
/* nk_run.h -- the helper runner of the module kit (modules/common/: static,
 * hidden, linked into each module that names it in its module.mk; not part
 * of the ABI, never exported).  Runs one helper tool to its end: fork +
 * execve of an absolute path (no shell, no PATH), stdin /dev/null, every
 * other descriptor closed, stdout kept (bounded), stderr kept apart or
 * merged into it, a deadline (SIGKILL when it passes, the wait included).
 * For the tools a module asks (diskutil, ps, sandbox-exec's preflight,
 * log), never for the command.  POSIX. */
#ifndef NS_NK_RUN_H
#define NS_NK_RUN_H

#include <stddef.h>

/* One stream kept: into buf (cap bytes, NUL included), its first bytes
 * or (tail) its last ones; truncated when more came than fit. */
struct nk_keep {
	char *buf;
	size_t cap;
	size_t len;
	int tail;
	int truncated;
};
/* A struct nk_keep for the array arr (not a pointer: its sizeof). */
#define NK_KEEP(arr, tail_) { (arr), sizeof(arr), 0, (tail_), 0 }

struct nk_exec {
	char *const *argv;   /* argv[0] an absolute path */
	char *const *envp;   /* the helper's environment; NULL: the caller's */
	int cwd_fd;          /* >= 0: fchdir there first */
	int merge;           /* stderr into out (err unused) */
	int reset_signals;   /* nk_child_signals() in the child first */
	unsigned timeout_ms; /* from the start; SIGKILL when it passes */
};

/* nk_exec's results besides 0 (ran to an exit: *status its code) */
#define NK_FAILED (-1) /* why says: pipe, fork, waitpid, a signal */
#define NK_LATE (-2)   /* killed at the deadline; why is left to the caller */

int nk_exec(const struct nk_exec *x, struct nk_keep *out,
	    struct nk_keep *err, int *status, char *why, size_t why_len);

/* The caller's environment (a dylib on macOS has no direct `environ`). */
char **nk_environ(void);

/* Every disposition at its default and an empty mask (the host blocks
 * SIGCHLD and catches the stop signals), but one the caller ignored: the
 * host ignores none, so an ignored one stays ignored, as across exec. */
void nk_child_signals(void);

/* One line: newlines and tabs become spaces, trailing spaces go. */
void nk_flatten(char *s);

#endif
