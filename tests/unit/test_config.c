/* SPDX-License-Identifier: MIT */
/* test_config.c -- host/conf/config.c: which file, the safety checks on the
 * descriptor and the directories, every refusal with its file:line, the
 * values, and the module option sections. */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/config.h"
#include "loader_stage.h"

static struct config cfg;
static struct refusals r;

static int
setup(void)
{
	return stage_make() ? 0 : -1;
}

static int
teardown(void)
{
	stage_remove();
	return 0;
}

static void
reset(void)
{
	config_free(&cfg);
	refusals_free(&r);
}

/* Load rel from the stage (written first with text, mode 0644). */
static int
load_text(const char *rel, const char *text)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write(rel, text, 0644), 0);
	return config_load(stage_path(rel), stage_exe(), &cfg, &r);
}

static int
has_refusal(const char *text)
{
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].reason, "bad_config") == 0 &&
		    strcmp(r.v[i].text, text) == 0)
			return 1;
	for (size_t i = 0; i < r.n; i++)
		fprintf(stderr, "\n  refusal %s: %s", r.v[i].reason,
			r.v[i].text);
	fprintf(stderr, "\n  wanted: %s\n", text);
	return 0;
}

static int
refusal_has(const char *part)
{
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].reason, "bad_config") == 0 &&
		    strstr(r.v[i].text, part) != NULL)
			return 1;
	for (size_t i = 0; i < r.n; i++)
		fprintf(stderr, "\n  refusal %s: %s", r.v[i].reason,
			r.v[i].text);
	fprintf(stderr, "\n  wanted part: %s\n", part);
	return 0;
}

static char *
want(const char *rel, const char *tail)
{
	static char buf[STAGE_MAX * 2];

	snprintf(buf, sizeof(buf), "%s%s", stage_path(rel), tail);
	return buf;
}

/* ---- which file --------------------------------------------------------- */

static void
test_defaults(void)
{
	char exp[STAGE_MAX * 2], *real;
	struct stat st;
	const char *sys = NS_SYSCONFDIR "/nova-sandbox/nova-sandbox.conf";

	reset();
	if (lstat(sys, &st) == 0) {
		/* an installed config would be read instead of the defaults */
		fprintf(stderr, "\n  %s exists: defaults not observable\n", sys);
		CU_FAIL("a system config exists on the test machine");
		return;
	}
	CU_ASSERT_EQUAL(config_load(NULL, stage_exe(), &cfg, &r), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_PTR_NULL(cfg.path);
	CU_ASSERT_STRING_EQUAL(cfg.platform, "linux");
	CU_ASSERT_EQUAL_FATAL(cfg.wall.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[0], "landlock.so");
	CU_ASSERT_EQUAL_FATAL(cfg.egress.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.egress.v[0], "nftegress.so");
	CU_ASSERT_EQUAL_FATAL(cfg.place.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.place.v[0], "nsplace.so");
	snprintf(exp, sizeof(exp), "%s/%s", stage_exe(), NS_MODULEDIR_REL);
	real = realpath(exp, NULL);
	if (real == NULL) {
		/* absent: named without "<dir>/.." */
		const char *rel = NS_MODULEDIR_REL;
		char up[STAGE_MAX], *slash;

		snprintf(up, sizeof(up), "%s", stage_exe());
		for (; strncmp(rel, "../", 3) == 0; rel += 3)
			if ((slash = strrchr(up, '/')) != NULL)
				*slash = '\0';
		snprintf(exp, sizeof(exp), "%s/%s", up, rel);
	}
	CU_ASSERT_STRING_EQUAL(cfg.moduledir, real ? real : exp);
	free(real);
	/* an empty explicit path is no explicit path */
	reset();
	CU_ASSERT_EQUAL(config_load("", stage_exe(), &cfg, &r), 0);
	CU_ASSERT_PTR_NULL(cfg.path);
}

static void
test_explicit_missing(void)
{
	reset();
	CU_ASSERT_EQUAL(config_load(stage_path("absent.conf"), stage_exe(),
				    &cfg, &r), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("absent.conf", ": no such config file; "
		  "name an existing file or unset NOVA_SANDBOX_CONFIG for the "
		  "defaults")));
}

