/* SPDX-License-Identifier: MIT */
/* reap.c -- `nova-sandbox reap [--dry-run]` (reference section 9):
 * clear the places a SIGKILLed run left, generic over place.list(); a
 * live run's place is never touched. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "conf/config.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "os/os.h"
#include "wall/args.h"
#include "wall/session.h"
#include "run/lines.h"
#include "run/handoff.h"
#include "run/runargs.h"
#include "verbs/reap.h"
#include "verbs/verbs.h"

#define REAP_MAX_HOLDERS 4096

struct reapctx {
	struct config cfg;
	struct module pm;
	struct hostsvc hs;
	struct refusals r;
	struct sbuf text;
	int dry;
	size_t volumes, remained;
	const char *out; /* the --out a gone hand-off recorded, being swept */
	char **args;     /* the caller's words after `reap` (fd_limit's line) */
};

/* ---- pure -------------------------------------------------------------- */

static char *
field(char **p, const char *key)
{
	size_t k = strlen(key);
	char *v, *sp;

	if (strncmp(*p, key, k) != 0 || (*p)[k] != '=')
		return NULL;
	v = *p + k + 1;
	sp = strchr(v, ' ');
	if (sp != NULL)
		*sp++ = '\0';
	*p = sp != NULL ? sp : v + strlen(v);
	return v;
}

int
reap_parse_line(char *line, struct reap_entry *e)
{
	char *p = line, *owner, *end;

	memset(e, 0, sizeof(*e));
	e->name = field(&p, "name");
	e->id = field(&p, "id");
	if (e->name == NULL || e->id == NULL || !*e->name || !*e->id)
		return -1;
	if (strncmp(p, "root=", 5) == 0)
		e->root = field(&p, "root");
	owner = field(&p, "owner");
	if (owner == NULL || strncmp(p, "start=", 6) != 0)
		return -1;
	e->start = p + 6;
	errno = 0;
	e->owner = strtol(owner, &end, 10);
	if (errno || end == owner || *end || e->owner <= 0)
		e->owner = -1;
	return 0;
}

int
reap_is_live(const struct reap_entry *e, int alive, int start_rc,
	     const char *now)
{
	if (e->owner <= 0 || !alive)
		return 0;
	if (start_rc != 0)
		return 1; /* unreadable: never take a possibly live run's */
	return strcmp(e->start, "-") != 0 && strcmp(e->start, now) == 0;
}

/* ---- effects ------------------------------------------------------------ */

static int
pid_alive(long pid)
{
	return os_pid_alive(pid);
}

static void
reap_line(const char *name, size_t procs, int deleted)
{
	char *n = out_field(name);

	out_kind(stderr, "SANDBOX", OUT_REAP, "volume=%s procs=%zu deleted=%s",
		 n ? n : "-", procs, deleted ? "yes" : "no");
	free(n);
}

/* Never init, never the tool itself, whatever the module listed. */
static int
signallable(int64_t pid)
{
	return pid > 1 && pid != (int64_t)getpid();
}

static size_t
alive_count(const int64_t *pids, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (signallable(pids[i]) && pid_alive((long)pids[i]))
			k++;
	return k;
}

size_t
reap_grace(const int64_t *pids, size_t n, unsigned ms)
{
	struct timespec step = { 0, 20 * 1000000L };
	size_t left = alive_count(pids, n);

	for (unsigned waited = 0; left > 0 && waited < ms; waited += 20) {
		nanosleep(&step, NULL); /* EINTR: an early look, no harm */
		left = alive_count(pids, n);
	}
	return left;
}

static void
fill_place(const struct reap_entry *e, struct ns_place *pl)
{
	memset(pl, 0, sizeof(*pl));
	pl->struct_size = sizeof(*pl);
	pl->root_fd = -1;
	snprintf(pl->root, sizeof(pl->root), "%s", e->root ? e->root : "");
	snprintf(pl->id, sizeof(pl->id), "%s", e->id);
}

static int
owner_live(struct reapctx *c, const struct reap_entry *e)
{
	char now[256] = "";
	int rc = -1;

	if (c->pm.place.proc_start != NULL && e->owner > 0)
		rc = c->pm.place.proc_start(&c->hs.host, e->owner, now,
					    sizeof(now));
	refusals_free(&c->r);
	return reap_is_live(e, pid_alive(e->owner), rc, now);
}

static void
signal_all(const int64_t *pids, size_t n, int hard)
{
	for (size_t i = 0; i < n; i++)
		if (signallable(pids[i]))
			(void)os_pid_stop(pids[i], hard);
}

