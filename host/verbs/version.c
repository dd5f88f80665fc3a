/* SPDX-License-Identifier: MIT */
/* version.c -- `nova-sandbox version` (reference section 7):
 * nova-sandbox <id> <os>/<arch> <toolchain> backend=<b> platform=<os> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"
#include "base/out.h"
#include "os/os.h"
#include "conf/config.h"
#include "verbs/verbs.h"

#ifndef NS_VERSION
#define NS_VERSION "devel"
#endif

#define NS_STR2(x) #x
#define NS_STR(x) NS_STR2(x)


#if defined(__clang__)
#define NS_TOOLCHAIN "c11-clang-" NS_STR(__clang_major__) "." \
	NS_STR(__clang_minor__)
#elif defined(__GNUC__)
#define NS_TOOLCHAIN "c11-gcc-" NS_STR(__GNUC__) "." NS_STR(__GNUC_MINOR__)
#else
#define NS_TOOLCHAIN "c11-cc"
#endif

/* The backend the config selects first (its stem), without loading it:
 * version runs no module code. */
static char *
configured_backend(const struct hostrun *hr)
{
	struct config cfg = {0};
	struct refusals r = {0};
	char *stem = NULL;

	if (config_load(hr->config_path, hr->exe_dir, &cfg, &r) == 0 &&
	    cfg.wall.n > 0)
		stem = config_stem(cfg.wall.v[0]);
	config_free(&cfg);
	refusals_free(&r);
	return stem ? stem : strdup("none");
}

static int
print_version(const struct hostrun *hr)
{
	const char *plat = os_platform();
	char *b = configured_backend(hr);
	char *fv = out_field(NS_VERSION), *fb = out_field(b ? b : "none");
	char *fp = out_field(plat), *ft = out_field(NS_TOOLCHAIN);
	int rc = 2;

	char *line = fv && fb && fp && ft ?
		     str_fmt("%s %s/%s %s backend=%s platform=%s", fv, fp,
			     os_arch(), ft, fb, fp) : NULL;

	if (line != NULL && out_version(line) == 0)
		rc = 0;
	free(line);
	free(b);
	free(fv);
	free(fb);
	free(fp);
	free(ft);
	return rc;
}

int
verb_version(const struct hostrun *hr, int argc, char **argv)
{
	if (argc > 1 && flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("version") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	if (argc > 1) {
		char *t = str_fmt("version takes no flags and no arguments, "
				  "got %d", argc - 1);

		out_refused("SANDBOX", REASON_UNKNOWN_FLAG, t ? t :
			    "out of memory", "nova-sandbox version");
		free(t);
		return NS_EXIT_USAGE;
	}
	return print_version(hr);
}
