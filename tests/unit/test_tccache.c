/* SPDX-License-Identifier: MIT */
/* test_tccache.c -- --toolchain's kept answers (policy/tccache.c): the
 * key, the identity, the private directory's path in an output, the
 * file's text read back, every damaged text a miss, and the file beneath
 * a directory: kept, read back, and refused when another could write it
 * or it is a link. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "policy/tccache.h"

static const char *const ask[] = { "node", "-e", "x", NULL };

static void
test_key(void)
{
	char *env1[] = { "PATH=/usr/bin", "HOME=/tmp/p1", "LC_ALL=C", NULL };
	char *env2[] = { "PATH=/usr/bin", "HOME=/tmp/p2", "LC_ALL=C", NULL };
	char *env3[] = { "PATH=/usr/bin:/bin", "HOME=/tmp/p1", "LC_ALL=C",
			 NULL };
	static const char *const ask2[] = { "node", "-e", "y", NULL };
	uint64_t k = tcc_key(env1, "/tmp/p1", ask);

	/* the private directory, fresh each call, is not in the key */
	CU_ASSERT_EQUAL(k, tcc_key(env2, "/tmp/p2", ask));
	/* anything else the tools are given or asked is */
	CU_ASSERT_NOT_EQUAL(k, tcc_key(env3, "/tmp/p1", ask));
	CU_ASSERT_NOT_EQUAL(k, tcc_key(env1, "/tmp/p1", ask2));
	CU_ASSERT_NOT_EQUAL(k, tcc_key(env2, "/tmp/p1", ask));
	CU_ASSERT_NOT_EQUAL(k, tcc_key(NULL, NULL, ask));
}

static void
test_ident(void)
{
	struct os_stat st = { .dev = 1, .ino = 2, .size = 3, .mtime_ns = 4,
			      .ctime_ns = 5 };
	struct tcc_ident a, b;

	tcc_ident_of(&st, &a);
	b = a;
	CU_ASSERT(tcc_ident_eq(&a, &b));
	b.dev++;
	CU_ASSERT(!tcc_ident_eq(&a, &b));
	b = a;
	b.ino++;
	CU_ASSERT(!tcc_ident_eq(&a, &b));
	b = a;
	b.size++;
	CU_ASSERT(!tcc_ident_eq(&a, &b));
	b = a;
	b.mtime_ns++; /* a rewrite within the same second */
	CU_ASSERT(!tcc_ident_eq(&a, &b));
	b = a;
	b.ctime_ns++;
	CU_ASSERT(!tcc_ident_eq(&a, &b));
}

static void
test_priv(void)
{
	char *k = tcc_out_keep("/p/x/.local\n/usr\n/p/x\n", "/p/x"), *u;

	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_STRING_EQUAL(k, "\001/.local\n/usr\n\001\n");
	u = tcc_out_use(k, "/q/yy");
	CU_ASSERT_STRING_EQUAL(u, "/q/yy/.local\n/usr\n/q/yy\n");
	free(u);
	free(k);
	/* an output that holds the mark itself is never kept */
	errno = 0;
	CU_ASSERT_PTR_NULL(tcc_out_keep("a\001b", "/p"));
	CU_ASSERT_EQUAL(errno, EINVAL);
	k = tcc_out_keep("", "/p");
	CU_ASSERT_STRING_EQUAL(k, "");
	free(k);
}

static void
fill(struct tcc_record *r)
{
	memset(r, 0, sizeof(*r));
	r->key = 0x0123456789abcdefULL;
	r->e[0].have = 1;
	r->e[0].path = strdup("/usr/bin/node");
	r->e[0].out = strdup("/usr\n\001/x\n");
	r->e[0].id = (struct tcc_ident){ 65024, 247823, 98932688,
					 1774321417123456789LL, -5 };
	r->e[2].have = 1;
	r->e[2].failed = 1;
	r->e[2].path = strdup("/usr/bin/npm");
	r->e[2].out = strdup("");
}

