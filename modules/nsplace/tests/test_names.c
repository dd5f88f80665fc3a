/* SPDX-License-Identifier: MIT */
/* test_names.c -- nsplace's run names: an OFD write lock on
 * <state>/<name>.lock (the uid's run-name directory).  look, create,
 * destroy and list through the module's own table; a name held is
 * volume_exists; a descriptor opened read-only cannot hold a name; a
 * SIGKILLed holder leaves the name free and list() removes its file.
 * Runs as whoever runs the suite (root: /run/nova-sandbox). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include "common/fake_host.h"
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern const struct ns_backend_ops ns_backend_v1;

static const struct ns_place_ops *P;
static char name[40];
static char lockpath[512];

static int
setup(void)
{
	struct passwd *pw = getpwuid(geteuid());
	struct stat sb;
	char base[64];

	P = ns_backend_v1.place;
	snprintf(name, sizeof(name), "ut-names-%ld", (long)getpid());
	snprintf(base, sizeof(base), geteuid() == 0 ? "/run" : "/run/user/%u",
		 (unsigned)geteuid());
	if (stat(base, &sb) == 0 && sb.st_uid == geteuid() &&
	    !(sb.st_mode & 022))
		snprintf(lockpath, sizeof(lockpath), "%s/nova-sandbox/%s.lock",
			 base, name);
	else if (pw != NULL)
		snprintf(lockpath, sizeof(lockpath),
			 "%s/.local/state/nova-sandbox/%s.lock", pw->pw_dir,
			 name);
	return P == NULL ? -1 : 0;
}

static int
create(struct ns_place *pl)
{
	struct ns_place_req req = { .struct_size = sizeof(req), .name = name,
				    .size_bytes = 1 << 20 };

	memset(pl, 0, sizeof(*pl));
	pl->struct_size = sizeof(*pl);
	pl->root_fd = -1;
	return P->create(&fake_ns_host, &req, pl);
}

static int
exists(void)
{
	int e = -1;

	CU_ASSERT_EQUAL(P->look(&fake_ns_host, name, &e), NS_OK);
	return e;
}

static void
test_take_look_release(void)
{
	struct ns_place a, b;
	struct stat sb;

	fh_clear();
	CU_ASSERT_EQUAL(exists(), 0);
	CU_ASSERT_EQUAL_FATAL(create(&a), NS_OK);
	CU_ASSERT_EQUAL(stat(lockpath, &sb), 0);
	CU_ASSERT_EQUAL(sb.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(exists(), 1);
	CU_ASSERT_EQUAL(create(&b), NS_E_REFUSED);
	CU_ASSERT_STRING_EQUAL(fh.reason, "volume_exists");
	CU_ASSERT_EQUAL(P->destroy(&fake_ns_host, &a), NS_OK);
	CU_ASSERT(stat(lockpath, &sb) != 0); /* unlinked under the lock */
	CU_ASSERT_EQUAL(exists(), 0);
	/* free again */
	CU_ASSERT_EQUAL_FATAL(create(&a), NS_OK);
	CU_ASSERT_EQUAL(P->destroy(&fake_ns_host, &a), NS_OK);
}

/* The property the name rests on: a write lock needs a descriptor open
 * for writing, which a walled command cannot get for this file. */
static void
test_readonly_cannot_hold(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct ns_place a;
	int fd;

	CU_ASSERT_EQUAL_FATAL(create(&a), NS_OK);
	CU_ASSERT_EQUAL(P->destroy(&fake_ns_host, &a), NS_OK);
	fd = open(lockpath, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fd = open(lockpath, O_RDONLY | O_NOFOLLOW);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(fcntl(fd, F_OFD_SETLK, &fl), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
	CU_ASSERT_EQUAL(exists(), 0);
	close(fd);
	CU_ASSERT_EQUAL(unlink(lockpath), 0);
}

/* What a read-only descriptor CAN take: a read lock on a leftover file.
 * It blocks the write lock, but it is no run's: look says free, create
 * names it (name_squatted), never volume_exists. */
static void
test_read_lock_named(void)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	struct ns_place a;
	int fd;

	fd = open(lockpath, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fd = open(lockpath, O_RDONLY | O_NOFOLLOW);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(fcntl(fd, F_OFD_SETLK, &fl), 0);
	fh_clear();
	CU_ASSERT_EQUAL(exists(), 0);
	CU_ASSERT_EQUAL(create(&a), NS_E_REFUSED);
	CU_ASSERT_STRING_EQUAL(fh.reason, "name_squatted");
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusal, "has a read lock on it, "
				      "which no run takes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.refusal, lockpath));
	close(fd); /* the read lock goes: the name is free */
	CU_ASSERT_EQUAL_FATAL(create(&a), NS_OK);
	CU_ASSERT_EQUAL(P->destroy(&fake_ns_host, &a), NS_OK);
}

/* A holder killed without destroy: the name is free at once, the file
 * stays until list() (reap) removes it. */
static void
test_killed_holder(void)
{
	struct ns_place a;
	struct stat sb;
	int st, p[2];
	char c;
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (create(&a) != NS_OK || write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	CU_ASSERT_EQUAL_FATAL(read(p[0], &c, 1), 1);
	close(p[0]);
	CU_ASSERT_EQUAL(exists(), 1);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	CU_ASSERT_EQUAL(stat(lockpath, &sb), 0);
	CU_ASSERT_EQUAL(exists(), 0);
	CU_ASSERT_EQUAL(P->list(&fake_ns_host), NS_OK);
	CU_ASSERT(stat(lockpath, &sb) != 0);
	/* list leaves a held name alone */
	CU_ASSERT_EQUAL_FATAL(create(&a), NS_OK);
	CU_ASSERT_EQUAL(P->list(&fake_ns_host), NS_OK);
	CU_ASSERT_EQUAL(stat(lockpath, &sb), 0);
	CU_ASSERT_EQUAL(exists(), 1);
	CU_ASSERT_EQUAL(P->destroy(&fake_ns_host, &a), NS_OK);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "take, look, refuse a second, release", test_take_look_release },
		{ "a read-only descriptor cannot hold a name", test_readonly_cannot_hold },
		{ "a read lock is named (name_squatted), not volume_exists", test_read_lock_named },
		{ "a killed holder: free at once, list removes the file", test_killed_holder },
		{ NULL, NULL },
	};

	return cu_run("nsplace names", setup, NULL, cases);
}
