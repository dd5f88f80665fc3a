/* SPDX-License-Identifier: MIT */
/* bwrap_wall.c -- an out-of-tree nova-sandbox wall that runs the command
 * inside bubblewrap (shape NS_SHAPE_HELPER).
 *
 * It is built against the INSTALLED header only (`pkg-config --cflags
 * nova-sandbox` gives -I<includedir>/nova-sandbox) and shows that the ABI
 * fits the "exec a helper that confines" shape: prepare() turns the policy
 * into a bwrap argument list, spawn() forks and executes bwrap with it.
 *
 * The mapping (see README.md):
 *   read roots, optional roots, --read     --ro-bind P P
 *   --read-noexec                          refused: a bind mount cannot
 *                                          drop execute here
 *   --write, tmp, cwd                      --bind P P
 *   /dev/null, /dev/tty (write_files)      provided by --dev /dev
 *   protected paths (ABI 1.4)              --ro-bind P P after every rule
 *                                          bind (bwrap: the later mount
 *                                          wins), identity checked against
 *                                          protect_fds[i] just before
 *   --net-deny                             --unshare-net
 *   always                                 --die-with-parent --new-session
 *                                          --unshare-pid --unshare-ipc
 *                                          --proc /proc --dev /dev
 * A rule inside another rule that grants as much is dropped, and rules are
 * bound parents first, so the result is the union of the rules (as with
 * Landlock) and not "the last bind wins".
 *
 * Conduct: it never prints, exits or aborts; every problem is said through
 * host->refuse() or host->note(); only the forked child calls _exit(). */
#define _GNU_SOURCE
#include <ns_backend.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define BW_DEFAULT "/usr/bin/bwrap"
#define BW_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Platform data handed to the host (it resolves these into rules).    */
/* ------------------------------------------------------------------ */

/* /dev and /proc are not read roots: bwrap mounts a fresh /dev and /proc. */
static const char *const bw_read_roots[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc",
	"/run/systemd/resolve", "/opt", NULL
};
static const char *const bw_write_files[] = { "/dev/null", "/dev/tty", NULL };
static const char *const bw_optional_roots[] = { NULL };
static const char *const bw_system_prefixes[] = {
	"/usr", "/bin", "/sbin", "/dev", NULL
};
/* What `--dev /dev` creates; a write_files rule for one of these is kept
 * by the fresh /dev and needs no bind. */
static const char *const bw_dev_nodes[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", NULL
};
static const char *const bw_options[] = { "bwrap", NULL };

/* ------------------------------------------------------------------ */
/* Small helpers.                                                       */
/* ------------------------------------------------------------------ */

/* A member of a host struct exists when the host's struct_size covers it. */
#define BW_HAS(s, member) \
	((s)->struct_size >= offsetof(__typeof__(*(s)), member) + \
	 sizeof((s)->member))

static void
bw_refuse(const struct ns_host *h, const char *reason, const char *text)
{
	if (BW_HAS(h, refuse) && h->refuse != NULL)
		h->refuse(h->cookie, reason, text);
}

static void
bw_note(const struct ns_host *h, const char *text)
{
	if (BW_HAS(h, note) && h->note != NULL)
		h->note(h->cookie, text);
}

static void
bw_text(const struct ns_host *h, const char *line)
{
	if (BW_HAS(h, text) && h->text != NULL)
		h->text(h->cookie, line);
}

/* The configured bwrap path; never looked up on PATH. */
static const char *
bw_path(const struct ns_host *h)
{
	const char *v = NULL;

	if (BW_HAS(h, option) && h->option != NULL)
		v = h->option(h->cookie, "bwrap");
	return v != NULL ? v : BW_DEFAULT;
}

/* Is `path` equal to `dir` or beneath it (string test at a '/' boundary;
 * the host hands us resolved paths)? */
static int
bw_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int
bw_in_list(const char *path, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(path, *list) == 0)
			return 1;
	return 0;
}

static size_t
bw_depth(const char *path)
{
	size_t d = 0;

	for (; *path != '\0'; path++)
		if (*path == '/' && path[1] != '\0')
			d++;
	return d;
}

/* ------------------------------------------------------------------ */
/* Checking the bwrap binary (fd-first: the same inode is executed).    */
/* ------------------------------------------------------------------ */

