/* SPDX-License-Identifier: MIT */
/* esc.c -- the attack actions of the escape suite (tests/escape/run.sh).
 * Each subcommand is one attempt, run by the same user both unwalled (the
 * control) and inside the wall.  Exit 0 and "ok: <what>" on stdout when the
 * attempt SUCCEEDED (the attack got through), exit 1 and "denied: <what>:
 * <errno text>" when the system refused it, exit 2 when the attempt could
 * not be made at all (bad usage, a broken set-up): 2 is never a verdict.
 *
 *   esc <attack> ARGS...        (see the table at the end)
 *
 * Every attempt is small and does the least that proves the power: a
 * resource limit is set to the value it already has, a nice value to the
 * one it has, a signal is signal 0, and so on. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <mqueue.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef NETLINK_SOCK_DIAG
#define NETLINK_SOCK_DIAG 4
#endif
#ifndef KCMP_VM
#define KCMP_VM 1
#endif
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP 2
#define IOPRIO_WHO_USER 3
#define IOPRIO_PRIO(cls, lvl) (((cls) << 13) | (lvl))

static int
ok(const char *what)
{
	printf("ok: %s\n", what);
	return 0;
}

static int
denied(const char *what)
{
	printf("denied: %s: %s\n", what, strerror(errno));
	return 1;
}

static int
verdict(long rc, const char *what)
{
	return rc < 0 ? denied(what) : ok(what);
}

static int __attribute__((format(printf, 1, 2)))
broken(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("esc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

static pid_t
num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
		exit(broken("not a number: %s", s));
	return (pid_t)v;
}

/* ---- class 1: other processes of the user, by pid/pgrp/uid ---------- */

static int
a_prlimit(char **a)
{
	struct rlimit r;

	if (prlimit(num(a[0]), RLIMIT_CPU, NULL, &r) != 0)
		return denied("prlimit64 get RLIMIT_CPU");
	return verdict(prlimit(num(a[0]), RLIMIT_CPU, &r, NULL),
		       "prlimit64 set RLIMIT_CPU");
}

static int
a_setprio(int which, const char *who)
{
	int v;

	errno = 0;
	v = getpriority(which, (id_t)num(who));
	if (v == -1 && errno)
		return denied("getpriority");
	return verdict(setpriority(which, (id_t)num(who), v), "setpriority");
}

static int a_prio_proc(char **a) { return a_setprio(PRIO_PROCESS, a[0]); }
static int a_prio_pgrp(char **a) { return a_setprio(PRIO_PGRP, a[0]); }

/* every process of this uid to nice N: the harness reads the victim's */
static int
a_prio_user(char **a)
{
	return verdict(setpriority(PRIO_USER, getuid(), num(a[0])),
		       "setpriority PRIO_USER");
}

static int
a_affinity(char **a)
{
	cpu_set_t s;

	if (sched_getaffinity(num(a[0]), sizeof(s), &s) != 0)
		return denied("sched_getaffinity");
	return verdict(sched_setaffinity(num(a[0]), sizeof(s), &s),
		       "sched_setaffinity");
}

static int
a_setsched(char **a)
{
	struct sched_param p = { .sched_priority = 0 };

	return verdict(sched_setscheduler(num(a[0]), SCHED_OTHER, &p),
		       "sched_setscheduler");
}

static int
a_setparam(char **a)
{
	struct sched_param p = { .sched_priority = 0 };

	return verdict(sched_setparam(num(a[0]), &p), "sched_setparam");
}

struct esc_sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
};

static int
a_setattr(char **a)
{
	struct esc_sched_attr at;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	if (syscall(SYS_sched_getattr, num(a[0]), &at, sizeof(at), 0) != 0)
		return denied("sched_getattr");
	at.size = sizeof(at);
	at.flags = 0;
	return verdict(syscall(SYS_sched_setattr, num(a[0]), &at, 0),
		       "sched_setattr");
}

static int
a_ioprio(char **a)
{
	return verdict(syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, num(a[0]),
			       IOPRIO_PRIO(2, 4)), "ioprio_set");
}

static int
a_ioprio_pgrp(char **a)
{
	return verdict(syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, num(a[0]),
			       IOPRIO_PRIO(2, 4)), "ioprio_set IOPRIO_WHO_PGRP");
}

/* every process of this uid to best-effort level 7 */
static int
a_ioprio_user(char **a)
{
	(void)a;
	return verdict(syscall(SYS_ioprio_set, IOPRIO_WHO_USER, getuid(),
			       IOPRIO_PRIO(2, 7)), "ioprio_set IOPRIO_WHO_USER");
}

static int
a_kcmp(char **a)
{
	return verdict(syscall(SYS_kcmp, getpid(), num(a[0]), KCMP_VM, 0, 0),
		       "kcmp");
}

static int
a_migrate(char **a)
{
	unsigned long node0 = 1;

	return verdict(syscall(SYS_migrate_pages, num(a[0]), 2, &node0,
			       &node0), "migrate_pages");
}

static int
a_move_pages(char **a)
{
	return verdict(syscall(SYS_move_pages, num(a[0]), 0, NULL, NULL, NULL,
			       0), "move_pages");
}

/* ---- signals and ptrace ------------------------------------------- */

static int
a_kill(char **a)
{
	return verdict(kill(num(a[0]), 0), "kill");
}

static int
a_killpg(char **a)
{
	return verdict(kill(-num(a[0]), 0), "kill -pgrp");
}

/* SIGURG (ignored by default) to every process this user may signal; the
 * harness looks for the victim's mark */
static int
a_kill_all(char **a)
{
	(void)a;
	return verdict(kill(-1, SIGURG), "kill -1 SIGURG");
}

