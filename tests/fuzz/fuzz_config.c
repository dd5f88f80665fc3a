/* SPDX-License-Identifier: MIT */
/* fuzz_config.c -- libFuzzer harness for the config reader
 * (host/conf/config.c, config_load, with iniparser under it).  The input is the
 * config file's bytes.
 *
 * config_load takes a path and checks the file and every directory above
 * it on the open descriptor, so each input is written to one file in a
 * private directory made at start-up next to this binary (build-fuzz/, a
 * directory the reader accepts; /tmp is world-writable and would be
 * refused) and removed at exit.  Nothing else is written; the only other
 * file system calls are the reader's own (stat of a moduledir value).
 * A start-up self-test loads a good config and stops the run if it is
 * refused: a harness that only ever saw "unsafe directory" would test
 * nothing.
 *
 * Seeds: tests/fuzz/corpus/config/, config texts; regress-*.ini are
 * inputs that once crashed.  Run longer: see tests/fuzz/README. */
#include "fuzz_common.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "wall/args.h"
#include "conf/config.h"

static char dir[PATH_MAX], path[PATH_MAX + 16];
static int fd = -1;

static const char *const accepted[] = { "foo", "bar", NULL };

static void
cleanup(void)
{
	if (fd >= 0)
		close(fd);
	unlink(path);
	rmdir(dir);
}

static int
load(const uint8_t *data, size_t size, struct config *cfg,
     struct refusals *r)
{
	if (ftruncate(fd, 0) < 0 ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	memset(cfg, 0, sizeof(*cfg));
	return config_load(path, dir, cfg, r);
}

static void
self_test(void)
{
	static const char good[] = "[linux]\nwall = landlock.so\n";
	struct config cfg;
	struct refusals r = { 0 };

	if (load((const uint8_t *)good, sizeof(good) - 1, &cfg, &r) != 0) {
		fprintf(stderr, "fuzz_config: a good config in %s is "
			"refused (%s); run from a directory only you or root "
			"can write\n", dir, r.n ? r.v[0].text : "?");
		abort();
	}
	config_free(&cfg);
	refusals_free(&r);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_private_dir("fuzz-config", dir);
	snprintf(path, sizeof(path), "%s/fuzz.conf", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		abort();
	atexit(cleanup);
	self_test();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	struct refusals r = { 0 };

	if (load(data, size, &cfg, &r) >= 0) {
		(void)config_option(&cfg, "landlock", "foo");
		(void)config_check_options(&cfg, "landlock", accepted, &r);
	}
	out_refusals(fz_sink(), "SANDBOX", &r, "nova-sandbox help", 0);
	config_free(&cfg);
	refusals_free(&r);
	return 0;
}
