/* SPDX-License-Identifier: MIT */
/* modules.c -- `nova-sandbox modules [--json]`: per configured module
 * (every role of this platform, in config order) its file, name, version,
 * ABI, roles, shape and whether it is available here.
 *
 *   CONFIG file=<path>                       each file read, in order
 *   OPTION module=<stem> key=<k> value=<v> from=<file>:<line>
 *   MODULE role=<r> file=<f> from=<file>:<line>|default path=<p> name=<n>
 *          version=<v> abi=<M>.<m> needs=<M>.<m> roles=<wall,egress,place,proxy>
 *          [shape=<s>] available=<yes|no> [why=<text>]
 *   MODULE role=<r> file=<f> from=<...> available=no refused=<token>
 *          why=<text>
 *   MODULES OK platform=<p> config=<path|defaults> moduledir=<d> wall=<n|none>
 *
 * from= names the config file and line that put the module in its role
 * (a drop-in in conf.d, or the main file), or "default" (compiled in);
 * OPTION lines say the same of each module option and of moduledir
 * (module=nova-sandbox).
 * `why` is the last field and keeps its spaces (out_text).  abi= is the
 * header the module was built with (ns_backend_ops.built_minor, 1.2), needs=
 * the lowest host it loads in (abi_minor); before 1.2 they are the same. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"
#include "base/out.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "wall/session.h"
#include "verbs/verbs.h"

struct modrow {
	const char *role;
	const char *from; /* "<file>:<line>" or "default" */
	struct module m;
	int loaded;
	int available;
	const char *refused; /* token, when not loaded */
	char *why;
};

struct modlist {
	struct modrow *v;
	size_t n;
	const char *wall; /* name of the first available wall, or NULL */
};

struct rolefiles {
	const char *name;
	unsigned bit;
	size_t off;      /* the strv in struct config */
	size_t from_off; /* its origins */
};

static const struct rolefiles rolefiles[] = {
	{ "wall", NS_ROLE_WALL, offsetof(struct config, wall),
	  offsetof(struct config, wall_from) },
	{ "egress", NS_ROLE_EGRESS, offsetof(struct config, egress),
	  offsetof(struct config, egress_from) },
	{ "place", NS_ROLE_PLACE, offsetof(struct config, place),
	  offsetof(struct config, place_from) },
	{ "proxy", NS_ROLE_PROXY, offsetof(struct config, proxy),
	  offsetof(struct config, proxy_from) },
};
#define N_ROLEFILES (sizeof(rolefiles) / sizeof(rolefiles[0]))

static const char *
shape_name(uint32_t shape)
{
	static const char *const names[] = { "unknown", "restrict-self",
					     "helper", "container" };

	return shape < 4 ? names[shape] : names[0];
}

static int
usage(FILE *f)
{
	fprintf(f,
		"usage: nova-sandbox modules [flags]\n"
		"lists every module the config names for this platform (file, "
		"name, version, ABI, roles, shape) and whether it is available "
		"here\n"
		"flags:\n"
		"  --json  one JSON object on stdout\n"
		"exit codes: each verb's own, by verb:\n"
		"  modules: 0 a wall is available; 1 no wall is available; "
		"2 could not run (usage, config refused)\n");
	fflush(f);
	return 0;
}

/* ---- what each module says -------------------------------------------- */

static void
ask_wall(const struct config *cfg, struct hostsvc *hs, struct modrow *row)
{
	struct ns_wall_facts facts;
	enum load_status ls;

	hs->stem = row->m.stem;
	ls = loader_wall_facts(cfg, &hs->host, &row->m, &facts, &row->why);
	row->available = ls == LOAD_OK;
}

