/* SPDX-License-Identifier: MIT */
/* ns_dev.c -- device and socket attempts for the wall tests (issue 7,
 * classes 2 and 6), and the holders a test starts OUTSIDE the wall.
 *
 * Attempts (run walled, and unwalled as the control): exit 0 and "ok"
 * (plus "data=<first line>" when something was read) when the attempt
 * SUCCEEDED, exit 1 and "denied: <what>: <errno text>" when the system
 * refused it, exit 2 on bad usage.
 *
 *   ns_dev read PATH        open O_RDONLY|O_NOCTTY|O_NONBLOCK, read
 *   ns_dev write PATH       open O_WRONLY|O_NOCTTY, write one byte
 *   ns_dev open-tty         open /dev/tty O_RDWR|O_NOCTTY
 *   ns_dev shm-read NAME    shm_open(NAME, O_RDONLY), read
 *   ns_dev shm-make NAME    shm_open(NAME, O_CREAT|O_EXCL) inside, unlink
 *   ns_dev devs             read null zero full random urandom, write null
 *                           zero and full (full must say ENOSPC)
 *   ns_dev ptmx             open /dev/ptmx (a new pty)
 *   ns_dev connect PATH     connect a unix stream socket to PATH
 *
 * Holders (outside; each writes its name to FILE when ready, then waits
 * for SIGTERM or 120 seconds, and removes what it made):
 *
 *   ns_dev hold-pty FILE    a pty pair with "typed-secret" waiting as
 *                           input on the slave; FILE gets the slave path
 *   ns_dev hold-shm NAME FILE   a 0600 POSIX shm object holding
 *                               "shm-secret"
 *   ns_dev hold-unix PATH FILE  a listening unix stream socket at PATH
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop;

static void
on_term(int sig)
{
	(void)sig;
	g_stop = 1;
}

static int
verdict(int rc, const char *what)
{
	if (rc == 0) {
		printf("ok\n");
		return 0;
	}
	printf("denied: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Read what fd holds now (non-blocking) and say its first line. */
static int
read_and_say(int fd, const char *what)
{
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int e = errno;

	close(fd);
	if (n < 0 && e != EAGAIN) {
		errno = e;
		return verdict(-1, what);
	}
	printf("ok\n");
	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\r\n")] = '\0';
		printf("data=%s\n", buf);
	}
	return 0;
}

static int
try_read(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return verdict(-1, "open");
	return read_and_say(fd, "read");
}

static int
try_write(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return verdict(-1, "open");
	rc = write(fd, "x", 1) == 1 ? 0 : -1;
	close(fd);
	return verdict(rc, "write");
}

static int
try_shm_read(const char *name)
{
	int fd = shm_open(name, O_RDONLY, 0);

	if (fd < 0)
		return verdict(-1, "shm_open");
	return read_and_say(fd, "read");
}

static int
try_shm_make(const char *name)
{
	int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);

	if (fd < 0)
		return verdict(-1, "shm_open");
	close(fd);
	shm_unlink(name);
	return verdict(0, "shm_open");
}

/* One expectation of `devs`: open path with flags, then read or write n
 * bytes; want_errno 0 means the transfer must succeed. */
static int
dev_step(const char *path, int flags, int want_errno)
{
	char buf[8] = "abcdefg";
	int fd = open(path, flags | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0) {
		printf("denied: open %s: %s\n", path, strerror(errno));
		return 1;
	}
	n = (flags & O_ACCMODE) == O_RDONLY ? read(fd, buf, 4) :
					      write(fd, buf, 4);
	e = errno;
	close(fd);
	if (want_errno == 0 && n >= 0)
		return 0;
	if (want_errno != 0 && n < 0 && e == want_errno)
		return 0;
	printf("denied: %s %s: %s\n", (flags & O_ACCMODE) == O_RDONLY ?
	       "read" : "write", path, n < 0 ? strerror(e) : "succeeded");
	return 1;
}

