/* SPDX-License-Identifier: MIT */
/* ll_trace.c -- --explain: name the paths the wall refused the command.
 *
 * Only with NS_POLICY_EXPLAIN (ll_spawn.c forks instead of the vfork clone
 * then).  The supervisor -- walled itself; Landlock lets a domain trace a
 * process of a nested domain -- PTRACE_SEIZEs the command before its
 * filters are installed, with EXITKILL and the fork/vfork/clone/exec
 * options, so the command's whole tree is traced from its first
 * instruction.  After the existing seccomp filter the child installs a
 * second one (ll_trace_filter_build) that returns SECCOMP_RET_TRACE for
 * the path-taking calls below and ALLOW for the rest; the first filter's
 * ERRNO and KILL still win (seccomp takes the most severe action).
 *
 * At a seccomp stop the tracer reads the call's arguments
 * (PTRACE_GET_SYSCALL_INFO) and its path strings (process_vm_readv,
 * bounded, NUL required), resumes it to its exit stop and reads the
 * result; a call that failed with EACCES or EPERM is recorded with its
 * path made absolute (a relative one against /proc/<pid>/cwd, or
 * /proc/<pid>/fd/<dirfd>) and canonical (the existing part resolved
 * through an O_PATH descriptor: not a Landlock right).  Nothing else is
 * recorded: ENOENT and the rest are never the wall's.
 *
 * finish() (ll_trace_report) drops every record DAC refuses too:
 * faccessat as this same uid without capabilities -- the tracer's uid,
 * which is the command's; access checks are not Landlock rights, so the answer is the
 * one outside the wall -- for the op's mode, the parent directory's
 * write+search for a create, delete or rename.  A record whose check
 * cannot be made is dropped too: no false line.
 *
 * What the tracer cannot promise (docs/SPEC-SANDBOX.md, the gaps): a
 * thread that rewrites the path between the tracer's read and the
 * kernel's own copy makes --explain name another path; a denial the first
 * filter makes (an IP socket under --net-deny) is refused before any
 * address exists and is not named; a non-dumpable command (an
 * execute-only binary) cannot be read and its denials are counted, not
 * named; a debugger inside the wall cannot attach to a traced process. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#if defined(__x86_64__)
#include <sys/user.h>
#endif
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "banned.h"
#include "ll_filter.h"
#include "ll_tpath.h"
#include "ll_trace.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SIGSYS */
#endif

#if defined(__x86_64__)
#define TR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_execveat
#define SYS_execveat 322
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/* How a call's arguments are read. */
enum kind {
	K_OPEN,    /* path + open flags (an argument) */
	K_OPENAT2, /* path + struct open_how (flags: its first 8 bytes) */
	K_CREAT,   /* path; flags O_CREAT|O_WRONLY|O_TRUNC */
	K_PATH,    /* path; the op is fixed */
	K_RENAME,  /* two paths */
	K_EXECAT,  /* path, may be "" with AT_EMPTY_PATH (flags argument) */
	K_CONFINE, /* landlock_restrict_self: the caller confines itself */
	K_CONNECT  /* an IP address and port (--net-allow only) */
};

struct call_desc {
	int nr;
	unsigned char kind;
	signed char dfd, path, dfd2, path2, flags; /* argument index, -1 */
	unsigned char op;                         /* K_PATH, K_RENAME */
	const char *name;
};

