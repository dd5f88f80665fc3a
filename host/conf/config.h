/* SPDX-License-Identifier: MIT */
/* config.h -- the ini file that selects modules (and nothing else).
 *
 *   [nova-sandbox]        moduledir = <absolute dir>       (optional)
 *   [linux] [darwin] [windows]
 *                         wall = <file>[, <file>...]  tried in order
 *                         egress = <file>
 *                         place = <file>
 *   [<module stem>]       that module's own options (stem = file name
 *                         without its suffix, e.g. [landlock])
 *
 * No key can name a read or write path or turn the wall off.  Unknown
 * sections and keys and syntax errors are refused with file:line.  The file
 * and every parent directory must be owned by root or the invoking user and
 * not writable by group or other; this is checked on the open descriptor. */
#ifndef NS_HOST_CONFIG_H
#define NS_HOST_CONFIG_H

#include "base/util.h"

struct config_opt {
	char *section; /* module stem, lower case */
	char *key;     /* lower case */
	char *value;
	unsigned line;
};

struct config {
	char *path;      /* the file read, or NULL: compiled-in defaults */
	char *moduledir; /* absolute; default: <exe dir>/NS_MODULEDIR_REL */
	const char *platform; /* "linux", "darwin", "windows" */
	struct strv wall;   /* file names, in the order to try */
	struct strv egress;
	struct strv place;
	struct config_opt *opts;
	size_t n_opts;
};

/* Which file to read: `explicit_path` (from --config or the environment,
 * already filtered for set-id by the caller) or the compiled-in
 * NS_SYSCONFDIR/nova-sandbox/nova-sandbox.conf when it exists, else the
 * compiled-in defaults.  `exe_dir` is the directory of the running binary.
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