static int
holders(struct reapctx *c, struct ns_place *pl, int64_t *pids, size_t *n)
{
	*n = 0;
	if (c->pm.place.holders == NULL)
		return 0;
	if (c->pm.place.holders(&c->hs.host, pl, pids, REAP_MAX_HOLDERS, n) !=
	    NS_OK)
		return -1;
	if (*n > REAP_MAX_HOLDERS)
		*n = REAP_MAX_HOLDERS;
	return 0;
}

static void
say_refusals(struct reapctx *c)
{
	for (size_t i = 0; i < c->r.n; i++)
		run_note(c->r.v[i].text);
	refusals_free(&c->r);
}

static void
one_place(struct reapctx *c, const struct reap_entry *e, int64_t *pids)
{
	struct ns_place pl;
	size_t n = 0;
	int gone;

	fill_place(e, &pl);
	c->volumes++;
	if (owner_live(c, e)) {
		holders(c, &pl, pids, &n);
		refusals_free(&c->r);
		reap_line(e->name, n, 0);
		run_note("its owner is live (marker pid alive, start time "
			 "unchanged): left alone");
		return;
	}
	if (holders(c, &pl, pids, &n) != 0) {
		say_refusals(c);
		reap_line(e->name, 0, 0);
		c->remained++;
		return;
	}
	if (c->dry) {
		reap_line(e->name, n, 0);
		c->remained++;
		return;
	}
	signal_all(pids, n, 0);
	if (reap_grace(pids, n, RUN_GRACE_MS) > 0)
		signal_all(pids, n, 1);
	gone = c->pm.place.destroy(&c->hs.host, &pl) == NS_OK;
	reap_line(e->name, n, gone);
	if (gone)
		return;
	c->remained++;
	say_refusals(c);
	run_leak_line(e->name, e->id, pl.remedy[0] ? pl.remedy : "-");
}

static int
walk(struct reapctx *c)
{
	int64_t *pids = calloc(REAP_MAX_HOLDERS, sizeof(*pids));
	char *p = c->text.s, *nl;

	if (pids == NULL)
		return -1;
	for (; p != NULL && *p; p = nl ? nl + 1 : NULL) {
		struct reap_entry e;

		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		if (reap_parse_line(p, &e) == 0 &&
		    strncmp(e.name, "nova-", 5) == 0)
			one_place(c, &e, pids);
		else
			run_note("a place line that is not ours was skipped");
	}
	free(pids);
	return 0;
}

/* ---- what killed hand-offs left in --out --------------------------------- */

static void
out_rec_say(void *arg, const char *out, long pid, int opened)
{
	struct reapctx *c = arg;
	struct sbuf b = {0};

	c->out = out;
	if (opened)
		return;
	if (out != NULL)
		sbuf_addf(&b, "the hand-off of a tool that is gone (pid %ld) "
			  "wrote to --out %s, which cannot be opened now: "
			  "nothing was cleared there", pid, out);
	run_note(b.s ? b.s : "the record of a hand-off whose tool is gone "
		 "cannot be read: nothing was cleared");
	sbuf_free(&b);
}

/* SANDBOX REAP out=<out>/<entry> pid=<p> deleted=yes|no, or
 * restored=<out>/<name>|no when it was the only copy left. */
static void
out_sweep_say(void *arg, const char *entry, const char *name, long pid,
	      int did)
{
	struct reapctx *c = arg;
	struct sbuf path = {0}, to = {0};
	char *p, *t = NULL;

	sbuf_addf(&path, "%s/%s", c->out ? c->out : "?", entry);
	p = out_field(path.s ? path.s : entry);
	if (did == HANDOFF_SWEEP_RESTORED && !c->dry) {
		sbuf_addf(&to, "%s/%s", c->out ? c->out : "?", name);
		t = out_field(to.s ? to.s : name);
		out_kind(stderr, "SANDBOX", OUT_REAP,
			 "out=%s pid=%ld restored=%s",
			 p ? p : "-", pid, t ? t : "-");
	} else {
		out_kind(stderr, "SANDBOX", OUT_REAP,
			 "out=%s pid=%ld %s=%s", p ? p : "-",
			 pid, did == HANDOFF_SWEEP_RESTORED ? "restored" :
			 "deleted", did == HANDOFF_SWEEP_REMOVED && !c->dry ?
			 "yes" : "no");
	}
	if (c->dry || did == HANDOFF_SWEEP_KEPT)
		c->remained++;
	free(p);
	free(t);
	sbuf_free(&path);
	sbuf_free(&to);
}

/* SANDBOX REAP kept=<name> pid=<p> released=yes|no: a place a run kept
 * with the only copy of its work (run/keephold.c). */
