/* SPDX-License-Identifier: MIT */
/* args.c -- the `run` verb's flags and their validation (reference
 * section 8): table-driven, every problem at once, nothing created. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/flags.h"
#include "base/out.h"
#include "egress/allowlist.h"
#include "os/os.h"
#include "policy/envpol.h"
#include "policy/toolchain.h"
#include "run/runargs.h"
#include "wall/statusfd.h"

#define ROFF(m) offsetof(struct run_args, m)

/* run's own flags (the engine, base/flags.h); the help lines are
 * run/help.c's usage. */
static const struct flagdef rflags[] = {
	{ "name", FK_VALUE, 1, 0, NULL, ROFF(name),
	  "1-32 characters: a letter or digit, then letters, digits, - _ ." },
	{ "size", FK_VALUE, 1, 0, NULL, ROFF(size_s),
	  "the place's cap: digits[.frac][k|m|g|t][b]" },
	{ "timeout", FK_VALUE, 1, 0, NULL, ROFF(timeout_s),
	  "a Go duration; then SIGTERM, 2 s, SIGKILL, exit 124" },
	{ "go", FK_SWITCH, 1, 0, NULL, ROFF(go),
	  "add go env GOROOT and GOMODCACHE as read roots" },
	{ "read", FK_LIST, 1, 0, NULL, ROFF(reads),
	  "a directory the command may read and execute (repeatable)" },
	{ "container", FK_VALUE, 1, 0, NULL, ROFF(container),
	  "another platform's flag" },
	{ "max-procs", FK_VALUE, 1, 0, NULL, ROFF(max_procs_s),
	  "the process cap (default 256)" },
	{ "max-mem", FK_VALUE, 1, 0, NULL, ROFF(max_mem_s),
	  "the memory cap (default 8g)" },
	{ "out", FK_VALUE, 1, 0, NULL, ROFF(out),
	  "copy the artifacts to <dir>/<name>/ before the delete" },
	{ "artifact", FK_LIST, 1, 0, NULL, ROFF(artifacts),
	  "a path relative to <place>/work to copy (repeatable)" },
	{ "out-max-bytes", FK_VALUE, 1, 0, NULL, ROFF(out_max_s),
	  "the cap on the total copied" },
	{ "out-max-files", FK_VALUE, 1, 0, NULL, ROFF(out_files_s),
	  "the cap on the files and directories copied" },
	{ "out-max-depth", FK_VALUE, 1, 0, NULL, ROFF(out_depth_s),
	  "the cap on path components below work/" },
	{ "scratch", FK_VALUE, 1, 0, NULL, ROFF(scratch),
	  "windows: the directory the scratch is made in" },
	{ "place", FK_VALUE, 1, 0, NULL, ROFF(place),
	  "windows: job (the default); wsb is not built" },
	{ "memory", FK_VALUE, 1, 0, NULL, ROFF(memory_s),
	  "windows: the job's memory limit" },
	{ "cpu", FK_VALUE, 1, 0, NULL, ROFF(cpu),
	  "windows: the job's CPU rate cap, 1..100 percent" },
	{ "explain", FK_SWITCH, 1, 0, NULL, ROFF(explain),
	  "name every path the wall denied the command (SANDBOX DENIED "
	  "lines before DONE; refused where the wall cannot)" },
	{ "status-fd", FK_VALUE, 1, 0, NULL, ROFF(status_fd_s),
	  "the tool's SANDBOX lines go to descriptor n instead of stderr" },
	{ "net-deny", FK_SWITCH, 1, 0, NULL, ROFF(net_deny),
	  "no IP networking at all (refused where it cannot be kept)" },
	{ "egress", FK_VALUE, 1, 0, NULL, ROFF(egress),
	  "the run id of an applied egress plan: refused unless table inet "
	  "nova_egress_<id> is live (the OK line says net=egress:<id>)" },
	{ "net-allow", FK_LIST, 1, 0, NULL, ROFF(net_allow),
	  "an entry <host>[:<port>] the command may reach through the "
	  "tool's proxy, or localhost:<port> (as the bare form's)" },
	{ "net-allow-file", FK_LIST, 1, 0, NULL, ROFF(net_allow_files),
	  "a file of --net-allow entries, one a line" },
	{ "write", FK_LIST, 1, 0, NULL, ROFF(writes),
	  "a directory outside the place the command may also write, kept "
	  "after the run (a package cache; repeatable)" },
	{ "env-clear", FK_SWITCH, 1, 0, NULL, ROFF(env_clear),
	  "start the environment from PATH, HOME, LANG, TERM only" },
	{ "env-inherit", FK_SWITCH, 1, 0, NULL, ROFF(env_inherit),
	  "pass your whole environment, not the clean one" },
	{ "env", FK_LIST, 1, 0, NULL, ROFF(env_keep),
	  "KEY[=VALUE]: keep KEY from your environment, or set it" },
	{ "env-deny", FK_LIST, 1, 0, NULL, ROFF(env_deny),
	  "drop the variables whose name matches the shell pattern" },
	{ "toolchain", FK_LIST, 1, 0, NULL, ROFF(toolchains),
	  "go|python|node|rust|c: add the read roots it reports" },
	{ "protect", FK_LIST, 1, 0, NULL, ROFF(protect),
	  "a path under a --write that stays readable and not writable "
	  "(every .git on the way to the cwd is by default)" },
	{ "unprotect", FK_LIST, 1, 0, NULL, ROFF(unprotect),
	  "lift the protection of a path (a default .git or a --protect)" },
};

