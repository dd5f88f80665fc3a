/* SPDX-License-Identifier: MIT */
/* test_explain_live.c -- landlock.so's --explain tracer on this kernel,
 * driven through its descriptor with a fake ns_host that collects the
 * denials finish() reports.  The "tool" process drops to an unprivileged
 * uid (nobody when run as root), prepares with NS_POLICY_EXPLAIN, spawns
 * /bin/sh -c '...' walled, calls wait() until the end and finish(); the
 * denials come back through a shared page.  Every named denial has a
 * control that must NOT be named: a DAC-refused file, an absent one.
 *
 * The binary is its own helper (argv[1]): "openat DIR NAME" opens NAME
 * from a descriptor of DIR, "thread PATH" opens PATH from a second
 * thread, "traceme" tries to detach from the tracer. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns_backend.h"
#include "ll_trace.h"

extern const struct ns_backend_ops ns_backend_v1;

#define TEST_UID 65534
#define TEST_GID 65534
#define OUT_SIZE 16384

static char wdir[64], odir[64], rdir[64], ndir[64], self_dir[512];
static char self_exe[512];
static char *g_out; /* shared page: "<op> <path>\n" per denial, then notes */
/* LeakSanitizer cannot run in a traced process: the helper (this binary,
 * under `make asan`) runs without it */
static const char *envp[] = { "PATH=/usr/bin:/bin",
			      "ASAN_OPTIONS=detect_leaks=0", NULL };

/* ---- the helper modes ---------------------------------------------------- */

static void *
thread_open(void *arg)
{
	int fd = open(arg, O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return NULL;
}

static volatile sig_atomic_t g_sigsys_seen;

static void
on_sigsys_mark(int sig)
{
	(void)sig;
	g_sigsys_seen = 1;
}

/* The traced commands' programs, "$5 <name> args...": each returns 0 when
 * the call went as the case expects. */
static int
h_openat(char **a)
{
	int dfd = open(a[0], O_PATH | O_DIRECTORY | O_CLOEXEC);

	return dfd >= 0 && openat(dfd, a[1], O_RDONLY | O_CLOEXEC) >= 0 ? 0 : 1;
}

static int
h_thread(char **a)
{
	pthread_t th;

	if (pthread_create(&th, NULL, thread_open, a[0]) != 0)
		return 2;
	pthread_join(th, NULL);
	return 0;
}

/* 0: the tracer stays (a second tracer is refused) */
static int
h_traceme(char **a)
{
	(void)a;
	return ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 ? 1 : 0;
}

/* 0: an IP socket fails with EACCES (and a SIGSYS handler of the
 * command's own, "sigsys", never runs) */
static int
h_socket(char **a)
{
	if (strcmp(a[0], "sigsys") == 0)
		signal(SIGSYS, on_sigsys_mark);
	if (socket(AF_INET, SOCK_DGRAM, 0) >= 0)
		return 1;
	return errno == EACCES && !g_sigsys_seen ? 0 : 2;
}

/* 0: reopening a descriptor of the secret through /proc/self fails (the
 * wall refuses the read) */
static int
h_procself(char **a)
{
	char via[64];
	int dfd = open(a[0], O_PATH | O_CLOEXEC);

	if (dfd < 0)
		return 2;
	snprintf(via, sizeof(via), "/proc/self/fd/%d", dfd);
	return open(via, O_RDONLY | O_CLOEXEC) < 0 && errno == EACCES ? 0 : 1;
}

/* 0: a SIGSYS this process queued to itself, dressed as the tracer's
 * trap, reaches its own handler (delivered as sent) */
static int
h_forge(char **a)
{
	siginfo_t si;

	(void)a;
	signal(SIGSYS, on_sigsys_mark);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSYS;
	si.si_code = 1;             /* SYS_SECCOMP */
	si.si_errno = 0x4e54;       /* LL_TRAP_NET */
	si.si_syscall = SYS_socket; /* all a real trap says */
	si.si_arch = 0xc000003eU;   /* AUDIT_ARCH_X86_64 */
	if (syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid),
		    SIGSYS, &si) != 0)
		return 2;
	return g_sigsys_seen ? 0 : 1;
}