/* ready() of an egress or a proxy module, its refusals as why. */
static void
ask_ready(struct hostsvc *hs, struct modrow *row, unsigned bit)
{
	struct refusals r = { 0 };
	struct refusals *saved = hs->refusals;
	struct sbuf b = { 0 };

	hs->stem = row->m.stem;
	hs->refusals = &r;
	row->available = (bit == NS_ROLE_PROXY ?
			  row->m.proxy.ready(&hs->host) :
			  row->m.egress.ready(&hs->host)) == NS_OK;
	hs->refusals = saved;
	for (size_t i = 0; !row->available && i < r.n; i++)
		sbuf_addf(&b, "%s%s: %s", i ? "; " : "", r.v[i].reason,
			  r.v[i].text);
	if (!row->available)
		row->why = b.len ? sbuf_take(&b)
				 : strdup("ready() failed and said nothing");
	sbuf_free(&b);
	refusals_free(&r);
}

static void
ask(const struct config *cfg, struct hostsvc *hs, unsigned bit,
    const char *file, struct modrow *row)
{
	enum load_status ls;

	ls = loader_load(cfg, file, bit, &row->m, &row->why);
	if (ls != LOAD_OK) {
		char *hint = loader_install_hint(&loader_built_how, file, ls);
		char *why = hint && row->why ? str_fmt("%s; %s", row->why, hint)
					     : NULL;

		if (why != NULL) { /* how to install it, where the build knows */
			free(row->why);
			row->why = why;
		}
		free(hint);
		row->refused = load_status_token(ls);
		return;
	}
	row->loaded = 1;
	if (bit == NS_ROLE_WALL)
		ask_wall(cfg, hs, row);
	else if (bit == NS_ROLE_EGRESS || bit == NS_ROLE_PROXY)
		ask_ready(hs, row, bit);
	else
		row->available = 1;
}

static struct modrow *
new_row(struct modlist *ml)
{
	struct modrow *nv = realloc(ml->v, (ml->n + 1) * sizeof(*nv));

	if (nv == NULL)
		return NULL;
	ml->v = nv;
	memset(&nv[ml->n], 0, sizeof(nv[ml->n]));
	return &nv[ml->n++];
}

static int
collect(const struct config *cfg, struct hostsvc *hs, struct modlist *ml)
{
	for (size_t i = 0; i < N_ROLEFILES; i++) {
		const struct strv *files = (const struct strv *)
			((const char *)cfg + rolefiles[i].off);
		const struct strv *from = (const struct strv *)
			((const char *)cfg + rolefiles[i].from_off);

		for (size_t j = 0; j < files->n; j++) {
			struct modrow *row = new_row(ml);

			if (row == NULL)
				return -1;
			row->role = rolefiles[i].name;
			row->from = j < from->n ? from->v[j] : "default";
			ask(cfg, hs, rolefiles[i].bit, files->v[j], row);
			if (row->available && rolefiles[i].bit == NS_ROLE_WALL &&
			    ml->wall == NULL)
				ml->wall = row->m.ops.name;
		}
	}
	return 0;
}

static void
modlist_free(struct modlist *ml)
{
	for (size_t i = 0; i < ml->n; i++) {
		module_free(&ml->v[i].m);
		free(ml->v[i].why);
	}
	free(ml->v);
	memset(ml, 0, sizeof(*ml));
}

/* ---- lines ------------------------------------------------------------- */

static void
add_field(struct sbuf *b, const char *key, const char *val)
{
	char *f = out_field(val ? val : "");

	sbuf_addf(b, " %s=%s", key, f ? f : "-");
	free(f);
}

static char *
roles_list(uint32_t roles)
{
	static const char *const names[] = { "wall", "egress", "place",
					     "proxy" };
	struct sbuf b = { 0 };

	for (unsigned i = 0; i < 4; i++)
		if (roles & (1u << i))
			sbuf_addf(&b, "%s%s", b.len ? "," : "", names[i]);
	return sbuf_take(&b);
}

/* The minor of the header a module was built with: built_minor from 1.2
 * (the loader's copy reads 0 when the module's struct ends before it),
 * else abi_minor, which was the header's minor before 1.2. */
static unsigned
built_minor(const struct ns_backend_ops *o)
{
	return o->built_minor > o->abi_minor ? o->built_minor : o->abi_minor;
}

