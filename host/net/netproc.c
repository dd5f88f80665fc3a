/* SPDX-License-Identifier: MIT */
/* netproc.c -- the proxy's process and sockets (net.h; POSIX: not built
 * where the host has no fork, host/net/netnone.c stands in there).
 *
 * The proxy is no descendant of the tool: the tool forks a child that
 * forks the watcher and ends at once (reaped there and then); the
 * watcher forks the proxy, writes the proxy's pid and, when it ends, its
 * wait status to the status pipe.  So the wrap's subreaper (proc/) never
 * counts, reaps or kills the proxy as part of the command's tree, and the
 * tool still learns how it ended.  The proxy stops on end-of-file of its
 * stop pipe: the tool closes its end to stop it, and the tool's own death
 * closes it too (nothing is left behind either way). */
#include "net/net.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"

/* ---- the plan: the sink and the loopback path's listener ------------ */

/* The host's own listener on 127.0.0.1:0 (the loopback path): its fd
 * with *port, or -1. */
static int
host_listener(uint16_t *port)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd >= 0 && os_fd_cloexec(fd) != 0) {
		close(fd);
		fd = -1;
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fd, 128) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

/* The loopback path: the proxy's listener made here and sent into the
 * sink, the host's end of which is then closed (the proxy reads one
 * listener, then end-of-file); the wall is told 127.0.0.1:<P> and each
 * loopback entry as it is. */
static int
plan_loopback(struct net_run *n, const struct net_list *entries)
{
	uint16_t port = 0;
	int fd;

	if (n->proxied > 0) {
		fd = host_listener(&port);
		if (fd < 0 || os_msg_send(n->wall_sink, &port, sizeof(port),
					  fd) != 0) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		n->proxy_port = port;
		strv_pushf(&n->allow, "127.0.0.1:%u", (unsigned)port);
	}
	close(n->wall_sink);
	n->wall_sink = -1;
	for (size_t i = 0; i < entries->n; i++)
		if (entries->v[i].kind == NS_NET_LOOPBACK)
			strv_push(&n->allow, entries->v[i].text);
	return strv_failed(&n->allow) ? (errno = ENOMEM, -1) : 0;
}

int
net_plan(struct net_run *n, const struct net_list *entries)
{
	int sv[2];

	if (!n->active)
		return 0;
	net_ports_plan(n, entries);
	if (os_msg_pair(sv) != 0)
		return -1;
	n->wall_sink = sv[0];
	n->proxy_sink = sv[1];
	if (n->path == NET_PATH_LOOPBACK)
		return plan_loopback(n, entries);
	return 0;
}

/* ---- the proxy's process -------------------------------------------- */

static int g_report = -1; /* in the proxy's process: its report_fd */

/* The module's note() and refuse() in the proxy's process: one "note"
 * line each on the report pipe (no newline of the text kept). */
static void
child_say(const char *a, const char *b)
{
	char line[NET_LINE_MAX];
	int len = snprintf(line, sizeof(line) - 1, "note %s%s%s", a,
			   b ? ": " : "", b ? b : "");

	if (len < 0)
		return;
	if ((size_t)len > sizeof(line) - 2)
		len = (int)sizeof(line) - 2;
	for (int i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len++] = '\n';
	(void)fd_write_all(g_report, line, (size_t)len);
}

static void
child_note(void *cookie, const char *text)
{
	(void)cookie;
	child_say(text ? text : "", NULL);
}

static void
child_refuse(void *cookie, const char *reason, const char *text)
{
	(void)cookie;
	child_say(reason ? reason : "refused", text ? text : "");
}

/* Every descriptor but want[0..2], moved to 3, 4, 5, closed; 0-2 on
 * /dev/null.  0, or -1. */
static int
child_fds(const int want[3])
{
	int hi[3], nul = open("/dev/null", O_RDWR | O_CLOEXEC);

	for (int i = 0; i < 3; i++)
		if ((hi[i] = fcntl(want[i], F_DUPFD_CLOEXEC, 64)) < 0)
			return -1;
	if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0)
		return -1;
	for (int i = 0; i < 3; i++) /* serve() execs nothing */
		if (dup2(hi[i], 3 + i) < 0)
			return -1;
	os_close_from(6);
	return 0;
}

