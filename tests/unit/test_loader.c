/* SPDX-License-Identifier: MIT */
/* test_loader.c -- host/module/loader.c and host/module/hostsvc.c against the fixture
 * modules (build/tests/fixtures/<name>.so): every load status with its fixture,
 * the size-aware copy, wall selection, and the host services. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "module/hostsvc.h"
#include "module/loader.h"
#include "os/os.h"
#include "os/posix/posix.h"
#include "loader_stage.h"

static struct config cfg;

static int
setup(void)
{
	memset(&cfg, 0, sizeof(cfg));
	cfg.platform = "linux";
	cfg.moduledir = strdup(stage_fixtures());
	return stage_make() && cfg.moduledir ? 0 : -1;
}

static int
teardown(void)
{
	free(cfg.moduledir);
	strv_free(&cfg.wall);
	stage_remove();
	return 0;
}

/* Load `file` for `role`; expect `st` and a why containing `part`. */
static void
expect_load(const char *file, unsigned role, enum load_status st,
	    const char *part)
{
	struct module m;
	char *why = NULL;
	enum load_status got = loader_load(&cfg, file, role, &m, &why);

	if (got != st || (part && (why == NULL || !strstr(why, part))))
		fprintf(stderr, "\n  %s: got %s (%s), wanted %s (%s)\n", file,
			load_status_token(got), why ? why : "-",
			load_status_token(st), part ? part : "-");
	CU_ASSERT_EQUAL(got, st);
	if (part != NULL)
		CU_ASSERT(why != NULL && strstr(why, part) != NULL);
	if (st != LOAD_OK) {
		CU_ASSERT_PTR_NULL(m.dl); /* refused before any call: closed */
		CU_ASSERT_PTR_NOT_NULL(why);
	}
	free(why);
	module_free(&m);
}

/* ---- every status with its fixture --------------------------------------- */

static void
test_refusal_fixtures(void)
{
	expect_load("not_a_module.so", NS_ROLE_WALL, LOAD_NO_ENTRY,
		    "exports no ns_backend_v1: not a nova-sandbox module");
	expect_load("bad_magic.so", NS_ROLE_WALL, LOAD_BAD_MAGIC,
		    "magic is 0xdeadbeef, not 0x4e534250");
	expect_load("abi_major2.so", NS_ROLE_WALL, LOAD_ABI_MAJOR,
		    "module targets ABI 2; this host speaks ABI 1");
	expect_load("abi_major_field.so", NS_ROLE_WALL, LOAD_ABI_MAJOR,
		    "module targets ABI 2; this host speaks ABI 1");
	expect_load("newer_minor.so", NS_ROLE_WALL, LOAD_ABI_MINOR,
		    "module needs ABI 1.6; this host speaks ABI 1.5");
	expect_load("small_struct.so", NS_ROLE_WALL, LOAD_STRUCT_SIZE,
		    "descriptor is 16 bytes, smaller than the 72 of ABI 1.0");
	expect_load("small_table.so", NS_ROLE_WALL, LOAD_STRUCT_SIZE,
		    "its wall table is 8 bytes, smaller than the 88 of ABI 1.0");
	expect_load("missing_op.so", NS_ROLE_WALL, LOAD_MISSING_OP,
		    "its wall table lacks the required operation spawn");
	expect_load("null_table.so", NS_ROLE_WALL, LOAD_MISSING_OP,
		    "declares role wall but its wall table is NULL");
	expect_load("wrong_role.so", NS_ROLE_WALL, LOAD_NO_ROLE,
		    "module wrong_role serves egress, not wall");
	expect_load("bad_name.so", NS_ROLE_WALL, LOAD_BAD_NAME,
		    "module name is not 1 to 32 of [a-z0-9_-]");
	expect_load("unresolved_symbol.so", NS_ROLE_WALL, LOAD_NOT_LOADABLE,
		    "ns_fixture_no_such_function");
	/* the proxy role (ABI 1.5) */
	expect_load("proxy_fix.so", NS_ROLE_PROXY, LOAD_OK, NULL);
	expect_load("proxy_fix.so", NS_ROLE_WALL, LOAD_NO_ROLE,
		    "module proxy_fix serves proxy, not wall");
	expect_load("leaky_wall.so", NS_ROLE_PROXY, LOAD_NO_ROLE,
		    "module leaky_wall serves wall, not proxy");
	expect_load("proxy_noserve.so", NS_ROLE_PROXY, LOAD_MISSING_OP,
		    "its proxy table lacks the required operation serve");
}