static const struct call_desc calls[] = {
	{ SYS_openat, K_OPEN, 0, 1, -1, -1, 2, 0, "openat" },
#ifdef SYS_open
	{ SYS_open, K_OPEN, -1, 0, -1, -1, 1, 0, "open" },
#endif
	{ SYS_openat2, K_OPENAT2, 0, 1, -1, -1, 2, 0, "openat2" },
#ifdef SYS_creat
	{ SYS_creat, K_CREAT, -1, 0, -1, -1, -1, 0, "creat" },
#endif
	{ SYS_execve, K_PATH, -1, 0, -1, -1, -1, NS_OP_EXEC, "execve" },
	{ SYS_execveat, K_EXECAT, 0, 1, -1, -1, 4, NS_OP_EXEC, "execveat" },
	{ SYS_mkdirat, K_PATH, 0, 1, -1, -1, -1, NS_OP_CREATE, "mkdirat" },
	{ SYS_mknodat, K_PATH, 0, 1, -1, -1, -1, NS_OP_CREATE, "mknodat" },
	{ SYS_unlinkat, K_PATH, 0, 1, -1, -1, -1, NS_OP_DELETE, "unlinkat" },
	{ SYS_linkat, K_PATH, 2, 3, -1, -1, -1, NS_OP_CREATE, "linkat" },
	{ SYS_symlinkat, K_PATH, 1, 2, -1, -1, -1, NS_OP_CREATE, "symlinkat" },
	{ SYS_renameat2, K_RENAME, 0, 1, 2, 3, -1, NS_OP_RENAME, "renameat2" },
#ifdef SYS_renameat
	{ SYS_renameat, K_RENAME, 0, 1, 2, 3, -1, NS_OP_RENAME, "renameat" },
#endif
	{ SYS_truncate, K_PATH, -1, 0, -1, -1, -1, NS_OP_WRITE, "truncate" },
	/* --net-allow: a TCP connect to a port no listener has, refused by
	 * Landlock (EACCES), is one that bypassed the proxy */
	{ SYS_connect, K_CONNECT, -1, -1, -1, -1, -1, NS_OP_CONNECT,
	  "connect" },
	/* a process that adds its own Landlock layer: its refusals may be
	 * that layer's, not the wall's (no call says which) */
	{ SYS_landlock_restrict_self, K_CONFINE, -1, -1, -1, -1, -1, 0,
	  "landlock_restrict_self" },
#ifdef SYS_mkdir
	{ SYS_mkdir, K_PATH, -1, 0, -1, -1, -1, NS_OP_CREATE, "mkdir" },
	{ SYS_mknod, K_PATH, -1, 0, -1, -1, -1, NS_OP_CREATE, "mknod" },
	{ SYS_unlink, K_PATH, -1, 0, -1, -1, -1, NS_OP_DELETE, "unlink" },
	{ SYS_rmdir, K_PATH, -1, 0, -1, -1, -1, NS_OP_DELETE, "rmdir" },
	{ SYS_link, K_PATH, -1, 1, -1, -1, -1, NS_OP_CREATE, "link" },
	{ SYS_symlink, K_PATH, -1, 1, -1, -1, -1, NS_OP_CREATE, "symlink" },
	{ SYS_rename, K_RENAME, -1, 0, -1, 1, -1, NS_OP_RENAME, "rename" },
#endif
};

#define N_CALLS (sizeof(calls) / sizeof(calls[0]))
#define TR_MAX_DENIALS 4096 /* distinct (op, path) kept; more: counted */

/* A call between its seccomp stop and its exit stop. */
struct pending {
	const struct call_desc *d;
	uint64_t flags;
	int dfd, dfd2;
	char path[TR_PATH_MAX];
	char path2[TR_PATH_MAX];
};

struct tracee {
	pid_t pid;
	int busy;     /* p holds a call */
	int confined; /* it (or the one that forked it) called
			 landlock_restrict_self: its refusals are not named */
	struct pending p;
};

struct denial {
	uint32_t op;
	char *path;  /* canonical, what the line names */
	char *check; /* what faccessat asks, with mode */
	int mode;
	uint64_t count;
	const char *call;
};

struct ll_trace {
	struct tracee *t;
	size_t nt, capt;
	struct denial *d;
	size_t nd, capd;
	uint64_t unnamed; /* denied calls whose path could not be read or
			     resolved (a non-dumpable process, ...) */
	uint64_t dropped; /* denied calls past TR_MAX_DENIALS distinct paths */
	uint64_t own_layer; /* refused calls of processes with their own
			       Landlock layer (not named: maybe theirs) */
	int trap_net;     /* --net-deny: the filter traps IP sockets */
	int connect;      /* --net-allow at abi 4+: Landlock handles TCP
			     connect; a refused one is named */
	const struct ns_rule *rules;
	size_t n_rules;
};

/* ---- the filter --------------------------------------------------------- */

