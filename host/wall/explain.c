/* SPDX-License-Identifier: MIT */
/* explain.c -- finish() and the DENIED lines (explain.h). */
#include "wall/explain.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/out.h"
#include "os/os.h"
#include "policy/policy.h"

static const char *const op_words[] = {
	[NS_OP_READ] = "read",     [NS_OP_WRITE] = "write",
	[NS_OP_EXEC] = "exec",     [NS_OP_CREATE] = "create",
	[NS_OP_DELETE] = "delete", [NS_OP_RENAME] = "rename",
	[NS_OP_CONNECT] = "connect", [NS_OP_BIND] = "bind",
	[NS_OP_OTHER] = "other",
};

const char *
explain_op_word(uint32_t op)
{
	if (op < NS_OP_READ || op > NS_OP_OTHER)
		return "other";
	return op_words[op];
}

static int
is_dir(const char *p)
{
	return os_is_dir(p);
}

int
explain_nearest_dir(const char *path, char *out, size_t outlen)
{
	size_t n;

	if (path == NULL || path[0] != '/')
		return -1;
	n = strlen(path);
	if (n >= outlen)
		return -1;
	memcpy(out, path, n + 1);
	for (;;) {
		while (n > 1 && out[n - 1] == '/') /* "/a/b/" -> "/a/b" */
			out[--n] = '\0';
		if (is_dir(out))
			return 0;
		if (n <= 1)
			return -1; /* "/" is not a directory: nothing to name */
		while (n > 1 && out[n - 1] != '/')
			n--;
		out[n] = '\0';
	}
}

/* A directory no remedy names: "/" (the whole machine; the tool refuses it
 * anyway) and the kernel's own trees (a terminal or a device is no
 * directory to grant: /dev/tty refused is no reason for --write /dev). */
static int
safe_dir(const char *dir)
{
	static const char *const never[] = { "/", "/dev",
		"/proc", "/sys", "/run" }; /* portable: a name, never read */

	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (strcmp(dir, never[i]) == 0)
			return 0;
	return strncmp(dir, "/dev/", 5) != 0 &&
	       strncmp(dir, "/proc/", 6) != 0 && /* portable: a name */
	       strncmp(dir, "/sys/", 5) != 0;
}

/* The directory a remedy of `flag` would grant for path, into dir: 0, or
 * -1 when none can (see safe_dir; rule 5: no quote or backslash in a
 * path the tool would be given). */
static int
remedy_dir(const char *path, char *dir, size_t n)
{
	if (explain_nearest_dir(path, dir, n) != 0 || !safe_dir(dir) ||
	    strpbrk(dir, "\"\\") != NULL)
		return -1;
	return 0;
}

/* Creating, deleting or renaming an entry is a right on the directory that
 * holds it, never on the entry itself (rmdir of a directory needs its
 * parent): the remedy names the nearest existing directory above it. */
static int
parent_dir(const char *path, char *dir, size_t dn)
{
	char parent[4096];
	size_t n = strlen(path);

	if (n >= sizeof(parent) || path[0] != '/')
		return -1;
	memcpy(parent, path, n + 1);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	while (n > 1 && parent[n - 1] != '/')
		n--;
	parent[n > 1 ? n - 1 : 1] = '\0';
	return remedy_dir(parent, dir, dn);
}

/* The flag of op's remedy and its directory into dir: "--read" or
 * "--write"; NULL for a remedy that names no directory. */
static const char *
remedy_parts(uint32_t op, const char *path, char *dir, size_t n)
{
	switch (op) {
	case NS_OP_READ:
	case NS_OP_EXEC:
		return remedy_dir(path, dir, n) == 0 ? "--read" : NULL;
	case NS_OP_WRITE:
		return remedy_dir(path, dir, n) == 0 ? "--write" : NULL;
	case NS_OP_CREATE:
	case NS_OP_DELETE:
	case NS_OP_RENAME:
		return parent_dir(path, dir, n) == 0 ? "--write" : NULL;
	default:
		return NULL;
	}
}

/* A socket family --net-deny refused that is not IP (the tracer names a
 * socket() by its family: AF_NETLINK, AF_PACKET, AF_<n>): dropping
 * --net-deny is no remedy for it anyone would take. */
static int
non_ip_socket(uint32_t op, const char *path)
{
	return (op == NS_OP_CONNECT || op == NS_OP_BIND) &&
	       strncmp(path, "AF_", 3) == 0 && strcmp(path, "AF_INET") != 0 &&
	       strcmp(path, "AF_INET6") != 0;
}