static void
test_good_file(void)
{
	char text[STAGE_MAX];

	snprintf(text, sizeof(text),
		 "; a comment\n"
		 "[nova-sandbox]\n"
		 "moduledir = %s\n"
		 "\n"
		 "[linux]\n"
		 "wall = a.so, /abs/B.so ,c.so\n"
		 "egress = e.so\n"
		 "[darwin]\n"
		 "wall = seatbelt.dylib\n"
		 "place = apfsvol.so\n"
		 "[a]\n"
		 "level = 3\n"
		 "Mode = \"quoted value\"\n"
		 "[seatbelt]\n"
		 "x = y\n", stage_root);
	CU_ASSERT_EQUAL(load_text("good.conf", text), 0);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_STRING_EQUAL(cfg.path, stage_path("good.conf"));
	CU_ASSERT_STRING_EQUAL(cfg.moduledir, stage_root);
	CU_ASSERT_EQUAL_FATAL(cfg.wall.n, 3);
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[0], "a.so");
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[1], "/abs/B.so");
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[2], "c.so");
	CU_ASSERT_EQUAL_FATAL(cfg.egress.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.egress.v[0], "e.so");
	/* darwin's place is not ours; linux keeps its compiled-in place */
	CU_ASSERT_EQUAL_FATAL(cfg.place.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.place.v[0], "nsplace.so");
	CU_ASSERT_STRING_EQUAL(config_option(&cfg, "a", "level"), "3");
	CU_ASSERT_STRING_EQUAL(config_option(&cfg, "a", "mode"),
			       "quoted value");
	CU_ASSERT_PTR_NULL(config_option(&cfg, "a", "absent"));
	CU_ASSERT_PTR_NULL(config_option(&cfg, "c", "level"));
	CU_ASSERT_STRING_EQUAL(config_option(&cfg, "seatbelt", "x"), "y");
}

static void
test_platform_absent_keeps_defaults(void)
{
	CU_ASSERT_EQUAL(load_text("nolinux.conf", "[darwin]\nwall = s.dylib\n"
				  "[landlock]\nk = v\n[bwrap]\n"), 1);
	/* [landlock]: the default wall's options are allowed; [bwrap] is
	 * named nowhere */
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("nolinux.conf", ":5: unknown section "
		  "[bwrap]; the sections are [nova-sandbox], [linux], "
		  "[darwin], [windows] and one per module named in them "
		  "(here: s, landlock, nftegress, nsplace, netproxy)")));
	CU_ASSERT_EQUAL(load_text("nolinux2.conf", "[darwin]\nwall = s.dylib\n"
				  "[landlock]\nk = v\n"), 0);
	CU_ASSERT_EQUAL_FATAL(cfg.wall.n, 1);
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[0], "landlock.so");
	CU_ASSERT_STRING_EQUAL(config_option(&cfg, "landlock", "k"), "v");
	/* a [linux] wall that names another module: [landlock] is unknown */
	CU_ASSERT_EQUAL(load_text("other.conf", "[linux]\nwall = bwrap.so\n"
				  "[landlock]\n"), 1);
	CU_ASSERT(refusal_has(":3: unknown section [landlock]; "));
}

/* ---- refusals with file:line ---------------------------------------------- */

static void
test_unknown_key(void)
{
	CU_ASSERT_EQUAL(load_text("k.conf", "[linux]\nwall = a.so\n\nfoo = 1\n"),
			1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("k.conf", ":4: unknown key \"foo\" in "
		  "[linux]; the keys of [linux] are wall, egress, place, proxy")));
	CU_ASSERT_EQUAL(load_text("k2.conf", "[nova-sandbox]\nwritable = /x\n"),
			1);
	CU_ASSERT(has_refusal(want("k2.conf", ":2: unknown key \"writable\" "
		  "in [nova-sandbox]; the keys of [nova-sandbox] are "
		  "moduledir")));
}