static void
kept_say(void *arg, const char *name, long pid, int released)
{
	struct reapctx *c = arg;
	char *n = out_field(name);

	out_kind(stderr, "SANDBOX", OUT_REAP, "kept=%s pid=%ld released=%s",
		 n ? n : "-", pid, released ? "yes" : "no");
	if (!released)
		c->remained++;
	free(n);
}

/* ---- flags ----------------------------------------------------------------- */

static const struct flagdef reap_flags[] = {
	{ "dry-run", FK_SWITCH, 1, 0, NULL, offsetof(struct reapctx, dry),
	  "list what would be cleared, clear nothing" },
};

/* reap reads its words so: -x and --x alike ("-" too), an unknown flag
 * is pointed at --dry-run, every token no_command. */
static const struct flagspec reap_spec = {
	.defs = reap_flags,
	.ndefs = sizeof(reap_flags) / sizeof(reap_flags[0]),
	.verb = 1,
	.verbname = "reap",
	.remedy = "nova-sandbox help reap",
	.list_lead = "the flags of reap are",
	.near = FN_FIRST,
	.single = FS_ALL,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_NO_COMMAND,
	.tok_positional = REASON_NO_COMMAND,
	.tok_value = REASON_NO_COMMAND,
	.opts = FO_LONE_DASH,
	.remedy_on = FR_UNKNOWN | FR_POSITIONAL,
};

static int
setup(struct reapctx *c, const struct hostrun *hr)
{
	int rc;

	hostsvc_init(&c->hs);
	c->hs.prefix = "SANDBOX";
	c->hs.err = stderr;
	c->hs.refusals = &c->r;
	c->hs.text = &c->text;
	c->hs.cfg = &c->cfg;
	if (config_load(hr->config_path, hr->exe_dir, &c->cfg, &c->r) != 0)
		return -1;
	rc = loader_select_place(&c->cfg, &c->pm, &c->r);
	c->hs.stem = c->pm.stem;
	return rc == 0 ? 0 : -1;
}

static int
refuse_all(struct refusals *r, int remedy_line)
{
	wall_fd_cause(r); /* out of descriptors: the one cause */
	out_refusals(stderr, "SANDBOX", r, "nova-sandbox help reap", 0);
	if (remedy_line)
		out_usage(stderr, REAP_REMEDY);
	refusals_free(r);
	return NS_EXIT_REFUSED;
}

static int
reap_run(struct reapctx *c)
{
	uint64_t t = run_now_ms();

	run_step("list", 0);
	if (c->pm.place.list(&c->hs.host) != NS_OK || sbuf_failed(&c->text)) {
		if (sbuf_failed(&c->text)) /* a place lost from the list */
			refusals_oom(&c->r);
		if (c->r.n == 0)
			refusals_add(&c->r, REASON_VOLUME_FAILED, "the place module "
				     "could not list its places");
		wall_fd_keep(&c->r, "reap", c->args); /* fd_limit's line */
		return refuse_all(&c->r, 0);
	}
	run_step("list", t);
	if (walk(c) != 0)
		return NS_EXIT_REFUSED;
	if (handoff_reap_records(c->dry, out_rec_say, out_sweep_say, c) != 0)
		run_note("the tool's state directory cannot be listed: the "
			 "leftovers of killed hand-offs in --out were not "
			 "looked for");
	if (keephold_reap(c->dry, kept_say, c) != 0)
		run_note("the tool's state directory cannot be listed: the "
			 "places runs kept with the only copy of their work "
			 "were not looked for");
	out_kind(stderr, "SANDBOX", OUT_REAP_OK, "volumes=%zu", c->volumes);
	return c->remained ? NS_EXIT_LEAK : NS_EXIT_OK;
}

int
verb_reap(const struct hostrun *hr, int argc, char **argv)
{
	struct reapctx c;
	struct refusals r = {0};
	struct flagspec spec;
	struct cmdline line;
	int code;

	if (flags_help(argc - 1, argv + 1, FH_WORD_FIRST))
		return reap_usage() == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	memset(&c, 0, sizeof(c));
	spec = reap_spec;
	line = cmdline_of("reap", argv + 1);
	spec.line = &line;
	if (flags_parse(&spec, argc - 1, argv + 1, &c, &r) != 0)
		return refuse_all(&r, 1);
	c.args = argv + 1;
	if (setup(&c, hr) != 0) {
		wall_fd_keep(&c.r, "reap", c.args); /* fd_limit's line */
		code = refuse_all(&c.r, 0);
	} else {
		code = reap_run(&c);
	}
	module_free(&c.pm); /* a refused load leaves its names too */
	config_free(&c.cfg);
	refusals_free(&c.r);
	sbuf_free(&c.text);
	return code;
}
