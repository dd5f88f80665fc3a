/* SPDX-License-Identifier: MIT */
/* dropins.c -- conf.d: the drop-in directory beside the main file, opened
 * and checked on its descriptor like a file, listed through it, each *.conf
 * opened relative to it, in byte order (cload.h). */
#include "conf/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "os/os.h"
#include "conf/cload.h"

/* The conf.d directory beside the main file (or the system one). */
char *
dropdir_of(const char *main_path)
{
	const char *slash;

	if (main_path == NULL)
		return strdup(NS_SYSCONFDIR "/nova-sandbox/conf.d");
	slash = os_last_sep(main_path);
	return str_fmt("%.*s/conf.d", (int)(slash ? slash - main_path : 0),
		       main_path);
}

static int
by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A drop-in's name: <something>.conf, not hidden (editor and dpkg
 * leftovers such as x.conf~ or x.conf.dpkg-old are not drop-ins). */
static int
is_dropin(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".conf") == 0;
}

static int
one_name(void *arg, const char *name)
{
	struct strv *names = arg;

	if (is_dropin(name))
		(void)strv_push(names, name); /* a failure sticks */
	return 0;
}

/* The names of the drop-ins in dirfd, in byte order; 0, 1 refused. */
static int
list_dropins(struct cload *cl, int dirfd, struct strv *names)
{
	if (os_dir_names(dirfd, cl->shown, one_name, names) != 0) {
		conf_bad(cl, 0, "cannot list: %s", strerror(errno));
		return 1;
	}
	if (strv_failed(names))
		cl->nomem = 1;
	if (names->n > CONFIG_MAX_DROPINS) {
		conf_bad(cl, 0, "holds %zu drop-ins; at most %d are read", names->n,
		    CONFIG_MAX_DROPINS);
		return 1;
	}
	if (names->n > 1)
		qsort(names->v, names->n, sizeof(names->v[0]), by_bytes);
	return 0;
}

/* Open conf.d (absent: -2, nothing to read), checked on its descriptor. */
static int
open_dropdir(struct cload *cl, const char *dir)
{
	char *why = NULL;
	int fd = os_open_own(dir, 1);

	cl->shown = dir;
	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		/* O_DIRECTORY wins over O_NOFOLLOW: a link says ENOTDIR; the
		 * name is looked at again only to word the refusal */
		if (errno == ELOOP ||
		    (errno == ENOTDIR && os_path_kind(dir) == OS_PATH_LINK))
			conf_bad(cl, 0, "is a symbolic link; conf.d is a directory "
			    "itself");
		else if (errno == ENOTDIR)
			conf_bad(cl, 0, "is not a directory; conf.d holds drop-in "
			    "files");
		else
			conf_bad(cl, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (os_trust_fd(fd, dir, 0, &why) != OS_TRUST_OK) {
		conf_bad(cl, 0, "conf.d refused: %s", why ? why : "unsafe");
		free(why);
		close(fd);
		return -1;
	}
	return fd;
}

/* One drop-in, opened relative to conf.d and checked on its descriptor. */
static int
open_dropin(struct cload *cl, int dirfd, const char *name)
{
	char *why = NULL;
	int fd = os_open_own_at(dirfd, cl->cfg->dropdir, name);

	if (fd < 0) {
		if (errno == ELOOP)
			conf_bad(cl, 0, "is a symbolic link; a drop-in is a file "
			    "in conf.d itself");
		else
			conf_bad(cl, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (os_trust_fd(fd, cl->shown, 1, &why) != OS_TRUST_OK) {
		conf_bad(cl, 0, "drop-in refused: %s", why ? why : "unsafe");
		free(why);
		close(fd);
		return -1;
	}
	return fd;
}

/* Open and read every drop-in of conf.d into files[*n...]. */
void
read_dropins(struct cload *cl, struct cfile **files, size_t *n)
{
	struct strv names = { 0 };
	int dirfd = open_dropdir(cl, cl->cfg->dropdir);

	if (dirfd < 0 || list_dropins(cl, dirfd, &names) != 0) {
		if (dirfd >= 0)
			close(dirfd);
		strv_free(&names);
		return;
	}
	for (size_t i = 0; i < names.n && !cl->nomem; i++) {
		struct cfile *nv = realloc(*files, (*n + 1) * sizeof(*nv));
		char *full = str_fmt("%s/%s", cl->cfg->dropdir, names.v[i]);
		int fd;

		if (nv == NULL || full == NULL || strv_push(&cl->cfg->files, full)) {
			if (nv != NULL)
				*files = nv;
			free(full);
			cl->nomem = 1;
			break;
		}
		free(full);
		*files = nv;
		memset(&nv[*n], 0, sizeof(nv[*n]));
		nv[*n].shown = cl->cfg->files.v[cl->cfg->files.n - 1];
		cl->shown = nv[*n].shown;
		fd = open_dropin(cl, dirfd, names.v[i]);
		if (fd >= 0)
			read_file(cl, &nv[*n], fd);
		(*n)++;
	}
	close(dirfd);
	strv_free(&names);
}