/* run reads its words so: "--" ends them (a value may be "--"), -x and
 * --x alike, an unknown flag as the bare form's (bad_flag, the list and
 * "did you mean"), every other token no_command. */
static const struct flagspec rspec = {
	.defs = rflags,
	.ndefs = sizeof(rflags) / sizeof(rflags[0]),
	.verb = 1,
	.verbname = "run",
	.remedy = "nova-sandbox help run",
	.list_lead = "the flags of run are",
	.near = FN_EDIT_PREFIX,
	.single = FS_ALL,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_BAD_FLAG,
	.tok_positional = REASON_NO_COMMAND,
	.tok_value = REASON_NO_COMMAND,
	.opts = FO_DASHDASH | FO_ONCE,
	.remedy_on = FR_UNKNOWN,
	.argv_off = ROFF(argv),
	.saw_off = ROFF(saw_dashdash),
};

int
run_valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > RUN_NAME_MAX || !isalnum((unsigned char)s[0]))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' &&
		    s[i] != '_' && s[i] != '.')
			return -1;
	return 0;
}

static int
unit_shift(char c, unsigned *shift)
{
	static const char units[] = "kmgt";
	const char *u = strchr(units, tolower((unsigned char)c));

	if (c == '\0' || u == NULL)
		return -1;
	*shift = 10u * (unsigned)(u - units + 1);
	return 0;
}

int
run_parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long whole = 0, frac = 0, fdiv = 1;
	unsigned shift = 0;
	const char *p = s;
	long double v;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if ((whole = whole * 10 + (unsigned)(*p - '0')) > (1ULL << 50))
			return -1;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return -1;
		for (; isdigit((unsigned char)*p); p++)
			if (fdiv < 1000000000000ULL) {
				frac = frac * 10 + (unsigned)(*p - '0');
				fdiv *= 10;
			}
	}
	if (*p != '\0' && *p != 'b' && *p != 'B' && unit_shift(*p++, &shift))
		return -1;
	if (*p == 'b' || *p == 'B')
		p++;
	if (*p != '\0')
		return -1;
	v = ((long double)whole + (long double)frac / (long double)fdiv) *
	    (long double)(1ULL << shift);
	if (v < 1 || v > (long double)(1ULL << 60))
		return -1;
	*bytes = (uint64_t)v;
	return 0;
}

struct dunit {
	const char *u;
	long double ms;
};

