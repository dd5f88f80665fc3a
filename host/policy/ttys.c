/* SPDX-License-Identifier: MIT */
/* ttys.c -- the terminals the command's own stdio gives it (ttys.h).
 *
 * Nothing here trusts a name.  The descriptors 0-2 say what they are
 * (fstat, isatty, TIOCGDEV, F_GETFL); /dev/tty is asked which terminal
 * controls this process (open O_NOCTTY, TIOCGDEV: opening /dev/tty never
 * acquires one); a terminal node's name (the kernel's, from
 * /proc/self/fd/<n>, or the one the kernel's numbering gives) is granted
 * only when an O_PATH|O_NOFOLLOW open of it is the inode the descriptor
 * was opened through. */
#include "policy/ttys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/out.h"

#define DEVTTY "/dev/tty"
#define PTS_MAJOR 136 /* UNIX98_PTY_SLAVE_MAJOR: /dev/pts/<minor> */
#define VT_MAJOR 4    /* /dev/tty<1..63>, /dev/ttyS<minor - 64> */
#define TTYAUX_MAJOR 5 /* 5:0 /dev/tty, 5:1 /dev/console, 5:2 ptmx */

/* An fd that names a terminal we may reason about: opened through that
 * terminal's own node, or through /dev/tty.  A pty master (ptmx, 5:2)
 * answers TIOCGDEV with its slave and /dev/console with the console's
 * terminal: neither is that terminal, so neither counts. */
static int
usable(const struct tty_fd *t)
{
	return t->is_tty &&
	       (t->rdev == t->dev || t->rdev == makedev(TTYAUX_MAJOR, 0));
}

static int
acc_on(const struct tty_fd fds[3], dev_t dev)
{
	int acc = 0;

	for (int j = 0; j < 3; j++)
		if (usable(&fds[j]) && fds[j].dev == dev)
			acc |= fds[j].acc;
	return acc;
}

void
ttys_decide(const struct tty_fd fds[3], int ctty_ok, dev_t ctty,
	    int *devtty, int own[3])
{
	*devtty = 0;
	for (int i = 0; i < 3; i++) {
		own[i] = 0;
		if (!usable(&fds[i]) ||
		    acc_on(fds, fds[i].dev) != (TTY_ACC_READ | TTY_ACC_WRITE))
			continue;
		if (ctty_ok && fds[i].dev == ctty)
			*devtty = 1;
		if (fds[i].rdev != fds[i].dev)
			continue;
		own[i] = 1;
		for (int j = 0; j < i; j++)
			if (own[j] && fds[j].dev == fds[i].dev)
				own[i] = 0;
	}
}

int
ttys_name_of(dev_t dev, char *buf, size_t n)
{
	unsigned int ma = major(dev), mi = minor(dev);
	int k;

	if (ma == PTS_MAJOR)
		k = snprintf(buf, n, "/dev/pts/%u", mi);
	else if (ma == VT_MAJOR && mi >= 1 && mi < 64)
		k = snprintf(buf, n, "/dev/tty%u", mi);
	else if (ma == VT_MAJOR && mi >= 64 && mi < 256)
		k = snprintf(buf, n, "/dev/ttyS%u", mi - 64);
	else
		return -1;
	return k > 0 && (size_t)k < n ? 0 : -1;
}

#ifdef TIOCGDEV
/* TIOCGDEV answers the kernel's new_encode_dev() form. */
static dev_t
decode_dev(unsigned int d)
{
	return makedev((d & 0xfff00u) >> 8, (d & 0xffu) | ((d >> 12) & 0xfff00u));
}

static int
tty_dev(int fd, dev_t *out)
{
	unsigned int d = 0;

	if (ioctl(fd, TIOCGDEV, &d) != 0)
		return -1;
	*out = decode_dev(d);
	return 0;
}

