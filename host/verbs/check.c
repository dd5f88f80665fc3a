/* SPDX-License-Identifier: MIT */
/* check.c -- `nova-sandbox check [--json]` (reference section 3):
 * what the wall can enforce here.  Never touches the caller's files. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"
#include "base/out.h"
#include "wall/session.h"
#include "proc/reaper.h"
#include "verbs/verbs.h"

/* Per-user counts the command, running as the user, can exhaust until it
 * ends, and what it can offer outside (the spec's Gaps say each). */
#define CHECK_SHARED "the per-user limits (inotify instances and watches, " \
	"user namespaces, pending signals, POSIX message queue bytes, " \
	"processes), and an abstract unix socket the command binds is " \
	"reachable from outside"
/* What rule 5a's protection does not cover: what programs run after the
 * job outside the wall may still run of what it wrote (the spec's Gaps). */
#define CHECK_UNPROTECTED "not protected from the programs that run after " \
	"the job outside the wall: a nested repository below the working " \
	"directory (a submodule's checkout included) " \
	"that no --protect names, a .git the job creates where " \
	"none was, a directory the job makes a repository of its own (a " \
	"new .git or a bare HEAD, objects/, refs/ in the working directory " \
	"or on the way to it: said in a NOTE after the command), " \
	"hooks a repository's config points into the tree " \
	"(core.hooksPath, husky's .husky, a hook linked into the tree), a " \
	"hard link to a file in .git made before the run, " \
	"objects/info/alternates naming the tree, a worktree elsewhere that " \
	"no protected git directory lists, the user's git and shell config " \
	"when a --write holds it (--write HOME: ~/.gitconfig, " \
	"~/.config/git, ~/.bashrc, ~/.ssh/config), and tools other than " \
	"git that run project files (direnv after allow, an editor's tasks, " \
	"Makefiles, package.json scripts)"
/* What --net-allow's proxy cannot decide (the spec's "Gaps of
 * --net-allow"). */
#define CHECK_NETALLOW "--net-allow: the proxy decides on the name asked " \
	"and the TLS server name only (inside TLS it sees nothing: an " \
	"allowed host takes any data, and a front serving many names routes " \
	"by the Host inside TLS), it resolves names below an allowed " \
	"*.suffix for the job (data in their labels reaches that suffix's " \
	"DNS servers), a named address range is opened on the host's side, " \
	"and a program that ignores the proxy variables gets no network"

struct checkres {
	const char *backend;
	char abi[16];
	const char *net;
	char *note; /* heap */
};

struct checkargs {
	int json;
};

static const struct flagdef check_flags[] = {
	{ "json", FK_SWITCH, 1, 0, NULL, offsetof(struct checkargs, json),
	  "print one JSON object on stdout instead of lines" },
};

/* check reads its words so: -json and --json[=bool] alike, an unknown
 * flag alone (no suggestion), every problem with check's remedy. */
static const struct flagspec check_spec = {
	.defs = check_flags,
	.ndefs = sizeof(check_flags) / sizeof(check_flags[0]),
	.verb = 1,
	.verbname = "check",
	.remedy = "nova-sandbox help check",
	.near = FN_NONE,
	.single = FS_ALL,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_BAD_FLAG,
	.tok_positional = REASON_BAD_FLAG,
	.tok_value = REASON_BAD_FLAG,
	.opts = FO_LONE_DASH,
	.remedy_on = FR_UNKNOWN | FR_POSITIONAL | FR_BOOL,
};

/* The first problem only (reference: the first non---json argument) into
 * why; every --json counts. */
static int
parse_check(int argc, char **argv, int *json, struct sbuf *why)
{
	struct checkargs a = { 0 };
	struct refusals r = { 0 };
	struct flagspec s = check_spec;
	struct cmdline line = cmdline_of("check", argv + 1);
	int rc;

	s.line = &line;
	rc = flags_parse(&s, argc - 1, argv + 1, &a, &r);

	*json = a.json;
	if (rc < 0)
		sbuf_add(why, "out of memory reading the flags");
	else if (rc > 0)
		sbuf_add(why, r.v[0].text);
	refusals_free(&r);
	return rc != 0;
}

static char *
join_refusals(const char *lead, const struct refusals *r)
{
	struct sbuf b = {0};

	sbuf_add(&b, lead);
	if (refusals_failed(r))
		sbuf_add(&b, ": " REFUSED_OOM_REASON ": " REFUSED_OOM_TEXT);
	for (size_t i = 0; !refusals_failed(r) && i < r->n; i++)
		sbuf_addf(&b, "%s%s: %s", i ? "; " : ": ", r->v[i].reason,
			  r->v[i].text);
	return sbuf_take(&b);
}

