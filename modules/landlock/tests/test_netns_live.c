/* SPDX-License-Identifier: MIT */
/* test_netns_live.c -- landlock.so's --net-allow namespace (ABI 1.5,
 * NS_POLICY_NET_PROXIED) on this kernel, driven through its descriptor
 * with a hand-built policy, before any host sets the fields: this suite
 * plays the host and the proxy.  It holds the other end of net_sink
 * (SOCK_SEQPACKET), receives the listeners the wall made inside the
 * namespace, accepts on them and answers "proxy"; it also listens on the
 * host's own loopback ("host").  A "tool" process drops to an
 * unprivileged uid (nobody when run as root), prepares and spawns
 * python3 walled; every denial has a control: the same client, unwalled,
 * by the same user. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fake_host.h"
#include "ll_table.h"

extern const struct ns_backend_ops ns_backend_v1;

#define TEST_UID 65534
#define TEST_GID 65534
#define PY "/usr/bin/python3"
#define MAXL 8 /* listeners served at once */

/* connect to argv[1]:argv[2] (TCP), or with argv[3] == "udp" send one
 * datagram; print "ok <reply>" or "err <errno>" */
static const char client[] =
	"import socket,sys\n"
	"h,p=sys.argv[1],int(sys.argv[2])\n"
	"f=socket.AF_INET6 if ':' in h else socket.AF_INET\n"
	"if len(sys.argv)>3:\n"
	" s=socket.socket(f,socket.SOCK_DGRAM); s.sendto(b'u',(h,p));"
	" print('sent'); sys.exit(0)\n"
	"s=socket.socket(f,socket.SOCK_STREAM); s.settimeout(2)\n"
	"try:\n"
	" s.connect((h,p)); print('ok',s.recv(16).decode().strip())\n"
	"except OSError as e:\n"
	" print('err',e.errno)\n";

static const char *envp[] = { "PATH=/usr/bin:/bin", NULL };
static char wdir[64];
static char *g_den; /* shared page: the denials finish() reported */

/* A NOTE, as "NOTE <text>\n" on the shared page. */
static void
den_note(void *cookie, const char *text)
{
	size_t n = strlen(g_den);

	(void)cookie;
	snprintf(g_den + n, 4096 - n, "NOTE %s\n", text);
}

/* One denial, as "<op> <path> <count>\n" on the shared page. */
static void
den(void *cookie, const struct ns_denial *d)
{
	size_t n = strlen(g_den);

	(void)cookie;
	snprintf(g_den + n, 4096 - n, "%u %s %llu\n", (unsigned)d->op,
		 d->path, (unsigned long long)d->count);
}

/* what one case gives the wall, and what it saw */
struct netcase {
	uint16_t ports[4];
	size_t n_ports;
	uint32_t flags;  /* NS_POLICY_* beyond NET_PROXIED */
	int nest;        /* the tool makes a user namespace first (run) */
	const char *script; /* python's -c, or NULL: the client */
	int twice;       /* the tool spawns the command twice */
	int sink;        /* the wall's end of net_sink (set by run_case) */
	int got[2];      /* listeners received: IPv4, IPv6 */
	char out[256];   /* the command's stdout, its first line */
	char all[256];   /* all of it */
};

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