int
ll_trace_filter_build(struct sock_filter *prog, int connect)
{
#ifndef TR_AUDIT_ARCH
	(void)prog;
	(void)connect;
	return -1;
#else
	unsigned int n = 0, i, at = 0;
	int nr[N_CALLS];

	for (i = 0; i < N_CALLS; i++)
		if (calls[i].kind != K_CONNECT || connect)
			nr[n++] = calls[i].nr;
	if (4 + n + 1 > LL_TRACE_FILTER_MAX)
		return -1;
	/* another architecture: the first filter kills it; ALLOW here */
	prog[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, arch));
	prog[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		TR_AUDIT_ARCH, 0, (unsigned char)(n + 1));
	prog[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr));
	for (i = 0; i < n; i++, at++)
		prog[at] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
			BPF_K, (unsigned int)nr[i], (unsigned char)(n - i), 0);
	prog[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
	prog[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_TRACE);
	return (int)at;
#endif
}

/* ---- the tracer's state -------------------------------------------------- */

struct ll_trace *
ll_trace_new(const struct ns_rule *rules, size_t n_rules, int trap_net,
	     int connect)
{
	struct ll_trace *t = calloc(1, sizeof(*t));

	if (t != NULL) {
		t->rules = rules;
		t->n_rules = n_rules;
		t->trap_net = trap_net;
		t->connect = connect;
	}
	return t;
}

void
ll_trace_free(struct ll_trace *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nd; i++) {
		free(t->d[i].path);
		free(t->d[i].check);
	}
	free(t->d);
	free(t->t);
	free(t);
}

int
ll_trace_seize(pid_t pid)
{
	long opts = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK |
		    PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
		    PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL |
		    PTRACE_O_TRACESYSGOOD;

	return ptrace(PTRACE_SEIZE, pid, 0L, opts) == 0 ? 0 : -1;
}

static int
confined_pid(const struct ll_trace *t, long pid)
{
	for (size_t i = 0; i < t->nt; i++)
		if (t->t[i].pid == (pid_t)pid)
			return t->t[i].confined;
	return 0;
}

/* A tracee seen for the first time: confined when the process that made
 * it (its parent, or its thread group) is -- its fork event may come
 * after its own first stop. */
static int
born_confined(const struct ll_trace *t, pid_t pid)
{
	char path[64], line[128];
	FILE *f;
	int c = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	while (!c && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Tgid:", 5) == 0 ||
		    strncmp(line, "PPid:", 5) == 0)
			c = confined_pid(t, strtol(line + 5, NULL, 10));
	fclose(f);
	return c;
}

static struct tracee *
tracee_of(struct ll_trace *t, pid_t pid, int add)
{
	size_t i;

	for (i = 0; i < t->nt; i++)
		if (t->t[i].pid == pid)
			return &t->t[i];
	if (!add)
		return NULL;
	if (t->nt == t->capt) {
		size_t cap = t->capt ? t->capt * 2 : 8;
		struct tracee *m = realloc(t->t, cap * sizeof(*m));

		if (m == NULL)
			return NULL;
		t->t = m;
		t->capt = cap;
	}
	memset(&t->t[t->nt], 0, sizeof(t->t[0]));
	t->t[t->nt].pid = pid;
	t->t[t->nt].confined = born_confined(t, pid);
	return &t->t[t->nt++];
}

void
ll_trace_gone(struct ll_trace *t, pid_t pid)
{
	size_t i;

	for (i = 0; i < t->nt; i++)
		if (t->t[i].pid == pid) {
			t->t[i] = t->t[--t->nt];
			return;
		}
}

/* ---- reading the tracee --------------------------------------------------- */

/* A NUL-terminated string at addr, read page by page (a string may end
 * just before an unmapped page); never more than n bytes.  0, or -1 when
 * unreadable or longer than n - 1. */
static int
read_str(pid_t pid, uint64_t addr, char *out, size_t n)
{
	size_t got = 0;

	if (addr == 0)
		return -1;
	while (got < n) {
		size_t page = 4096 - (size_t)((addr + got) & 4095);
		size_t want = page < n - got ? page : n - got;
		struct iovec l = { out + got, want };
		struct iovec r = { (void *)(uintptr_t)(addr + got), want };
		ssize_t k = process_vm_readv(pid, &l, 1, &r, 1, 0);

		if (k <= 0)
			return -1;
		if (memchr(out + got, '\0', (size_t)k) != NULL)
			return 0;
		got += (size_t)k;
	}
	return -1;
}

