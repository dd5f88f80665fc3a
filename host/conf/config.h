/* SPDX-License-Identifier: MIT */
/* config.h -- the ini files that select modules (and nothing else).
 *
 * The main file, then every conf.d/<name>.conf in the directory beside it
 * (in byte order of the names, C locale), are read as one config.  A module
 * package installs its own drop-in naming its module for its role.  The
 * entries of one role from several files form one list in reading order
 * (the main file first); the first that loads and is available serves.  A
 * module named twice for one role, a key set in two files, or moduledir set
 * in two files is refused naming both places.
 *
 *   [nova-sandbox]        moduledir = <absolute dir>       (optional)
 *   [linux] [darwin] [windows]
 *                         wall = <file>[, <file>...]  tried in order
 *                         egress = <file>
 *                         place = <file>
 *                         proxy = <file>
 *   [<module stem>]       that module's own options (stem = file name
 *                         without its suffix, e.g. [landlock])
 *
 * No key can name a read or write path or turn the wall off.  Unknown
 * sections and keys and syntax errors are refused with file:line.  The file
 * and every parent directory must be owned by root or the invoking user and
 * not writable by group or other; this is checked on the open descriptor,
 * and for conf.d on its open descriptor too. */
#ifndef NS_HOST_CONFIG_H
#define NS_HOST_CONFIG_H

#include "base/util.h"

struct config_opt {
	char *section; /* module stem, lower case */
	char *key;     /* lower case */
	char *value;
	unsigned line;
	char *file; /* the file that set it */
};

struct config {
	char *path;      /* the file read, or NULL: compiled-in defaults */
	char *moduledir; /* absolute; default: <exe dir>/NS_MODULEDIR_REL */
	const char *platform; /* "linux", "darwin", "windows" */
	struct strv wall;   /* file names, in the order to try */
	struct strv egress;
	struct strv place;
	struct strv proxy;  /* 1.5: --net-allow's filtering proxy */
	/* where each entry of wall/egress/place came from: "<file>:<line>",
	 * or "default" (compiled in); index for index */
	struct strv wall_from;
	struct strv egress_from;
	struct strv place_from;
	struct strv proxy_from;
	char *moduledir_from; /* "<file>:<line>", or NULL: the default */
	struct strv files;    /* every file read, in reading order */
	char *dropdir;        /* the conf.d directory (absent or not) */
	struct config_opt *opts;
	size_t n_opts;
};

/* Which file to read: `explicit_path` (from --config or the environment,
 * already filtered for set-id by the caller) or the compiled-in
 * NS_SYSCONFDIR/nova-sandbox/nova-sandbox.conf when it exists, else the
 * compiled-in defaults; then the conf.d/ beside that file (for the system
 * path also when the main file is absent).  `exe_dir` is the directory of the running binary.
 * Returns 0, or 1 with refusals (reason "bad_config") in r, -1 on ENOMEM. */
int config_load(const char *explicit_path, const char *exe_dir,
		struct config *cfg, struct refusals *r);
/* The option `key` of module `stem`, or NULL. */
const char *config_option(const struct config *cfg, const char *stem,
			  const char *key);
/* Refuse (bad_config, file:line) every key in [stem] not in `accepted`
 * (NULL-terminated; NULL accepts none).  Returns the number refused. */
int config_check_options(const struct config *cfg, const char *stem,
			 const char *const *accepted, struct refusals *r);
void config_free(struct config *cfg);

/* The option section of a module file: its file name without directory and
 * suffix, lower case ("/x/landlock.so" -> "landlock").  Heap, or NULL. */
char *config_stem(const char *file);

#endif
