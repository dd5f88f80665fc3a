/* SPDX-License-Identifier: MIT */
/* ll_protect.c -- rule 5a for landlock.so (ABI 1.4, NS_WALL_PROTECT):
 * the protected paths stay readable and are not writable whatever rule
 * covers them.  Landlock cannot take a path out of a granted hierarchy,
 * so a mount layer does it, before landlock_restrict_self (a Landlock
 * domain may not change mounts afterwards):
 *
 *   unshare(CLONE_NEWUSER|CLONE_NEWNS) in the calling, single-threaded
 *   process; setgroups "deny"; its own uid and gid mapped to themselves;
 *   "/" made MS_REC|MS_PRIVATE; then for each protected path: re-opened
 *   by name in the new namespace with openat2(RESOLVE_NO_SYMLINKS |
 *   RESOLVE_NO_MAGICLINKS) (an O_PATH descriptor of the old namespace
 *   cannot be cloned in the new one), its st_dev/st_ino compared with the
 *   host's protect_fds[i] (else refused), then open_tree(OPEN_TREE_CLONE |
 *   AT_RECURSIVE) + mount_setattr(MOUNT_ATTR_RDONLY, AT_RECURSIVE) +
 *   move_mount onto itself.  The working directory is re-opened the same
 *   way: the host's cwd descriptor belongs to the old namespace, where
 *   nothing is read-only, and the command must not start there.
 *
 * Only when n_protect > 0: no mount namespace otherwise.  --net-allow
 * (NS_POLICY_NET_PROXIED, ll_netns.c) adds CLONE_NEWNET to the same
 * unshare: lo up, the listeners made and sent; with neither, no
 * namespace at all.  prepare() runs the same steps in a forked child
 * first (ll_protect_probe; nothing sent), so a machine without user
 * namespaces (user.max_user_namespaces=0,
 * kernel.unprivileged_userns_clone=0, AppArmor's
 * apparmor_restrict_unprivileged_userns) is refused before the OK line:
 * protect_unavailable or netns_unavailable, never run without the
 * protection or with the host's network. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "banned.h"
#include "ll_netns.h"
#include "ll_protect.h"

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

struct ll_open_how {
	uint64_t flags, mode, resolve;
};

struct ll_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

#define LL_RESOLVE_NO_MAGICLINKS 0x02u
#define LL_RESOLVE_NO_SYMLINKS 0x04u
#define LL_OPEN_TREE_CLONE 1u
#define LL_AT_RECURSIVE 0x8000u
#define LL_MOUNT_ATTR_RDONLY 0x1u
#define LL_MOVE_MOUNT_F_EMPTY_PATH 0x4u
#define LL_MOVE_MOUNT_T_EMPTY_PATH 0x40u

static const char *const step_names[] = {
	[LL_PS_USERNS] = "unshare(CLONE_NEWUSER, with CLONE_NEWNS and/or "
			 "CLONE_NEWNET)",
	[LL_PS_SETGROUPS] = "setgroups deny",
	[LL_PS_UIDMAP] = "uid_map",
	[LL_PS_GIDMAP] = "gid_map",
	[LL_PS_PRIVATE] = "making / private",
	[LL_PS_REOPEN] = "re-opening the path in the new namespace",
	[LL_PS_IDENTITY] = "the path is no longer the object the host "
			   "resolved",
	[LL_PS_TREE] = "open_tree",
	[LL_PS_RDONLY] = "mount_setattr read-only",
	[LL_PS_MOVE] = "move_mount",
	[LL_PS_CWD] = "re-opening the working directory",
	[LL_PS_PIN] = "pinning a directory above it (a bind onto itself)",
	[LL_PS_LO] = "bringing lo up in the new network namespace",
	[LL_PS_LISTEN] = "listening on the loopback port in the new network "
			 "namespace",
	[LL_PS_SEND] = "passing a listener to the proxy",
};

const char *
ll_protect_step(int step)
{
	if (step >= LL_PS_USERNS && step <= LL_PS_SEND)
		return step_names[step];
	return "unknown step";
}

static int
put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(s);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, s, n);
	if (w != (ssize_t)n) {
		int e = w < 0 ? errno : EIO;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static int
fail_at(struct ll_pfail *f, int step, size_t index)
{
	f->err = errno;
	f->step = step;
	f->index = index;
	return -1;
}

static int
write_maps(unsigned uid, unsigned gid, struct ll_pfail *f)
{
	char map[64];

	if (put("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
		return fail_at(f, LL_PS_SETGROUPS, 0);
	snprintf(map, sizeof(map), "%u %u 1\n", uid, uid);
	if (put("/proc/self/uid_map", map) != 0)
		return fail_at(f, LL_PS_UIDMAP, 0);
	snprintf(map, sizeof(map), "%u %u 1\n", gid, gid);
	if (put("/proc/self/gid_map", map) != 0)
		return fail_at(f, LL_PS_GIDMAP, 0);
	return 0;
}

/* The user namespace and its maps, with a private mount tree (mounts)
 * and a network namespace (net). */
