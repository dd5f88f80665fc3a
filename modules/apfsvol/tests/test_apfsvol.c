/* SPDX-License-Identifier: MIT */
/* test_apfsvol.c -- apfsvol.so's ops driven directly against fake
 * diskutil, lsof and ps (tests/fakes/), asserting the exact tool calls for
 * success, each failure, a leak, and reap's view (list, holders,
 * proc_start) of an orphan, a live owner, a recycled pid and a garbage
 * marker.  The fakes are copied (0755) into a fresh directory under the
 * build dir, because the module takes absolute tool paths only. */
#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "av.h"
#include "common/cu_run.h"
#include "common/cu_tree.h"
#include "common/fake_host.h"

extern const struct ns_backend_ops ns_backend_v1;

#define AV_T_PATH 512
static char top[384];  /* the test's directory */
static char vols[AV_T_PATH], log_path[AV_T_PATH], lock_path[AV_T_PATH];
static char bin_d[AV_T_PATH], bin_l[AV_T_PATH], bin_p[AV_T_PATH];
static const struct ns_place_ops *P;
#define H (&fake_ns_host)

/* ---- set-up ---------------------------------------------------------- */

static int
copy_file(const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out, bad = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		bad |= write(out, buf, (size_t)n) != n;
	bad |= n < 0;
	close(in);
	return (close(out) != 0 || bad) ? -1 : 0;
}

/* <exe dir>/apfs-XXXXXX with bin/ vol/ state/ */
static int
suite_init(void)
{
	char exe[PATH_MAX], src[PATH_MAX], from[PATH_MAX + 16], *slash;
	static const char *const tools[] = { "diskutil", "lsof", "ps" };
	char *dst[] = { bin_d, bin_l, bin_p };
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0 || realpath("modules/apfsvol/tests/fakes", src) == NULL)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	if (strlen(exe) > sizeof(top) - 16)
		return -1;
	snprintf(top, sizeof(top), "%.360s/apfs-XXXXXX", exe);
	if (mkdtemp(top) == NULL || chmod(top, 0755) != 0)
		return -1;
	snprintf(from, sizeof(from), "%s/bin", top);
	if (mkdir(from, 0755) != 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		snprintf(dst[i], AV_T_PATH, "%s/bin/%s", top, tools[i]);
		snprintf(from, sizeof(from), "%s/%s", src, tools[i]);
		if (copy_file(from, dst[i]) != 0)
			return -1;
	}
	snprintf(vols, sizeof(vols), "%s/vol", top);
	snprintf(log_path, sizeof(log_path), "%s/log", top);
	snprintf(lock_path, sizeof(lock_path), "%s/create.lock", top);
	P = ns_backend_v1.place;
	return 0;
}

static int
suite_clean(void)
{
	return cu_rm_tree(top);
}

/* A fresh world per test: empty vol/ and state/, no log, default options. */
static void
fresh(void)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/state", top);
	cu_rm_tree(vols);
	cu_rm_tree(p);
	mkdir(vols, 0755);
	mkdir(p, 0755);
	unlink(log_path);
	setenv("FAKE_APFS_VOLUMES", vols, 1);
	setenv("FAKE_APFS_STATE", p, 1);
	setenv("FAKE_APFS_LOG", log_path, 1);
	unsetenv("FAKE_APFS_FAIL");
	unsetenv("FAKE_APFS_BUSY_PID");
	unsetenv("FAKE_APFS_START");
	memset(&fh, 0, sizeof(fh));
	fh_set("diskutil", bin_d);
	fh_set("lsof", bin_l);
	fh_set("ps", bin_p);
	fh_set("volumes", vols);
	fh_set("lockfile", lock_path);
	fh_set("timeout", "20");
}