static int
read_u64(pid_t pid, uint64_t addr, uint64_t *v)
{
	struct iovec l = { v, sizeof(*v) };
	struct iovec r = { (void *)(uintptr_t)addr, sizeof(*v) };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)sizeof(*v) ?
		       0 : -1;
}

/* ---- recording ------------------------------------------------------------- */

/* Would DAC let this user do it (so the refusal was the wall's)?  Asked
 * without capabilities: faccessat without AT_EACCESS uses the real ids and,
 * for a uid other than 0, no capability (the command holds none, whatever
 * the supervisor kept).  Deleting or renaming an entry also needs the
 * entry's owner in a sticky directory, and an entry that is neither
 * immutable nor append-only. */
static int
dac_allows(uint32_t op, const char *path, const char *check, int mode)
{
	struct stat dir, ent;
	struct statx sx;

	if (mode < 0)
		return 1;
	if (faccessat(AT_FDCWD, check, mode, 0) != 0)
		return 0;
	if (op != NS_OP_DELETE && op != NS_OP_RENAME)
		return 1;
	if (lstat(path, &ent) != 0)
		return 1; /* a rename's absent target */
	if (stat(check, &dir) == 0 && (dir.st_mode & S_ISVTX) &&
	    dir.st_uid != getuid() && ent.st_uid != getuid())
		return 0;
	memset(&sx, 0, sizeof(sx));
	return !(statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, 0, &sx) == 0 &&
		 (sx.stx_attributes &
		  (STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND)));
}

static void
add_denial(struct ll_trace *t, uint32_t op, const char *path,
	   const char *check, int mode, const char *call)
{
	struct denial *d;
	size_t i;

	for (i = 0; i < t->nd; i++)
		if (t->d[i].op == op && strcmp(t->d[i].path, path) == 0) {
			t->d[i].count++;
			return;
		}
	if (t->nd == TR_MAX_DENIALS) {
		/* counted only when it is the wall's: DAC asked now, as
		 * ll_trace_report() asks the kept ones */
		if (dac_allows(op, path, check, mode))
			t->dropped++;
		return;
	}
	if (t->nd == t->capd) {
		size_t cap = t->capd ? t->capd * 2 : 16;

		d = realloc(t->d, cap * sizeof(*d));
		if (d == NULL) {
			t->unnamed++;
			return;
		}
		t->d = d;
		t->capd = cap;
	}
	d = &t->d[t->nd];
	d->path = strdup(path);
	d->check = strdup(check);
	if (d->path == NULL || d->check == NULL) {
		free(d->path);
		free(d->check);
		t->unnamed++;
		return;
	}
	d->op = op;
	d->mode = mode;
	d->count = 1;
	d->call = call;
	t->nd++;
}

/* A create, delete or rename of path: the parent's write+search. */
static int
record_entry(struct ll_trace *t, uint32_t op, const char *abs,
	     const char *call)
{
	char out[TR_PATH_MAX], parent[TR_PATH_MAX];

	if (tp_entry_names(abs, out, sizeof(out), parent, sizeof(parent)) != 0)
		return -1;
	add_denial(t, op, out, parent, W_OK | X_OK, call);
	return 0;
}

/* A read, write or exec of an existing file: the file's own mode. */
static int
record_file(struct ll_trace *t, uint32_t op, const char *abs, int mode,
	    const char *call)
{
	char out[TR_PATH_MAX];

	/* a parent DAC refuses cannot be opened: the name as given, which
	 * faccessat then refuses just the same */
	if (tp_canon_whole(abs, out, sizeof(out)) != 0 &&
	    ll_trace_join("/", abs, out, sizeof(out)) != 0)
		return -1;
	add_denial(t, op, out, out, mode, call);
	return 0;
}

