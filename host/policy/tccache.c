/* SPDX-License-Identifier: MIT */
/* tccache.c -- --toolchain's answers kept between calls (tccache.h). */
#include "policy/tccache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "policy/paths.h"

#define MAGIC "nova-sandbox toolchain answers 1\n"

void
tcc_ident_of(const struct os_stat *st, struct tcc_ident *id)
{
	id->dev = st->dev;
	id->ino = st->ino;
	id->size = st->size;
	id->mtime_ns = st->mtime_ns;
	id->ctime_ns = st->ctime_ns;
}

int
tcc_ident_eq(const struct tcc_ident *a, const struct tcc_ident *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

/* ---- the key ------------------------------------------------------------ */

static uint64_t
fnv(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

uint64_t
tcc_key(char *const *env, const char *priv, const char *const *ask)
{
	uint64_t h = 14695981039346656037ULL;
	static const char sep[] = { '\0' }, mark[] = { TCC_PRIV };

	for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
		const char *eq = strchr(env[i], '=');

		if (eq != NULL && priv != NULL && strcmp(eq + 1, priv) == 0) {
			h = fnv(h, env[i], (size_t)(eq + 1 - env[i]));
			h = fnv(h, mark, 1);
		} else {
			h = fnv(h, env[i], strlen(env[i]));
		}
		h = fnv(h, sep, 1);
	}
	h = fnv(h, sep, 1);
	for (size_t i = 0; ask != NULL && ask[i] != NULL; i++)
		h = fnv(fnv(h, ask[i], strlen(ask[i])), sep, 1);
	return h;
}

/* ---- the private directory's path in an output --------------------------- */

/* s with every `from` as `to`. */
static char *
swap(const char *s, const char *from, size_t fn, const char *to)
{
	struct sbuf b = {0};
	const char *p = s, *hit;

	if (fn == 0)
		return strdup(s);
	while ((hit = strstr(p, from)) != NULL) {
		sbuf_addn(&b, p, (size_t)(hit - p));
		sbuf_add(&b, to);
		p = hit + fn;
	}
	sbuf_add(&b, p);
	if (sbuf_failed(&b)) {
		sbuf_free(&b);
		return NULL;
	}
	return b.s != NULL ? sbuf_take(&b) : strdup("");
}

char *
tcc_out_keep(const char *out, const char *priv)
{
	static const char mark[] = { TCC_PRIV, '\0' };

	if (strchr(out, TCC_PRIV) != NULL) {
		errno = EINVAL;
		return NULL;
	}
	return swap(out, priv ? priv : "", priv ? strlen(priv) : 0, mark);
}

char *
tcc_out_use(const char *kept, const char *priv)
{
	static const char mark[] = { TCC_PRIV, '\0' };

	return swap(kept, mark, 1, priv ? priv : "");
}

/* ---- the file's text ------------------------------------------------------
 * MAGIC, "key <16 hex>\n", then per answer "q <i> <failed 0|1> <dev>
 * <ino> <size> <mtime_ns> <ctime_ns> <path bytes> <out bytes>\n<path>\n
 * <out>\n", then
 * "end\n".  Numbers decimal; lengths in bytes. */

char *
tcc_format(const struct tcc_record *r)
{
	struct sbuf b = {0};

	sbuf_add(&b, MAGIC);
	sbuf_addf(&b, "key %016llx\n", (unsigned long long)r->key);
	for (int i = 0; i < TCC_QUERIES; i++) {
		const struct tcc_entry *e = &r->e[i];

		if (!e->have || strchr(e->path, '\n') != NULL ||
		    e->path[0] == '\0')
			continue; /* never read back: not written */
		sbuf_addf(&b, "q %d %d %llu %llu %llu %lld %lld %zu %zu\n%s\n"
			  "%s\n", i, e->failed ? 1 : 0,
			  (unsigned long long)e->id.dev,
			  (unsigned long long)e->id.ino,
			  (unsigned long long)e->id.size,
			  (long long)e->id.mtime_ns, (long long)e->id.ctime_ns,
			  strlen(e->path), strlen(e->out), e->path, e->out);
	}
	sbuf_add(&b, "end\n");
	return sbuf_failed(&b) ? (sbuf_free(&b), NULL) : sbuf_take(&b);
}

struct cursor {
	const char *p, *end;
};

/* The literal s at the cursor: 0, or -1. */
static int
lit(struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return -1;
	c->p += n;
	return 0;
}

/* A decimal (base 10) or hex (16) number of at most 20 digits at the
 * cursor, then the byte stop: 0, or -1. */
static int
num(struct cursor *c, int base, char stop, unsigned long long *v)
{
	char digits[24], *e;
	size_t n = 0;
	int neg = base == 10 && c->p < c->end && *c->p == '-';
	const char *ok = base == 16 ? "0123456789abcdef" : "0123456789";

	if (neg)
		c->p++;
	while (c->p + n < c->end && n < 21 && c->p[n] != stop) {
		if (strchr(ok, c->p[n]) == NULL || c->p[n] == '\0')
			return -1;
		n++;
	}
	if (n == 0 || n > 20 || c->p + n >= c->end)
		return -1;
	memcpy(digits, c->p, n);
	digits[n] = '\0';
	errno = 0;
	*v = strtoull(digits, &e, base);
	if (errno != 0 || *e != '\0')
		return -1;
	if (neg)
		*v = (unsigned long long)-(long long)*v;
	c->p += n + 1;
	return 0;
}

/* n bytes at the cursor, then '\n', as a string (no NUL inside): heap
 * in *out, 0; -1 malformed or ENOMEM. */
static int
bytes(struct cursor *c, size_t n, char **out)
{
	if ((size_t)(c->end - c->p) <= n || c->p[n] != '\n' ||
	    memchr(c->p, '\0', n) != NULL || (*out = str_ndup(c->p, n)) == NULL)
		return -1;
	c->p += n + 1;
	return 0;
}

static int
parse_entry(struct cursor *c, struct tcc_record *r)
{
	unsigned long long v[9];
	struct tcc_entry *e;

	if (num(c, 10, ' ', &v[0]) != 0 || v[0] >= TCC_QUERIES ||
	    r->e[v[0]].have)
		return -1;
	for (int k = 1; k < 9; k++)
		if (num(c, 10, k == 8 ? '\n' : ' ', &v[k]) != 0)
			return -1;
	e = &r->e[v[0]];
	if (v[1] > 1 || v[7] == 0 || v[7] > TCC_MAX_BYTES ||
	    v[8] > TCC_MAX_BYTES || (v[1] == 1 && v[8] != 0) ||
	    bytes(c, (size_t)v[7], &e->path) != 0 ||
	    bytes(c, (size_t)v[8], &e->out) != 0 ||
	    strchr(e->path, '\n') != NULL)
		return -1;
	e->failed = (int)v[1];
	e->id.dev = v[2];
	e->id.ino = v[3];
	e->id.size = v[4];
	e->id.mtime_ns = (int64_t)v[5];
	e->id.ctime_ns = (int64_t)v[6];
	e->have = 1;
	return 0;
}

int
tcc_parse(const char *buf, size_t n, struct tcc_record *r)
{
	struct cursor c = { buf, buf + n };
	unsigned long long key;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (lit(&c, MAGIC) != 0 || lit(&c, "key ") != 0 ||
	    num(&c, 16, '\n', &key) != 0)
		goto out;
	r->key = key;
	while (lit(&c, "q ") == 0)
		if (parse_entry(&c, r) != 0)
			goto out;
	if (lit(&c, "end\n") == 0 && c.p == c.end)
		rc = 0;
out:
	if (rc != 0)
		tcc_record_free(r);
	return rc;
}

void
tcc_record_free(struct tcc_record *r)
{
	for (int i = 0; i < TCC_QUERIES; i++) {
		free(r->e[i].path);
		free(r->e[i].out);
	}
	memset(r, 0, sizeof(*r));
}

/* ---- the file beneath the state directory -------------------------------- */

/* Make the missing directories of state (at most 3, below the nearest
 * existing one), 0700, each beneath its parent's descriptor. */
static void
dir_make(const char *state)
{
	char *up[4] = { NULL };
	int n = 0, dfd = -1;

	up[0] = strdup(state);
	while (up[n] != NULL && n < 3) {
		struct os_stat st;

		if (os_stat_path(up[n], &st) == 0 || errno != ENOENT)
			break;
		up[n + 1] = path_dirname(up[n]);
		n++;
	}
	/* up[n] exists (or is not known): make up[n-1] .. up[0] below it */
	if (up[n] != NULL && n > 0)
		dfd = os_open_own(up[n], 1);
	for (int i = n - 1; dfd >= 0 && i >= 0; i--) {
		const char *leaf = os_last_sep(up[i]);
		int next;

		if (leaf == NULL || (os_mkdir_at(dfd, leaf + 1, 0700) != 0 &&
				     errno != EEXIST)) {
			close(dfd);
			dfd = -1;
			break;
		}
		next = os_open_read_at(dfd, leaf + 1, 1);
		close(dfd);
		dfd = next;
	}
	if (dfd >= 0)
		close(dfd);
	for (int i = 0; i <= n && i < 4; i++)
		free(up[i]);
}

int
tcc_dir_open(const char *state, uint32_t uid, int *dfd, char **why)
{
	struct os_stat st;
	char *real;
	int fd = -1;

	*why = NULL;
	*dfd = -1;
	if (os_stat_path(state, &st) != 0 && errno == ENOENT)
		dir_make(state);
	/* its name now, every link above it resolved: the name the trust
	 * walk compares with what it finds by ".." */
	real = os_real_path(state);
	if (real != NULL)
		fd = os_open_own(real, 1);
	if (fd < 0) {
		*why = str_fmt("%s cannot be opened (%s)", state,
			       strerror(errno));
		free(real);
		return *why ? 1 : -1;
	}
	if (os_trust_fd(fd, real, 0, why) != OS_TRUST_OK) {
		free(real);
		close(fd);
		return 1;
	}
	free(real);
	if (os_fstat(fd, &st) != 0 || st.uid != uid) {
		*why = str_fmt("%s is not a directory of uid %u", state,
			       (unsigned)uid);
		close(fd);
		return *why ? 1 : -1;
	}
	*dfd = fd;
	return 0;
}

static void
file_name(const char *name, uint64_t key, char *buf, size_t n)
{
	snprintf(buf, n, "toolchain-%s-%016llx.cache", name,
		 (unsigned long long)key);
}

int
tcc_load(int dfd, const char *name, uint64_t key, uint32_t uid,
	 struct tcc_record *r)
{
	char file[80], *buf;
	struct os_stat st;
	size_t have;
	int fd, rc = 1;

	memset(r, 0, sizeof(*r));
	file_name(name, key, file, sizeof(file));
	if ((fd = os_open_read_at(dfd, file, 0)) < 0)
		return 1;
	if (os_fstat(fd, &st) != 0 || !S_ISREG(st.mode) || st.uid != uid ||
	    (st.mode & 022) != 0 || st.nlink != 1 ||
	    st.size > TCC_MAX_BYTES || (buf = malloc(st.size + 1)) == NULL) {
		close(fd);
		return 1;
	}
	have = fd_read_upto(fd, buf, st.size + 1); /* st.size + 1: grown */
	if (have == st.size && tcc_parse(buf, have, r) == 0)
		rc = r->key == key ? 0 : 1;
	if (rc != 0)
		tcc_record_free(r);
	free(buf);
	close(fd);
	return rc;
}

/* ---- stale files -----------------------------------------------------------
 * One file per key: a PATH or a venv of another project is another file,
 * so switching between them asks nothing again.  A file not written for
 * TCC_STALE_S (every hit rewrites nothing, so: not asked again for that
 * long) is removed when another is written, and so is a temporary file a
 * killed call left. */

struct prune {
	int dfd;
	uint32_t uid;
	int64_t now;
};

static int
prune_one(void *arg, const char *name)
{
	const struct prune *p = arg;
	struct os_stat st;

	if ((strncmp(name, "toolchain-", 10) != 0 &&
	     strncmp(name, ".toolchain-", 11) != 0) ||
	    strstr(name, ".cache") == NULL)
		return 0;
	if (os_fstat_at(p->dfd, name, &st) == 0 && S_ISREG(st.mode) &&
	    st.uid == p->uid && p->now - st.mtime > TCC_STALE_S)
		(void)os_unlink_at(p->dfd, name, 0);
	return 0;
}

static void
prune(int dfd, uint32_t uid)
{
	struct prune p = { -1, uid, (int64_t)time(NULL) };

	if ((p.dfd = os_dir_reopen(dfd)) < 0)
		return;
	(void)os_dir_names(p.dfd, NULL, prune_one, &p);
	close(p.dfd);
}

int
tcc_store(int dfd, const char *name, const struct tcc_record *r)
{
	char file[80], tmp[112];
	unsigned char rnd[8];
	char *text = tcc_format(r);
	int fd, rc = -1;

	file_name(name, r->key, file, sizeof(file));
	if (text == NULL || os_random_bytes(rnd, sizeof(rnd)) != 0) {
		free(text);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), ".%s.%02x%02x%02x%02x%02x%02x%02x%02x",
		 file, rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6],
		 rnd[7]);
	fd = os_create_at(dfd, tmp, 0600);
	if (fd >= 0) {
		rc = fd_write_all(fd, text, strlen(text)) == 0 && os_fsync(fd) == 0
			     ? 0 : -1;
		if (close(fd) != 0)
			rc = -1;
		if (rc == 0)
			rc = os_replace_at(dfd, tmp, file);
		if (rc != 0)
			(void)os_unlink_at(dfd, tmp, 0);
	}
	free(text);
	if (rc == 0)
		prune(dfd, (uint32_t)os_ruid());
	return rc;
}