static void
test_every_problem_at_once(void)
{
	CU_ASSERT_EQUAL(load_text("m.conf", "[linux]\nwall = a.so\nno_wall = 1\n"
				  "[darwin]\nread = /\n[weird]\nk = v\n"), 1);
	CU_ASSERT_EQUAL(r.n, 3);
	CU_ASSERT(has_refusal(want("m.conf", ":3: unknown key \"no_wall\" in "
		  "[linux]; the keys of [linux] are wall, egress, place, proxy")));
	CU_ASSERT(has_refusal(want("m.conf", ":5: unknown key \"read\" in "
		  "[darwin]; the keys of [darwin] are wall, egress, place, proxy")));
	CU_ASSERT(refusal_has(":6: unknown section [weird];"));
}

static void
test_unknown_section(void)
{
	CU_ASSERT_EQUAL(load_text("s.conf", "[linux]\nwall = a.so, b.so\n\n"
				  "  [ Other ]  \nk = v\n"), 1);
	CU_ASSERT(has_refusal(want("s.conf", ":4: unknown section [other]; "
		  "the sections are [nova-sandbox], [linux], [darwin], "
		  "[windows] and one per module named in them (here: a, b, nftegress, nsplace, netproxy)")));
}

static void
test_syntax_error(void)
{
	CU_ASSERT_EQUAL(load_text("x.conf", "[linux]\nwall = a.so\n; fine\n"
				  "this is not ini\n"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("x.conf", ":4: syntax error; a line is "
		  "[section], key = value, or a ; comment")));
	/* the error callback is iniparser's own again afterwards: a later
	 * good load still works */
	CU_ASSERT_EQUAL(load_text("y.conf", "[linux]\nwall = a.so\n"), 0);
}

static void
test_sectionless_key(void)
{
	CU_ASSERT_EQUAL(load_text("n.conf", "\nwall = a.so\n[linux]\n"), 1);
	CU_ASSERT(has_refusal(want("n.conf", ":2: key \"wall\" is outside any "
		  "section; put it under [linux]")));
}

static void
test_duplicate_key(void)
{
	CU_ASSERT_EQUAL(load_text("d.conf", "[linux]\nwall = a.so\n"
				  "[linux]\nWALL = b.so\n"), 1);
	CU_ASSERT(has_refusal(want("d.conf", ":4: key \"wall\" in [linux] is "
		  "set twice (first at line 2); set it once")));
}

/* iniparser keeps "[a:b]" as the key "b" of [a] with no value: a colon
 * header once crashed every verb (strdup(NULL)).  Each is bad_config at
 * its line, in a module's section, a platform's and one nobody names. */
static void
test_colon_header(void)
{
	CU_ASSERT_EQUAL(load_text("c1.conf", "[landlock]\n[landlock:x]\n"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("c1.conf", ":2: section [landlock:x] has "
		  "a ':'; a section name is [nova-sandbox], a platform or a "
		  "module's stem, with no ':'")));
	CU_ASSERT_EQUAL(load_text("c2.conf", "[linux]\nwall = a.so\n"
				  "[linux:wall]\n[a]\nk = v\n [ A:k ] \n"), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(refusal_has(":3: section [linux:wall] has a ':';"));
	CU_ASSERT(refusal_has(":6: section [a:k] has a ':';"));
	/* the key of the colon section does not shadow the real one */
	CU_ASSERT_EQUAL(load_text("c3.conf", "[landlock]\nx = 1\n"
				  "[landlock:x]\ny = 2\n"), 1);
	CU_ASSERT(refusal_has(":3: section [landlock:x] has a ':';"));
	/* a colon header with no section before it */
	CU_ASSERT_EQUAL(load_text("c4.conf", "[:]\n"), 1);
	CU_ASSERT(refusal_has(":1: section [:] has a ':';"));
	/* control: the same file without the colon header loads */
	CU_ASSERT_EQUAL(load_text("c5.conf", "[landlock]\nx = 1\n"), 0);
	CU_ASSERT_EQUAL(r.n, 0);
}

/* A NUL byte anywhere in a line is said, with its line: at the start
 * iniparser skipped the line silently, mid-line it said "too long". */
static void
test_nul_bytes(void)
{
	static const char start[] = "[linux]\nwall = a.so\n\0x = 1\n";
	static const char mid[] = "[linux]\nwall = a.so\0junk\n";
	static const char two[] = "[linux]\nk\0ey = 3\n\n[a]\0\n";

	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write_bytes("z1.conf", start,
						sizeof(start) - 1, 0644), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("z1.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("z1.conf", ":3: a NUL byte at column 1; "
		  "a config is text, with no NUL bytes")));
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write_bytes("z2.conf", mid,
						sizeof(mid) - 1, 0644), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("z2.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT(has_refusal(want("z2.conf", ":2: a NUL byte at column 12; "
		  "a config is text, with no NUL bytes")));
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write_bytes("z3.conf", two,
						sizeof(two) - 1, 0644), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("z3.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(refusal_has(":2: a NUL byte at column 2;"));
	CU_ASSERT(refusal_has(":4: a NUL byte at column 4;"));
}

