/* SPDX-License-Identifier: MIT */
/* test_wall.c -- the proxy's own wall (np_wall: rlimits, then on Linux
 * no_new_privs, Landlock and the seccomp filter), each case in a forked
 * child that does the action first unwalled (the control, which must
 * succeed), walls itself, then does it again: what the wall refuses is
 * refused with the errno the spec names, what the proxy needs still
 * works.  A child ends with _exit: its code is the first check that
 * failed (0: all held). */
#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "common/fake_host.h"
#include "np.h"
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "np_linux.h"
#endif

static struct ns_net_entry allow[2];
static struct ns_proxy_conf conf;
static int lfd_ok = -1, lfd_no = -1;
static uint16_t port_ok, port_no;
static int ll_abi; /* asked before the wall (after it, the call is not
		      allowed) */

static int
listen_lo(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fd, 8) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &l) != 0)
		return -1;
	*port = ntohs(a.sin_port);
	return fd;
}

/* connect to 127.0.0.1:port: 0 or errno */
static int
try_connect(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), e = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
		e = errno;
	close(fd);
	return e;
}

static int
try_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0600);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A child: control(), wall, walled(); its exit code (0 when all held). */
static int
in_child(int (*control)(void), int (*walled)(void))
{
	int st = 0;
	pid_t p = fork();

	if (p == 0) {
		int rc = control();

		if (rc != 0)
			_exit(100 + rc);
		if (np_wall(&fake_ns_host, &conf, 2) != 0)
			_exit(99);
		_exit(walled());
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200 + WTERMSIG(st);
}

/* ---- the limits (every platform) ---- */

static int
ok(void)
{
	return 0;
}

static int
limits_set(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_CORE, &rl) != 0 || rl.rlim_max != 0)
		return 1;
	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_max != 0)
		return 2;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_max != 32 + 2 + 8 * 6)
		return 3;
#if !defined(__APPLE__) && !defined(__SANITIZE_ADDRESS__)
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_max != NP_MEM_DEFAULT)
		return 4; /* 8 connections: the 512 MiB floor */
#endif
	return 0;
}

static void
test_limits(void)
{
	CU_ASSERT_EQUAL(in_child(ok, limits_set), 0);
}

#ifdef __linux__
/* ---- Linux: Landlock ---- */

static int
read_passwd(void)
{
	return try_open("/etc/passwd", O_RDONLY);
}

static int
write_tmp(void)
{
	return try_open("/tmp", O_RDONLY | O_DIRECTORY) ||
	       try_open("/tmp/np-wall-test", O_WRONLY | O_CREAT | O_TRUNC);
}

static int
fs_walled(void)
{
	if (try_open("/etc/passwd", O_RDONLY) != EACCES)
		return 1;
	if (try_open("/tmp/np-wall-test", O_WRONLY | O_CREAT) != EACCES)
		return 2;
	if (try_open("/etc/hosts", O_RDONLY) != 0)
		return 3; /* what the resolver reads stays readable */
	if (try_open("/usr/lib", O_RDONLY | O_DIRECTORY) != 0)
		return 4;
	return 0;
}

static void
test_fs(void)
{
	CU_ASSERT_EQUAL(in_child(read_passwd, fs_walled), 0);
	CU_ASSERT_EQUAL(in_child(write_tmp, fs_walled), 0);
	unlink("/tmp/np-wall-test");
}

static int
both_ports(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), r;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0;
	close(fd);
	return r || try_connect(port_ok) || try_connect(port_no);
}

/* TCP connect only to the entries' ports (ABI >= 4), no bind. */
static int
net_walled(void)
{
	int want = ll_abi >= 4 ? EACCES : 0;
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (try_connect(port_ok) != 0)
		return 1;
	if (try_connect(port_no) != want)
		return 2;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* bind: not in the seccomp list (ENOSYS) before Landlock's EACCES */
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 ||
	    errno != ENOSYS)
		return 3;
	return 0;
}

static void
test_net(void)
{
	CU_ASSERT_EQUAL(in_child(both_ports, net_walled), 0);
}

/* ---- Linux: seccomp and prctl ---- */

static int
can_fork_and_unix(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t p;

	if (fd < 0)
		return 1;
	close(fd);
	p = fork();
	if (p == 0)
		_exit(0);
	return p < 0 || waitpid(p, NULL, 0) != p;
}

