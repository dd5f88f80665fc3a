/* SPDX-License-Identifier: MIT */
/* nsplace.c -- the Linux place (role NS_ROLE_PLACE, ABI 1.1).
 *
 * The place is a size-capped tmpfs mounted over /tmp in a PRIVATE mount
 * namespace that only the run's keeper (and its children) are in, with a
 * private PID namespace for the run's processes.  The root is
 * /tmp/nova-<name> with work/ home/ tmp/ (0700) beneath.  Nothing of it is
 * visible outside, so a SIGKILL of the tool leaves nothing: the keeper dies
 * (PR_SET_PDEATHSIG), the PID namespace with its init, the mount namespace
 * with its last process and the tmpfs with its last reference.
 *
 * Unprivileged: a user namespace mapping the caller's own uid and gid to
 * themselves (so the command is not uid 0 inside, which the wall refuses).
 * As root: no user namespace; after mounting the keeper drops to the
 * module options uid/gid (default 65534, "nobody"), never 0.
 *
 * /proc: a procfs shows the processes of the PID namespace of the process
 * that mounts it, and the keeper is not in the run's (unshare moves only
 * its children).  So enter() forks the namespace's first process (pid 1,
 * "the anchor"), which mounts a fresh procfs on /proc in the place's mount
 * namespace, drops to the command's ids and then only reaps orphans until
 * the keeper dies (PR_SET_PDEATHSIG: the namespace and every process in it
 * go with it).  This happens inside enter(), before the host builds the
 * policy, so the wall's /proc rule binds the new mount; the host's init is
 * the namespace's pid 2.
 *
 * The name is reserved per uid by an OFD write lock on a file in the
 * uid's state directory (see "the name lock" below), taken in the
 * supervisor: the lock goes away with the last process holding it, so it
 * cannot leak either.  (It was an abstract unix socket, which any process
 * in the network namespace can bind, walled or not, root's names too.) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns_backend.h"
#include "common/nk_module.h"
#include "common/nk_say.h"

#define NSP_MOUNT "/tmp"
#define NSP_NOBODY 65534u

struct nsp_state {
	int lockfd;     /* holds the OFD write lock on <state>/<name>.lock */
	int dirfd;      /* <state> */
	uint64_t size;
	char name[64];
};

/* a refusal (or, reason NULL, a note), formatted: modules/common/nk_say.h */
#define say(h, st, reason, ...) nk_say((h), (st), (reason), __VA_ARGS__)

/* A system call's failure: out of descriptors is a cause of its own. */
static const char *
sys_reason(int e)
{
	return e == EMFILE || e == ENFILE ? "fd_limit" : "volume_failed";
}

/* ---- the name lock ---------------------------------------------------
 *
 * A name is held by an OFD write lock on <state>/<name>.lock, where <state>
 * is the tool's per-uid state directory (the same rule as host/policy/ownfiles.c,
 * which refuses any wall whose write set reaches it):
 *   uid 0: /run/nova-sandbox;
 *   else:  /run/user/<uid>/nova-sandbox when /run/user/<uid> is a directory
 *          of that uid that no one else can write;
 *   else:  <passwd home>/.local/state/nova-sandbox.
 * A write lock needs a descriptor open for writing, so only a process that
 * may write the file can hold a name: the uid's own unwalled processes (a
 * real run among them), never a walled command (no wall grants the state
 * directory) and never another user (the directory is 0700). */

#define NSP_LOCK_TRIES 8

static int
runtime_base(uid_t uid, char *buf, size_t n)
{
	struct stat sb;

	if (uid == 0)
		snprintf(buf, n, "/run");
	else
		snprintf(buf, n, "/run/user/%u", (unsigned)uid);
	return stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == uid &&
	    (sb.st_mode & 022) == 0 ? 0 : -1;
}

/* The state directory's base (made by someone else) and the components
 * below it this module makes, 0700, when missing. */
static int
state_where(const struct ns_host *h, char *base, size_t n, const char **below)
{
	uid_t uid = geteuid();
	struct passwd *pw;

	if (runtime_base(uid, base, n) == 0) {
		*below = "nova-sandbox";
		return NS_OK;
	}
	pw = getpwuid(uid);
	if (pw == NULL || pw->pw_dir == NULL || pw->pw_dir[0] != '/')
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: uid %u "
			   "has no /run/user/%u and no home directory in the "
			   "password database to keep its run names in",
			   (unsigned)uid, (unsigned)uid);
	snprintf(base, n, "%s", pw->pw_dir);
	*below = ".local/state/nova-sandbox";
	return NS_OK;
}