static void
test_text(void)
{
	struct tcc_record r, back;
	char *text, *cut;
	size_t n;

	fill(&r);
	text = tcc_format(&r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n = strlen(text);
	CU_ASSERT_EQUAL_FATAL(tcc_parse(text, n, &back), 0);
	CU_ASSERT_EQUAL(back.key, r.key);
	CU_ASSERT(back.e[0].have && !back.e[0].failed);
	CU_ASSERT(!back.e[1].have);
	CU_ASSERT(back.e[2].have && back.e[2].failed);
	CU_ASSERT_STRING_EQUAL(back.e[0].path, "/usr/bin/node");
	CU_ASSERT_STRING_EQUAL(back.e[0].out, "/usr\n\001/x\n");
	CU_ASSERT(tcc_ident_eq(&back.e[0].id, &r.e[0].id));
	CU_ASSERT_STRING_EQUAL(back.e[2].out, "");
	tcc_record_free(&back);
	/* every prefix of the text, and the text with more after it, is a
	 * miss, never a shorter record */
	for (size_t k = 0; k < n; k++)
		CU_ASSERT_EQUAL(tcc_parse(text, k, &back), -1);
	cut = malloc(n + 2);
	memcpy(cut, text, n);
	cut[n] = 'x';
	CU_ASSERT_EQUAL(tcc_parse(cut, n + 1, &back), -1);
	/* each byte changed to one that breaks the form: a miss or the
	 * same form (a digit for a digit), never a crash */
	for (size_t k = 0; k < n; k++) {
		memcpy(cut, text, n);
		cut[k] = cut[k] == '\n' ? ' ' : '\n';
		if (tcc_parse(cut, n, &back) == 0)
			tcc_record_free(&back);
	}
	free(cut);
	free(text);
	tcc_record_free(&r);
	/* damaged by hand */
	static const char *const bad[] = {
		"",
		"nova-sandbox toolchain answers 2\nkey 0\nend\n",
		"nova-sandbox toolchain answers 1\nkey zz\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 3 0 1 1 1 1 1 2 0\n"
		"/a\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 0 1 1 1 1 1 2 0\n"
		"/a\n\nq 0 0 1 1 1 1 1 2 0\n/a\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 2 1 1 1 1 1 2 0\n"
		"/a\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 1 1 1 1 1 1 2 1\n"
		"/a\nx\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 0 1 1 1 1 1 9 0\n"
		"/a\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 0 1 1 1 1 1 0 0\n"
		"\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 0 1 1 1 1 1 2 "
		"99999999999999999999999\n/a\n\nend\n",
		"nova-sandbox toolchain answers 1\nkey 1\nq 0 0 1 1 1 1 1 2 0\n"
		"/a\n\nend\nmore\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int rc = tcc_parse(bad[i], strlen(bad[i]), &back);

		if (rc != -1)
			fprintf(stderr, "parsed: case %zu\n", i);
		CU_ASSERT_EQUAL(rc, -1);
		CU_ASSERT(!back.e[0].have);
	}
}

static void
test_file(void)
{
	char tmpl[] = "nova-tcc.XXXXXX", dir[4096], path[4200], other[4200];
	struct tcc_record r, back;
	char *why = NULL;
	int dfd;
	uint32_t me = (uint32_t)getuid();

	/* in the working directory (the build's tree, which the suites
	 * need trusted: cu_run.h), not /tmp, which anyone may write */
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpl));
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(tmpl, dir));
	snprintf(path, sizeof(path), "%s/toolchain-node-0123456789abcdef.cache",
		 dir);
	if (tcc_dir_open(dir, me, &dfd, &why) != 0)
		fprintf(stderr, "tcc_dir_open: %s\n", why ? why : "?");
	CU_ASSERT_FATAL(dfd >= 0);
	fill(&r);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 1); /* absent */
	CU_ASSERT_EQUAL(tcc_store(dfd, "node", &r), 0);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 0);
	CU_ASSERT_EQUAL(back.key, r.key);
	tcc_record_free(&back);
	/* another key is another file */
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key + 1, me, &back), 1);
	/* another uid's answers are not read */
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me + 1, &back), 1);
	/* writable by others: not read */
	CU_ASSERT_EQUAL(chmod(path, 0666), 0);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 1);
	CU_ASSERT_EQUAL(chmod(path, 0600), 0);
	/* a second name (another could have made it elsewhere): not read */
	snprintf(other, sizeof(other), "%s/other", dir);
	CU_ASSERT_EQUAL(link(path, other) == 0 ? 0 : errno, 0);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 1);
	unlink(other);
	/* a link in its place: never followed */
	CU_ASSERT_EQUAL(rename(path, other), 0);
	CU_ASSERT_EQUAL(symlink(other, path), 0);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 1);
	/* kept again: the link is replaced, its target untouched */
	CU_ASSERT_EQUAL(tcc_store(dfd, "node", &r), 0);
	CU_ASSERT_EQUAL(tcc_load(dfd, "node", r.key, me, &back), 0);
	tcc_record_free(&back);
	{
		struct stat st;

		CU_ASSERT_EQUAL(lstat(path, &st), 0);
		CU_ASSERT(S_ISREG(st.st_mode));
		CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	}
	/* a stale file (and a temporary one a killed call left) goes when
	 * another is written; a fresh one stays */
	{
		char stale[4200], tmpf[4200];
		struct timespec old[2] = { { 0, UTIME_OMIT }, { 1000, 0 } };
		int fd;

		snprintf(stale, sizeof(stale), "%s/toolchain-go-00.cache", dir);
		snprintf(tmpf, sizeof(tmpf), "%s/.toolchain-go-00.cache.1", dir);
		fd = open(stale, O_CREAT | O_WRONLY, 0600);
		close(fd);
		fd = open(tmpf, O_CREAT | O_WRONLY, 0600);
		close(fd);
		CU_ASSERT_EQUAL(utimensat(AT_FDCWD, stale, old, 0), 0);
		CU_ASSERT_EQUAL(utimensat(AT_FDCWD, tmpf, old, 0), 0);
		CU_ASSERT_EQUAL(tcc_store(dfd, "node", &r), 0);
		CU_ASSERT_EQUAL(access(stale, F_OK), -1);
		CU_ASSERT_EQUAL(access(tmpf, F_OK), -1);
		CU_ASSERT_EQUAL(access(path, F_OK), 0);
	}
	tcc_record_free(&r);
	close(dfd);
	/* a directory others may write is no place for them */
	CU_ASSERT_EQUAL(chmod(dir, 0777), 0);
	CU_ASSERT_EQUAL(tcc_dir_open(dir, me, &dfd, &why), 1);
	CU_ASSERT_PTR_NOT_NULL(why);
	free(why);
	why = NULL;
	CU_ASSERT_EQUAL(chmod(dir, 0700), 0);
	/* another uid's directory: not used */
	CU_ASSERT_EQUAL(tcc_dir_open(dir, me + 1, &dfd, &why), 1);
	free(why);
	why = NULL;
	/* missing: made, 0700, at most three components deep */
	{
		char deep[4300], up[4300];
		struct stat st;

		snprintf(deep, sizeof(deep), "%s/a/b/c", dir);
		CU_ASSERT_EQUAL(tcc_dir_open(deep, me, &dfd, &why), 0);
		CU_ASSERT(dfd >= 0);
		if (dfd >= 0)
			close(dfd);
		CU_ASSERT_EQUAL(stat(deep, &st), 0);
		CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
		rmdir(deep);
		snprintf(up, sizeof(up), "%s/a/b", dir);
		rmdir(up);
		snprintf(up, sizeof(up), "%s/a", dir);
		rmdir(up);
		snprintf(deep, sizeof(deep), "%s/a/b/c/d", dir);
		CU_ASSERT_EQUAL(tcc_dir_open(deep, me, &dfd, &why), 1);
		free(why);
		why = NULL;
		CU_ASSERT_EQUAL(access(up, F_OK), -1);
	}
	unlink(path);
	unlink(other);
	rmdir(dir);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "the key leaves out the private directory only", test_key },
		{ "the identity: device, inode, size, mtime, ctime", test_ident },
		{ "the private directory's path in an output", test_priv },
		{ "the text read back; every damaged one a miss", test_text },
		{ "the file beneath its directory", test_file },
		{ NULL, NULL }
	};

	return cu_run("tccache", NULL, NULL, cases);
}