static int
a_tgkill(char **a)
{
	return verdict(syscall(SYS_tgkill, num(a[0]), num(a[0]), 0), "tgkill");
}

static int
a_sigqueue(char **a)
{
	union sigval v = { .sival_int = 0 };

	return verdict(sigqueue(num(a[0]), 0, v), "rt_sigqueueinfo");
}

static int
a_pidfd_signal(char **a)
{
	long fd = syscall(SYS_pidfd_open, num(a[0]), 0);

	if (fd < 0)
		return denied("pidfd_open");
	return verdict(syscall(SYS_pidfd_send_signal, (int)fd, 0, NULL, 0),
		       "pidfd_send_signal");
}

/* SIGURG to PID through the file-owner path (F_SETOWN + O_ASYNC): the
 * harness looks for the victim's mark; this only says it was armed */
static int
a_fown(char **a)
{
	int p[2];

	if (pipe(p) != 0)
		return broken("pipe: %s", strerror(errno));
	if (fcntl(p[0], F_SETOWN, num(a[0])) != 0)
		return denied("F_SETOWN");
	if (fcntl(p[0], F_SETSIG, SIGURG) != 0 ||
	    fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0)
		return denied("F_SETSIG/O_ASYNC");
	if (write(p[1], "x", 1) != 1)
		return broken("write: %s", strerror(errno));
	return ok("SIGURG armed through F_SETOWN");
}

static int
a_ptrace(pid_t pid, const char *what)
{
	int st;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) != 0)
		return denied(what);
	waitpid(pid, &st, __WALL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return ok(what);
}

static int a_ptrace_pid(char **a) { return a_ptrace(num(a[0]), "ptrace attach"); }
static int a_ptrace_parent(char **a) { (void)a; return a_ptrace(getppid(), "ptrace attach parent"); }
static int a_kill_parent(char **a) { (void)a; return verdict(kill(getppid(), 0), "kill parent"); }

static int
a_vmread(char **a)
{
	char buf[16];
	struct iovec l = { buf, sizeof(buf) };
	struct iovec r = { (void *)(uintptr_t)strtoull(a[1], NULL, 0), sizeof(buf) };

	return verdict(process_vm_readv(num(a[0]), &l, 1, &r, 1, 0),
		       "process_vm_readv");
}

static int
a_getfd(char **a)
{
	long fd = syscall(SYS_pidfd_open, num(a[0]), 0);

	if (fd < 0)
		return denied("pidfd_open");
	return verdict(syscall(SYS_pidfd_getfd, (int)fd, num(a[1]), 0),
		       "pidfd_getfd");
}

/* ---- files -------------------------------------------------------- */

static int
a_read(char **a)
{
	char buf[256];
	ssize_t n;
	int fd = open(a[0], O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return denied("open O_RDONLY");
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0 && errno != EAGAIN && errno != EIO)
		return denied("read");
	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		printf("read: %s\n", buf);
	}
	return ok("opened and read");
}

/* read from a descriptor the command was started with */
static int
a_readfd(char **a)
{
	char buf[256];
	ssize_t n = read(num(a[0]), buf, sizeof(buf) - 1);

	if (n < 0)
		return denied("read inherited fd");
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("read: %s\n", buf);
	return ok("read an inherited descriptor");
}

static int
a_open_ro(char **a)
{
	return verdict(open(a[0], O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK),
		       "open O_RDONLY");
}

static int
a_open_rw(char **a)
{
	return verdict(open(a[0], O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK),
		       "open O_RDWR");
}

static int
a_write(char **a)
{
	int fd = open(a[0], O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		return denied("open O_WRONLY");
	return verdict(write(fd, "esc\n", 4) == 4 ? 0 : -1, "write");
}

static int
a_create(char **a)
{
	return verdict(open(a[0], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644),
		       "create");
}

/* list a directory: got through when it names anything but . and .. */
static int
a_readdir(char **a)
{
	int fd = open(a[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char buf[8192];
	long n, off, names = 0;

	if (fd < 0)
		return denied("open directory");
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			unsigned short reclen;
			const char *name = buf + off + 19;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
				names++;
			off += reclen;
		}
	}
	if (n < 0)
		return denied("getdents64");
	printf("names=%ld\n", names);
	if (names == 0) {
		errno = ENOENT;
		return denied("the listing is empty");
	}
	return ok("listed");
}

static int a_truncate(char **a) { return verdict(truncate(a[0], 0), "truncate"); }
static int a_rename(char **a) { return verdict(rename(a[0], a[1]), "rename"); }
static int a_link(char **a) { return verdict(link(a[0], a[1]), "link"); }
static int a_symlink(char **a) { return verdict(symlink(a[0], a[1]), "symlink"); }
static int a_mkfifo(char **a) { return verdict(mkfifo(a[0], 0644), "mkfifo"); }
static int a_unlink(char **a) { return verdict(unlink(a[0]), "unlink"); }
static int a_mkdir(char **a) { return verdict(mkdir(a[0], 0755), "mkdir"); }

static int
a_exec(char **a)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		execv(a[0], a);
		_exit(errno == EACCES || errno == EPERM ? 99 : 98);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return broken("fork/wait");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 99) {
		errno = EACCES;
		return denied("execve");
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return ok("execve ran the file");
	return broken("execve: status %d", st);
}

/* run a child; 0 -> ok, an exec/permission failure or signal -> denied */
static int
child_verdict(pid_t pid, const char *what)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return broken("fork/wait");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return ok(what);
	if (WIFSIGNALED(st)) {
		printf("denied: %s: killed by signal %d\n", what, WTERMSIG(st));
		return 1;
	}
	printf("denied: %s: status %d\n", what, WEXITSTATUS(st));
	return 1;
}

