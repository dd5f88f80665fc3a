/* SPDX-License-Identifier: MIT */
/* session.c -- the wall loading and policy input the verbs share. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "wall/session.h"

int
wall_open(struct wallctx *w, const struct hostrun *hr, const char *prefix)
{
	int rc;

	hostsvc_init(&w->hs);
	w->hs.prefix = prefix;
	w->hs.err = stderr;
	w->hs.refusals = &w->r;
	w->hs.notes = &w->notes;
	w->hs.text = &w->text;
	w->hs.cfg = &w->cfg;
	rc = config_load(hr->config_path, hr->exe_dir, &w->cfg, &w->r);
	if (rc != 0)
		return rc;
	rc = loader_select_wall(&w->cfg, &w->hs.host, &w->mod, &w->facts,
				&w->r);
	if (rc != 0)
		return rc;
	w->loaded = 1;
	refusals_free(&w->r); /* the modules tried before the one chosen */
	w->hs.stem = w->mod.stem;
	w->roots.read_roots = w->mod.wall.read_roots;
	w->roots.write_files = w->mod.wall.write_files;
	w->roots.optional_roots = w->mod.wall.optional_roots;
	w->roots.system_prefixes = w->mod.wall.system_prefixes;
	w->roots.resolver_conf = w->mod.wall.resolver_conf;
	return 0;
}

void
wall_close(struct wallctx *w)
{
	if (w->loaded)
		module_free(&w->mod);
	w->loaded = 0;
	config_free(&w->cfg);
	refusals_free(&w->r);
	strv_free(&w->notes);
	sbuf_free(&w->text);
}

/* The move keeps a failed list failed (its oom flag goes with it): the
 * policy builder refuses it whole. */
static void
move_strv(struct strv *to, struct strv *from)
{
	*to = *from;
	memset(from, 0, sizeof(*from));
}

int
wait_exit_code(int st)
{
	int code, how = os_wait_status(st, &code);

	return how > 0 ? code : how == 0 ? NS_EXIT_SIGNAL + code :
	       NS_EXIT_REFUSED;
}

int
wall_input(struct wallctx *w, const struct hostrun *hr, struct args *a,
	   struct policy_input *in)
{
	move_strv(&in->reads, &a->reads);
	move_strv(&in->reads_noexec, &a->reads_noexec);
	move_strv(&in->writes, &a->writes);
	move_strv(&in->net_allow, &a->net_allow);
	move_strv(&in->argv, &a->argv);
	in->cwd = a->cwd;
	in->tmp = a->tmp;
	in->name = a->name;
	in->gpu = a->gpu;
	in->net_deny = a->net_deny;
	in->net_listen = a->net_listen;
	in->saw_dashdash = a->saw_dashdash;
	in->home = getenv(os_home_var());
	in->path = getenv("PATH");
	in->env = hr->env;
	in->roots = &w->roots;
	in->create_tmp = 1;
	in->stdio_ttys = 1; /* wrap and policy: the command gets fds 0-2 */
	in->homes_on_demand = 1; /* looked up only if the guard needs them */
	return 0;
}

void
wall_print_notes(struct wallctx *w, const char *prefix)
{
	for (size_t i = 0; i < w->notes.n; i++)
		out_note(prefix, w->notes.v[i]);
	strv_free(&w->notes);
}

const char *
wall_net_word(int net_deny)
{
	return net_deny ? "denied" : "nopromise";
}