static int
record_open(struct ll_trace *t, const struct pending *p, const char *abs)
{
	int exists = access(abs, F_OK) == 0 ||
		     (errno != ENOENT && errno != ENOTDIR);
	uint32_t op = ll_trace_open_op(p->flags, exists);

	if (op == 0)
		return 0;
	if (op == NS_OP_CREATE)
		return record_entry(t, op, abs, p->d->name);
	return record_file(t, op, abs, tp_open_mode(p->flags), p->d->name);
}

/* Is path beneath a rule that grants writing?  (Which side of a rename
 * the wall refused: the one outside every --write.) */
static int
writable(const struct ll_trace *t, const char *path)
{
	size_t i, n;

	for (i = 0; i < t->n_rules; i++) {
		const struct ns_rule *r = &t->rules[i];

		if (r->access != NS_ACCESS_WRITE || r->path == NULL)
			continue;
		n = strlen(r->path);
		if (strncmp(path, r->path, n) == 0 &&
		    (path[n] == '/' || path[n] == '\0' ||
		     (n == 1 && r->path[0] == '/')))
			return 1;
	}
	return 0;
}

static int
record_rename(struct ll_trace *t, pid_t pid, const struct pending *p)
{
	char a[TR_PATH_MAX], b[TR_PATH_MAX], ca[TR_PATH_MAX], cb[TR_PATH_MAX];
	char pa[TR_PATH_MAX], pb[TR_PATH_MAX];
	int wa, wb;

	if (tp_absolute(pid, p->dfd, p->path, a, sizeof(a)) != 0 ||
	    tp_absolute(pid, p->dfd2, p->path2, b, sizeof(b)) != 0 ||
	    tp_entry_names(a, ca, sizeof(ca), pa, sizeof(pa)) != 0 ||
	    tp_entry_names(b, cb, sizeof(cb), pb, sizeof(pb)) != 0)
		return -1;
	wa = writable(t, ca);
	wb = writable(t, cb);
	if (!wa)
		add_denial(t, NS_OP_RENAME, ca, pa, W_OK | X_OK, p->d->name);
	if (!wb || wa)
		add_denial(t, NS_OP_RENAME, cb, pb, W_OK | X_OK, p->d->name);
	return 0;
}

static void
record(struct ll_trace *t, pid_t pid, const struct pending *p)
{
	char abs[TR_PATH_MAX];
	int rc;

	if (p->d->kind == K_CONNECT) {
		add_denial(t, NS_OP_CONNECT, p->path, "", -1, p->d->name);
		rc = 0;
	} else if (p->d->kind == K_RENAME) {
		rc = record_rename(t, pid, p);
	} else if (tp_absolute(pid, p->dfd, p->path, abs, sizeof(abs)) != 0) {
		rc = -1;
	} else if (p->d->kind == K_PATH || p->d->kind == K_EXECAT) {
		if (p->d->op == NS_OP_EXEC)
			rc = record_file(t, NS_OP_EXEC, abs, X_OK, p->d->name);
		else if (p->d->op == NS_OP_WRITE)
			rc = record_file(t, NS_OP_WRITE, abs, W_OK, p->d->name);
		else
			rc = record_entry(t, p->d->op, abs, p->d->name);
	} else {
		rc = record_open(t, p, abs);
	}
	if (rc != 0)
		t->unnamed++;
}

/* ---- the stops --------------------------------------------------------------- */

static const struct call_desc *
desc_of(uint64_t nr)
{
	size_t i;

	for (i = 0; i < N_CALLS; i++)
		if ((uint64_t)calls[i].nr == nr)
			return &calls[i];
	return NULL;
}

/* connect(fd, addr, len): "<ipv4>:<port>" or "[<ipv6>]:<port>" in
 * p->path; -1 for another family (not a Landlock net right), -2 when
 * unreadable. */
