/* trust.c -- may the tool trust a file it is about to load or read as its
 * own (a module, the config)?  Decided on the open descriptor and on every
 * directory above the very inode it names (see os/os.h). */
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

static int
safe_stat(const struct stat *st, const char *what, const char *name,
	  char **why)
{
	uid_t me = getuid();

	if ((st->st_uid == 0 || st->st_uid == me) && (st->st_mode & 022) == 0)
		return 0;
	if (me == 0)
		*why = str_fmt("bad ownership or modes for %s %s (owner uid %u, "
			   "mode %04o): it must be owned by root and not "
			   "writable by group or other", what, name,
			   (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
	else
		*why = str_fmt("bad ownership or modes for %s %s (owner uid %u, "
			   "mode %04o): it must be owned by root or uid %u and "
			   "not writable by group or other", what, name,
			   (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777),
			   (unsigned)me);
	return -1;
}

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

static int
same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Walk from directory dfd (named `name`, canonical) up to / checking each
 * directory.  Closes dfd. */
static enum os_trust
walk_up(int dfd, char *name, char **why)
{
	struct stat st, pst;

	for (;;) {
		int pfd;

		if (fstat(dfd, &st) < 0)
			break;
		if (safe_stat(&st, "directory", name, why) < 0) {
			close(dfd);
			return OS_TRUST_UNSAFE;
		}
		pfd = openat(dfd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(dfd);
		dfd = pfd;
		if (pfd < 0 || fstat(pfd, &pst) < 0)
			break;
		if (same_inode(&st, &pst)) {
			close(pfd);
			return OS_TRUST_OK;
		}
		up_name(name);
	}
	*why = str_fmt("cannot check directory %s: %s", name, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return OS_TRUST_UNSAFE;
}

/* The parents of `path` (absolute), starting with the directory that
 * holds the very inode `fst` describes. */
static enum os_trust
check_parents(const char *path, const struct stat *fst, char **why)
{
	char *dir = strdup(path), *real = NULL;
	const char *base = strrchr(path, '/') + 1;
	struct stat st;
	enum os_trust ls = OS_TRUST_UNSAFE;
	int dfd;

	if (dir == NULL)
		return OS_TRUST_UNSAFE;
	up_name(dir);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		*why = str_fmt("cannot open directory %s: %s", dir, strerror(errno));
	else if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		 !same_inode(&st, fst))
		*why = str_fmt("%s changed while it was checked", path);
	else if ((real = realpath(dir, NULL)) == NULL)
		*why = str_fmt("cannot resolve directory %s: %s", dir,
			   strerror(errno));
	else {
		ls = walk_up(dfd, real, why);
		dfd = -1;
	}
	if (dfd >= 0)
		close(dfd);
	free(real);
	free(dir);
	return ls;
}

enum os_trust
os_trust_fd(int fd, const char *path, int want_regular, char **why)
{
	struct stat st;
	const char *what = want_regular ? "file" : "directory";

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
	if (safe_stat(&st, what, path, why) < 0)
		return OS_TRUST_UNSAFE;
	if (strcmp(path, "/") == 0)
		return OS_TRUST_OK;
	return check_parents(path, &st, why);
}
