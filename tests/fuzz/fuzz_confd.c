/* SPDX-License-Identifier: MIT */
/* fuzz_confd.c -- libFuzzer harness for the conf.d drop-in merge
 * (host/conf/config.c config_load: the main file, then every
 * conf.d/<name>.conf in byte order, read as one config).
 *
 * The input is split on NUL bytes: the first part is the main file, each
 * further one (at most 8) a file in conf.d/: named NN.conf, or, when it
 * starts with '~', NN.conf~ (an editor's leftover) and, with '.', .NN.conf
 * (hidden) -- neither is a drop-in.  Checked on every input:
 *
 *   - what is not a drop-in changes nothing: the config and the refusals
 *     with those files present are the ones without them;
 *   - the same files read twice give the same config (no state kept);
 *   - a load that returns 0 refused nothing, one that returns 1 did;
 *   - the entries of one role (wall, egress, place) are in reading order:
 *     the file each came from never goes back in the list of files read
 *     (the main file first, then the drop-ins in byte order).
 *
 * Everything lives in a directory made next to this binary (build-fuzz/,
 * which the reader accepts; /tmp would be refused) and is removed at exit.
 * Seeds: tests/fuzz/corpus/confd/ (the parts joined by NUL: .hex). */
#include "fuzz_common.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "base/util.h"
#include "wall/args.h"
#include "conf/config.h"

#define MAX_PARTS 9

static char dir[PATH_MAX], path[PATH_MAX + 16];
static int dirfd_ = -1;

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_confd: invariant broken: %s\n", what);
	abort();
}

/* Remove every file of conf.d (the harness's own, nothing else is there). */
static void
empty_dropdir(void)
{
	for (int k = 0; k < MAX_PARTS; k++) {
		char n[32];

		snprintf(n, sizeof(n), "conf.d/%02d.conf", k);
		(void)unlinkat(dirfd_, n, 0);
		snprintf(n, sizeof(n), "conf.d/%02d.conf~", k);
		(void)unlinkat(dirfd_, n, 0);
		snprintf(n, sizeof(n), "conf.d/.%02d.conf", k);
		(void)unlinkat(dirfd_, n, 0);
	}
}

static void
cleanup(void)
{
	if (dirfd_ >= 0) {
		empty_dropdir();
		(void)unlinkat(dirfd_, "conf.d", AT_REMOVEDIR);
		(void)unlinkat(dirfd_, "fuzz.conf", 0);
		close(dirfd_);
	}
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_private_dir("fuzz-confd", dir);
	snprintf(path, sizeof(path), "%s/fuzz.conf", dir);
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0 || mkdirat(dirfd_, "conf.d", 0755) != 0)
		abort();
	atexit(cleanup);
	return 0;
}

static void
put(const char *name, const uint8_t *data, size_t size)
{
	int fd = openat(dirfd_, name, O_WRONLY | O_CREAT | O_TRUNC |
			O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

/* The index in cfg->files of the file an entry came from ("<file>:<n>"),
 * or -1 for a compiled-in default. */
static long
file_index(const struct config *cfg, const char *from)
{
	for (size_t k = 0; k < cfg->files.n; k++) {
		size_t n = strlen(cfg->files.v[k]);

		if (strncmp(from, cfg->files.v[k], n) == 0 && from[n] == ':')
			return (long)k;
	}
	if (strcmp(from, "default") != 0)
		die("an entry from a file that was not read");
	return -1;
}

static void
in_order(const struct config *cfg, const struct strv *from)
{
	long last = -1;

	for (size_t i = 0; i < from->n; i++) {
		long k = file_index(cfg, from->v[i]);

		if (k >= 0 && k < last)
			die("a role's entries are not in reading order");
		if (k >= 0)
			last = k;
	}
}

static void
list_text(struct sbuf *b, const char *what, const struct strv *v,
	  const struct strv *from)
{
	sbuf_addf(b, "%s:", what);
	for (size_t i = 0; i < v->n; i++)
		sbuf_addf(b, " %s<%s>", v->v[i],
			  i < from->n ? from->v[i] : "?");
	sbuf_add(b, "\n");
}

/* Load, check what one load must hold, and say the result as text
 * (heap): rc, the lists, moduledir, the options, the refusals. */
static char *
load_text(void)
{
	struct config cfg;
	struct refusals r = {0};
	struct sbuf b = {0};
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	rc = config_load(path, dir, &cfg, &r);
	if ((rc == 0 && r.n != 0) || (rc == 1 && r.n == 0))
		die("the return and the refusals disagree");
	sbuf_addf(&b, "rc=%d\n", rc);
	if (rc >= 0) {
		in_order(&cfg, &cfg.wall_from);
		in_order(&cfg, &cfg.egress_from);
		in_order(&cfg, &cfg.place_from);
		list_text(&b, "wall", &cfg.wall, &cfg.wall_from);
		list_text(&b, "egress", &cfg.egress, &cfg.egress_from);
		list_text(&b, "place", &cfg.place, &cfg.place_from);
		sbuf_addf(&b, "moduledir=%s<%s>\n", cfg.moduledir ?
			  cfg.moduledir : "-", cfg.moduledir_from ?
			  cfg.moduledir_from : "default");
		for (size_t i = 0; i < cfg.n_opts; i++)
			sbuf_addf(&b, "opt %s.%s=%s\n", cfg.opts[i].section,
				  cfg.opts[i].key, cfg.opts[i].value);
	}
	for (size_t i = 0; i < r.n; i++)
		sbuf_addf(&b, "refused %s\n", r.v[i].text);
	out_refusals(fz_sink(), "SANDBOX", &r, "nova-sandbox help", 0);
	config_free(&cfg);
	refusals_free(&r);
	if (sbuf_failed(&b))
		abort();
	return sbuf_take(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[MAX_PARTS];
	size_t len[MAX_PARTS], n = 0, i = 0;
	char *with, *again, *without;
	int others = 0;

	while (n < MAX_PARTS && i <= size) {
		const uint8_t *nul = memchr(data + i, '\0', size - i);
		size_t l = nul ? (size_t)(nul - (data + i)) : size - i;

		part[n] = data + i;
		len[n++] = l;
		i += l + 1;
	}
	empty_dropdir();
	put("fuzz.conf", part[0], len[0]);
	for (size_t k = 1; k < n; k++) {
		char name[32];
		int leftover = len[k] > 0 && part[k][0] == '~';
		int hidden = len[k] > 0 && part[k][0] == '.';

		snprintf(name, sizeof(name), hidden ? "conf.d/.%02zu.conf" :
			 leftover ? "conf.d/%02zu.conf~" : "conf.d/%02zu.conf",
			 k);
		put(name, part[k] + (leftover || hidden), len[k] -
		    (leftover || hidden));
		others += leftover || hidden;
	}
	with = load_text();
	again = load_text();
	if (strcmp(with, again) != 0)
		die("the same files read twice differ");
	if (others) {
		for (size_t k = 1; k < n; k++) {
			char name[32];

			snprintf(name, sizeof(name), "conf.d/%02zu.conf~", k);
			(void)unlinkat(dirfd_, name, 0);
			snprintf(name, sizeof(name), "conf.d/.%02zu.conf", k);
			(void)unlinkat(dirfd_, name, 0);
		}
		without = load_text();
		if (strcmp(with, without) != 0)
			die("a file that is not a drop-in changed the config");
		free(without);
	}
	free(with);
	free(again);
	return 0;
}
