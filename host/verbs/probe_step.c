/* SPDX-License-Identifier: MIT */
/* probe_step.c -- `nova-sandbox probe-step <nonce> <step> <path>`
 * (reference section 6): the probe's walled child.  It refuses unless it
 * is provably that child: an inherited pipe on fd 3 carrying exactly the
 * 16 nonce bytes, the same nonce in argv and the environment, and a parent
 * that is this very binary.  Nothing is opened before the guard passes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/args.h"
#include "verbs/verbs.h"

#define NONCE_LEN 16
#define NONCE_ENV "NOVA_SANDBOX_PROBE_NONCE"

static int
ct_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static const char *
read_nonce(char hex[2 * NONCE_LEN + 1])
{
	unsigned char buf[NONCE_LEN + 1];
	struct stat st;
	size_t got = 0;
	ssize_t n;

	if (fstat(3, &st) != 0)
		return "no descriptor 3";
	if (!S_ISFIFO(st.st_mode))
		return "descriptor 3 is not a pipe";
	if (fcntl(3, F_SETFL, fcntl(3, F_GETFL) | O_NONBLOCK) != 0)
		return "descriptor 3 cannot be read";
	while (got <= NONCE_LEN) {
		n = read(3, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return "descriptor 3 is not a closed pipe";
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != NONCE_LEN)
		return "descriptor 3 did not carry exactly 16 bytes";
	for (size_t i = 0; i < NONCE_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	return NULL;
}

/* Inside the wall the child sits in a Landlock domain nested below its
 * parent's (the layer that keeps the command from signalling or tracing
 * the tool), and the kernel then refuses it the parent's executable
 * (EACCES, a ptrace-mode read).  What it may still read: the parent's
 * owner and command name, which must be ours. */
static const char *
check_parent_nested(pid_t ppid)
{
	char mine[32], theirs[32];
	uint32_t uid, self_uid;

	if (os_proc_owner_comm((int64_t)ppid, &uid, theirs,
			       sizeof(theirs)) != 0 || uid != getuid())
		return "the parent is not this user's";
	if (os_proc_owner_comm(0, &self_uid, mine, sizeof(mine)) != 0 ||
	    strcmp(mine, theirs) != 0)
		return "the parent is not nova-sandbox";
	return NULL;
}

/* The parent must be this binary: same device and inode, asked twice. */
static const char *
check_parent(const char *exe)
{
	struct os_stat self, par;
	pid_t ppid = getppid();
	const char *why = NULL;

	if (exe == NULL || exe[0] != '/')
		return "own executable path is not absolute";
	if (os_proc_exe(0, &self) != 0)
		return "own executable cannot be read";
	for (int k = 0; k < 2 && why == NULL; k++) {
		if (os_proc_exe((int64_t)ppid, &par) != 0)
			why = errno == EACCES ? check_parent_nested(ppid) :
			    "the parent's executable cannot be read";
		else if (par.dev != self.dev || par.ino != self.ino)
			why = "the parent is not nova-sandbox";
		if (why == NULL && getppid() != ppid)
			why = "the parent changed";
	}
	return why;
}

static const char *
guard(const struct hostrun *hr, const char *nonce)
{
	char hex[2 * NONCE_LEN + 1];
	const char *why, *env = os_getenv(NONCE_ENV);

	if ((why = read_nonce(hex)) != NULL)
		return why;
	if (!ct_equal(hex, nonce))
		return "the nonce does not match descriptor 3";
	if (env == NULL || !ct_equal(hex, env))
		return "the nonce does not match " NONCE_ENV;
	return check_parent(hr->exe);
}

static int
not_a_child(const char *why)
{
	char *t = str_fmt("probe-step is run only by nova-sandbox probe, as "
			  "its child (%s); nothing was opened", why);

	out_refused("PROBE", REASON_PROBE_STEP_NOT_A_CHILD, t ? t :
		    "out of memory", "nova-sandbox probe --write <dir>");
	free(t);
	return NS_EXIT_USAGE;
}

static int
do_step(const char *step, const char *path)
{
	char c;
	int fd;

	if (strcmp(step, "write_outside") == 0 ||
	    strcmp(step, "write_inside") == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			  O_CLOEXEC, 0600);
		if (fd < 0)
			return 1;
		close(fd);
		if (strcmp(step, "write_inside") == 0)
			unlink(path);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	if (strcmp(step, "read_root") == 0 && read(fd, &c, 1) != 1) {
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int
known_step(const char *s)
{
	return strcmp(s, "write_outside") == 0 ||
	    strcmp(s, "write_inside") == 0 || strcmp(s, "read_secret") == 0 ||
	    strcmp(s, "read_root") == 0;
}

int
verb_probe_step(const struct hostrun *hr, int argc, char **argv)
{
	const char *why;
	char *t;

	if (argc != 4)
		return not_a_child("probe-step takes <nonce> <name> <path>");
	if (argv[3][0] != '/')
		return not_a_child("the path is not absolute");
	if ((why = guard(hr, argv[1])) != NULL)
		return not_a_child(why);
	if (!known_step(argv[2])) {
		t = str_fmt("%s is not a probe step; the steps are "
			    "write_outside, read_secret, write_inside, "
			    "read_root", argv[2]);
		out_refused("PROBE", REASON_CHECK, t ? t : "out of memory",
			    "nova-sandbox help probe");
		free(t);
		return NS_EXIT_USAGE;
	}
	return do_step(argv[2], argv[3]);
}
