/* SPDX-License-Identifier: MIT */
/* loader.h -- finding, checking and loading modules.
 *
 * A name from the config is a bare file name (resolved in the module
 * directory) or an absolute path; nothing is ever found by scanning.  The
 * file is opened O_NOFOLLOW, checked on the descriptor (regular file; owner
 * root or the invoking user; not writable by group or other), every parent
 * directory is checked the same way, and then exactly that inode is loaded
 * (dlopen of /proc/self/fd/N, RTLD_NOW|RTLD_LOCAL).  The descriptor is
 * validated before any module function is called. */
#ifndef NS_HOST_LOADER_H
#define NS_HOST_LOADER_H

#include "ns_backend.h"
#include "conf/config.h"

/* Why a module was refused; each has a token for lines and tests. */
enum load_status {
	LOAD_OK = 0,
	LOAD_NOT_FOUND,     /* "not_found" */
	LOAD_NOT_REGULAR,   /* "not_regular" */
	LOAD_UNSAFE,        /* "unsafe_owner_or_mode" (file or a parent) */
	LOAD_NOT_LOADABLE,  /* "not_loadable": dlopen said why */
	LOAD_NO_ENTRY,      /* "no_entry": no ns_backend_v1 symbol */
	LOAD_BAD_MAGIC,     /* "bad_magic" */
	LOAD_ABI_MAJOR,     /* "abi_major": both numbers named */
	LOAD_ABI_MINOR,     /* "abi_minor": module newer than host */
	LOAD_STRUCT_SIZE,   /* "struct_too_small" (the ops or a role table) */
	LOAD_MISSING_OP,    /* "missing_op": a REQUIRED member is NULL */
	LOAD_NO_ROLE,       /* "wrong_role": does not serve the role asked */
	LOAD_BAD_NAME,      /* "bad_name": bad name/version strings */
	LOAD_UNAVAILABLE,   /* "unavailable": says so itself, with its why */
	LOAD_BAD_OPTION,    /* "bad_option": its config section has a key it
			       does not accept */
	LOAD_WRONG_MACHINE  /* "wrong_machine": an ELF file built for another
			       machine (class, byte order or e_machine) */
};

struct module {
	char *file; /* as the config named it */
	char *path; /* absolute path loaded */
	char *stem; /* its option section (config_stem of file); set it as
		       hostsvc.stem before calling the module */
	void *dl;
	/* host copies, zero-filled beyond the module's struct_size */
	struct ns_backend_ops ops;
	struct ns_wall_ops wall;
	struct ns_egress_ops egress;
	struct ns_place_ops place;
	struct ns_proxy_ops proxy; /* 1.5 */
};

const char *load_status_token(enum load_status st);

/* Load `file` for `role` (one NS_ROLE_* bit, or 0 for "any role").  On
 * failure *why gets one sentence (heap) and the module is not loaded. */
enum load_status loader_load(const struct config *cfg, const char *file,
			     unsigned role, struct module *m, char **why);
/* Does not dlclose: code of a loaded module may have run.  (The loader also
 * keeps the O_CLOEXEC descriptor of every module dlopen() accepted open for
 * the life of the process: dlopen() matches the NAME /proc/self/fd/N on later
 * loads, so N must never be reused for another file.) */
void module_free(struct module *m);

/* For a loaded wall: refuse its config keys it does not accept
 * (LOAD_BAD_OPTION), then call facts() (facts zeroed, struct_size set);
 * LOAD_UNAVAILABLE when it fails or says !available.  Refusals the module
 * makes during facts() become *why (heap) and do not reach `host`; its
 * notes and option look-ups (cfg, m->stem) do. */
enum load_status loader_wall_facts(const struct config *cfg,
				   const struct ns_host *host,
				   const struct module *m,
				   struct ns_wall_facts *facts, char **why);

/* The wall for this run: tries cfg->wall in order, loads the first that
 * passes every check and whose facts() says available.  Returns 0 with *m
 * and *facts set, or 1 after adding one refusal per module tried to r
 * (reason "no_sandbox", text naming the file, the status token and why). */
int loader_select_wall(const struct config *cfg, const struct ns_host *host,
		       struct module *m, struct ns_wall_facts *facts,
		       struct refusals *r);

/* Load the first place module of cfg that passes (0), or refusals in r:
 * 1 none loaded, 2 loaded but its config options were refused (loaded:
 * module_free it). */
int loader_select_place(const struct config *cfg, struct module *m,
			struct refusals *r);

/* Load the first proxy module of cfg that loads (0; its ready() is the
 * caller's to ask), or 1 with one sentence a module tried pushed to
 * why_not ("proxy module <file> refused (<status>): <why>[; <install
 * line>]"; nothing when cfg names none). */
int loader_select_proxy(const struct config *cfg, struct module *m,
			struct strv *why_not);

/* How a module missing from the module directory gets there, as this
 * build was installed: `by` "debian" (one package nova-sandbox-<stem> per
 * module) or "source" (make install from the source tree, with
 * PREFIX=`prefix` when it is not "", the default /usr/local); `files` the
 * module files this build installs, comma-separated
 * ("landlock.so,nsplace.so"). */
struct install_how {
	const char *by;
	const char *files;
	const char *prefix;
};

/* What the Makefile says of this build (INSTALLED_BY, its modules). */
extern const struct install_how loader_built_how;

/* For a module `file` the config named by its bare name and the loader
 * did not find (ls LOAD_NOT_FOUND) that `h` installs: "<what to do>;
 * run: <the command that installs it>" (heap), e.g. "install its
 * package; run: apt install nova-sandbox-landlock".  NULL for any other
 * file or status (a path, another module, a file that is there), or when
 * memory ran out. */
char *loader_install_hint(const struct install_how *h, const char *file,
			  enum load_status ls);

#endif