static int
wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 98;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static size_t
policy_rules(struct ns_rule *r)
{
	static const char *const roots[] = { "/usr", "/bin", "/lib", "/lib64",
					     "/etc", "/proc", NULL };
	size_t n = 0;

	for (size_t i = 0; roots[i] != NULL; i++)
		if (access(roots[i], F_OK) == 0)
			r[n++] = (struct ns_rule){ roots[i], NS_ACCESS_READ_EXEC,
						   NS_ORIGIN_ROOT };
	r[n++] = (struct ns_rule){ wdir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	r[n++] = (struct ns_rule){ "/dev/null", NS_ACCESS_WRITE_FILE,
				   NS_ORIGIN_WRITE_FILE };
	return n;
}

static void
make_policy(struct ns_policy *p, struct ns_rule *rules, const char **argv,
	    const struct netcase *c)
{
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->flags = NS_POLICY_NET_PROXIED | c->flags;
	p->rules = rules;
	p->n_rules = policy_rules(rules);
	p->gpu = "none";
	p->command = argv[0];
	p->argv = argv;
	p->envp = envp;
	p->cwd = p->tmp = p->home = wdir;
	p->net_ports = c->ports;
	p->n_net_ports = c->n_ports;
	p->net_sink = c->sink;
}

/* run's shape: the tool is in a user namespace already (nsplace's,
 * identity-mapped), so the wall's is a nested one. */
static void
nest_userns(void)
{
	char map[64];
	int fd, n;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
		_exit(85);
	/* a process that changed its uid is not dumpable: its /proc files
	 * are root's until it is again (nsplace's keeper does the same) */
	(void)prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
	fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "deny", 4) != 4)
		_exit(86);
	close(fd);
	for (int i = 0; i < 2; i++) {
		n = snprintf(map, sizeof(map), "%u %u 1\n", i ? TEST_GID :
			     TEST_UID, i ? TEST_GID : TEST_UID);
		fd = open(i ? "/proc/self/gid_map" : "/proc/self/uid_map",
			  O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, map, (size_t)n) != n)
			_exit(87);
		close(fd);
	}
}

/* --explain: wait() until the end, then finish() names the denials
 * (den() keeps them); the command's exit code, 83/84 for a failure. */
static int
explain_end(const struct ns_wall_ops *w, void *st, const struct ns_proc *pr)
{
	struct ns_host h = fake_ns_host;
	struct ns_exit ex;
	struct ns_finish fin;
	int rc;

	h.denial = den;
	h.note = den_note;
	do {
		memset(&ex, 0, sizeof(ex));
		ex.struct_size = sizeof(ex);
		rc = w->wait(&h, st, pr, 500, &ex);
	} while (rc == NS_OK && ex.how == NS_END_RUNNING);
	if (rc != NS_OK)
		return 83;
	memset(&fin, 0, sizeof(fin));
	fin.struct_size = sizeof(fin);
	fin.proc = *pr;
	fin.exit = ex;
	if (w->finish(&h, st, &fin) != NS_OK)
		return 84;
	w->release(&h, st);
	return ex.how == NS_END_CODE ? ex.code : 128 + ex.code;
}

/* The tool: prepare, spawn argv walled with stdout on out, wait. */
static int __attribute__((noreturn))
tool(const struct netcase *c, const char **argv, int out)
{
	const struct ns_wall_ops *w = ns_backend_v1.wall;
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct ns_launch l = { sizeof(l), { -1, out, -1 }, NULL, 0 };
	struct ns_proc pr = { sizeof(pr), 0, 0 };
	void *st = NULL;
	int rc;

	if (c->nest)
		nest_userns();
	make_policy(&pol, rules, argv, c);
	if (w->prepare(&fake_ns_host, &pol, &st) != NS_OK) {
		fprintf(stderr, "prepare: %s: %s\n", fh.reason, fh.refusal);
		_exit(81);
	}
	if (w->spawn(&fake_ns_host, st, &pol, &l, &pr) != NS_OK) {
		fprintf(stderr, "spawn: %s: %s\n", fh.reason, fh.refusal);
		_exit(82);
	}
	if (c->twice && (wait_status((pid_t)pr.pid) != 0 ||
			 w->spawn(&fake_ns_host, st, &pol, &l, &pr) != NS_OK))
		_exit(82);
	if (!(c->flags & NS_POLICY_EXPLAIN)) {
		rc = wait_status((pid_t)pr.pid);
		w->release(&fake_ns_host, st);
		_exit(rc);
	}
	_exit(explain_end(w, st, &pr));
}

/* One listener received over the sink: its fd (its port one of c's), or
 * -1. */