/* A copy of leaky_wall.so in the stage with the byte at `off` set to v. */
static void
stage_patched(const char *rel, long off, unsigned char v)
{
	char src[STAGE_MAX * 2];
	int fd;

	snprintf(src, sizeof(src), "%s/leaky_wall.so", stage_fixtures());
	CU_ASSERT_EQUAL_FATAL(stage_copy(src, rel, 0644), 0);
	fd = open(stage_path(rel), O_WRONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pwrite(fd, &v, 1, off), 1);
	close(fd);
}

/* A module built for another machine is refused on its ELF header, read
 * from the open descriptor, before dlopen (which said "No such file or
 * directory" for it).  The control: the unpatched wall loads. */
static void
test_other_machine(void)
{
	char abs[STAGE_MAX * 2];

	snprintf(abs, sizeof(abs), "%s/leaky_wall.so", stage_fixtures());
	expect_load(abs, NS_ROLE_WALL, LOAD_OK, NULL);
#if defined(__x86_64__)
	expect_load("other_machine.so", NS_ROLE_WALL, LOAD_WRONG_MACHINE,
		    "not a module for this machine (ELF machine aarch64, "
		    "this machine x86-64)");
	stage_patched("class32.so", 4, 1);
	expect_load(stage_path("class32.so"), NS_ROLE_WALL, LOAD_WRONG_MACHINE,
		    "not a module for this machine (ELF machine x86-64 32-bit, "
		    "this machine x86-64 64-bit)");
	/* e_machine read in the file's own byte order: 62 << 8 */
	stage_patched("bigend.so", 5, 2);
	expect_load(stage_path("bigend.so"), NS_ROLE_WALL, LOAD_WRONG_MACHINE,
		    "not a module for this machine (ELF machine 15872 "
		    "big-endian, this machine x86-64 little-endian)");
#else
	expect_load("other_machine.so", NS_ROLE_WALL, LOAD_WRONG_MACHINE,
		    "not a module for this machine (ELF machine ");
#endif
}

static void
test_not_loadable_names_real_path(void)
{
	struct module m;
	char *why = NULL;

	CU_ASSERT_EQUAL(loader_load(&cfg, "unresolved_symbol.so", NS_ROLE_WALL,
				    &m, &why), LOAD_NOT_LOADABLE);
	CU_ASSERT(why && strstr(why, "/proc/self/fd") == NULL);
	CU_ASSERT(why && strstr(why, m.path) != NULL);
	free(why);
	module_free(&m);
}

static void
test_finding(void)
{
	char abs[STAGE_MAX * 2];

	expect_load("absent.so", NS_ROLE_WALL, LOAD_NOT_FOUND,
		    "no such file in the module directory /");
	expect_load("sub/leaky_wall.so", NS_ROLE_WALL, LOAD_NOT_FOUND,
		    "is neither a bare file name");
	expect_load("../fixtures/leaky_wall.so", NS_ROLE_WALL, LOAD_NOT_FOUND,
		    "is neither a bare file name");
	snprintf(abs, sizeof(abs), "%s/leaky_wall.so", stage_fixtures());
	expect_load(abs, NS_ROLE_WALL, LOAD_OK, NULL);
}