static void
gather(const struct hostrun *hr, struct checkres *c)
{
	struct wallctx w;
	int rc;

	memset(&w, 0, sizeof(w));
	rc = wall_open(&w, hr, "CHECK");
	if (rc != 0) {
		c->backend = "none";
		snprintf(c->abi, sizeof(c->abi), "-");
		c->net = "unenforceable";
		c->note = join_refusals("no wall is available here, nothing "
					"can be enforced", &w.r);
	} else {
		c->backend = w.mod.ops.name; /* module_free keeps it mapped */
		snprintf(c->abi, sizeof(c->abi), "%s",
			 w.facts.abi[0] ? w.facts.abi : "-");
		c->net = w.facts.net_enforceable ? "enforceable" :
		    "unenforceable";
		c->note = strdup(w.facts.note);
	}
	/* what the host's own process model cannot follow (darwin) */
	if (c->note != NULL && reaper_gap() != NULL) {
		char *n = str_fmt("%s; the host: %s", c->note, reaper_gap());

		free(c->note);
		c->note = n;
	}
	/* what no wall here separates from the user's programs outside
	 * (spec: "Per-user kernel limits", "abstract unix socket") */
	if (c->note != NULL && rc == 0) {
		char *n = str_fmt("%s; shared with the user's programs outside: "
				  "%s; %s; %s", c->note, CHECK_SHARED,
				  CHECK_UNPROTECTED, CHECK_NETALLOW);

		free(c->note);
		c->note = n;
	}
	wall_close(&w);
}

static void
json_out(const struct checkres *c)
{
	struct sbuf b = {0};

	sbuf_add(&b, "{\"result\":{\"verb\":\"check\",\"status\":"
		 "\"ok\",\"exit\":0},\"facts\":{\"backend\":");
	out_json_str(&b, c->backend);
	sbuf_add(&b, ",\"abi\":");
	out_json_str(&b, c->abi);
	sbuf_add(&b, ",\"net\":");
	out_json_str(&b, c->net);
	sbuf_add(&b, ",\"hosts\":\"none\",\"note\":");
	out_json_str(&b, c->note ? c->note : "");
	sbuf_add(&b, "}}");
	out_json(stdout, b.s);
	sbuf_free(&b);
}

static void
line_out(const struct checkres *c)
{
	char *b = out_field(c->backend), *a = out_field(c->abi);
	char *n = out_text(c->note ? c->note : "");

	out_kind(stdout, "CHECK", OUT_OK,
		 "backend=%s abi=%s net=%s hosts=none note=%s",
		 b ? b : "-", a ? a : "-", c->net, n ? n : "-");
	free(b);
	free(a);
	free(n);
}

static int
refuse_check(const char *why, int json)
{
	if (json) {
		struct refusals r = {0};

		refusals_add(&r, REASON_BAD_FLAG, "%s", why);
		out_json_refused("check", NS_EXIT_USAGE, &r);
		refusals_free(&r);
		return NS_EXIT_USAGE;
	}
	out_refused("CHECK", REASON_BAD_FLAG, why, NULL);
	return NS_EXIT_USAGE;
}

/* Out of descriptors while looking: what it would say followed from
 * that (a wall "not available"), so the one fd_limit refusal instead. */
static int
fd_refused(char **argv, int json, struct checkres *c)
{
	struct refusals r = {0};
	struct cmdline line = cmdline_of("check", argv + 1);
	int rc = wall_fd_refusal(&r, &line);

	if (rc != 0 && json)
		out_json_refused("check", NS_EXIT_USAGE, &r);
	else if (rc != 0)
		out_refusals(stderr, "CHECK", &r, "nova-sandbox help check", 0);
	refusals_free(&r);
	if (rc != 0)
		free(c->note);
	return rc != 0;
}

int
verb_check(const struct hostrun *hr, int argc, char **argv)
{
	struct checkres c;
	struct sbuf why = {0};
	int json = 0, rc;

	if (flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("check") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	if (parse_check(argc, argv, &json, &why) != 0) {
		rc = refuse_check(why.s ? why.s : "", json);
		sbuf_free(&why);
		return rc;
	}
	memset(&c, 0, sizeof(c));
	gather(hr, &c);
	if (fd_refused(argv, json, &c))
		return NS_EXIT_USAGE;
	if (json)
		json_out(&c);
	else
		line_out(&c);
	free(c.note);
	return NS_EXIT_OK;
}