/* the dynamic loader maps and runs a file that execve may not run */
static int
a_ldso(char **a)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { a[0], a[1], NULL };
		int n = open("/dev/null", O_WRONLY);

		dup2(n, 1);
		execv(a[0], argv);
		_exit(97);
	}
	return child_verdict(pid, "ld.so ran the file");
}

/* copy the file into a memfd and execveat it */
static int
a_memfd_exec(char **a)
{
	char buf[65536];
	ssize_t n;
	int in = open(a[0], O_RDONLY | O_CLOEXEC);
	int m = memfd_create("esc", 0);
	pid_t pid;

	if (in < 0)
		return denied("open");
	if (m < 0)
		return denied("memfd_create");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(m, buf, (size_t)n) != n)
			return broken("write memfd");
	pid = fork();
	if (pid == 0) {
		char *argv[] = { a[0], NULL };
		char *envp[] = { NULL };

		syscall(SYS_execveat, m, "", argv, envp, AT_EMPTY_PATH);
		_exit(97);
	}
	return child_verdict(pid, "execveat of a memfd copy ran the file");
}

static int
a_mmap_exec(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return denied("open");
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	return verdict(p == MAP_FAILED ? -1 : 0, "mmap PROT_EXEC");
}

/* ---- metadata ------------------------------------------------------ */

static int
a_setflags(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int fl = 0;

	if (fd < 0)
		return denied("open");
	if (ioctl(fd, FS_IOC_GETFLAGS, &fl) != 0)
		return broken("FS_IOC_GETFLAGS: %s", strerror(errno));
	return verdict(ioctl(fd, FS_IOC_SETFLAGS, &fl), "FS_IOC_SETFLAGS");
}

static int
a_fssetxattr(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct fsxattr x;

	if (fd < 0)
		return denied("open");
	if (ioctl(fd, FS_IOC_FSGETXATTR, &x) != 0)
		return broken("FS_IOC_FSGETXATTR: %s", strerror(errno));
	return verdict(ioctl(fd, FS_IOC_FSSETXATTR, &x), "FS_IOC_FSSETXATTR");
}

static int a_setxattr(char **a) { return verdict(setxattr(a[0], "user.esc", "1", 1, 0), "setxattr"); }
static int a_removexattr(char **a) { return verdict(removexattr(a[0], a[1]), "removexattr"); }

static int
a_getxattr(char **a)
{
	char v[64];

	return verdict(getxattr(a[0], a[1], v, sizeof(v)), "getxattr");
}

static int
a_listxattr(char **a)
{
	char v[256];

	return verdict(listxattr(a[0], v, sizeof(v)), "listxattr");
}

static int a_chmod(char **a) { return verdict(chmod(a[0], 0640), "chmod"); }
static int a_chown(char **a) { return verdict(chown(a[0], getuid(), getgid()), "chown"); }
static int a_utime(char **a) { return verdict(utimensat(AT_FDCWD, a[0], NULL, 0), "utimensat"); }

static int
a_stat(char **a)
{
	struct stat st;

	if (stat(a[0], &st) != 0)
		return denied("stat");
	printf("size=%lld\n", (long long)st.st_size);
	return ok("stat");
}

static int
a_readlink(char **a)
{
	char b[PATH_MAX];
	ssize_t n = readlink(a[0], b, sizeof(b) - 1);

	if (n < 0)
		return denied("readlink");
	b[n] = '\0';
	printf("link=%s\n", b);
	return ok("readlink");
}

static int
a_inotify(char **a)
{
	int fd = inotify_init1(IN_CLOEXEC);

	if (fd < 0)
		return denied("inotify_init1");
	return verdict(inotify_add_watch(fd, a[0], IN_ALL_EVENTS),
		       "inotify_add_watch");
}

static int
a_fanotify(char **a)
{
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID, O_RDONLY);

	if (fd < 0)
		return denied("fanotify_init");
	return verdict(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN | FAN_ONDIR |
				     FAN_EVENT_ON_CHILD, AT_FDCWD, a[0]),
		       "fanotify_mark");
}

/* ---- holding something while the harness looks from outside ---------- */

/* Create READY, then wait (at most 20 s) until the harness removes it. */
static int
hold_until_released(const char *ready)
{
	int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct timespec t = { 0, 10 * 1000 * 1000 };
	int i;

	if (fd < 0)
		return broken("create %s: %s", ready, strerror(errno));
	close(fd);
	for (i = 0; i < 2000 && access(ready, F_OK) == 0; i++)
		nanosleep(&t, NULL);
	return 0;
}

static int
a_flock(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return denied("open");
	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		return denied("flock LOCK_EX");
	hold_until_released(a[1]);
	return ok("flock LOCK_EX held");
}

static int
a_fcntl_lock(char **a)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return denied("open");
	if (fcntl(fd, F_OFD_SETLK, &l) != 0)
		return denied("F_OFD_SETLK F_RDLCK");
	hold_until_released(a[1]);
	return ok("a read lock held");
}

static int
a_lease(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return denied("open");
	signal(SIGIO, SIG_IGN);	/* the break notice; the harness only looks */
	if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0)
		return denied("F_SETLEASE F_RDLCK");
	hold_until_released(a[1]);
	return ok("a read lease held");
}

/* mkdir -p with mode 0700 */
static int
mkdirs(const char *path)
{
	char p[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(p))
		return -1;
	memcpy(p, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return -1;
		p[i] = path[i];
	}
	return 0;
}

/* Hold run name NAME of UID by each way the command can reach: the
 * abstract socket "@nova-sandbox/place/<uid>/<name>", and (STATEDIR not
 * "-") an OFD write lock on STATEDIR/NAME.lock, the per-user run-name
 * directory when it lies under HOME.  Got through when either was taken;
 * whether a later run is blocked is for the harness to see. */
