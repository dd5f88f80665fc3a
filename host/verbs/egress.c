/* SPDX-License-Identifier: MIT */
/* egress.c -- `nova-sandbox egress plan|apply|check|drop`
 * (docs/SPEC-SANDBOX.md "Egress"; reference section 11).  The host owns
 * the grammar, the resolution, the renderer and the auditor; the
 * configured egress module (nftegress.so on linux) owns the kernel. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "module/hostsvc.h"
#include "module/loader.h"
#include "egress/allowlist.h"
#include "wall/args.h"
#include "wall/egressmod.h"
#include "wall/session.h"
#include "verbs/verbs.h"

/* The largest files read, in MiB: the limit and its text come from here. */
#define PLAN_MAX_MIB 16u
#define POLICY_MAX_MIB 1u

struct eargs {
	const char *run, *policy, *model_host, *resolver, *uid, *veth, *out;
	const char *plan;
	struct strv cidrs;
	int live;
	const struct cmdline *line; /* the caller's, for the fixed lines */
};

/* The sub-verbs, as bits of flagdef.verbs. */
#define E_PLAN 0x1u
#define E_APPLY 0x2u
#define E_CHECK 0x4u
#define E_DROP 0x8u
#define EOFF(m) offsetof(struct eargs, m)

static const struct flagdef eflags[] = {
	{ "bench-cidr", FK_LIST, E_PLAN, 0, NULL, EOFF(cidrs),
	  "a `cidr` of another bench, denied (repeatable)" },
	{ "live", FK_SWITCH, E_CHECK, 0, NULL, EOFF(live),
	  "audit the table the kernel holds for --run (with --plan: and "
	  "compare it with that plan)" },
	{ "model-host", FK_VALUE, E_PLAN, 0, NULL, EOFF(model_host),
	  "the ONE model `host` of this run; the policy file must carry it" },
	{ "out", FK_VALUE, E_PLAN, 0, NULL, EOFF(out),
	  "the plan `file` to write (0600; its directory must exist)" },
	{ "plan", FK_VALUE, E_APPLY | E_CHECK, 0, NULL, EOFF(plan),
	  "the plan `file` to apply or audit" },
	{ "policy", FK_VALUE, E_PLAN, 0, NULL, EOFF(policy),
	  "the allowlist `file` (infra/image/egress.txt)" },
	{ "resolver", FK_VALUE, E_PLAN, 0, NULL, EOFF(resolver),
	  "the resolver `ip` asked on port 53 and the only DNS allowed" },
	{ "run", FK_VALUE, E_PLAN | E_APPLY | E_CHECK | E_DROP, 0, NULL,
	  EOFF(run), "the run `id`, 1-32 of [A-Za-z0-9_]; the table is "
	  "nova_egress_<id>" },
	{ "uid", FK_VALUE, E_PLAN, 0, NULL, EOFF(uid),
	  "the card's `uid`: an output chain on meta skuid" },
	{ "veth", FK_VALUE, E_PLAN, 0, NULL, EOFF(veth),
	  "the card's interface `name`: forward and input chains on "
	  "iifname" },
};
#define NEFLAGS (sizeof(eflags) / sizeof(eflags[0]))

static const char *const plan_remedy = "run: nova-sandbox egress plan --run "
	"<id> --policy infra/image/egress.txt --model-host <host> --resolver "
	"<ip> [--bench-cidr <cidr>]... --uid <n> --out <file>";

/* ---- flags ------------------------------------------------------------ */

static const char *const subs[] = { "plan", "apply", "check", "drop", NULL };

/* The bit of a sub-verb (E_*), or 0. */
static unsigned
sub_bit(const char *sub)
{
	for (size_t i = 0; sub && subs[i]; i++)
		if (strcmp(sub, subs[i]) == 0)
			return 1u << i;
	return 0;
}

/* A value problem: the text, then the caller's line with `flag` fixed:
 * its value `bad` (NULL: the flag was not given, so it is added first)
 * becomes `to` (a form the caller fills in, or a value the tool knows). */