static void
test_bad_values(void)
{
	CU_ASSERT_EQUAL(load_text("v.conf", "[linux]\nwall = a.so,,b.so\n"
				  "egress = sub/e.so\nplace =\n"), 1);
	CU_ASSERT_EQUAL(r.n, 3);
	CU_ASSERT(has_refusal(want("v.conf", ":2: wall in [linux] has an "
		  "empty entry; name module files separated by commas")));
	CU_ASSERT(has_refusal(want("v.conf", ":3: egress in [linux]: "
		  "\"sub/e.so\" is neither a bare file name (looked up in the "
		  "module directory) nor an absolute path")));
	CU_ASSERT(has_refusal(want("v.conf", ":4: place in [linux] has an "
		  "empty entry; name module files separated by commas")));
}

static void
test_moduledir(void)
{
	CU_ASSERT_EQUAL(load_text("md.conf", "[nova-sandbox]\nmoduledir = "
				  "lib/x\n"), 1);
	CU_ASSERT(has_refusal(want("md.conf", ":2: moduledir \"lib/x\" is not "
		  "an absolute path")));
	CU_ASSERT_EQUAL(load_text("md2.conf", "\n[nova-sandbox]\nmoduledir = "
				  "/nonexistent/nova\n"), 1);
	CU_ASSERT(has_refusal(want("md2.conf", ":3: moduledir "
		  "\"/nonexistent/nova\" is not an existing directory")));
}

/* ---- the file and its directories ------------------------------------------ */

static void
test_unsafe_file_mode(void)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write("w.conf", "[linux]\nwall = a.so\n",
					  0666), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("w.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT(refusal_has("config refused: bad ownership or modes for "
			      "file"));
	CU_ASSERT(refusal_has("mode 0666"));
	/* control: the same file made safe loads */
	chmod(stage_path("w.conf"), 0644);
	reset();
	CU_ASSERT_EQUAL(config_load(stage_path("w.conf"), stage_exe(), &cfg,
				    &r), 0);
}

static void
test_unsafe_owner(void)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write("o.conf", "[linux]\nwall = a.so\n",
					  0644), 0);
	if (geteuid() != 0) {
		/* only root can give a file to another user; the mode test
		 * above covers the same check for ordinary users */
		return;
	}
	CU_ASSERT_EQUAL_FATAL(chown(stage_path("o.conf"), 4242, 4242), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("o.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT(refusal_has("(owner uid 4242, mode 0644)"));
}

static void
test_unsafe_directory(void)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_mkdir("open", 0777), 0);
	CU_ASSERT_EQUAL_FATAL(stage_write("open/c.conf", "[linux]\nwall = "
					  "a.so\n", 0644), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("open/c.conf"), stage_exe(),
				    &cfg, &r), 1);
	CU_ASSERT(refusal_has("bad ownership or modes for directory"));
	CU_ASSERT(refusal_has(want("open", " (owner uid")));
	/* control: the directory made safe */
	chmod(stage_path("open"), 0755);
	reset();
	CU_ASSERT_EQUAL(config_load(stage_path("open/c.conf"), stage_exe(),
				    &cfg, &r), 0);
}