static int
enter_ns(int mounts, int net, struct ll_pfail *f)
{
	unsigned uid = (unsigned)geteuid(), gid = (unsigned)getegid();

	int dumpable = prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L), rc;

	if (unshare(CLONE_NEWUSER | (mounts ? CLONE_NEWNS : 0) |
		    (net ? CLONE_NEWNET : 0)) != 0)
		return fail_at(f, LL_PS_USERNS, 0);
	/* a process that changed its uid (run's keeper, to the place's) is
	 * not dumpable, and its /proc/self files are then not its own to
	 * write: dumpable for the maps, as it was afterwards */
	if (dumpable == 0)
		(void)prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
	rc = write_maps(uid, gid, f);
	if (dumpable == 0)
		(void)prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
	if (rc != 0)
		return -1;
	if (mounts && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return fail_at(f, LL_PS_PRIVATE, 0);
	return 0;
}

/* path by name in this namespace, no link followed anywhere, when it is
 * the object `was` (a descriptor of the old namespace; -1: none to
 * compare).  The descriptor, or -1 with *step set. */
static int
reopen_same(const char *path, int was, int *step)
{
	struct ll_open_how how = { O_PATH | O_NOFOLLOW | O_CLOEXEC, 0,
				   LL_RESOLVE_NO_SYMLINKS |
					   LL_RESOLVE_NO_MAGICLINKS };
	struct stat a, b;
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	*step = LL_PS_REOPEN;
	if (fd < 0)
		return -1;
	if (was < 0)
		return fd;
	*step = LL_PS_IDENTITY;
	if (fstat(fd, &a) != 0 || fstat(was, &b) != 0 ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

/* A read-only bind of the object open on target onto itself. */
static int
bind_ro(int target, int *step)
{
	struct ll_mount_attr ro = { LL_MOUNT_ATTR_RDONLY, 0, 0, 0 };
	int tree, e;

	*step = LL_PS_TREE;
	tree = (int)syscall(SYS_open_tree, target, "", LL_OPEN_TREE_CLONE |
			    O_CLOEXEC | AT_EMPTY_PATH | LL_AT_RECURSIVE);
	if (tree < 0)
		return -1;
	*step = LL_PS_RDONLY;
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH |
		    LL_AT_RECURSIVE, &ro, sizeof(ro)) == 0) {
		*step = LL_PS_MOVE;
		if (syscall(SYS_move_mount, tree, "", target, "",
			    LL_MOVE_MOUNT_F_EMPTY_PATH |
				    LL_MOVE_MOUNT_T_EMPTY_PATH) == 0)
			return close(tree);
	}
	e = errno;
	close(tree);
	errno = e;
	return -1;
}

/* A bind of the directory open on target onto itself, as writable as it
 * was: a mount point cannot be renamed or removed (EBUSY). */
