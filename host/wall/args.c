/* SPDX-License-Identifier: MIT */
/* args.c -- the flag table of the bare wrap, policy, probe and check, and
 * how each of them reads it with the flag engine (base/flags.h)
 * (reference section 2 "Flags", sections 4 and 5 step 1). */
#include <stdlib.h>
#include <string.h>

#include "wall/args.h"

#include "base/out.h"
#include "policy/envpol.h"
#include "policy/toolchain.h"
#include "wall/statusfd.h"

#define ALL3 (ARGV_BARE | ARGV_POLICY | ARGV_PROBE)
#define BP (ARGV_BARE | ARGV_POLICY)
#define OFF(m) offsetof(struct args, m)

const struct flagdef args_flags[] = {
	{ "read", FK_LIST, ALL3, 0, NULL, OFF(reads),
	  "a `dir` the command may read and execute (repeatable)" },
	{ "read-noexec", FK_LIST, ALL3, 0, NULL, OFF(reads_noexec),
	  "a `dir` the command may read but never execute from (repeatable)" },
	{ "write", FK_LIST, ALL3, 0, NULL, OFF(writes),
	  "a `dir` the command may read, write and delete in (repeatable; "
	  "required; the first holds the temp dir)" },
	{ "net-deny", FK_SWITCH, ALL3, 0, NULL, OFF(net_deny),
	  "no IP networking at all (refused where it cannot be kept)" },
	{ "net-listen", FK_SWITCH, ALL3, 0, NULL, OFF(net_listen),
	  "the command may listen (never with --net-deny)" },
	{ "explain", FK_SWITCH, ARGV_BARE | ARGV_PROBE, 0, "the bare form and "
	  "probe", OFF(explain),
	  "name every path the wall denied the command (SANDBOX DENIED lines "
	  "before DONE; refused where the wall cannot)" },
	{ "net-allow", FK_LIST, BP, 0, "the bare form", OFF(net_allow),
	  "an `entry` <host>[:<port>] the command may reach through the "
	  "tool's proxy (a name, *.<suffix>, an address or CIDR; port 443 "
	  "by default), or localhost:<port> (repeatable; nothing else is "
	  "reachable)" },
	{ "net-allow-file", FK_LIST, BP, 0, "the bare form",
	  OFF(net_allow_files),
	  "a `file` of --net-allow entries, one a line, # comments "
	  "(repeatable)" },
	{ "cwd", FK_VALUE, BP, 0, "the bare form", OFF(cwd),
	  "the working `dir`, inside a --write (default: the first --write)" },
	{ "tmp", FK_VALUE, BP, 0, "the bare form", OFF(tmp),
	  "the temp `dir`, inside a --write (default: "
	  "<first --write>/.nova-sandbox-tmp, created)" },
	{ "name", FK_VALUE, BP, 0, "the bare form", OFF(name),
	  "a `container` name (no wall here names one; windows: a NOTE)" },
	{ "acl", FK_VALUE, ARGV_BARE, ARGV_POLICY, "the bare form", OFF(acl),
	  "`tool|caller`: who gives the --write roots their access (windows: "
	  "tool labels them for the run, caller changes nothing; elsewhere "
	  "accepted and ignored)" },
	{ "env-clear", FK_SWITCH, BP, 0, "the bare form", OFF(env_clear),
	  "start the command's environment from PATH, HOME, LANG, TERM (and "
	  "the temp variables) only" },
	{ "env", FK_LIST, BP, 0, "the bare form", OFF(env_keep),
	  "`KEY[=VALUE]`: keep KEY from your environment, or set it "
	  "(repeatable; wins over --env-clear and --env-deny)" },
	{ "env-deny", FK_LIST, BP, 0, "the bare form", OFF(env_deny),
	  "drop the variables whose name matches the shell `pattern` "
	  "(repeatable; never HOME or the temp variables)" },
	{ "toolchain", FK_LIST, BP, 0, "the bare form", OFF(toolchains),
	  "`go|python|node|rust|c`: add the read roots that toolchain "
	  "reports (repeatable; never a write root)" },
	{ "protect", FK_LIST, BP, 0, "the bare form", OFF(protect),
	  "a `path` under a --write that stays readable and is not "
	  "writable (repeatable; every .git on the way to the cwd is by "
	  "default)" },
	{ "unprotect", FK_LIST, BP, 0, "the bare form", OFF(unprotect),
	  "lift the protection of a `path` (a .git protected by default, "
	  "or a --protect; repeatable)" },
	{ "gpu", FK_VALUE, ALL3, 0, NULL, OFF(gpu),
	  "the GPU `mode`: none or metal (default none)" },
	{ "status-fd", FK_VALUE, ARGV_BARE, 0, "the bare form", OFF(status_fd),
	  "a descriptor `n` (3 or above, open for writing) that carries the "
	  "tool's SANDBOX lines instead of stderr; the command never holds "
	  "it" },
	{ "secret", FK_VALUE, ARGV_PROBE, ARGV_POLICY, "probe", OFF(secret),
	  "a file `path` outside both lists the wall must keep unreadable" },
	{ "max", FK_VALUE, ARGV_PROBE, ARGV_POLICY, "probe", OFF(max),
	  "a non-negative integer `n` (accepted and unused)" },
	{ "json", FK_SWITCH, ARGV_CHECK | ARGV_POLICY | ARGV_PROBE, 0,
	  "check, policy and probe", OFF(json),
	  "print one JSON object on stdout instead of lines" },
};
const size_t args_nflags = sizeof(args_flags) / sizeof(args_flags[0]);