static void
test_not_regular(void)
{
	char link[STAGE_MAX], target[STAGE_MAX * 2];

	CU_ASSERT_EQUAL_FATAL(stage_mkdir("dir.so", 0755), 0);
	expect_load(stage_path("dir.so"), NS_ROLE_WALL, LOAD_NOT_REGULAR,
		    "is not a regular file");
	snprintf(target, sizeof(target), "%s/leaky_wall.so", stage_fixtures());
	snprintf(link, sizeof(link), "%s", stage_path("link.so"));
	CU_ASSERT_EQUAL_FATAL(symlink(target, link), 0);
	expect_load(link, NS_ROLE_WALL, LOAD_NOT_REGULAR,
		    "is a symbolic link; name the file itself");
}

static void
test_unsafe(void)
{
	char src[STAGE_MAX * 2], tmpf[] = "/tmp/nova-loader-test.XXXXXX";
	int fd;

	snprintf(src, sizeof(src), "%s/leaky_wall.so", stage_fixtures());
	/* control: a safe copy in the stage loads */
	CU_ASSERT_EQUAL_FATAL(stage_copy(src, "safe.so", 0755), 0);
	expect_load(stage_path("safe.so"), NS_ROLE_WALL, LOAD_OK, NULL);
	CU_ASSERT_EQUAL_FATAL(stage_copy(src, "open.so", 0666), 0);
	expect_load(stage_path("open.so"), NS_ROLE_WALL, LOAD_UNSAFE,
		    "bad ownership or modes for file");
	CU_ASSERT_EQUAL_FATAL(stage_copy(src, "group.so", 0775), 0);
	expect_load(stage_path("group.so"), NS_ROLE_WALL, LOAD_UNSAFE,
		    "mode 0775");
	CU_ASSERT_EQUAL_FATAL(stage_mkdir("wdir", 0777), 0);
	CU_ASSERT_EQUAL_FATAL(stage_copy(src, "wdir/m.so", 0755), 0);
	expect_load(stage_path("wdir/m.so"), NS_ROLE_WALL, LOAD_UNSAFE,
		    "bad ownership or modes for directory");
	/* /tmp is world-writable (sticky or not): refused */
	fd = mkstemp(tmpf);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	unlink(tmpf);
	CU_ASSERT_EQUAL(stage_copy(src, "t.so", 0755), 0);
	if (rename(stage_path("t.so"), tmpf) == 0 ||
	    (link(stage_path("t.so"), tmpf) == 0)) {
		expect_load(tmpf, NS_ROLE_WALL, LOAD_UNSAFE,
			    "bad ownership or modes for directory /tmp ");
		unlink(tmpf);
	} else {
		/* another file system: copy byte-wise */
		CU_FAIL("cannot place a module under /tmp");
	}
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL_FATAL(stage_copy(src, "other.so", 0755), 0);
		CU_ASSERT_EQUAL_FATAL(chown(stage_path("other.so"), 4242, 4242),
				      0);
		expect_load(stage_path("other.so"), NS_ROLE_WALL, LOAD_UNSAFE,
			    "(owner uid 4242, mode 0755)");
	}
}

static void
test_check_fd_directory(void)
{
	char *why = NULL;
	int fd = open(stage_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(os_trust_fd(fd, stage_root, 0, &why), OS_TRUST_OK);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT_EQUAL(os_trust_fd(fd, stage_root, 1, &why), OS_TRUST_WRONG_TYPE);
	CU_ASSERT(why && strstr(why, "is not a regular file"));
	free(why);
	close(fd);
}

/* ---- the copies ------------------------------------------------------------ */

static int
all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i])
			return 0;
	return 1;
}