/* Nobody but uid (or root) can change dfd or any directory above it. */
static int
safe_chain(int dfd, uid_t uid, char *bad, size_t n)
{
	struct stat st, up;
	int cur = dup(dfd), next;

	if (cur < 0)
		return -1;
	for (;;) {
		if (fstat(cur, &st) != 0)
			break;
		if ((st.st_uid != uid && st.st_uid != 0) ||
		    (st.st_mode & 022) != 0) {
			snprintf(bad, n, "a directory (inode %llu) above it is "
				 "owned by uid %u mode %04o",
				 (unsigned long long)st.st_ino,
				 (unsigned)st.st_uid, st.st_mode & 07777);
			close(cur);
			errno = EPERM;
			return -1;
		}
		next = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up) != 0) {
			if (next >= 0)
				close(next);
			break;
		}
		close(cur);
		cur = next;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino) {
			close(cur);
			return 0; /* "/" */
		}
	}
	close(cur);
	return -1;
}

/* Out of descriptors checking the state directory: its own cause
 * (fd_limit), not "not safe" or "cannot open"; fd closed.  -1. */
static int
fd_short(const struct ns_host *h, int fd, const char *path, int e)
{
	if (fd >= 0)
		close(fd);
	return say(h, NS_E_SYSTEM, "fd_limit", "nsplace: out of file "
		   "descriptors checking the run-name directory %s (%s: %s): "
		   "raise the limit (ulimit -n) and run it again", path,
		   e == EMFILE ? "EMFILE" : "ENFILE", strerror(e)), -1;
}

/* Open the state directory: the descriptor, 0 absent (look: nothing is
 * made), or -1 refused (said). */
static int
state_open(const struct ns_host *h, int make, int *out)
{
	char base[PATH_MAX], path[PATH_MAX + 32], bad[128] = "", comp[64];
	const char *below, *p;
	struct stat st;
	int fd, next, e;

	if (state_where(h, base, sizeof(base), &below) != NS_OK)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", base, below);
	fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (p = below; fd >= 0 && *p; p += strcspn(p, "/"), p += *p == '/') {
		snprintf(comp, sizeof(comp), "%.*s", (int)strcspn(p, "/"), p);
		if (make && mkdirat(fd, comp, 0700) != 0 && errno != EEXIST)
			break;
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC);
		close(fd);
		fd = next;
	}
	if (fd >= 0 && *p == '\0') {
		if (fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		    (st.st_mode & 022) == 0 &&
		    safe_chain(fd, geteuid(), bad, sizeof(bad)) == 0) {
			*out = fd;
			return 1;
		}
		if (errno == EMFILE || errno == ENFILE)
			return fd_short(h, fd, path, errno);
		if (bad[0] == '\0')
			snprintf(bad, sizeof(bad), "it is owned by uid %u mode "
				 "%04o", (unsigned)st.st_uid,
				 st.st_mode & 07777);
		close(fd);
		return say(h, NS_E_REFUSED, "volume_failed", "nsplace: the "
			   "run-name directory %s is not safe (%s): another "
			   "user could take names; make it the caller's own, "
			   "mode 0700, under directories only root or the "
			   "caller can write", path, bad), -1;
	}
	e = errno;
	if (e == EMFILE || e == ENFILE)
		return fd_short(h, fd, path, e);
	if (fd >= 0)
		close(fd);
	if (!make && e == ENOENT)
		return 0;
	return say(h, NS_E_SYSTEM, sys_reason(e), "nsplace: cannot open "
		   "the run-name directory %s: %s", path, strerror(e)), -1;
}

/* Open <name>.lock in dfd: the descriptor, or -1 (errno; EPERM for a file
 * that is not a private regular file of ours). */
static int
lock_open(int dfd, const char *file, int make)
{
	struct stat st;
	int fd = openat(dfd, file, O_RDWR | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC | (make ? O_CREAT : 0), 0600);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (st.st_mode & 022) != 0) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Is fd still the file named `file` in dfd (not unlinked by a destroy
 * between our open and our lock)? */