char *
explain_remedy(uint32_t op, const char *path, int net_deny)
{
	char dir[4096];
	const char *flag;
	char *f, *r;

	if (op == NS_OP_CONNECT || op == NS_OP_BIND)
		return strdup(net_deny && !non_ip_socket(op, path) ?
			      "without --net-deny" : "-");
	flag = remedy_parts(op, path, dir, sizeof(dir));
	if (flag == NULL)
		return strdup("-");
	f = out_field(dir);
	if (f == NULL)
		return NULL;
	r = str_fmt("%s %s", flag, f);
	free(f);
	return r;
}

/* a is b, or below it (by name, '/' separated). */
static int
at_or_under(const char *a, const char *b)
{
	size_t n = strlen(b);

	while (n > 1 && b[n - 1] == '/')
		n--;
	if (strncmp(a, b, n) != 0)
		return 0;
	return a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/');
}

/* Where a user keeps secrets, below a home: keys, tokens, keyrings,
 * browser profiles, password stores, cloud and registry credentials. */
static const char *const secret_stores[] = {
	".ssh", ".gnupg", ".pki", ".netrc", ".git-credentials", ".pypirc",
	".npmrc", ".vault-token", ".aws", ".azure", ".kube", ".docker",
	".config/gcloud", ".config/gh", ".config/hub", ".cargo/credentials",
	".cargo/credentials.toml", ".local/share/keyrings",
	".local/share/kwalletd", ".gnome2/keyrings", ".password-store",
	".mozilla", ".thunderbird", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	".config/vivaldi", ".config/opera", "snap/firefox",
	".config/Bitwarden", ".config/1Password", ".config/keepassxc",
	".local/share/keepassxc",
};

/* dir is a secret store of home, inside one, or holds one. */
static int
reaches_secrets(const char *dir, const char *home)
{
	char store[4096];

	for (size_t i = 0;
	     i < sizeof(secret_stores) / sizeof(secret_stores[0]); i++) {
		int k = snprintf(store, sizeof(store), "%s%s%s", home,
				 home[strlen(home) - 1] == '/' ? "" : "/",
				 secret_stores[i]);

		if (k < 0 || (size_t)k >= sizeof(store))
			continue;
		if (at_or_under(dir, store) || at_or_under(store, dir))
			return 1;
	}
	return 0;
}

int
explain_warn(const char *flag, const char *dir, const struct explain_ctx *cx,
	     char *out, size_t n)
{
	int secrets = 0, home = 0, source = 0;
	struct sbuf b = {0};

	if (n == 0)
		return -1;
	out[0] = '\0';
	for (size_t i = 0; cx->homes != NULL && i < cx->homes->n; i++) {
		const char *h = cx->homes->v[i];

		if (h == NULL || h[0] != '/')
			continue;
		secrets |= reaches_secrets(dir, h);
		home |= at_or_under(h, dir); /* the home, or above it */
	}
	for (size_t i = 0; cx->reads != NULL && strcmp(flag, "--write") == 0 &&
			   i < cx->reads->n; i++)
		source |= at_or_under(cx->reads->v[i], dir);
	if (secrets)
		sbuf_addf(&b, "secrets");
	if (home)
		sbuf_addf(&b, "%shome", b.len ? "," : "");
	if (source)
		sbuf_addf(&b, "%sread-source", b.len ? "," : "");
	if (sbuf_failed(&b)) {
		sbuf_free(&b);
		return -1;
	}
	if (b.s != NULL && b.len < n)
		memcpy(out, b.s, b.len + 1);
	sbuf_free(&b);
	return out[0] != '\0';
}

/* A denial no flag of the tool can grant: its remedy is "-" (a kernel
 * tree, a device, /run, "/", an operation no flag names), or a socket
 * family that is not IP. */
static int
no_remedy(const struct denial_ent *e, int net_deny)
{
	char dir[4096];

	if (e->op == NS_OP_CONNECT || e->op == NS_OP_BIND)
		return !net_deny || non_ip_socket(e->op, e->path);
	return remedy_parts(e->op, e->path, dir, sizeof(dir)) == NULL;
}

