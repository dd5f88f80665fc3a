/* SPDX-License-Identifier: MIT */
/* test_ttys.c -- host/policy/ttys.c: which terminals the command's stdio gives
 * it (SPEC §6, the device rows), decided on descriptor facts; the names
 * the kernel's numbering gives; the tty= field; and the real descriptors
 * of this process when they are not terminals. */
#include <CUnit/CUnit.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "policy/ttys.h"

#define RW (TTY_ACC_READ | TTY_ACC_WRITE)
#define PTS3 makedev(136, 3)
#define PTS4 makedev(136, 4)
#define DEVTTY makedev(5, 0)
#define PTMX makedev(5, 2)

static const struct tty_fd none = { 0, 0, 0, 0 };

static struct tty_fd
own(dev_t d, int acc)
{
	struct tty_fd t = { 1, d, d, acc };

	return t;
}

static struct tty_fd
via(dev_t rdev, dev_t d, int acc)
{
	struct tty_fd t = { 1, d, rdev, acc };

	return t;
}

static void
decide(struct tty_fd a, struct tty_fd b, struct tty_fd c, int ctty_ok,
       dev_t ctty, int *devtty, int o[3])
{
	struct tty_fd fds[3] = { a, b, c };

	ttys_decide(fds, ctty_ok, ctty, devtty, o);
}

static void
test_stdio_on_ctty(void)
{
	int dt, o[3];

	/* a shell's 0, 1, 2: one O_RDWR open of the ctty */
	decide(own(PTS3, RW), own(PTS3, RW), own(PTS3, RW), 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 1);
	CU_ASSERT_EQUAL(o[0], 1);
	CU_ASSERT_EQUAL(o[1], 0); /* the same terminal, once */
	CU_ASSERT_EQUAL(o[2], 0);
	/* stdin away, stderr still the O_RDWR terminal: it reads through 2 */
	decide(none, none, own(PTS3, RW), 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 1);
	CU_ASSERT_EQUAL(o[2], 1);
}

static void
test_stdio_away(void)
{
	int dt, o[3];

	decide(none, none, none, 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0] | o[1] | o[2], 0);
	/* a terminal that is not the controlling one: its node, never tty */
	decide(own(PTS4, RW), none, none, 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0], 1);
	/* no controlling terminal at all */
	decide(own(PTS3, RW), none, none, 0, 0, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0], 1);
}

static void
test_modes(void)
{
	int dt, o[3];

	/* write-only: the name would add reading */
	decide(none, own(PTS3, TTY_ACC_WRITE), own(PTS3, TTY_ACC_WRITE), 1,
	       PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0] | o[1] | o[2], 0);
	/* read on 0 and write on 1: together read and write */
	decide(own(PTS3, TTY_ACC_READ), own(PTS3, TTY_ACC_WRITE), none, 1,
	       PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 1);
	CU_ASSERT_EQUAL(o[0], 1);
	CU_ASSERT_EQUAL(o[1], 0);
	/* 2>/dev/tty (write only, through /dev/tty) */
	decide(none, none, via(DEVTTY, PTS3, TTY_ACC_WRITE), 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
}

static void
test_via_and_masters(void)
{
	int dt, o[3];

	/* <>/dev/tty: /dev/tty, but no node (the fd never named one) */
	decide(via(DEVTTY, PTS3, RW), none, none, 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 1);
	CU_ASSERT_EQUAL(o[0], 0);
	/* fd 0 through /dev/tty, fd 1 through the node: the node from 1 */
	decide(via(DEVTTY, PTS3, RW), own(PTS3, RW), none, 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 1);
	CU_ASSERT_EQUAL(o[1], 1);
	/* a pty master answers TIOCGDEV with its slave: it is not that
	 * terminal, so neither /dev/tty nor a node */
	decide(via(PTMX, PTS3, RW), none, none, 1, PTS3, &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0], 0);
	/* /dev/console (5:1) likewise */
	decide(via(makedev(5, 1), makedev(4, 1), RW), none, none, 1,
	       makedev(4, 1), &dt, o);
	CU_ASSERT_EQUAL(dt, 0);
	CU_ASSERT_EQUAL(o[0], 0);
}

static void
test_names(void)
{
	char b[64];

	CU_ASSERT_EQUAL(ttys_name_of(makedev(136, 0), b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/dev/pts/0");
	CU_ASSERT_EQUAL(ttys_name_of(makedev(136, 4096), b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/dev/pts/4096");
	CU_ASSERT_EQUAL(ttys_name_of(makedev(4, 2), b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/dev/tty2");
	CU_ASSERT_EQUAL(ttys_name_of(makedev(4, 64), b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/dev/ttyS0");
	CU_ASSERT_EQUAL(ttys_name_of(makedev(4, 0), b, sizeof(b)), -1);
	CU_ASSERT_EQUAL(ttys_name_of(makedev(5, 0), b, sizeof(b)), -1);
	CU_ASSERT_EQUAL(ttys_name_of(makedev(188, 0), b, sizeof(b)), -1);
	CU_ASSERT_EQUAL(ttys_name_of(makedev(136, 12345), b, 12), -1);
}

static void
test_field(void)
{
	struct strv v = {0};
	struct sbuf b = {0};

	CU_ASSERT_EQUAL(ttys_field(&b, &v), 0);
	CU_ASSERT_STRING_EQUAL(b.s, " tty=-");
	sbuf_free(&b);
	strv_push(&v, "/dev/tty");
	strv_push(&v, "/dev/pts/a,b c");
	CU_ASSERT_EQUAL(ttys_field(&b, &v), 0);
	CU_ASSERT_STRING_EQUAL(b.s, " tty=/dev/tty,/dev/pts/a\\x2cb\\x20c");
	sbuf_free(&b);
	strv_free(&v);
}

/* The suite's own stdio is redirected to files by the runner when it is
 * not a terminal; then nothing is granted. */
static void
test_real_not_terminals(void)
{
	struct strv v = {0};

	if (isatty(0) || isatty(1) || isatty(2))
		return; /* an interactive run: the decision tests cover it */
	CU_ASSERT_EQUAL(ttys_stdio(&v), 0);
	CU_ASSERT_EQUAL(v.n, 0);
	strv_free(&v);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "stdio on the controlling terminal", test_stdio_on_ctty },
		{ "stdio away from it", test_stdio_away },
		{ "access modes: read and write, together", test_modes },
		{ "through /dev/tty; masters and the console", test_via_and_masters },
		{ "the kernel's names", test_names },
		{ "the tty= field", test_field },
		{ "this process's real stdio", test_real_not_terminals },
		{ NULL, NULL }
	};

	return cu_run("ttys", NULL, NULL, cases);
}
