/* SPDX-License-Identifier: MIT */
/* esc_hold.c -- the targets of the escape suite, set up OUTSIDE the wall by
 * the harness as the same user the walled command runs as, and the probes
 * the harness uses to look at them afterwards.
 *
 * Holders write "key=value" lines to INFO (atomically: INFO.tmp, rename),
 * then wait; SIGTERM (or 60 s) makes them remove what they made and exit:
 *
 *   esc_hold victim INFO MARK     a process in a session of its own; pid=,
 *                                 addr= (a secret in its memory), fd=;
 *                                 SIGURG creates MARK
 *   esc_hold pty INFO             a pty; pts=<slave path>
 *   esc_hold shm INFO NAME        /dev/shm/NAME, 0600, a secret inside
 *   esc_hold mq INFO NAME         a POSIX queue /NAME, 0600, one message
 *   esc_hold sysv INFO KEY        shm KEY, msg KEY+1 (one message),
 *                                 sem KEY+2 (value 1), all 0600
 *   esc_hold key INFO DESC        a "user" key DESC in @u; serial=
 *   esc_hold abstract INFO NAME   a listening abstract unix socket @NAME
 *   esc_hold unixsock INFO PATH   a listening pathname unix socket
 *   esc_hold listen INFO          loopback tcp=, mptcp=, udp=, udp6= ports
 *   esc_hold xchg INFO A B        swaps A and B (renameat2 RENAME_EXCHANGE)
 *                                 in a loop: a process left by an earlier run
 *
 * One-shot probes (exit 0 yes, 1 no, 2 broken):
 *
 *   esc_hold nice PID             prints the nice value
 *   esc_hold ioprio PID           prints the I/O priority
 *   esc_hold key-unlink DESC      unlinks every key DESC from @u and @us
 *   esc_hold key-has RING DESC    a "user" key DESC is in RING (-4 @u, -5 @us)
 *   esc_hold ipc-left KEY         objects with KEY..KEY+2 remain (says which)
 *   esc_hold ipc-clear KEY        removes them
 *   esc_hold blocked flock|ofd|lease PATH
 *                                 this program is kept from the file by
 *                                 someone else's lock or lease */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static volatile sig_atomic_t stop;
static const char *mark;
static char secret[32] = "victim-secret";

static void
on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void
on_urg(int sig)
{
	int fd;

	(void)sig;
	fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static int
fail(const char *what)
{
	fprintf(stderr, "esc_hold: %s: %s\n", what, strerror(errno));
	return 2;
}

static long
num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "esc_hold: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

/* write INFO atomically */
static int
info(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, path);
}

static void
arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	alarm(60);
}

static void
wait_stop(void)
{
	while (!stop)
		pause();
}

static int
h_victim(char **a)
{
	struct sigaction sa;
	char text[256];
	int fd = open("/dev/null", O_RDONLY);

	mark = a[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_urg;
	sigaction(SIGURG, &sa, NULL);
	setsid();
	snprintf(text, sizeof(text), "pid=%d\naddr=%p\nfd=%d\n", (int)getpid(),
		 (void *)secret, fd);
	if (info(a[0], text) != 0)
		return fail("info");
	wait_stop();
	return 0;
}

static int
h_pty(char **a)
{
	char text[256];
	const char *s;
	int m = posix_openpt(O_RDWR | O_NOCTTY);

	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 ||
	    (s = ptsname(m)) == NULL)
		return fail("pty");
	snprintf(text, sizeof(text), "pts=%s\n", s);
	if (info(a[0], text) != 0)
		return fail("info");
	wait_stop();
	return 0;
}

static int
h_shm(char **a)
{
	int fd = shm_open(a[1], O_RDWR | O_CREAT | O_EXCL, 0600);
	char text[256];

	if (fd < 0)
		return fail("shm_open");
	if (write(fd, "shm-secret\n", 11) != 11)
		return fail("write");
	snprintf(text, sizeof(text), "path=/dev/shm/%s\n", a[1]);
	if (info(a[0], text) != 0)
		return fail("info");
	wait_stop();
	shm_unlink(a[1]);
	return 0;
}

static int
h_mq(char **a)
{
	char name[256], text[300];
	mqd_t q;

	snprintf(name, sizeof(name), "/%s", a[1]);
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	if (q == (mqd_t)-1)
		return fail("mq_open");
	if (mq_send(q, "mq-secret", 9, 0) != 0)
		return fail("mq_send");
	snprintf(text, sizeof(text), "name=%s\n", name);
	if (info(a[0], text) != 0)
		return fail("info");
	wait_stop();
	mq_unlink(name);
	return 0;
}