static int
still_named(int dfd, const char *file, int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 &&
	    fstatat(dfd, file, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The lock that conflicts with a write lock on fd: F_RDLCK, F_WRLCK, or
 * F_UNLCK (none now, or unknown). */
static short
lock_conflict(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
		return F_UNLCK;
	return fl.l_type;
}

/* Take the name: the lock's descriptor, -2 when a live holder (a write
 * lock: a run) has it, -3 when a read lock blocks it (no run takes one:
 * a process of the uid that opened the file read-only), -1 on another
 * error (errno). */
static int
lock_take(int dfd, const char *file)
{
	for (int i = 0; i < NSP_LOCK_TRIES; i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int fd = lock_open(dfd, file, 1);
		char pid[32];
		int n;

		if (fd < 0)
			return -1;
		if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
			int e = errno;
			short held = (e == EAGAIN || e == EACCES) ?
			    lock_conflict(fd) : F_UNLCK;

			close(fd);
			if (held == F_RDLCK)
				return -3;
			if (e == EAGAIN || e == EACCES)
				return -2;
			errno = e;
			return -1;
		}
		if (!still_named(dfd, file, fd)) {
			close(fd);
			continue;
		}
		n = snprintf(pid, sizeof(pid), "pid=%ld\n", (long)getpid());
		/* write, then cut what an older, longer record left: never
		 * truncate to zero first, which makes ext4 flush the file to
		 * disk at its close (auto_da_alloc), a disk write per run */
		if (pwrite(fd, pid, (size_t)n, 0) != n || ftruncate(fd, n) != 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	errno = EBUSY;
	return -1;
}

/* Is the name held (by a run: a write lock)?  1 held, 0 free, -1 error
 * (errno).  A read lock is no run's: 0, and create names it. */
static int
lock_held(int dfd, const char *file)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = lock_open(dfd, file, 0), rc;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	rc = fcntl(fd, F_OFD_GETLK, &fl);
	close(fd);
	if (rc != 0)
		return -1;
	return fl.l_type == F_WRLCK;
}

static void
lock_file(const char *name, char *file, size_t n)
{
	snprintf(file, n, "%s.lock", name);
}

static int
nsp_look(const struct ns_host *h, const char *name, int *exists)
{
	char file[80];
	int dfd = -1, rc;

	*exists = 0;
	rc = state_open(h, 0, &dfd);
	if (rc <= 0)
		return rc == 0 ? NS_OK : NS_E_SYSTEM;
	lock_file(name, file, sizeof(file));
	rc = lock_held(dfd, file);
	close(dfd);
	if (rc < 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: cannot "
			   "look up the place %s: %s", name, strerror(errno));
	*exists = rc;
	return NS_OK;
}

/* A read lock on the name's file: say what it is, not volume_exists. */
static int
squatted(const struct ns_host *h, const char *name, const char *file)
{
	char base[PATH_MAX], path[PATH_MAX + 128];
	const char *below = "";

	if (state_where(h, base, sizeof(base), &below) != NS_OK)
		return NS_E_SYSTEM;
	snprintf(path, sizeof(path), "%s/%s/%s", base, below, file);
	return say(h, NS_E_REFUSED, "name_squatted", "nsplace: the name %s "
		   "is not held by a run: its lock file %s has a read lock "
		   "on it, which no run takes (a run holds its name with a "
		   "write lock); end the process that holds it (fuser -v %s) "
		   "or remove the file (rm %s), then run again", name, path,
		   path, path);
}

/* The name's lock file could not be made: its path and why (a read-only
 * or foreign run-name directory names the directory to fix). */
static int
unreserved(const struct ns_host *h, const char *name, const char *file,
	   int dfd, int e)
{
	char base[PATH_MAX], path[PATH_MAX + 128], fix[PATH_MAX + 192] = "";
	const char *below = "";

	close(dfd);
	if (state_where(h, base, sizeof(base), &below) != NS_OK)
		return NS_E_SYSTEM;
	snprintf(path, sizeof(path), "%s/%s", base, below);
	if (e == EACCES || e == EPERM || e == EROFS)
		snprintf(fix, sizeof(fix), "; make the run-name directory "
			 "writable by you (chmod u+w %s)", path);
	return say(h, NS_E_SYSTEM, sys_reason(e), "nsplace: cannot reserve "
		   "the name %s: its lock file %s/%s cannot be made: %s%s",
		   name, path, file, strerror(e), fix);
}

static int opt_id(const struct ns_host *h, const char *key, unsigned *out);

/* The uid and gid options, checked for every caller (a root-started run
 * uses them; any caller's config names them wrong the same way). */
static int
check_ids(const struct ns_host *h)
{
	static const char *const keys[] = { "uid", "gid", NULL };
	unsigned id;

	for (size_t i = 0; keys[i] != NULL; i++)
		if (opt_id(h, keys[i], &id) != 0)
			return say(h, NS_E_REFUSED, "bad_config", "nsplace: "
				   "[nsplace] %s = %s: the options uid and gid "
				   "want a number 1..2147483647, the ids a "
				   "root-started run's command gets (0, root, "
				   "never); fix or remove it in the config file",
				   keys[i], h->option(h->cookie, keys[i]));
	return NS_OK;
}

static int
nsp_create(const struct ns_host *h, const struct ns_place_req *req,
	   struct ns_place *out)
{
	struct nsp_state *st;
	char file[80];
	int fd, dfd = -1;

	if (strlen(req->name) >= sizeof(st->name))
		return say(h, NS_E_REFUSED, "no_name", "nsplace: the name is "
			   "longer than %zu bytes", sizeof(st->name) - 1);
	if (check_ids(h) != NS_OK)
		return NS_E_REFUSED;
	if (state_open(h, 1, &dfd) < 0)
		return NS_E_SYSTEM;
	lock_file(req->name, file, sizeof(file));
	fd = lock_take(dfd, file);
	if (fd == -3) {
		close(dfd);
		return squatted(h, req->name, file);
	}
	if (fd == -2) {
		close(dfd);
		return say(h, NS_E_REFUSED, "volume_exists", "a run named %s "
			   "is live on this machine (it holds the lock on %s); "
			   "pick another --name", req->name, file);
	}
	if (fd < 0)
		return unreserved(h, req->name, file, dfd, errno);
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		close(fd);
		close(dfd);
		return say(h, NS_E_SYSTEM, "volume_failed", "out of memory");
	}
	st->lockfd = fd;
	st->dirfd = dfd;
	st->size = req->size_bytes;
	snprintf(st->name, sizeof(st->name), "%s", req->name);
	snprintf(out->root, sizeof(out->root), NSP_MOUNT "/nova-%s",
		 req->name);
	snprintf(out->id, sizeof(out->id), "nsplace:%s", req->name);
	out->remedy[0] = '\0'; /* the host names the processes to kill */
	out->state = st;
	if (out->struct_size >= NS_PLACE_SIZE_1_1)
		snprintf(out->hidden, sizeof(out->hidden), "%s", NSP_MOUNT);
	return NS_OK;
}

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	size_t len = strlen(text);

	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* Map the caller's own uid and gid to themselves in a new user ns. */
static int
map_self(uid_t uid, gid_t gid)
{
	char m[64];

	snprintf(m, sizeof(m), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (write_file("/proc/self/uid_map", m) != 0)
		return -1;
	if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
		return -1;
	snprintf(m, sizeof(m), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	return write_file("/proc/self/gid_map", m);
}

static int
no_ns(const struct ns_host *h, const char *what, int err)
{
	return say(h, NS_E_UNAVAILABLE, "no_sandbox", "nsplace: cannot make "
		   "the run's private namespaces (%s: %s); unprivileged user "
		   "namespaces are off or capped here; run: sysctl -w "
		   "user.max_user_namespaces=15000 kernel.unprivileged_userns_"
		   "clone=1 (or run nova-sandbox as root)", what,
		   strerror(err));
}

static int
unshare_all(const struct ns_host *h)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (uid == 0) {
		if (unshare(CLONE_NEWNS | CLONE_NEWPID) != 0)
			return no_ns(h, "unshare(mount, pid)", errno);
		return NS_OK;
	}
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) != 0)
		return no_ns(h, "unshare(user, mount, pid)", errno);
	if (map_self(uid, gid) != 0)
		return no_ns(h, "writing the user namespace's id maps", errno);
	return NS_OK;
}

