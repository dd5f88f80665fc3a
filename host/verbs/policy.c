/* SPDX-License-Identifier: MIT */
/* policy.c -- `nova-sandbox policy` (reference section 4): the wall
 * the flags would build, as the module's text, on stdout.  Runs nothing. */
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "net/net.h"
#include "os/os.h"
#include "wall/protwall.h"
#include "wall/session.h"
#include "verbs/verbs.h"

#define POLICY_REMEDY "nova-sandbox help policy"

/* The probe command (os_probe_command: sh, cmd.exe) on the caller's
 * PATH: only to derive the roots a command brings. */
static char *
find_sh(void)
{
	const char *path = os_getenv("PATH"), *p, *e;
	const char *name = os_probe_command()[0];
	struct sbuf b = {0};

	for (p = path; p != NULL && *p; p = *e ? e + 1 : e) {
		e = strchr(p, os_path_list_sep());
		if (e == NULL)
			e = p + strlen(p);
		if (e == p || os_root_len(p) == 0)
			continue;
		sbuf_addf(&b, "%.*s/%s", (int)(e - p), p, name);
		if (b.s != NULL && os_path_executable(b.s))
			return sbuf_take(&b);
		sbuf_free(&b);
	}
	return NULL;
}

static int
json_refused(const struct refusals *r)
{
	out_json_refused("policy", NS_EXIT_USAGE, r);
	return NS_EXIT_USAGE;
}

static int
refused(struct refusals *r, int json)
{
	wall_fd_cause(r); /* out of descriptors: the one cause */
	if (json)
		return json_refused(r);
	out_refusals(stderr, "POLICY", r, POLICY_REMEDY, 0);
	return NS_EXIT_USAGE;
}

static const char *
owner_of(const char *flag)
{
	for (size_t i = 0; i < args_nflags; i++)
		if (strcmp(args_flags[i].name, flag + 2) == 0)
			return args_flags[i].owner;
	return "another verb";
}

static void
policy_note(const char *text)
{
	out_note("POLICY", text);
}

/* POLICY NOTE lines: the flags of other verbs, then the module's notes. */
static void
collect_notes(const struct args *a, struct wallctx *w, struct strv *out)
{
	for (size_t i = 0; i < a->others.n; i++)
		strv_pushf(out, "%s is %s's flag and is ignored here: the "
			   "policy printed is the same without it",
			   a->others.v[i], owner_of(a->others.v[i]));
	for (size_t i = 0; i < w->notes.n; i++)
		strv_push(out, w->notes.v[i]);
}

/* The words of enum ns_access and enum ns_origin in --json. */
static const char *const access_words[] = {
	"-", "read-exec", "read", "write", "write-file",
};
static const char *const origin_words[] = {
	"-", "root", "optional", "read", "read-noexec", "write", "tmp", "cwd",
	"write-file",
};

static const char *
word_of(const char *const *words, size_t n, uint32_t v)
{
	return v < n ? words[v] : "-";
}

/* "rules":[{"path":..,"access":..,"origin":..},...]: a --read the
 * --toolchain discovery added says origin "toolchain". */
static void
json_rules(struct sbuf *b, const struct policy *pol,
	   const struct strv *toolchain)
{
	sbuf_add(b, ",\"rules\":[");
	for (size_t i = 0; i < pol->n_rules; i++) {
		const struct ns_rule *r = &pol->rules[i];
		const char *origin = word_of(origin_words, sizeof(origin_words) /
					     sizeof(*origin_words), r->origin);

		if (r->origin == NS_ORIGIN_READ && strv_contains(toolchain,
								 r->path))
			origin = "toolchain";
		sbuf_add(b, i ? ",{\"path\":" : "{\"path\":");
		out_json_str(b, r->path);
		sbuf_add(b, ",\"access\":");
		out_json_str(b, word_of(access_words, sizeof(access_words) /
					sizeof(*access_words), r->access));
		sbuf_add(b, ",\"origin\":");
		out_json_str(b, origin);
		sbuf_add(b, "}");
	}
	sbuf_add(b, "]");
}