/* The log so far, then forget it. */
static const char *
calls(void)
{
	static char buf[8192];
	int fd = open(log_path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	unlink(log_path);
	return buf;
}

#define EXPECT_CALLS(want)                                                \
	do {                                                              \
		const char *got_ = calls();                               \
		if (strcmp(got_, (want)) != 0)                            \
			fprintf(stderr, "\nwant:\n%sgot:\n%s", (want), got_); \
		CU_ASSERT_STRING_EQUAL(got_, (want));                     \
	} while (0)

static void
new_place(struct ns_place *p)
{
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->root_fd = -1;
}

static int
create(const char *name, struct ns_place *p)
{
	struct ns_place_req req = { .struct_size = sizeof(req), .name = name,
				    .size_bytes = 1048576 };

	new_place(p);
	return P->create(H, &req, p);
}

static int
exists_path(const char *rel)
{
	char p[PATH_MAX * 2];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", vols, rel);
	return lstat(p, &st) == 0;
}

static int
n_entries(const char *dir)
{
	char p[PATH_MAX * 2];
	int n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "ls -A '%s' | wc -l", dir);
	f = popen(p, "r");
	if (f == NULL || fscanf(f, "%d", &n) != 1)
		n = -1;
	if (f != NULL)
		pclose(f);
	return n;
}

/* ---- success ---------------------------------------------------------- */

static void
test_success_flow(void)
{
	struct ns_place p;
	char want[2048], path[PATH_MAX * 2], mk[256];
	struct stat st;
	uint64_t used = 1;
	int exists = 1, fd;
	ssize_t n;

	fresh();
	CU_ASSERT_EQUAL(P->look(H, "t1", &exists), NS_OK);
	CU_ASSERT_EQUAL(exists, 0);
	EXPECT_CALLS("diskutil info -plist nova-t1\n");

	CU_ASSERT_EQUAL_FATAL(create("t1", &p), NS_OK);
	snprintf(want, sizeof(want),
		 "diskutil info -plist /\n"
		 "diskutil info -plist nova-t1\n"
		 "diskutil apfs addVolume disk3 APFS nova-t1 -quota 1048576B\n"
		 "diskutil info -plist disk3s7\n"
		 "ps -o lstart= -p %ld\n", (long)getpid());
	EXPECT_CALLS(want);
	snprintf(path, sizeof(path), "%s/nova-t1", vols);
	CU_ASSERT_STRING_EQUAL(p.root, path);
	CU_ASSERT_STRING_EQUAL(p.id, "disk3s7");
	CU_ASSERT_STRING_EQUAL(p.remedy, "diskutil apfs deleteVolume disk3s7");
	CU_ASSERT_STRING_EQUAL(p.hidden, "");
	CU_ASSERT_EQUAL(fh.n_refusals, 0);
	for (int i = 0; i < 3; i++) {
		static const char *const d[] = { "work", "home", "tmp" };

		snprintf(path, sizeof(path), "%s/nova-t1/%s", vols, d[i]);
		CU_ASSERT(lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
			  (st.st_mode & 07777) == 0700);
	}
	snprintf(path, sizeof(path), "%s/nova-t1/" AV_MARKER, vols);
	CU_ASSERT(lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		  (st.st_mode & 07777) == 0600);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, mk, sizeof(mk) - 1);
	if (fd >= 0)
		close(fd);
	mk[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "pid=%ld\nstart=Thu Jan  1 10:00:00 2026\n",
		 (long)getpid());
	CU_ASSERT_STRING_EQUAL(mk, want);

	CU_ASSERT_EQUAL(P->look(H, "t1", &exists), NS_OK);
	CU_ASSERT_EQUAL(exists, 1);
	EXPECT_CALLS(""); /* the mount point is there: no tool asked */

	CU_ASSERT_EQUAL(P->used(H, &p, &used), NS_OK);
	CU_ASSERT(used > 0);
	EXPECT_CALLS("diskutil info -plist disk3s7\n");

	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
	EXPECT_CALLS("diskutil info -plist disk3s7\n"
		     "lsof -w -t +f -- $V/nova-t1\n"
		     "diskutil unmount force disk3s7\n"
		     "diskutil apfs deleteVolume disk3s7\n");
	CU_ASSERT_FALSE(exists_path("nova-t1"));
	CU_ASSERT_EQUAL(fh.n_refusals, 0);

	/* gone already: destroy again is NS_OK and deletes nothing */
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
	EXPECT_CALLS("diskutil info -plist disk3s7\n");
}

/* ---- failures at create ------------------------------------------------ */

