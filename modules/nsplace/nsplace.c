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
 * The name is reserved machine-wide per uid by binding the abstract unix
 * socket "@nova-sandbox/place/<uid>/<name>" in the supervisor: it goes
 * away with the last process holding it, so it cannot leak either. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns_backend.h"

#define NSP_MOUNT "/tmp"
#define NSP_NOBODY 65534u

struct nsp_state {
	int lockfd;
	uint64_t size;
	char name[64];
};

static int
say(const struct ns_host *h, int st, const char *reason, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static int
say(const struct ns_host *h, int st, const char *reason, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	h->refuse(h->cookie, reason, text);
	return st;
}

/* The abstract socket address of a name; its length. */
static socklen_t
lock_addr(const char *name, struct sockaddr_un *sa)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1,
		     "nova-sandbox/place/%u/%s", (unsigned)geteuid(), name);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path) - 1)
		return 0;
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			   (size_t)n);
}

/* Bind the name: the fd, -2 when taken, -1 on another error. */
static int
lock_name(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = lock_addr(name, &sa);
	int fd;

	if (len == 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, len) == 0)
		return fd;
	close(fd);
	return errno == EADDRINUSE ? -2 : -1;
}

static int
nsp_look(const struct ns_host *h, const char *name, int *exists)
{
	int fd = lock_name(name);

	if (fd == -1)
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
			   "look up the place %s: %s", name, strerror(errno));
	*exists = fd == -2;
	if (fd >= 0)
		close(fd);
	return NS_OK;
}

static int
nsp_create(const struct ns_host *h, const struct ns_place_req *req,
	   struct ns_place *out)
{
	struct nsp_state *st;
	int fd;

	if (strlen(req->name) >= sizeof(st->name))
		return say(h, NS_E_REFUSED, "no_name", "nsplace: the name is "
			   "longer than %zu bytes", sizeof(st->name) - 1);
	fd = lock_name(req->name);
	if (fd == -2)
		return say(h, NS_E_REFUSED, "volume_exists", "a run named %s "
			   "is live on this machine; pick another --name",
			   req->name);
	if (fd < 0)
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
			   "reserve the name %s: %s", req->name,
			   strerror(errno));
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		close(fd);
		return say(h, NS_E_SYSTEM, "volume_failed", "out of memory");
	}
	st->lockfd = fd;
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
			   "make the mounts private: %s", strerror(errno));
	snprintf(opts, sizeof(opts), "size=%llu,mode=0755",
		 (unsigned long long)st->size);
	if (mount("nova-sandbox", NSP_MOUNT, "tmpfs",
		  MS_NOSUID | MS_NODEV, opts) != 0)
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: mkdir "
			   "%s: %s", p->root, strerror(errno));
	fd = open(p->root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: open "
			   "%s: %s", p->root, strerror(errno));
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		if (mkdirat(fd, sub[i], 0700) != 0 ||
		    (chown_to && fchownat(fd, sub[i], uid, gid,
					  AT_SYMLINK_NOFOLLOW) != 0)) {
			int e = errno;

			close(fd);
			return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: "
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: pipe: "
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
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
		return say(h, NS_E_SYSTEM, "volume_failed", "nsplace: cannot "
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
		if (st->lockfd >= 0)
			close(st->lockfd);
		free(st);
		p->state = NULL;
	}
	return NS_OK;
}

/* A place that dies with its run leaves nothing to list. */
static int
nsp_list(const struct ns_host *h)
{
	(void)h;
	return NS_OK;
}

static const struct ns_place_ops nsp_place = {
	.struct_size = sizeof(struct ns_place_ops),
	.look = nsp_look,
	.create = nsp_create,
	.used = nsp_used,
	.destroy = nsp_destroy,
	.list = nsp_list,
	.enter = nsp_enter,
};

static const char *const nsp_options[] = { "uid", "gid", NULL };

NS_BACKEND_DEFINE = {
	NS_BACKEND_HEADER,
	.roles = NS_ROLE_PLACE,
	.name = "nsplace",
	.version = "0.1.0",
	.summary = "a size-capped tmpfs in private mount and PID namespaces, "
		   "gone with the run",
	.options = nsp_options,
	.place = &nsp_place,
};
