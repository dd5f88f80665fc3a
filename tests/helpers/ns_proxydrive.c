/* SPDX-License-Identifier: MIT */
/* ns_proxydrive.c -- drive a proxy module's serve() directly, without the
 * host (tests/integration/t_netproxy.sh): the listeners made here on
 * 127.0.0.1:0, sent over a SOCK_SEQPACKET sink as the host would, serve()
 * in a forked child, its report lines printed as they come.
 *
 *   ns_proxydrive MODULE.so --ready
 *     calls ready(): exit 0, or 125 with its REFUSED line on stderr.
 *   ns_proxydrive MODULE.so [-c CONNS] [-m BYTES] [-b PORT]... [-j] ENTRY...
 *     ENTRY: NAME:PORT, *.SUFFIX:PORT, ADDR[/PLEN]:PORT, [ADDR6[/PLEN]]:PORT,
 *            loop:PORT (a loopback entry)
 *     -b PORT  a bridge listener for the host's 127.0.0.1:PORT (and its
 *              loopback entry)            -j  also send a non-listener
 *     -u PORT  a bridge listener for PORT without its loopback entry
 *     -L       read no report line before stdin's end-of-file (the report
 *              pipe shrunk to a page: lines are lost)
 *   Prints "proxy <P>", "bridge <PORT> <P>" and "pid <serve's pid>" on
 *   stdout, then "REPORT
 *   <line>" for each report line; closes stop_fd at stdin's end-of-file,
 *   then prints "EXIT <status>" (the child's exit code, 128+signal) and
 *   exits 0.  Exit 2 on bad usage or a load error. */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns_backend.h"

#define MAXN 64

static void
on_note(void *c, const char *t)
{
	(void)c;
	fprintf(stderr, "DRIVE NOTE %s\n", t);
}

static void
on_refuse(void *c, const char *r, const char *t)
{
	(void)c;
	fprintf(stderr, "DRIVE REFUSED reason=%s: %s\n", r, t);
}

static void
on_text(void *c, const char *t)
{
	(void)c;
	printf("%s\n", t);
}

static const char *
on_option(void *c, const char *k)
{
	(void)c;
	(void)k;
	return NULL;
}

static const struct ns_host host = {
	.struct_size = sizeof(struct ns_host),
	.abi_major = NS_BACKEND_ABI_MAJOR, .abi_minor = NS_BACKEND_ABI_MINOR,
	.note = on_note, .refuse = on_refuse, .text = on_text,
	.option = on_option,
};

static int
die(const char *what)
{
	fprintf(stderr, "ns_proxydrive: %s\n", what);
	return 2;
}

static int
addr_entry(struct ns_net_entry *e, char *h)
{
	char *slash = strchr(h, '/');
	long plen = -1;

	if (slash != NULL) {
		*slash = '\0';
		plen = strtol(slash + 1, NULL, 10);
	}
	e->kind = NS_NET_ADDR;
	if (inet_pton(AF_INET, h, e->addr) == 1)
		e->fam = 4;
	else if (inet_pton(AF_INET6, h, e->addr) == 1)
		e->fam = 6;
	else
		return -1;
	e->plen = (uint8_t)(plen >= 0 ? plen : e->fam == 4 ? 32 : 128);
	return 0;
}

/* One ENTRY into e (its name points into a copy of the text). */
static int
entry(struct ns_net_entry *e, const char *text)
{
	static char copies[MAXN][256];
	static size_t used;
	char *h = used < MAXN ? copies[used++] : NULL, *colon;

	if (h == NULL || strlen(text) >= sizeof(copies[0]))
		return -1;
	memcpy(h, text, strlen(text) + 1);
	colon = strrchr(h, ':');
	if (colon == NULL)
		return -1;
	*colon = '\0';
	memset(e, 0, sizeof(*e));
	e->text = text;
	e->port = (uint16_t)strtol(colon + 1, NULL, 10);
	if (strcmp(h, "loop") == 0) {
		e->kind = NS_NET_LOOPBACK;
		return 0;
	}
	if (h[0] == '[') {
		h[strlen(h) - 1] = '\0';
		return addr_entry(e, h + 1);
	}
	if (strncmp(h, "*.", 2) == 0) {
		e->kind = NS_NET_SUFFIX;
		e->name = h + 2;
		return 0;
	}
	if (addr_entry(e, h) == 0)
		return 0;
	e->kind = NS_NET_NAME;
	e->name = h;
	return 0;
}

static int
listen_lo(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fd, 128) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &l) != 0)
		return -1;
	*port = ntohs(a.sin_port);
	return fd;
}

static int
send_fd(int sink, int fd, uint16_t port)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { &port, sizeof(port) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sink, &m, 0) < 0 ? -1 : 0;
}

struct run {
	struct ns_net_entry allow[MAXN];
	struct ns_proxy_conf conf;
	int lfd[MAXN];
	uint16_t lport[MAXN], bport[MAXN], uport[MAXN];
	size_t nl, nb, nu;
	int junk, late;
};