static int
bind_pin(int target, int *step)
{
	int tree, e;

	*step = LL_PS_PIN;
	tree = (int)syscall(SYS_open_tree, target, "", LL_OPEN_TREE_CLONE |
			    O_CLOEXEC | AT_EMPTY_PATH | LL_AT_RECURSIVE);
	if (tree < 0)
		return -1;
	if (syscall(SYS_move_mount, tree, "", target, "",
		    LL_MOVE_MOUNT_F_EMPTY_PATH | LL_MOVE_MOUNT_T_EMPTY_PATH) == 0)
		return close(tree);
	e = errno;
	close(tree);
	errno = e;
	return -1;
}

/* The length of the outermost write rule that holds p strictly below it,
 * or 0: its parent is no rule's to change, so it cannot be renamed. */
static size_t
write_root_len(const struct ns_policy *pol, const char *p)
{
	size_t best = 0;

	for (size_t i = 0; i < pol->n_rules; i++) {
		const char *r = pol->rules[i].path;
		size_t n = r != NULL ? strlen(r) : 0;

		if (pol->rules[i].access != NS_ACCESS_WRITE || n == 0 ||
		    strncmp(p, r, n) != 0 || (p[n] != '/' && r[n - 1] != '/'))
			continue;
		if (best == 0 || n < best)
			best = n;
	}
	return best;
}

/* Did an earlier protected path pin p's first k bytes already? */
static int
pinned(const struct ns_policy *pol, size_t i, size_t k)
{
	for (size_t j = 0; j < i; j++)
		if (strncmp(pol->protect[j], pol->protect[i], k) == 0 &&
		    pol->protect[j][k] == '/')
			return 1;
	return 0;
}

/* Every directory strictly between the outermost write root and the
 * protected path i, pinned outermost first: else the job renames one
 * away and plants a .git of its own at the old name, which the user's
 * next git there would run (the bind moves with the renamed tree). */
