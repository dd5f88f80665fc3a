/* SPDX-License-Identifier: MIT */
/* loader.c -- finding, checking and loading modules (see loader.h). */
#include "module/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"

static const char *const status_tokens[] = {
	[LOAD_OK] = "ok",
	[LOAD_NOT_FOUND] = "not_found",
	[LOAD_NOT_REGULAR] = "not_regular",
	[LOAD_UNSAFE] = "unsafe_owner_or_mode",
	[LOAD_NOT_LOADABLE] = "not_loadable",
	[LOAD_NO_ENTRY] = "no_entry",
	[LOAD_BAD_MAGIC] = "bad_magic",
	[LOAD_ABI_MAJOR] = "abi_major",
	[LOAD_ABI_MINOR] = "abi_minor",
	[LOAD_STRUCT_SIZE] = "struct_too_small",
	[LOAD_MISSING_OP] = "missing_op",
	[LOAD_NO_ROLE] = "wrong_role",
	[LOAD_BAD_NAME] = "bad_name",
	[LOAD_UNAVAILABLE] = "unavailable",
	[LOAD_BAD_OPTION] = "bad_option",
	[LOAD_WRONG_MACHINE] = "wrong_machine",
};

const char *
load_status_token(enum load_status st)
{
	if ((size_t)st >= sizeof(status_tokens) / sizeof(status_tokens[0]))
		return "internal";
	return status_tokens[st];
}

static enum load_status
trust_status(enum os_trust t)
{
	switch (t) {
	case OS_TRUST_OK:
		return LOAD_OK;
	case OS_TRUST_WRONG_TYPE:
		return LOAD_NOT_REGULAR;
	default:
		return LOAD_UNSAFE;
	}
}

/* ---- finding and opening ------------------------------------------------ */

static enum load_status
resolve(const struct config *cfg, const char *file, char **path, char **why)
{
	if (os_is_absolute(file))
		*path = strdup(file);
	else if (!os_has_sep(file, strlen(file)))
		*path = str_fmt("%s/%s", cfg->moduledir ? cfg->moduledir : ".",
			    file);
	else {
		*why = str_fmt("\"%s\" is neither a bare file name (looked up in "
			   "the module directory) nor an absolute path", file);
		return LOAD_NOT_FOUND;
	}
	return *path ? LOAD_OK : LOAD_NOT_LOADABLE;
}

static enum load_status
open_module(const char *path, int *fd, char **why)
{
	*fd = os_open_own(path, 0);
	if (*fd >= 0)
		return trust_status(os_trust_fd(*fd, path, 1, why));
	if (errno == ENOENT || errno == ENOTDIR) {
		*why = str_fmt("no such file");
		return LOAD_NOT_FOUND;
	}
	if (errno == ELOOP) {
		*why = str_fmt("%s is a symbolic link; name the file itself", path);
		return LOAD_NOT_REGULAR;
	}
	*why = str_fmt("cannot open %s: %s", path, strerror(errno));
	return LOAD_NOT_LOADABLE;
}

static const struct ns_backend_ops *
entry(void *dl, const char *path, enum load_status *ls, char **why)
{
	const struct ns_backend_ops *raw = os_module_sym(dl, NS_BACKEND_SYMBOL);
	char sym[32];

	if (raw != NULL)
		return raw;
	for (int v = 2; v <= 9; v++) {
		snprintf(sym, sizeof(sym), "ns_backend_v%d", v);
		if (os_module_sym(dl, sym) != NULL) {
			*ls = LOAD_ABI_MAJOR;
			*why = str_fmt("module targets ABI %d; this host speaks ABI "
				   "%d (it exports %s, not %s)", v,
				   NS_BACKEND_ABI_MAJOR, sym, NS_BACKEND_SYMBOL);
			return NULL;
		}
	}
	*ls = LOAD_NO_ENTRY;
	*why = str_fmt("%s exports no %s: not a nova-sandbox module", path,
		   NS_BACKEND_SYMBOL);
	return NULL;
}

/* ---- validating the descriptor (no module code runs) -------------------- */

struct opreq {
	const char *name;
	size_t off;
};

