/* SPDX-License-Identifier: MIT */
/* machine.c -- the machine probes of machine.h: each tries the facility
 * itself (in a child where a refusal could kill the caller), never reads
 * a version number and guesses. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#define CGROUP2_MAGIC 0x63677270

static int say(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
say(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return 0;
}

/* Run fn in a child; 1 when it exits 0, else 0 and why says how it
 * ended (its exit status is fn's errno, or a signal). */
static int
in_child(int (*fn)(void), const char *what, char *why, size_t n)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return say(why, n, "%s: fork: %s", what, strerror(errno));
	if (pid == 0)
		_exit(fn());
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return say(why, n, "%s: waitpid: %s", what, strerror(errno));
	if (WIFSIGNALED(st))
		return say(why, n, "%s: killed by signal %d (%s)", what,
			   WTERMSIG(st), strsignal(WTERMSIG(st)));
	if (WEXITSTATUS(st) != 0)
		return say(why, n, "%s: %s", what, strerror(WEXITSTATUS(st)));
	return 1;
}

/* ---- the i386 entry and MAP_32BIT ------------------------------------ */

static int
c_i386(void)
{
#if defined(__x86_64__)
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	return r == (long)getpid() ? 0 : ENOSYS;
#else
	return ENOSYS;
#endif
}

static int
p_i386(char *why, size_t n)
{
#if defined(__x86_64__)
	return in_child(c_i386, "getpid through int $0x80 (the i386 entry)",
			why, n);
#else
	return say(why, n, "not an x86_64 machine: no i386 entry to try");
#endif
}

static int
p_map32(char *why, size_t n)
{
#if defined(__x86_64__)
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	if (p == MAP_FAILED)
		return say(why, n, "mmap(MAP_32BIT): %s", strerror(errno));
	munmap(p, 4096);
	if ((uintptr_t)p >= ((uintptr_t)1 << 32))
		return say(why, n, "mmap(MAP_32BIT) gave an address above 4 GiB");
	return 1;
#else
	return say(why, n, "not an x86_64 machine: no MAP_32BIT");
#endif
}

/* ---- terminals ------------------------------------------------------- */

/* a new pty: the master's fd, the slave's name in name */
static int
new_pty(char *name, size_t n)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (m < 0)
		return -1;
	if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, n) != 0) {
		int e = errno;

		close(m);
		errno = e;
		return -1;
	}
	return m;
}

static int
p_tty(char *why, size_t n)
{
	char name[64];
	int m = new_pty(name, sizeof(name)), s;

	if (m < 0)
		return say(why, n, "no pty (/dev/ptmx): %s", strerror(errno));
	s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		say(why, n, "open %s: %s", name, strerror(errno));
		close(m);
		return 0;
	}
	close(s);
	close(m);
	return 1;
}

/* TIOCSTI on our own controlling terminal, as an ordinary program would */
static int
c_tiocsti(void)
{
	char name[64], c = '\n';
	int m, s;

	if (setsid() < 0)
		return errno;
	m = new_pty(name, sizeof(name));
	if (m < 0)
		return errno;
	s = open(name, O_RDWR);
	if (s < 0 || ioctl(s, TIOCSCTTY, 0) != 0)
		return errno;
	return ioctl(s, TIOCSTI, &c) == 0 ? 0 : errno;
}

static int
p_tiocsti(char *why, size_t n)
{
	char sys[16] = "unknown";
	FILE *f;

	if (in_child(c_tiocsti, "TIOCSTI on the caller's own terminal", why, n))
		return 1;
	f = fopen("/proc/sys/dev/tty/legacy_tiocsti", "re");
	if (f != NULL) {
		if (fgets(sys, sizeof(sys), f) != NULL)
			sys[strcspn(sys, "\n")] = '\0';
		fclose(f);
	}
	snprintf(why + strlen(why), n - strlen(why),
		 " (dev.tty.legacy_tiocsti=%s)", sys);
	return 0;
}

/* ---- network ----------------------------------------------------------- */

static int
p_ipv6(char *why, size_t n)
{
	struct sockaddr_in6 a;
	int s = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return say(why, n, "no IPv6 socket: %s", strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_addr = in6addr_loopback;
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
		say(why, n, "bind [::1]: %s", strerror(errno));
		close(s);
		return 0;
	}
	close(s);
	return 1;
}

static int
p_mptcp(char *why, size_t n)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_MPTCP);

	if (s < 0)
		return say(why, n, "no MPTCP socket (net.mptcp.enabled?): %s",
			   strerror(errno));
	close(s);
	return 1;
}

static int
p_vsock(char *why, size_t n)
{
	int s = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return say(why, n, "no AF_VSOCK socket (no vsock transport "
			   "here?): %s", strerror(errno));
	close(s);
	return 1;
}