/* An id option (uid, gid): a positive number, default nobody. */
static int
opt_id(const struct ns_host *h, const char *key, unsigned *out)
{
	const char *v = h->option(h->cookie, key);
	char *end;
	unsigned long n;

	*out = NSP_NOBODY;
	if (v == NULL)
		return 0;
	/* digits only: strtoul would take "-5" (as a huge number) */
	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || n == 0 || n > 0x7fffffffUL)
		return -1;
	*out = (unsigned)n;
	return 0;
}

static int
mount_place(const struct ns_host *h, const struct nsp_state *st)
{
	char opts[96];

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: cannot "
			   "make the mounts private: %s", strerror(errno));
	snprintf(opts, sizeof(opts), "size=%llu,mode=0755",
		 (unsigned long long)st->size);
	if (mount("nova-sandbox", NSP_MOUNT, "tmpfs",
		  MS_NOSUID | MS_NODEV, opts) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: cannot "
			   "mount a tmpfs of %llu bytes on " NSP_MOUNT ": %s",
			   (unsigned long long)st->size, strerror(errno));
	return NS_OK;
}

/* root (0755), then work/ home/ tmp/ (0700), owned by uid:gid when
 * given (root's keeper); root_fd opened on the result. */
static int
make_dirs(const struct ns_host *h, struct ns_place *p, int chown_to,
	  unsigned uid, unsigned gid)
{
	static const char *const sub[] = { "work", "home", "tmp" };
	int fd;

	if (mkdir(p->root, 0755) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: mkdir "
			   "%s: %s", p->root, strerror(errno));
	fd = open(p->root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: open "
			   "%s: %s", p->root, strerror(errno));
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		if (mkdirat(fd, sub[i], 0700) != 0 ||
		    (chown_to && fchownat(fd, sub[i], uid, gid,
					  AT_SYMLINK_NOFOLLOW) != 0)) {
			int e = errno;

			close(fd);
			return say(h, NS_E_SYSTEM, sys_reason(e), "nsplace: "
				   "making %s/%s: %s", p->root, sub[i],
				   strerror(e));
		}
	}
	p->root_fd = fd;
	return NS_OK;
}