static const struct opreq wall_req[] = {
	{ "facts", offsetof(struct ns_wall_ops, facts) },
	{ "prepare", offsetof(struct ns_wall_ops, prepare) },
	{ "render", offsetof(struct ns_wall_ops, render) },
	{ "spawn", offsetof(struct ns_wall_ops, spawn) },
	{ NULL, 0 },
};
static const struct opreq egress_req[] = {
	{ "ready", offsetof(struct ns_egress_ops, ready) },
	{ "apply", offsetof(struct ns_egress_ops, apply) },
	{ "read_live", offsetof(struct ns_egress_ops, read_live) },
	{ "drop", offsetof(struct ns_egress_ops, drop) },
	{ NULL, 0 },
};
static const struct opreq place_req[] = {
	{ "look", offsetof(struct ns_place_ops, look) },
	{ "create", offsetof(struct ns_place_ops, create) },
	{ "used", offsetof(struct ns_place_ops, used) },
	{ "destroy", offsetof(struct ns_place_ops, destroy) },
	{ "list", offsetof(struct ns_place_ops, list) },
	{ NULL, 0 },
};

static const struct opreq proxy_req[] = {
	{ "ready", offsetof(struct ns_proxy_ops, ready) },
	{ "serve", offsetof(struct ns_proxy_ops, serve) },
	{ NULL, 0 },
};

struct role_desc {
	unsigned bit;
	const char *name;
	size_t table_off; /* the table pointer in struct ns_backend_ops */
	size_t copy_off;  /* the host copy in struct module */
	size_t min_size;
	size_t host_size;
	const struct opreq *req;
};

static const struct role_desc roles[] = {
	{ NS_ROLE_WALL, "wall", offsetof(struct ns_backend_ops, wall),
	  offsetof(struct module, wall), NS_WALL_OPS_SIZE_1_0,
	  sizeof(struct ns_wall_ops), wall_req },
	{ NS_ROLE_EGRESS, "egress", offsetof(struct ns_backend_ops, egress),
	  offsetof(struct module, egress), NS_EGRESS_OPS_SIZE_1_0,
	  sizeof(struct ns_egress_ops), egress_req },
	{ NS_ROLE_PLACE, "place", offsetof(struct ns_backend_ops, place),
	  offsetof(struct module, place), NS_PLACE_OPS_SIZE_1_0,
	  sizeof(struct ns_place_ops), place_req },
	{ NS_ROLE_PROXY, "proxy", offsetof(struct ns_backend_ops, proxy),
	  offsetof(struct module, proxy), NS_PROXY_OPS_SIZE_1_5,
	  sizeof(struct ns_proxy_ops), proxy_req },
};
#define N_ROLES (sizeof(roles) / sizeof(roles[0]))

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static enum load_status
check_header(const struct ns_backend_ops *raw, char **why)
{
	if (raw->magic != NS_BACKEND_MAGIC) {
		*why = str_fmt("descriptor magic is 0x%08x, not 0x%08x: not a "
			   "nova-sandbox module", (unsigned)raw->magic,
			   NS_BACKEND_MAGIC);
		return LOAD_BAD_MAGIC;
	}
	if (raw->abi_major != NS_BACKEND_ABI_MAJOR) {
		*why = str_fmt("module targets ABI %u; this host speaks ABI %d",
			   (unsigned)raw->abi_major, NS_BACKEND_ABI_MAJOR);
		return LOAD_ABI_MAJOR;
	}
	if (raw->abi_minor > NS_BACKEND_ABI_MINOR) {
		*why = str_fmt("module needs ABI %u.%u; this host speaks ABI %d.%d "
			   "(a newer module may need what this host lacks); "
			   "upgrade nova-sandbox", (unsigned)raw->abi_major,
			   (unsigned)raw->abi_minor, NS_BACKEND_ABI_MAJOR,
			   NS_BACKEND_ABI_MINOR);
		return LOAD_ABI_MINOR;
	}
	if (raw->struct_size < NS_BACKEND_OPS_SIZE_1_0) {
		*why = str_fmt("descriptor is %u bytes, smaller than the %zu of ABI "
			   "1.0", (unsigned)raw->struct_size,
			   (size_t)NS_BACKEND_OPS_SIZE_1_0);
		return LOAD_STRUCT_SIZE;
	}
	return LOAD_OK;
}