static void
test_container_not_found(void)
{
	struct ns_place p;

	fresh();
	setenv("FAKE_APFS_FAIL", "container", 1);
	CU_ASSERT_NOT_EQUAL(create("t2", &p), NS_OK);
	EXPECT_CALLS("diskutil info -plist /\n");
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "Could not find disk: /"));
	CU_ASSERT_EQUAL(n_entries(vols), 0);
	CU_ASSERT_STRING_EQUAL(p.id, "");
}

static void
test_name_taken(void)
{
	struct ns_place p, q;
	int exists = 0;

	fresh();
	CU_ASSERT_EQUAL_FATAL(create("t3", &p), NS_OK);
	(void)calls();
	CU_ASSERT_EQUAL(P->look(H, "t3", &exists), NS_OK);
	CU_ASSERT_EQUAL(exists, 1);
	/* taken between look and create: refused under the lock */
	CU_ASSERT_EQUAL(create("t3", &q), NS_E_REFUSED);
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_exists");
	EXPECT_CALLS("diskutil info -plist /\n");
	CU_ASSERT_EQUAL(n_entries(vols), 1);
	CU_ASSERT_STRING_EQUAL(q.id, "");

	/* a volume of that name that is not mounted is found by diskutil */
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
	fh_clear();
	(void)calls();
	setenv("FAKE_APFS_FAIL", "nomount", 1);
	CU_ASSERT_EQUAL(P->look(H, "t3", &exists), NS_OK);
	CU_ASSERT_EQUAL(exists, 0);
	(void)calls();
	CU_ASSERT_NOT_EQUAL_FATAL(create("t3", &p), NS_OK); /* not mounted */
	(void)calls();
	unsetenv("FAKE_APFS_FAIL");
	CU_ASSERT_EQUAL(n_entries(vols), 0);
}

static void
test_create_fails(void)
{
	struct ns_place p;

	fresh();
	setenv("FAKE_APFS_FAIL", "create", 1);
	CU_ASSERT_EQUAL(create("t4", &p), NS_E_SYSTEM);
	EXPECT_CALLS("diskutil info -plist /\n"
		     "diskutil info -plist nova-t4\n"
		     "diskutil apfs addVolume disk3 APFS nova-t4 -quota 1048576B\n");
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "exit 1: Error: -69625"));
	CU_ASSERT_EQUAL(n_entries(vols), 0);
}

/* made but not mounted where it must be: undone by identifier */
static void
test_create_not_mounted_is_undone(void)
{
	struct ns_place p;
	char st[PATH_MAX];

	fresh();
	setenv("FAKE_APFS_FAIL", "nomount", 1);
	CU_ASSERT_EQUAL(create("t5", &p), NS_E_SYSTEM);
	EXPECT_CALLS("diskutil info -plist /\n"
		     "diskutil info -plist nova-t5\n"
		     "diskutil apfs addVolume disk3 APFS nova-t5 -quota 1048576B\n"
		     "diskutil info -plist disk3s7\n"
		     "diskutil unmount force disk3s7\n"
		     "diskutil apfs deleteVolume disk3s7\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "is not mounted"));
	snprintf(st, sizeof(st), "%s/state/vols", top);
	CU_ASSERT_EQUAL(n_entries(st), 0);
	CU_ASSERT_EQUAL(n_entries(vols), 0);
}

static void
test_lock_held_waits_then_refuses(void)
{
	struct ns_place p;
	int fd;

	fresh();
	fh_set("lock_wait", "1");
	fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(fd >= 0 && flock(fd, LOCK_EX) == 0);
	CU_ASSERT_EQUAL(create("t6", &p), NS_E_SYSTEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "still held after 1s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "waiting up to 1s"));
	EXPECT_CALLS("");
	close(fd);
	fh_clear();
	CU_ASSERT_EQUAL(create("t6", &p), NS_OK); /* control: lock free */
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
}

static void
test_relative_tool_refused(void)
{
	int exists = 0;

	fresh();
	fh_set("diskutil", "bin/diskutil");
	fh_set("ps", "ps");
	CU_ASSERT_EQUAL(P->look(H, "t7", &exists), NS_E_UNAVAILABLE);
	CU_ASSERT_STRING_EQUAL(fh.reason, "bad_config");
	CU_ASSERT_EQUAL(fh.n_refusals, 2); /* every problem at once */
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "diskutil = bin/diskutil"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "ps = ps"));
	EXPECT_CALLS("");
	fh_set("lock_wait", "soon");
	fh_clear();
	CU_ASSERT_EQUAL(P->list(H), NS_E_UNAVAILABLE);
	CU_ASSERT_EQUAL(fh.n_refusals, 3);
}