static void efix(struct refusals *r, const struct eargs *a, const char *tok,
		 const char *flag, const char *bad, const char *to,
		 const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
efix(struct refusals *r, const struct eargs *a, const char *tok,
     const char *flag, const char *bad, const char *to, const char *fmt, ...)
{
	struct cmdfix f = { flag, bad, to, bad ? NULL : flag, 0 };
	struct sbuf t = {0};
	va_list ap;

	va_start(ap, fmt);
	if (sbuf_vaddf(&t, fmt, ap) < 0 ||
	    remedy_refuse(r, tok, REMEDY_IN_TEXT, a->line, &f, "%s", t.s) < 0)
		refusals_oom(r);
	va_end(ap);
	sbuf_free(&t);
}

/* 0, or -1 when memory ran out (a refusal may be missing: never run).
 * Every problem into r: a flag of another sub-verb or none is bad_flag,
 * naming this sub-verb's flags (and the nearest to an unknown one); a
 * value flag given twice is refused. */
static int
parse_flags(const char *sub, int argc, char **argv, struct eargs *a,
	    struct refusals *r)
{
	char name[32], lead[48], remedy[48];
	struct flagspec s = {
		.defs = eflags, .ndefs = NEFLAGS, .verb = sub_bit(sub),
		.verbname = name, .remedy = remedy, .list_lead = lead,
		.near = FN_EDIT, .single = FS_ALL, .foreign = FF_UNKNOWN,
		.tok_unknown = REASON_BAD_FLAG, .tok_positional = REASON_NO_COMMAND,
		.tok_value = REASON_NO_COMMAND,
		.opts = FO_SKIP_VALUE | FO_LAX_BOOL | FO_ONCE | FO_SHOW_LONG,
		.remedy_on = FR_UNKNOWN | FR_POSITIONAL, .word_max = 60,
	};

	snprintf(name, sizeof(name), "egress %s", sub);
	snprintf(lead, sizeof(lead), "the flags of egress %s are", sub);
	snprintf(remedy, sizeof(remedy), "nova-sandbox egress %s -h", sub);
	s.line = a->line;
	return flags_parse(&s, argc, argv, a, r) < 0 ? -1 : 0;
}

/* ---- printing ---------------------------------------------------------- */

/* Every refusal; remedy (NULL: none) ends a text that names none. */
static void
print_refusals(struct refusals *r, const char *remedy)
{
	wall_fd_cause(r); /* out of descriptors: the one cause */
	out_refusals(stderr, "EGRESS", r, remedy, 0);
}

/* Could-not-run problems: each line, then the sub-verb's remedy line. */
static int
cannot_run(struct refusals *r, const char *remedy)
{
	print_refusals(r, NULL);
	out_usage(stderr, remedy);
	return NS_EXIT_USAGE;
}

/* Said-NO problems: each line with the help remedy, no remedy line. */
static int
said_no(struct refusals *r)
{
	print_refusals(r, "nova-sandbox egress -h");
	return NS_EXIT_EGRESS_NO;
}

/* ---- files ------------------------------------------------------------- */

/* The whole file, at most max_mib MiB, into b. */
static int
read_file(const char *path, unsigned max_mib, struct sbuf *b, char **why)
{
	char buf[65536];
	struct stat st;
	ssize_t k;
	size_t max = (size_t)max_mib << 20;
	int fd = os_fd_made(open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW));

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > max) {
		if (fd < 0)
			*why = strdup(strerror(errno));
		else if (asprintf(why, "not a regular file of at most %u MiB",
				  max_mib) < 0)
			*why = NULL;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		if (sbuf_addn(b, buf, (size_t)k) < 0 || b->len > max)
			break;
	close(fd);
	if (k != 0) {
		if (asprintf(why, "read failed or the file grew past %u MiB",
			     max_mib) < 0)
			*why = NULL;
		return -1;
	}
	return sbuf_addn(b, "", 0) < 0 ? -1 : 0;
}