static void
test_tmp_refused(void)
{
	char tmpl[] = "/tmp/nova-config-test.XXXXXX";
	int fd = mkstemp(tmpl);
	const char *text = "[linux]\nwall = a.so\n";

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	fchmod(fd, 0644);
	close(fd);
	reset();
	CU_ASSERT_EQUAL(config_load(tmpl, stage_exe(), &cfg, &r), 1);
	CU_ASSERT(refusal_has("bad ownership or modes for directory /tmp "));
	unlink(tmpl);
}

static void
test_symlink_refused(void)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_write("real.conf", "[linux]\nwall = a.so\n",
					  0644), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(stage_path("real.conf"),
				      stage_path("link.conf")), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("link.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT(has_refusal(want("link.conf", ": is a symbolic link; name "
		  "the file itself")));
	/* control: the target itself loads */
	reset();
	CU_ASSERT_EQUAL(config_load(stage_path("real.conf"), stage_exe(), &cfg,
				    &r), 0);
}

static void
test_directory_refused(void)
{
	reset();
	CU_ASSERT_EQUAL_FATAL(stage_mkdir("dir.conf", 0755), 0);
	CU_ASSERT_EQUAL(config_load(stage_path("dir.conf"), stage_exe(), &cfg,
				    &r), 1);
	CU_ASSERT(refusal_has("is not a regular file"));
}

static void
test_relative_path(void)
{
	char cwd[PATH_MAX];

	CU_ASSERT_FATAL(getcwd(cwd, sizeof(cwd)) != NULL);
	CU_ASSERT_EQUAL_FATAL(stage_write("rel.conf", "[linux]\nwall = r.so\n",
					  0644), 0);
	CU_ASSERT_EQUAL_FATAL(chdir(stage_root), 0);
	reset();
	CU_ASSERT_EQUAL(config_load("rel.conf", stage_exe(), &cfg, &r), 0);
	CU_ASSERT_STRING_EQUAL(cfg.path, stage_path("rel.conf"));
	CU_ASSERT_EQUAL(chdir(cwd), 0);
}

/* ---- module options --------------------------------------------------------- */

static void
test_check_options(void)
{
	static const char *const accepted[] = { "level", "mode", NULL };
	struct refusals r2 = { 0 };

	CU_ASSERT_EQUAL(load_text("opt.conf", "[linux]\nwall = mod.so\n[mod]\n"
				  "level = 1\ncolour = red\nmode = x\nsize = 2\n"),
			0);
	CU_ASSERT_EQUAL(config_check_options(&cfg, "mod", accepted, &r2), 2);
	CU_ASSERT_EQUAL_FATAL(r2.n, 2);
	CU_ASSERT_STRING_EQUAL(r2.v[0].reason, "bad_config");
	CU_ASSERT_STRING_EQUAL(r2.v[0].text, want("opt.conf", ":5: unknown key "
			       "\"colour\" in [mod]; the keys of [mod] are "
			       "level, mode"));
	CU_ASSERT_STRING_EQUAL(r2.v[1].text, want("opt.conf", ":7: unknown key "
			       "\"size\" in [mod]; the keys of [mod] are "
			       "level, mode"));
	refusals_free(&r2);
	CU_ASSERT_EQUAL(config_check_options(&cfg, "mod", NULL, &r2), 4);
	CU_ASSERT(strstr(r2.v[0].text, "the keys of [mod] are none") != NULL);
	refusals_free(&r2);
	CU_ASSERT_EQUAL(config_check_options(&cfg, "other", NULL, &r2), 0);
	refusals_free(&r2);
}