/* 0: a non-dumpable process's refused open (counted, not named) */
static int
h_nodump(char **a)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		return 2;
	return open(a[0], O_RDONLY | O_CLOEXEC) < 0 && errno == EACCES ? 0 : 1;
}

static int
helper(int argc, char **argv)
{
	static const struct {
		const char *name;
		int nargs;
		int (*fn)(char **);
	} progs[] = {
		{ "openat", 2, h_openat },     { "thread", 1, h_thread },
		{ "traceme", 0, h_traceme },   { "socket", 1, h_socket },
		{ "procself", 1, h_procself }, { "forge", 0, h_forge },
		{ "nodump", 1, h_nodump },
	};

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (strcmp(argv[1], progs[i].name) == 0 &&
		    argc == 2 + progs[i].nargs)
			return progs[i].fn(argv + 2);
	return 3;
}

/* ---- the fake host ----------------------------------------------------------- */

static const char *const op_names[] = { "?", "read", "write", "exec",
					"create", "delete", "rename",
					"connect", "bind", "other" };

static void
out_add(const char *a, const char *b)
{
	size_t len = strlen(g_out);

	snprintf(g_out + len, OUT_SIZE - len, "%s %s\n", a, b);
}

static void
h_denial(void *cookie, const struct ns_denial *d)
{
	(void)cookie;
	out_add(d->op <= NS_OP_OTHER ? op_names[d->op] : "?", d->path);
}

static void
h_note(void *cookie, const char *t)
{
	(void)cookie;
	out_add("NOTE", t);
}

static void
h_refuse(void *cookie, const char *reason, const char *t)
{
	(void)cookie;
	out_add(reason, t);
}

static void
h_text(void *cookie, const char *t)
{
	(void)cookie;
	(void)t;
}

static const struct ns_host host = {
	.struct_size = sizeof(struct ns_host),
	.abi_major = NS_BACKEND_ABI_MAJOR,
	.abi_minor = NS_BACKEND_ABI_MINOR,
	.note = h_note,
	.refuse = h_refuse,
	.text = h_text,
	.denial = h_denial,
};

/* ---- the tool --------------------------------------------------------------- */

static void
drop_privileges(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) != 0 ||
	    setresgid(TEST_GID, TEST_GID, TEST_GID) != 0 ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID) != 0)
		_exit(90);
}