/* ---- plan -------------------------------------------------------------- */

/* "a.b.c.d/n" (host bits are masked off), or -1. */
static int
parse_cidr(const char *s, struct ns_egress_addr *p)
{
	char buf[64];
	const char *slash = strchr(s, '/');
	int full, plen;
	unsigned long long v;

	if (slash == NULL || strlen(s) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)(slash - s), s);
	if (ns_egress_parse_addr(buf, 0, p) < 0)
		return -1;
	full = p->fam == 4 ? 32 : 128;
	if (parse_u64(slash + 1, (unsigned long long)full, &v) != 0 || v == 0)
		return -1;
	plen = (int)v;
	for (int i = 0; i < 16; i++) {
		int keep = plen - 8 * i;

		p->a[i] &= keep >= 8 ? 0xff : keep <= 0 ? 0 :
		    (uint8_t)(0xff << (8 - keep));
	}
	p->plen = plen;
	return 0;
}

static void
plan_phase1(struct eargs *a, struct egress_input *in, struct sbuf *pol,
	    struct egress_allows *allows, struct refusals *r)
{
	char *why = NULL;

	if (a->out == NULL)
		efix(r, a, REASON_NO_COMMAND, "--out", NULL, "<file>",
		     "egress plan writes the plan to --out <file>; name it");
	else if (egress_check_out(a->out, &why) < 0) /* before any DNS */
		efix(r, a, REASON_BAD_OUT, "--out", a->out, "<file>", "--out %s "
		     "cannot be written: %s (its directory must exist)",
		     a->out, why ? why : "-");
	free(why);
	why = NULL;
	if (a->policy == NULL)
		efix(r, a, REASON_BAD_POLICY, "--policy", NULL, "<file>",
		     "--policy wants the allowlist file, "
		     "infra/image/egress.txt");
	else if (read_file(a->policy, POLICY_MAX_MIB, pol, &why) < 0)
		efix(r, a, REASON_BAD_POLICY, "--policy", a->policy, "<file>",
		     "%s: cannot be read: %s", a->policy, why ? why : "-");
	else
		egress_parse_policy(a->policy, pol->s, pol->len, &in->names,
				    allows, r);
	free(why);
	if (a->resolver == NULL || ns_egress_parse_addr(a->resolver, 0,
						     &in->resolver) < 0)
		efix(r, a, REASON_BAD_RESOLVER, "--resolver", a->resolver,
		     "<ip>", "--resolver wants the IP address of the "
		     "resolver%s%.60s", a->resolver ? ", got " : "",
		     a->resolver ? a->resolver : "");
	in->cidrs = calloc(a->cidrs.n + 1, sizeof(in->cidrs[0]));
	if (in->cidrs == NULL)	/* never a plan without its bench denies */
		refusals_add(r, REASON_BAD_CIDR, "out of memory reading "
			     "--bench-cidr");
	for (size_t i = 0; in->cidrs && i < a->cidrs.n; i++)
		if (parse_cidr(a->cidrs.v[i], &in->cidrs[in->n_cidrs]) == 0)
			in->n_cidrs++;
		else
			efix(r, a, REASON_BAD_CIDR, "--bench-cidr",
			     a->cidrs.v[i], "<address/prefix>", "--bench-cidr "
			     "wants an address/prefix such as 198.51.100.0/24, "
			     "got %.60s", a->cidrs.v[i]);
	if (strv_failed(&a->cidrs) || strv_failed(&in->names) ||
	    allows->failed)
		refusals_oom(r); /* a lost deny or name: never a plan */
}

static void
step_line(void *ctx, int done, long ms)
{
	(void)ctx;
	if (done)
		out_kind(stderr, "EGRESS", OUT_STEP,
			 "name=resolve state=done ms=%ld",
			 ms);
	else
		out_kind(stderr, "EGRESS", OUT_STEP,
			 "name=resolve state=start");
}