static int
decode_connect(pid_t pid, const uint64_t *args, struct pending *p)
{
	struct sockaddr_in6 a;
	size_t n = args[2] < sizeof(a) ? (size_t)args[2] : sizeof(a);
	struct iovec l = { &a, n };
	struct iovec r = { (void *)(uintptr_t)args[1], n };
	const struct sockaddr_in *a4 = (const struct sockaddr_in *)(void *)&a;
	char ip[INET6_ADDRSTRLEN];

	memset(&a, 0, sizeof(a));
	if (n < sizeof(struct sockaddr_in) || args[1] == 0)
		return -1;
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)n)
		return -2;
	if (a.sin6_family == AF_INET &&
	    inet_ntop(AF_INET, &a4->sin_addr, ip, sizeof(ip)) != NULL)
		snprintf(p->path, sizeof(p->path), "%s:%u", ip,
			 (unsigned)ntohs(a4->sin_port));
	else if (a.sin6_family == AF_INET6 && n == sizeof(a) &&
		 inet_ntop(AF_INET6, &a.sin6_addr, ip, sizeof(ip)) != NULL)
		snprintf(p->path, sizeof(p->path), "[%s]:%u", ip,
			 (unsigned)ntohs(a.sin6_port));
	else
		return -1;
	return 0;
}

/* Fill p from the call's arguments; 0 when it is worth its exit stop, -2
 * when its memory cannot be read (a non-dumpable process: the call is
 * still followed, to count it when refused), -1 when it is not a call
 * the wall can refuse. */
static int
decode(pid_t pid, const struct call_desc *d, const uint64_t *args,
       struct pending *p)
{
	p->d = d;
	if (d->kind == K_CONNECT)
		return decode_connect(pid, args, p);
	p->dfd = d->dfd >= 0 ? (int)(int32_t)args[d->dfd] : AT_FDCWD;
	p->dfd2 = d->dfd2 >= 0 ? (int)(int32_t)args[d->dfd2] : AT_FDCWD;
	p->flags = d->flags >= 0 ? args[d->flags] : 0;
	if (d->kind == K_CREAT)
		p->flags = O_CREAT | O_WRONLY | O_TRUNC;
	if (d->kind == K_OPENAT2 && args[3] < sizeof(uint64_t))
		return -1;
	if (d->kind == K_OPENAT2 && read_u64(pid, args[2], &p->flags))
		return -2;
	if ((d->kind == K_OPEN || d->kind == K_OPENAT2) && (p->flags & O_PATH))
		return -1;
	if (read_str(pid, args[d->path], p->path, sizeof(p->path)) != 0)
		return args[d->path] != 0 ? -2 : -1;
	if (d->kind == K_EXECAT && p->path[0] == '\0' &&
	    !(p->flags & AT_EMPTY_PATH))
		return -1;
	if (d->path2 >= 0 &&
	    read_str(pid, args[d->path2], p->path2, sizeof(p->path2)) != 0)
		return args[d->path2] != 0 ? -2 : -1;
	return 0;
}

static void
on_seccomp(struct ll_trace *t, pid_t pid)
{
	struct __ptrace_syscall_info si;
	struct tracee *tr = tracee_of(t, pid, 1);
	const struct call_desc *d;
	long rq = PTRACE_CONT;

	memset(&si, 0, sizeof(si));
	if (tr != NULL &&
	    ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) > 0 &&
	    si.op == PTRACE_SYSCALL_INFO_SECCOMP &&
	    (d = desc_of(si.seccomp.nr)) != NULL && d->kind == K_CONFINE) {
		tr->confined = 1;
	} else if (tr != NULL && si.op == PTRACE_SYSCALL_INFO_SECCOMP &&
		   (d = desc_of(si.seccomp.nr)) != NULL &&
		   (d->kind != K_CONNECT || t->connect)) {
		int dc = decode(pid, d, si.seccomp.args, &tr->p);

		/* 1: name it if refused; 2: count it if refused */
		tr->busy = dc == 0 ? 1 : dc == -2 ? 2 : 0;
		if (tr->busy)
			rq = PTRACE_SYSCALL; /* to its exit stop */
	}
	(void)ptrace(rq, pid, 0L, 0L);
}