static void
child_signals(void)
{
	sigset_t none;

	for (int s = 1; s < 32; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	signal(SIGPIPE, SIG_IGN); /* a client gone is an error, not a death */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The proxy's process: its descriptors, then serve(); never returns. */
static void
proxy_main(struct net_run *n, const struct hostsvc *hs, const int want[3])
{
	struct hostsvc mine = *hs;
	struct ns_host host;
	struct ns_proxy_conf conf;
	int rc;

	if (child_fds(want) != 0)
		_exit(125);
	mine.stem = n->mod.stem; /* option() reads the proxy's section */
	host = mine.host;
	host.cookie = &mine;
	g_report = 4;
	host.note = child_note;
	host.refuse = child_refuse;
	memset(&conf, 0, sizeof(conf));
	conf.struct_size = sizeof(conf);
	conf.allow = n->entries->v;
	conf.n_allow = n->entries->n;
	conf.sink_fd = 3;
	conf.report_fd = 4;
	conf.stop_fd = 5;
	conf.proxy_port = n->proxy_port;
	conf.max_conns = NET_MAX_CONNS;
	conf.max_mem_bytes = NET_MAX_MEM;
	rc = n->mod.proxy.serve(&host, &conf);
	_exit(rc == NS_OK ? 0 : 1);
}

/* The watcher holds nothing but fd: a copy of the stop pipe's write end
 * or of the sink's wall end kept here would keep the proxy from its
 * end-of-file, one of the tool's stdout from its reader's. */
static int
watcher_fds(int fd)
{
	int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 64);

	if (hi < 0 || nul < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		(void)dup2(nul, i);
	if (dup2(hi, 3) != 3)
		return -1;
	os_close_from(4);
	return 3;
}

/* The watcher: the proxy's pid, then its wait status, on fd. */
static void
watcher_main(struct net_run *n, const struct hostsvc *hs, const int want[3],
	     int fd)
{
	int64_t pid;
	int st = 0;
	pid_t p;

	/* run as root: the proxy parses the command's bytes and the watcher
	 * only waits; neither keeps root or a capability */
	if (os_become_nobody() != 0)
		_exit(125);
	p = fork();
	if (p == 0)
		proxy_main(n, hs, want);
	fd = watcher_fds(fd);
	pid = p;
	if (fd < 0)
		_exit(125); /* the tool reads no pid: ECHILD, refused */
	if (fd_write_all(fd, &pid, sizeof(pid)) != 0 || p < 0)
		_exit(1);
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	(void)fd_write_all(fd, &st, sizeof(st));
	_exit(0);
}

/* pipes: report, stop, status; each [read, write]. */
static int
make_pipes(int p[3][2])
{
	for (int i = 0; i < 3; i++)
		p[i][0] = p[i][1] = -1;
	for (int i = 0; i < 3; i++)
		if (os_pipe(p[i]) != 0)
			return -1;
	return 0;
}

static void
close_pipes(int p[3][2])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			if (p[i][j] >= 0)
				close(p[i][j]);
}

/* In the tool: the ends it keeps, the pid the watcher sent. */
static int
keep_ends(struct net_run *n, int p[3][2], pid_t mid)
{
	int st;

	close(p[0][1]);
	close(p[1][0]);
	close(p[2][1]);
	close(n->proxy_sink);
	n->proxy_sink = -1;
	n->report_fd = p[0][0];
	n->stop_fd = p[1][1];
	n->status_fd = p[2][0];
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	if (read(n->status_fd, &n->pid, sizeof(n->pid)) !=
	    (ssize_t)sizeof(n->pid) || n->pid <= 0)
		return errno = ECHILD, -1;
	(void)fcntl(n->report_fd, F_SETFL, O_NONBLOCK);
	(void)fcntl(n->status_fd, F_SETFL, O_NONBLOCK);
	return 0;
}

int
net_start(struct net_run *n, const struct hostsvc *hs)
{
	int p[3][2], want[3];
	pid_t mid;

	if (!n->active || (n->path == NET_PATH_LOOPBACK && n->proxied == 0))
		return 0; /* nothing for a proxy to serve */
	if (make_pipes(p) != 0) {
		close_pipes(p);
		return -1;
	}
	want[0] = n->proxy_sink;
	want[1] = p[0][1];
	want[2] = p[1][0];
	mid = fork();
	if (mid == 0) {
		child_signals();
		if (fork() == 0)
			watcher_main(n, hs, want, p[2][1]);
		_exit(0);
	}
	if (mid < 0) {
		close_pipes(p);
		return -1;
	}
	return keep_ends(n, p, mid);
}

void
net_spawned(struct net_run *n)
{
	if (n->wall_sink >= 0)
		close(n->wall_sink);
	n->wall_sink = -1;
}

void
net_forget(struct net_run *n)
{
	int *fds[] = { &n->report_fd, &n->stop_fd, &n->status_fd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	n->pid = 0; /* not this process's to stop */
}

/* ---- while it runs, and its end ---------------------------------------- */

static void
read_reports(struct net_run *n)
{
	char chunk[4096];

	for (int rounds = 0; n->report_fd >= 0 && rounds < 64; rounds++) {
		ssize_t got = read(n->report_fd, chunk, sizeof(chunk));

		if (got > 0) {
			net_feed(n, chunk, (size_t)got);
			continue;
		}
		if (got < 0 && (errno == EINTR))
			continue;
		if (got == 0) { /* the proxy is gone */
			close(n->report_fd);
			n->report_fd = -1;
		}
		return;
	}
}

static void
early_note(struct net_run *n)
{
	struct sbuf b = {0};
	int code = 0, how = n->status >= 0 ? os_wait_status(n->status, &code)
					   : -1;

	if (n->early_said || n->cmd_done)
		return;
	n->early_said = 1;
	sbuf_add(&b, "the network proxy ended early (");
	if (how > 0)
		sbuf_addf(&b, "exit status %d", code);
	else if (how == 0)
		sbuf_addf(&b, "signal %d", code);
	else
		sbuf_add(&b, "how is unknown");
	sbuf_add(&b, "); the command's connections failed from then");
	if (b.s != NULL)
		out_note("SANDBOX", b.s);
	sbuf_free(&b);
}

void
net_poll_end(struct net_run *n)
{
	int st;
	ssize_t got;

	if (n->status_fd < 0 || n->ended)
		return;
	got = read(n->status_fd, &st, sizeof(st));
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	n->ended = 1;
	n->status = got == (ssize_t)sizeof(st) ? st : -1;
	early_note(n);
}

void
net_tick(struct net_run *n)
{
	if (!n->active || n->pid <= 0)
		return;
	read_reports(n);
	net_poll_end(n);
}

/* Wait up to ms for the status pipe to say the proxy's end. */
static void
await_end(struct net_run *n, int ms)
{
	/* the reports are read while waiting: a proxy that says at its end
	 * what it could not pass earlier finds room in the pipe */
	while (!n->ended && n->status_fd >= 0 && ms > 0) {
		struct pollfd pf[2] = { { n->status_fd, POLLIN, 0 },
					{ n->report_fd, POLLIN, 0 } };

		if (poll(pf, n->report_fd >= 0 ? 2 : 1, 50) < 0 &&
		    errno != EINTR)
			break;
		ms -= 50;
		read_reports(n);
		net_poll_end(n);
	}
}

/* What the proxy wrote before its report pipe's end (bounded). */
static void
drain_reports(struct net_run *n)
{
	struct pollfd pf = { n->report_fd, POLLIN, 0 };

	for (int ms = 500; n->report_fd >= 0 && ms > 0; ms -= 50) {
		read_reports(n);
		pf.fd = n->report_fd;
		if (pf.fd >= 0 && poll(&pf, 1, 50) < 0 && errno != EINTR)
			break;
	}
	read_reports(n);
	if (n->blen > 0) /* a last line without its newline */
		net_feed(n, "\n", 1);
}

void
net_stop(struct net_run *n)
{
	if (!n->active || n->pid <= 0)
		return;
	net_tick(n); /* an end before this one was early */
	n->cmd_done = 1;
	if (n->stop_fd >= 0)
		close(n->stop_fd);
	n->stop_fd = -1;
	await_end(n, NET_STOP_MS);
	if (!n->ended) {
		kill((pid_t)n->pid, SIGKILL);
		await_end(n, 1000);
	}
	drain_reports(n);
}

void
net_free(struct net_run *n)
{
	int *fds[] = { &n->wall_sink, &n->proxy_sink, &n->report_fd,
		       &n->stop_fd, &n->status_fd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	strv_free(&n->allow);
	strv_free(&n->seen);
	if (n->loaded)
		module_free(&n->mod);
	n->loaded = 0;
}
