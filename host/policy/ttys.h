/* SPDX-License-Identifier: MIT */
/* ttys.h -- the terminals the command's own stdio already gives it
 * (docs/SPEC-SANDBOX.md §6, the device rows; issue 7 class 2).
 *
 * A terminal is granted by name only when the command's fds 0-2 already
 * hold it for reading AND writing, so the name adds nothing the
 * descriptors do not give: /dev/tty when that terminal is the caller's
 * controlling terminal, and the terminal's own node (/dev/pts/N, /dev/ttyN)
 * when a descriptor was opened through that node.  Everything is decided
 * on the descriptors (fstat, TIOCGDEV); a node's name is only believed
 * after it is opened O_PATH|O_NOFOLLOW and found to be the very inode the
 * descriptor was opened through. */
#ifndef NS_HOST_TTYS_H
#define NS_HOST_TTYS_H

#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define TTY_ACC_READ 1
#define TTY_ACC_WRITE 2

/* What one of fds 0-2 is, as ttys_stdio() finds it. */
struct tty_fd {
	int is_tty;  /* isatty() and TIOCGDEV answered */
	uint64_t dev;  /* the terminal (TIOCGDEV) */
	uint64_t rdev;  /* fstat st_rdev: == dev when opened through its node */
	int acc;     /* TTY_ACC_* of the open file description */
};

/* The pure decision over the three descriptors: *devtty = 1 when /dev/tty
 * is granted (ctty_ok and some fd is the controlling terminal ctty, and
 * the fds on it read and write); own[i] = 1 when fd i's terminal node is
 * granted (opened through its own node, the fds on that terminal read and
 * write, and no earlier fd names the same terminal). */
void ttys_decide(const struct tty_fd fds[3], int ctty_ok, uint64_t ctty,
		 int *devtty, int own[3]);

/* The name the kernel gives terminal `dev` (/dev/pts/N, /dev/ttyN,
 * /dev/ttySN) into buf; 0, or -1 when this tool knows no name for it. */
int ttys_name_of(uint64_t dev, char *buf, size_t n);

/* Look at this process's fds 0-2 (they become the command's) and push the
 * paths to grant onto out: "/dev/tty" first, then each terminal node, each
 * once.  0, or -1 on allocation failure. */
int ttys_stdio(struct strv *out);

/* " tty=<paths>" for the OK lines: each path field-escaped, a ',' inside
 * as \x2c, joined by ','; "-" when none.  0, or -1 on ENOMEM. */
int ttys_field(struct sbuf *b, const struct strv *ttys);

#endif