static int
good_name(const char *s)
{
	size_t n;

	if (s == NULL)
		return 0;
	n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	return n >= 1 && n <= 32 && s[n] == '\0';
}

static enum load_status
check_strings(const struct ns_backend_ops *ops, char **why)
{
	if (!good_name(ops->name)) {
		*why = str_fmt("module name is not 1 to 32 of [a-z0-9_-]");
		return LOAD_BAD_NAME;
	}
	if (ops->version == NULL || ops->version[0] == '\0' ||
	    strnlen(ops->version, 65) > 64) {
		*why = str_fmt("module %s has an empty or over-long version",
			   ops->name);
		return LOAD_BAD_NAME;
	}
	return LOAD_OK;
}

static const char *
role_name(unsigned bit)
{
	for (size_t i = 0; i < N_ROLES; i++)
		if (roles[i].bit == bit)
			return roles[i].name;
	return "any";
}

static enum load_status
check_roles(const struct ns_backend_ops *ops, unsigned role, char **why)
{
	unsigned have = ops->roles & (NS_ROLE_WALL | NS_ROLE_EGRESS |
				      NS_ROLE_PLACE | NS_ROLE_PROXY);

	if (have == 0 || (role != 0 && (have & role) == 0)) {
		struct sbuf b = { 0 };

		for (size_t i = 0; i < N_ROLES; i++)
			if (have & roles[i].bit)
				sbuf_addf(&b, "%s%s", b.len ? "," : "",
					  roles[i].name);
		*why = str_fmt("module %s serves %s, not %s", ops->name,
			   b.len ? b.s : "no role", role_name(role));
		sbuf_free(&b);
		return LOAD_NO_ROLE;
	}
	return LOAD_OK;
}

static enum load_status
check_ops(const struct role_desc *rd, const unsigned char *copy,
	  const char *name, char **why)
{
	for (const struct opreq *q = rd->req; q->name != NULL; q++) {
		void (*fn)(void);

		memcpy(&fn, copy + q->off, sizeof(fn));
		if (fn == NULL) {
			*why = str_fmt("module %s: its %s table lacks the required "
				   "operation %s", name, rd->name, q->name);
			return LOAD_MISSING_OP;
		}
	}
	return LOAD_OK;
}

/* Copy one role table into m, size-aware, and check it. */
static enum load_status
take_table(const struct role_desc *rd, struct module *m, char **why)
{
	const void *table;
	uint32_t size;
	unsigned char *copy = (unsigned char *)m + rd->copy_off;

	memcpy(&table, (const unsigned char *)&m->ops + rd->table_off,
	       sizeof(table));
	if (table == NULL) {
		*why = str_fmt("module %s declares role %s but its %s table is "
			   "NULL", m->ops.name, rd->name, rd->name);
		return LOAD_MISSING_OP;
	}
	memcpy(&size, table, sizeof(size));
	if (size < rd->min_size) {
		*why = str_fmt("module %s: its %s table is %u bytes, smaller than "
			   "the %zu of ABI 1.0", m->ops.name, rd->name,
			   (unsigned)size, rd->min_size);
		return LOAD_STRUCT_SIZE;
	}
	memset(copy, 0, rd->host_size);
	memcpy(copy, table, min_size(size, rd->host_size));
	return check_ops(rd, copy, m->ops.name, why);
}

static enum load_status
validate(const struct ns_backend_ops *raw, unsigned role, struct module *m,
	 char **why)
{
	enum load_status ls = check_header(raw, why);

	if (ls != LOAD_OK)
		return ls;
	memset(&m->ops, 0, sizeof(m->ops));
	memcpy(&m->ops, raw, min_size(raw->struct_size, sizeof(m->ops)));
	ls = check_strings(&m->ops, why);
	if (ls == LOAD_OK)
		ls = check_roles(&m->ops, role, why);
	for (size_t i = 0; ls == LOAD_OK && i < N_ROLES; i++)
		if (m->ops.roles & roles[i].bit)
			ls = take_table(&roles[i], m, why);
	return ls;
}

