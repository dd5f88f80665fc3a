/* SPDX-License-Identifier: MIT */
/* ll_tpath.c -- --explain's paths: a path a tracee named made absolute
 * (against /proc/<pid>/cwd or its dirfd) and canonical (the existing part
 * resolved through an O_PATH descriptor), the entry a create or delete
 * names, and the op an open asks for (ll_tpath.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include "ll_tpath.h"
#include "ll_trace.h"

/* ---- paths ----------------------------------------------------------------- */

int
ll_trace_join(const char *base, const char *rel, char *out, size_t n)
{
	int k;

	if (rel[0] == '/')
		k = snprintf(out, n, "%s", rel);
	else if (base[0] != '/')
		return -1;
	else if (rel[0] == '\0')
		k = snprintf(out, n, "%s", base);
	else
		k = snprintf(out, n, "%s%s%s", base,
			     base[strlen(base) - 1] == '/' ? "" : "/", rel);
	return k > 0 && (size_t)k < n ? 0 : -1;
}

static int
read_link(const char *link, char *out, size_t n)
{
	ssize_t k = readlink(link, out, n - 1);

	if (k <= 0 || (size_t)k >= n - 1)
		return -1;
	out[k] = '\0';
	return out[0] == '/' ? 0 : -1;
}

/* raw as the tracee meant it: against dirfd, or its cwd. */
/* "/proc/self/..." and "/proc/thread-self/..." name the process that
 * resolves them: the tracer would read its own.  They become the
 * tracee's "/proc/<tid>/...".  0, or -1 when it does not fit. */
int
ll_trace_proc_self(pid_t pid, char *path, size_t n)
{
	static const char *const selves[] = { "/proc/self", "/proc/thread-self" };
	char rest[TR_PATH_MAX];

	for (size_t i = 0; i < sizeof(selves) / sizeof(selves[0]); i++) {
		size_t k = strlen(selves[i]);

		if (strncmp(path, selves[i], k) != 0 ||
		    (path[k] != '/' && path[k] != '\0'))
			continue;
		if (snprintf(rest, sizeof(rest), "%s", path + k) >=
			    (int)sizeof(rest) ||
		    snprintf(path, n, "/proc/%d%s", (int)pid, rest) >= (int)n)
			return -1;
		return 0;
	}
	return 0;
}

int
tp_absolute(pid_t pid, int dfd, const char *raw, char *out, size_t n)
{
	char link[64], base[TR_PATH_MAX];

	if (raw[0] == '/')
		return ll_trace_join("/", raw, out, n) != 0 ? -1 :
		       ll_trace_proc_self(pid, out, n);
	if (dfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)pid);
	else if (dfd >= 0)
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, dfd);
	else
		return -1;
	if (read_link(link, base, sizeof(base)) != 0)
		return -1;
	return ll_trace_join(base, raw, out, n) != 0 ? -1 :
	       ll_trace_proc_self(pid, out, n);
}

/* The name the kernel gives path (symlinks followed), or -1. */
int
tp_canon_whole(const char *path, char *out, size_t n)
{
	char link[64];
	int fd = open(path, O_PATH | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	rc = read_link(link, out, n);
	close(fd);
	return rc;
}

/* The parent made canonical, the last name kept (it may not exist, or be
 * a link the call acts on).  *parent gets the canonical parent. */
static int
canon_entry(const char *path, char *out, size_t n, char *parent, size_t pn)
{
	char dir[TR_PATH_MAX];
	const char *last;
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--; /* mkdir("d/") */
	if (len >= sizeof(dir))
		return -1;
	memcpy(dir, path, len);
	dir[len] = '\0';
	last = strrchr(dir, '/');
	if (last == NULL || strcmp(last, "/.") == 0 ||
	    strcmp(last, "/..") == 0 || last[1] == '\0')
		return -1;
	if (last == dir)
		snprintf(parent, pn, "/");
	else {
		dir[last - dir] = '\0';
		if (tp_canon_whole(dir, parent, pn) != 0)
			return -1;
	}
	return ll_trace_join(parent, last + 1, out, n);
}

/* canon_entry's fallback: the names as given (a parent that cannot be
 * opened; faccessat on it refuses the same way). */
static int
lexical_entry(const char *path, char *out, size_t n, char *parent, size_t pn)
{
	const char *last = strrchr(path, '/');
	size_t len;

	if (last == NULL || ll_trace_join("/", path, out, n) != 0)
		return -1;
	len = last == path ? 1 : (size_t)(last - path);
	if (len >= pn)
		return -1;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return 0;
}

int
tp_entry_names(const char *path, char *out, size_t n, char *parent, size_t pn)
{
	if (canon_entry(path, out, n, parent, pn) == 0)
		return 0;
	return lexical_entry(path, out, n, parent, pn);
}

uint32_t
ll_trace_open_op(uint64_t flags, int exists)
{
	if (flags & O_PATH)
		return 0; /* not a Landlock access */
	if ((flags & O_CREAT) && !exists)
		return NS_OP_CREATE;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		return NS_OP_WRITE;
	return NS_OP_READ;
}

int
tp_open_mode(uint64_t flags)
{
	int m = 0;

	if ((flags & O_ACCMODE) != O_WRONLY)
		m |= R_OK;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		m |= W_OK;
	return m;
}