static int
a_squat(char **a)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct sockaddr_un sa;
	char lock[PATH_MAX];
	int n, fd, took = 0, s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
		     "nova-sandbox/place/%u/%s", (unsigned)num(a[1]), a[0]);
	if (s >= 0 && bind(s, (struct sockaddr *)&sa,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				       1 + (size_t)n)) == 0)
		took++;
	if (strcmp(a[2], "-") != 0 && mkdirs(a[2]) == 0) {
		snprintf(lock, sizeof(lock), "%s/%s.lock", a[2], a[0]);
		fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0 && fcntl(fd, F_OFD_SETLK, &l) == 0)
			took++;
	}
	if (!took)
		return denied("the run name (socket and lock)");
	hold_until_released(a[3]);
	return ok("the run name was held");
}

/* ---- lifetime and memory ------------------------------------------ */

/* a child in a session of its own that outlives the command; pid -> FILE */
static int
a_survivor(char **a)
{
	pid_t pid = fork();

	if (pid < 0)
		return broken("fork");
	if (pid == 0) {
		FILE *f;
		int n = open("/dev/null", O_RDWR);

		setsid();
		if (fork() != 0)	/* a grandchild: reparented, not waited */
			_exit(0);
		dup2(n, 0);
		dup2(n, 1);
		dup2(n, 2);
		f = fopen(a[0], "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
		alarm(30);	/* never outlive the suite */
		for (;;)
			pause();
	}
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 500 && access(a[0], F_OK) != 0; i++)
		usleep(2000);
	return ok("a survivor was started");
}

static unsigned long long
size_arg(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (*end == 'm')
		v <<= 20;
	return v;
}

static void
hold_secs(const char *s)
{
	struct timespec t = { num(s), 0 };

	nanosleep(&t, NULL);
}

static int
a_memfd(char **a)
{
	int m = memfd_create("esc", 0);

	if (m < 0)
		return denied("memfd_create");
	if (fallocate(m, 0, 0, (off_t)size_arg(a[0])) != 0)
		return denied("fallocate");
	hold_secs(a[1]);
	return ok("memfd memory held");
}

static int
a_shmanon(char **a)
{
	size_t n = (size_t)size_arg(a[0]);
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return denied("mmap");
	memset(p, 1, n);
	hold_secs(a[1]);
	return ok("shared memory held");
}

static int
a_tmpfill(char **a)
{
	static char buf[1 << 20];
	unsigned long long n = size_arg(a[1]) >> 20;
	int fd = open(a[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return denied("create");
	memset(buf, 1, sizeof(buf));
	for (unsigned long long i = 0; i < n; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return denied("write");
	hold_secs(a[2]);
	return ok("file memory held");
}

/* ---- network ------------------------------------------------------- */

static int
a_socket(int fam, int type, int proto, const char *what)
{
	return verdict(socket(fam, type | SOCK_CLOEXEC, proto), what);
}

static int a_vsock(char **a) { (void)a; return a_socket(AF_VSOCK, SOCK_STREAM, 0, "socket AF_VSOCK"); }
static int a_nl_route(char **a) { (void)a; return a_socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, "socket AF_NETLINK NETLINK_ROUTE"); }
static int a_nl_diag(char **a) { (void)a; return a_socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG, "socket AF_NETLINK NETLINK_SOCK_DIAG"); }

/* a new user and network namespace make AF_PACKET creatable */
static int
a_packet(char **a)
{
	(void)a;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
		return denied("unshare user+net");
	return a_socket(AF_PACKET, SOCK_RAW, 0, "socket AF_PACKET");
}

/* a raw IP socket in the caller's network namespace: CAP_NET_RAW there */
static int
a_rawip(char **a)
{
	(void)a;
	return a_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP, "socket AF_INET SOCK_RAW");
}
static int
a_inet(int fam, int type, int proto, const char *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int s;

	memset(&ss, 0, sizeof(ss));
	if (fam == AF_INET) {
		struct sockaddr_in *si = (struct sockaddr_in *)&ss;

		si->sin_family = AF_INET;
		si->sin_port = htons((unsigned short)num(port));
		si->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*si);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)num(port));
		s6->sin6_addr = in6addr_loopback;
		len = sizeof(*s6);
	}
	s = socket(fam, type | SOCK_CLOEXEC, proto);
	if (s < 0)
		return denied("socket");
	if (type == SOCK_DGRAM)
		return verdict(sendto(s, "x", 1, 0, (struct sockaddr *)&ss, len)
			       == 1 ? 0 : -1, "sendto");
	return verdict(connect(s, (struct sockaddr *)&ss, len), "connect");
}

static int a_tcp(char **a) { return a_inet(AF_INET, SOCK_STREAM, 0, a[0]); }
static int a_mptcp(char **a) { return a_inet(AF_INET, SOCK_STREAM, IPPROTO_MPTCP, a[0]); }
static int a_udp(char **a) { return a_inet(AF_INET, SOCK_DGRAM, 0, a[0]); }
static int a_udp6(char **a) { return a_inet(AF_INET6, SOCK_DGRAM, 0, a[0]); }

/* ---- network by name (--net-allow): what the proxy must refuse ------ */

/* A TCP connection to host:port (names and numeric forms as
 * getaddrinfo takes them), or -1. */
static int
tcp_to(const char *host, const char *port)
{
	struct addrinfo hints, *res, *ai;
	int s = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		return -1;
	for (ai = res; ai != NULL && s < 0; ai = ai->ai_next) {
		s = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s >= 0 && connect(s, ai->ai_addr, ai->ai_addrlen) != 0) {
			close(s);
			s = -1;
		}
	}
	freeaddrinfo(res);
	return s;
}