/* ---- loading ------------------------------------------------------------ */

static enum load_status
load_checked(int fd, unsigned role, struct module *m, char **why)
{
	const struct ns_backend_ops *raw;
	enum load_status ls = LOAD_OK;

	m->dl = os_module_open(fd, m->path, why);
	if (m->dl == NULL)
		return LOAD_NOT_LOADABLE;
	raw = entry(m->dl, m->path, &ls, why);
	if (raw != NULL)
		ls = validate(raw, role, m, why);
	if (ls != LOAD_OK) {
		/* no module function has been called: closing is safe */
		os_module_close(m->dl);
		m->dl = NULL;
	}
	return ls;
}

enum load_status
loader_load(const struct config *cfg, const char *file, unsigned role,
	    struct module *m, char **why)
{
	enum load_status ls;
	int fd = -1;

	memset(m, 0, sizeof(*m));
	*why = NULL;
	m->file = strdup(file);
	m->stem = config_stem(file);
	if (m->file == NULL || m->stem == NULL)
		return LOAD_NOT_LOADABLE;
	ls = resolve(cfg, file, &m->path, why);
	if (ls == LOAD_OK)
		ls = open_module(m->path, &fd, why);
	if (ls == LOAD_NOT_FOUND && !os_has_sep(file, strlen(file))) {
		free(*why);
		*why = str_fmt("no such file in the module directory %s",
			   cfg->moduledir ? cfg->moduledir : ".");
	}
	if (ls == LOAD_OK && os_module_machine(fd, why) != 0)
		ls = LOAD_WRONG_MACHINE;
	if (ls == LOAD_OK)
		ls = load_checked(fd, role, m, why);
	/* What was loaded is the platform's copy or image (os_module_open
	 * keeps what it needs): the checked file itself is not kept. */
	if (fd >= 0)
		close(fd);
	if (ls != LOAD_OK && *why == NULL)
		*why = strdup("out of memory");
	return ls;
}

void
module_free(struct module *m)
{
	free(m->file);
	free(m->path);
	free(m->stem);
	memset(m, 0, sizeof(*m));
}

/* ---- facts and the wall for a run --------------------------------------- */

/* The host a module sees during facts(): refusals are kept as the why. */
struct shim {
	struct ns_host host;
	const struct ns_host *up;
	const struct config *cfg;
	const char *stem;
	struct sbuf refused;
};

static void
shim_note(void *cookie, const char *text)
{
	struct shim *s = cookie;

	if (s->up != NULL && s->up->note != NULL)
		s->up->note(s->up->cookie, text);
}

static void
shim_refuse(void *cookie, const char *reason, const char *text)
{
	struct shim *s = cookie;

	sbuf_addf(&s->refused, "%s%s: %s", s->refused.len ? "; " : "",
		  reason ? reason : REASON_SANDBOX_FAILED, text ? text : "");
}

static void
shim_text(void *cookie, const char *line)
{
	(void)cookie;
	(void)line;
}

static const char *
shim_option(void *cookie, const char *key)
{
	struct shim *s = cookie;

	return config_option(s->cfg, s->stem, key);
}

static char *
refusal_texts(const struct refusals *r)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < r->n; i++)
		sbuf_addf(&b, "%s%s", i ? "; " : "", r->v[i].text);
	return sbuf_take(&b);
}

static enum load_status
call_facts(struct shim *s, const struct module *m,
	   struct ns_wall_facts *facts, char **why)
{
	int rc;

	memset(facts, 0, sizeof(*facts));
	facts->struct_size = sizeof(*facts);
	rc = m->wall.facts(&s->host, facts);
	facts->why[sizeof(facts->why) - 1] = '\0';
	facts->note[sizeof(facts->note) - 1] = '\0';
	facts->clamp[sizeof(facts->clamp) - 1] = '\0';
	facts->abi[sizeof(facts->abi) - 1] = '\0';
	facts->used[sizeof(facts->used) - 1] = '\0';
	if (rc != NS_OK) {
		*why = s->refused.len ? strdup(s->refused.s)
				      : str_fmt("facts() failed (status %d) and "
					    "said nothing", rc);
		return LOAD_UNAVAILABLE;
	}
	if (!facts->available) {
		*why = strdup(facts->why[0] ? facts->why
				: "the module says it is unavailable here "
				  "and gave no reason");
		return LOAD_UNAVAILABLE;
	}
	return LOAD_OK;
}

