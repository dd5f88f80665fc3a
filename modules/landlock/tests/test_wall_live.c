/* SPDX-License-Identifier: MIT */
/* test_wall_live.c -- landlock.so's wall on this kernel, driven through its
 * ns_backend_v1 descriptor with a hand-built policy (no host needed).  Each
 * case forks a "tool" process that drops to an unprivileged uid (nobody when
 * run as root), prepares, spawns /bin/sh -c '...' walled and waits; every
 * denial has a control: the same command run unwalled by the same user. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fake_host.h"
#include "ll_table.h"

extern const struct ns_backend_ops ns_backend_v1;

#define TEST_UID 65534
#define TEST_GID 65534

static char wdir[64], odir[64]; /* the --write and a dir outside */
/* rules a case adds to the policy (paths under odir: a file, a socket) */
static struct ns_rule g_more[4];
static size_t g_n_more;
static const char *envp[] = { "PATH=/usr/bin:/bin", NULL };

static void
drop_privileges(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) != 0 || setresgid(TEST_GID, TEST_GID,
						 TEST_GID) != 0 ||
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
	r[n++] = (struct ns_rule){ "/dev/null", NS_ACCESS_WRITE_FILE,
				   NS_ORIGIN_WRITE_FILE };
	for (i = 0; i < g_n_more; i++)
		r[n++] = g_more[i];
	return n;
}

static void
make_policy(struct ns_policy *p, struct ns_rule *rules, const char **argv,
	    const char *cmd)
{
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->rules = rules;
	p->n_rules = policy_rules(rules);
	p->gpu = "none";
	p->command = cmd;
	p->argv = argv;
	p->envp = envp;
	p->cwd = wdir;
	p->tmp = wdir;
	p->home = wdir;
}

static int
wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 98;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* In the tool process: prepare, spawn `times` times, wait; the exit status
 * is the command's (the last one), 80+ for a module failure. */
static int __attribute__((noreturn))
tool(const char *script, int times, const int *extra, size_t n_extra)
{
	const struct ns_wall_ops *w = ns_backend_v1.wall;
	const char *argv[] = { "sh", "-c", script, "sh", wdir, odir, NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, extra, n_extra };
	struct ns_proc pr = { sizeof(pr), 0, 0 };
	void *st = NULL;
	int i, rc = 0;

	make_policy(&pol, rules, argv, "/bin/sh");
	if (w->prepare(&fake_ns_host, &pol, &st) != NS_OK)
		_exit(81);
	for (i = 0; i < times; i++) {
		if (w->spawn(&fake_ns_host, st, &pol, &l, &pr) != NS_OK)
			_exit(82);
		rc = wait_status((pid_t)pr.pid);
	}
	w->release(&fake_ns_host, st);
	_exit(rc);
}

/* The same command, unwalled, as the same user, with the same kind of
 * parent: a process of that user that forks it and waits (the control). */
static int __attribute__((noreturn))
bare(const char *script)
{
	pid_t pid = fork();

	if (pid == 0) {
		execle("/bin/sh", "sh", "-c", script, "sh", wdir, odir,
		       (char *)NULL, envp);
		_exit(97);
	}
	_exit(pid < 0 ? 96 : wait_status(pid));
}

static int
run(int walled, const char *script, int times, const int *extra,
    size_t n_extra)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 99;
	if (pid == 0) {
		drop_privileges();
		if (walled)
			tool(script, times, extra, n_extra);
		bare(script);
	}
	return wait_status(pid);
}

static void
clean_files(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/f", wdir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/f", odir);
	unlink(p);
}

static void
test_write_inside_not_outside(void)
{
	clean_files();
	/* control: unwalled, the user can write outside */
	CU_ASSERT_EQUAL(run(0, "echo out > \"$2\"/f", 1, NULL, 0), 0);
	clean_files();
	CU_ASSERT_EQUAL(run(1, "echo in > \"$1\"/f", 1, NULL, 0), 0);
	CU_ASSERT_NOT_EQUAL(run(1, "echo out 2>/dev/null > \"$2\"/f", 1, NULL,
				0), 0);
	CU_ASSERT_EQUAL(run(1, "test -s \"$1\"/f && ! test -e \"$2\"/f", 1,
			    NULL, 0), 0);
	clean_files();
}