static void
json_net_allow(struct sbuf *b, const struct policy *pol)
{
	if (pol->net.n == 0)
		return; /* the object's shape without --net-allow is as before */
	sbuf_add(b, ",\"net_allow\":[");
	for (size_t i = 0; i < pol->net.n; i++) {
		sbuf_add(b, i ? ",{\"entry\":" : "{\"entry\":");
		out_json_str(b, pol->net.v[i].text);
		sbuf_addf(b, ",\"kind\":\"%s\",\"port\":%u}",
			  netallow_kind(pol->net.v[i].kind),
			  (unsigned)pol->net.v[i].port);
	}
	sbuf_add(b, "]");
}

static void
json_ok(const struct wallctx *w, const struct policy *pol,
	const struct strv *notes)
{
	struct sbuf b = {0};

	sbuf_add(&b, "{\"result\":{\"verb\":\"policy\",\"status\":\"ok\","
		 "\"exit\":0},\"payload\":");
	out_json_str(&b, w->text.s ? w->text.s : "");
	json_rules(&b, pol, &pol->toolchain_reads);
	sbuf_add(&b, ",\"facts\":{\"backend\":");
	out_json_str(&b, w->mod.ops.name);
	sbuf_addf(&b, ",\"read\":%zu,\"read-noexec\":%zu,\"write\":%zu,"
		  "\"bytes\":%zu,\"gpu\":", pol->reads.n, pol->reads_noexec.n,
		  pol->writes.n, w->text.len);
	out_json_str(&b, pol->gpu ? pol->gpu : "none");
	sbuf_add(&b, ",\"protected\":[");
	for (size_t i = 0; i < pol->prot.n; i++) {
		if (i)
			sbuf_add(&b, ",");
		out_json_str(&b, pol->prot.v[i].path);
	}
	sbuf_add(&b, "]");
	json_net_allow(&b, pol);
	sbuf_add(&b, "},\"notes\":[");
	for (size_t i = 0; i < notes->n; i++) {
		if (i)
			sbuf_add(&b, ",");
		out_json_str(&b, notes->v[i]);
	}
	sbuf_add(&b, "]}");
	out_json(stdout, b.s);
	sbuf_free(&b);
}

/* Rule 7: one line per --net-allow entry after the wall's text,
 * "net-allow <entry> kind=<name|suffix|addr|loopback> port=<p>". */
static void
lines_net(const struct policy *pol)
{
	for (size_t i = 0; i < pol->net.n; i++) {
		const struct ns_net_entry *e = &pol->net.v[i];
		char *t = out_field(e->text);

		printf("net-allow %s kind=%s port=%u\n", t ? t : "-",
		       netallow_kind(e->kind), (unsigned)e->port);
		free(t);
	}
	fflush(stdout);
}

static void
lines_ok(const struct wallctx *w, const struct policy *pol,
	 const struct strv *notes)
{
	char *be = out_field(w->mod.ops.name);

	fwrite(w->text.s ? w->text.s : "", 1, w->text.len, stdout);
	fflush(stdout);
	lines_net(pol);
	for (size_t i = 0; i < notes->n; i++)
		out_note("POLICY", notes->v[i]);
	struct sbuf prot = {0};

	(void)protect_field(&prot, &pol->prot);
	out_kind(stderr, "POLICY", OUT_OK,
		 "backend=%s read=%zu read-noexec=%zu "
		 "write=%zu bytes=%zu gpu=%s%s", be ? be : "-", pol->reads.n,
		 pol->reads_noexec.n, pol->writes.n, w->text.len,
		 pol->gpu ? pol->gpu : "none", prot.s ? prot.s : "");
	sbuf_free(&prot);
	free(be);
}