static int
plan_finish(struct eargs *a, struct egress_plan *p, struct refusals *r)
{
	struct egress_audit au;
	char *why = NULL, *names;
	struct sbuf nb = {0};

	if (egress_audit(p->text.s, p->text.len, &au, r) != 0)
		return said_no(r);
	if (egress_write_plan(a->out, p->text.s, p->text.len, &why) < 0) {
		efix(r, a, REASON_BAD_OUT, "--out", a->out, "<file>", "--out %s "
		     "cannot be written: %s (its directory must exist)",
		     a->out, why);
		free(why);
		return cannot_run(r, plan_remedy);
	}
	for (size_t i = 0; i < p->names.n; i++)
		sbuf_addf(&nb, "%s%s", i ? "," : "", p->names.v[i]);
	names = out_field(nb.s ? nb.s : "");
	out_kind(stderr, "EGRESS", OUT_PLAN,
		 "run=%s allow=%zu deny=%zu names=%s",
		 a->run, p->allow, p->deny, names ? names : "-");
	free(names);
	sbuf_free(&nb);
	return 0;
}

/* The plan's notes (names left out, a family that failed), in order. */
static void
print_notes(const struct strv *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		out_note("EGRESS", notes->v[i]);
}

static int
egress_plan_verb(struct eargs *a, struct refusals *r)
{
	struct egress_input in;
	struct egress_plan p;
	struct egress_allows allows = { NULL, 0, 0, 0 };
	struct sbuf pol = {0};
	int rc;

	memset(&in, 0, sizeof(in));
	memset(&p, 0, sizeof(p));
	plan_phase1(a, &in, &pol, &allows, r);
	in.allows = &allows;
	in.run = a->run ? a->run : "";
	in.policy_path = a->policy;
	in.model_host = a->model_host;
	in.uid = a->uid;
	in.veth = a->veth;
	in.lookup = egress_dns_lookup;
	in.step = step_line;
	in.line = a->line;
	if (r->n == 0)
		egress_check_input(&in, r);
	if (r->n != 0) {
		rc = cannot_run(r, plan_remedy);
	} else {
		rc = egress_build(&in, &p, r);
		print_notes(&p.notes);
		if (rc < 0)
			refusals_oom(r); /* said: never a silent exit 2 */
		if (rc != 0)
			rc = r->n == 0 ? 2 : cannot_run(r, plan_remedy);
		else
			rc = plan_finish(a, &p, r);
	}
	egress_plan_free(&p);
	strv_free(&in.names);
	egress_allows_free(&allows);
	free(in.cidrs);
	sbuf_free(&pol);
	return rc;
}

/* ---- the module -------------------------------------------------------- */

/* A module status into the exit code: the kernel said NO is 1. */
static int
mod_exit(int st, struct refusals *r, const char *remedy)
{
	if (r->n == 0)
		return NS_EXIT_USAGE;
	if (st == NS_E_REFUSED)
		return said_no(r);
	return cannot_run(r, remedy);
}

/* ---- check, apply, drop ------------------------------------------------ */

static int
load_plan(const struct eargs *a, struct sbuf *b, struct refusals *r)
{
	char *why = NULL;

	if (read_file(a->plan, PLAN_MAX_MIB, b, &why) == 0)
		return 0;
	efix(r, a, REASON_BAD_PLAN, "--plan", a->plan, "<file>", "--plan %s "
	     "cannot be read: %s", a->plan, why ? why : "-");
	free(why);
	return -1;
}

static void
check_line(const struct egress_audit *au, const char *source)
{
	char *t = out_field(au->table);

	out_kind(stderr, "EGRESS", OUT_CHECK, "table=%s chains=%zu rules=%zu "
		 "allow=%zu deny=%zu%s", t ? t : "-", au->chains, au->rules,
		 au->allow, au->deny, source);
	free(t);
}

