/* SPDX-License-Identifier: MIT */
/* trust.c -- may the tool trust a file it is about to load or read as its
 * own (a module, the config)?  Decided on the open descriptor and on every
 * directory above the very inode it names (see os/os.h).  Plain POSIX, for
 * every platform with a POSIX layer (linux, darwin): what differs between
 * them is in os/posix/posix.h, given by each platform's layer. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* Cut the last component off an absolute path ("/a/b" -> "/a", "/a" ->
 * "/"). */
static void
up_name(char *name)
{
	char *slash = strrchr(name, '/');

	if (slash == NULL || slash == name)
		name[1] = '\0';
	else
		*slash = '\0';
}

/* May uid me trust an inode of this status?  Owned by root or me, and
 * writable by neither group nor other. */
static int
trusted(const struct stat *st, uid_t me)
{
	return (st->st_uid == 0 || st->st_uid == me) && (st->st_mode & 022) == 0;
}

static char *
untrusted_why(const struct stat *st, uid_t me, const char *what,
	      const char *name)
{
	if (me == 0)
		return str_fmt("bad ownership or modes for %s %s (owner uid %u, "
			   "mode %04o): it must be owned by root and not "
			   "writable by group or other", what, name,
			   (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
	return str_fmt("bad ownership or modes for %s %s (owner uid %u, "
		   "mode %04o): it must be owned by root or uid %u and not "
		   "writable by group or other", what, name,
		   (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777),
		   (unsigned)me);
}

/* The name the kernel gives the directory open on fd, for a message only
 * (the walk itself never goes by name). */
static char *
fd_name(int fd)
{
	char buf[PATH_MAX];

	if (posix_fd_path(fd, buf, sizeof(buf)) != 0)
		return str_fmt("(descriptor %d)", fd);
	return str_fmt("%s", buf);
}

static int
same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Walk from directory dfd up to / by "..", checking each directory on the
 * descriptor the walk holds: one openat and one fstat per level, and a
 * name only for a message.  Closes dfd. */
static enum os_trust
walk_up(int dfd, uid_t me, char **why)
{
	struct stat st, pst;
	enum os_trust rc = OS_TRUST_UNSAFE;
	char *name;
	int pfd = -1;

	if (fstat(dfd, &st) < 0)
		goto cannot;
	for (;;) {
		if (!trusted(&st, me)) {
			name = fd_name(dfd);
			*why = name ? untrusted_why(&st, me, "directory", name) : NULL;
			free(name);
			close(dfd);
			return OS_TRUST_UNSAFE;
		}
		pfd = posix_fd(openat(dfd, "..", posix_dir_search | O_DIRECTORY | O_CLOEXEC));
		if (pfd < 0 || fstat(pfd, &pst) < 0)
			break;
		close(dfd);
		dfd = pfd;
		if (same_inode(&st, &pst)) {
			rc = OS_TRUST_OK;
			break;
		}
		st = pst;
	}
	if (rc == OS_TRUST_OK) {
		close(dfd);
		return rc;
	}
	if (pfd >= 0)
		close(pfd);
cannot:
	{
		int e = errno;

		name = fd_name(dfd);
		*why = str_fmt("cannot check directory %s: %s", name ? name : "?",
			       strerror(e));
		free(name);
	}
	close(dfd);
	return OS_TRUST_UNSAFE;
}

/* The parents of `path` (absolute), starting with the directory that
 * holds the very inode `fst` describes. */
static enum os_trust
check_parents(const char *path, const struct stat *fst, uid_t me,
	      char **why)
{
	char *dir = strdup(path);
	const char *base = strrchr(path, '/') + 1;
	struct stat st;
	int dfd;

	if (dir == NULL)
		return OS_TRUST_UNSAFE;
	up_name(dir);
	dfd = posix_fd(open(dir, posix_dir_search | O_DIRECTORY | O_CLOEXEC));
	if (dfd < 0) {
		*why = str_fmt("cannot open directory %s: %s", dir, strerror(errno));
		free(dir);
		return OS_TRUST_UNSAFE;
	}
	free(dir);
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !same_inode(&st, fst)) {
		*why = str_fmt("%s changed while it was checked", path);
		close(dfd);
		return OS_TRUST_UNSAFE;
	}
	return walk_up(dfd, me, why);
}

enum os_trust
os_trust_fd(int fd, const char *path, int want_regular, char **why)
{
	struct stat st;
	const char *what = want_regular ? "file" : "directory";
	uid_t me = getuid();

	*why = NULL;
	if (path == NULL || path[0] != '/') {
		*why = str_fmt("%s is not an absolute path", path ? path : "(null)");
		return OS_TRUST_UNSAFE;
	}
	if (fstat(fd, &st) < 0) {
		*why = str_fmt("cannot stat %s: %s", path, strerror(errno));
		return OS_TRUST_WRONG_TYPE;
	}
	if (want_regular ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)) {
		*why = str_fmt("%s is not a regular %s", path, what);
		return OS_TRUST_WRONG_TYPE;
	}
	if (!trusted(&st, me)) {
		*why = untrusted_why(&st, me, what, path);
		return OS_TRUST_UNSAFE;
	}
	if (strcmp(path, "/") == 0)
		return OS_TRUST_OK;
	return check_parents(path, &st, me, why);
}

int
os_open_own(const char *path, int want_dir)
{
	return posix_fd(open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
				  (want_dir ? O_DIRECTORY : 0)));
}
