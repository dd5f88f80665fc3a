/* SPDX-License-Identifier: MIT */
/* test_argv_edges.c -- every verb's own argv parser reads each word within
 * its bytes.  An empty word "" is one byte; the kernel packs argv
 * back to back, so a read of its second byte lands in the next word and no
 * normal build notices.  Here the word ends a page and the next page is
 * unmapped: one byte too far is a SIGSEGV, in any build (found by
 * tests/fuzz/fuzz_egress_args, whose words are separate allocations). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wall/args.h"
#include "verbs/verbs.h"

static char *page;
static long pagesz;

/* s copied so that its NUL is the last byte before an unmapped page. */
static char *
at_edge(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = page + pagesz - n;

	memcpy(p, s, n);
	return p;
}

static int
setup(void)
{
	pagesz = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, (size_t)pagesz * 2, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	return mprotect(page + pagesz, (size_t)pagesz, PROT_NONE);
}

static int
teardown(void)
{
	return munmap(page, (size_t)pagesz * 2);
}

static const struct hostrun hr = { "/nonexistent/nova-sandbox",
	"/nonexistent", NULL, NULL };

/* Run verb with its stderr (the refusal lines) thrown away. */
static int
quiet(int (*verb)(const struct hostrun *, int, char **), int argc,
      char **argv)
{
	int save = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int rc;

	fflush(stderr);
	dup2(null, 2);
	rc = verb(&hr, argc, argv);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	close(null);
	return rc;
}

static void
test_egress_empty_word(void)
{
	char *argv[] = { "egress", "drop", NULL, NULL };

	argv[2] = at_edge("");
	CU_ASSERT_EQUAL(quiet(verb_egress, 3, argv), 2);
	/* the control: the same call with the word elsewhere */
	argv[2] = "";
	CU_ASSERT_EQUAL(quiet(verb_egress, 3, argv), 2);
}

static void
test_check_empty_word(void)
{
	char *argv[] = { "check", NULL, NULL };

	argv[1] = at_edge("");
	CU_ASSERT_EQUAL(quiet(verb_check, 2, argv), 2);
	argv[1] = "";
	CU_ASSERT_EQUAL(quiet(verb_check, 2, argv), 2);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "egress: an empty word is read within its byte",
		  test_egress_empty_word },
		{ "check: an empty word is read within its byte",
		  test_check_empty_word },
		{ NULL, NULL }
	};

	return cu_run("argv_edges", setup, teardown, cases);
}