/* Rules on what is not a directory: the module tries the directory rights
 * first and falls back to the file rights on the kernel's EINVAL.  A
 * regular file read-only, a regular file writable, a character device
 * (/dev/zero) and a socket: each gets its rule, and the file rights only
 * (a sibling file in the same directory stays out of reach). */
static void
test_file_device_socket_rules(void)
{
	static char rf[96], wf[96], sib[96], sock[96];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0), fd;

	snprintf(rf, sizeof(rf), "%s/rf", odir);
	snprintf(wf, sizeof(wf), "%s/wf", odir);
	snprintf(sib, sizeof(sib), "%s/sib", odir);
	snprintf(sock, sizeof(sock), "%s/sock", odir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	CU_ASSERT_FATAL(s >= 0 && bind(s, (struct sockaddr *)&sa,
				       sizeof(sa)) == 0);
	for (const char *const *p = (const char *const[]){ rf, wf, sib, NULL };
	     *p != NULL; p++) {
		fd = open(*p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		CU_ASSERT_FATAL(fd >= 0 && write(fd, "x\n", 2) == 2);
		close(fd);
		if (geteuid() == 0)
			CU_ASSERT(chown(*p, TEST_UID, TEST_GID) == 0);
	}
	if (geteuid() == 0)
		CU_ASSERT(chown(sock, TEST_UID, TEST_GID) == 0);
	g_more[0] = (struct ns_rule){ rf, NS_ACCESS_READ, NS_ORIGIN_READ };
	g_more[1] = (struct ns_rule){ wf, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	g_more[2] = (struct ns_rule){ "/dev/zero", NS_ACCESS_READ_EXEC,
				      NS_ORIGIN_ROOT };
	g_more[3] = (struct ns_rule){ sock, NS_ACCESS_READ, NS_ORIGIN_READ };
	g_n_more = 4;
	/* control: unwalled, the sibling is readable */
	CU_ASSERT_EQUAL(run(0, "cat \"$2\"/sib >/dev/null", 1, NULL, 0), 0);
	CU_ASSERT_EQUAL(run(1, "cat \"$2\"/rf >/dev/null && "
			    "echo y >> \"$2\"/wf && "
			    "head -c1 /dev/zero >/dev/null", 1, NULL, 0), 0);
	CU_ASSERT_NOT_EQUAL(run(1, "cat \"$2\"/sib 2>/dev/null", 1, NULL, 0),
			    0);
	CU_ASSERT_NOT_EQUAL(run(1, "echo y 2>/dev/null >> \"$2\"/rf", 1, NULL,
				0), 0);
	g_n_more = 0;
	close(s);
	for (const char *const *p = (const char *const[]){ rf, wf, sib, sock,
							    NULL };
	     *p != NULL; p++)
		unlink(*p);
}

static void
test_spawn_twice(void)
{
	CU_ASSERT_EQUAL(run(1, "echo x >> \"$1\"/f", 2, NULL, 0), 0);
	CU_ASSERT_EQUAL(run(0, "test \"$(wc -l < \"$1\"/f)\" = 2", 1, NULL, 0),
			0);
	clean_files();
}

static void
test_cannot_signal_tool(void)
{
	CU_ASSERT_EQUAL(run(0, "kill -0 $PPID", 1, NULL, 0), 0);
	CU_ASSERT_NOT_EQUAL(run(1, "kill -0 $PPID 2>/dev/null", 1, NULL, 0),
			    0);
}

static void
test_fds(void)
{
	int fd = open("/dev/null", O_RDONLY), extra[1];
	const char *see = "test -e /proc/self/fd/7";

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(dup2(fd, 7) == 7);
	extra[0] = fd;
	CU_ASSERT_EQUAL(run(0, see, 1, NULL, 0), 0); /* control */
	CU_ASSERT_NOT_EQUAL(run(1, see, 1, extra, 1), 0);
	CU_ASSERT_EQUAL(run(1, "test -e /proc/self/fd/3", 1, extra, 1), 0);
	close(7);
	close(fd);
}

/* A missing extra descriptor (-1) is refused (82: spawn failed) rather
 * than leaving the tool's own fd 3 open in the command. */
static void
test_missing_extra_fd_refused(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), extra[1] = { -1 };
	int three = fd == 3 ? 3 : dup2(fd, 3);
	const char *see = "test -e /proc/self/fd/3";

	CU_ASSERT_FATAL(fd >= 0 && three == 3);
	CU_ASSERT_FATAL(fcntl(3, F_SETFD, 0) == 0); /* inheritable */
	/* control: without extras the tool's fd 3 is closed in the command */
	CU_ASSERT_NOT_EQUAL(run(1, see, 1, NULL, 0), 0);
	CU_ASSERT_EQUAL(run(1, see, 1, extra, 1), 82);
	if (fd != 3)
		close(3);
	close(fd);
}

static void
test_exec_failure_reported(void)
{
	const struct ns_wall_ops *w = ns_backend_v1.wall;
	const char *argv[] = { "nope", NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, NULL, 0 };
	struct ns_proc pr = { sizeof(pr), 0, 0 };
	void *st = NULL;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		drop_privileges();
		fh_reset();
		make_policy(&pol, rules, argv, "/usr/bin/no-such-command");
		if (w->prepare(&fake_ns_host, &pol, &st) != NS_OK)
			_exit(81);
		if (w->spawn(&fake_ns_host, st, &pol, &l, &pr) != NS_E_SYSTEM)
			_exit(82);
		if (strcmp(fh.reason, "sandbox_failed") != 0 ||
		    strstr(fh.refusal, "could not start /usr/bin/no-such-"
				       "command: No such file or directory "
				       "(execve)") == NULL)
			_exit(83);
		_exit(0);
	}
	CU_ASSERT_EQUAL(wait_status(pid), 0);
}