static int
pin_ancestors(const struct ns_policy *pol, size_t i, struct ll_pfail *f)
{
	const char *p = pol->protect[i];
	size_t at = write_root_len(pol, p), n = strlen(p);
	char dir[4096];
	int step, fd;

	if (at == 0 || n >= sizeof(dir))
		return 0;
	for (size_t k = at + 1; k < n; k++) {
		if (p[k] != '/' || pinned(pol, i, k))
			continue;
		memcpy(dir, p, k);
		dir[k] = '\0';
		if ((fd = reopen_same(dir, -1, &step)) < 0)
			return fail_at(f, step, i);
		if (bind_pin(fd, &step) != 0) {
			fail_at(f, step, i);
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static int
protect_one(const struct ns_policy *pol, size_t i, struct ll_pfail *f)
{
	int was = pol->protect_fds != NULL ? pol->protect_fds[i] : -1;
	int step, fd = reopen_same(pol->protect[i], was, &step);

	if (fd < 0)
		return fail_at(f, step, i);
	if (bind_ro(fd, &step) != 0) {
		fail_at(f, step, i);
		close(fd);
		return -1;
	}
	return close(fd);
}

int
ll_protect_wanted(const struct ns_policy *pol)
{
	return NS_POLICY_HAS_PROTECT(pol) && pol->n_protect > 0 &&
	       pol->protect != NULL;
}

int
ll_ns_wanted(const struct ns_policy *pol)
{
	return ll_protect_wanted(pol) || ll_netns_wanted(pol);
}

/* lo up and the listeners, in the new network namespace. */
static int
net_steps(const struct ns_policy *pol, int sink, struct ll_pfail *f)
{
	int step;

	if (ll_netns_lo_up() != 0)
		return fail_at(f, LL_PS_LO, 0);
	if (ll_netns_listen(pol, sink, &step) != 0)
		return fail_at(f, step, 0);
	return 0;
}

int
ll_protect_enter(const struct ns_policy *pol, int *cwd_fd, int sink,
		 struct ll_pfail *f)
{
	int was = NS_POLICY_HAS_FDS(pol) && pol->cwd_fd != NULL ?
			  *pol->cwd_fd : -1;
	int step, net = ll_netns_wanted(pol);

	memset(f, 0, sizeof(*f));
	if (cwd_fd != NULL)
		*cwd_fd = -1;
	if (enter_ns(ll_protect_wanted(pol), net, f) != 0)
		return -1;
	if (net && net_steps(pol, sink, f) != 0)
		return -1;
	if (!ll_protect_wanted(pol))
		return 0;
	/* the ancestors first: each protected path is then re-opened (and
	 * its identity checked) through directories that can no longer move */
	for (size_t i = 0; i < pol->n_protect; i++)
		if (pin_ancestors(pol, i, f) != 0)
			return -1;
	for (size_t i = 0; i < pol->n_protect; i++)
		if (protect_one(pol, i, f) != 0)
			return -1;
	if (cwd_fd != NULL && pol->cwd != NULL &&
	    (*cwd_fd = reopen_same(pol->cwd, was, &step)) < 0)
		return fail_at(f, LL_PS_CWD, 0);
	return 0;
}

/* A sysctl file holding exactly `v` (a number). */
static int
sysctl_is(const char *path, const char *v)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strcmp(buf, v) == 0;
}

/* The settings that keep user namespaces from an unprivileged user, in
 * the order they are asked: what each says, and what lifts it. */
static const struct {
	const char *file, *value, *cause, *fix;
} blockers[] = {
	{ "/proc/sys/user/max_user_namespaces", "0",
	  "user namespaces are off (sysctl user.max_user_namespaces=0)",
	  "sysctl -w user.max_user_namespaces=10000 (as root)" },
	{ "/proc/sys/kernel/unprivileged_userns_clone", "0",
	  "unprivileged user namespaces are off (sysctl "
	  "kernel.unprivileged_userns_clone=0)",
	  "sysctl -w kernel.unprivileged_userns_clone=1 (as root)" },
	{ "/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1",
	  "AppArmor restricts unprivileged user namespaces (sysctl "
	  "kernel.apparmor_restrict_unprivileged_userns=1)",
	  "an AppArmor profile that allows userns for nova-sandbox, or sysctl "
	  "-w kernel.apparmor_restrict_unprivileged_userns=0 (as root)" },
};

static int
blocker(void)
{
	for (size_t i = 0; i < sizeof(blockers) / sizeof(blockers[0]); i++)
		if (sysctl_is(blockers[i].file, blockers[i].value))
			return (int)i;
	return -1;
}

const char *
ll_protect_cause(void)
{
	int i = blocker();

	return i < 0 ? NULL : blockers[i].cause;
}

const char *
ll_protect_fix(void)
{
	int i = blocker();

	return i < 0 ? NULL : blockers[i].fix;
}

int
ll_protect_probe(const struct ns_policy *pol, struct ll_pfail *f)
{
	int p[2];
	pid_t pid;
	ssize_t n;

	memset(f, 0, sizeof(*f));
	if (pipe2(p, O_CLOEXEC) != 0)
		return fail_at(f, LL_PS_USERNS, 0);
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return fail_at(f, LL_PS_USERNS, 0);
	}
	if (pid == 0) {
		struct ll_pfail cf;

		close(p[0]);
		(void)ll_protect_enter(pol, NULL, -1, &cf);
		_exit(write(p[1], &cf, sizeof(cf)) == (ssize_t)sizeof(cf) ?
			      0 : 1);
	}
	close(p[1]);
	do
		n = read(p[0], f, sizeof(*f));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	/* the host may have reaped it already (waitpid(-1)): ECHILD */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(*f)) {
		memset(f, 0, sizeof(*f));
		f->err = EPIPE;
		f->step = LL_PS_USERNS;
		return -1;
	}
	return f->step != 0 ? -1 : 0;
}