static int
compare_live(const struct sbuf *plan, const struct sbuf *live,
	     struct refusals *r)
{
	char *a = egress_canonical(plan->s, plan->len);
	char *b = egress_canonical(live->s, live->len);
	int same = a != NULL && b != NULL && strcmp(a, b) == 0;

	if (!same)
		refusals_add(r, REASON_LIVE_MISMATCH, "the kernel's table is not "
			     "the plan: someone changed it, or it was "
			     "applied from another plan");
	free(a);
	free(b);
	return same ? 0 : -1;
}

static const char *const check_remedy = "run: nova-sandbox egress check "
	"--plan <file>  |  nova-sandbox egress check --live --run <id> "
	"[--plan <file>]";

static int
check_live(const struct hostrun *hr, struct eargs *a, struct sbuf *plan,
	   struct refusals *r)
{
	struct egress_audit au;
	struct egress_mod e;
	int st, rc;

	memset(&e, 0, sizeof(e));
	if (egress_mod_open(&e, hr, "EGRESS", r) < 0) {
		egress_mod_close(&e);
		return cannot_run(r, check_remedy);
	}
	st = e.m.egress.read_live(&e.hs.host, a->run);
	if (st != NS_OK)
		rc = mod_exit(st, r, check_remedy);
	else if (sbuf_failed(&e.text)) /* a live ruleset cut short: never audited */
		rc = (refusals_oom(r), cannot_run(r, check_remedy));
	else if (egress_audit(e.text.s ? e.text.s : "", e.text.len, &au,
			      r) != 0 ||
		 (plan->s != NULL && compare_live(plan, &e.text, r) < 0))
		rc = said_no(r);
	else
		rc = (check_line(&au, " source=live"), 0);
	egress_mod_close(&e);
	return rc;
}

static int
egress_check_verb(const struct hostrun *hr, struct eargs *a,
		  struct refusals *r)
{
	struct egress_audit au;
	struct sbuf plan = {0};
	int rc;

	if (a->plan == NULL && !a->live)
		efix(r, a, REASON_NO_COMMAND, "--plan", NULL, "<file>",
		     "egress check wants --plan <file>, or --live --run <id>");
	if (a->live && !egress_run_ok(a->run))
		efix(r, a, REASON_NO_NAME, "--run", a->run, "<id>",
		     "--run wants 1-32 of [A-Za-z0-9_]");
	if (r->n == 0 && a->plan != NULL)
		load_plan(a, &plan, r);
	if (r->n != 0)
		rc = cannot_run(r, check_remedy);
	else if (a->live)
		rc = check_live(hr, a, &plan, r);
	else if (egress_audit(plan.s, plan.len, &au, r) != 0)
		rc = said_no(r);
	else
		rc = (check_line(&au, ""), 0);
	sbuf_free(&plan);
	return rc;
}

static const char *const apply_remedy = "run: nova-sandbox egress apply "
	"--plan <file> --run <id>  (as root or with CAP_NET_ADMIN)";

static int
apply_checks(struct eargs *a, struct sbuf *plan, struct refusals *r)
{
	struct egress_audit au;
	char want[64];

	if (a->plan == NULL)
		efix(r, a, REASON_NO_COMMAND, "--plan", NULL, "<file>",
		     "egress apply wants --plan <file>");
	if (!egress_run_ok(a->run))
		efix(r, a, REASON_NO_NAME, "--run", a->run, "<id>",
		     "--run wants 1-32 of [A-Za-z0-9_]");
	if (r->n == 0)
		load_plan(a, plan, r);
	if (r->n != 0)
		return 2;
	if (egress_audit(plan->s, plan->len, &au, r) != 0)
		return 1;
	egress_table_name(a->run, want, sizeof(want));
	if (strcmp(au.table, want) != 0) {
		/* the plan's own run: the id its table was made for */
		efix(r, a, REASON_PLAN_MISMATCH, "--run", a->run,
		     strncmp(au.table, "nova_egress_",
			     12) == 0 ?
		     au.table + 12 : "<id>",
		     "the plan's table is %s but --run %s wants %s", au.table,
		     a->run, want);
		return 2;
	}
	return 0;
}