static void
test_good_copy(void)
{
	struct module m;
	char *why = NULL;

	CU_ASSERT_EQUAL_FATAL(loader_load(&cfg, "leaky_wall.so", NS_ROLE_WALL,
					  &m, &why), LOAD_OK);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT_PTR_NOT_NULL(m.dl);
	CU_ASSERT_STRING_EQUAL(m.file, "leaky_wall.so");
	CU_ASSERT(strstr(m.path, "/fixtures/leaky_wall.so") != NULL);
	CU_ASSERT_STRING_EQUAL(m.stem, "leaky_wall");
	CU_ASSERT_STRING_EQUAL(m.ops.name, "leaky_wall");
	CU_ASSERT_STRING_EQUAL(m.ops.version, "0.0.1");
	CU_ASSERT_EQUAL(m.ops.roles, NS_ROLE_WALL);
	CU_ASSERT_EQUAL(m.wall.struct_size, sizeof(struct ns_wall_ops));
	CU_ASSERT_EQUAL(m.wall.shape, NS_SHAPE_RESTRICT_SELF);
	CU_ASSERT_PTR_NOT_NULL(m.wall.spawn);
	/* roles it does not serve read as zero */
	CU_ASSERT(all_zero(&m.egress, sizeof(m.egress)));
	CU_ASSERT(all_zero(&m.place, sizeof(m.place)));
	module_free(&m);
}

static void
test_any_role_and_zero_fill(void)
{
	struct module m;
	char *why = NULL;

	CU_ASSERT_EQUAL_FATAL(loader_load(&cfg, "wrong_role.so", 0, &m, &why),
			      LOAD_OK);
	CU_ASSERT_PTR_NOT_NULL(m.egress.ready);
	CU_ASSERT_PTR_NOT_NULL(m.egress.drop);
	CU_ASSERT(all_zero(&m.wall, sizeof(m.wall)));
	module_free(&m);
	expect_load("wrong_role.so", NS_ROLE_EGRESS, LOAD_OK, NULL);
	expect_load("leaky_wall.so", NS_ROLE_EGRESS, LOAD_NO_ROLE,
		    "serves wall, not egress");
}

static void
test_bigger_descriptor(void)
{
	struct module m;
	char *why = NULL;

	/* a module whose descriptor is larger than the host's: only the
	 * host's size is copied, the rest is never read */
	CU_ASSERT_EQUAL_FATAL(loader_load(&cfg, "big_struct.so", NS_ROLE_WALL,
					  &m, &why), LOAD_OK);
	CU_ASSERT(m.ops.struct_size > sizeof(struct ns_backend_ops));
	CU_ASSERT_STRING_EQUAL(m.ops.name, "big_struct");
	CU_ASSERT_PTR_NOT_NULL(m.wall.facts);
	module_free(&m);
}

static void
test_tokens(void)
{
	static const char *const want[] = {
		"ok", "not_found", "not_regular", "unsafe_owner_or_mode",
		"not_loadable", "no_entry", "bad_magic", "abi_major",
		"abi_minor", "struct_too_small", "missing_op", "wrong_role",
		"bad_name", "unavailable", "bad_option", "wrong_machine",
	};

	for (int i = 0; i <= LOAD_WRONG_MACHINE; i++)
		CU_ASSERT_STRING_EQUAL(load_status_token((enum load_status)i),
				       want[i]);
	CU_ASSERT_STRING_EQUAL(load_status_token((enum load_status)99),
			       "internal");
}

/* ---- selecting the wall ------------------------------------------------------ */

static struct refusals hs_ref;
static struct sbuf hs_text;
static struct strv hs_notes;

static void
init_hs(struct hostsvc *hs, const struct config *c)
{
	memset(hs, 0, sizeof(*hs));
	hs->prefix = "TEST";
	hs->refusals = &hs_ref;
	hs->text = &hs_text;
	hs->notes = &hs_notes;
	hs->cfg = c;
	hostsvc_init(hs);
}

static void
set_walls(struct config *c, const char *const *files)
{
	strv_free(&c->wall);
	for (size_t i = 0; files[i] != NULL; i++)
		strv_push(&c->wall, files[i]);
}

