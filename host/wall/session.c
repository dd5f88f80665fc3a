/* SPDX-License-Identifier: MIT */
/* session.c -- the wall loading and policy input the verbs share. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out.h"
#include "base/remedy.h"
#include "os/os.h"
#include "wall/session.h"

#include "policy/toolchain.h"

void
wall_line(struct wallctx *w, const char *verb, char *const *args)
{
	w->line = cmdline_of(verb, args);
	w->hs.line = &w->line;
}

/* $SUDO_UID or $SUDO_GID when it names a user that is not root (sudo
 * sets them to the caller it came from), else NULL. */
static const char *
sudo_id(const char *var)
{
	const char *v = os_getenv(var);
	unsigned long long id;

	if (v == NULL || parse_u64(v, 0xfffffffeULL, &id) != 0 || id == 0)
		return NULL;
	return v;
}

/* The as-user words (os_as_user) for `line`'s lead: "; run: <words> ". */
static int
as_user_lead(struct sbuf *b)
{
	const struct os_as_user_word *w = os_as_user();
	const char *uid = sudo_id("SUDO_UID"), *gid = sudo_id("SUDO_GID");
	int rc = sbuf_add(b, "; run:");

	if (uid == NULL || gid == NULL) /* one without the other: fill both */
		uid = gid = NULL;
	for (; rc == 0 && w != NULL && w->text != NULL; w++) {
		struct sbuf word = {0};

		sbuf_addf(&word, "%s%s", w->text, w->id == 'u' ?
			  (uid ? uid : "<uid>") : w->id == 'g' ?
			  (gid ? gid : "<gid>") : "");
		rc = sbuf_failed(&word) || sbuf_add(b, " ") < 0 ||
		     out_shell_quote(b, word.s) < 0 ? -1 : 0;
		sbuf_free(&word);
	}
	return rc == 0 && sbuf_add(b, " ") == 0 ? 0 : -1;
}

int
wall_refuse_root(const struct cmdline *line, struct refusals *r)
{
	struct sbuf lead = {0};
	int rc;

	if (os_euid() != 0)
		return 0;
	rc = as_user_lead(&lead) < 0 ? -1 :
	     remedy_refuse_lead(r, REASON_AS_ROOT, NULL, line, NULL, lead.s,
				"nova-sandbox runs as root (euid 0) and the "
				"wall is for an unprivileged user: a command "
				"is never walled as root; run it as the user "
				"it is for, or use nova-sandbox run, which is "
				"for root (it runs the command as an "
				"unprivileged uid in a place of its own)");
	sbuf_free(&lead);
	if (rc < 0)
		refusals_oom(r);
	return rc < 0 ? -1 : 1;
}

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
	move_strv(&in->net_allow_files, &a->net_allow_files);
	move_strv(&in->argv, &a->argv);
	move_strv(&in->env_keep, &a->env_keep);
	move_strv(&in->protect, &a->protect);
	move_strv(&in->unprotect, &a->unprotect);
	a->env_deny_n = a->env_deny.n;
	move_strv(&in->env_deny, &a->env_deny);
	in->env_clear = a->env_clear;
	in->cwd = a->cwd;
	in->caller_cwd = getcwd(w->cwd_buf, sizeof(w->cwd_buf));
	in->tmp = a->tmp;
	in->name = a->name;
	in->gpu = a->gpu;
	in->net_deny = a->net_deny;
	in->net_listen = a->net_listen;
	in->saw_dashdash = a->saw_dashdash;
	in->home = os_getenv(os_home_var());
	in->path = os_getenv("PATH");
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

static int
named_already(const struct policy_input *in, const char *p)
{
	return strv_contains(&in->reads, p) ||
	       strv_contains(&in->reads_noexec, p) ||
	       strv_contains(&in->writes, p);
}

int
wall_toolchains(struct wallctx *w, const struct strv *names,
		struct policy_input *in, struct strv *notes,
		struct refusals *r)
{
	struct cmdline line = cmdline_of(in->verb, in->remedy_args);
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < names->n; i++) {
		struct toolchain_ctx x = { in->path, in->env,
					   w->roots.read_roots, &in->writes,
					   &line };
		struct toolchain_found f = {0};
		char *note;
		int got;

		if (strv_contains(&in->toolchain_reads, names->v[i]))
			continue;
		got = toolchain_discover(names->v[i], &x, &f, r);
		if (got < 0)
			rc = -1;
		for (size_t k = 0; got == 0 && k < f.roots.n; k++)
			if (!named_already(in, f.roots.v[k]) &&
			    (strv_push(&in->reads, f.roots.v[k]) < 0 ||
			     strv_push(&in->toolchain_reads, f.roots.v[k]) < 0))
				rc = -1;
		if (got == 0 && ((note = toolchain_note(names->v[i], &f)) ==
				 NULL || strv_push(notes, note) < 0))
			rc = -1;
		for (size_t k = 0; got == 0 && k < f.notes.n; k++)
			if (strv_push(notes, f.notes.v[k]) < 0)
				rc = -1;
		if (got == 0)
			free(note);
		toolchain_found_free(&f);
	}
	return rc;
}