static int
parse(struct run *r, int argc, char **argv)
{
	int i = 2;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-j") == 0)
			r->junk = 1;
		else if (strcmp(argv[i], "-L") == 0)
			r->late = 1;
		else if (i + 1 >= argc)
			return -1;
		else if (strcmp(argv[i], "-c") == 0)
			r->conf.max_conns = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-m") == 0)
			r->conf.max_mem_bytes = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-b") == 0 && r->nb < MAXN)
			r->bport[r->nb++] = (uint16_t)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-u") == 0 && r->nu < MAXN)
			r->uport[r->nu++] = (uint16_t)strtoul(argv[++i], NULL, 10);
		else
			return -1;
	}
	for (; i < argc && r->conf.n_allow < MAXN - r->nb; i++)
		if (entry(&r->allow[r->conf.n_allow++], argv[i]) != 0)
			return -1;
	for (size_t b = 0; b < r->nb; b++) {
		struct ns_net_entry *e = &r->allow[r->conf.n_allow++];

		memset(e, 0, sizeof(*e));
		e->kind = NS_NET_LOOPBACK;
		e->port = r->bport[b];
		e->text = "bridge";
	}
	return 0;
}

/* The proxy's listener and each bridge's, sent into the sink. */
static int
listeners(struct run *r, int sink)
{
	uint16_t p;

	r->lfd[0] = listen_lo(&p);
	if (r->lfd[0] < 0 || send_fd(sink, r->lfd[0], p) != 0)
		return -1;
	r->conf.proxy_port = p;
	printf("proxy %u\n", p);
	for (size_t b = 0; b < r->nb; b++) {
		int fd = listen_lo(&p);

		if (fd < 0 || send_fd(sink, fd, r->bport[b]) != 0)
			return -1;
		printf("bridge %u %u\n", r->bport[b], p);
		close(fd);
	}
	for (size_t u = 0; u < r->nu; u++) {
		int fd = listen_lo(&p);

		if (fd < 0 || send_fd(sink, fd, r->uport[u]) != 0)
			return -1;
		close(fd);
	}
	if (r->junk) {
		int u = socket(AF_INET, SOCK_DGRAM, 0);

		if (u < 0 || send_fd(sink, u, 9) != 0)
			return -1;
		close(u);
	}
	close(r->lfd[0]);
	fflush(stdout);
	return 0;
}

/* Print the report lines until stdin's end-of-file (watch_stdin) or
 * the report's. */
static void
relay_reports(int rep, int watch_stdin)
{
	struct pollfd p[2] = { { watch_stdin ? 0 : -1, POLLIN, 0 },
			       { rep, POLLIN, 0 } };
	char buf[4096];

	for (;;) {
		ssize_t n;

		if (poll(p, 2, -1) < 0)
			continue;
		if (p[0].revents && read(0, buf, sizeof(buf)) <= 0)
			return;
		if (p[1].revents == 0)
			continue;
		n = read(rep, buf, sizeof(buf));
		if (n <= 0)
			return;
		for (char *s = buf, *e; s < buf + n; s = e + 1) {
			e = memchr(s, '\n', (size_t)(buf + n - s));
			if (e == NULL)
				e = buf + n;
			printf("REPORT %.*s\n", (int)(e - s), s);
		}
		fflush(stdout);
	}
}

static int
drive(const struct ns_proxy_ops *ops, struct run *r)
{
	int sk[2], rp[2], st[2], status = 0;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sk) != 0 ||
	    pipe(rp) != 0 || pipe(st) != 0)
		return die("socketpair/pipe");
	if (r->late)
		(void)fcntl(rp[1], F_SETPIPE_SZ, 4096);
	r->conf.struct_size = sizeof(r->conf);
	r->conf.allow = r->allow;
	r->conf.sink_fd = sk[1];
	r->conf.report_fd = rp[1];
	r->conf.stop_fd = st[0];
	if (listeners(r, sk[0]) != 0)
		return die("listeners");
	close(sk[0]);
	pid = fork();
	if (pid == 0) {
		close(rp[0]);
		close(st[1]);
		_exit(ops->serve(&host, &r->conf) == NS_OK ? 0 : 1);
	}
	close(sk[1]);
	close(rp[1]);
	close(st[0]);
	printf("pid %ld\n", (long)pid);
	fflush(stdout);
	if (r->late) {
		char b[256];

		while (read(0, b, sizeof(b)) > 0)
			;
	} else {
		relay_reports(rp[0], 1);
	}
	close(st[1]);
	relay_reports(rp[0], 0);
	waitpid(pid, &status, 0);
	printf("EXIT %d\n", WIFEXITED(status) ? WEXITSTATUS(status)
					      : 128 + WTERMSIG(status));
	fflush(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct run r;
	const struct ns_backend_ops *b;
	void *h;

	if (argc < 3)
		return die("usage: ns_proxydrive MODULE.so [--ready | ENTRY...]");
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	b = h ? dlsym(h, NS_BACKEND_SYMBOL) : NULL;
	if (b == NULL || !(b->roles & NS_ROLE_PROXY) || b->proxy == NULL)
		return die(h ? "not a proxy module" : dlerror());
	if (strcmp(argv[2], "--ready") == 0)
		return b->proxy->ready(&host) == NS_OK ? 0 : 125;
	if (parse(&r, argc, argv) != 0)
		return die("bad arguments");
	return drive(b->proxy, &r);
}