static int
set_ids(unsigned uid, unsigned gid)
{
	if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
	    setresuid(uid, uid, uid) != 0)
		return -1;
	return geteuid() == 0 ? -1 : 0;
}

/* Root's keeper: become uid:gid (never 0) before anything runs. */
static int
drop_to(const struct ns_host *h, unsigned uid, unsigned gid)
{
	if (set_ids(uid, gid) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: cannot "
			   "drop to uid %u gid %u: %s", uid, gid,
			   strerror(errno));
	return NS_OK;
}

/* The anchor (pid 1 of the run's PID namespace): mount its procfs on
 * /proc, take the command's ids (root's keeper), report 0 or an errno on
 * wfd, then reap whatever is orphaned to it until the keeper dies.  Every
 * signal stays blocked: a process of the run cannot signal it anyway (the
 * init of a namespace ignores what it has no handler for). */
static void __attribute__((noreturn))
anchor_main(int wfd, int as_root, unsigned uid, unsigned gid)
{
	sigset_t all;
	int err = 0;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* PR_SET_PDEATHSIG comes after the id change, which clears it */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) != 0 ||
	    (as_root && set_ids(uid, gid) != 0) ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
	    (wfd > 0 && close_range(0, (unsigned)wfd - 1, 0) != 0) ||
	    close_range((unsigned)wfd + 1, ~0U, 0) != 0)
		err = errno ? errno : EPERM;
	/* the keeper died before PR_SET_PDEATHSIG took: EPIPE, then out */
	if (write(wfd, &err, sizeof(err)) != (ssize_t)sizeof(err) || err != 0)
		_exit(1);
	close(wfd);
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		sigdelset(&all, SIGKILL);
		(void)sigwaitinfo(&all, NULL);
	}
}

/* Start the anchor; it has mounted /proc when this returns NS_OK. */
static int
mount_proc(const struct ns_host *h, int as_root, unsigned uid, unsigned gid)
{
	int p[2], err = ECHILD;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: pipe: "
			   "%s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		anchor_main(p[1], as_root, uid, gid);
	}
	if (pid < 0)
		err = errno;
	close(p[1]);
	while (pid > 0 && (n = read(p[0], &err, sizeof(err))) < 0 &&
	       errno == EINTR)
		;
	close(p[0]);
	if (pid > 0 && err != 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	if (err != 0)
		return say(h, NS_E_SYSTEM, sys_reason(err), "nsplace: cannot "
			   "mount the run's own /proc: %s", strerror(err));
	return NS_OK;
}

