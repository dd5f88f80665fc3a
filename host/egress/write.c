/* SPDX-License-Identifier: MIT */
/* write.c -- `egress plan --out F`, all or nothing: a temporary
 * file beside F (O_CREAT|O_EXCL|O_NOFOLLOW, 0600, relative to an O_PATH
 * descriptor of F's directory, which must exist and is never created),
 * written whole, fsynced, then renamed over F.  On any failure the
 * temporary is unlinked and F is untouched.  rename() replaces a symlink
 * at F with the plan; it never follows it (docs/SPEC-SANDBOX.md "plan"). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egress/allowlist.h"
#include "os/os.h"

#define TMP_TRIES 16

struct wtarget {
	int dir;            /* O_PATH|O_DIRECTORY of F's parent */
	const char *base;   /* F's last component */
	char tmp[NAME_MAX + 1];
};

/* The first problem wins: "<what>: <strerror>" or "<what>". */
static int
fail(char **why, const char *what, int err)
{
	if (*why != NULL)
		return -1;
	if (err == 0 || asprintf(why, "%s: %s", what, strerror(err)) < 0)
		*why = strdup(err == 0 ? what : strerror(err));
	return -1;
}

/* Split path into a descriptor of its directory (os_open_dir: O_PATH on
 * Linux) and its base. */
static int
open_parent(const char *path, struct wtarget *t, char **why)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	t->base = slash ? slash + 1 : path;
	if (*t->base == '\0' || strcmp(t->base, ".") == 0 ||
	    strcmp(t->base, "..") == 0 || strlen(t->base) > NAME_MAX - 16)
		return fail(why, "not a file name", 0);
	if (slash == NULL)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = str_ndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return fail(why, "out of memory", ENOMEM);
	t->dir = os_open_dir(dir);
	free(dir);
	return t->dir < 0 ? fail(why, "its directory", errno) : 0;
}

/* A fresh ".<base>.<16 hex>" beside F, created exclusively. */
static int
open_tmp(struct wtarget *t, char **why)
{
	unsigned long long rnd;
	int fd = -1;

	for (int i = 0; i < TMP_TRIES && fd < 0; i++) {
		if (os_random_bytes(&rnd, sizeof(rnd)) != 0)
			return fail(why, "the random source", errno);
		snprintf(t->tmp, sizeof(t->tmp), ".%s.%016llx", t->base, rnd);
		fd = os_fd_made(openat(t->dir, t->tmp, O_WRONLY | O_CREAT |
				       O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
		if (fd < 0 && errno != EEXIST)
			return fail(why, "a temporary file beside it", errno);
	}
	if (fd < 0)
		return fail(why, "a temporary file beside it", EEXIST);
	return fd;
}

static int
write_all(int fd, const char *text, size_t len, char **why)
{
	size_t o = 0;
	ssize_t k;

	if (fchmod(fd, 0600) < 0)	/* the umask may not narrow, only widen */
		return fail(why, "fchmod", errno);
	while (o < len) {
		k = write(fd, text + o, len - o);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return fail(why, "write", k < 0 ? errno : EIO);
		o += (size_t)k;
	}
	return fsync(fd) < 0 ? fail(why, "fsync", errno) : 0;
}

int
egress_write_plan(const char *path, const char *text, size_t len, char **why)
{
	struct wtarget t = { -1, NULL, "" };
	int fd, rc = -1;

	*why = NULL;
	if (open_parent(path, &t, why) < 0)
		return -1;
	fd = open_tmp(&t, why);
	if (fd >= 0) {
		rc = write_all(fd, text, len, why);
		if (close(fd) < 0 && rc == 0)
			rc = fail(why, "close", errno);
		if (rc == 0 && renameat(t.dir, t.tmp, t.dir, t.base) < 0)
			rc = fail(why, "rename over it", errno);
		if (rc != 0)
			unlinkat(t.dir, t.tmp, 0);
	}
	close(t.dir);
	return rc;
}

int
egress_check_out(const char *path, char **why)
{
	struct wtarget t = { -1, NULL, "" };
	struct stat st;
	int fd, rc = 0;

	*why = NULL;
	if (open_parent(path, &t, why) < 0)
		return -1;
	if (fstatat(t.dir, t.base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode)) {
		rc = fail(why, "it is a directory; name a file", 0);
	} else if ((fd = open_tmp(&t, why)) < 0) {
		rc = -1;
	} else {
		close(fd);
		unlinkat(t.dir, t.tmp, 0);
	}
	close(t.dir);
	return rc;
}
