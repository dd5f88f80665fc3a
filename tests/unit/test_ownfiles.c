/* SPDX-License-Identifier: MIT */
/* test_ownfiles.c -- the tool's own files beneath a write root are refused
 * (host/policy/ownfiles.c): a binary, a module, a config, a link on the way, a
 * second name; a write root elsewhere is clean; the temp directory the
 * build made is removed on a refusal.  Runs as whoever runs the suite: the
 * files it makes are that uid's, so the uid may change them. */
#include <CUnit/Basic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "policy/ownfiles.h"

static char top[64];

static void
mk(const char *rel, int dir)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (dir) {
		CU_ASSERT_EQUAL_FATAL(mkdir(p, 0755), 0);
	} else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0755);

		CU_ASSERT_FATAL(fd >= 0);
		close(fd);
	}
}

static char *
at(const char *rel)
{
	static char buf[4][256];
	static int n;
	char *b = buf[n++ % 4];

	snprintf(b, 256, "%s/%s", top, rel);
	return b;
}

static int
setup(void)
{
	snprintf(top, sizeof(top), "/tmp/nova-ut-own.XXXXXX");
	return mkdtemp(top) == NULL || chmod(top, 0755) != 0 ? -1 : 0;
}

static int
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* The check runs in a child with the command's credentials: as root the
 * suite drops it to uid/gid 65534 (root's own checks are skipped: no wall
 * runs a command as root) and gives it the tree.  The child reports
 * "<rc> <tmp_created>" then one refusal text a line. */
#define TEST_UID 65534u

static void
give_tree(void)
{
	char cmd[128];

	if (geteuid() != 0)
		return;
	snprintf(cmd, sizeof(cmd), "chown -R %u:%u '%s'", TEST_UID, TEST_UID,
		 top);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void __attribute__((noreturn))
child(int fd, const struct hostrun *hr, const struct config *cfg,
      struct policy *pol)
{
	struct refusals r = {0};
	FILE *f = fdopen(fd, "w");
	int rc;

	if (f == NULL || (geteuid() == 0 &&
			  (setgroups(0, NULL) != 0 ||
			   setresgid(TEST_UID, TEST_UID, TEST_UID) != 0 ||
			   setresuid(TEST_UID, TEST_UID, TEST_UID) != 0)))
		_exit(3);
	rc = ownfiles_check(hr, cfg, pol, NULL, &r);
	fprintf(f, "%d %d\n", rc, pol->tmp_created);
	for (size_t i = 0; i < r.n; i++)
		fprintf(f, "%s\n", r.v[i].text);
	fclose(f);
	_exit(0);
}

/* Run the check as the command; *tmp_created as the child left it. */
static int
run_check(const struct hostrun *hr, const struct config *cfg,
	  struct policy *pol, struct refusals *r, int *tmp_created)
{
	char line[2048];
	int p[2], rc = -9, st;
	FILE *f;
	pid_t pid;

	give_tree();
	memset(r, 0, sizeof(*r));
	if (pipe(p) != 0)
		return -9;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(p[1], hr, cfg, pol);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	if (f != NULL && fgets(line, sizeof(line), f) != NULL)
		sscanf(line, "%d %d", &rc, tmp_created);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		refusals_add(r, "wall_writable", "%s", line);
	}
	if (f != NULL)
		fclose(f);
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return rc;
}

/* A --write root as rule 5 leaves it: its name and its descriptor. */
static void
write_root(struct policy *pol, const char *p)
{
	struct rpath rp;

	memset(&rp, 0, sizeof(rp));
	rp.dir_fd = -1;
	rp.fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	rp.path = strdup(p);
	CU_ASSERT(rp.fd >= 0 && rp.path != NULL);
	CU_ASSERT_EQUAL(strv_push(&pol->writes, p), 0);
	CU_ASSERT_EQUAL(rpaths_push(&pol->r_writes, &rp), 0);
}