enum load_status
loader_wall_facts(const struct config *cfg, const struct ns_host *host,
		  const struct module *m, struct ns_wall_facts *facts,
		  char **why)
{
	struct refusals r = { 0 };
	struct shim s = { .up = host, .cfg = cfg, .stem = m->stem };
	enum load_status ls;

	*why = NULL;
	if (config_check_options(cfg, m->stem, m->ops.options, &r) > 0) {
		*why = refusal_texts(&r);
		refusals_free(&r);
		return LOAD_BAD_OPTION;
	}
	refusals_free(&r);
	s.host.struct_size = sizeof(s.host);
	s.host.abi_major = NS_BACKEND_ABI_MAJOR;
	s.host.abi_minor = NS_BACKEND_ABI_MINOR;
	s.host.cookie = &s;
	s.host.note = shim_note;
	s.host.refuse = shim_refuse;
	s.host.text = shim_text;
	s.host.option = shim_option;
	ls = call_facts(&s, m, facts, why);
	sbuf_free(&s.refused);
	if (ls != LOAD_OK && *why == NULL)
		*why = strdup("out of memory");
	return ls;
}

/* ---- how a missing module is installed ---------------------------------- */

/* The Makefile's INSTALLED_BY and the module files the build installs
 * (NS_INSTALL_FILES); a build without them (another build system) gives
 * no install line: no module is known to be installed by it. */
#ifndef NS_INSTALLED_BY
#define NS_INSTALLED_BY "source"
#endif
#ifndef NS_INSTALL_FILES
#define NS_INSTALL_FILES ""
#endif
#ifndef NS_INSTALL_PREFIX
#define NS_INSTALL_PREFIX ""
#endif

const struct install_how loader_built_how = {
	NS_INSTALLED_BY, NS_INSTALL_FILES, NS_INSTALL_PREFIX
};

/* One way of installing: what to do, and the command before the stem
 * (`make` 1: the build's PREFIX when it has one, then MODULES=). */
static const struct install_kind {
	const char *by;
	const char *what;
	const char *cmd;
	int make;
} install_kinds[] = {
	{ "debian", "install its package", "apt install nova-sandbox-", 0 },
	{ "source", "install it from the nova-sandbox source tree",
	  "make install ", 1 },
};

/* Is `file` an entry of the comma-separated list `files`? */
static int
file_listed(const char *files, const char *file)
{
	size_t n = strlen(file);

	for (const char *p = files; *p != '\0'; ) {
		size_t k;

		p += strspn(p, ",");
		k = strcspn(p, ",");
		if (k == n && k > 0 && strncmp(p, file, n) == 0)
			return 1;
		p += k;
	}
	return 0;
}

char *
loader_install_hint(const struct install_how *h, const char *file,
		    enum load_status ls)
{
	const struct install_kind *kind = NULL;
	char *stem, *hint;
	int pre;

	if (ls != LOAD_NOT_FOUND || os_has_sep(file, strlen(file)) ||
	    h->files == NULL || !file_listed(h->files, file))
		return NULL;
	for (size_t i = 0; i < sizeof(install_kinds) / sizeof(*install_kinds);
	     i++)
		if (h->by != NULL && strcmp(h->by, install_kinds[i].by) == 0)
			kind = &install_kinds[i];
	if (kind == NULL || (stem = config_stem(file)) == NULL)
		return NULL;
	pre = kind->make && h->prefix != NULL && *h->prefix != '\0';
	hint = str_fmt("%s; run: %s%s%s%s%s%s", kind->what, kind->cmd,
		       pre ? "PREFIX=" : "", pre ? h->prefix : "",
		       pre ? " " : "", kind->make ? "MODULES=" : "", stem);
	free(stem);
	return hint;
}