static void *
thread_ok(void *arg)
{
	return arg;
}

static int
calls_walled(void)
{
	static int token;
	pthread_t t;
	void *r = NULL;

	if (socket(AF_UNIX, SOCK_STREAM, 0) >= 0 || errno != EAFNOSUPPORT)
		return 1;
	if (fork() >= 0 || errno != EPERM)
		return 2; /* clone without CLONE_THREAD */
	if (syscall(SYS_clone3, NULL, 0) >= 0 || errno != ENOSYS)
		return 3;
	if (pthread_create(&t, NULL, thread_ok, &token) != 0 ||
	    pthread_join(t, &r) != 0 || r != &token)
		return 4; /* threads still start (clone3 -> clone) */
	if (syscall(SYS_getpgid, 0) >= 0 || errno != ENOSYS)
		return 5; /* a call not listed */
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0)
		return 6; /* prctl itself is not listed */
	return 0;
}

static void
test_calls(void)
{
	CU_ASSERT_EQUAL(in_child(can_fork_and_unix, calls_walled), 0);
}

/* Raw sockets need CAP_NET_RAW for the control: the unit tests run as
 * root here; MPTCP needs a kernel with it (net.mptcp). */
static int
sock_ok(int type, int proto)
{
	int fd = socket(AF_INET, type, proto);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int
can_mptcp_and_raw(void)
{
	return !sock_ok(SOCK_STREAM, 262) || !sock_ok(SOCK_RAW, IPPROTO_ICMP);
}

static int
sockets_walled(void)
{
	if (socket(AF_INET, SOCK_STREAM, 262) >= 0 || errno != EACCES)
		return 1; /* MPTCP: not Landlock's TCP */
	if (socket(AF_INET, SOCK_RAW, IPPROTO_ICMP) >= 0 || errno != EACCES)
		return 2;
	if (socket(AF_INET6, SOCK_SEQPACKET, 0) >= 0 || errno != EACCES)
		return 3;
	if (socket(AF_INET, SOCK_DGRAM, IPPROTO_TCP) >= 0 || errno != EACCES)
		return 4;
	if (!sock_ok(SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_TCP))
		return 5; /* the relay's */
	if (!sock_ok(SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0) ||
	    !sock_ok(SOCK_DGRAM, IPPROTO_UDP) || !sock_ok(SOCK_STREAM, 0))
		return 6; /* the resolver's */
	return 0;
}

static void
test_sockets(void)
{
	CU_ASSERT_EQUAL(in_child(can_mptcp_and_raw, sockets_walled), 0);
}

static int
can_exec(void)
{
	return access("/bin/true", X_OK) != 0;
}

static int
exec_walled(void)
{
	char *const argv[] = { "/bin/true", NULL };

	execv("/bin/true", argv);
	return 1; /* never here: execve kills the process */
}

static void
test_exec_kills(void)
{
	CU_ASSERT_EQUAL(in_child(can_exec, exec_walled), 200 + SIGSYS);
}
#endif

static int
init(void)
{
#ifdef __linux__
	ll_abi = np_landlock_abi();
#endif
	lfd_ok = listen_lo(&port_ok);
	lfd_no = listen_lo(&port_no);
	allow[0] = (struct ns_net_entry){ .kind = NS_NET_NAME, .port = port_ok,
					  .name = "pypi.org" };
	allow[1] = (struct ns_net_entry){ .kind = NS_NET_LOOPBACK,
					  .port = 443 };
	conf = (struct ns_proxy_conf){ .struct_size = sizeof(conf),
				       .allow = allow, .n_allow = 2,
				       .max_conns = 8 };
	return lfd_ok < 0 || lfd_no < 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "rlimits: no core, no file growth, descriptors", test_limits },
#ifdef __linux__
		{ "Landlock: read-only resolver files and libraries", test_fs },
		{ "Landlock: connect to the entries' ports only, no bind",
		  test_net },
		{ "seccomp: no process, no unix socket, threads still", test_calls },
		{ "seccomp: TCP and UDP sockets only (no MPTCP, no raw)",
		  test_sockets },
		{ "seccomp: execve kills", test_exec_kills },
#endif
		{ NULL, NULL },
	};

	return cu_run("netproxy wall", init, NULL, cases);
}