static int
print_one(FILE *f, const char *prefix, const struct denial_ent *e,
	  const struct explain_ctx *cx)
{
	char *p = out_field(e->path);
	char *rem = explain_remedy(e->op, e->path, cx->net_deny);
	char dir[4096], warn[64];
	const char *flag = remedy_parts(e->op, e->path, dir, sizeof(dir));
	int rc = -1, w = 0;

	if (flag != NULL)
		w = explain_warn(flag, dir, cx, warn, sizeof(warn));
	if (p != NULL && rem != NULL && w >= 0)
		rc = out_kind(f, prefix, OUT_DENIED,
			      "path=%s op=%s remedy=\"%s\"%s%s", p,
			      explain_op_word(e->op), rem, w > 0 ? " warn=" : "",
			      w > 0 ? warn : "");
	free(p);
	free(rem);
	return rc;
}

/* The directory a denial is listed under: the path's own directory (by
 * name), or "" for one that is no path (a socket). */
static size_t
group_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (path[0] != '/' || slash == NULL)
		return 0;
	return slash == path ? 1 : (size_t)(slash - path);
}

static int
same_group(const char *a, const char *b)
{
	size_t n = group_len(a);

	return n == group_len(b) && strncmp(a, b, n) == 0;
}

/* The first few of the denials no flag grants, for the NOTE's "e.g.". */
static void
add_example(struct sbuf *b, const struct denial_ent *e, size_t *k)
{
	if (*k >= 3)
		return;
	sbuf_addf(b, "%s%s %s", *k ? ", " : "", e->path,
		  explain_op_word(e->op));
	(*k)++;
}

int
explain_print(FILE *f, const char *prefix, const struct denials *d,
	      const struct explain_ctx *cx)
{
	unsigned char *done = calloc(d->n ? d->n : 1, 1);
	struct sbuf eg = {0};
	size_t none = 0, k = 0;
	int rc = 0;

	if (done == NULL)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		if (done[i])
			continue;
		/* every denial of i's directory, first seen first, together */
		for (size_t j = i; j < d->n; j++) {
			if (done[j] || !same_group(d->v[i].path, d->v[j].path))
				continue;
			done[j] = 1;
			if (no_remedy(&d->v[j], cx->net_deny)) {
				none++;
				add_example(&eg, &d->v[j], &k);
			} else if (print_one(f, prefix, &d->v[j], cx) != 0) {
				rc = -1;
			}
		}
	}
	free(done);
	if (none > 0) {
		char *t = str_fmt("%zu denied %s no flag can grant, not listed "
				  "(a kernel file, a device, a socket that is "
				  "not IP): %s%s", none,
				  none == 1 ? "path" : "paths",
				  eg.s ? eg.s : "", none > k ? ", ..." : "");

		if (t == NULL || out_note_to(f, prefix, t) != 0)
			rc = -1;
		free(t);
	}
	sbuf_free(&eg);
	if (d->oom &&
	    out_note_to(f, prefix, "out of memory: the denied paths above "
			"are incomplete") != 0)
		rc = -1;
	return rc;
}

void
explain_exit_of_status(int st, struct ns_exit *out)
{
	int code, how = os_wait_status(st, &code);

	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	out->how = how == 0 ? NS_END_SIGNAL : NS_END_CODE;
	out->code = how >= 0 ? code : 125;
}

int
explain_exit_code(const struct ns_exit *ex)
{
	return ex->how == NS_END_CODE ? ex->code & 0xff :
	       ex->how == NS_END_SIGNAL ? 128 + ex->code : NS_EXIT_REFUSED;
}

int64_t
explain_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
wall_has_feature(const struct wallctx *w, uint32_t bit)
{
	return (w->mod.wall.features & bit) != 0; /* zeroed beyond its size */
}

/* A signal a program raises on itself when it crashes or gives up: one
 * that fails an unexpected call (a refused one) may end so. */
static int
fault_signal(int sig)
{
	static const int faults[] = { SIGILL, SIGABRT, SIGFPE, SIGSEGV,
#ifdef SIGTRAP
		SIGTRAP,
#endif
#ifdef SIGBUS
		SIGBUS,
#endif
#ifdef SIGSYS
		SIGSYS,
#endif
	};

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (faults[i] == sig)
			return 1;
	return 0;
}

int
explain_denial_kind(int code)
{
	if (code <= 0)
		return 0;
	if (code <= 128 || code > 128 + 64)
		return 1; /* the program's own code */
	return fault_signal(code - 128);
}