/* ---- io_uring and memfd ------------------------------------------------ */

static int
p_io_uring(char *why, size_t n)
{
	struct io_uring_params par;
	long fd;

	memset(&par, 0, sizeof(par));
	fd = syscall(__NR_io_uring_setup, 1, &par);
	if (fd < 0)
		return say(why, n, "io_uring_setup (kernel.io_uring_disabled?): %s",
			   strerror(errno));
	close((int)fd);
	return 1;
}

/* /bin/true copied into a memfd and run from it */
static int
c_memfd_exec(void)
{
	static char *const argv[] = { "true", NULL }, *const envp[] = { NULL };
	char buf[65536];
	ssize_t r;
	int in = open("/bin/true", O_RDONLY | O_CLOEXEC);
	int m = memfd_create("ns-machine", MFD_CLOEXEC);

	if (in < 0 || m < 0)
		return errno;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(m, buf, (size_t)r) != r)
			return EIO;
	fexecve(m, argv, envp);
	return errno;
}

static int
p_memfd_exec(char *why, size_t n)
{
	return in_child(c_memfd_exec, "fexecve of a memfd (vm.memfd_noexec?)",
			why, n);
}

/* ---- namespaces ------------------------------------------------------- */

/* a user namespace, and in it the mount and network namespaces the
 * attacks make (a restricted userns may refuse the second step) */
static int
c_userns(void)
{
	if (unshare(CLONE_NEWUSER) != 0)
		return errno;
	return unshare(CLONE_NEWNS | CLONE_NEWNET) == 0 ? 0 : errno;
}

static int
p_userns(char *why, size_t n)
{
	return in_child(c_userns, "unshare(user), then mount+net in it, as "
			"this user (user.max_user_namespaces, an LSM's userns "
			"restriction?)", why, n);
}

static int
c_netns(void)
{
	return unshare(CLONE_NEWNET) == 0 ? 0 : errno;
}

static int
p_netns(char *why, size_t n)
{
	return in_child(c_netns, "unshare(network namespace)", why, n);
}

/* ---- audit and capabilities ------------------------------------------ */

/* AUDIT_GET asked of the kernel: it answers with the status, or an error */
static int
audit_ask(int s)
{
	struct {
		struct nlmsghdr h;
		char body[1024];
	} m;
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	ssize_t r;

	memset(&m, 0, sizeof(m.h));
	m.h.nlmsg_len = NLMSG_LENGTH(0);
	m.h.nlmsg_type = AUDIT_GET;
	m.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	m.h.nlmsg_seq = 1;
	if (sendto(s, &m, m.h.nlmsg_len, 0, (struct sockaddr *)&k,
		   sizeof(k)) < 0)
		return errno;
	r = recv(s, &m, sizeof(m), 0);
	if (r < 0)
		return errno;
	if ((size_t)r >= NLMSG_LENGTH(sizeof(int)) && m.h.nlmsg_type == NLMSG_ERROR) {
		int e = -*(int *)NLMSG_DATA(&m.h);

		return e;
	}
	return 0;
}

static int
p_audit(char *why, size_t n)
{
	struct timeval tv = { .tv_sec = 2 };
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT), e;

	if (s < 0)
		return say(why, n, "no audit socket (a kernel without audit?): %s",
			   strerror(errno));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	e = audit_ask(s);
	close(s);
	if (e != 0)
		return say(why, n, "the kernel's audit did not answer AUDIT_GET: %s",
			   strerror(e));
	return 1;
}

static int
p_ambient(char *why, size_t n)
{
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_NET_RAW, 0, 0) < 0)
		return say(why, n, "no ambient capabilities: %s", strerror(errno));
	return 1;
}

/* ---- cgroup v2 --------------------------------------------------------- */

static int
p_cgroup2(char *why, size_t n)
{
	struct statfs sf;

	if (statfs("/sys/fs/cgroup", &sf) != 0)
		return say(why, n, "/sys/fs/cgroup: %s", strerror(errno));
	if ((unsigned long)sf.f_type != CGROUP2_MAGIC)
		return say(why, n, "/sys/fs/cgroup is not cgroup v2");
	return 1;
}

static int
controller(const char *want, char *why, size_t n)
{
	char line[512], *tok, *save = NULL;
	FILE *f = fopen("/sys/fs/cgroup/cgroup.controllers", "re");

	if (f == NULL)
		return say(why, n, "/sys/fs/cgroup/cgroup.controllers: %s",
			   strerror(errno));
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	for (tok = strtok_r(line, " \n", &save); tok != NULL;
	     tok = strtok_r(NULL, " \n", &save))
		if (strcmp(tok, want) == 0)
			return 1;
	return say(why, n, "the cgroup v2 controller %s is not enabled here", want);
}