static void
test_stem(void)
{
	static const char *const cases[][2] = {
		{ "landlock.so", "landlock" },
		{ "/usr/lib/nova-sandbox/Seatbelt.dylib", "seatbelt" },
		{ "noext", "noext" },
		{ "/a.b/c.so.1", "c" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = config_stem(cases[i][0]);

		CU_ASSERT_STRING_EQUAL(s, cases[i][1]);
		free(s);
	}
}

/* ---- conf.d drop-ins ------------------------------------------------------ */

/* rel/main.conf with main, and rel/conf.d/ (0755) */
static const char *
dropin_stage(const char *rel, const char *main_text)
{
	static char main_rel[256];
	char d[256];

	reset();
	snprintf(d, sizeof(d), "%s/conf.d", rel);
	CU_ASSERT_EQUAL_FATAL(stage_mkdir(rel, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(stage_mkdir(d, 0755), 0);
	snprintf(main_rel, sizeof(main_rel), "%s/main.conf", rel);
	CU_ASSERT_EQUAL_FATAL(stage_write(main_rel, main_text, 0644), 0);
	return main_rel;
}

static void
test_dropin_order_and_origins(void)
{
	const char *m = dropin_stage("dz", "[linux]\nwall = a.so\n");
	char from[STAGE_MAX * 2];

	stage_write("dz/conf.d/b.conf", "[linux]\n\nwall = c.so\n", 0644);
	stage_write("dz/conf.d/B.conf", "[linux]\nwall = b.so\n"
		    "egress = e.so\n", 0644);
	stage_write("dz/conf.d/z.conf~", "[linux]\nwall = no.so\n", 0644);
	stage_write("dz/conf.d/.h.conf", "[linux]\nwall = no.so\n", 0644);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 0);
	CU_ASSERT_EQUAL_FATAL(cfg.wall.n, 3);
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[0], "a.so");
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[1], "b.so"); /* "B" < "b" */
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[2], "c.so");
	CU_ASSERT_EQUAL_FATAL(cfg.wall_from.n, 3);
	CU_ASSERT_STRING_EQUAL(cfg.wall_from.v[0], want("dz/main.conf", ":2"));
	snprintf(from, sizeof(from), "%s", want("dz/conf.d/B.conf", ":2"));
	CU_ASSERT_STRING_EQUAL(cfg.wall_from.v[1], from);
	CU_ASSERT_STRING_EQUAL(cfg.wall_from.v[2],
			       want("dz/conf.d/b.conf", ":3"));
	CU_ASSERT_STRING_EQUAL(cfg.egress_from.v[0],
			       want("dz/conf.d/B.conf", ":3"));
	CU_ASSERT_STRING_EQUAL(cfg.place_from.v[0], "default");
	CU_ASSERT_EQUAL(cfg.files.n, 3);
	CU_ASSERT_STRING_EQUAL(cfg.dropdir, stage_path("dz/conf.d"));
}

static void
test_dropin_duplicates(void)
{
	const char *m = dropin_stage("dd", "[linux]\nwall = a.so\n"
				     "[nova-sandbox]\nmoduledir = /\n");
	char exp[STAGE_MAX * 4];

	stage_write("dd/conf.d/1.conf", "[linux]\nwall = b.so, a.so\n"
		    "[nova-sandbox]\nmoduledir = /\n[b]\nk = 1\n", 0644);
	stage_write("dd/conf.d/2.conf", "[b]\nk = 2\n", 0644);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 1);
	snprintf(exp, sizeof(exp), "%s:2: wall a.so is named a second time "
		 "(first at %s:2); a module serves a role once: remove one of "
		 "the two", stage_path("dd/conf.d/1.conf"),
		 stage_path("dd/main.conf"));
	CU_ASSERT(has_refusal(exp));
	snprintf(exp, sizeof(exp), "%s:4: moduledir is set a second time "
		 "(first at %s:4); set it in one file",
		 stage_path("dd/conf.d/1.conf"), stage_path("dd/main.conf"));
	CU_ASSERT(has_refusal(exp));
	snprintf(exp, sizeof(exp), "%s:2: key \"k\" in [b] is set a second "
		 "time (first at %s:6); set it in one file",
		 stage_path("dd/conf.d/2.conf"),
		 stage_path("dd/conf.d/1.conf"));
	CU_ASSERT(has_refusal(exp));
	CU_ASSERT_EQUAL(r.n, 3);
}

