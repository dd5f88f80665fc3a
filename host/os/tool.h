/* SPDX-License-Identifier: MIT */
/* tool.h -- running an external program the host asks something of (git,
 * gh, a toolchain's tool): found once on PATH and kept open, started by
 * argv only (never a shell), in an environment the caller builds whole,
 * as a tree the deadline ends whole, with its stdout and stderr captured.
 *
 *	struct tool git;
 *	if (tool_find("git", os_getenv("PATH"), &git) == 0)
 *		tool_run(&git, repo_fd, argv, envp, 60000, &res);
 *
 * The API is os/'s, beside the part each platform defines
 * (docs/ARCHITECTURE.md): os/posix/tool.c (fork; linux executes the
 * inode it opened, fexecve of an O_PATH descriptor; darwin, without
 * fexecve, the name after comparing its identity with the kept file; a
 * session of its own, killed as a group) and os/windows/tool.c (the file
 * held open without write or delete sharing, so it cannot be replaced or
 * renamed while kept; CreateProcessW of its final path; the C runtime's
 * quoting; a job object of its own, kill-on-close, ended whole). */
#ifndef NS_HOST_OS_TOOL_H
#define NS_HOST_OS_TOOL_H

#include <stddef.h>

#include "base/util.h"

struct tool {
	int fd;     /* the program kept open (linux O_PATH; Windows a handle
		       without write or delete sharing), or -1 */
	char *path; /* the name it was found by (heap), for messages */
};

/* What one run gave back. */
struct toolres {
	struct sbuf out;  /* stdout, at most TOOL_MAX_OUT bytes kept */
	struct sbuf err;  /* stderr, at most TOOL_MAX_ERR bytes kept */
	int status;       /* the exit code, 128+N for signal N (Windows: a
			     crash status as the signal of the same crash,
			     e.g. an access violation 139; a code above 255
			     its low byte), -1 none */
	int timed_out;    /* the deadline passed: the tree was killed */
	int truncated;    /* more came than was kept */
};

#define TOOL_MAX_OUT (4u << 20)
#define TOOL_MAX_ERR (64u << 10)

/* Find name on pathvar (os_path_list_sep()-separated, ':' or ';';
 * relative and empty entries are skipped: the working directory is never
 * searched): the first entry holding an executable regular file of that
 * name (Windows: name, or for a name without an extension name with each
 * of PATHEXT's default suffixes in order, os_exe_suffixes; a PE program,
 * or a batch file, which tool_run then refuses).  A name holding a
 * separator is never looked up.  0 found, 1 not found, -1 out of
 * memory. */
int tool_find(const char *name, const char *pathvar, struct tool *t);
void tool_free(struct tool *t);

/* Run t with argv (argv[0] is the name shown to the program) and exactly
 * envp, its working directory the directory cwd_fd names (-1: ours), stdin
 * /dev/null (Windows NUL), no terminal to prompt on.  After timeout_ms the
 * program's tree is killed (POSIX: its process group, SIGKILL; Windows:
 * its job, TerminateJobObject) and res->timed_out set; on Windows what the
 * program left in its job is ended when it has exited too.  0 the program
 * ran (res->status says how it ended), -1 it could not be started (errno;
 * Windows: ENOEXEC for a batch file, EINVAL for an argv[0] holding '"' or
 * an environment entry that is not NAME=value).  res is always to be
 * freed with toolres_free. */
int tool_run(const struct tool *t, int cwd_fd, char *const argv[],
	     char *const envp[], unsigned timeout_ms, struct toolres *res);
void toolres_free(struct toolres *res);

#endif