static long
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A plan form added in ABI minor m goes only to a module built with a
 * header of minor >= m (ns_egress_plan.h); an older one would refuse the
 * plan line by line, so it is said once, here, before anything is sent. */
static int
module_lacks_grammar(const struct egress_mod *e, const struct sbuf *plan,
		     struct refusals *r)
{
	int need = egress_plan_minor(plan->s, plan->len);

	if (e->m.ops.built_minor >= need)
		return 0;
	refusals_add(r, REASON_NO_EGRESS, "the egress module %s was built with "
		     "ABI %d.%u; this plan's reject verdicts are ABI %d.%d "
		     "(ns_egress_plan.h): rebuild the module against that "
		     "header", e->m.file, NS_BACKEND_ABI_MAJOR,
		     (unsigned)e->m.ops.built_minor, NS_BACKEND_ABI_MAJOR, need);
	return 1;
}

static int
egress_apply_verb(const struct hostrun *hr, struct eargs *a,
		  struct refusals *r)
{
	struct sbuf plan = {0};
	struct egress_mod e;
	char table[64];
	long t0;
	int rc, st;

	memset(&e, 0, sizeof(e));
	rc = apply_checks(a, &plan, r);
	if (rc == 0 && egress_mod_open(&e, hr, "EGRESS", r) < 0)
		rc = 2;
	if (rc != 0) {
		rc = rc == 1 ? said_no(r) : cannot_run(r, apply_remedy);
		goto out;
	}
	if (module_lacks_grammar(&e, &plan, r)) {
		rc = cannot_run(r, apply_remedy);
		goto out;
	}
	out_kind(stderr, "EGRESS", OUT_STEP, "name=apply state=start");
	t0 = now_ms();
	st = e.m.egress.apply(&e.hs.host, a->run, plan.s, plan.len);
	if (st != NS_OK) {
		rc = mod_exit(st, r, apply_remedy);
		goto out;
	}
	out_kind(stderr, "EGRESS", OUT_STEP, "name=apply state=done ms=%ld",
		 now_ms() - t0);
	egress_table_name(a->run, table, sizeof(table));
	out_kind(stderr, "EGRESS", OUT_OK, "verb=apply run=%s table=%s", a->run,
		 table);
out:
	egress_mod_close(&e);
	sbuf_free(&plan);
	return rc;
}

static const char *const drop_remedy = "run: nova-sandbox egress drop "
	"--run <id>  (as root or with CAP_NET_ADMIN)";

static int
egress_drop_verb(const struct hostrun *hr, struct eargs *a,
		 struct refusals *r)
{
	struct egress_mod e;
	char table[64];
	int rc = 0, st;

	memset(&e, 0, sizeof(e));
	if (!egress_run_ok(a->run))
		efix(r, a, REASON_NO_NAME, "--run", a->run, "<id>",
		     "--run wants 1-32 of [A-Za-z0-9_] (nothing was sent)");
	if (r->n != 0 || egress_mod_open(&e, hr, "EGRESS", r) < 0) {
		rc = cannot_run(r, drop_remedy);
	} else if ((st = e.m.egress.drop(&e.hs.host, a->run)) != NS_OK) {
		rc = mod_exit(st, r, drop_remedy);
	} else {
		egress_table_name(a->run, table, sizeof(table));
		out_kind(stderr, "EGRESS", OUT_OK, "verb=drop run=%s table=%s",
			 a->run, table);
	}
	egress_mod_close(&e);
	return rc;
}

/* ---- help and dispatch ------------------------------------------------- */