/* The proxy an environment variable names ("<scheme>://host:port[/]"),
 * connected, or -1 (errno ENOENT when the variable is unset). */
static int
proxy_from(const char *var)
{
	const char *v = getenv(var), *h;
	char host[128], *colon;

	if (v == NULL || (h = strstr(v, "://")) == NULL) {
		errno = ENOENT;
		return -1;
	}
	snprintf(host, sizeof(host), "%s", h + 3);
	host[strcspn(host, "/")] = '\0';
	colon = strrchr(host, ':');
	if (colon == NULL)
		return -1;
	*colon = '\0';
	return tcp_to(host, colon + 1);
}

/* Read the reply's head (to the blank line, at most n-1 bytes). */
static void
read_head(int s, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	buf[0] = '\0';
	while (got + 1 < n && strstr(buf, "\r\n\r\n") == NULL &&
	       (r = read(s, buf + got, n - 1 - got)) > 0) {
		got += (size_t)r;
		buf[got] = '\0';
	}
}

/* reach FORM HOST PORT: with HTTPS_PROXY set (inside a --net-allow
 * wall), CONNECT FORM through it, got through on a 200; without it (the
 * control), a direct connection to HOST:PORT. */
static int
a_reach(char **a)
{
	char req[512], head[1024];
	int s = proxy_from("HTTPS_PROXY");

	if (s < 0 && errno == ENOENT)
		return verdict(tcp_to(a[1], a[2]), "connect");
	if (s < 0)
		return denied("connect to the proxy");
	snprintf(req, sizeof(req), "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n",
		 a[0], a[0]);
	if (write(s, req, strlen(req)) != (ssize_t)strlen(req))
		return denied("write CONNECT");
	read_head(s, head, sizeof(head));
	if (strncmp(head, "HTTP/1.1 200", 12) == 0 ||
	    strncmp(head, "HTTP/1.0 200", 12) == 0)
		return ok("CONNECT");
	errno = EACCES;
	head[strcspn(head, "\r\n")] = '\0';
	printf("proxy said: %s\n", head);
	return denied("CONNECT");
}

/* socks ATYP ADDR HOST PORT: with ALL_PROXY set, a SOCKS5 CONNECT to ADDR
 * (ATYP 1: an IPv4 literal; 3: a name; 4: an IPv6 literal), got through
 * on reply 0; without it, a direct connection to HOST:PORT. */
static int
a_socks(char **a)
{
	unsigned char m[300], r[16];
	size_t n = 0, len = strlen(a[1]);
	int atyp = (int)num(a[0]);
	unsigned port = (unsigned)num(a[3]);
	int s = proxy_from("ALL_PROXY"); /* last: num() may set errno */

	if (s < 0 && errno == ENOENT)
		return verdict(tcp_to(a[2], a[3]), "connect");
	if (s < 0)
		return denied("connect to the proxy");
	if (write(s, "\x05\x01\x00", 3) != 3 || read(s, r, 2) != 2 ||
	    r[0] != 5 || r[1] != 0)
		return denied("SOCKS5 greeting");
	m[n++] = 5, m[n++] = 1, m[n++] = 0, m[n++] = (unsigned char)atyp;
	if (atyp == 3 && len < 256) {
		m[n++] = (unsigned char)len;
		memcpy(m + n, a[1], len), n += len;
	} else if (inet_pton(atyp == 4 ? AF_INET6 : AF_INET, a[1], m + n) == 1) {
		n += atyp == 4 ? 16 : 4;
	} else {
		return broken("socks: bad address %s\n", a[1]);
	}
	m[n++] = (unsigned char)(port >> 8), m[n++] = (unsigned char)port;
	if (write(s, m, n) != (ssize_t)n || read(s, r, 2) != 2)
		return denied("SOCKS5 request");
	if (r[1] == 0)
		return ok("SOCKS5 CONNECT");
	errno = EACCES;
	printf("proxy said: SOCKS5 reply %u\n", r[1]);
	return denied("SOCKS5 CONNECT");
}

/* get URL HOST PORT: with HTTP_PROXY set, an absolute-URI GET of URL
 * through it, got through unless the proxy refused (a 4xx of its own);
 * without it, a direct connection to HOST:PORT. */
static int
a_get(char **a)
{
	char req[512], head[1024];
	int s = proxy_from("HTTP_PROXY");

	if (s < 0 && errno == ENOENT)
		return verdict(tcp_to(a[1], a[2]), "connect");
	if (s < 0)
		return denied("connect to the proxy");
	snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: %s:%s\r\n"
		 "Connection: close\r\n\r\n", a[0], a[1], a[2]);
	if (write(s, req, strlen(req)) != (ssize_t)strlen(req))
		return denied("write GET");
	read_head(s, head, sizeof(head));
	head[strcspn(head, "\r\n")] = '\0';
	printf("proxy said: %s\n", head);
	if (strncmp(head, "HTTP/1.", 7) == 0 && strncmp(head + 8, " 4", 2) == 0) {
		errno = EACCES;
		return denied("GET");
	}
	return ok("GET (the proxy did not refuse it)");
}

static int
a_io_uring(char **a)
{
	struct io_uring_params p;

	(void)a;
	memset(&p, 0, sizeof(p));
	return verdict(syscall(SYS_io_uring_setup, 4, &p), "io_uring_setup");
}

/* The address of unix socket name (abstract: in the abstract namespace,
 * @name): its length, or 0 when the name is too long. */
static socklen_t
unix_addr(const char *name, int abstract, struct sockaddr_un *sa)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n + 2 > sizeof(sa->sun_path))
		return 0;
	memcpy(sa->sun_path + (abstract ? 1 : 0), name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			   (abstract ? 1 : 0));
}