static void
test_tool_timeout(void)
{
	int exists = 0;

	fresh();
	fh_set("timeout", "1");
	setenv("FAKE_APFS_FAIL", "hang", 1);
	CU_ASSERT_EQUAL(P->look(H, "t8", &exists), NS_E_SYSTEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "timed out after 1s"));
	EXPECT_CALLS("diskutil info -plist nova-t8\n");
}

/* ---- destroy: busy, leak ---------------------------------------------- */

/* A sleep that is not our child (so no zombie keeps it "alive"). */
static pid_t
start_holder(void)
{
	int fd[2];
	pid_t pid = -1, c;

	if (pipe(fd) != 0)
		return -1;
	c = fork();
	if (c == 0) {
		pid_t g = fork();

		if (g == 0) {
			close(fd[0]);
			close(fd[1]);
			execl("/bin/sleep", "sleep", "60", (char *)NULL);
			_exit(127);
		}
		(void)!write(fd[1], &g, sizeof(g));
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &pid, sizeof(pid)) != sizeof(pid))
		pid = -1;
	close(fd[0]);
	waitpid(c, NULL, 0);
	return pid;
}

static int
gone_soon(pid_t pid)
{
	const struct timespec t = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 500; i++) {
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return 1;
		nanosleep(&t, NULL);
	}
	return 0;
}

static void
test_busy_holder_killed(void)
{
	struct ns_place p;
	char num[24];
	pid_t holder;

	fresh();
	CU_ASSERT_EQUAL_FATAL(create("t9", &p), NS_OK);
	(void)calls();
	holder = start_holder();
	CU_ASSERT_FATAL(holder > 0);
	snprintf(num, sizeof(num), "%ld", (long)holder);
	setenv("FAKE_APFS_BUSY_PID", num, 1);
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
	EXPECT_CALLS("diskutil info -plist disk3s7\n"
		     "lsof -w -t +f -- $V/nova-t9\n"
		     "diskutil unmount force disk3s7\n"
		     "diskutil apfs deleteVolume disk3s7\n");
	CU_ASSERT(gone_soon(holder));
	CU_ASSERT_FALSE(exists_path("nova-t9"));
	kill(holder, SIGKILL);
}

static void
test_leak_sets_remedy(void)
{
	struct ns_place p;

	fresh();
	CU_ASSERT_EQUAL_FATAL(create("t10", &p), NS_OK);
	(void)calls();
	p.remedy[0] = '\0';
	setenv("FAKE_APFS_FAIL", "delete unmount", 1);
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_E_SYSTEM);
	EXPECT_CALLS("diskutil info -plist disk3s7\n"
		     "lsof -w -t +f -- $V/nova-t10\n"
		     "diskutil unmount force disk3s7\n"
		     "diskutil apfs deleteVolume disk3s7\n");
	CU_ASSERT_STRING_EQUAL(p.remedy, "diskutil apfs deleteVolume disk3s7");
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals,
				      "remove it with: diskutil apfs deleteVolume disk3s7"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "unmount force disk3s7 did not"));
	CU_ASSERT_TRUE(exists_path("nova-t10"));
	unsetenv("FAKE_APFS_FAIL");
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK); /* the remedy works */
	CU_ASSERT_FALSE(exists_path("nova-t10"));
}