static const struct dunit dunits[] = {
	{ "ns", 1e-6L }, { "us", 1e-3L }, { "\xc2\xb5s", 1e-3L },
	{ "\xce\xbcs", 1e-3L }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
	{ "h", 3600000 },
};

/* One "<number><unit>" at *p; its value in ms added to *acc. */
static int
duration_part(const char **p, long double *acc)
{
	char *end;
	long double n;
	size_t best = 0, bi = 0;

	if (!isdigit((unsigned char)**p) && **p != '.')
		return -1;
	n = strtold(*p, &end);
	if (end == *p || strchr("eExXpPnNiI", end[-1]) != NULL)
		return -1;
	for (const char *q = *p; q < end; q++)
		if (!isdigit((unsigned char)*q) && *q != '.')
			return -1;
	for (size_t i = 0; i < sizeof(dunits) / sizeof(dunits[0]); i++) {
		size_t l = strlen(dunits[i].u);

		if (strncmp(end, dunits[i].u, l) == 0 && l > best) {
			best = l;
			bi = i;
		}
	}
	if (best == 0)
		return -1;
	*acc += n * dunits[bi].ms;
	*p = end + best;
	return 0;
}

int
run_parse_duration(const char *s, uint64_t *ms)
{
	long double acc = 0;
	const char *p = s;

	if (*p == '+')
		p++;
	if (*p == '\0')
		return -1;
	while (*p != '\0')
		if (duration_part(&p, &acc) != 0)
			return -1;
	if (acc <= 0 || acc > 1e15L)
		return -1;
	*ms = (uint64_t)acc;
	if ((long double)*ms < acc)
		(*ms)++;
	return 0;
}

int
run_valid_artifact(const char *s)
{
	const char *p = s;

	if (*s == '\0' || *s == '/')
		return -1;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += n;
		if (*p == '/' && *++p == '\0')
			return -1;
	}
	return 0;
}

struct rstate {
	struct refusals *r;
	const struct cmdline *line; /* run's words, for the fixed line */
	int nomem;
};

