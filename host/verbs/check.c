/* check.c -- `nova-sandbox check [--json]` (reference section 3):
 * what the wall can enforce here.  Never touches the caller's files. */
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "wall/session.h"
#include "verbs/verbs.h"

struct checkres {
	const char *backend;
	char abi[16];
	const char *net;
	char *note; /* heap */
};

/* Is w a spelling of --json?  1 yes (value in *on), 0 no, -1 bad bool. */
static int
json_word(const char *w, int *on)
{
	const char *n;

	if (w[0] != '-')
		return 0;
	n = w[1] == '-' ? w + 2 : w + 1;
	if (strncmp(n, "json", 4) != 0)
		return 0;
	*on = 1;
	if (n[4] == '\0')
		return 1;
	if (n[4] != '=')
		return 0;
	return args_parse_bool(n + 5, on) == 0 ? 1 : -1;
}

/* The first problem only (reference: the first non---json argument). */
static int
parse_check(int argc, char **argv, int *json, struct sbuf *why)
{
	int on, k, bad = 0;

	for (int i = 1; i < argc; i++) {
		k = json_word(argv[i], &on);
		if (k == 1) {
			*json = on;
			continue;
		}
		if (bad++)
			continue;
		if (k < 0)
			sbuf_addf(why, "--json wants true or false, got %s",
				  strchr(argv[i], '=') + 1);
		else if (argv[i][0] == '-')
			sbuf_addf(why, "unknown flag %.*s",
				  (int)strcspn(argv[i], "="), argv[i]);
		else
			sbuf_addf(why, "unexpected argument %s", argv[i]);
		sbuf_add(why, "; run: nova-sandbox help check");
	}
	return bad;
}

static char *
join_refusals(const char *lead, const struct refusals *r)
{
	struct sbuf b = {0};

	sbuf_add(&b, lead);
	for (size_t i = 0; i < r->n; i++)
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
	out_line(stdout, "%s", b.s ? b.s : "{}");
	sbuf_free(&b);
}

static void
line_out(const struct checkres *c)
{
	char *b = out_field(c->backend), *a = out_field(c->abi);
	char *n = out_text(c->note ? c->note : "");

	out_line(stdout, "CHECK OK backend=%s abi=%s net=%s hosts=none note=%s",
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

int
verb_check(const struct hostrun *hr, int argc, char **argv)
{
	struct checkres c;
	struct sbuf why = {0};
	int json = 0, rc;

	if (args_wants_help(argc - 1, argv + 1))
		return verb_help_for("check") == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	if (parse_check(argc, argv, &json, &why) != 0) {
		rc = refuse_check(why.s ? why.s : "", json);
		sbuf_free(&why);
		return rc;
	}
	memset(&c, 0, sizeof(c));
	gather(hr, &c);
	if (json)
		json_out(&c);
	else
		line_out(&c);
	free(c.note);
	return NS_EXIT_OK;
}