static int
a_unix_connect(const char *name, int abstract)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(name, abstract, &sa);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return denied("socket AF_UNIX");
	if (len == 0)
		return broken("name too long");
	return verdict(connect(s, (struct sockaddr *)&sa, len),
		       abstract ? "connect abstract" : "connect pathname");
}

static int a_abstract(char **a) { return a_unix_connect(a[0], 1); }
static int a_unixpath(char **a) { return a_unix_connect(a[0], 0); }

/* READY: create the file that says the holder is ready */
static int
ready(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return broken("ready file %s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/* abstract-listen NAME READY SECS: bind the abstract socket @NAME, say
 * READY, and accept for SECS seconds (an outside client's way in) */
static int
a_abstract_listen(char **a)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(a[0], 1, &sa);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	time_t end = time(NULL) + strtol(a[2], NULL, 10);

	if (s < 0)
		return denied("socket AF_UNIX");
	if (len == 0)
		return broken("name too long");
	if (bind(s, (struct sockaddr *)&sa, len) != 0 || listen(s, 8) != 0)
		return denied("bind abstract");
	if (ready(a[1]) != 0)
		return 2;
	while (time(NULL) < end) {
		struct timeval tv = { 0, 100000 };
		fd_set rd;

		FD_ZERO(&rd);
		FD_SET(s, &rd);
		if (select(s + 1, &rd, NULL, NULL, &tv) > 0) {
			int c = accept(s, NULL, NULL);

			if (c >= 0)
				close(c);
		}
	}
	return ok("held the abstract socket");
}

/* inotify-hog READY SECS: take every inotify instance the user may have
 * (fs.inotify.max_user_instances), say READY, hold them SECS seconds */
static int
a_inotify_hog(char **a)
{
	int n = 0;

	while (n < 100000 && inotify_init1(IN_CLOEXEC) >= 0)
		n++;
	printf("instances=%d (%s)\n", n, strerror(errno));
	if (ready(a[0]) != 0)
		return 2;
	sleep(strtol(a[1], NULL, 10) > 60 ? 60u : (unsigned)strtol(a[1], NULL, 10));
	return ok("held the user's inotify instances");
}

/* inotify-starved: 0 when this process of the user gets no inotify
 * instance (another process of the user holds them all) */
static int
a_inotify_starved(char **a)
{
	int fd = inotify_init1(IN_CLOEXEC);

	(void)a;
	if (fd < 0) {
		printf("starved: inotify_init1: %s\n", strerror(errno));
		return 0;
	}
	close(fd);
	printf("not starved: an inotify instance was had\n");
	return 1;
}

/* ---- keyrings ------------------------------------------------------ */

static int
a_key_read(char **a)
{
	char buf[128];
	long k = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING,
			 "user", a[0], 0);
	long n;

	if (k < 0)
		return denied("keyctl search @u");
	n = syscall(SYS_keyctl, KEYCTL_READ, k, buf, sizeof(buf) - 1);
	if (n < 0)
		return denied("keyctl read");
	buf[n < (long)sizeof(buf) ? n : (long)sizeof(buf) - 1] = '\0';
	printf("key=%s\n", buf);
	return ok("read a key of @u");
}

static int
a_key_add(char **a)
{
	return verdict(syscall(SYS_add_key, "user", a[0], "planted", 7,
			       num(a[1])), "add_key");
}

static int
a_key_list(char **a)
{
	char buf[256];

	(void)a;
	return verdict(syscall(SYS_keyctl, KEYCTL_READ, KEY_SPEC_USER_KEYRING,
			       buf, sizeof(buf)), "keyctl read @u");
}

/* ---- posix and system v ipc --------------------------------------- */

static int
a_mq_recv(char **a)
{
	char buf[8192];
	mqd_t q = mq_open(a[0], O_RDONLY | O_NONBLOCK);

	if (q == (mqd_t)-1)
		return denied("mq_open");
	return verdict(mq_receive(q, buf, sizeof(buf), NULL) < 0 ? -1 : 0,
		       "mq_receive");
}

static int
a_mq_send(char **a)
{
	mqd_t q = mq_open(a[0], O_WRONLY | O_NONBLOCK);

	if (q == (mqd_t)-1)
		return denied("mq_open");
	return verdict(mq_send(q, "planted", 7, 0), "mq_send");
}

static key_t
key_arg(const char *s)
{
	return (key_t)num(s);
}

static int
a_shm_read(char **a)
{
	int id = shmget(key_arg(a[0]), 0, 0);
	char *p;

	if (id < 0)
		return denied("shmget");
	p = shmat(id, NULL, SHM_RDONLY);
	if (p == (void *)-1)
		return denied("shmat");
	printf("shm=%.16s\n", p);
	return ok("attached another program's segment");
}

static int
a_shm_rm(char **a)
{
	int id = shmget(key_arg(a[0]), 0, 0);

	if (id < 0)
		return denied("shmget");
	return verdict(shmctl(id, IPC_RMID, NULL), "shmctl IPC_RMID");
}

static int
a_msg_recv(char **a)
{
	struct { long t; char b[64]; } m;
	int id = msgget(key_arg(a[0]), 0);

	if (id < 0)
		return denied("msgget");
	return verdict(msgrcv(id, &m, sizeof(m.b), 0, IPC_NOWAIT) < 0 ? -1 : 0,
		       "msgrcv");
}

static int
a_msg_send(char **a)
{
	struct { long t; char b[8]; } m = { 1, "planted" };
	int id = msgget(key_arg(a[0]), 0);

	if (id < 0)
		return denied("msgget");
	return verdict(msgsnd(id, &m, 7, IPC_NOWAIT), "msgsnd");
}

static int
a_sem_take(char **a)
{
	struct sembuf b = { 0, -1, IPC_NOWAIT };
	int id = semget(key_arg(a[0]), 0, 0);

	if (id < 0)
		return denied("semget");
	return verdict(semop(id, &b, 1), "semop take");
}

/* leave objects behind: KEY (shm of SIZE), KEY+1 (msg), KEY+2 (sem) */
static int
a_ipc_leave(char **a)
{
	key_t k = key_arg(a[0]);
	size_t n = (size_t)size_arg(a[1]);
	int id = shmget(k, n, IPC_CREAT | IPC_EXCL | 0600);
	char *p;

	if (id < 0)
		return denied("shmget IPC_CREAT");
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		return denied("shmat");
	memset(p, 1, n);
	shmdt(p);
	if (msgget(k + 1, IPC_CREAT | IPC_EXCL | 0600) < 0)
		return denied("msgget IPC_CREAT");
	if (semget(k + 2, 1, IPC_CREAT | IPC_EXCL | 0600) < 0)
		return denied("semget IPC_CREAT");
	return ok("left a segment, a queue and a semaphore");
}

/* ---- terminal ------------------------------------------------------ */

static int
a_tiocsti(char **a)
{
	char c = '\n';
	unsigned long cmd = TIOCSTI;

	if (a[0] && strcmp(a[0], "high") == 0)
		cmd |= 1UL << 32;
	return verdict(syscall(SYS_ioctl, 0, cmd, &c), "ioctl TIOCSTI");
}

/* TIOCEXCL makes the caller's terminal refuse every later open of it,
 * after the run too.  Undone at once when it got through, so the harness's
 * pty is left as it was. */
static int
a_tiocexcl(char **a)
{
	long rc = syscall(SYS_ioctl, 0, (unsigned long)TIOCEXCL);

	(void)a;
	if (rc == 0)
		ioctl(0, TIOCNXCL);
	return verdict(rc, "ioctl TIOCEXCL");
}

/* TIOCLINUX only does something on a virtual console; on a pty the tty
 * layer answers ENOTTY/EINVAL.  Reaching that answer is the power (on a
 * console it would paste); the filter answers EPERM before the driver. */
static int
a_tioclinux(char **a)
{
	char sub[2] = { 2 /* TIOCL_SETSEL */, 0 };
	unsigned long cmd = TIOCLINUX;

	if (a[0] && strcmp(a[0], "high") == 0)
		cmd |= 1UL << 32;
	if (syscall(SYS_ioctl, 0, cmd, sub) == 0 || errno != EPERM) {
		printf("the tty layer answered: %s\n", strerror(errno));
		return ok("ioctl TIOCLINUX reached the tty");
	}
	return denied("ioctl TIOCLINUX");
}

/* the i386 entry (int $0x80) from a 64-bit process: ioctl(0, TIOCSTI) */
static int
a_tiocsti_i386(char **a)
{
	pid_t pid;

	(void)a;
	pid = fork();
	if (pid == 0) {
#if defined(__x86_64__)
		/* the i386 entry sees 32-bit pointers: a byte below 4 GiB */
		char *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		long r;

		if (c == MAP_FAILED)
			_exit(3);
		*c = '\n';
		__asm__ volatile("int $0x80"
				 : "=a"(r)
				 : "a"(54L), "b"(0L), "c"((long)TIOCSTI),
				   "d"((long)(uintptr_t)c)
				 : "memory");
		_exit(r == 0 ? 0 : 1);
#else
		_exit(3);
#endif
	}
	return child_verdict(pid, "i386 ioctl TIOCSTI");
}

static int
a_tty_open(char **a)
{
	(void)a;
	return verdict(open("/dev/tty", O_RDWR | O_CLOEXEC), "open /dev/tty");
}

/* ---- namespaces ---------------------------------------------------- */

/* a user+mount namespace, bind SRC on DST, read DST/FILE */
static int
a_userns_mount(char **a)
{
	char p[PATH_MAX];
	int fd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
		return denied("unshare user+mount");
	if (mount(a[0], a[1], NULL, MS_BIND, NULL) != 0)
		return denied("mount --bind");
	snprintf(p, sizeof(p), "%s/%s", a[1], a[2]);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	return verdict(fd, "read through the bind mount");
}

/* rule 5a: unmount or remount rw the bind on DIR (MNT_DETACH; then again
 * in a user+mount namespace of its own), whatever works, then append TEXT
 * to FILE: the attempts' own failures are no verdict, the write is */
static void
unbind(const char *dir)
{
	(void)umount2(dir, MNT_DETACH);
	(void)mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND, NULL);
}

