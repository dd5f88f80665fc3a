/* SPDX-License-Identifier: MIT */
/* loader_stage.h -- staging helpers for test_config.c and test_loader.c.
 * Staged files live in a directory under the build dir (next to the test
 * binary): /tmp is world-writable, so the parent walk refuses it. */
#ifndef NS_TEST_LOADER_STAGE_H
#define NS_TEST_LOADER_STAGE_H

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAGE_MAX (PATH_MAX * 2)

static char stage_exe_dir[PATH_MAX];
static char stage_root[PATH_MAX];

/* The directory of this test binary. */
static inline const char *
stage_exe(void)
{
	ssize_t n;
	char *slash;

	if (stage_exe_dir[0])
		return stage_exe_dir;
	n = readlink("/proc/self/exe", stage_exe_dir, sizeof(stage_exe_dir) - 1);
	if (n <= 0)
		return ".";
	stage_exe_dir[n] = '\0';
	slash = strrchr(stage_exe_dir, '/');
	if (slash != NULL)
		*slash = '\0';
	return stage_exe_dir;
}

/* build/tests/fixtures: where the fixture modules are built */
static inline const char *
stage_fixtures(void)
{
	static char buf[STAGE_MAX];
	char raw[STAGE_MAX];

	if (buf[0])
		return buf;
	snprintf(raw, sizeof(raw), "%s/../fixtures", stage_exe());
	if (realpath(raw, buf) == NULL)
		memcpy(buf, raw, sizeof(buf));
	return buf;
}

static inline const char *
stage_make(void)
{
	char tmpl[STAGE_MAX];

	snprintf(tmpl, sizeof(tmpl), "%s/stage-XXXXXX", stage_exe());
	if (mkdtemp(tmpl) == NULL)
		return NULL;
	if (!realpath(tmpl, stage_root))
		return NULL;
	return stage_root;
}

static inline int
stage_rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP || flag == FTW_D) {
		chmod(p, 0700);
		rmdir(p);
	} else
		unlink(p);
	return 0;
}

static inline void
stage_remove(void)
{
	if (stage_root[0])
		nftw(stage_root, stage_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	stage_root[0] = '\0';
}

/* A path under the stage; static buffer rotation of 8. */
static inline const char *
stage_path(const char *rel)
{
	static char bufs[8][STAGE_MAX];
	static int i;
	char *b = bufs[i++ % 8];

	snprintf(b, STAGE_MAX, "%s/%s", stage_root, rel);
	return b;
}

/* n bytes, NULs included */
static inline int
stage_write_bytes(const char *rel, const char *text, size_t n, mode_t mode)
{
	const char *p = stage_path(rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	close(fd);
	return chmod(p, mode);
}

static inline int
stage_write(const char *rel, const char *text, mode_t mode)
{
	return stage_write_bytes(rel, text, strlen(text), mode);
}

static inline int
stage_copy(const char *src, const char *rel, mode_t mode)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(stage_path(rel), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		   0600);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	return chmod(stage_path(rel), mode);
}

static inline int
stage_mkdir(const char *rel, mode_t mode)
{
	const char *p = stage_path(rel);

	if (mkdir(p, 0700) < 0)
		return -1;
	return chmod(p, mode);
}

#endif