static const char *
verb_token(unsigned verb)
{
	return verb == ARGV_PROBE ? REASON_CHECK :
	    verb == ARGV_POLICY ? REASON_NO_COMMAND : REASON_BAD_FLAG;
}

static const char *
verb_remedy(unsigned verb)
{
	switch (verb) {
	case ARGV_POLICY:
		return "nova-sandbox help policy";
	case ARGV_PROBE:
		return "nova-sandbox help probe";
	case ARGV_CHECK:
		return "nova-sandbox help check";
	default:
		return "nova-sandbox help";
	}
}

/* The verb's word on the command line (NULL: the bare form). */
static const char *
verb_word(unsigned verb)
{
	return verb == ARGV_PROBE ? "probe" : verb == ARGV_POLICY ? "policy" :
	    verb == ARGV_CHECK ? "check" : NULL;
}

static const char *
verb_name(unsigned verb)
{
	return verb == ARGV_PROBE ? "probe" : verb == ARGV_POLICY ? "policy" :
	    verb == ARGV_CHECK ? "check" : "the bare form";
}

/* The values the engine cannot judge alone: --max, and the bare form's
 * --status-fd and --acl. */
static int
check_value(const struct flagspec *s, const struct flagdef *f, const char *v,
	    struct refusals *r)
{
	unsigned long long n;
	const char *tok = s->tok_value;
	const char *why;
	int fd;

	struct cmdfix fx = { NULL, v, NULL, NULL, 0 };

	if (strcmp(f->name, "max") == 0 && parse_u64(v, ~0ULL, &n) != 0)
		return fx.flag = "--max", fx.value = "<n>",
		       remedy_refuse(r, tok, REMEDY_IN_TEXT, s->line, &fx,
				     "--max wants a non-negative integer, "
				     "got %s", v) < 0 ? -1 : 1;
	if (strcmp(f->name, "status-fd") == 0 && s->verb == ARGV_BARE &&
	    status_fd_check(v, &fd, &why) != 0)
		return fx.flag = "--status-fd",
		       remedy_refuse(r, REASON_BAD_STATUS_FD, REMEDY_IN_TEXT,
				     s->line, &fx, OUT_STATUS_WANTS "%s%s; or "
				     "leave it out (the lines go to stderr)",
				     v, why) < 0 ? -1 : 1;
	if (strcmp(f->name, "acl") == 0 && s->verb == ARGV_BARE &&
	    strcmp(v, "tool") != 0 && strcmp(v, "caller") != 0)
		return fx.flag = "--acl", fx.value = "<tool|caller>",
		       remedy_refuse(r, tok, REMEDY_IN_TEXT, s->line, &fx,
				     "--acl wants tool or caller, got %s",
				     v) < 0 ? -1 : 1;
	return 0;
}