static int p_cg_memory(char *why, size_t n) { return controller("memory", why, n); }
static int p_cg_pids(char *why, size_t n) { return controller("pids", why, n); }

/* ---- the table ------------------------------------------------------- */

static const struct probe {
	const char *name;
	const char *what;
	int (*fn)(char *why, size_t n);
} probes[] = {
	{ "i386", "the i386 syscall entry (int $0x80) from a 64-bit process", p_i386 },
	{ "map32", "mmap with MAP_32BIT", p_map32 },
	{ "tty", "a pty (/dev/ptmx)", p_tty },
	{ "tiocsti", "TIOCSTI on one's own controlling terminal", p_tiocsti },
	{ "ipv6", "an IPv6 socket bound to [::1]", p_ipv6 },
	{ "mptcp", "an MPTCP socket", p_mptcp },
	{ "vsock", "an AF_VSOCK socket", p_vsock },
	{ "io_uring", "an io_uring instance", p_io_uring },
	{ "memfd-exec", "executing a memfd", p_memfd_exec },
	{ "userns", "an unprivileged user namespace, with mount and network namespaces in it", p_userns },
	{ "netns", "a network namespace", p_netns },
	{ "audit", "the kernel's audit answering AUDIT_GET", p_audit },
	{ "ambient", "ambient capabilities (prctl PR_CAP_AMBIENT)", p_ambient },
	{ "cgroup2", "cgroup v2 at /sys/fs/cgroup", p_cgroup2 },
	{ "cgroup-memory", "the cgroup v2 memory controller", p_cg_memory },
	{ "cgroup-pids", "the cgroup v2 pids controller", p_cg_pids },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static const struct probe *
find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NPROBES; i++)
		if (strlen(probes[i].name) == len &&
		    strncmp(probes[i].name, name, len) == 0)
			return &probes[i];
	return NULL;
}

const char *
machine_probe_name(size_t i)
{
	return i < NPROBES ? probes[i].name : NULL;
}

const char *
machine_probe_what(const char *name)
{
	const struct probe *p = find(name, strlen(name));

	return p != NULL ? p->what : NULL;
}

/* One "name=yes|no" entry of NOVA_MACHINE [e, end): MACHINE_BAD when
 * malformed, else its answer and *p its probe. */
static enum machine_answer
forced_entry(const char *e, const char *end, const struct probe **p)
{
	const char *eq = memchr(e, '=', (size_t)(end - e));
	size_t vlen;

	if (eq == NULL || (*p = find(e, (size_t)(eq - e))) == NULL)
		return MACHINE_BAD;
	vlen = (size_t)(end - eq - 1);
	if (vlen == 3 && strncmp(eq + 1, "yes", 3) == 0)
		return MACHINE_HAS;
	if (vlen == 2 && strncmp(eq + 1, "no", 2) == 0)
		return MACHINE_LACKS;
	return MACHINE_BAD;
}

/* NOVA_MACHINE's answer for `want`: 2 when it does not name it, else the
 * forced answer; every entry is checked, so a typo anywhere is MACHINE_BAD */
static int
forced(const struct probe *want, char *why, size_t n)
{
	const char *s = getenv("NOVA_MACHINE"), *e, *end;
	int ans = 2;

	if (s == NULL || *s == '\0')
		return 2;
	for (e = s; *e != '\0'; e = *end != '\0' ? end + 1 : end) {
		const struct probe *p = NULL;
		enum machine_answer a;

		end = strchr(e, ',');
		if (end == NULL)
			end = e + strlen(e);
		a = forced_entry(e, end, &p);
		if (a == MACHINE_BAD) {
			say(why, n, "NOVA_MACHINE: '%.*s' is not <probe>=yes|no "
			    "(machine probes: ns_machine --list)", (int)(end - e), e);
			return MACHINE_BAD;
		}
		if (p == want)
			ans = a;
	}
	if (ans == MACHINE_LACKS)
		say(why, n, "forced off by NOVA_MACHINE");
	return ans;
}

enum machine_answer
machine_has(const char *name, char *why, size_t n)
{
	const struct probe *p = find(name, strlen(name));
	int f;

	if (n > 0)
		why[0] = '\0';
	if (p == NULL) {
		say(why, n, "no machine probe is called '%s'", name);
		return MACHINE_BAD;
	}
	f = forced(p, why, n);
	if (f != 2)
		return (enum machine_answer)f;
	if (p->fn(why, n))
		return MACHINE_HAS;
	if (why[0] == '\0')
		say(why, n, "%s: the probe failed", p->name);
	return MACHINE_LACKS;
}