/* A module of `role` refused: "<role> module <file> refused (<status>):
 * <why>[; <from>]", then the install line where the build knows one
 * (carried in the text), else the verb's remedy. */
static void
refuse_module(struct refusals *r, const char *role, const char *shown,
	      const char *file, enum load_status ls, const char *why,
	      const char *from)
{
	char *hint = loader_install_hint(&loader_built_how, file, ls);

	refusals_addr(r, REASON_NO_SANDBOX, hint ? REMEDY_IN_TEXT : NULL,
		      "%s module %s refused (%s): %s%s%s%s%s", role, shown,
		      load_status_token(ls), why ? why : "", from ? "; " : "",
		      from ? from : "", hint ? "; " : "", hint ? hint : "");
	free(hint);
}

int
loader_select_proxy(const struct config *cfg, struct module *m,
		    struct strv *why_not)
{
	for (size_t i = 0; i < cfg->proxy.n; i++) {
		char *why = NULL;
		enum load_status ls = loader_load(cfg, cfg->proxy.v[i],
						  NS_ROLE_PROXY, m, &why);
		char *hint = ls == LOAD_OK ? NULL :
			     loader_install_hint(&loader_built_how,
						 cfg->proxy.v[i], ls);

		if (ls == LOAD_OK) {
			free(why);
			return 0;
		}
		strv_pushf(why_not, "proxy module %s refused (%s): %s%s%s",
			   m->path ? m->path : cfg->proxy.v[i],
			   load_status_token(ls), why ? why : "",
			   hint ? "; " : "", hint ? hint : "");
		free(hint);
		free(why);
		module_free(m);
	}
	return 1;
}

/* Where the config named wall entry i (heap): "named by <file>:<line>",
 * or the compiled-in default. */
static char *
wall_from(const struct config *cfg, size_t i)
{
	const char *f = i < cfg->wall_from.n ? cfg->wall_from.v[i] : "default";

	if (strcmp(f, "default") == 0)
		return strdup("the compiled-in default wall");
	return str_fmt("named by %s", f);
}

int
loader_select_wall(const struct config *cfg, const struct ns_host *host,
		   struct module *m, struct ns_wall_facts *facts,
		   struct refusals *r)
{
	for (size_t i = 0; i < cfg->wall.n; i++) {
		char *why = NULL, *from;
		enum load_status ls;

		ls = loader_load(cfg, cfg->wall.v[i], NS_ROLE_WALL, m, &why);
		if (ls == LOAD_OK)
			ls = loader_wall_facts(cfg, host, m, facts, &why);
		if (ls == LOAD_OK)
			return 0;
		from = wall_from(cfg, i);
		refuse_module(r, "wall", m->path ? m->path : cfg->wall.v[i],
			      cfg->wall.v[i], ls, why, from ? from : "-");
		free(from);
		free(why);
		module_free(m);
	}
	if (cfg->wall.n == 0)
		refusals_add(r, REASON_NO_SANDBOX, "no wall module is configured for "
			     "%s in %s; name one as wall = <file> in [%s]",
			     cfg->platform, cfg->path ? cfg->path : "defaults",
			     cfg->platform);
	return 1;
}

int
loader_select_place(const struct config *cfg, struct module *m,
		    struct refusals *r)
{
	char *why = NULL;

	if (cfg->place.n == 0)
		return refusals_add(r, REASON_NO_SANDBOX, "no place module is "
				    "configured for %s; add place = nsplace.so "
				    "to its section of the config",
				    cfg->platform), 1;
	for (size_t i = 0; i < cfg->place.n; i++) {
		enum load_status ls = loader_load(cfg, cfg->place.v[i],
						  NS_ROLE_PLACE, m, &why);

		if (ls == LOAD_OK) {
			free(why);
			return config_check_options(cfg, m->stem,
						    m->ops.options, r) ? 2 : 0;
		}
		refuse_module(r, "place", cfg->place.v[i], cfg->place.v[i], ls,
			      why, NULL);
		free(why);
		why = NULL;
	}
	return 1;
}
