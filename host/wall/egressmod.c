/* SPDX-License-Identifier: MIT */
/* egressmod.c -- the configured egress module opened for a verb, and the
 * live-table check of `run --egress <id>` (docs/SPEC-SANDBOX.md section
 * 12).  The module owns the kernel; this file only loads it and reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egress/allowlist.h"
#include "wall/egressmod.h"

static int
egress_load(struct egress_mod *e, struct refusals *r)
{
	enum load_status ls;
	char *why = NULL, *hint;

	ls = loader_load(&e->cfg, e->cfg.egress.v[0], NS_ROLE_EGRESS, &e->m,
			 &why);
	if (ls == LOAD_OK)
		return 0;
	hint = loader_install_hint(&loader_built_how, e->cfg.egress.v[0], ls);
	refusals_addr(r, REASON_NO_EGRESS, hint ? REMEDY_IN_TEXT : NULL,
		      "the egress module %s was refused: %s: %s%s%s",
		      e->cfg.egress.v[0], load_status_token(ls),
		      why ? why : "-", hint ? "; " : "", hint ? hint : "");
	free(hint);
	free(why);
	return -1;
}

int
egress_mod_open(struct egress_mod *e, const struct hostrun *hr,
		const char *prefix, struct refusals *r)
{
	hostsvc_init(&e->hs);
	e->hs.prefix = prefix;
	e->hs.err = stderr;
	e->hs.refusals = r;
	e->hs.text = &e->text;
	e->hs.cfg = &e->cfg;
	if (config_load(hr->config_path, hr->exe_dir, &e->cfg, r) != 0)
		return -1;
	if (e->cfg.egress.n == 0)
		return refusals_add(r, REASON_NO_EGRESS, "no egress module is "
				    "configured for %s (the config's [%s] "
				    "egress = <file>)", e->cfg.platform,
				    e->cfg.platform), -1;
	if (egress_load(e, r) < 0)
		return -1;
	e->loaded = 1;
	e->hs.stem = e->m.stem;
	if (config_check_options(&e->cfg, e->m.stem, e->m.ops.options, r) > 0)
		return -1;
	if (e->m.egress.ready(&e->hs.host) != NS_OK) {
		if (r->n == 0)
			refusals_add(r, REASON_NO_EGRESS, "the egress module is "
				     "not usable here");
		return -1;
	}
	return 0;
}

void
egress_mod_close(struct egress_mod *e)
{
	if (e->loaded)
		module_free(&e->m);
	config_free(&e->cfg);
	sbuf_free(&e->text);
}

/* The table's text from the module into e->text: 0, or -1 with why in
 * mine (the module's own refusals: no_table, no_privilege, ...). */
static int
read_table(struct egress_mod *e, const struct hostrun *hr, const char *id,
	   struct refusals *mine)
{
	if (egress_mod_open(e, hr, "SANDBOX", mine) < 0)
		return -1;
	if (e->m.egress.read_live(&e->hs.host, id) != NS_OK) {
		if (mine->n == 0)
			refusals_add(mine, REASON_SANDBOX_FAILED, "read_live "
				     "failed without a reason");
		return -1;
	}
	if (sbuf_failed(&e->text))
		return refusals_add(mine, REASON_SANDBOX_FAILED, "out of memory "
				    "reading the table"), -1;
	return 0;
}

static int
no_privilege(const struct refusals *mine)
{
	return mine->n > 0 && strcmp(mine->v[0].reason, REASON_NO_PRIVILEGE) == 0;
}

int
egress_live_table(const struct hostrun *hr, const char *id,
		  struct refusals *r)
{
	struct egress_mod e;
	struct egress_audit au;
	struct refusals mine = {0};
	char table[64];
	int rc = 0;

	memset(&e, 0, sizeof(e));
	egress_table_name(id, table, sizeof(table));
	if (read_table(&e, hr, id, &mine) < 0)
		rc = 1;
	else if (egress_audit(e.text.s ? e.text.s : "", e.text.len, &au,
			      &mine) != 0)
		rc = 2;
	if (rc != 0 && refusals_add(r, REASON_NO_EGRESS_TABLE, "--egress %s: "
				    "table inet %s %s (%s: %s); nothing was "
				    "made: %s%s%s or leave --egress out", id,
				    table, rc == 1 ? "cannot be read live" :
				    "is live but fails the audit",
				    mine.n ? mine.v[0].reason : "-",
				    mine.n ? mine.v[0].text : "-",
				    no_privilege(&mine) ? "start run as root "
				    "(reading the table needs CAP_NET_ADMIN)" :
				    "apply the plan first (nova-sandbox egress "
				    "apply --plan <file> --run ",
				    no_privilege(&mine) ? "" : id,
				    no_privilege(&mine) ? "" : ", as root)") < 0)
		rc = -1;
	if (refusals_failed(&mine))
		rc = -1;
	refusals_free(&mine);
	egress_mod_close(&e);
	return rc < 0 ? -1 : rc != 0;
}