static int
render(struct wallctx *w, const struct args *a, const struct policy *pol)
{
	struct ns_policy view;
	struct strv notes = {0};
	struct net_run *net = calloc(1, sizeof(*net));
	int rc;

	if (net == NULL) {
		refusals_oom(&w->r);
		return refused(&w->r, a->json);
	}
	policy_view(pol, &view);
	net_render_view(net, w->mod.wall.features, &pol->net, &view);
	rc = w->mod.wall.render(&w->hs.host, &view);
	net_free(net);
	free(net);
	if (rc != NS_OK) {
		if (w->r.n == 0)
			refusals_add(&w->r, REASON_SANDBOX_FAILED, "the wall module "
				     "could not render the policy");
		return refused(&w->r, a->json);
	}
	collect_notes(a, w, &notes);
	for (size_t i = 0; i < pol->notes.n; i++)
		strv_push(&notes, pol->notes.v[i]);
	if (sbuf_failed(&w->text) || strv_failed(&notes)) {
		/* a ruleset or a note cut short is never printed as the policy */
		strv_free(&notes);
		refusals_oom(&w->r);
		return refused(&w->r, a->json);
	}
	if (a->json)
		json_ok(w, pol, &notes);
	else
		lines_ok(w, pol, &notes);
	strv_free(&notes);
	return 0;
}

static int
build(struct wallctx *w, const struct hostrun *hr, struct args *a,
      char **remedy_args)
{
	struct policy_input in = {0};
	struct policy pol = {0};
	struct refusals r = {0};
	struct strv tnotes = {0};
	struct cmdline line;
	int json = a->json, code;

	in.verb = "policy";
	in.remedy_args = remedy_args;
	if (wall_input(w, hr, a, &in) < 0 ||
	    wall_toolchains(w, &a->toolchains, &in, &tnotes, &r) < 0 ||
	    (r.n == 0 && policy_build(&in, &pol, &r) < 0))
		refusals_add(&r, REASON_SANDBOX_FAILED, "out of memory");
	for (size_t i = 0; r.n == 0 && i < tnotes.n; i++)
		strv_push(&pol.notes, tnotes.v[i]); /* a failed push: oom */
	line = cmdline_of("policy", remedy_args);
	if (r.n == 0 && wall_protect_refused(w, &pol, &line, &r) < 0)
		refusals_oom(&r);
	strv_free(&tnotes);
	code = r.n ? refused(&r, json) : render(w, a, &pol);
	(void)policy_remove_tmp_said(&pol, policy_note); /* nothing is left */
	refusals_free(&r);
	policy_free(&pol);
	policy_input_free(&in);
	return code;
}

static int
default_command(struct args *a, struct refusals *r)
{
	const char *const *cmd = os_probe_command();
	char *sh;

	if (a->saw_dashdash)
		return 0;
	sh = find_sh();
	if (sh == NULL)
		return refusals_addr(r, REASON_BAD_READ, REMEDY_IN_TEXT,
				     "no %s on PATH to derive "
				     "the roots from; pass -- <command>",
				     cmd[0]), 1;
	a->saw_dashdash = 1;
	/* by name: found on PATH by the builder as the caller's would be, so
	 * rule 5 says nothing about the system's sh -> dash link */
	for (; *cmd != NULL; cmd++)
		strv_push(&a->argv, *cmd);
	free(sh);
	return 0;
}

int
verb_policy(const struct hostrun *hr, int argc, char **argv)
{
	struct wallctx w;
	struct args a;
	struct refusals r = {0};
	int code;

	if (flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("policy") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	memset(&a, 0, sizeof(a));
	memset(&w, 0, sizeof(w));
	if (args_parse(ARGV_POLICY, argc - 1, argv + 1, &a, &r) != 0 ||
	    default_command(&a, &r) != 0)
		code = refused(&r, a.json);
	else if (wall_line(&w, "policy", argv + 1), wall_open(&w, hr,
							       "POLICY") != 0)
		code = refused(&w.r, a.json);
	else
		code = build(&w, hr, &a, argv + 1);
	refusals_free(&r);
	wall_close(&w);
	args_free(&a);
	return code;
}
