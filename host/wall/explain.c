/* SPDX-License-Identifier: MIT */
/* explain.c -- finish() and the DENIED lines (explain.h). */
#include "wall/explain.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/out.h"
#include "os/os.h"

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

static char *
dir_remedy(const char *flag, const char *path)
{
	char dir[4096];
	char *f, *r;

	/* a directory the tool would refuse to be given (rule 5: no quote or
	 * backslash in a path) is no remedy either */
	if (explain_nearest_dir(path, dir, sizeof(dir)) != 0 || !safe_dir(dir) ||
	    strpbrk(dir, "\"\\") != NULL)
		return strdup("-");
	f = out_field(dir);
	if (f == NULL)
		return NULL;
	r = str_fmt("%s %s", flag, f);
	free(f);
	return r;
}

/* Creating, deleting or renaming an entry is a right on the directory that
 * holds it, never on the entry itself (rmdir of a directory needs its
 * parent): the remedy names the nearest existing directory above it. */
static char *
parent_remedy(const char *flag, const char *path)
{
	char parent[4096];
	size_t n = strlen(path);

	if (n >= sizeof(parent) || path[0] != '/')
		return strdup("-");
	memcpy(parent, path, n + 1);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	while (n > 1 && parent[n - 1] != '/')
		n--;
	parent[n > 1 ? n - 1 : 1] = '\0';
	return dir_remedy(flag, parent);
}

char *
explain_remedy(uint32_t op, const char *path, int net_deny)
{
	switch (op) {
	case NS_OP_READ:
	case NS_OP_EXEC:
		return dir_remedy("--read", path);
	case NS_OP_WRITE:
		return dir_remedy("--write", path);
	case NS_OP_CREATE:
	case NS_OP_DELETE:
	case NS_OP_RENAME:
		return parent_remedy("--write", path);
	case NS_OP_CONNECT:
	case NS_OP_BIND:
		return strdup(net_deny ? "without --net-deny" : "-");
	default:
		return strdup("-");
	}
}

static int
print_one(FILE *f, const char *prefix, const struct denial_ent *e,
	  int net_deny)
{
	char *p = out_field(e->path);
	char *rem = explain_remedy(e->op, e->path, net_deny);
	int rc = -1;

	if (p != NULL && rem != NULL)
		rc = out_line(f, "%s DENIED path=%s op=%s remedy=\"%s\"", prefix,
			      p, explain_op_word(e->op), rem);
	free(p);
	free(rem);
	return rc;
}

int
explain_print(FILE *f, const char *prefix, const struct denials *d,
	      int net_deny)
{
	size_t shown = d->n < EXPLAIN_MAX_LINES ? d->n : EXPLAIN_MAX_LINES;
	int rc = 0;

	for (size_t i = 0; i < shown; i++)
		if (print_one(f, prefix, &d->v[i], net_deny) != 0)
			rc = -1;
	if (d->n > shown &&
	    out_line(f, "%s NOTE and %zu more denied paths (not listed)",
		     prefix, d->n - shown) != 0)
		rc = -1;
	if (d->oom &&
	    out_line(f, "%s NOTE out of memory: the denied paths above are "
		     "incomplete", prefix) != 0)
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

static void
call_finish(struct wallctx *w, const char *prefix, void *state,
	    const struct wall_end *e, struct denials *d)
{
	struct ns_finish fin;
	int rc;

	memset(&fin, 0, sizeof(fin));
	fin.struct_size = sizeof(fin);
	fin.proc = e->proc;
	fin.start_ns = e->start_ns;
	fin.end_ns = e->end_ns;
	fin.exit = e->exit;
	fin.killed = e->killed;
	w->hs.denials = d;
	rc = w->mod.wall.finish(&w->hs.host, state, &fin);
	w->hs.denials = NULL;
	wall_print_notes(w, prefix);
	for (size_t i = 0; i < w->r.n; i++)
		out_note(prefix, w->r.v[i].text);
	refusals_free(&w->r);
	if (rc != NS_OK) {
		char *t = str_fmt("the wall's finish() failed (status %d); the "
				  "exit code is the command's", rc);

		out_note(prefix, t ? t : "the wall's finish() failed");
		free(t);
	}
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

void
wall_finish(struct wallctx *w, const char *prefix,
	    const struct ns_policy *view, void *state,
	    const struct wall_end *e)
{
	struct denials d = {0};
	struct end_facts f;
	char text[512];

	if (w->mod.wall.finish != NULL)
		call_finish(w, prefix, state, e, &d);
	(void)explain_print(stderr, prefix, &d,
			    (view->flags & NS_POLICY_NET_DENY) != 0);
	denials_free(&d);
	if (e->verb_says_end)
		return;
	memset(&f, 0, sizeof(f));
	f.code = e->code;
	f.killed = e->killed;
	f.explain = (view->flags & NS_POLICY_EXPLAIN) != 0;
	f.names = wall_has_feature(w, NS_WALL_EXPLAIN);
	if (explain_end_note(&f, text, sizeof(text)))
		out_note(prefix, text);
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

int
wall_wait_tick(struct wallctx *w, void *state, const struct ns_proc *proc,
	       int64_t tick_ms, struct ns_exit *out)
{
	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	out->how = NS_END_RUNNING;
	if (w->mod.wall.wait(&w->hs.host, state, proc, tick_ms, out) != NS_OK)
		return -1;
	return out->how != NS_END_RUNNING;
}

int
wall_wait_end(struct wallctx *w, void *state, const struct ns_proc *proc,
	      int64_t tick_ms, struct ns_exit *out)
{
	int rc;

	while ((rc = wall_wait_tick(w, state, proc, tick_ms, out)) == 0)
		;
	return rc < 0 ? -1 : 0;
}

int
wall_end_tree(struct wallctx *w, void *state, const struct ns_proc *proc,
	      uint32_t why)
{
	if (w->mod.wall.terminate == NULL)
		return -1;
	return w->mod.wall.terminate(&w->hs.host, state, proc, why) == NS_OK ?
		       0 : -1;
}