static void
test_destroy_refuses_foreign(void)
{
	struct ns_place p, q;

	fresh();
	CU_ASSERT_EQUAL_FATAL(create("t11", &p), NS_OK);
	(void)calls();
	new_place(&q);
	snprintf(q.id, sizeof(q.id), "disk3s7");
	snprintf(q.root, sizeof(q.root), "%.400s/nova-other", vols);
	CU_ASSERT_EQUAL(P->destroy(H, &q), NS_E_SYSTEM); /* id names t11 */
	EXPECT_CALLS("diskutil info -plist disk3s7\n");
	snprintf(q.id, sizeof(q.id), "nova-t11");
	CU_ASSERT_EQUAL(P->destroy(H, &q), NS_E_REFUSED); /* a name, not id */
	snprintf(q.id, sizeof(q.id), "disk3s7");
	snprintf(q.root, sizeof(q.root), "/etc");
	CU_ASSERT_EQUAL(P->destroy(H, &q), NS_E_REFUSED);
	EXPECT_CALLS("");
	CU_ASSERT_TRUE(exists_path("nova-t11"));
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
}

/* ---- reap's view ------------------------------------------------------- */

static void
write_marker(const char *name, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/nova-%s/" AV_MARKER, vols, name);
	unlink(p);
	if (text == NULL)
		return;
	f = fopen(p, "w");
	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static pid_t
dead_pid(void)
{
	pid_t c = fork();

	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	return c;
}

/* The host's rule (docs/ABI.md, reap): live when the pid is alive AND
 * proc_start equals start, or alive with an unreadable start. */
static int
host_says_live(const char *owner, const char *start)
{
	char now[256];
	long pid;
	int rc;

	if (strcmp(owner, "-") == 0)
		return 0;
	pid = strtol(owner, NULL, 10);
	if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
		return 0;
	rc = P->proc_start(H, pid, now, sizeof(now));
	if (rc == NS_E_UNAVAILABLE)
		return 1;
	return rc == NS_OK && strcmp(now, start) == 0;
}

/* owner= and start= of the list line for name */
static int
line_of(const char *name, char *owner, char *start)
{
	char key[64];
	const char *l, *s, *e;

	snprintf(key, sizeof(key), "name=nova-%s ", name);
	l = strstr(fh.text, key);
	if (l == NULL || (s = strstr(l, " owner=")) == NULL)
		return -1;
	sscanf(s, " owner=%23s", owner);
	s = strstr(s, " start=") + 7;
	e = strchr(s, '\n');
	memcpy(start, s, (size_t)(e - s));
	start[e - s] = '\0';
	return 0;
}

static void
test_reap_view(void)
{
	static const char *const names[] = { "a-orphan", "b-live",
					     "c-recycled", "d-garbage",
					     "e-missing" };
	struct ns_place p[5];
	char want[8192], mk[128], owner[24], start[256], path[PATH_MAX];
	long me = (long)getpid(), dead = (long)dead_pid();

	fresh();
	for (int i = 4; i >= 0; i--)
		CU_ASSERT_EQUAL_FATAL(create(names[i], &p[i]), NS_OK);
	snprintf(mk, sizeof(mk), "pid=%ld\nstart=Thu Jan  1 10:00:00 2026\n",
		 dead);
	write_marker("a-orphan", mk);
	snprintf(mk, sizeof(mk), "pid=%ld\nstart=Wed Dec 31 09:00:00 2025\n",
		 me);
	write_marker("c-recycled", mk);
	write_marker("d-garbage", "pid=12x\nstart=\n");
	write_marker("e-missing", NULL);
	snprintf(path, sizeof(path), "%s/nova-stray", vols);
	mkdir(path, 0755); /* a directory, not a volume: skipped */
	snprintf(path, sizeof(path), "%s/other", vols);
	mkdir(path, 0755); /* not ours: not even asked about */
	(void)calls();
	fh_clear();

	CU_ASSERT_EQUAL(P->list(H), NS_OK);
	EXPECT_CALLS("diskutil info -plist $V/nova-a-orphan\n"
		     "diskutil info -plist $V/nova-b-live\n"
		     "diskutil info -plist $V/nova-c-recycled\n"
		     "diskutil info -plist $V/nova-d-garbage\n"
		     "diskutil info -plist $V/nova-e-missing\n"
		     "diskutil info -plist $V/nova-stray\n");
	snprintf(want, sizeof(want),
		 "name=nova-a-orphan id=disk3s11 root=%s/nova-a-orphan owner=%ld start=Thu Jan  1 10:00:00 2026\n"
		 "name=nova-b-live id=disk3s10 root=%s/nova-b-live owner=%ld start=Thu Jan  1 10:00:00 2026\n"
		 "name=nova-c-recycled id=disk3s9 root=%s/nova-c-recycled owner=%ld start=Wed Dec 31 09:00:00 2025\n"
		 "name=nova-d-garbage id=disk3s8 root=%s/nova-d-garbage owner=- start=-\n"
		 "name=nova-e-missing id=disk3s7 root=%s/nova-e-missing owner=- start=-\n",
		 vols, dead, vols, me, vols, me, vols, vols);
	CU_ASSERT_STRING_EQUAL(fh.text, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "nova-stray: not a mounted"));

	CU_ASSERT(line_of("a-orphan", owner, start) == 0 &&
		  !host_says_live(owner, start));
	CU_ASSERT(line_of("b-live", owner, start) == 0 &&
		  host_says_live(owner, start));
	snprintf(want, sizeof(want), "ps -o lstart= -p %ld\n", me);
	EXPECT_CALLS(want);
	CU_ASSERT(line_of("c-recycled", owner, start) == 0 &&
		  !host_says_live(owner, start));
	CU_ASSERT(line_of("d-garbage", owner, start) == 0 &&
		  !host_says_live(owner, start));
	CU_ASSERT(line_of("e-missing", owner, start) == 0 &&
		  !host_says_live(owner, start));
	EXPECT_CALLS(want); /* only c-recycled asked ps */

	/* an unreadable start: proc_start is UNAVAILABLE (counts as live) */
	setenv("FAKE_APFS_FAIL", "ps", 1);
	CU_ASSERT(line_of("c-recycled", owner, start) == 0 &&
		  host_says_live(owner, start));
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_failed");
	unsetenv("FAKE_APFS_FAIL");
	(void)calls();

	/* reap's destroy: only id and root, state NULL, root_fd -1 */
	for (int i = 0; i < 5; i++) {
		struct ns_place q;

		new_place(&q);
		snprintf(q.id, sizeof(q.id), "%s", p[i].id);
		snprintf(q.root, sizeof(q.root), "%s", p[i].root);
		CU_ASSERT_EQUAL(P->destroy(H, &q), NS_OK);
	}
	fh_clear();
	CU_ASSERT_EQUAL(P->list(H), NS_OK);
	CU_ASSERT_STRING_EQUAL(fh.text, "");
}

