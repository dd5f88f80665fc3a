/* SPDX-License-Identifier: MIT */
/* cu_tree.c -- a suite's scratch tree (see cu_tree.h). */
#include "cu_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[PATH_MAX];
static char **kept;
static size_t nkept, capkept;

int
cu_tree_make(const char *prefix)
{
	char tmpl[PATH_MAX];

	if (snprintf(tmpl, sizeof(tmpl), "%s.XXXXXX", prefix) >=
	    (int)sizeof(tmpl))
		return -1;
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, base) == NULL)
		return -1;
	return 0;
}

const char *
cu_tree_base(void)
{
	return base;
}

const char *
cu_path(const char *rel)
{
	size_t n = strlen(base) + strlen(rel) + 2;
	char *p = malloc(n);

	if (p == NULL || base[0] == '\0')
		abort();
	snprintf(p, n, "%s/%s", base, rel);
	if (nkept == capkept) {
		char **nv;

		capkept = capkept ? capkept * 2 : 64;
		nv = realloc(kept, capkept * sizeof(*kept));
		if (nv == NULL)
			abort();
		kept = nv;
	}
	kept[nkept++] = p;
	return p;
}

void
cu_mkdir(const char *rel)
{
	if (mkdir(cu_path(rel), 0755) != 0 && errno != EEXIST)
		abort();
}

void
cu_mkfile(const char *rel, mode_t mode)
{
	static const char script[] = "#!/bin/sh\nexit 0\n";
	const char *p = cu_path(rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, script, sizeof(script) - 1) !=
	    (ssize_t)(sizeof(script) - 1))
		abort();
	close(fd);
	if (chmod(p, mode) != 0)
		abort();
}

void
cu_mklink(const char *target, const char *rel)
{
	if (symlink(target, cu_path(rel)) != 0)
		abort();
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

int
cu_rm_tree(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
cu_tree_remove(void)
{
	if (base[0] != '\0')
		cu_rm_tree(base);
	for (size_t i = 0; i < nkept; i++)
		free(kept[i]);
	free(kept);
	kept = NULL;
	nkept = capkept = 0;
	base[0] = '\0';
}