static int
a_unmount_write(char **a)
{
	size_t n = strlen(a[2]);
	int fd;

	unbind(a[0]);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0)
		unbind(a[0]);
	fd = open(a[1], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return denied("open after unmounting");
	if (write(fd, a[2], n) != (ssize_t)n) {
		close(fd);
		return denied("write after unmounting");
	}
	close(fd);
	return ok("unmounted or not, the file was written");
}

/* ---- the table ------------------------------------------------------ */

struct attack {
	const char *name;
	int nargs;
	int (*fn)(char **);
};

static const struct attack attacks[] = {
	{ "prlimit", 1, a_prlimit },
	{ "prio-proc", 1, a_prio_proc },
	{ "prio-pgrp", 1, a_prio_pgrp },
	{ "prio-user", 1, a_prio_user },
	{ "affinity", 1, a_affinity },
	{ "setsched", 1, a_setsched },
	{ "setparam", 1, a_setparam },
	{ "setattr", 1, a_setattr },
	{ "ioprio", 1, a_ioprio },
	{ "ioprio-pgrp", 1, a_ioprio_pgrp },
	{ "ioprio-user", 0, a_ioprio_user },
	{ "kcmp", 1, a_kcmp },
	{ "migrate", 1, a_migrate },
	{ "move-pages", 1, a_move_pages },
	{ "kill", 1, a_kill },
	{ "killpg", 1, a_killpg },
	{ "kill-all", 0, a_kill_all },
	{ "tgkill", 1, a_tgkill },
	{ "sigqueue", 1, a_sigqueue },
	{ "pidfd-signal", 1, a_pidfd_signal },
	{ "fown", 1, a_fown },
	{ "ptrace", 1, a_ptrace_pid },
	{ "ptrace-parent", 0, a_ptrace_parent },
	{ "kill-parent", 0, a_kill_parent },
	{ "vmread", 2, a_vmread },
	{ "getfd", 2, a_getfd },
	{ "read", 1, a_read },
	{ "readfd", 1, a_readfd },
	{ "open-ro", 1, a_open_ro },
	{ "open-rw", 1, a_open_rw },
	{ "write", 1, a_write },
	{ "create", 1, a_create },
	{ "readdir", 1, a_readdir },
	{ "truncate", 1, a_truncate },
	{ "rename", 2, a_rename },
	{ "link", 2, a_link },
	{ "symlink", 2, a_symlink },
	{ "mkfifo", 1, a_mkfifo },
	{ "unlink", 1, a_unlink },
	{ "mkdir", 1, a_mkdir },
	{ "exec", 1, a_exec },
	{ "ldso", 2, a_ldso },
	{ "memfd-exec", 1, a_memfd_exec },
	{ "mmap-exec", 1, a_mmap_exec },
	{ "setflags", 1, a_setflags },
	{ "fssetxattr", 1, a_fssetxattr },
	{ "setxattr", 1, a_setxattr },
	{ "removexattr", 2, a_removexattr },
	{ "getxattr", 2, a_getxattr },
	{ "listxattr", 1, a_listxattr },
	{ "chmod", 1, a_chmod },
	{ "chown", 1, a_chown },
	{ "utime", 1, a_utime },
	{ "stat", 1, a_stat },
	{ "readlink", 1, a_readlink },
	{ "inotify", 1, a_inotify },
	{ "fanotify", 1, a_fanotify },
	{ "flock", 2, a_flock },
	{ "fcntl-lock", 2, a_fcntl_lock },
	{ "lease", 2, a_lease },
	{ "squat", 4, a_squat },
	{ "survivor", 1, a_survivor },
	{ "memfd", 2, a_memfd },
	{ "shmanon", 2, a_shmanon },
	{ "tmpfill", 3, a_tmpfill },
	{ "vsock", 0, a_vsock },
	{ "netlink-route", 0, a_nl_route },
	{ "netlink-diag", 0, a_nl_diag },
	{ "packet", 0, a_packet },
	{ "rawip", 0, a_rawip },
	{ "tcp", 1, a_tcp },
	{ "mptcp", 1, a_mptcp },
	{ "udp", 1, a_udp },
	{ "udp6", 1, a_udp6 },
	{ "reach", 3, a_reach },
	{ "socks", 4, a_socks },
	{ "get", 3, a_get },
	{ "io-uring", 0, a_io_uring },
	{ "abstract", 1, a_abstract },
	{ "abstract-listen", 3, a_abstract_listen },
	{ "inotify-hog", 2, a_inotify_hog },
	{ "inotify-starved", 0, a_inotify_starved },
	{ "unixpath", 1, a_unixpath },
	{ "key-read", 1, a_key_read },
	{ "key-add", 2, a_key_add },
	{ "key-list", 0, a_key_list },
	{ "mq-recv", 1, a_mq_recv },
	{ "mq-send", 1, a_mq_send },
	{ "shm-read", 1, a_shm_read },
	{ "shm-rm", 1, a_shm_rm },
	{ "msg-recv", 1, a_msg_recv },
	{ "msg-send", 1, a_msg_send },
	{ "sem-take", 1, a_sem_take },
	{ "ipc-leave", 2, a_ipc_leave },
	{ "tiocsti", -1, a_tiocsti },
	{ "tioclinux", -1, a_tioclinux },
	{ "tiocexcl", 0, a_tiocexcl },
	{ "tiocsti-i386", 0, a_tiocsti_i386 },
	{ "tty-open", 0, a_tty_open },
	{ "userns-mount", 3, a_userns_mount },
	{ "unmount-write", 3, a_unmount_write },
};

/* Copied by an attack as "python3" into a PATH entry it may write: a
 * program that leaves <its dir>/../../o/pwned (the world's $O, outside
 * every root) when it runs, then does what python3 would (so whoever ran
 * it gets its answer and says nothing). */
static int
planted_python(char **argv)
{
	char self[PATH_MAX], mark[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	int fd;

	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			*slash = '\0';
			snprintf(mark, sizeof(mark), "%s/../../o/pwned", self);
			fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
		}
	}
	execv("/usr/bin/python3", argv);
	return 127;
}

int
main(int argc, char **argv)
{
	size_t i;
	const char *base = strrchr(argv[0], '/');

	if (strcmp(base != NULL ? base + 1 : argv[0], "python3") == 0)
		return planted_python(argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(attacks) / sizeof(attacks[0]); i++) {
		const struct attack *t = &attacks[i];

		if (strcmp(argv[1], t->name) != 0)
			continue;
		if (t->nargs >= 0 && argc - 2 != t->nargs)
			return broken("%s wants %d argument(s)", t->name,
				      t->nargs);
		return t->fn(argv + 2);
	}
	return broken("usage: esc <attack> ARGS... (unknown: %s)",
		      argc > 1 ? argv[1] : "-");
}
