/* SPDX-License-Identifier: MIT */
/* tool.h -- running an external program the host asks something of (git,
 * gh): found once on PATH and kept by descriptor, started by argv only
 * (never a shell), in an environment the caller builds whole, in a process
 * group of its own, with a deadline; its stdout and stderr captured.
 *
 *	struct tool git;
 *	if (tool_find("git", getenv("PATH"), &git) == 0)
 *		tool_run(&git, repo_fd, argv, envp, 60000, &res);
 *
 * The program's file is opened once (O_PATH) from the first absolute PATH
 * entry that holds an executable regular file of that name; every later
 * run executes that inode (fexecve), whatever the name comes to mean. */
#ifndef NS_HOST_TOOL_H
#define NS_HOST_TOOL_H

#include <stddef.h>

#include "base/util.h"

struct tool {
	int fd;     /* O_PATH of the program, or -1 */
	char *path; /* the name it was found by (heap), for messages */
};

/* What one run gave back. */
struct toolres {
	struct sbuf out;  /* stdout, at most TOOL_MAX_OUT bytes kept */
	struct sbuf err;  /* stderr, at most TOOL_MAX_ERR bytes kept */
	int status;       /* the exit code, 128+N for signal N, -1 none */
	int timed_out;    /* the deadline passed: the group was killed */
	int truncated;    /* more came than was kept */
};

#define TOOL_MAX_OUT (4u << 20)
#define TOOL_MAX_ERR (64u << 10)

/* Find name on pathvar (":"-separated; relative and empty entries are
 * skipped: the working directory is never searched).  0 found, 1 not
 * found, -1 out of memory. */
int tool_find(const char *name, const char *pathvar, struct tool *t);
void tool_free(struct tool *t);

/* Run t with argv (argv[0] is the name shown to the program) and exactly
 * envp, its working directory the directory cwd_fd names (-1: ours), stdin
 * /dev/null.  After timeout_ms the program's process group is killed
 * (SIGKILL) and res->timed_out set.  0 the program ran (res->status says
 * how it ended), -1 it could not be started (errno).  res is always to be
 * freed with toolres_free. */
int tool_run(const struct tool *t, int cwd_fd, char *const argv[],
	     char *const envp[], unsigned timeout_ms, struct toolres *res);
void toolres_free(struct toolres *res);

#endif