static void
on_exit_stop(struct ll_trace *t, pid_t pid)
{
	struct __ptrace_syscall_info si;
	struct tracee *tr = tracee_of(t, pid, 0);

	memset(&si, 0, sizeof(si));
	if (tr != NULL && tr->busy &&
	    ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) > 0 &&
	    si.op == PTRACE_SYSCALL_INFO_EXIT && si.exit.is_error &&
	    (si.exit.rval == -EACCES ||
	     (si.exit.rval == -EPERM && tr->p.d->kind != K_CONNECT))) {
		if (tr->confined)
			t->own_layer++;
		else if (tr->busy == 1)
			record(t, pid, &tr->p);
		else
			t->unnamed++; /* refused, its path unreadable */
	}
	if (tr != NULL)
		tr->busy = 0;
	(void)ptrace(PTRACE_CONT, pid, 0L, 0L);
}

static void
on_exec(struct ll_trace *t, pid_t pid)
{
	unsigned long former = 0;
	struct tracee *tr;

	/* a thread that exec'd took the leader's pid: its old one is gone */
	if (ptrace(PTRACE_GETEVENTMSG, pid, 0L, &former) == 0 &&
	    (pid_t)former != pid)
		ll_trace_gone(t, (pid_t)former);
	if ((tr = tracee_of(t, pid, 0)) != NULL)
		tr->busy = 0;
	(void)ptrace(PTRACE_CONT, pid, 0L, 0L);
}

/* A new process or thread of a confined one is confined too (a Landlock
 * domain is inherited). */
static void
on_fork(struct ll_trace *t, pid_t pid)
{
	unsigned long child = 0;
	struct tracee *tr = tracee_of(t, pid, 0), *c;

	if (tr != NULL && tr->confined &&
	    ptrace(PTRACE_GETEVENTMSG, pid, 0L, &child) == 0 && child > 0 &&
	    (c = tracee_of(t, (pid_t)child, 1)) != NULL)
		c->confined = 1;
	(void)ptrace(PTRACE_CONT, pid, 0L, 0L);
}

/* The socket family a trapped call asked for, as the line names it. */
static void
family_name(unsigned long long fam, char *out, size_t n)
{
	switch (fam) {
	case AF_INET:
		snprintf(out, n, "AF_INET");
		break;
	case AF_INET6:
		snprintf(out, n, "AF_INET6");
		break;
	case AF_NETLINK:
		snprintf(out, n, "AF_NETLINK");
		break;
	case AF_PACKET:
		snprintf(out, n, "AF_PACKET");
		break;
	default:
		snprintf(out, n, "AF_%llu", fam & 0xffffffffULL);
	}
}

/* A socket() or socketpair() --net-deny refused (the traced filter traps
 * it: SECCOMP_RET_TRAP, LL_TRAP_NET): the call did not run.  Return
 * EACCES from it, as the untraced filter does, and name it.  1 when the
 * SIGSYS was that trap and is handled (the caller suppresses it); 0 for
 * any other SIGSYS, delivered as sent (the call did not run either way). */
static int
on_sigsys(struct ll_trace *t, pid_t pid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	siginfo_t si;
	char fam[32];

	memset(&si, 0, sizeof(si));
	/* the trap exists only under --net-deny; a SIGSYS the command sent
	 * itself (any si_code may be queued to oneself) is told apart by the
	 * registers: only the kernel's trap leaves the thread in socket() or
	 * socketpair() rolled back (rax == orig_rax), of a family the filter
	 * refuses */
	if (!t->trap_net ||
	    ptrace(PTRACE_GETSIGINFO, pid, 0L, &si) != 0 ||
	    si.si_code != SYS_SECCOMP ||
	    (unsigned)si.si_errno != LL_TRAP_NET ||
	    si.si_arch != AUDIT_ARCH_X86_64 ||
	    (si.si_syscall != SYS_socket && si.si_syscall != SYS_socketpair) ||
	    ptrace(PTRACE_GETREGS, pid, 0L, &regs) != 0 ||
	    regs.orig_rax != (unsigned long long)si.si_syscall ||
	    regs.rax != regs.orig_rax || (regs.rdi & 0xffffffffULL) == AF_UNIX)
		return 0;
	regs.rax = (unsigned long long)(long long)-EACCES;
	if (ptrace(PTRACE_SETREGS, pid, 0L, &regs) != 0)
		return 0;
	family_name(regs.rdi, fam, sizeof(fam));
	add_denial(t, NS_OP_CONNECT, fam, "", -1,
		   si.si_syscall == SYS_socketpair ? "socketpair" : "socket");
	return 1;
#else
	(void)t;
	(void)pid;
	return 0;
#endif
}