static void
test_holders(void)
{
	struct ns_place p;
	int64_t pids[4] = { 0 };
	size_t n = 9;
	char num[24];
	pid_t holder;

	fresh();
	CU_ASSERT_EQUAL_FATAL(create("h1", &p), NS_OK);
	(void)calls();
	CU_ASSERT_EQUAL(P->holders(H, &p, pids, 4, &n), NS_OK);
	CU_ASSERT_EQUAL(n, 0);
	holder = start_holder();
	snprintf(num, sizeof(num), "%ld", (long)holder);
	setenv("FAKE_APFS_BUSY_PID", num, 1);
	CU_ASSERT_EQUAL(P->holders(H, &p, pids, 4, &n), NS_OK);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(pids[0], (int64_t)holder);
	EXPECT_CALLS("lsof -w -t +f -- $V/nova-h1\n"
		     "lsof -w -t +f -- $V/nova-h1\n");
	setenv("FAKE_APFS_FAIL", "lsof", 1);
	CU_ASSERT_EQUAL(P->holders(H, &p, pids, 4, &n), NS_E_SYSTEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusals, "can't stat()"));
	unsetenv("FAKE_APFS_FAIL");
	kill(holder, SIGKILL);
	CU_ASSERT(gone_soon(holder));
	CU_ASSERT_EQUAL(P->destroy(H, &p), NS_OK);
}

/* ---- parsers ------------------------------------------------------------ */