static void
test_root_refused(void)
{
	struct ns_rule rules[16];
	struct ns_policy pol;
	const char *argv[] = { "true", NULL };
	void *st = NULL;

	if (geteuid() != 0)
		return; /* the order itself is tested in test_landlock */
	make_policy(&pol, rules, argv, "/bin/true");
	fh_reset();
	CU_ASSERT_EQUAL(ns_backend_v1.wall->prepare(&fake_ns_host, &pol, &st),
			NS_E_REFUSED);
	CU_ASSERT_STRING_EQUAL(fh.reason, "sandbox_failed");
	CU_ASSERT_PTR_NULL(st);
}

static int
setup(void)
{
	snprintf(wdir, sizeof(wdir), "/tmp/ll-live-w.XXXXXX");
	snprintf(odir, sizeof(odir), "/tmp/ll-live-o.XXXXXX");
	if (mkdtemp(wdir) == NULL || mkdtemp(odir) == NULL)
		return -1;
	if (geteuid() == 0 && (chown(wdir, TEST_UID, TEST_GID) != 0 ||
			       chown(odir, TEST_UID, TEST_GID) != 0))
		return -1;
	return 0;
}

static int
teardown(void)
{
	clean_files();
	rmdir(wdir);
	rmdir(odir);
	return 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "writes inside, not outside", test_write_inside_not_outside },
		{ "spawn twice, restrict once", test_spawn_twice },
		{ "file, device and socket rules",
		  test_file_device_socket_rules },
		{ "cannot signal the tool", test_cannot_signal_tool },
		{ "only 0-2 and the passed fds", test_fds },
		{ "a missing extra fd is refused",
		  test_missing_extra_fd_refused },
		{ "exec failure reported", test_exec_failure_reported },
		{ "root refused", test_root_refused },
		{ NULL, NULL }
	};

	return cu_run("landlock live", setup, teardown, cases);
}