static int
try_devs(void)
{
	static const struct {
		const char *path;
		int flags;
		int want_errno;
	} steps[] = {
		{ "/dev/null", O_RDONLY, 0 },    { "/dev/null", O_WRONLY, 0 },
		{ "/dev/zero", O_RDONLY, 0 },    { "/dev/zero", O_WRONLY, 0 },
		{ "/dev/full", O_RDONLY, 0 },
		{ "/dev/full", O_WRONLY, ENOSPC },
		{ "/dev/random", O_RDONLY, 0 },  { "/dev/urandom", O_RDONLY, 0 },
	};

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (dev_step(steps[i].path, steps[i].flags,
			     steps[i].want_errno) != 0)
			return 1;
	printf("ok\n");
	return 0;
}

static int
unix_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa->sun_path, path, strlen(path));
	return 0;
}

static int
try_connect(const char *path)
{
	struct sockaddr_un sa;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || unix_addr(path, &sa) != 0)
		return verdict(-1, "socket");
	return verdict(connect(s, (struct sockaddr *)&sa, sizeof(sa)),
		       "connect");
}

/* ---- holders ------------------------------------------------------------ */

static int
announce(const char *file, const char *what)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (f == NULL || fprintf(f, "%s\n", what) < 0 || fclose(f) != 0 ||
	    rename(tmp, file) != 0) {
		perror("ns_dev: announce");
		return -1;
	}
	return 0;
}

static void
wait_for_term(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (int i = 0; i < 1200 && !g_stop; i++)
		usleep(100000);
}

static int
hold_pty(const char *file)
{
	const char *slave;
	int m, s;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 ||
	    (slave = ptsname(m)) == NULL) {
		perror("ns_dev: pty");
		return 2;
	}
	s = open(slave, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0 || write(m, "typed-secret\n", 13) != 13) {
		perror("ns_dev: pty slave");
		return 2;
	}
	if (announce(file, slave) != 0)
		return 2;
	wait_for_term();
	close(s);
	close(m);
	return 0;
}

static int
hold_shm(const char *name, const char *file)
{
	int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);

	if (fd < 0 || write(fd, "shm-secret\n", 11) != 11) {
		perror("ns_dev: shm");
		return 2;
	}
	if (announce(file, name) != 0) {
		shm_unlink(name);
		return 2;
	}
	wait_for_term();
	shm_unlink(name);
	close(fd);
	return 0;
}

static int
hold_unix(const char *path, const char *file)
{
	struct sockaddr_un sa;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || unix_addr(path, &sa) != 0 ||
	    bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(s, 8) != 0) {
		perror("ns_dev: unix");
		return 2;
	}
	if (announce(file, path) != 0) {
		unlink(path);
		return 2;
	}
	wait_for_term();
	close(s);
	unlink(path);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (argc == 3 && strcmp(c, "read") == 0)
		return try_read(argv[2]);
	if (argc == 3 && strcmp(c, "write") == 0)
		return try_write(argv[2]);
	if (argc == 2 && strcmp(c, "open-tty") == 0) {
		int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

		return verdict(fd < 0 ? -1 : 0, "open /dev/tty");
	}
	if (argc == 3 && strcmp(c, "shm-read") == 0)
		return try_shm_read(argv[2]);
	if (argc == 3 && strcmp(c, "shm-make") == 0)
		return try_shm_make(argv[2]);
	if (argc == 2 && strcmp(c, "devs") == 0)
		return try_devs();
	if (argc == 2 && strcmp(c, "ptmx") == 0)
		return verdict(posix_openpt(O_RDWR | O_NOCTTY) < 0 ? -1 : 0,
			       "open /dev/ptmx");
	if (argc == 3 && strcmp(c, "connect") == 0)
		return try_connect(argv[2]);
	if (argc == 3 && strcmp(c, "hold-pty") == 0)
		return hold_pty(argv[2]);
	if (argc == 4 && strcmp(c, "hold-shm") == 0)
		return hold_shm(argv[2], argv[3]);
	if (argc == 4 && strcmp(c, "hold-unix") == 0)
		return hold_unix(argv[2], argv[3]);
	fprintf(stderr, "usage: ns_dev read|write PATH | open-tty | "
			"shm-read|shm-make NAME | devs | ptmx | connect PATH "
			"| hold-pty FILE | hold-shm NAME FILE | hold-unix PATH "
			"FILE\n");
	return 2;
}