static void
test_parsers(void)
{
	char out[64];
	struct av_cfg c;

	CU_ASSERT_EQUAL(av_plist_get("<key>VolumeName</key>\n\t<string>a&amp;b"
				     "</string>", "VolumeName", out,
				     sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "a&b");
	CU_ASSERT_EQUAL(av_plist_get("<key>MountPoint</key><string/>",
				     "MountPoint", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(av_plist_get("<key>X</key><true/>", "X", out,
				     sizeof(out)), -1);
	CU_ASSERT_EQUAL(av_created_id("x\nCreated new APFS Volume disk3s12\n",
				      out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "disk3s12");
	CU_ASSERT_EQUAL(av_created_id("Created new APFS Volume /etc\n", out,
				      sizeof(out)), -1);
	CU_ASSERT_TRUE(av_valid_id("disk12s3"));
	CU_ASSERT_FALSE(av_valid_id("disk3"));
	CU_ASSERT_FALSE(av_valid_id("disk3s1s1x"));
	CU_ASSERT_FALSE(av_valid_id("-disk3s1"));
	memset(&c, 0, sizeof(c));
	c.volumes = "/Volumes";
	CU_ASSERT_TRUE(av_under_root(&c, "/Volumes/nova-x"));
	CU_ASSERT_FALSE(av_under_root(&c, "/Volumes/nova-x 1"));
	CU_ASSERT_FALSE(av_under_root(&c, "/Volumes/.."));
	CU_ASSERT_FALSE(av_under_root(&c, "/Volumes/a/b"));
	CU_ASSERT_FALSE(av_under_root(&c, "/VolumesX/a"));
}

static void
test_marker_garbage(void)
{
	static const char *const bad[] = {
		"", "pid=\nstart=x\n", "pid=0\nstart=x\n", "pid=1\n",
		"pid=1\nstart=x", "pid=1\nstart=\n", "pid=1\nstart=x\nmore\n",
		"pid=12345678901\nstart=x\n", "pid=1\nstart=a\tb\n",
		" pid=1\nstart=x\n",
	};
	char path[PATH_MAX + 32], start[64];
	long pid = 0;
	int dfd;

	fresh();
	dfd = open(vols, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(dfd >= 0);
	snprintf(path, sizeof(path), "%s/m", vols);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		fputs(bad[i], f);
		fclose(f);
		CU_ASSERT_EQUAL(av_marker_read(dfd, "m", &pid, start,
					       sizeof(start)), -1);
	}
	unlink(path);
	CU_ASSERT_EQUAL(symlink("/etc/passwd", path), 0);
	CU_ASSERT_EQUAL(av_marker_read(dfd, "m", &pid, start, sizeof(start)),
			-1);
	unlink(path);
	CU_ASSERT_EQUAL(av_marker_write(H, dfd, 42, "Mon Jan  5 1:2:3 2026"),
			NS_OK);
	CU_ASSERT_EQUAL(av_marker_write(H, dfd, 42, "x"), NS_E_SYSTEM); /* EXCL */
	CU_ASSERT_EQUAL(av_marker_read(dfd, AV_MARKER, &pid, start,
				       sizeof(start)), 0);
	CU_ASSERT_EQUAL(pid, 42);
	CU_ASSERT_STRING_EQUAL(start, "Mon Jan  5 1:2:3 2026");
	close(dfd);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "success: look create used destroy, exact calls", test_success_flow },
		{ "container not found", test_container_not_found },
		{ "name taken: volume_exists", test_name_taken },
		{ "create fails: nothing left", test_create_fails },
		{ "made but not mounted: undone by id", test_create_not_mounted_is_undone },
		{ "create lock held: bounded wait", test_lock_held_waits_then_refuses },
		{ "relative tool path refused", test_relative_tool_refused },
		{ "a hung tool times out", test_tool_timeout },
		{ "busy: holder killed, then deleted", test_busy_holder_killed },
		{ "delete fails: leak with remedy", test_leak_sets_remedy },
		{ "destroy touches only our volume", test_destroy_refuses_foreign },
		{ "reap view: orphan live recycled garbage", test_reap_view },
		{ "holders via lsof", test_holders },
		{ "parsers", test_parsers },
		{ "owner marker parsing", test_marker_garbage },
		{ NULL, NULL }
	};

	return cu_run("apfsvol", suite_init, suite_clean, cases);
}