/* Check with exe, one module name (bare, in moduledir) and one write
 * root; the number of refusals. */
static size_t
check(const char *exe, const char *moduledir, const char *module,
      const char *write, struct refusals *r)
{
	struct hostrun hr = { exe, NULL, NULL, NULL };
	struct config cfg;
	struct policy pol;
	int rc, tc = 0;

	memset(&cfg, 0, sizeof(cfg));
	memset(&pol, 0, sizeof(pol));
	cfg.moduledir = (char *)moduledir;
	strv_push(&cfg.wall, module);
	write_root(&pol, write);
	rc = run_check(&hr, &cfg, &pol, r, &tc);
	CU_ASSERT(rc == 0 || rc == 1);
	CU_ASSERT_EQUAL((size_t)rc, r->n ? 1u : 0u);
	strv_free(&cfg.wall);
	strv_free(&pol.writes);
	rpaths_free(&pol.r_writes);
	return r->n;
}

static int
said(const struct refusals *r, const char *what)
{
	for (size_t i = 0; i < r->n; i++)
		if (strstr(r->v[i].text, what) != NULL)
			return 1;
	return 0;
}

static void
test_tree_inside_and_elsewhere(void)
{
	struct refusals r;

	mk("w", 1);
	mk("w/b", 1);
	mk("w/b/bin", 1);
	mk("w/b/bin/exe", 0);
	mk("w/b/lib", 1);
	mk("w/b/lib/wall.so", 0);
	mk("other", 1);
	CU_ASSERT(check(at("w/b/bin/exe"), at("w/b/lib"), "wall.so", at("w"),
			&r) >= 1);
	CU_ASSERT(said(&r, "the tool's own binary"));
	CU_ASSERT(said(&r, "install nova-sandbox outside every --write"));
	refusals_free(&r);
	/* a write root elsewhere: clean */
	CU_ASSERT_EQUAL(check(at("w/b/bin/exe"), at("w/b/lib"), "wall.so",
			      at("other"), &r), 0);
	refusals_free(&r);
	/* the root at the module directory: the directory and the module */
	CU_ASSERT(check(at("w/b/bin/exe"), at("w/b/lib"), "wall.so",
			at("w/b/lib"), &r) >= 1);
	CU_ASSERT(said(&r, "module directory"));
	refusals_free(&r);
	/* an absent module: decided at the directory it would be planted in */
	CU_ASSERT(check(at("other/exe-none"), at("other/none"), "x.so",
			at("other"), &r) >= 1);
	refusals_free(&r);
}

static void
test_link_on_the_way(void)
{
	struct refusals r;
	char p[256];

	mk("l", 1);
	mk("l/real", 1);
	mk("l/real/exe", 0);
	mk("l/w", 1);
	snprintf(p, sizeof(p), "%s/l/real", top);
	CU_ASSERT_EQUAL_FATAL(symlink(p, at("l/w/via")), 0);
	mk("l/elsewhere", 1);
	/* the link lives in the root: it could be pointed elsewhere */
	CU_ASSERT(check(at("l/w/via/exe"), at("l/elsewhere"), "m.so",
			at("l/w"), &r) >= 1);
	CU_ASSERT(said(&r, "binary"));
	refusals_free(&r);
	/* the link's target is the root */
	CU_ASSERT(check(at("l/w/via/exe"), at("l/elsewhere"), "m.so",
			at("l/real"), &r) >= 1);
	refusals_free(&r);
}

static void
test_second_name(void)
{
	struct refusals r;

	mk("h", 1);
	mk("h/mods", 1);
	mk("h/mods/m.so", 0);
	mk("h/w", 1);
	CU_ASSERT_EQUAL(check(at("h/mods/none"), at("h/mods"), "m.so",
			      at("h/w"), &r), 0);
	refusals_free(&r);
	CU_ASSERT_EQUAL_FATAL(link(at("h/mods/m.so"), at("h/w/alias.so")), 0);
	CU_ASSERT_EQUAL(check(at("h/mods/none"), at("h/mods"), "m.so",
			      at("h/w"), &r), 1);
	CU_ASSERT(said(&r, "which has 2 names: another may be in the write "
		       "root"));
	refusals_free(&r);
}

