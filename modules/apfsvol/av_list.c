/* SPDX-License-Identifier: MIT */
/* av_list.c -- list(): every nova-* volume mounted under the mount root,
 * confirmed by diskutil, with its owner marker:
 *   name=nova-<n> id=<diskXsY> root=<mount> owner=<pid|-> start=<start|->
 * (name is the volume's name, prefix included: the host's reap checks
 * the nova- prefix and prints it as volume=). 
 * Entries that are not our volumes are skipped with a note; nothing is
 * listed that this module did not name. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "av.h"

#define AV_LIST_MAX 1024

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The nova-* entries of the mount root, sorted; NULL (refused) on error. */
static char **
scan(const struct ns_host *h, const struct av_cfg *c, size_t *n)
{
	char **names = calloc(AV_LIST_MAX, sizeof(*names));
	int fd = open(c->volumes, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;

	*n = 0;
	if (names == NULL || d == NULL) {
		av_refuse(h, "volume_failed", "cannot read the mount root %s: %s",
			  c->volumes, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(names);
		return NULL;
	}
	while ((e = readdir(d)) != NULL && *n < AV_LIST_MAX)
		if (strncmp(e->d_name, AV_PREFIX, strlen(AV_PREFIX)) == 0 &&
		    (names[*n] = strdup(e->d_name)) != NULL)
			(*n)++;
	closedir(d);
	qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

static void
skip(const struct ns_host *h, const char *path, const char *why)
{
	char note[700];

	snprintf(note, sizeof(note), "skipping %s: %s", path, why);
	h->note(h->cookie, note);
}

/* The marker of the directory at path, opened without following links. */
static void
owner_of(const char *path, char *owner, size_t olen, char *start,
	 size_t slen)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	long pid;

	snprintf(owner, olen, "-");
	snprintf(start, slen, "-");
	if (fd < 0)
		return;
	if (av_marker_read(fd, AV_MARKER, &pid, start, slen) == 0)
		snprintf(owner, olen, "%ld", pid);
	else
		snprintf(start, slen, "-");
	close(fd);
}

static int
one(const struct ns_host *h, const struct av_cfg *c, const char *entry)
{
	char path[640], owner[24], start[256], line[1200];
	struct av_vol v;
	int found, rc;

	snprintf(path, sizeof(path), "%s/%s", c->volumes, entry);
	if (!av_under_root(c, path)) {
		skip(h, path, "the name holds whitespace or control characters");
		return NS_OK;
	}
	rc = av_info(h, c, path, &v, &found);
	if (rc != NS_OK)
		return rc;
	if (!found || strcmp(v.name, entry) != 0 ||
	    strcmp(v.mount, path) != 0 || !av_valid_id(v.id)) {
		skip(h, path, "not a mounted APFS volume of that name");
		return NS_OK;
	}
	owner_of(path, owner, sizeof(owner), start, sizeof(start));
	snprintf(line, sizeof(line), "name=%s id=%s root=%s owner=%s start=%s",
		 entry, v.id, path, owner, start);
	h->text(h->cookie, line);
	return NS_OK;
}

int
av_list(const struct ns_host *h)
{
	struct av_cfg c;
	char **names;
	size_t n;
	int rc = NS_OK;

	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	names = scan(h, &c, &n);
	if (names == NULL)
		return NS_E_SYSTEM;
	for (size_t i = 0; rc == NS_OK && i < n; i++)
		rc = one(h, &c, names[i]);
	free_names(names, n);
	return rc;
}
