/* SPDX-License-Identifier: MIT */
/* av_lock.c -- creates are serialised by flock(2) on one lock file, with a
 * bounded wait (lock_wait seconds; 15 minutes by default, as the
 * original). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "av.h"

/* Make the lock file's own directory (0700) when it is missing. */
static void
make_parent(const char *path)
{
	char dir[512];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	(void)mkdir(dir, 0700);
}

static int
open_lock(const struct ns_host *h, const char *path)
{
	struct stat st;
	int fd;

	make_parent(path);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		av_refuse(h, "volume_failed", "cannot open the create lock %s: "
			  "%s; set [apfsvol] lockfile = /absolute/path", path,
			  strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		av_refuse(h, "volume_failed", "the create lock %s is not a "
			  "regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

int
av_lock(const struct ns_host *h, const struct av_cfg *c)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	char note[600];
	time_t end;
	int fd;

	if (c->lockfile[0] == '\0') {
		av_refuse(h, "bad_config", "HOME is not a usable absolute path, "
			  "so the create lock has no place; set [apfsvol] "
			  "lockfile = /absolute/path");
		return -1;
	}
	fd = open_lock(h, c->lockfile);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	snprintf(note, sizeof(note), "another volume is being created; "
		 "waiting up to %us for %s", c->lock_wait, c->lockfile);
	h->note(h->cookie, note);
	end = time(NULL) + (time_t)c->lock_wait;
	while (time(NULL) < end) {
		nanosleep(&tick, NULL);
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
	}
	close(fd);
	av_refuse(h, "volume_failed", "the create lock %s is still held "
		  "after %us; another nova-sandbox run is creating a volume "
		  "(or hung); retry later", c->lockfile, c->lock_wait);
	return -1;
}