static int
is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

void
ll_trace_stop(struct ll_trace *t, pid_t pid, int status, int *exec_done)
{
	int sig = WSTOPSIG(status), event = (status >> 16) & 0xff;

	if (sig == (SIGTRAP | 0x80)) {
		on_exit_stop(t, pid);
	} else if (event == PTRACE_EVENT_SECCOMP) {
		on_seccomp(t, pid);
	} else if (event == PTRACE_EVENT_EXEC) {
		if (exec_done != NULL)
			*exec_done = 1;
		on_exec(t, pid);
	} else if (event == PTRACE_EVENT_STOP) {
		/* a group-stop stays a stop (LISTEN); the first stop of an
		 * attached child, or a SIGCONT's, resumes */
		(void)ptrace(is_stop_signal(sig) ? PTRACE_LISTEN : PTRACE_CONT,
			     pid, 0L, 0L);
	} else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		   event == PTRACE_EVENT_CLONE) {
		on_fork(t, pid);
	} else if (event != 0) {
		(void)ptrace(PTRACE_CONT, pid, 0L, 0L);
	} else if (sig == SIGSYS && on_sigsys(t, pid)) {
		(void)ptrace(PTRACE_CONT, pid, 0L, 0L); /* EACCES, no signal */
	} else {
		/* a signal on its way: deliver it as sent */
		(void)ptrace(PTRACE_CONT, pid, 0L, (long)sig);
	}
}

/* ---- the report ----------------------------------------------------------- */

void
ll_trace_report(const struct ns_host *host, struct ll_trace *t)
{
	char text[256];
	size_t i;
	uint64_t dac = 0;

	for (i = 0; i < t->nd; i++) {
		const struct denial *d = &t->d[i];
		struct ns_denial nd;

		/* DAC refuses it too, or cannot be asked: not the wall's (a
		 * socket --net-deny trapped has no path: mode -1) */
		if (!dac_allows(d->op, d->path, d->check, d->mode)) {
			dac++;
			continue;
		}
		memset(&nd, 0, sizeof(nd));
		nd.struct_size = sizeof(nd);
		nd.op = d->op;
		nd.path = d->path;
		nd.count = d->count;
		nd.detail = d->call;
		if (NS_HOST_HAS_DENIAL(host))
			host->denial(host->cookie, &nd);
	}
	(void)dac;
	if (t->unnamed > 0 && host->note != NULL) {
		snprintf(text, sizeof(text),
			 "--explain could not name %llu refused calls (their "
			 "path could not be read or resolved: a non-dumpable "
			 "process, or a path gone meanwhile)",
			 (unsigned long long)t->unnamed);
		host->note(host->cookie, text);
	}
	if (t->own_layer > 0 && host->note != NULL) {
		snprintf(text, sizeof(text),
			 "--explain did not name %llu refused calls of processes "
			 "that added their own Landlock layer "
			 "(landlock_restrict_self): the refusal may be that "
			 "layer's, not the wall's",
			 (unsigned long long)t->own_layer);
		host->note(host->cookie, text);
	}
	if (t->dropped > 0 && host->note != NULL) {
		snprintf(text, sizeof(text),
			 "--explain kept the first %d distinct denied paths; "
			 "%llu more refused calls were not kept",
			 TR_MAX_DENIALS, (unsigned long long)t->dropped);
		host->note(host->cookie, text);
	}
}

/* The audit source's question (ll_audit.c): did the tracer name path, or a
 * path directly beneath it (a directory's entry it changed)? */
int
ll_trace_names(const struct ll_trace *t, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < t->nd; i++) {
		const char *p = t->d[i].path, *slash;

		if (strcmp(p, path) == 0)
			return 1;
		slash = strrchr(p, '/');
		if (slash != NULL && (size_t)(slash - p) == (n == 1 ? 0 : n) &&
		    strncmp(p, path, n) == 0)
			return 1;
	}
	return 0;
}