static void
loaded_fields(struct sbuf *b, const struct modrow *row)
{
	const struct ns_backend_ops *o = &row->m.ops;
	char *roles = roles_list(o->roles);

	add_field(b, "path", row->m.path);
	add_field(b, "name", o->name);
	add_field(b, "version", o->version);
	sbuf_addf(b, " abi=%u.%u needs=%u.%u", (unsigned)o->abi_major,
		  built_minor(o), (unsigned)o->abi_major,
		  (unsigned)o->abi_minor);
	add_field(b, "roles", roles);
	if (o->roles & NS_ROLE_WALL)
		add_field(b, "shape", shape_name(row->m.wall.shape));
	free(roles);
}

static void
print_row(const struct modrow *row)
{
	struct sbuf b = { 0 };
	char *why = row->why ? out_text(row->why) : NULL;

	add_field(&b, "role", row->role);
	add_field(&b, "file", row->m.file);
	add_field(&b, "from", row->from);
	if (row->loaded)
		loaded_fields(&b, row);
	sbuf_addf(&b, " available=%s", row->available ? "yes" : "no");
	if (!row->loaded)
		add_field(&b, "refused", row->refused);
	if (!row->available)
		sbuf_addf(&b, " why=%s", why && *why ? why : "-");
	out_kind(stdout, NULL, OUT_MODULE, "%s", b.s ? b.s : "");
	free(why);
	sbuf_free(&b);
}

static void
print_option(const struct config_opt *o)
{
	struct sbuf b = { 0 };
	char *from = str_fmt("%s:%u", o->file, o->line);

	add_field(&b, "module", o->section);
	add_field(&b, "key", o->key);
	add_field(&b, "value", o->value);
	add_field(&b, "from", from);
	out_kind(stdout, NULL, OUT_OPTION, "%s", b.s ? b.s : "");
	sbuf_free(&b);
	free(from);
}

/* The files read and where each option was set. */
static void
print_sources(const struct config *cfg)
{
	for (size_t i = 0; i < cfg->files.n; i++) {
		struct sbuf b = { 0 };

		add_field(&b, "file", cfg->files.v[i]);
		out_kind(stdout, NULL, OUT_CONFIG, "%s", b.s ? b.s : "");
		sbuf_free(&b);
	}
	if (cfg->moduledir_from != NULL) {
		struct sbuf b = { 0 };

		sbuf_add(&b, " module=nova-sandbox key=moduledir");
		add_field(&b, "value", cfg->moduledir);
		add_field(&b, "from", cfg->moduledir_from);
		out_kind(stdout, NULL, OUT_OPTION, "%s", b.s ? b.s : "");
		sbuf_free(&b);
	}
	for (size_t i = 0; i < cfg->n_opts; i++)
		print_option(&cfg->opts[i]);
}

static void
print_text(const struct config *cfg, const struct modlist *ml)
{
	struct sbuf b = { 0 };

	print_sources(cfg);
	for (size_t i = 0; i < ml->n; i++)
		print_row(&ml->v[i]);
	add_field(&b, "platform", cfg->platform);
	add_field(&b, "config", cfg->path ? cfg->path : "defaults");
	add_field(&b, "moduledir", cfg->moduledir);
	add_field(&b, "wall", ml->wall ? ml->wall : "none");
	out_kind(stdout, "MODULES", OUT_OK, "%s", b.s ? b.s : "");
	sbuf_free(&b);
}

/* ---- JSON ---------------------------------------------------------------- */

static void
json_kv(struct sbuf *b, const char *key, const char *val, int comma)
{
	sbuf_addf(b, "%s\"%s\":", comma ? "," : "", key);
	if (val == NULL)
		sbuf_add(b, "null");
	else
		out_json_str(b, val);
}

static void
json_roles(struct sbuf *b, uint32_t roles)
{
	static const char *const names[] = { "wall", "egress", "place" };
	int n = 0;

	sbuf_add(b, ",\"roles\":[");
	for (unsigned i = 0; i < 3; i++)
		if (roles & (1u << i))
			sbuf_addf(b, "%s\"%s\"", n++ ? "," : "", names[i]);
	sbuf_add(b, "]");
}