static int
recv_listener(int sink, const struct netcase *c, int wait_ms)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	uint16_t port = 0;
	struct iovec iov = { &port, sizeof(port) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct pollfd p = { sink, POLLIN, 0 };
	struct cmsghdr *cm;
	int fd = -1;

	if (poll(&p, 1, wait_ms) != 1 ||
	    recvmsg(sink, &m, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(port))
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (cm == NULL || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	for (size_t i = 0; i < c->n_ports; i++)
		if (c->ports[i] == port)
			return fd;
	close(fd);
	return -1;
}

/* The family a received listener is bound to. */
static int
family_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t n = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &n) != 0)
		return -1;
	return ss.ss_family;
}

/* Serve: accept on every listener, answer its word, until pid ends. */
static int
serve(pid_t pid, const int *l, const char *const *word, size_t n)
{
	struct pollfd p[MAXL];
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		p[i] = (struct pollfd){ l[i], POLLIN, 0 };
	for (int t = 0; t < 150 && rc < 0; t++) {
		if (poll(p, (nfds_t)n, 100) > 0)
			for (size_t i = 0; i < n; i++) {
				int a = (p[i].revents & POLLIN) ?
						accept4(l[i], NULL, NULL,
							SOCK_CLOEXEC) : -1;

				if (a >= 0 && write(a, word[i],
						    strlen(word[i])) >= 0)
					close(a);
			}
		if (waitpid(pid, &rc, WNOHANG) == pid)
			return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
		rc = -1;
	}
	kill(pid, SIGKILL);
	return wait_status(pid) + 200;
}

/* A listener on the host's loopback (this process's namespace). */
static int
host_listener(int type, uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t n = sizeof(a);
	int s = socket(AF_INET, type | SOCK_CLOEXEC, 0), one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(*port);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one,
				sizeof(one)) != 0 ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    (type == SOCK_STREAM && listen(s, 16) != 0) ||
	    getsockname(s, (struct sockaddr *)&a, &n) != 0) {
		if (s >= 0)
			close(s);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return s;
}

/* Run the client (walled or not) on host:port [udp]; the tool's status,
 * its stdout in c->out, the listeners it passed counted in c->got.  The
 * host's loopback listeners hl[0..nh) answer "host" meanwhile. */
static int
run_case(int walled, struct netcase *c, const char *host, const char *port,
	 const char *udp, const int *hl, size_t nh)
{
	const char *argv[] = { PY, "-c", c->script ? c->script : client, host,
			       port, udp, NULL };
	const char *word[MAXL];
	int sv[2], out[2], l[MAXL], rc, fd;
	size_t n = 0;
	ssize_t k;
	pid_t pid;

	memset(c->got, 0, sizeof(c->got));
	c->out[0] = '\0';
	/* not close-on-exec: only the wall's closing keeps it from the
	 * command (the control run sees it inherited) */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0 ||
	    pipe2(out, O_CLOEXEC) != 0)
		return 99;
	c->sink = sv[1];
	fflush(NULL);
	if ((pid = fork()) == 0) {
		close(sv[0]);
		close(out[0]);
		drop_privileges();
		if (walled)
			tool(c, argv, out[1]);
		dup2(out[1], 1);
		execve(PY, (char *const *)argv, (char *const *)envp);
		_exit(97);
	}
	close(sv[1]);
	close(out[1]);
	for (size_t i = 0; i < nh && n < MAXL; i++, n++) {
		l[n] = hl[i];
		word[n] = "host";
	}
	for (int w = 5000; walled && n < MAXL &&
	     (fd = recv_listener(sv[0], c, w)) >= 0; w = 200) {
		c->got[family_of(fd) == AF_INET6]++;
		l[n] = fd;
		word[n++] = "proxy";
	}
	rc = serve(pid, l, word, n);
	for (size_t i = nh; i < n; i++)
		close(l[i]);
	k = read(out[0], c->out, sizeof(c->out) - 1);
	c->out[k > 0 ? k : 0] = '\0';
	memcpy(c->all, c->out, sizeof(c->all));
	c->out[strcspn(c->out, "\n")] = '\0';
	close(out[0]);
	close(sv[0]);
	return rc;
}