/* fd i as a tty_fd; *st its fstat (valid when is_tty). */
static void
probe_fd(int fd, struct tty_fd *t, struct stat *st)
{
	int fl;

	memset(t, 0, sizeof(*t));
	/* isatty() first: TIOCGDEV is asked of terminals only, never of a
	 * device that might read the request number as something else */
	if (fstat(fd, st) != 0 || !S_ISCHR(st->st_mode) || !isatty(fd) ||
	    tty_dev(fd, &t->dev) != 0 || (fl = fcntl(fd, F_GETFL)) < 0)
		return;
	t->is_tty = 1;
	t->rdev = st->st_rdev;
	if ((fl & O_ACCMODE) != O_WRONLY)
		t->acc |= TTY_ACC_READ;
	if ((fl & O_ACCMODE) != O_RDONLY)
		t->acc |= TTY_ACC_WRITE;
}

/* The controlling terminal of this process; 0 when it has none. */
static int
ctty_dev(dev_t *out)
{
	int fd = open(DEVTTY, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return 0;
	rc = tty_dev(fd, out);
	close(fd);
	return rc == 0;
}

/* Is path, not followed, a character device that is `want`: the same
 * inode (st_dev, st_ino) when want_inode, else the same st_rdev? */
static int
node_is(const char *path, const struct stat *want, int want_inode)
{
	struct stat st;
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	     st.st_rdev == want->st_rdev &&
	     (!want_inode ||
	      (st.st_dev == want->st_dev && st.st_ino == want->st_ino));
	close(fd);
	return ok;
}

/* The node fd was opened through, by a name verified against the fd's
 * own inode, into buf; 0, or -1 when no name is that inode. */
static int
own_node(int fd, const struct tty_fd *t, const struct stat *st, char *buf,
	 size_t n)
{
	char link[32];
	ssize_t k;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	k = readlink(link, buf, n - 1);
	if (k > 0 && (size_t)k < n - 1 && buf[0] == '/') {
		buf[k] = '\0';
		if (node_is(buf, st, 1))
			return 0;
	}
	/* /proc/self is absent where this process is outside the PID
	 * namespace of the mounted /proc (run's keeper): the kernel's own
	 * numbering names the node, and the inode still decides */
	if (ttys_name_of(t->dev, buf, n) == 0 && node_is(buf, st, 1))
		return 0;
	return -1;
}

static int
push_once(struct strv *out, const char *p)
{
	return strv_contains(out, p) ? 0 : strv_push(out, p);
}

int
ttys_stdio(struct strv *out)
{
	struct tty_fd fds[3];
	struct stat st[3], dt;
	dev_t ctty = 0;
	int devtty, own[3], ok = ctty_dev(&ctty);
	char name[256];

	for (int i = 0; i < 3; i++)
		probe_fd(i, &fds[i], &st[i]);
	ttys_decide(fds, ok, ctty, &devtty, own);
	memset(&dt, 0, sizeof(dt));
	dt.st_rdev = makedev(TTYAUX_MAJOR, 0);
	if (devtty && node_is(DEVTTY, &dt, 0) && push_once(out, DEVTTY) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (own[i] && own_node(i, &fds[i], &st[i], name,
				       sizeof(name)) == 0 &&
		    push_once(out, name) < 0)
			return -1;
	return 0;
}
#else
int
ttys_stdio(struct strv *out)
{
	(void)out; /* no TIOCGDEV: no terminal is granted by name */
	return 0;
}
#endif

int
ttys_field(struct sbuf *b, const struct strv *ttys)
{
	if (sbuf_add(b, " tty=") < 0)
		return -1;
	if (ttys->n == 0)
		return sbuf_add(b, "-");
	for (size_t i = 0; i < ttys->n; i++) {
		char *f = out_field(ttys->v[i]);
		int rc = f == NULL || (i && sbuf_add(b, ",") < 0) ? -1 : 0;

		for (const char *c = f; rc == 0 && *c; c++)
			rc = *c == ',' ? sbuf_add(b, "\\x2c") :
					 sbuf_addn(b, c, 1);
		free(f);
		if (rc < 0)
			return -1;
	}
	return 0;
}