static void
json_row(struct sbuf *b, const struct modrow *row)
{
	const struct ns_backend_ops *o = &row->m.ops;
	char *roles = row->loaded ? roles_list(o->roles) : NULL;
	char abi[32], needs[32];

	snprintf(abi, sizeof(abi), "%u.%u", (unsigned)o->abi_major,
		 built_minor(o));
	snprintf(needs, sizeof(needs), "%u.%u", (unsigned)o->abi_major,
		 (unsigned)o->abi_minor);
	json_kv(b, "role", row->role, 0);
	json_kv(b, "file", row->m.file, 1);
	json_kv(b, "from", row->from, 1);
	json_kv(b, "path", row->m.path, 1);
	json_kv(b, "name", row->loaded ? o->name : NULL, 1);
	json_kv(b, "version", row->loaded ? o->version : NULL, 1);
	json_kv(b, "abi", row->loaded ? abi : NULL, 1);
	json_kv(b, "needs", row->loaded ? needs : NULL, 1);
	if (roles == NULL)
		sbuf_add(b, ",\"roles\":null");
	else
		json_roles(b, o->roles);
	json_kv(b, "shape", row->loaded && (o->roles & NS_ROLE_WALL) ?
		shape_name(row->m.wall.shape) : NULL, 1);
	sbuf_addf(b, ",\"available\":%s", row->available ? "true" : "false");
	json_kv(b, "refused", row->loaded ? NULL : row->refused, 1);
	json_kv(b, "why", row->available ? NULL : row->why, 1);
	free(roles);
}

static void
json_option(struct sbuf *b, const struct config_opt *o, int comma)
{
	char *from = str_fmt("%s:%u", o->file, o->line);

	sbuf_add(b, comma ? ",{" : "{");
	json_kv(b, "module", o->section, 0);
	json_kv(b, "key", o->key, 1);
	json_kv(b, "value", o->value, 1);
	json_kv(b, "from", from, 1);
	sbuf_add(b, "}");
	free(from);
}

static void
print_json(const struct config *cfg, const struct modlist *ml, int code)
{
	struct sbuf b = { 0 };

	sbuf_addf(&b, "{\"result\":{\"verb\":\"modules\",\"status\":\"%s\","
		  "\"exit\":%d}", code == 0 ? "ok" : "no_wall", code);
	json_kv(&b, "platform", cfg->platform, 1);
	json_kv(&b, "config", cfg->path ? cfg->path : "defaults", 1);
	json_kv(&b, "moduledir", cfg->moduledir, 1);
	json_kv(&b, "wall", ml->wall ? ml->wall : "none", 1);
	json_kv(&b, "moduledir_from", cfg->moduledir_from, 1);
	sbuf_add(&b, ",\"files\":[");
	for (size_t i = 0; i < cfg->files.n; i++) {
		if (i)
			sbuf_add(&b, ",");
		out_json_str(&b, cfg->files.v[i]);
	}
	sbuf_add(&b, "],\"options\":[");
	for (size_t i = 0; i < cfg->n_opts; i++)
		json_option(&b, &cfg->opts[i], i > 0);
	sbuf_add(&b, "],\"modules\":[");
	for (size_t i = 0; i < ml->n; i++) {
		sbuf_add(&b, i ? ",{" : "{");
		json_row(&b, &ml->v[i]);
		sbuf_add(&b, "}");
	}
	sbuf_add(&b, "]}");
	out_json(stdout, b.s);
	sbuf_free(&b);
}

/* ---- refusals and the verb ------------------------------------------------ */

static int
refused(const struct refusals *r, int json)
{
	if (json) {
		out_json_refused("modules", NS_EXIT_USAGE, r);
		return NS_EXIT_USAGE;
	}
	out_refusals(stderr, "MODULES", r, NULL, 0);
	return NS_EXIT_USAGE;
}