static size_t
policy_rules(struct ns_rule *r)
{
	static const char *const roots[] = { "/usr", "/bin", "/lib", "/lib64",
					     "/etc", "/proc", NULL };
	size_t n = 0, i;

	for (i = 0; roots[i] != NULL; i++)
		if (access(roots[i], F_OK) == 0)
			r[n++] = (struct ns_rule){ roots[i], NS_ACCESS_READ_EXEC,
						   NS_ORIGIN_ROOT };
	r[n++] = (struct ns_rule){ wdir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	r[n++] = (struct ns_rule){ rdir, NS_ACCESS_READ_EXEC, NS_ORIGIN_READ };
	r[n++] = (struct ns_rule){ ndir, NS_ACCESS_READ,
				   NS_ORIGIN_READ_NOEXEC };
	r[n++] = (struct ns_rule){ self_dir, NS_ACCESS_READ_EXEC,
				   NS_ORIGIN_READ };
	r[n++] = (struct ns_rule){ "/dev/null", NS_ACCESS_WRITE_FILE,
				   NS_ORIGIN_WRITE_FILE };
	return n;
}

/* prepare, spawn, wait until the end, finish: the command's exit code,
 * 80+ for a module failure. */
static int __attribute__((noreturn))
tool(const char *script, uint32_t flags)
{
	const struct ns_wall_ops *w = ns_backend_v1.wall;
	const char *argv[] = { "sh", "-c", script, "sh", wdir, odir, rdir,
			       ndir, self_exe, NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc pr = { sizeof(pr), 0, 0 };
	struct ns_exit ex;
	struct ns_finish fin;
	void *st = NULL;
	int rc;

	memset(&pol, 0, sizeof(pol));
	pol.struct_size = sizeof(pol);
	pol.flags = flags;
	pol.rules = rules;
	pol.n_rules = policy_rules(rules);
	pol.gpu = "none";
	pol.command = "/bin/sh";
	pol.argv = argv;
	pol.envp = envp;
	pol.cwd = wdir;
	pol.tmp = pol.home = wdir;
	if (w->prepare(&host, &pol, &st) != NS_OK)
		_exit(81);
	if (w->spawn(&host, st, &pol, &l, &pr) != NS_OK)
		_exit(82);
	do {
		memset(&ex, 0, sizeof(ex));
		ex.struct_size = sizeof(ex);
		rc = w->wait(&host, st, &pr, 500, &ex);
	} while (rc == NS_OK && ex.how == NS_END_RUNNING);
	if (rc != NS_OK)
		_exit(83);
	memset(&fin, 0, sizeof(fin));
	fin.struct_size = sizeof(fin);
	fin.proc = pr;
	fin.exit = ex;
	if (w->finish(&host, st, &fin) != NS_OK)
		_exit(84);
	w->release(&host, st);
	_exit(ex.how == NS_END_CODE ? ex.code : 128 + ex.code);
}

static int
run(const char *script, uint32_t flags)
{
	pid_t pid;
	int st;

	g_out[0] = '\0';
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 99;
	if (pid == 0) {
		drop_privileges();
		tool(script, flags);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 98;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* "<op> <dir>/<name>\n" is in the output (named == 1) or not. */
static int
named(const char *op, const char *dir, const char *name)
{
	char line[256];

	snprintf(line, sizeof(line), "%s %s/%s\n", op, dir, name);
	return strstr(g_out, line) != NULL;
}

/* ---- the cases ------------------------------------------------------------- */

static void
test_names_each_denial(void)
{
	static const char script[] =
		"cat \"$2\"/secret >/dev/null 2>&1;"      /* read outside */
		"echo x 2>/dev/null > \"$2\"/new;"         /* create outside */
		"echo x 2>/dev/null >> \"$2\"/old;"        /* write outside */
		"mkdir \"$3\"/sub 2>/dev/null;"            /* under a read root */
		"\"$4\"/tool.sh 2>/dev/null;"              /* read-noexec */
		"rm -f \"$2\"/old 2>/dev/null;"            /* delete outside */
		"mv \"$1\"/mine \"$2\"/moved 2>/dev/null;" /* rename out */
		"(cd \"$2\" && cat rel >/dev/null 2>&1);"  /* cwd-relative */
		"\"$5\" openat \"$2\" atfile;"             /* dirfd-relative */
		"sh -c 'cat \"$0\"/grand >/dev/null 2>&1' \"$2\" & wait;"
		"\"$5\" thread \"$2\"/threaded;"           /* a thread */
		"cat \"$1\"/locked >/dev/null 2>&1;"       /* DAC: not named */
		"cat \"$2\"/locked >/dev/null 2>&1;"       /* DAC too */
		"cat \"$2\"/absent >/dev/null 2>&1;"       /* ENOENT */
		"echo x 2>/dev/null > \"$1\"/inside;"      /* allowed */
		"exit 3";

	CU_ASSERT_EQUAL(run(script, NS_POLICY_EXPLAIN), 3);
	CU_ASSERT(named("read", odir, "secret"));
	CU_ASSERT(named("create", odir, "new"));
	CU_ASSERT(named("write", odir, "old"));
	CU_ASSERT(named("create", rdir, "sub"));
	CU_ASSERT(named("exec", ndir, "tool.sh"));
	CU_ASSERT(named("delete", odir, "old"));
	CU_ASSERT(named("rename", odir, "moved"));
	CU_ASSERT(named("read", odir, "rel"));
	CU_ASSERT(named("read", odir, "atfile"));
	CU_ASSERT(named("read", odir, "grand"));
	CU_ASSERT(named("read", odir, "threaded"));
	/* the controls */
	CU_ASSERT(!named("read", wdir, "locked"));
	CU_ASSERT(!named("read", odir, "locked"));
	CU_ASSERT(!named("read", odir, "absent"));
	CU_ASSERT(strstr(g_out, "inside") == NULL);
	CU_ASSERT(strstr(g_out, "mine") == NULL); /* the side inside */
	if (CU_get_number_of_failures() > 0 || getenv("NOVA_EXPLAIN_SHOW"))
		fprintf(stderr, "\n---- reported:\n%s----\n", g_out);
}

/* Without the flag: nothing is traced, nothing named, the same exit. */
static void
test_nothing_without_flag(void)
{
	CU_ASSERT_EQUAL(run("cat \"$2\"/secret >/dev/null 2>&1; "
			    "test \"$(grep TracerPid /proc/self/status | "
			    "cut -f2)\" = 0 || exit 9; exit 4", 0), 4);
	CU_ASSERT_STRING_EQUAL(g_out, "");
}

/* The command cannot leave the tracer: a second PTRACE_TRACEME fails,
 * it cannot stop or signal the supervisor, and what it does after is
 * still named. */
static void
test_cannot_detach(void)
{
	CU_ASSERT_EQUAL(run("\"$5\" traceme || exit 5; "
			    "kill -STOP $PPID 2>/dev/null && exit 6; "
			    "test \"$(grep TracerPid /proc/self/status | "
			    "cut -f2)\" != 0 || exit 7; "
			    "cat \"$2\"/secret >/dev/null 2>&1; exit 0",
			    NS_POLICY_EXPLAIN), 0);
	CU_ASSERT(named("read", odir, "secret"));
}

/* --net-deny: an IP socket is refused (EACCES, as untraced) and named by
 * its family, even when the command has a SIGSYS handler of its own;
 * control: the same call untraced is refused the same way, not named. */
static void
test_net_deny_socket(void)
{
	CU_ASSERT_EQUAL(run("\"$5\" socket plain || exit 5; "
			    "\"$5\" socket sigsys || exit 6; exit 0",
			    NS_POLICY_EXPLAIN | NS_POLICY_NET_DENY), 0);
	CU_ASSERT(strstr(g_out, "connect AF_INET\n") != NULL);
	CU_ASSERT_EQUAL(run("\"$5\" socket plain || exit 5; exit 0",
			    NS_POLICY_NET_DENY), 0);
	CU_ASSERT_STRING_EQUAL(g_out, "");
}

/* The tracer's honesty (issue 10's red team): /proc/self is the
 * tracee's, not the supervisor's; a SIGSYS the command forged is its own;
 * a non-dumpable process's refusal is counted in the NOTE. */
static void
test_honest(void)
{
	char want[160];

	CU_ASSERT_EQUAL(run("\"$5\" procself \"$2\"/secret", NS_POLICY_EXPLAIN), 0);
	snprintf(want, sizeof(want), "read %s/secret\n", odir);
	CU_ASSERT(strstr(g_out, want) != NULL);
	CU_ASSERT(strstr(g_out, "landlock") == NULL);
	CU_ASSERT_EQUAL(run("\"$5\" forge", NS_POLICY_EXPLAIN | NS_POLICY_NET_DENY), 0);
	CU_ASSERT(strstr(g_out, "connect") == NULL);
	CU_ASSERT_EQUAL(run("\"$5\" nodump \"$2\"/secret", NS_POLICY_EXPLAIN), 0);
	CU_ASSERT(strncmp(g_out, "read ", 5) != 0 &&
		  strstr(g_out, "\nread ") == NULL); /* no line names it */
	CU_ASSERT(strstr(g_out, "NOTE --explain could not name 1 refused") != NULL);
	if (CU_get_number_of_failures() > 0)
		fprintf(stderr, "\n---- reported:\n%s----\n", g_out);
}

static void
test_pure_helpers(void)
{
	char out[64];

	CU_ASSERT_EQUAL(ll_trace_join("/a", "b", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "/a/b");
	CU_ASSERT_EQUAL(ll_trace_join("/", "b", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "/b");
	CU_ASSERT_EQUAL(ll_trace_join("/a", "/c", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "/c");
	CU_ASSERT_EQUAL(ll_trace_join("pipe:[1]", "b", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(ll_trace_join("/a", "bbbbbbbb", out, 6), -1);
	CU_ASSERT_EQUAL(ll_trace_open_op(O_RDONLY, 1), NS_OP_READ);
	CU_ASSERT_EQUAL(ll_trace_open_op(O_WRONLY | O_CREAT, 1), NS_OP_WRITE);
	CU_ASSERT_EQUAL(ll_trace_open_op(O_WRONLY | O_CREAT, 0), NS_OP_CREATE);
	CU_ASSERT_EQUAL(ll_trace_open_op(O_RDWR, 1), NS_OP_WRITE);
	CU_ASSERT_EQUAL(ll_trace_open_op(O_PATH, 1), 0);
	CU_ASSERT(ns_backend_v1.wall->features & NS_WALL_EXPLAIN);
	CU_ASSERT_EQUAL(ns_backend_v1.abi_minor, 0);
}

/* ---- fixtures ---------------------------------------------------------------- */

static int
put(const char *dir, const char *name, const char *body, mode_t mode,
    int mine)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, body, strlen(body)) < 0 || fchmod(fd, mode))
		return -1;
	if (mine && geteuid() == 0 && fchown(fd, TEST_UID, TEST_GID) != 0)
		return -1;
	return close(fd);
}

static int
setup(void)
{
	char *slash;
	char *dirs[] = { wdir, odir, rdir, ndir };
	ssize_t k = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	if (k <= 0)
		return -1;
	self_exe[k] = '\0';
	snprintf(self_dir, sizeof(self_dir), "%s", self_exe);
	if ((slash = strrchr(self_dir, '/')) == NULL)
		return -1;
	*slash = '\0';
	g_out = mmap(NULL, OUT_SIZE, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g_out == MAP_FAILED)
		return -1;
	snprintf(wdir, sizeof(wdir), "/tmp/ll-xw.XXXXXX");
	snprintf(odir, sizeof(odir), "/tmp/ll-xo.XXXXXX");
	snprintf(rdir, sizeof(rdir), "/tmp/ll-xr.XXXXXX");
	snprintf(ndir, sizeof(ndir), "/tmp/ll-xn.XXXXXX");
	for (size_t i = 0; i < 4; i++)
		if (mkdtemp(dirs[i]) == NULL ||
		    (geteuid() == 0 &&
		     chown(dirs[i], TEST_UID, TEST_GID) != 0))
			return -1;
	if (put(odir, "secret", "s\n", 0644, 1) || put(odir, "old", "o\n",
							 0644, 1) ||
	    put(odir, "rel", "r\n", 0644, 1) ||
	    put(odir, "atfile", "a\n", 0644, 1) ||
	    put(odir, "grand", "g\n", 0644, 1) ||
	    put(odir, "threaded", "t\n", 0644, 1) ||
	    put(wdir, "mine", "m\n", 0644, 1) ||
	    put(ndir, "tool.sh", "#!/bin/sh\nexit 0\n", 0755, 1) ||
	    /* DAC controls: refused to the user inside and outside alike
	     * (as root: root's files; else mode 000 is enough) */
	    put(wdir, "locked", "l\n", 0000, 0) ||
	    put(odir, "locked", "l\n", 0000, 0))
		return -1;
	return 0;
}

static int
teardown(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s %s", wdir, odir, rdir,
		 ndir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	static const struct cu_case cases[] = {
		{ "pure helpers", test_pure_helpers },
		{ "names each denial, not the controls",
		  test_names_each_denial },
		{ "nothing without the flag", test_nothing_without_flag },
		{ "the command cannot detach", test_cannot_detach },
		{ "--net-deny: a socket named by its family", test_net_deny_socket },
		{ "honest: /proc/self, a forged SIGSYS, a non-dumpable process", test_honest },
		{ NULL, NULL }
	};

	if (argc > 1)
		return helper(argc, argv);
	return cu_run("landlock explain live", setup, teardown, cases);
}