static int
h_sysv(char **a)
{
	struct { long t; char b[16]; } m = { 1, "msg-secret" };
	key_t k = (key_t)num(a[1]);
	int shm, msg, sem;
	char *p;

	shm = shmget(k, 4096, IPC_CREAT | IPC_EXCL | 0600);
	msg = msgget(k + 1, IPC_CREAT | IPC_EXCL | 0600);
	sem = semget(k + 2, 1, IPC_CREAT | IPC_EXCL | 0600);
	if (shm < 0 || msg < 0 || sem < 0)
		return fail("sysv create");
	p = shmat(shm, NULL, 0);
	if (p == (void *)-1)
		return fail("shmat");
	memcpy(p, "sysv-secret", 12);
	shmdt(p);
	if (msgsnd(msg, &m, 10, 0) != 0 || semctl(sem, 0, SETVAL, 1) != 0)
		return fail("msg/sem");
	if (info(a[0], "ready=1\n") != 0)
		return fail("info");
	wait_stop();
	shmctl(shm, IPC_RMID, NULL);
	msgctl(msg, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	return 0;
}

static int
h_key(char **a)
{
	char text[64];
	long k = syscall(SYS_add_key, "user", a[1], "key-secret", 10,
			 KEY_SPEC_USER_KEYRING);

	if (k < 0)
		return fail("add_key");
	snprintf(text, sizeof(text), "serial=%ld\n", k);
	if (info(a[0], text) != 0)
		return fail("info");
	wait_stop();
	syscall(SYS_keyctl, KEYCTL_UNLINK, k, KEY_SPEC_USER_KEYRING);
	syscall(SYS_keyctl, KEYCTL_INVALIDATE, k);
	return 0;
}

static void
accept_loop(int s)
{
	struct pollfd p = { .fd = s, .events = POLLIN };

	while (!stop) {
		if (poll(&p, 1, 200) > 0) {
			int c = accept(s, NULL, NULL);

			if (c >= 0)
				close(c);
		}
	}
}

static int
h_unix(const char *inf, const char *name, int abstract)
{
	struct sockaddr_un sa;
	size_t n = strlen(name);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (s < 0 || n + 2 > sizeof(sa.sun_path))
		return fail("socket");
	memcpy(sa.sun_path + (abstract ? 1 : 0), name, n);
	if (bind(s, (struct sockaddr *)&sa,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			     (abstract ? 1 : 0))) != 0 || listen(s, 8) != 0)
		return fail("bind");
	if (!abstract)
		chmod(name, 0777);
	if (info(inf, "ready=1\n") != 0)
		return fail("info");
	accept_loop(s);
	if (!abstract)
		unlink(name);
	return 0;
}

static int h_abstract(char **a) { return h_unix(a[0], a[1], 1); }
static int h_unixsock(char **a) { return h_unix(a[0], a[1], 0); }

static int
bound(int fam, int type, int proto, unsigned *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int s = socket(fam, type, proto);

	*port = 0;
	if (s < 0)
		return -1;
	memset(&ss, 0, sizeof(ss));
	if (fam == AF_INET) {
		struct sockaddr_in *si = (struct sockaddr_in *)&ss;

		si->sin_family = AF_INET;
		si->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*si);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		len = sizeof(*s6);
	}
	if (bind(s, (struct sockaddr *)&ss, len) != 0 ||
	    (type == SOCK_STREAM && listen(s, 16) != 0) ||
	    getsockname(s, (struct sockaddr *)&ss, &len) != 0) {
		close(s);
		return -1;
	}
	*port = ntohs(fam == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
				     : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return s;
}

static int
h_listen(char **a)
{
	struct pollfd p[4];
	unsigned port[4];
	char text[256], buf[64], got[4096];
	int i;

	p[0].fd = bound(AF_INET, SOCK_STREAM, 0, &port[0]);
	p[1].fd = bound(AF_INET, SOCK_STREAM, IPPROTO_MPTCP, &port[1]);
	p[2].fd = bound(AF_INET, SOCK_DGRAM, 0, &port[2]);
	p[3].fd = bound(AF_INET6, SOCK_DGRAM, 0, &port[3]);
	for (i = 0; i < 4; i++)
		p[i].events = POLLIN;
	snprintf(text, sizeof(text), "tcp=%u\nmptcp=%u\nudp=%u\nudp6=%u\n",
		 port[0], port[1], port[2], port[3]);
	if (info(a[0], text) != 0)
		return fail("info");
	while (!stop) {
		if (poll(p, 4, 200) <= 0)
			continue;
		for (i = 0; i < 4; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			if (i < 2) {
				int c = accept(p[i].fd, NULL, NULL);

				if (c >= 0)
					close(c);
			} else if (recv(p[i].fd, buf, sizeof(buf), 0) >= 0) {
				/* a datagram arrived: <INFO>.got says so */
				snprintf(got, sizeof(got), "%s.got", a[0]);
				(void)info(got, "udp\n");
			}
		}
	}
	return 0;
}