struct modargs {
	int json;
};

static const struct flagdef modules_flags[] = {
	{ "json", FK_SWITCH, 1, 0, NULL, offsetof(struct modargs, json),
	  "print one JSON object on stdout instead of lines" },
};

/* modules reads its words so: only "--json" itself (no -json, no =v),
 * every token bad_flag. */
static const struct flagspec modules_spec = {
	.defs = modules_flags,
	.ndefs = sizeof(modules_flags) / sizeof(modules_flags[0]),
	.verb = 1,
	.verbname = "modules",
	.remedy = "nova-sandbox help modules",
	.list_lead = "the flags of modules are",
	.near = FN_NONE,
	.single = FS_NONE,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_BAD_FLAG,
	.tok_positional = REASON_BAD_FLAG,
	.tok_value = REASON_BAD_FLAG,
	.opts = FO_LONE_DASH | FO_NO_EQ,
	.remedy_on = FR_UNKNOWN | FR_POSITIONAL,
};

/* 0 parsed, 1 help asked (a help word anywhere), 2 refused (r has why). */
static int
parse_args(int argc, char **argv, int *json, struct refusals *r)
{
	struct modargs a = { 0 };
	int rc;

	if (flags_help(argc - 1, argv + 1, FH_PAST_DD))
		return 1;
	{
		struct flagspec s = modules_spec;
		struct cmdline line = cmdline_of("modules", argv + 1);

		s.line = &line;
		rc = flags_parse(&s, argc - 1, argv + 1, &a, r);
	}
	*json = a.json;
	if (rc < 0)
		refusals_add(r, REASON_SANDBOX_FAILED, "out of memory reading the "
			     "flags");
	return rc ? 2 : 0;
}

/* Out of descriptors while looking: a module "not available" followed
 * from that, so the one fd_limit refusal instead of the list.  1 said. */
static int
fd_refused(const struct cmdline *line, int json)
{
	struct refusals r = {0};
	int rc = wall_fd_refusal(&r, line);

	if (rc != 0)
		refused(&r, json);
	refusals_free(&r);
	return rc != 0;
}

static int
run_modules(const struct config *cfg, const struct cmdline *line, int json)
{
	struct modlist ml = { 0 };
	struct strv notes = { 0 };
	struct hostsvc hs = { .prefix = "MODULES", .err = stderr,
			      .cfg = cfg };
	int code;

	if (json)
		hs.notes = &notes;
	hostsvc_init(&hs);
	if (collect(cfg, &hs, &ml) < 0) {
		modlist_free(&ml);
		strv_free(&notes);
		out_refused("MODULES", REASON_SANDBOX_FAILED, "out of memory",
			    NULL);
		return NS_EXIT_USAGE;
	}
	code = ml.wall ? NS_EXIT_OK : NS_EXIT_NO_WALL;
	if (fd_refused(line, json))
		code = NS_EXIT_USAGE;
	else if (json)
		print_json(cfg, &ml, code);
	else
		print_text(cfg, &ml);
	modlist_free(&ml);
	strv_free(&notes);
	return code;
}

int
verb_modules(const struct hostrun *hr, int argc, char **argv)
{
	struct refusals r = { 0 };
	struct config cfg;
	int json = 0, rc;
	struct cmdline line = cmdline_of("modules", argv + 1);

	rc = parse_args(argc, argv, &json, &r);
	if (rc == 1)
		return usage(stdout);
	if (rc == 0) {
		rc = config_load(hr->config_path, hr->exe_dir, &cfg, &r);
		if (rc < 0 && r.n == 0)
			refusals_add(&r, REASON_SANDBOX_FAILED, "out of memory "
				     "reading the config");
		if (rc == 0)
			rc = run_modules(&cfg, &line, json);
		else if (!fd_refused(&line, json))
			rc = refused(&r, json);
		else
			rc = NS_EXIT_USAGE;
		config_free(&cfg);
	} else
		rc = refused(&r, json);
	refusals_free(&r);
	return rc;
}