/* remedy: as struct refusal's (NULL: the printer's). */
static void rrefuse(struct rstate *s, const char *tok, const char *remedy,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
rrefuse(struct rstate *s, const char *tok, const char *remedy,
	const char *fmt, ...)
{
	struct sbuf b = {0};
	va_list ap;

	va_start(ap, fmt);
	if (sbuf_vaddf(&b, fmt, ap) < 0 ||
	    refusals_addr(s->r, tok, remedy, "%s", b.s ? b.s : "") < 0)
		s->nomem = 1;
	va_end(ap);
	sbuf_free(&b);
}

/* A value problem: the text, then run's line with `flag` fixed: its value
 * `bad` (NULL: the flag was not given, so it is added first) becomes
 * `to` (NULL: the flag left out). */
static void rfix(struct rstate *s, const char *tok, const char *flag,
		 const char *bad, const char *to, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void
rfix(struct rstate *s, const char *tok, const char *flag, const char *bad,
     const char *to, const char *fmt, ...)
{
	struct cmdfix f = { flag, bad, to, bad ? NULL : flag, 0 };
	struct sbuf b = {0};
	va_list ap;

	va_start(ap, fmt);
	if (sbuf_vaddf(&b, fmt, ap) < 0 ||
	    remedy_refuse(s->r, tok, REMEDY_IN_TEXT, s->line, &f, "%s",
			  b.s) < 0)
		s->nomem = 1;
	va_end(ap);
	sbuf_free(&b);
}

/* The forms a fixed line shows where the value is the caller's to choose
 * (never a number the tool invented). */
#define FORM_SIZE "<n>m"
#define FORM_BIG "<n>g"
#define FORM_N "<n>"
#define FORM_DIR "</abs/dir>"

/* --max-mem's floor (SPEC section 13): below it a command's tree would be
 * ended as a runaway before it could start. */
#define RUN_MAX_MEM_MIN (16ULL << 20)

static void
check_size(struct rstate *s, const char *v, const char *tok,
	   const char *flag, uint64_t *out)
{
	if (v != NULL && run_parse_size(v, out) != 0)
		rfix(s, tok, flag, v, strcmp(flag, "--max-mem") ? FORM_SIZE :
		     FORM_BIG, "%s wants a positive size like %s, got %s",
		     flag, strcmp(flag, "--max-mem") ? "64m" : "8g", v);
}

/* Why --place wsb is refused on Windows too. */
#define WSB_NOT_BUILT "--place wsb (Windows Sandbox) is not built: it is a " \
	"Hyper-V virtual machine with its own desktop, seconds to boot, one " \
	"at a time and only on Pro or Enterprise editions, which the job and " \
	"the scratch of --place job (the default) cannot be carried into"

/* The Windows job's flags (reference section 8): refused or parsed; off
 * Windows (a->job_flags 0) --scratch and --place wsb are refused, the
 * rest only validated (steps.c's NOTE says they are ignored). */
static void
check_windows(struct rstate *s, struct run_args *a)
{
	uint64_t u = 0;
	unsigned long long cpu = 0;

	if (a->scratch != NULL && !a->job_flags)
		rfix(s, REASON_BAD_SCRATCH, "--scratch", a->scratch, NULL,
		     "--scratch %s is for windows; the place is made here",
		     a->scratch);
	else if (a->scratch != NULL && os_root_len(a->scratch) == 0)
		rfix(s, REASON_BAD_SCRATCH, "--scratch", a->scratch, FORM_DIR,
		     "--scratch wants an absolute directory to make the "
		     "scratch in, got %s", a->scratch);
	if (a->memory_s != NULL && run_parse_size(a->memory_s, &u) != 0)
		rfix(s, REASON_BAD_MEMORY, "--memory", a->memory_s, FORM_BIG,
		     "--memory wants a positive size like 4g, got %s",
		     a->memory_s);
	a->memory = u;
	if (a->cpu != NULL && (parse_u64(a->cpu, 100, &cpu) != 0 || cpu < 1))
		rfix(s, REASON_BAD_CPU, "--cpu", a->cpu, "<1..100>",
		     "--cpu wants a percentage 1..100, got %s", a->cpu);
	a->cpu_percent = (uint32_t)cpu;
	if (a->place != NULL && strcmp(a->place, "wsb") == 0)
		rfix(s, REASON_NO_WSB, "--place", a->place, "job", "%s",
		     a->job_flags ? WSB_NOT_BUILT : "--place wsb needs "
		     "Windows Sandbox; it is windows-only");
	else if (a->place != NULL && strcmp(a->place, "job") != 0)
		rfix(s, REASON_BAD_PLACE, "--place", a->place, "job",
		     "--place wants job or wsb, got %s", a->place);
}

/* Windows: --memory is the job's memory limit, as --max-mem is; one job
 * has one limit, so given both the smaller applies, and --memory alone
 * replaces --max-mem's default (steps.c says which in a NOTE). */
static void
job_memory(struct run_args *a)
{
	if (!a->job_flags || a->memory == 0)
		return;
	if (a->max_mem_s == NULL || a->memory < a->max_mem)
		a->max_mem = a->memory;
}

static int
container_ok(const char *c)
{
	if (strncmp(c, "disk", 4) != 0 || c[4] == '\0')
		return 0;
	for (c += 4; *c; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	return 1;
}

/* A handoff count cap: 1..top, default def. */
static void
check_count(struct rstate *s, const char *v, const char *flag,
	    unsigned long long def, unsigned long long top, uint64_t *out)
{
	unsigned long long n = def;

	if (v != NULL && (parse_u64(v, top, &n) != 0 || n == 0))
		rfix(s, REASON_BAD_OUT_MAX, flag, v, FORM_N, "%s wants a whole "
		     "number 1..%llu like %llu, got %s", flag, top, def, v);
	*out = n;
}

static void
check_out(struct rstate *s, struct run_args *a)
{
	if (a->out == NULL && (a->artifacts.n || a->out_max_s ||
			       a->out_files_s || a->out_depth_s))
		rfix(s, REASON_NO_OUT, "--out", NULL, FORM_DIR, "--artifact, "
		     "--out-max-bytes, --out-max-files and --out-max-depth "
		     "need --out <dir>");
	if (a->out != NULL && os_root_len(a->out) == 0)
		rfix(s, REASON_NO_OUT, "--out", a->out, FORM_DIR,
		     "--out wants an absolute directory, got %s", a->out);
	for (size_t i = 0; i < a->artifacts.n; i++)
		if (run_valid_artifact(a->artifacts.v[i]) != 0)
			rfix(s, REASON_BAD_ARTIFACT, "--artifact",
			     a->artifacts.v[i], "<path/in/work>",
			     "--artifact wants a relative path inside the "
			     "place with no . or .. element, got \"%s\"",
			     a->artifacts.v[i]);
	a->out_max = RUN_OUT_MAX_DEFAULT;
	check_size(s, a->out_max_s, REASON_BAD_OUT_MAX, "--out-max-bytes",
		   &a->out_max);
	check_count(s, a->out_files_s, "--out-max-files",
		    RUN_OUT_FILES_DEFAULT, RUN_OUT_FILES_TOP, &a->out_max_files);
	check_count(s, a->out_depth_s, "--out-max-depth",
		    RUN_OUT_DEPTH_DEFAULT, RUN_OUT_DEPTH_TOP, &a->out_max_depth);
}

static void
validate(struct rstate *s, struct run_args *a)
{
	unsigned long long mp = 256;
	uint64_t mm = 0;
	const char *why;

	if (a->name == NULL || run_valid_name(a->name) != 0)
		rfix(s, REASON_NO_NAME, "--name", a->name, "<name>",
		     "--name wants 1-32 characters, a letter or digit first, "
		     "then letters, digits, - _ or . (got \"%s\")",
		     a->name ? a->name : "");
	if (a->size_s == NULL || run_parse_size(a->size_s, &a->size) != 0)
		rfix(s, REASON_BAD_SIZE, "--size", a->size_s, FORM_SIZE,
		     "--size wants a positive size like 8g (digits, one "
		     "optional fraction, k/m/g/t, optional b), got \"%s\"",
		     a->size_s ? a->size_s : "");
	check_windows(s, a);
	if (a->max_procs_s != NULL &&
	    (parse_u64(a->max_procs_s, 1ULL << 31, &mp) != 0 || mp == 0))
		rfix(s, REASON_BAD_MAX_PROCS, "--max-procs", a->max_procs_s,
		     FORM_N, "--max-procs wants a positive integer, got %s",
		     a->max_procs_s);
	a->max_procs = mp;
	a->max_mem = 8ULL << 30;
	check_size(s, a->max_mem_s, REASON_BAD_MAX_MEM, "--max-mem", &a->max_mem);
	if (a->max_mem_s != NULL && run_parse_size(a->max_mem_s, &mm) == 0 &&
	    mm < RUN_MAX_MEM_MIN)
		rfix(s, REASON_BAD_MAX_MEM, "--max-mem", a->max_mem_s, FORM_BIG,
		     "--max-mem wants at least 16m, the least a command's tree "
		     "needs to start (a shell, the C library, the tool's init), "
		     "got %s", a->max_mem_s);
	job_memory(a);
	if (a->timeout_s != NULL &&
	    run_parse_duration(a->timeout_s, &a->timeout_ms) != 0)
		rfix(s, REASON_BAD_TIMEOUT, "--timeout", a->timeout_s, "<n>m",
		     "--timeout wants a duration above zero like 30m or "
		     "1h30m, got %s", a->timeout_s);
	if (a->container != NULL && !container_ok(a->container))
		rfix(s, REASON_NO_CONTAINER, "--container", a->container,
		     "disk<n>", "--container wants disk<digits>, got %s",
		     a->container);
	check_out(s, a);
	a->status_fd = -1;
	if (a->status_fd_s != NULL &&
	    status_fd_check(a->status_fd_s, &a->status_fd, &why) != 0)
		rfix(s, REASON_BAD_STATUS_FD, "--status-fd", a->status_fd_s,
		     NULL, OUT_STATUS_WANTS "%s%s; or leave it out (the lines "
		     "go to stderr)", a->status_fd_s, why);
	if (!a->saw_dashdash || a->argv.n == 0)
		rrefuse(s, REASON_NO_COMMAND, NULL,
			"name the command after --%s", "");
	{
		struct env_opts o = { a->env_clear, &a->env_keep, &a->env_deny,
				      0 };

		if (envpol_check(&o, s->line, s->r) < 0 ||
		    toolchain_check(&a->toolchains, s->line, s->r) < 0)
			s->nomem = 1;
	}
	if (a->env_clear && a->env_inherit &&
	    remedy_refuse(s->r, REASON_BAD_ENV, REMEDY_IN_TEXT, s->line,
			  &(struct cmdfix){ "--env-inherit", NULL, NULL, NULL,
					    FIX_SWITCH },
			  "--env-inherit passes your whole environment and "
			  "--env-clear only PATH, HOME, LANG and TERM: name "
			  "one") < 0)
		s->nomem = 1;
	for (size_t i = 0; i < a->writes.n; i++)
		if (os_root_len(a->writes.v[i]) == 0)
			rfix(s, REASON_BAD_WRITE, "--write", a->writes.v[i],
			     FORM_DIR, "--write wants an absolute directory "
			     "outside the place, got %s", a->writes.v[i]);
}

/* --egress <id>: the id's shape; with --net-deny a contradiction (the
 * plan allows what it names, --net-deny nothing).  Whether the table is
 * live is run's check step (run/steps.c). */
static void
check_egress(struct rstate *s, const struct run_args *a)
{
	if (a->egress == NULL)
		return;
	if (!egress_run_ok(a->egress))
		rfix(s, REASON_BAD_NET, "--egress", a->egress, "<id>",
		     "--egress wants the run id of an applied egress plan, "
		     "1-32 of [A-Za-z0-9_] (its table is inet "
		     "nova_egress_<id>), got %.40s", a->egress);
	if (a->net_deny &&
	    remedy_refuse(s->r, REASON_BAD_NET, REMEDY_IN_TEXT, s->line,
			  &(struct cmdfix){ "--net-deny", NULL, NULL, NULL,
					    FIX_SWITCH },
			  "--egress %.40s allows what its plan allows and "
			  "--net-deny nothing at all: name one", a->egress) < 0)
		s->nomem = 1;
}

int
run_parse(int argc, char **argv, struct run_args *a, struct refusals *r)
{
	return run_parse_on(argc, argv, a, r, os_run_job_flags());
}

int
run_parse_on(int argc, char **argv, struct run_args *a, struct refusals *r,
	     int job_flags)
{
	struct cmdline line = { "run", argv, argc > 0 ? (size_t)argc : 0 };
	struct rstate s = { r, &line, 0 };
	struct flagspec spec = rspec;

	if (flags_help(argc, argv, FH_WORD)) {
		a->help = 1;
		return 0;
	}
	a->job_flags = job_flags;
	spec.line = &line;
	if (flags_parse(&spec, argc, argv, a, r) < 0)
		s.nomem = 1;
	validate(&s, a);
	check_egress(&s, a);
	if (s.nomem)
		return -1;
	return r->n ? 1 : 0;
}

void
run_args_free(struct run_args *a)
{
	strv_free(&a->reads);
	strv_free(&a->artifacts);
	strv_free(&a->argv);
	strv_free(&a->writes);
	strv_free(&a->net_allow);
	strv_free(&a->net_allow_files);
	strv_free(&a->env_keep);
	strv_free(&a->env_deny);
	strv_free(&a->toolchains);
	strv_free(&a->protect);
	strv_free(&a->unprotect);
}