int
explain_end_note(const struct end_facts *f, char *buf, size_t n)
{
	int k;

	if (f->code == 0 || n == 0)
		return 0;
	switch (f->killed) {
	case NS_TERM_TIMEOUT:
		k = snprintf(buf, n, "the command was ended: it timed out "
			     "after %s (--timeout)", f->timeout ? f->timeout :
			     "its --timeout");
		return k > 0;
	case NS_TERM_SIGNAL:
		k = snprintf(buf, n, "the command was ended: the tool was asked "
			     "to stop and passed the signal on");
		return k > 0;
	case NS_TERM_CAP:
		k = snprintf(buf, n, "the command was ended: it passed a cap of "
			     "processes or memory");
		return k > 0;
	default:
		break;
	}
	if (f->full != NULL)
		k = snprintf(buf, n, "the command exited %d: the place is full "
			     "(--size %s)", f->code, f->full);
	else if (!explain_denial_kind(f->code))
		k = snprintf(buf, n, "the command exited %d: ended by signal %d, "
			     "which a refused call does not cause", f->code,
			     f->code - 128);
	else if (f->explain)
		return 0; /* the DENIED lines said it */
	else if (f->names)
		k = snprintf(buf, n, "the command exited %d: if the wall denied "
			     "it a path, rerun with --explain to name it",
			     f->code);
	else if (f->wall != NULL)
		k = snprintf(buf, n, "the command exited %d; the %s wall does "
			     "not report its denials: a path it needs may be "
			     "missing a --read", f->code, f->wall);
	else
		return 0;
	return k > 0;
}

/* The caller's homes as given and as the kernel names them (a denial's
 * path is the kernel's), and the --read roots, for the remedies' warn=. */
static int
weigh_against(const struct ns_policy *view, struct strv *homes,
	      struct strv *reads)
{
	size_t n;

	if (caller_homes(homes) < 0)
		return -1;
	n = homes->n;
	for (size_t i = 0; i < n; i++) {
		char *r = os_real_dir(homes->v[i]);

		if (r != NULL && !strv_contains(homes, r))
			(void)strv_push(homes, r);
		free(r);
	}
	for (size_t i = 0; i < view->n_rules; i++)
		if (view->rules[i].origin == NS_ORIGIN_READ ||
		    view->rules[i].origin == NS_ORIGIN_READ_NOEXEC)
			(void)strv_push(reads, view->rules[i].path);
	return strv_failed(homes) || strv_failed(reads) ? -1 : 0;
}

void
explain_denials(const char *prefix, const struct ns_policy *view,
	      const struct denials *d)
{
	struct strv homes = {0}, reads = {0};
	struct explain_ctx cx = { &homes, &reads,
				  (view->flags & NS_POLICY_NET_DENY) != 0 };

	if (d->n > 0 && weigh_against(view, &homes, &reads) != 0)
		out_note(prefix, "out of memory: the remedies below are not "
			 "weighed (warn=)");
	(void)explain_print(stderr, prefix, d, &cx);
	strv_free(&homes);
	strv_free(&reads);
}

void
wall_view_extras(struct ns_policy *view, int explain,
		 unsigned long long procs, unsigned long long mem,
		 long long timeout_ms)
{
	if (explain)
		view->flags |= NS_POLICY_EXPLAIN;
	view->max_procs = procs;
	view->max_mem_bytes = mem;
	view->timeout_ms = timeout_ms;
}

void
wall_view_job(const struct wallctx *w, struct ns_policy *view,
	      uint32_t cpu_percent, uint32_t acl)
{
	if (wall_has_feature(w, NS_WALL_CAPS_CPU))
		view->cpu_percent = cpu_percent;
	if (wall_has_feature(w, NS_WALL_ACL_CALLER))
		view->acl = acl;
}

int
wall_explain_refused(const struct wallctx *w, int explain, struct refusals *r)
{
	if (!explain || wall_has_feature(w, NS_WALL_EXPLAIN))
		return 0;
	return remedy_refuse(r, REASON_EXPLAIN_UNAVAILABLE, REMEDY_IN_TEXT,
			     w->hs.line, &(struct cmdfix){ "--explain", NULL,
							   NULL, NULL,
							   FIX_SWITCH },
			     "--explain: the wall %s cannot name the paths it "
			     "denies; run without --explain", w->mod.ops.name)
		       < 0 ? -1 : 1;
}