static int
has_ipv6(void)
{
	return access("/proc/net/if_inet6", F_OK) == 0;
}

static void
set_ports(struct netcase *c, uint16_t p)
{
	memset(c, 0, sizeof(*c));
	c->ports[0] = p;
	c->n_ports = 1;
}

/* The listener reaches the proxy: inside, 127.0.0.1:<p> is the wall's
 * listener (answered "proxy") even where the host's loopback has a
 * service on the same port (answered "host" to the control). */
static void
test_listener_reaches_proxy(void)
{
	struct netcase c;
	char port[8];
	uint16_t p = 0;
	int hl = host_listener(SOCK_STREAM, &p);

	CU_ASSERT_FATAL(hl >= 0);
	snprintf(port, sizeof(port), "%u", (unsigned)p);
	set_ports(&c, p);
	CU_ASSERT_EQUAL(run_case(0, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok host"); /* control */
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	CU_ASSERT_EQUAL(c.got[0], 1);
	CU_ASSERT_EQUAL(c.got[1], has_ipv6() ? 1 : 0);
	if (has_ipv6()) {
		CU_ASSERT_EQUAL(run_case(1, &c, "::1", port, NULL, &hl, 1), 0);
		CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	}
	close(hl);
}

/* The proxy's usual port, as the host will pass it; and a second
 * spawn() of the same tool (probe's steps) runs in the same namespace,
 * whose listeners are sent once: both commands reach the proxy. */
static void
test_port_3128(void)
{
	struct netcase c;

	set_ports(&c, 3128);
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", "3128", NULL, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	c.twice = 1;
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", "3128", NULL, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(c.all, "ok proxy\nok proxy\n");
	CU_ASSERT_EQUAL(c.got[0], 1);
	CU_ASSERT_EQUAL(c.got[1], has_ipv6() ? 1 : 0);
}

/* A loopback entry's port below 1024 (localhost:80): the wall binds it in
 * the namespace it owns, as an unprivileged user; the listener after it
 * comes too.  The control: the same user cannot bind it on the host. */
static void
test_low_port(void)
{
	struct netcase c;
	struct sockaddr_in a = { .sin_family = AF_INET };
	int s, rc;
	pid_t pid;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(80);
	if (geteuid() == 0) {
		fflush(NULL);
		if ((pid = fork()) == 0) {
			drop_privileges();
			s = socket(AF_INET, SOCK_STREAM, 0);
			_exit(bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 &&
			      errno == EACCES ? 0 : 1);
		}
		CU_ASSERT_EQUAL(wait_status(pid), 0); /* control */
	}
	set_ports(&c, 80);
	c.ports[1] = 3128;
	c.n_ports = 2;
	rc = run_case(1, &c, "127.0.0.1", "80", NULL, NULL, 0);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	CU_ASSERT_EQUAL(c.got[0], 2);
	rc = run_case(1, &c, "127.0.0.1", "3128", NULL, NULL, 0);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
}

/* A connect that bypasses the proxy: to the host's loopback service on
 * another port, and to an outside address.  Landlock (abi 4+) refuses
 * both with EACCES; the control reaches the host's service, and outside
 * fails for another reason or not at all. */
static void
test_bypass_refused(void)
{
	struct netcase c;
	char port[8];
	uint16_t p = 0;
	int hl = host_listener(SOCK_STREAM, &p), err;

	CU_ASSERT_FATAL(hl >= 0);
	snprintf(port, sizeof(port), "%u", (unsigned)p);
	set_ports(&c, 3128);
	CU_ASSERT_EQUAL(run_case(0, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok host"); /* control */
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	err = ll_sys_abi(&err) >= 4 ? EACCES : ECONNREFUSED;
	CU_ASSERT_EQUAL(strncmp(c.out, "err ", 4) == 0 ? atoi(c.out + 4) : -1,
			err);
	CU_ASSERT_EQUAL(run_case(0, &c, "192.0.2.1", "80", NULL, NULL, 0), 0);
	CU_ASSERT_STRING_NOT_EQUAL(c.out, "err 13"); /* control */
	CU_ASSERT_EQUAL(run_case(1, &c, "192.0.2.1", "80", NULL, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(c.out, ll_sys_abi(&err) >= 4 ? "err 13" :
				      "err 101");
	close(hl);
}

/* --explain names a bypass: a connect Landlock refused, as
 * "<addr>:<port>" with NS_OP_CONNECT; the proxy's own port is no
 * denial.  The control: unwalled, the same connect reaches the host. */
static void
test_explain_names_bypass(void)
{
	struct netcase c;
	char port[8], want[160];
	uint16_t p = 0;
	int hl = host_listener(SOCK_STREAM, &p), err;

	CU_ASSERT_FATAL(hl >= 0);
	if (ll_sys_abi(&err) < 4) {
		close(hl);
		return; /* no Landlock connect right: nothing refuses it */
	}
	snprintf(port, sizeof(port), "%u", (unsigned)p);
	set_ports(&c, 3128);
	c.flags = NS_POLICY_EXPLAIN;
	CU_ASSERT_EQUAL(run_case(0, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok host"); /* control */
	g_den[0] = '\0';
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "err 13");
	snprintf(want, sizeof(want), "%u 127.0.0.1:%s 1\n",
		 (unsigned)NS_OP_CONNECT, port);
	CU_ASSERT_EQUAL(strncmp(g_den, want, strlen(want)), 0);
	/* and the NOTE that says what it means */
	snprintf(want, sizeof(want), "NOTE 1 connection attempt went around "
		 "the --net-allow proxy and was refused (first: 127.0.0.1:%s)",
		 port);
	CU_ASSERT_PTR_NOT_NULL(strstr(g_den, want));
	g_den[0] = '\0';
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", "3128", NULL, NULL, 0),
			0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	CU_ASSERT_STRING_EQUAL(g_den, "");
	close(hl);
}

/* UDP reaches nothing outside the namespace: the datagram is sent (to
 * the namespace's own lo) and never arrives at the host's socket. */
static void
test_udp_stays_inside(void)
{
	struct netcase c;
	char port[8], b[4];
	uint16_t p = 0;
	int u = host_listener(SOCK_DGRAM, &p);

	CU_ASSERT_FATAL(u >= 0);
	snprintf(port, sizeof(port), "%u", (unsigned)p);
	set_ports(&c, 3128);
	CU_ASSERT_EQUAL(run_case(0, &c, "127.0.0.1", port, "udp", NULL, 0), 0);
	CU_ASSERT_EQUAL(recv(u, b, sizeof(b), MSG_DONTWAIT), 1); /* control */
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", port, "udp", NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "sent");
	CU_ASSERT_EQUAL(recv(u, b, sizeof(b), MSG_DONTWAIT), -1);
	close(u);
}

/* The command holds no socket: not net_sink (inheritable here), not a
 * listener.  The control sees net_sink inherited. */
static void
test_no_socket_in_command(void)
{
	static const char count[] =
		"import os\n"
		"n=0\n"
		"for f in os.listdir('/proc/self/fd'):\n"
		" try: n+=os.readlink('/proc/self/fd/'+f).startswith('socket:')\n"
		" except OSError: pass\n"
		"print('ok',n)\n";
	struct netcase c;

	set_ports(&c, 3128);
	c.script = count;
	CU_ASSERT_EQUAL(run_case(0, &c, "-", "0", NULL, NULL, 0), 0);
	CU_ASSERT_NOT_EQUAL(strcmp(c.out, "ok 0"), 0);
	CU_ASSERT_EQUAL(run_case(1, &c, "-", "0", NULL, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok 0");
}

/* run's shape: the tool in a user namespace of its own already; the
 * wall's is nested in it and works the same. */
static void
test_nested_userns(void)
{
	struct netcase c;
	char port[8];
	uint16_t p = 0;
	int hl = host_listener(SOCK_STREAM, &p);

	CU_ASSERT_FATAL(hl >= 0);
	snprintf(port, sizeof(port), "%u", (unsigned)p);
	set_ports(&c, p);
	c.nest = 1;
	CU_ASSERT_EQUAL(run_case(1, &c, "127.0.0.1", port, NULL, &hl, 1), 0);
	CU_ASSERT_STRING_EQUAL(c.out, "ok proxy");
	close(hl);
}

/* What the host must never pass is an internal error, said. */
static void
test_bad_policy_refused(void)
{
	static const struct {
		uint16_t ports[2];
		size_t n;
		uint32_t flags;
		const char *says;
	} bad[] = {
		{ { 3128, 0 }, 1, NS_POLICY_NET_DENY, "net-deny and a proxied" },
		{ { 0, 0 }, 0, 0, "no port" },
		{ { 0, 0 }, 1, 0, "port is 0 or named twice" },
		{ { 3128, 3128 }, 2, 0, "port is 0 or named twice" },
	};
	const char *argv[] = { "/bin/true", NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct netcase c;
	void *st = NULL;
	pid_t pid;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0, sizeof(c));
		memcpy(c.ports, bad[i].ports, sizeof(bad[i].ports));
		c.n_ports = bad[i].n;
		c.flags = bad[i].flags;
		make_policy(&pol, rules, argv, &c);
		fflush(NULL);
		if ((pid = fork()) == 0) {
			drop_privileges();
			fh_reset();
			_exit(ns_backend_v1.wall->prepare(&fake_ns_host, &pol,
							  &st) ==
					      NS_E_INTERNAL &&
				      st == NULL &&
				      strcmp(fh.reason, "sandbox_failed") == 0 &&
				      strstr(fh.refusal, bad[i].says) ? 0 : 1);
		}
		CU_ASSERT_EQUAL(wait_status(pid), 0);
	}
	/* control: the same policy with one good port is prepared */
	set_ports(&c, 3128);
	make_policy(&pol, rules, argv, &c);
	fflush(NULL);
	if ((pid = fork()) == 0) {
		drop_privileges();
		_exit(ns_backend_v1.wall->prepare(&fake_ns_host, &pol, &st));
	}
	CU_ASSERT_EQUAL(wait_status(pid), NS_OK);
}

/* The policy text names the namespace and its listeners. */
static void
test_render_says_netns(void)
{
	const char *argv[] = { "/bin/true", NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct netcase c;

	set_ports(&c, 3128);
	c.ports[1] = 8080;
	c.n_ports = 2;
	make_policy(&pol, rules, argv, &c);
	fh_reset();
	CU_ASSERT_EQUAL(ns_backend_v1.wall->render(&fake_ns_host, &pol), NS_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.text, "\nnet=proxied\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.text, "\nnetns loopback-only "
					       "listeners=3128,8080\n"));
}

/* check's note says --net-allow is kept by a namespace, and the audit
 * clause after it still fits (this machine has no setting that blocks
 * user namespaces: the suite makes its own namespaces above). */
static void
test_facts_note(void)
{
	struct ns_wall_facts f;
	int err;

	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	CU_ASSERT_EQUAL(ns_backend_v1.wall->facts(&fake_ns_host, &f), NS_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.note, "; --net-allow: own netns"));
	if (ll_sys_abi(&err) >= 7 && strstr(f.note, "reachable from") == NULL)
		CU_ASSERT_PTR_NOT_NULL(strstr(f.note, "--explain traces"));
}

/* A user namespace (made by root, identity-mapped) whose
 * user.max_user_namespaces is 0: the tool, unprivileged, can make none
 * there.  Nothing outside changes (the limit is per user namespace).
 * prepare()'s result there: 0 ok, 1 netns_unavailable naming the
 * setting, else a failure code.  zero: write the 0 (else the control). */
static int
prepare_without_userns(int zero)
{
	const char *argv[] = { "/bin/true", NULL };
	struct ns_rule rules[16];
	struct ns_policy pol;
	struct netcase c;
	void *st = NULL;
	int go[2], in[2], rc, fd;
	pid_t pid;
	char b = 'g';

	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(in, O_CLOEXEC) != 0)
		return 99;
	fflush(NULL);
	if ((pid = fork()) == 0) {
		close(go[1]);
		close(in[0]);
		if (unshare(CLONE_NEWUSER) != 0 || write(in[1], &b, 1) != 1 ||
		    read(go[0], &b, 1) != 1)
			_exit(70);
		fd = open("/proc/sys/user/max_user_namespaces", O_WRONLY);
		if (zero && (fd < 0 || write(fd, "0\n", 2) != 2))
			_exit(71);
		drop_privileges();
		set_ports(&c, 3128);
		c.sink = 0;
		make_policy(&pol, rules, argv, &c);
		rc = ns_backend_v1.wall->prepare(&fake_ns_host, &pol, &st);
		if (rc == NS_OK)
			_exit(0);
		if (rc == NS_E_UNAVAILABLE &&
		    strcmp(fh.reason, "netns_unavailable") == 0 &&
		    strstr(fh.refusal, "user.max_user_namespaces=0") &&
		    strstr(fh.refusal, "sysctl -w user.max_user_namespaces"))
			_exit(1);
		fprintf(stderr, "(%s: %s)\n", fh.reason, fh.refusal);
		_exit(72);
	}
	close(go[0]);
	close(in[1]);
	if (read(in[0], &b, 1) != 1)
		b = 'x';
	close(in[0]);
	for (int i = 0; i < 2; i++) {
		char p[64];

		snprintf(p, sizeof(p), "/proc/%d/%s", (int)pid,
			 i ? "gid_map" : "uid_map");
		fd = open(p, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0 0 4294967295\n", 15) != 15)
			b = 'x';
		if (fd >= 0)
			close(fd);
	}
	if (b != 'g' || write(go[1], &b, 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	return wait_status(pid);
}

static void
test_no_userns_refused(void)
{
	if (geteuid() != 0)
		return; /* a user namespace with the limit at 0 needs root */
	CU_ASSERT_EQUAL(prepare_without_userns(0), 0); /* control */
	CU_ASSERT_EQUAL(prepare_without_userns(1), 1);
}

static int
setup(void)
{
	g_den = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g_den == MAP_FAILED)
		return -1;
	snprintf(wdir, sizeof(wdir), "/tmp/ll-netns-w.XXXXXX");
	if (mkdtemp(wdir) == NULL)
		return -1;
	if (geteuid() == 0 && chown(wdir, TEST_UID, TEST_GID) != 0)
		return -1;
	return access(PY, X_OK);
}

static int
teardown(void)
{
	rmdir(wdir);
	return 0;
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "the listener reaches the proxy, not the host",
		  test_listener_reaches_proxy },
		{ "port 3128", test_port_3128 },
		{ "port 80 as an unprivileged user", test_low_port },
		{ "a bypass is refused (EACCES at abi 4+)",
		  test_bypass_refused },
		{ "--explain names a bypass", test_explain_names_bypass },
		{ "udp stays inside", test_udp_stays_inside },
		{ "the command holds no socket", test_no_socket_in_command },
		{ "nested in a user namespace (run)", test_nested_userns },
		{ "a bad policy is an internal error",
		  test_bad_policy_refused },
		{ "render says the namespace", test_render_says_netns },
		{ "check's note says it", test_facts_note },
		{ "no user namespace: netns_unavailable",
		  test_no_userns_refused },
		{ NULL, NULL }
	};

	return cu_run("landlock netns live", setup, teardown, cases);
}