static int
refused_with(const struct refusals *r, size_t i, const char *part)
{
	int ok = i < r->n && strcmp(r->v[i].reason, "no_sandbox") == 0 &&
		 strstr(r->v[i].text, part) != NULL;

	if (!ok)
		fprintf(stderr, "\n  refusal %zu lacks \"%s\": %s\n", i, part,
			i < r->n ? r->v[i].text : "(none)");
	return ok;
}

static void
test_select_first_good(void)
{
	static const char *const walls[] = { "absent.so", "abi_major2.so",
					     "unavailable.so", "facts_fail.so",
					     "leaky_wall.so", "bad_magic.so",
					     NULL };
	struct refusals r = { 0 };
	struct hostsvc hs;
	struct ns_wall_facts facts;
	struct module m;

	set_walls(&cfg, walls);
	init_hs(&hs, &cfg);
	CU_ASSERT_EQUAL_FATAL(loader_select_wall(&cfg, &hs.host, &m, &facts,
						 &r), 0);
	CU_ASSERT_STRING_EQUAL(m.ops.name, "leaky_wall");
	CU_ASSERT_EQUAL(facts.available, 1);
	CU_ASSERT_EQUAL(facts.struct_size, sizeof(facts));
	CU_ASSERT_EQUAL(r.n, 4);
	CU_ASSERT(refused_with(&r, 0, "/fixtures/absent.so refused "
			       "(not_found): no such file in the module "
			       "directory /"));
	CU_ASSERT(refused_with(&r, 1, "/fixtures/abi_major2.so refused "
			       "(abi_major): module targets ABI 2; this host "
			       "speaks ABI 1"));
	CU_ASSERT(refused_with(&r, 2, "/fixtures/unavailable.so refused "
			       "(unavailable): fixture mechanism is absent on "
			       "this machine; enable it in the kernel"));
	CU_ASSERT(refused_with(&r, 3, "/fixtures/facts_fail.so refused "
			       "(unavailable): sandbox_failed: fixture: the "
			       "question itself failed"));
	CU_ASSERT(refused_with(&r, 0, "wall module /"));
	/* a module's refusal during facts() did not reach the host */
	CU_ASSERT_EQUAL(hs_ref.n, 0);
	module_free(&m);
	refusals_free(&r);
}