int
egress_help(const char *sub)
{
	char kind[64], desc[256];

	printf("usage: nova-sandbox egress %s [flags]\n", sub ? sub :
	       "plan|apply|check|drop");
	printf("from `nova-sandbox help`:\n");
	printf("  nova-sandbox egress plan --run <id> --policy <file> "
	       "--model-host <host> --resolver <ip>\n"
	       "               [--bench-cidr <cidr>]... --uid <n> | --veth "
	       "<if> --out <file>\n"
	       "  nova-sandbox egress apply --plan <file> --run <id>\n"
	       "  nova-sandbox egress check --plan <file> | --live --run <id> "
	       "[--plan <file>]\n"
	       "  nova-sandbox egress drop --run <id>\n");
	printf("flags:\n");
	for (size_t i = 0; i < NEFLAGS; i++) {
		const char *h = eflags[i].help, *q = strchr(h, '`');
		const char *e = q ? strchr(q + 1, '`') : NULL;
		size_t o = 0;

		if (sub && !(eflags[i].verbs & sub_bit(sub)))
			continue;
		kind[0] = '\0';
		if (e)
			snprintf(kind, sizeof(kind), " %.*s", (int)(e - q - 1),
				 q + 1);
		for (; *h && o + 1 < sizeof(desc); h++)
			if (*h != '`')
				desc[o++] = *h;
		desc[o] = '\0';
		printf("  --%s%s  %s\n", eflags[i].name, kind, desc);
	}
	printf("exit codes: each verb's own, by verb:\n");
	printf("  egress: 0 done; 1 invariants or the kernel said NO; 2 could "
	       "not run (usage, no egress module, no privilege)\n");
	return fflush(stdout) == 0 ? 0 : -1;
}

static int
run_sub(const struct hostrun *hr, const char *sub, struct eargs *a,
	struct refusals *r)
{
	if (strcmp(sub, "plan") == 0)
		return egress_plan_verb(a, r);
	if (strcmp(sub, "check") == 0)
		return egress_check_verb(hr, a, r);
	if (strcmp(sub, "apply") == 0)
		return egress_apply_verb(hr, a, r);
	return egress_drop_verb(hr, a, r);
}

int
verb_egress(const struct hostrun *hr, int argc, char **argv)
{
	struct refusals r = {0};
	struct eargs a;
	const char *sub = argc > 1 ? argv[1] : NULL;
	char tail[64];
	struct cmdline line;
	int known = sub_bit(sub) != 0, rc;

	if (flags_wants_help(argc - 1, argv + 1))
		return egress_help(known ? sub : NULL) == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
	if (!known) {
		refusals_addr(&r, REASON_NO_COMMAND, REMEDY_IN_TEXT,
			      "egress wants a sub-verb: plan, "
			      "apply, check or drop%s%.40s; run: nova-sandbox "
			      "help egress", sub ? "; got " : "", sub ? sub : "");
		print_refusals(&r, NULL);
		refusals_free(&r);
		return NS_EXIT_USAGE;
	}
	memset(&a, 0, sizeof(a));
	line.verb = sub == NULL ? NULL : strcmp(sub, "plan") == 0 ?
	    "egress plan" : strcmp(sub, "check") == 0 ? "egress check" :
	    strcmp(sub, "apply") == 0 ? "egress apply" : "egress drop";
	line.args = argv + 2;
	line.n = argc > 2 ? (size_t)argc - 2 : 0;
	a.line = &line;
	if (parse_flags(sub, argc - 2, argv + 2, &a, &r) < 0) {
		out_refused("EGRESS", REASON_NO_COMMAND, "out of memory "
			    "reading the flags", NULL);
		strv_free(&a.cidrs);
		refusals_free(&r);
		return NS_EXIT_USAGE;
	}
	snprintf(tail, sizeof(tail), "nova-sandbox egress %s -h", sub);
	rc = r.n ? print_refusals(&r, tail), NS_EXIT_USAGE :
	    run_sub(hr, sub, &a, &r);
	strv_free(&a.cidrs);
	refusals_free(&r);
	return rc;
}