static int
nsp_enter(const struct ns_host *h, struct ns_place *p)
{
	const struct nsp_state *st = p->state;
	int as_root = geteuid() == 0;
	unsigned uid = 0, gid = 0;
	int rc;

	if (st == NULL || p->struct_size < NS_PLACE_SIZE_1_1)
		return say(h, NS_E_INTERNAL, "volume_failed", "nsplace: enter "
			   "without create");
	if (as_root && (opt_id(h, "uid", &uid) != 0 ||
			opt_id(h, "gid", &gid) != 0))
		return say(h, NS_E_REFUSED, "bad_config", "nsplace: the "
			   "options uid and gid want a positive number (the "
			   "ids a root-started run's command gets)");
	rc = unshare_all(h);
	if (rc == NS_OK)
		rc = mount_place(h, st);
	if (rc == NS_OK)
		rc = make_dirs(h, p, as_root, uid, gid);
	if (rc == NS_OK)
		rc = mount_proc(h, as_root, uid, gid);
	if (rc == NS_OK && as_root)
		rc = drop_to(h, uid, gid);
	return rc;
}

static int
nsp_used(const struct ns_host *h, const struct ns_place *p, uint64_t *bytes)
{
	struct statfs sf;

	if (p->struct_size < NS_PLACE_SIZE_1_1 || p->root_fd < 0 ||
	    fstatfs(p->root_fd, &sf) != 0)
		return say(h, NS_E_SYSTEM, sys_reason(errno), "nsplace: cannot "
			   "measure the place: %s", strerror(errno));
	*bytes = (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_bsize;
	return NS_OK;
}

/* The processes are gone (the host killed and reaped them): the mount
 * namespace is gone with them, and the tmpfs goes with the host's last
 * descriptor.  What is left here is the name. */
static int
nsp_destroy(const struct ns_host *h, struct ns_place *p)
{
	struct nsp_state *st = p->state;

	(void)h;
	if (st != NULL) {
		char file[80];

		/* unlinked while still locked: a taker that opened the old
		 * file sees it is no longer named (still_named) and retries */
		lock_file(st->name, file, sizeof(file));
		if (still_named(st->dirfd, file, st->lockfd))
			(void)unlinkat(st->dirfd, file, 0);
		if (st->lockfd >= 0)
			close(st->lockfd);
		if (st->dirfd >= 0)
			close(st->dirfd);
		free(st);
		p->state = NULL;
	}
	return NS_OK;
}

/* Remove <name>.lock when no run holds it (a SIGKILLed run's). */
static void
drop_stale(int dfd, const char *file)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = lock_open(dfd, file, 0);

	if (fd < 0)
		return;
	if (fcntl(fd, F_OFD_SETLK, &fl) == 0 && still_named(dfd, file, fd))
		(void)unlinkat(dfd, file, 0);
	close(fd);
}

/* A place that dies with its run leaves nothing to list; the lock files
 * SIGKILLed runs left (unlocked, a few bytes) are removed here. */
static int
nsp_list(const struct ns_host *h)
{
	int dfd = -1, lfd;
	DIR *d;
	struct dirent *e;

	lfd = state_open(h, 0, &dfd);
	if (lfd <= 0)
		return lfd == 0 ? NS_OK : NS_E_SYSTEM; /* said: volume_failed */
	lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (d == NULL && lfd >= 0)
		close(lfd);
	while (d != NULL && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		if (n > 5 && strcmp(e->d_name + n - 5, ".lock") == 0)
			drop_stale(dfd, e->d_name);
	}
	if (d != NULL)
		closedir(d);
	close(dfd);
	return NS_OK;
}

static const struct ns_place_ops nsp_place =
	NK_PLACE_OPS(nsp_look, nsp_create, nsp_used, nsp_destroy, nsp_list,
		     .enter = nsp_enter);

static const char *const nsp_options[] = { "uid", "gid", NULL };

NK_DESCRIPTOR(NS_ROLE_PLACE, "nsplace",
	      "a size-capped tmpfs in private mount and PID namespaces, "
	      "gone with the run",
	      nsp_options, .place = &nsp_place);
