/* SPDX-License-Identifier: MIT */
/* tccache.h -- the answers of --toolchain's tools kept between calls
 * (docs/SPEC-SANDBOX.md rule 3a "The answers are kept"): one file per
 * toolchain and key, toolchain-<t>-<key>.cache in the caller's state
 * directory, each
 * answer with the identity of the tool that gave it (its path as found
 * on PATH; device, inode, size, mtime and ctime of the file run) and a
 * key of everything else it was asked with (the environment, the
 * questions).  Only the output is kept: what an answer adds is judged
 * again on every call (toolchain.c), as if the tool had just said it.
 * The file is read and written beneath the state directory's descriptor:
 * opened never through a link, used only when it is a regular file of
 * the caller's, one name, writable by no one else; written whole to a
 * temporary file and renamed over.  Anything it does not parse is a
 * miss. */
#ifndef NS_HOST_TCCACHE_H
#define NS_HOST_TCCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "os/os.h"

#define TCC_QUERIES 3        /* a toolchain's questions, at most */
#define TCC_MAX_BYTES 65536  /* a bigger file is a miss */
#define TCC_STALE_S (30 * 86400) /* a file not written for 30 days goes */

/* Which file answered: the tool as found, and the file's identity. */
struct tcc_ident {
	uint64_t dev, ino, size;
	int64_t mtime_ns, ctime_ns;
};

struct tcc_entry {
	int have;
	int failed;           /* the tool failed (an optional question):
				 out is "" */
	char *path;           /* the tool's path as found on PATH (heap) */
	struct tcc_ident id;
	char *out;            /* its whole output (heap), the private
				 directory's path in it as TCC_PRIV */
};

struct tcc_record {
	uint64_t key;         /* tcc_key of what the tools were asked with */
	struct tcc_entry e[TCC_QUERIES];
};

/* Stands for the private directory's path (a fresh one each call) in a
 * kept output; an output that holds this byte itself is never kept. */
#define TCC_PRIV '\001'

/* The identity of st. */
void tcc_ident_of(const struct os_stat *st, struct tcc_ident *id);
int tcc_ident_eq(const struct tcc_ident *a, const struct tcc_ident *b);

/* A key (FNV-1a, 64 bits) of the tools' environment env (NULL-terminated;
 * a value that is the private directory priv taken as TCC_PRIV) and the
 * strings of ask (NULL-terminated; the questions).  Not a secret and not
 * a defence: the file is the caller's alone. */
uint64_t tcc_key(char *const *env, const char *priv, const char *const *ask);

/* out with every priv in it as TCC_PRIV (to keep), or with every
 * TCC_PRIV as priv (kept, to use now).  Heap; NULL on ENOMEM, or when
 * keeping an output that already holds TCC_PRIV (errno EINVAL). */
char *tcc_out_keep(const char *out, const char *priv);
char *tcc_out_use(const char *kept, const char *priv);

/* The file's text for r (heap, NULL on ENOMEM); r from a file's text:
 * 0, or -1 when it is not one this version wrote (r left empty). */
char *tcc_format(const struct tcc_record *r);
int tcc_parse(const char *buf, size_t n, struct tcc_record *r);
void tcc_record_free(struct tcc_record *r);

/* The state directory at state (canonical), made (0700, the missing
 * components below the nearest existing directory, at most 3) when
 * absent, opened never through a link at its last component, and trusted
 * only when it and every directory above it are root's or uid's and
 * writable by no one else, and it is uid's own (os_trust_fd): 0 with
 * *dfd; 1 not usable (*why, heap, or NULL); -1 ENOMEM. */
int tcc_dir_open(const char *state, uint32_t uid, int *dfd, char **why);
/* toolchain-<name>-<key, 16 hex>.cache beneath dfd into r: 0 loaded, 1 a
 * miss (absent, not uid's regular file with one name, writable by
 * another, too big, unreadable, unparsed, another key inside: r empty). */
int tcc_load(int dfd, const char *name, uint64_t key, uint32_t uid,
	     struct tcc_record *r);
/* Write r as toolchain-<name>-<r->key>.cache beneath dfd: a fresh
 * temporary file (0600) written, synced and renamed over it; then every
 * toolchain-*.cache (and temporary file) of the caller's not written for
 * TCC_STALE_S is removed.  0, or -1 (nothing kept; the temporary file
 * removed). */
int tcc_store(int dfd, const char *name, const struct tcc_record *r);

#endif