/* Open `path` O_PATH and check it on the descriptor.  Returns the fd, or
 * -1 with `why` filled (one sentence with its remedy). */
static int
bw_open_helper(const char *path, char *why, size_t n)
{
	struct stat st;
	int fd;

	if (path[0] != '/') {
		snprintf(why, n, "the bwrap option must be an absolute path, "
		    "got '%s'; set bwrap = /usr/bin/bwrap in the module's "
		    "config section", path);
		return -1;
	}
	fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(why, n, "cannot open '%s': %s; install bubblewrap "
		    "(apt-get install bubblewrap) or set the bwrap option",
		    path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 0111) == 0 || (st.st_mode & 022) != 0) {
		snprintf(why, n, "'%s' is not an executable regular file "
		    "writable only by its owner; install bubblewrap or set "
		    "the bwrap option", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* Unprivileged bwrap needs user namespaces: a zero here means it fails. */
static int
bw_userns_ok(char *why, size_t n)
{
	char buf[32] = "";
	ssize_t r;
	int fd;

	fd = open("/proc/sys/user/max_user_namespaces", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1; /* cannot tell: bwrap itself will say */
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r > 0 && strtol(buf, NULL, 10) == 0) {
		snprintf(why, n, "user namespaces are disabled "
		    "(user.max_user_namespaces=0); bwrap needs them: "
		    "sysctl -w user.max_user_namespaces=15000");
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* The plan: one walk over the policy, shared by render() and prepare() */
/* ------------------------------------------------------------------ */

enum bw_item {
	BW_ITEM_FLAG,    /* a, NULL: one bwrap flag */
	BW_ITEM_MOUNT,   /* flag, path: --proc /proc, --ro-bind P P, ... */
	BW_ITEM_SYMLINK, /* target, link */
	BW_ITEM_SKIP,    /* why, path: a rule needing no mount (comment) */
	BW_ITEM_PROTECT, /* "--ro-bind", path: a protected path (1.4) */
	BW_ITEM_REFUSE   /* why, path: a rule bwrap cannot keep */
};

struct bw_emit {
	void (*fn)(void *ctx, enum bw_item item, const char *a, const char *b);
	void *ctx;
};

#define EMIT(e, i, a, b) ((e)->fn((e)->ctx, (i), (a), (b)))

static const char *
bw_bind_flag(uint32_t access)
{
	switch (access) {
	case NS_ACCESS_READ_EXEC:
		return "--ro-bind";
	case NS_ACCESS_WRITE:
		return "--bind";
	case NS_ACCESS_WRITE_FILE:
		return "--dev-bind";
	default:
		return NULL;
	}
}

/* How much a rule grants, for the "covered by" test. */
static int
bw_level(uint32_t access)
{
	return access == NS_ACCESS_WRITE ? 2 : 1;
}

struct bw_ord {
	size_t depth;
	size_t idx;
};

static int
bw_cmp_depth(const void *a, const void *b)
{
	const struct bw_ord *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Indexes of the rules, parents first, otherwise in the host's order.
 * NULL on ENOMEM. */
static size_t *
bw_order(const struct ns_policy *pol)
{
	struct bw_ord *o = calloc(pol->n_rules + 1, sizeof(*o));
	size_t *ix = calloc(pol->n_rules + 1, sizeof(*ix));

	if (o == NULL || ix == NULL) {
		free(o);
		free(ix);
		return NULL;
	}
	for (size_t i = 0; i < pol->n_rules; i++)
		o[i] = (struct bw_ord){ bw_depth(pol->rules[i].path), i };
	qsort(o, pol->n_rules, sizeof(*o), bw_cmp_depth);
	for (size_t i = 0; i < pol->n_rules; i++)
		ix[i] = o[i].idx;
	free(o);
	return ix;
}

/* Is rule ix[k] inside an earlier kept rule that grants at least as much? */
static int
bw_covered(const struct ns_policy *pol, const size_t *ix, const char *kept,
	   size_t k)
{
	const struct ns_rule *r = &pol->rules[ix[k]];

	for (size_t j = 0; j < k; j++) {
		const struct ns_rule *p = &pol->rules[ix[j]];

		if (kept[j] && bw_inside(r->path, p->path) &&
		    bw_level(p->access) >= bw_level(r->access))
			return 1;
	}
	return 0;
}

/* One rule: emit its mount, or say why it needs none.  Returns 1 when the
 * rule was bound (so later rules may be covered by it). */
static int
bw_plan_rule(const struct ns_rule *r, int covered, const struct bw_emit *e)
{
	const char *flag = bw_bind_flag(r->access);

	if (flag == NULL) {
		EMIT(e, BW_ITEM_REFUSE, "a bind mount cannot drop execute",
		    r->path);
		return 0;
	}
	if (strcmp(r->path, "/dev") == 0 || strcmp(r->path, "/proc") == 0) {
		EMIT(e, BW_ITEM_SKIP, "mounted fresh by bwrap", r->path);
		return 0;
	}
	if (r->access == NS_ACCESS_WRITE_FILE &&
	    bw_in_list(r->path, bw_dev_nodes)) {
		EMIT(e, BW_ITEM_SKIP, "provided by --dev /dev", r->path);
		return 0;
	}
	/* the host's rule for the terminal on stdio: bwrap's fresh devpts
	 * has no such node to bind onto; the command keeps its fds 0-2 */
	if (r->access == NS_ACCESS_WRITE_FILE &&
	    strncmp(r->path, "/dev/pts/", 9) == 0) {
		EMIT(e, BW_ITEM_SKIP, "a fresh /dev/pts has no such node; "
		     "the terminal stays on the inherited fds 0-2", r->path);
		return 0;
	}
	if (covered) {
		EMIT(e, BW_ITEM_SKIP, "inside a bind that grants as much",
		    r->path);
		return 0;
	}
	EMIT(e, BW_ITEM_MOUNT, flag, r->path);
	return 1;
}

/* usrmerge: /bin -> usr/bin.  The host resolved the rule to /usr/bin, so
 * the link itself must be recreated inside the new root. */
static void
bw_plan_symlinks(const struct bw_emit *e)
{
	char target[PATH_MAX];
	struct stat st;

	for (const char *const *p = bw_read_roots; *p != NULL; p++) {
		ssize_t n;

		if (lstat(*p, &st) != 0 || !S_ISLNK(st.st_mode))
			continue;
		n = readlink(*p, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		EMIT(e, BW_ITEM_SYMLINK, target, *p);
	}
}

/* The protected paths (ABI 1.4), after every rule's bind: a mount made
 * later covers the earlier ones, so `--ro-bind P P` keeps P read-only
 * whatever --write above it was bound.  A path inside no kept bind is not
 * in the new root at all (not writable, not readable): binding it would
 * widen what the command sees, so it gets a comment and no mount. */
static void
bw_plan_protect(const struct ns_policy *pol, const size_t *ix,
		const char *kept, const struct bw_emit *e)
{
	if (!NS_POLICY_HAS_PROTECT(pol) || pol->protect == NULL)
		return;
	for (size_t i = 0; i < pol->n_protect; i++) {
		int seen = 0;

		for (size_t k = 0; k < pol->n_rules && !seen; k++)
			seen = kept[k] &&
			    bw_inside(pol->protect[i], pol->rules[ix[k]].path);
		if (seen)
			EMIT(e, BW_ITEM_PROTECT, "--ro-bind", pol->protect[i]);
		else
			EMIT(e, BW_ITEM_SKIP, "protected, and inside no bind: "
			    "not in the new root at all", pol->protect[i]);
	}
}

/* The whole plan, in bwrap's order.  Returns NS_OK or NS_E_INTERNAL
 * (ENOMEM: nothing emitted beyond the fixed flags). */
static int
bw_plan(const struct ns_policy *pol, const struct bw_emit *e)
{
	size_t *ix;
	char *kept;

	EMIT(e, BW_ITEM_FLAG, "--die-with-parent", NULL);
	EMIT(e, BW_ITEM_FLAG, "--new-session", NULL);
	EMIT(e, BW_ITEM_FLAG, "--unshare-pid", NULL);
	EMIT(e, BW_ITEM_FLAG, "--unshare-ipc", NULL);
	if (pol->flags & NS_POLICY_NET_DENY)
		EMIT(e, BW_ITEM_FLAG, "--unshare-net", NULL);
	EMIT(e, BW_ITEM_MOUNT, "--proc", "/proc");
	EMIT(e, BW_ITEM_MOUNT, "--dev", "/dev");
	bw_plan_symlinks(e);
	ix = bw_order(pol);
	kept = calloc(pol->n_rules + 1, 1);
	if (ix == NULL || kept == NULL) {
		free(ix);
		free(kept);
		return NS_E_INTERNAL;
	}
	for (size_t k = 0; k < pol->n_rules; k++)
		kept[k] = (char)bw_plan_rule(&pol->rules[ix[k]],
		    bw_covered(pol, ix, kept, k), e);
	bw_plan_protect(pol, ix, kept, e);
	free(ix);
	free(kept);
	return NS_OK;
}

/* ------------------------------------------------------------------ */
/* render(): the plan as text lines.                                    */
/* ------------------------------------------------------------------ */

/* Field escaping as the host's grammar: control bytes, space and '='
 * become \xNN (a caller path carries no control character anyway). */
static void
bw_escape(char *dst, size_t n, const char *src)
{
	size_t o = 0;

	for (; *src != '\0' && o + 5 < n; src++) {
		unsigned char c = (unsigned char)*src;

		if (c <= 0x20 || c == 0x7f || c == '=')
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", c);
		else
			dst[o++] = (char)c;
	}
	dst[o] = '\0';
}

struct bw_render {
	const struct ns_host *host;
};

static void
bw_render_item(void *ctx, enum bw_item item, const char *a, const char *b)
{
	const struct ns_host *h = ((struct bw_render *)ctx)->host;
	char eb[PATH_MAX * 4 + 1], ea[PATH_MAX * 4 + 1];
	char line[sizeof(eb) + sizeof(ea) + 64];

	bw_escape(eb, sizeof(eb), b != NULL ? b : "");
	bw_escape(ea, sizeof(ea), a);
	if (item == BW_ITEM_FLAG)
		snprintf(line, sizeof(line), "flag=%s", a);
	else if (item == BW_ITEM_MOUNT)
		snprintf(line, sizeof(line), "%s=%s", a + 2, eb);
	else if (item == BW_ITEM_PROTECT)
		snprintf(line, sizeof(line), "ro-bind=%s protected", eb);
	else if (item == BW_ITEM_SYMLINK)
		snprintf(line, sizeof(line), "symlink=%s to=%s", eb, ea);
	else if (item == BW_ITEM_SKIP)
		snprintf(line, sizeof(line), "# %s: %s", eb, a);
	else
		snprintf(line, sizeof(line), "# %s: REFUSED: %s", eb, a);
	bw_text(h, line);
}

static int
bw_render(const struct ns_host *host, const struct ns_policy *pol)
{
	struct bw_render rc = { host };
	struct bw_emit e = { bw_render_item, &rc };
	char esc[PATH_MAX * 4 + 1], line[sizeof(esc) + 32];
	int st;

	bw_text(host, "# nova-sandbox policy for the bwrap wall: bwrap runs "
	    "with these arguments in this order, then -- <command> <args>");
	bw_text(host, "backend=bwrap");
	bw_escape(esc, sizeof(esc), bw_path(host));
	snprintf(line, sizeof(line), "bwrap=%s", esc);
	bw_text(host, line);
	bw_text(host, (pol->flags & NS_POLICY_NET_DENY) ? "net=denied" :
	    "net=nopromise");
	st = bw_plan(pol, &e);
	bw_escape(esc, sizeof(esc), pol->cwd != NULL ? pol->cwd : "/");
	snprintf(line, sizeof(line), "chdir=%s", esc);
	bw_text(host, line);
	bw_escape(esc, sizeof(esc), pol->gpu != NULL ? pol->gpu : "none");
	snprintf(line, sizeof(line), "gpu=%s", esc);
	bw_text(host, line);
	if (st != NS_OK)
		bw_refuse(host, "sandbox_failed", "out of memory while "
		    "rendering the bwrap policy");
	return st;
}

/* ------------------------------------------------------------------ */
/* prepare(): the argument list, owned by the state.                    */
/* ------------------------------------------------------------------ */

struct bw_args {
	char **v;
	size_t n, cap;
	int oom;
};

struct bw_state {
	int fd;           /* O_PATH of the checked bwrap binary */
	char *path;       /* its name, for messages and argv[0] */
	struct bw_args pre; /* everything before --chdir */
};

struct bw_prep {
	const struct ns_host *host;
	struct bw_args *args;
	int refused;
};

static void
bw_push(struct bw_args *a, const char *s)
{
	char **nv;

	if (a->oom)
		return;
	if (a->n + 1 >= a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;

		nv = realloc(a->v, cap * sizeof(*nv));
		if (nv == NULL) {
			a->oom = 1;
			return;
		}
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (a->v[a->n] == NULL)
		a->oom = 1;
	else
		a->v[++a->n] = NULL;
}

static void
bw_args_free(struct bw_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static void
bw_prep_item(void *ctx, enum bw_item item, const char *a, const char *b)
{
	struct bw_prep *p = ctx;
	char text[PATH_MAX + 256];

	switch (item) {
	case BW_ITEM_FLAG:
		bw_push(p->args, a);
		break;
	case BW_ITEM_MOUNT:
	case BW_ITEM_PROTECT:
		bw_push(p->args, a);
		if (strcmp(a, "--proc") != 0 && strcmp(a, "--dev") != 0)
			bw_push(p->args, b);
		bw_push(p->args, b);
		break;
	case BW_ITEM_SYMLINK:
		bw_push(p->args, "--symlink");
		bw_push(p->args, a);
		bw_push(p->args, b);
		break;
	case BW_ITEM_SKIP:
		break;
	case BW_ITEM_REFUSE:
		snprintf(text, sizeof(text), "--read-noexec %s cannot be kept "
		    "by the bwrap wall (%s); pass --read %s instead, or select "
		    "the landlock wall in the config", b, a, b);
		bw_refuse(p->host, "sandbox_failed", text);
		p->refused = 1;
		break;
	}
}

static void
bw_state_free(struct bw_state *s)
{
	if (s == NULL)
		return;
	bw_args_free(&s->pre);
	free(s->path);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* A state holding the checked bwrap descriptor, or NULL after refusing. */
static struct bw_state *
bw_state_new(const struct ns_host *host)
{
	char why[PATH_MAX + 256];
	struct bw_state *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		bw_refuse(host, "sandbox_failed", "out of memory");
		return NULL;
	}
	s->fd = bw_open_helper(bw_path(host), why, sizeof(why));
	if (s->fd < 0) {
		free(s);
		bw_refuse(host, "sandbox_failed", why);
		return NULL;
	}
	s->path = strdup(bw_path(host));
	bw_push(&s->pre, bw_path(host));
	if (s->path == NULL || s->pre.oom) {
		bw_state_free(s);
		bw_refuse(host, "sandbox_failed", "out of memory");
		return NULL;
	}
	return s;
}

/* bwrap binds by NAME: each protected name must still be the object the
 * host resolved it to (protect_fds[i], valid through every spawn()).  Checked
 * in prepare() and again right before bwrap's argv is built; the window
 * between this check and bwrap's own mount stays (README "Names"). */
static int
bw_protect_same(const struct ns_host *host, const struct ns_policy *pol)
{
	char text[PATH_MAX + 256];
	struct stat want, got;
	int fd, same;

	if (!NS_POLICY_HAS_PROTECT(pol) || pol->protect_fds == NULL)
		return NS_OK;
	for (size_t i = 0; i < pol->n_protect; i++) {
		if (pol->protect_fds[i] < 0)
			continue;
		fd = open(pol->protect[i], O_PATH | O_CLOEXEC | O_NOFOLLOW);
		same = fd >= 0 && fstat(fd, &got) == 0 &&
		    fstat(pol->protect_fds[i], &want) == 0 &&
		    got.st_dev == want.st_dev && got.st_ino == want.st_ino;
		if (fd >= 0)
			close(fd);
		if (same)
			continue;
		snprintf(text, sizeof(text), "the protected path %s is no "
		    "longer the object it was resolved to (moved, replaced or "
		    "removed since); bwrap binds by name, so nothing runs: "
		    "run again", pol->protect[i]);
		bw_refuse(host, "sandbox_failed", text);
		return NS_E_REFUSED;
	}
	return NS_OK;
}

/* Everything that can refuse before the OK line.  The calling process is
 * not changed. */
static int
bw_prepare(const struct ns_host *host, const struct ns_policy *pol,
	   void **state)
{
	struct bw_state *s;
	struct bw_prep p = { host, NULL, 0 };
	struct bw_emit e = { bw_prep_item, &p };
	int oom;

	*state = NULL;
	if (geteuid() == 0) {
		bw_refuse(host, "sandbox_failed", "running as root (euid 0): "
		    "the wall is for an unprivileged user; run: nova-sandbox "
		    "as an unprivileged user");
		return NS_E_REFUSED;
	}
	if ((s = bw_state_new(host)) == NULL)
		return NS_E_SYSTEM;
	p.args = &s->pre;
	oom = bw_plan(pol, &e) != NS_OK || s->pre.oom;
	if (oom)
		bw_refuse(host, "sandbox_failed", "out of memory while "
		    "building the bwrap arguments");
	if (!oom && !p.refused && bw_protect_same(host, pol) != NS_OK)
		p.refused = 1;
	if (oom || p.refused) {
		bw_state_free(s);
		return oom ? NS_E_SYSTEM : NS_E_REFUSED;
	}
	if (pol->n_net_allow > 0)
		bw_note(host, "--net-allow grants nothing under the bwrap "
		    "wall: the command has its own network namespace or the "
		    "host's, as --net-deny says");
	*state = s;
	return NS_OK;
}

static void
bw_release(const struct ns_host *host, void *state)
{
	(void)host;
	bw_state_free(state);
}

/* ------------------------------------------------------------------ */
/* spawn(): fork, arrange the fds, execute bwrap.                       */
/* ------------------------------------------------------------------ */

/* The full argv: the prepared prefix, --chdir, then the command.  argv[0]
 * of the command is its resolved path: bubblewrap before 0.9 has no
 * --argv0, and a name looked up on PATH inside the wall could differ. */
static int
bw_full_args(const struct bw_state *s, const struct ns_policy *pol,
	     struct bw_args *a)
{
	for (size_t i = 0; i < s->pre.n; i++)
		bw_push(a, s->pre.v[i]);
	bw_push(a, "--chdir");
	bw_push(a, pol->cwd != NULL ? pol->cwd : "/");
	bw_push(a, "--");
	bw_push(a, pol->command);
	for (size_t i = 1; pol->argv[0] != NULL && pol->argv[i] != NULL; i++)
		bw_push(a, pol->argv[i]);
	return a->oom ? -1 : 0;
}

/* In the child: put launch->stdio on 0..2, the extra fds on 3..3+n-1, the
 * bwrap fd and the error pipe just above (close-on-exec), close the rest.
 * Every source is first moved above every target so no dup2 clobbers a
 * source not yet placed.  Returns the new bwrap fd, or -1. */
static int
bw_child_fds(const struct ns_launch *l, int bwfd, int *errfd)
{
	size_t n = l->n_extra_fds;
	int top = (int)(3 + n + 2), src[3 + 64 + 2];

	if (n > 64)
		return -1;
	for (int i = 0; i < 3; i++)
		src[i] = l->stdio[i] < 0 ? -1 :
		    fcntl(l->stdio[i], F_DUPFD_CLOEXEC, top);
	for (size_t i = 0; i < n; i++)
		src[3 + i] = fcntl(l->extra_fds[i], F_DUPFD_CLOEXEC, top);
	src[3 + n] = fcntl(bwfd, F_DUPFD_CLOEXEC, top);
	src[3 + n + 1] = fcntl(*errfd, F_DUPFD_CLOEXEC, top);
	for (int i = 0; i < top; i++) {
		if (i < 3 && l->stdio[i] < 0)
			continue;
		if (src[i] < 0 || dup2(src[i], i) < 0)
			return -1;
	}
	if (fcntl(top - 2, F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(top - 1, F_SETFD, FD_CLOEXEC) != 0)
		return -1;
	if (close_range((unsigned)top, ~0u, 0) != 0)
		return -1;
	*errfd = top - 1;
	return top - 2;
}

static void
bw_child(const struct bw_state *s, const struct ns_policy *pol,
	 const struct ns_launch *l, char **argv, int errfd)
{
	sigset_t none;
	int fd, err;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	fd = bw_child_fds(l, s->fd, &errfd);
	if (fd >= 0)
		fexecve(fd, argv, (char *const *)pol->envp);
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		err = 0;
	_exit(127);
}

/* The parent's side of the exec report: 0 bytes = bwrap is running. */
static int
bw_wait_exec(const struct ns_host *host, const struct bw_state *s,
	     pid_t pid, int rfd)
{
	char text[PATH_MAX + 128];
	int err = 0;
	ssize_t r;

	do
		r = read(rfd, &err, sizeof(err));
	while (r < 0 && errno == EINTR);
	close(rfd);
	if (r == 0)
		return NS_OK;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	snprintf(text, sizeof(text), "cannot execute bwrap '%s': %s",
	    s->path, r == sizeof(err) ? strerror(err) : "unknown error");
	bw_refuse(host, "sandbox_failed", text);
	return NS_E_SYSTEM;
}

static int
bw_spawn(const struct ns_host *host, void *state, const struct ns_policy *pol,
	 const struct ns_launch *launch, struct ns_proc *out)
{
	struct bw_state *s = state;
	struct bw_args a = { 0 };
	int pfd[2], st;
	pid_t pid;

	if (s != NULL && bw_protect_same(host, pol) != NS_OK)
		return NS_E_REFUSED;
	if (s == NULL || bw_full_args(s, pol, &a) != 0 ||
	    launch->n_extra_fds > 64 || pipe2(pfd, O_CLOEXEC) != 0) {
		bw_args_free(&a);
		bw_refuse(host, "sandbox_failed", "cannot start bwrap: out of "
		    "memory, too many descriptors or no pipe");
		return NS_E_SYSTEM;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		bw_child(s, pol, launch, a.v, pfd[1]);
	}
	close(pfd[1]);
	bw_args_free(&a);
	if (pid < 0) {
		close(pfd[0]);
		bw_refuse(host, "sandbox_failed", "cannot fork bwrap");
		return NS_E_SYSTEM;
	}
	st = bw_wait_exec(host, s, pid, pfd[0]);
	if (st == NS_OK) {
		out->pid = pid;
		out->handle = 0;
	}
	return st;
}

/* ------------------------------------------------------------------ */
/* facts(): is bwrap usable here?  Changes nothing, runs nothing.       */
/* ------------------------------------------------------------------ */

static int
bw_facts(const struct ns_host *host, struct ns_wall_facts *out)
{
	char why[sizeof(out->why)];
	int fd;

	if (out->struct_size < sizeof(*out)) {
		bw_refuse(host, "sandbox_failed", "the host's wall facts are "
		    "smaller than ABI 1.0");
		return NS_E_INTERNAL;
	}
	snprintf(out->abi, sizeof(out->abi), "-");
	out->net_enforceable = 1;
	snprintf(out->note, sizeof(out->note), "bubblewrap bind mounts: roots "
	    "and --read read-only, --write read-write, --read-noexec refused; "
	    "--net-deny is a new network namespace (its own loopback only); "
	    "new session, pid and ipc namespaces");
	fd = bw_open_helper(bw_path(host), why, sizeof(why));
	if (fd >= 0) {
		close(fd);
		out->available = bw_userns_ok(why, sizeof(why));
	}
	if (!out->available)
		snprintf(out->why, sizeof(out->why), "%s", why);
	return NS_OK;
}

/* ------------------------------------------------------------------ */
/* The descriptor.                                                      */
/* ------------------------------------------------------------------ */

static const struct ns_wall_ops bw_wall = {
	.struct_size = sizeof(struct ns_wall_ops),
	.shape = NS_SHAPE_HELPER,
	.read_roots = bw_read_roots,
	.write_files = bw_write_files,
	.optional_roots = bw_optional_roots,
	.system_prefixes = bw_system_prefixes,
	.resolver_conf = "/etc/resolv.conf",
	.facts = bw_facts,
	.prepare = bw_prepare,
	.render = bw_render,
	.spawn = bw_spawn,
	.release = bw_release,
	.features = NS_WALL_PROTECT,
};

NS_BACKEND_DEFINE = {
	NS_BACKEND_HEADER,
	.roles = NS_ROLE_WALL,
	.name = "bwrap",
	.version = BW_VERSION,
	.summary = "wall: runs the command inside bubblewrap (bind mounts, "
	    "namespaces)",
	.options = bw_options,
	.wall = &bw_wall,
};