/* How `verb` reads its words (flags.h). */
static void
wall_spec(unsigned verb, struct flagspec *s)
{
	memset(s, 0, sizeof(*s));
	s->defs = args_flags;
	s->ndefs = args_nflags;
	s->verb = verb;
	/* the bare form lists every flag it knows, its own and the three of
	 * other verbs it names (secret, max, json) */
	s->lists = verb == ARGV_BARE ? ~0u : verb;
	s->verbname = verb_name(verb);
	s->remedy = verb_remedy(verb);
	s->list_lead = verb == ARGV_BARE ? "the flags are" : NULL;
	s->near = FN_EDIT_PREFIX;
	s->single = FS_SWITCH;
	s->foreign = verb == ARGV_PROBE ? FF_REFUSE : FF_COLLECT;
	s->tok_unknown = verb_token(verb);
	s->tok_positional = verb == ARGV_PROBE ? REASON_CHECK :
	    verb == ARGV_CHECK ? REASON_BAD_FLAG : REASON_NO_COMMAND;
	s->tok_value = verb == ARGV_PROBE ? REASON_CHECK : REASON_NO_COMMAND;
	s->opts = FO_DASHDASH | FO_VALUE_NOT_DD | FO_SKIP_VALUE | FO_ONCE;
	s->remedy_on = FR_UNKNOWN | FR_POSITIONAL | FR_BOOL | FR_FOREIGN;
	s->argv_off = OFF(argv);
	s->saw_off = OFF(saw_dashdash);
	s->others_off = OFF(others);
	s->check = check_value;
}

const char *
args_nearest(unsigned verb, const char *name)
{
	struct flagspec s;

	wall_spec(verb, &s);
	return flags_nearest(&s, name);
}

int
args_parse(unsigned verb, int argc, char **argv, struct args *a,
	   struct refusals *r)
{
	struct flagspec s;
	struct cmdline line = { verb_word(verb), argv,
				argc > 0 ? (size_t)argc : 0 };
	size_t before = r->n;

	wall_spec(verb, &s);
	s.line = &line;
	if (flags_parse(&s, argc, argv, a, r) < 0)
		return -1;
	if (verb == ARGV_BARE) {
		if (!a->saw_dashdash &&
		    refusals_addr(r, REASON_NO_COMMAND, REMEDY_IN_TEXT,
				  "no -- before the command: "
				 "the form is nova-sandbox --write <dir> -- "
				 "<command> <args...>; run: nova-sandbox "
				 "help") < 0)
			return -1;
		if (flags_refuse_others(&s, &a->others, REASON_NO_COMMAND, r) < 0)
			return -1;
	}
	if (verb == ARGV_BARE || verb == ARGV_POLICY) {
		struct env_opts o = { a->env_clear, &a->env_keep, &a->env_deny,
				      0 };

		if (envpol_check(&o, &line, r) < 0 ||
		    toolchain_check(&a->toolchains, &line, r) < 0)
			return -1;
	}
	return r->n > before;
}

void
args_free(struct args *a)
{
	strv_free(&a->reads);
	strv_free(&a->reads_noexec);
	strv_free(&a->writes);
	strv_free(&a->net_allow);
	strv_free(&a->net_allow_files);
	strv_free(&a->argv);
	strv_free(&a->others);
	strv_free(&a->env_keep);
	strv_free(&a->env_deny);
	strv_free(&a->toolchains);
	strv_free(&a->protect);
	strv_free(&a->unprotect);
}