static void
test_select_none(void)
{
	static const char *const walls[] = { "missing_op.so", "wrong_role.so",
					     NULL };
	static const char *const none[] = { NULL };
	struct refusals r = { 0 };
	struct hostsvc hs;
	struct ns_wall_facts facts;
	struct module m;

	set_walls(&cfg, walls);
	init_hs(&hs, &cfg);
	CU_ASSERT_EQUAL(loader_select_wall(&cfg, &hs.host, &m, &facts, &r), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(refused_with(&r, 0, "(missing_op): module missing_op: its "
			       "wall table lacks the required operation "
			       "spawn"));
	CU_ASSERT(refused_with(&r, 1, "(wrong_role): module wrong_role "
			       "serves egress, not wall"));
	refusals_free(&r);
	set_walls(&cfg, none);
	CU_ASSERT_EQUAL(loader_select_wall(&cfg, &hs.host, &m, &facts, &r), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(refused_with(&r, 0, "no wall module is configured for "
			       "linux"));
	refusals_free(&r);
}

static void
test_select_options(void)
{
	char text[STAGE_MAX * 2];
	struct config c;
	struct refusals r = { 0 };
	struct hostsvc hs;
	struct ns_wall_facts facts;
	struct module m;

	snprintf(text, sizeof(text), "[nova-sandbox]\nmoduledir = %s\n"
		 "[linux]\nwall = bad_options.so\n[bad_options]\nlevel = 1\n"
		 "colour = red\n", stage_fixtures());
	CU_ASSERT_EQUAL_FATAL(stage_write("o.conf", text, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(config_load(stage_path("o.conf"), stage_exe(),
					  &c, &r), 0);
	init_hs(&hs, &c);
	CU_ASSERT_EQUAL(loader_select_wall(&c, &hs.host, &m, &facts, &r), 1);
	CU_ASSERT(refused_with(&r, 0, "/fixtures/bad_options.so refused "
			       "(bad_option): "));
	CU_ASSERT(refused_with(&r, 0, "o.conf:7: unknown key \"colour\" in "
			       "[bad_options]; the keys of [bad_options] are "
			       "level, mode"));
	refusals_free(&r);
	config_free(&c);
	/* the option reaches the module through host->option() */
	snprintf(text, sizeof(text), "[nova-sandbox]\nmoduledir = %s\n"
		 "[linux]\nwall = bad_options.so\n[bad_options]\n"
		 "level = absent\n", stage_fixtures());
	CU_ASSERT_EQUAL_FATAL(stage_write("o2.conf", text, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(config_load(stage_path("o2.conf"), stage_exe(),
					  &c, &r), 0);
	CU_ASSERT_EQUAL(loader_select_wall(&c, &hs.host, &m, &facts, &r), 1);
	CU_ASSERT(refused_with(&r, 0, "(unavailable): level=absent says"));
	refusals_free(&r);
	/* control: an accepted key, a usable value */
	config_free(&c);
	snprintf(text, sizeof(text), "[nova-sandbox]\nmoduledir = %s\n"
		 "[linux]\nwall = bad_options.so\n[bad_options]\nmode = x\n",
		 stage_fixtures());
	CU_ASSERT_EQUAL_FATAL(stage_write("o3.conf", text, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(config_load(stage_path("o3.conf"), stage_exe(),
					  &c, &r), 0);
	CU_ASSERT_EQUAL(loader_select_wall(&c, &hs.host, &m, &facts, &r), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	module_free(&m);
	refusals_free(&r);
	config_free(&c);
}

/* ---- host services ----------------------------------------------------------- */

static void
test_hostsvc(void)
{
	struct hostsvc hs;
	struct refusals r = { 0 };
	struct sbuf text = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&hs, 0, sizeof(hs));
	hs.prefix = "SANDBOX";
	hs.err = f;
	hs.refusals = &r;
	hs.text = &text;
	hs.cfg = &cfg;
	hs.stem = "none";
	hostsvc_init(&hs);
	CU_ASSERT_EQUAL(hs.host.struct_size, sizeof(struct ns_host));
	CU_ASSERT_EQUAL(hs.host.abi_major, NS_BACKEND_ABI_MAJOR);
	CU_ASSERT_EQUAL(hs.host.abi_minor, NS_BACKEND_ABI_MINOR);
	CU_ASSERT_PTR_EQUAL(hs.host.cookie, &hs);
	hs.host.note(hs.host.cookie, "clamped to abi 6\nnext");
	fflush(f);
	CU_ASSERT_STRING_EQUAL(buf, "SANDBOX NOTE clamped to abi 6\\x0anext\n");
	hs.host.refuse(hs.host.cookie, "no_sandbox", "why one");
	hs.host.refuse(hs.host.cookie, "Bad Token", "why two");
	hs.host.refuse(hs.host.cookie, NULL, NULL);
	hs.host.refuse(hs.host.cookie, "no_sandbox", "x; run: sysctl -w y=1");
	CU_ASSERT_EQUAL_FATAL(r.n, 4);
	/* a module's text that names a remedy is taken whole; others get the
	 * verb's (the remedy field is left to the printer) */
	CU_ASSERT_PTR_NULL(r.v[0].remedy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.v[3].remedy);
	CU_ASSERT_STRING_EQUAL(r.v[3].remedy, REMEDY_IN_TEXT);
	CU_ASSERT_STRING_EQUAL(r.v[0].reason, "no_sandbox");
	CU_ASSERT_STRING_EQUAL(r.v[0].text, "why one");
	CU_ASSERT_STRING_EQUAL(r.v[1].reason, "sandbox_failed");
	CU_ASSERT_STRING_EQUAL(r.v[2].reason, "sandbox_failed");
	CU_ASSERT_STRING_EQUAL(r.v[2].text, "");
	hs.host.text(hs.host.cookie, "line 1");
	hs.host.text(hs.host.cookie, "line 2");
	CU_ASSERT_STRING_EQUAL(text.s, "line 1\nline 2\n");
	CU_ASSERT_PTR_NULL(hs.host.option(hs.host.cookie, "level"));
	hs.notes = &hs_notes;
	hs.host.note(hs.host.cookie, "collected");
	CU_ASSERT(strv_contains(&hs_notes, "collected"));
	fclose(f);
	free(buf);
	sbuf_free(&text);
	refusals_free(&r);
}

/* The line a missing module's refusal ends with, per way of installing:
 * one test per answer; a module the build does not install, a path, a
 * file that was found and an unknown way have none. */
static void
expect_hint(const struct install_how *h, const char *file,
	    enum load_status ls, const char *want)
{
	char *got = loader_install_hint(h, file, ls);

	if (want == NULL ? got != NULL : got == NULL || strcmp(got, want))
		fprintf(stderr, "\n  %s/%s: got \"%s\", wanted \"%s\"\n",
			h->by ? h->by : "-", file, got ? got : "(none)",
			want ? want : "(none)");
	CU_ASSERT(want == NULL ? got == NULL
			       : got != NULL && strcmp(got, want) == 0);
	free(got);
}

static void
test_install_hint(void)
{
	const struct install_how deb = { "debian",
		"landlock.so,nftegress.so,nsplace.so", "" };
	const struct install_how src = { "source", ",landlock.so,,nsplace.so,",
		"/opt/ns" };
	const struct install_how plain = { "source", "landlock.so", "" };
	const struct install_how other = { "rpm", "landlock.so", "" };

	expect_hint(&deb, "landlock.so", LOAD_NOT_FOUND,
		    "install its package; run: apt install "
		    "nova-sandbox-landlock");
	expect_hint(&deb, "nsplace.so", LOAD_NOT_FOUND,
		    "install its package; run: apt install nova-sandbox-nsplace");
	expect_hint(&src, "nsplace.so", LOAD_NOT_FOUND,
		    "install it from the nova-sandbox source tree; run: make "
		    "install PREFIX=/opt/ns MODULES=nsplace");
	expect_hint(&plain, "landlock.so", LOAD_NOT_FOUND,
		    "install it from the nova-sandbox source tree; run: make "
		    "install MODULES=landlock");
	/* not one the build installs: a part of a name is not the name */
	expect_hint(&deb, "gone.so", LOAD_NOT_FOUND, NULL);
	expect_hint(&deb, "lock.so", LOAD_NOT_FOUND, NULL);
	expect_hint(&deb, "landlock", LOAD_NOT_FOUND, NULL);
	expect_hint(&src, "nftegress.so", LOAD_NOT_FOUND, NULL);
	/* a path is not where the install puts it */
	expect_hint(&deb, "/opt/x/landlock.so", LOAD_NOT_FOUND, NULL);
	/* there, but refused for another reason: installing changes nothing */
	expect_hint(&deb, "landlock.so", LOAD_UNSAFE, NULL);
	expect_hint(&deb, "landlock.so", LOAD_OK, NULL);
	expect_hint(&other, "landlock.so", LOAD_NOT_FOUND, NULL);
	/* this build: a source build (the Makefile's default) of landlock */
	CU_ASSERT_STRING_EQUAL(loader_built_how.by, "source");
}

/* ---- the private copy a module is loaded from ---------------------------- */

#define COPY_SIZE (1 << 20) /* many times a pipe's buffer */

/* A file of COPY_SIZE patterned bytes, last modified in 2001 (so a write
 * now moves its mtime, whatever the clock's grain), open read-write. */
static int
copy_source(void)
{
	char tmpl[] = "/tmp/nova-modcopy.XXXXXX";
	const struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	unsigned char *buf = malloc(COPY_SIZE);
	int fd = mkstemp(tmpl);

	CU_ASSERT_FATAL(fd >= 0 && buf != NULL);
	unlink(tmpl);
	for (size_t i = 0; i < COPY_SIZE; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
	CU_ASSERT_FATAL(write(fd, buf, COPY_SIZE) == COPY_SIZE);
	CU_ASSERT_FATAL(futimens(fd, old) == 0);
	free(buf);
	return fd;
}

static int
same_bytes(int a, int b)
{
	static unsigned char x[65536], y[65536];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(a, x, sizeof(x), off);

		if (n < 0 || pread(b, y, sizeof(y), off) != n)
			return 0;
		if (n == 0)
			return 1;
		if (memcmp(x, y, (size_t)n) != 0)
			return 0;
		off += n;
	}
}

/* Control: an unchanged file is copied whole. */
static void
test_copy_whole(void)
{
	int from = copy_source(), to = memfd_create("t", MFD_CLOEXEC);
	char *why = NULL;

	CU_ASSERT_FATAL(to >= 0);
	CU_ASSERT_EQUAL(posix_module_copy(from, to, "/m/x.so", &why), 0);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT(same_bytes(from, to));
	close(from);
	close(to);
}

/* A file written in place while it is copied (the same size: only its
 * mtime says so) is refused, naming it and the rename to do instead.  The
 * copy goes into a pipe whose reader writes the file after the first
 * bytes and only then drains the rest: the copy cannot end before. */
static void
test_copy_changed(void)
{
	int from = copy_source(), p[2], st = -1;
	char *why = NULL, buf[4096];
	pid_t kid;

	CU_ASSERT_FATAL(pipe(p) == 0);
	kid = fork();
	CU_ASSERT_FATAL(kid >= 0);
	if (kid == 0) {
		ssize_t n;

		close(p[1]);
		n = read(p[0], buf, sizeof(buf));
		if (n <= 0 || pwrite(from, "Z", 1, 0) != 1)
			_exit(1);
		while ((n = read(p[0], buf, sizeof(buf))) > 0)
			;
		_exit(n == 0 ? 0 : 1);
	}
	close(p[0]);
	CU_ASSERT_EQUAL(posix_module_copy(from, p[1], "/m/x.so", &why), -1);
	close(p[1]);
	CU_ASSERT_EQUAL(waitpid(kid, &st, 0), kid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT(why != NULL && strstr(why, "/m/x.so changed while it was "
					 "being loaded (written in place); "
					 "replace a module file by rename") !=
					 NULL);
	free(why);
	close(from);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "every refusal fixture", test_refusal_fixtures },
		{ "a module for another machine", test_other_machine },
		{ "dlerror names the real path",
		  test_not_loadable_names_real_path },
		{ "bare, absolute, relative names", test_finding },
		{ "directory and symlink are not regular", test_not_regular },
		{ "unsafe file, directory, /tmp, owner", test_unsafe },
		{ "os_trust_fd on a directory", test_check_fd_directory },
		{ "a good wall copied", test_good_copy },
		{ "any role; absent tables read as zero",
		  test_any_role_and_zero_fill },
		{ "a bigger descriptor: host size copied",
		  test_bigger_descriptor },
		{ "status tokens", test_tokens },
		{ "select: first good wall, one refusal per failure",
		  test_select_first_good },
		{ "select: none loads", test_select_none },
		{ "select: module options", test_select_options },
		{ "host services", test_hostsvc },
		{ "the install line of a missing module", test_install_hint },
		{ "the private copy: an unchanged file whole",
		  test_copy_whole },
		{ "the private copy: a file written while copied is refused",
		  test_copy_changed },
		{ NULL, NULL }
	};
	int rc = cu_run("loader", setup, teardown, cases);

	refusals_free(&hs_ref);
	sbuf_free(&hs_text);
	strv_free(&hs_notes);
	return rc;
}