static void
test_dropin_unsafe(void)
{
	const char *m = dropin_stage("du", "[linux]\n");

	stage_write("du/conf.d/w.conf", "[linux]\nwall = w.so\n", 0664);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 1);
	CU_ASSERT(refusal_has("w.conf: drop-in refused: "));
	CU_ASSERT(refusal_has("mode 0664"));
	/* control: the same file 0644 loads */
	reset();
	CU_ASSERT_EQUAL(chmod(stage_path("du/conf.d/w.conf"), 0644), 0);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 0);
	CU_ASSERT_STRING_EQUAL(cfg.wall.v[0], "w.so");
	/* the directory itself */
	reset();
	CU_ASSERT_EQUAL(chmod(stage_path("du/conf.d"), 0775), 0);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 1);
	CU_ASSERT(refusal_has("conf.d: conf.d refused: "));
	CU_ASSERT(refusal_has("mode 0775"));
	CU_ASSERT_EQUAL(chmod(stage_path("du/conf.d"), 0755), 0);
}

static void
test_dropin_dir_absent_or_file(void)
{
	const char *m = dropin_stage("dn", "[linux]\n");

	CU_ASSERT_EQUAL(rmdir(stage_path("dn/conf.d")), 0);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 0);
	CU_ASSERT_EQUAL(cfg.files.n, 1);
	reset();
	stage_write("dn/conf.d", "", 0644);
	CU_ASSERT_EQUAL(config_load(stage_path(m), stage_exe(), &cfg, &r), 1);
	CU_ASSERT(refusal_has("conf.d: is not a directory"));
}

static void
test_moduledir_absent_normalized(void)
{
	const char *rel = NS_MODULEDIR_REL;
	char exp[512];

	reset();
	/* a binary whose module directory is gone (its package removed):
	 * the directory named without "bin/.." */
	CU_ASSERT_EQUAL_FATAL(strncmp(rel, "../", 3), 0);
	snprintf(exp, sizeof(exp), "/nonexistent-ns/x/%s", rel + 3);
	CU_ASSERT_EQUAL(config_load("", "/nonexistent-ns/x/bin", &cfg, &r), 0);
	CU_ASSERT_STRING_EQUAL(cfg.moduledir, exp);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "no file: compiled-in defaults", test_defaults },
		{ "explicit missing path refused", test_explicit_missing },
		{ "a good file: values, platforms, options", test_good_file },
		{ "absent platform section keeps the defaults",
		  test_platform_absent_keeps_defaults },
		{ "unknown key with file:line", test_unknown_key },
		{ "every problem at once", test_every_problem_at_once },
		{ "unknown section with file:line", test_unknown_section },
		{ "syntax error with file:line", test_syntax_error },
		{ "key outside a section", test_sectionless_key },
		{ "duplicate key", test_duplicate_key },
		{ "bad module entries", test_bad_values },
		{ "a ':' in a section header", test_colon_header },
		{ "NUL bytes said with file:line", test_nul_bytes },
		{ "moduledir must be an absolute existing dir",
		  test_moduledir },
		{ "group/world-writable file refused", test_unsafe_file_mode },
		{ "file of another owner refused", test_unsafe_owner },
		{ "writable parent directory refused", test_unsafe_directory },
		{ "a config under /tmp refused", test_tmp_refused },
		{ "symlinked config refused", test_symlink_refused },
		{ "a directory is not a config", test_directory_refused },
		{ "relative path made absolute", test_relative_path },
		{ "module options checked with file:line", test_check_options },
		{ "module stems", test_stem },
		{ "drop-ins: byte order, one list, origins",
		  test_dropin_order_and_origins },
		{ "drop-ins: a second naming refused naming both",
		  test_dropin_duplicates },
		{ "drop-ins: file and directory modes", test_dropin_unsafe },
		{ "drop-ins: conf.d absent or not a directory",
		  test_dropin_dir_absent_or_file },
		{ "an absent module directory is named without ..",
		  test_moduledir_absent_normalized },
		{ NULL, NULL }
	};
	int rc = cu_run("config", setup, teardown, cases);

	reset();
	return rc;
}
