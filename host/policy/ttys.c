/* SPDX-License-Identifier: MIT */
/* ttys.c -- the terminals the command's own stdio gives it (ttys.h).
 *
 * Nothing here trusts a name.  The descriptors 0-2 say what they are
 * (os_tty_probe: fstat, isatty, TIOCGDEV, F_GETFL; a platform that cannot
 * say which terminal a descriptor is grants none by name); /dev/tty is asked which terminal
 * controls this process (open O_NOCTTY, TIOCGDEV: opening /dev/tty never
 * acquires one); a terminal node's name (the kernel's, from
 * /proc/self/fd/<n>, or the one the kernel's numbering gives) is granted
 * only when an O_PATH|O_NOFOLLOW open of it is the inode the descriptor
 * was opened through. */
#include "policy/ttys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"

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
	       (t->rdev == t->dev || t->rdev == os_dev_make(TTYAUX_MAJOR, 0));
}

static int
acc_on(const struct tty_fd fds[3], uint64_t dev)
{
	int acc = 0;

	for (int j = 0; j < 3; j++)
		if (usable(&fds[j]) && fds[j].dev == dev)
			acc |= fds[j].acc;
	return acc;
}

void
ttys_decide(const struct tty_fd fds[3], int ctty_ok, uint64_t ctty,
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
ttys_name_of(uint64_t dev, char *buf, size_t n)
{
	unsigned int ma = os_dev_major(dev), mi = os_dev_minor(dev);
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

/* Is path, not followed, a character device that is `want`: the same
 * inode (dev, ino) when want_inode, else the same rdev? */
static int
node_is(const char *path, const struct os_stat *want, int want_inode)
{
	struct os_stat st;
	int fd = os_open_nofollow(path), ok;

	if (fd < 0)
		return 0;
	ok = os_fstat(fd, &st) == 0 && S_ISCHR(st.mode) &&
	     st.rdev == want->rdev &&
	     (!want_inode || (st.dev == want->dev && st.ino == want->ino));
	close(fd);
	return ok;
}

/* The node fd was opened through, by a name verified against the fd's
 * own inode, into buf; 0, or -1 when no name is that inode. */
static int
own_node(int fd, const struct tty_fd *t, const struct os_stat *st, char *buf,
	 size_t n)
{
	char *real = os_fd_real_path(fd);

	if (real != NULL && strlen(real) < n) {
		memcpy(buf, real, strlen(real) + 1);
		free(real);
		if (node_is(buf, st, 1))
			return 0;
	} else {
		free(real);
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
	struct os_stat st[3], dt;
	uint64_t ctty = 0;
	int devtty, own[3], ok = os_ctty_dev(&ctty);
	char name[256];

	for (int i = 0; i < 3; i++) {
		memset(&fds[i], 0, sizeof(fds[i]));
		if (os_tty_probe(i, &fds[i].dev, &st[i], &fds[i].acc) == 0) {
			fds[i].is_tty = 1;
			fds[i].rdev = st[i].rdev;
		}
	}
	ttys_decide(fds, ok, ctty, &devtty, own);
	memset(&dt, 0, sizeof(dt));
	dt.rdev = os_dev_make(TTYAUX_MAJOR, 0);
	if (devtty && node_is(DEVTTY, &dt, 0) && push_once(out, DEVTTY) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (own[i] && own_node(i, &fds[i], &st[i], name,
				       sizeof(name)) == 0 &&
		    push_once(out, name) < 0)
			return -1;
	return 0;
}

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
