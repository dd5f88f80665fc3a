/* SPDX-License-Identifier: MIT */
/* main.c -- the nova-sandbox entry: who we are, then the dispatch of
 * reference section 1 "Dispatch order".  Only main() exits. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/flags.h"
#include "base/out.h"
#include "os/os.h"
#include "verbs/verbs.h"

static char exe_buf[OS_PATH_MAX];
static char dir_buf[OS_PATH_MAX];
static int self_errno; /* why os_self_exe failed */

/* Our own binary and its directory. */
static void
find_self(struct hostrun *hr)
{
	char *slash;

	errno = 0;
	if (os_self_exe(exe_buf, sizeof(exe_buf)) != 0) {
		self_errno = errno ? errno : ENOENT;
		return;
	}
	memcpy(dir_buf, exe_buf, strlen(exe_buf) + 1);
	slash = strrchr(dir_buf, '/');
	if (slash == NULL)
		return;
	*(slash == dir_buf ? slash + 1 : slash) = '\0';
	hr->exe = exe_buf;
	hr->exe_dir = dir_buf;
}

/* NOVA_SANDBOX_CONFIG is honoured only when the process is not set-id. */
static const char *
config_from_env(void)
{
	if (os_is_setid())
		return NULL;
	return os_getenv("NOVA_SANDBOX_CONFIG");
}

static int
refuse_line(const char *tok, const char *text, int code)
{
	out_refused("SANDBOX", tok, text, NULL);
	return code;
}

/* SPEC section 3 "Lines": the tool's own words (those before a "--")
 * are refused past these, at once, before any is parsed: a refusal for
 * each of them would be read by no one. */
#define ARGS_MAX_WORDS 4096
#define ARGS_MAX_BYTES (1024 * 1024)

/* args_too_long: 1 (refused, the line printed) when the words before the
 * first "--" are more than ARGS_MAX_WORDS or ARGS_MAX_BYTES. */
static int
args_too_long(int argc, char **argv)
{
	size_t bytes = 0;
	int n = 0;
	char text[256];

	for (; n < argc && strcmp(argv[n], "--") != 0; n++)
		bytes += strlen(argv[n]) + 1;
	if (n <= ARGS_MAX_WORDS && bytes <= ARGS_MAX_BYTES)
		return 0;
	snprintf(text, sizeof(text), "%d words of %zu bytes before the "
		 "command: the tool takes at most %d words and %d bytes of its "
		 "own: name fewer flags (the command's words after -- are not "
		 "counted)", n, bytes, ARGS_MAX_WORDS, ARGS_MAX_BYTES);
	out_refused("SANDBOX", REASON_ARGS_TOO_LONG, text, "nova-sandbox help");
	return 1;
}

/* The exit of an args_too_long refusal: as the verb refuses. */
static int
args_exit(const char *verb)
{
	return verb[0] == '-' || strcmp(verb, "run") == 0 ||
	       strcmp(verb, "reap") == 0 ? NS_EXIT_REFUSED : NS_EXIT_USAGE;
}

/* The binary was not found: what it is read from, named, with the
 * error (/proc not mounted, on linux). */
static int
refuse_self(int e)
{
	char text[512];

	snprintf(text, sizeof(text), "cannot find its own binary, beside "
		 "which the module directory is: %s (%s); run: nova-sandbox "
		 "help", os_self_exe_hint(), strerror(e));
	return refuse_line(REASON_SANDBOX_FAILED, text, NS_EXIT_REFUSED);
}

/* The verb table: every verb word, its entry and whether the refusal of an
 * unknown verb lists it (probe-step is internal, --version an alias). */
struct verbent {
	const char *name;
	int (*fn)(const struct hostrun *, int, char **);
	int listed;
};

static const struct verbent verbtab[] = {
	{ "check", verb_check, 1 },
	{ "egress", verb_egress, 1 },
	{ "modules", verb_modules, 1 },
	{ "policy", verb_policy, 1 },
	{ "probe", verb_probe, 1 },
	{ "probe-step", verb_probe_step, 0 },
	{ "reap", verb_reap, 1 },
	{ "run", verb_run, 1 },
	{ "version", verb_version, 1 },
	{ "worktree", verb_worktree, 1 },
	{ "--version", verb_version, 0 },
};
#define NVERBS (sizeof(verbtab) / sizeof(verbtab[0]))

static int
unknown_verb(const char *w)
{
	struct sbuf b = {0};
	const char *sep = "; available: ";
	int rc;

	sbuf_add(&b, "unknown verb ");
	out_json_str(&b, w);
	for (size_t i = 0; i < NVERBS; i++)
		if (verbtab[i].listed) {
			sbuf_addf(&b, "%s%s", sep, verbtab[i].name);
			sep = ", ";
		}
	sbuf_add(&b, "; run: nova-sandbox help");
	rc = sbuf_failed(&b) ? refuse_line(REFUSED_OOM_REASON, REFUSED_OOM_TEXT,
					   NS_EXIT_USAGE) :
	     refuse_line(REASON_UNKNOWN_VERB, sbuf_str(&b), NS_EXIT_USAGE);
	sbuf_free(&b);
	return rc;
}

static int
is_help_word(const char *s)
{
	return strcmp(s, "help") == 0 || strcmp(s, "--help") == 0 ||
	    strcmp(s, "-h") == 0;
}

static int
help_verb(const struct hostrun *hr, int argc, char **argv)
{
	static char help_flag[] = "--help";
	char *sub[2];

	if (argc < 2)
		return verb_help();
	if (strcmp(argv[1], "modules") == 0) {
		sub[0] = argv[1];
		sub[1] = help_flag;
		return verb_modules(hr, 2, sub);
	}
	if (verb_help_for(argv[1]) == 0)
		return NS_EXIT_OK;
	return verb_help();
}

static int
dispatch(const struct hostrun *hr, int argc, char **argv)
{
	const char *w = argv[0];

	if (is_help_word(w))
		return help_verb(hr, argc, argv);
	for (size_t i = 0; i < NVERBS; i++)
		if (strcmp(w, verbtab[i].name) == 0)
			return verbtab[i].fn(hr, argc, argv);
	if (w[0] != '-')
		return unknown_verb(w);
	return verb_wrap(hr, argc, argv);
}

int
main(int argc, char **argv)
{
	struct hostrun hr = { NULL, NULL, NULL, NULL };
	char *why = NULL;
	int rc;

	/* UTF-8 from here on (Windows: the wide ones converted) */
	if (os_main_args(&argc, &argv, &hr.env, &why) != 0) {
		rc = refuse_line(why ? REASON_BAD_ENCODING : REFUSED_OOM_REASON,
				 why ? why : REFUSED_OOM_TEXT, NS_EXIT_USAGE);
		free(why);
		return rc;
	}
	os_signals_start();
	find_self(&hr);
	hr.config_path = config_from_env();
	if (argc < 2)
		return refuse_line(REASON_NO_COMMAND, "no arguments: name a verb, "
				   "or --write <dir> -- <command>; run: "
				   "nova-sandbox help", NS_EXIT_USAGE);
	if (args_too_long(argc - 1, argv + 1))
		return args_exit(argv[1]);
	if (hr.exe == NULL)
		return refuse_self(self_errno);
	return dispatch(&hr, argc - 1, argv + 1);
}