static int
h_xchg(char **a)
{
	if (info(a[0], "ready=1\n") != 0)
		return fail("info");
	while (!stop)
		if (renameat2(AT_FDCWD, a[1], AT_FDCWD, a[2], RENAME_EXCHANGE) != 0)
			return fail("renameat2");
	return 0;
}

/* ---- probes --------------------------------------------------------- */

static int
p_nice(char **a)
{
	int v;

	errno = 0;
	v = getpriority(PRIO_PROCESS, (id_t)num(a[0]));
	if (v == -1 && errno)
		return fail("getpriority");
	printf("%d\n", v);
	return 0;
}

static int
p_ioprio(char **a)
{
	long v = syscall(SYS_ioprio_get, 1, (int)num(a[0]));

	if (v < 0)
		return fail("ioprio_get");
	printf("%ld\n", v);
	return 0;
}

static void
unlink_from(long ring, const char *desc)
{
	long k;

	while ((k = syscall(SYS_keyctl, KEYCTL_SEARCH, ring, "user", desc,
			    0)) >= 0) {
		syscall(SYS_keyctl, KEYCTL_INVALIDATE, k);
		if (syscall(SYS_keyctl, KEYCTL_UNLINK, k, ring) != 0)
			break;
	}
}

static int
p_key_unlink(char **a)
{
	unlink_from(KEY_SPEC_USER_KEYRING, a[0]);
	unlink_from(KEY_SPEC_USER_SESSION_KEYRING, a[0]);
	return 0;
}

static int
p_key_has(char **a)
{
	return syscall(SYS_keyctl, KEYCTL_SEARCH, num(a[0]), "user", a[1],
		       0) >= 0 ? 0 : 1;
}

static int
p_ipc_left(char **a)
{
	key_t k = (key_t)num(a[0]);
	int n = 0;

	if (shmget(k, 0, 0) >= 0 && ++n)
		printf("shm key %d remains\n", (int)k);
	if (msgget(k + 1, 0) >= 0 && ++n)
		printf("msg key %d remains\n", (int)k + 1);
	if (semget(k + 2, 0, 0) >= 0 && ++n)
		printf("sem key %d remains\n", (int)k + 2);
	return n ? 0 : 1;
}

static int
p_ipc_clear(char **a)
{
	key_t k = (key_t)num(a[0]);
	int id;

	if ((id = shmget(k, 0, 0)) >= 0)
		shmctl(id, IPC_RMID, NULL);
	if ((id = msgget(k + 1, 0)) >= 0)
		msgctl(id, IPC_RMID, NULL);
	if ((id = semget(k + 2, 0, 0)) >= 0)
		semctl(id, 0, IPC_RMID);
	return 0;
}

static int
p_blocked(char **a)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd;

	if (strcmp(a[0], "lease") == 0) {
		fd = open(a[1], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == EWOULDBLOCK)
			return 0;
		return fd < 0 ? fail("open") : 1;
	}
	fd = open(a[1], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail("open");
	if (strcmp(a[0], "flock") == 0) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			return 1;
		return errno == EWOULDBLOCK ? 0 : fail("flock");
	}
	if (fcntl(fd, F_OFD_SETLK, &l) == 0)
		return 1;
	return errno == EAGAIN || errno == EACCES ? 0 : fail("F_OFD_SETLK");
}

struct cmd {
	const char *name;
	int nargs;
	int hold;
	int (*fn)(char **);
};

static const struct cmd cmds[] = {
	{ "victim", 2, 1, h_victim },
	{ "pty", 1, 1, h_pty },
	{ "shm", 2, 1, h_shm },
	{ "mq", 2, 1, h_mq },
	{ "sysv", 2, 1, h_sysv },
	{ "key", 2, 1, h_key },
	{ "abstract", 2, 1, h_abstract },
	{ "unixsock", 2, 1, h_unixsock },
	{ "listen", 1, 1, h_listen },
	{ "xchg", 3, 1, h_xchg },
	{ "nice", 1, 0, p_nice },
	{ "ioprio", 1, 0, p_ioprio },
	{ "key-unlink", 1, 0, p_key_unlink },
	{ "key-has", 2, 0, p_key_has },
	{ "ipc-left", 1, 0, p_ipc_left },
	{ "ipc-clear", 1, 0, p_ipc_clear },
	{ "blocked", 2, 0, p_blocked },
};

int
main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name) != 0)
			continue;
		if (argc - 2 != cmds[i].nargs) {
			fprintf(stderr, "esc_hold: %s wants %d argument(s)\n",
				cmds[i].name, cmds[i].nargs);
			return 2;
		}
		if (cmds[i].hold)
			arm();
		return cmds[i].fn(argv + 2);
	}
	fprintf(stderr, "esc_hold: unknown command %s\n",
		argc > 1 ? argv[1] : "-");
	return 2;
}