/* Every write root counts, however many (the old check kept 64 and let
 * the rest go unseen), and each is judged on its descriptor. */
static void
test_many_roots(void)
{
	struct hostrun hr = { NULL, NULL, NULL, NULL };
	struct config cfg;
	struct policy pol;
	struct refusals r = {0};
	char rel[64];
	int tc = 0;

	mk("many", 1);
	memset(&cfg, 0, sizeof(cfg));
	memset(&pol, 0, sizeof(pol));
	for (int i = 0; i < 70; i++) {
		snprintf(rel, sizeof(rel), "many/d%d", i);
		mk(rel, 1);
		write_root(&pol, at(rel));
	}
	mk("many/d69/lib", 1);
	cfg.moduledir = at("many/d69/lib");
	hr.exe = at("many/d69/lib/exe");
	CU_ASSERT_EQUAL(run_check(&hr, &cfg, &pol, &r, &tc), 1);
	CU_ASSERT(said(&r, "many/d69"));
	strv_free(&pol.writes);
	rpaths_free(&pol.r_writes);
	refusals_free(&r);
}

static void
test_tmp_removed(void)
{
	struct hostrun hr = { NULL, NULL, NULL, NULL };
	struct config cfg;
	struct policy pol;
	struct refusals r = {0};
	struct stat sb;
	int tc;

	mk("t", 1);
	mk("t/.nova-sandbox-tmp", 1);
	mk("t/lib", 1);
	memset(&cfg, 0, sizeof(cfg));
	memset(&pol, 0, sizeof(pol));
	cfg.moduledir = at("t/lib");
	write_root(&pol, at("t"));
	pol.tmp = strdup(at("t/.nova-sandbox-tmp"));
	pol.tmp_created = 1; /* as policy_build leaves it (rule 8a) */
	pol.tmp_pfd = open(at("t"), O_PATH | O_DIRECTORY | O_CLOEXEC);
	CU_ASSERT_FATAL(pol.tmp_pfd >= 0);
	CU_ASSERT_FATAL(stat(at("t/.nova-sandbox-tmp"), &sb) == 0);
	pol.tmp_id.dev = sb.st_dev;
	pol.tmp_id.ino = sb.st_ino;
	hr.exe = at("t/lib/exe");
	tc = 1;
	CU_ASSERT_EQUAL(run_check(&hr, &cfg, &pol, &r, &tc), 1);
	CU_ASSERT_EQUAL(tc, 0);
	CU_ASSERT(stat(at("t/.nova-sandbox-tmp"), &sb) != 0);
	free(pol.tmp);
	strv_free(&pol.writes);
	rpaths_free(&pol.r_writes);
	refusals_free(&r);
}

static void
test_state_dir(void)
{
	char *d = ownfiles_state_dir(0);
	struct stat sb;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	if (stat("/run", &sb) == 0 && sb.st_uid == 0 && !(sb.st_mode & 022))
		CU_ASSERT_STRING_EQUAL(d, "/run/nova-sandbox");
	free(d);
	d = ownfiles_state_dir(4000000000u); /* no such user, no /run/user */
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d, "/run/user/4000000000/nova-sandbox");
	free(d);
}

int
main(void)
{
	static const struct cu_case tests[] = {
		{ "a tree in a write root; elsewhere clean", test_tree_inside_and_elsewhere },
		{ "a link on the way, its target", test_link_on_the_way },
		{ "a second name on the root's filesystem", test_second_name },
		{ "a refusal removes the temp directory made", test_tmp_removed },
		{ "the run-name directory", test_state_dir },
		{ "a write root past the 64th still counts", test_many_roots },
		{ NULL, NULL },
	};

	return cu_run("ownfiles", setup, teardown, tests);
}
