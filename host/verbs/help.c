/* SPDX-License-Identifier: MIT */
/* help.c -- the banner (`nova-sandbox help`) and per-verb help
 * (`<verb> -h|--help|-help|--h`, `help <verb>`), reference section 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit.h"
#include "wall/args.h"
#include "run/runargs.h"
#include "verbs/verbs.h"

static const char *const banner[] = {
	"nova-sandbox: run ONE command inside a wall the operating system enforces.",
	"",
	"how it works: the OS and toolchain roots and every --read directory are",
	"readable, every --write directory is readable, writable and deletable,",
	"and everything else on disk is denied to the command by the kernel",
	"(Landlock on linux).  The wall itself is a module the host loads: the",
	"config file selects it, and `nova-sandbox modules` lists what is",
	"configured and whether it is available here.",
	"",
	"usage:",
	"  nova-sandbox --read <dir>... [--read-noexec <dir>...] --write <dir>... [--net-deny]",
	"               [--net-listen] [--net-allow <host>[:<port>]]... [--net-allow-file <file>]...",
	"               [--cwd <dir>] [--tmp <dir>]",
	"               [--name <container>] [--acl tool|caller] [--gpu none|metal]",
	"               [--status-fd <n>] [--explain] [--env-clear] [--env KEY[=VALUE]]...",
	"               [--env-deny <pattern>]... [--toolchain go|python|node|rust|c]...",
	"               [--protect <path>]... [--unprotect <path>]...",
	"               -- <command> <args...>",
	"  nova-sandbox probe --write <dir>... [--read <dir>...] [--read-noexec <dir>...] [--secret <path>]",
	"               [--net-deny] [--net-listen] [--gpu <mode>] [--explain] [--json]",
	"  nova-sandbox policy [--read <dir>]... [--read-noexec <dir>]... --write <dir>... [--cwd <dir>]",
	"               [--tmp <dir>] [--name <n>] [--net-deny] [--net-listen] [--net-allow <entry>]...",
	"               [--net-allow-file <file>]...",
	"               [--gpu <mode>] [--env...] [--toolchain <t>]... [--protect <path>]...",
	"               [--unprotect <path>]... [--json]",
	"               [-- <command> <args...>]",
	"  nova-sandbox check [--json]",
	"  nova-sandbox modules [--json]",
	"  nova-sandbox run --name <n> --size <8g> [--timeout <30m>] [--read <dir>]...",
	"               [--max-procs <n>] [--max-mem <s>] [--status-fd <n>] [--explain]",
	"               [--net-deny] [--write <cache dir>]... [--toolchain <t>]...",
	"               [--protect <path>]... [--unprotect <path>]...",
	"               [--env-clear] [--env KEY[=VALUE]]... [--env-deny <pattern>]...",
	"               [--out <dir> [--artifact <p>]... [--out-max-bytes <64m>]",
	"               [--out-max-files <10000>] [--out-max-depth <32>]]",
	"               -- <command> <args...>",
	"  nova-sandbox run --help",
	"  nova-sandbox reap [--dry-run]",
	"  nova-sandbox worktree --repo <abs-dir> --scratch <dir> --pr <id> [--base <branch>]",
	"  nova-sandbox worktree --repo <abs-dir> --scratch <dir> --prune",
	"  nova-sandbox egress plan --run <id> --policy <file> --model-host <host> --resolver <ip>",
	"               [--bench-cidr <cidr>]... --uid <n> | --veth <if> --out <file>",
	"  nova-sandbox egress apply --plan <file> --run <id>",
	"  nova-sandbox egress check --plan <file> | --live --run <id> [--plan <file>]",
	"  nova-sandbox egress drop --run <id>",
	"  nova-sandbox version | --version",
	"  nova-sandbox help [<verb>]",
	"",
	"flags of the bare form:",
	"  --read <dir>          readable and executable by the command (repeatable)",
	"  --read-noexec <dir>   readable, never execve'd (repeatable); NOT a code",
	"                        barrier: ld.so <file>, mmap(PROT_EXEC) or a copy",
	"                        into a --write still run its code",
	"  --write <dir>         readable, writable, deletable (repeatable; required;",
	"                        the first holds <dir>/.nova-sandbox-tmp, the TMPDIR,",
	"                        removed after the run unless it was there before)",
	"  --cwd <dir>           the working directory, inside a --write",
	"                        (default: the first --write)",
	"  --tmp <dir>           the temp directory, inside a --write",
	"  --net-deny            no network: unix sockets only (no IP, netlink, vsock...)",
	"  --net-listen          the command may listen (never with --net-deny)",
	"  --net-allow <entry>   <host>[:<port>] (port 443 by default) the command may",
	"                        reach through the tool's proxy: a DNS name, *.<suffix>,",
	"                        an IP address or CIDR; localhost:<p> reaches the",
	"                        host's loopback port <p>; nothing else is reachable",
	"  --net-allow-file <f>  a file of --net-allow entries, one a line, # comments",
	"  --name <container>    accepted; no wall here names a container (windows:",
	"                        jobobject has no AppContainer, a NOTE says so)",
	"  --acl tool|caller     who gives the --write roots their access.  windows:",
	"                        tool (the default) labels each low for the run and",
	"                        restores it; caller changes nothing, and a root the",
	"                        low-integrity command could not write is refused",
	"                        (bad_write).  elsewhere accepted and ignored (a NOTE)",
	"  --gpu none|metal      the GPU mode (default none); metal records intent",
	"                        and grants nothing (darwin: a GPU probe under the",
	"                        wall says what it found, in a NOTE)",
	"  --status-fd <n>       the tool's SANDBOX lines go to descriptor n (3 or above,",
	"                        open for writing) and not to stderr; the command never",
	"                        holds it, so it cannot forge them.  Without it they go",
	"                        to stderr, where the tool's DONE is the last line",
	"  --explain             name every path the wall denied the command, before",
	"                        DONE: SANDBOX DENIED path=<p> op=<op> remedy=\"<flag> <dir>\"",
	"                        and warn=<words> after one that reaches a secret store,",
	"                        a home or a --read root; what no flag grants is",
	"                        counted in one NOTE; refused",
	"                        (explain_unavailable) under a wall that cannot",
	"  --env-clear           start the command's environment from PATH, HOME, LANG",
	"                        and TERM only (and the temp variables)",
	"  --env KEY[=VALUE]     keep KEY from your environment, or set it (repeatable;",
	"                        wins over --env-clear and --env-deny; never HOME or",
	"                        a temp variable)",
	"  --env-deny <pattern>  drop every variable whose name matches the shell",
	"                        pattern, like 'AWS_*' (repeatable)",
	"                        the OK line's env-dropped= counts what was kept out;",
	"                        a NOTE names (never the values) the variables named",
	"                        like credentials (*_TOKEN, *SECRET*, *_KEY, AWS_*,",
	"                        *PASSWORD* ...) that pass, and the flag that drops them",
	"  --toolchain <t>       go, python, node, rust or c: add the read roots the",
	"                        toolchain itself reports (go env; python3 sys.prefix,",
	"                        base_prefix, user site; node's install and npm's",
	"                        prefix; rustc's sysroot, cargo's and rustup's homes;",
	"                        cc -print-search-dirs), each in a NOTE; never a write",
	"                        root; a toolchain not on PATH refuses (bad_toolchain);",
	"                        a tool inside a --write is not run (NOTE); the tools",
	"                        run in an empty private directory (cwd and HOME);",
	"                        an answer of /, or holding HOME or a --write, refuses;",
	"                        the answers are kept in the state directory per",
	"                        tool file (device, inode, size, mtime, ctime): a",
	"                        changed tool is asked again (rust: never kept)",
	"  --protect <path>      a path under a --write that stays readable and is NOT",
	"                        writable (no write, create, rename, unlink, chmod)",
	"                        whatever --write covers it (repeatable).  By default",
	"                        every .git at the top of a --write and on the way down",
	"                        to the cwd is protected (and the gitdir a gitfile",
	"                        names), so a job cannot plant what your next git runs",
	"                        (hooks, core.fsmonitor); the OK line's protected=",
	"                        names them.  landlock: a read-only bind in a user",
	"                        namespace of the wall's own; refused where none can",
	"                        be made (protect_unavailable)",
	"  --unprotect <path>    lift one protection (repeatable; one that matches",
	"                        nothing protected refuses, bad_protect)",
	"",
	"caps: the command's process tree (every process it starts) may hold fewer",
	"than 256 processes and less than 8 GiB of memory (resident, swapped, memfd,",
	"shmem and tmpfs); at a cap it is killed: SANDBOX RUNAWAY, exit 137.  When the",
	"command exits, every process it left behind is killed before DONE.",
	"",
	"every path is yours to name: nothing outside the lists above and the OS",
	"roots is reachable, HOME must already be inside a --write, and the wall is",
	"never widened to make a command work.  The wall is for an unprivileged",
	"user: as root the bare form and probe are refused first (as_root), with",
	"the line run as a user (setpriv --reuid=<uid> --regid=<gid>",
	"--clear-groups -- nova-sandbox ...); run is for root.",
	"devices: /dev/null, zero, full (read, write), random, urandom (read);",
	"/dev/tty and the terminal itself only while fds 0-2 hold it for reading",
	"and writing; no other terminal, no /dev/shm, no new pty.  Variables",
	"naming an agent, a bus, a display or a server that acts as you",
	"(SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, DISPLAY, ...) are dropped, and",
	"below landlock abi 9 a NOTE names the agent and bus sockets still",
	"reachable.",
	"A command that runs OUTSIDE the wall and dies inside it is missing a --read",
	"or a --write: run it again with the directory it needs.",
	"A --write that holds a file of the tool's own that the command could change",
	"(the binary, the config, a module, a library, the run-name directory) is",
	"refused (wall_writable): install nova-sandbox outside every --write.",
	"Any root (--read too) that holds the run-name directory is refused",
	"(names_reachable): name a narrower --read, or create /run/user/<uid>.",
	"",
	"worktree: one pull request's exact head (gh pr view) in <scratch>/<guid>,",
	"a detached git worktree of --repo, recorded in <scratch>/<id>.pr and",
	"reused while it is clean and at that head; --prune removes the trees",
	"whose pull request is merged or closed, or that are open, untouched for",
	"24 h and not in use (no process's working directory or root is in the",
	"tree, and no process holds a lock on it: `flock -s <tree> <job>`).",
	"Hand-made worktrees are never touched; a token is never printed.",
	"",
	"config: the modules come from nova-sandbox.conf (SYSCONFDIR/nova-sandbox/,",
	"or the built-in defaults) and then conf.d/*.conf beside it, in byte order",
	"(a module package's drop-in); NOVA_SANDBOX_CONFIG names another config",
	"file (ignored when the process is set-id).  The config selects modules",
	"and nothing else: no key can name a path or turn the wall off.",
	"`nova-sandbox modules` names the file and line of every setting.",
	"",
	"exit codes: each verb's own, by verb:",
	"  bare form: the command's own 0-124; 125 the tool refused; 126 only as the",
	"             command's own (the tool never exits 126); 127 not found;",
	"             128+N killed by signal N; 137 also a cap passed (RUNAWAY)",
	"  run: the command's own; 3 the place leaked; 124 --timeout; 125 refused;",
	"       127 not found; 128+N killed by signal N; 137 a cap passed",
	"  reap: 0 nothing remains; 3 something remains; 125 refused",
	"  probe: 0 the wall held; 1 the wall is broken; 2 could not run",
	"  policy, check, version, help: 0 ok; 2 could not run (usage)",
	"  modules: 0 a wall is available; 1 none is; 2 could not run",
	"  worktree: 0 done (prune: whatever it removed); 1 prune could not",
	"            remove a tree it chose; 2 could not run",
	"  egress: 0 done; 1 invariants or the kernel said NO; 2 could not run",
	"  no arguments, unknown verb: 2",
	"",
	"example:",
	"nova-sandbox check",
	"mkdir -p /tmp/trial/home",
	"HOME=/tmp/trial/home nova-sandbox probe --write /tmp/trial",
	"HOME=/tmp/trial/home nova-sandbox --write /tmp/trial -- /bin/sh -c 'echo inside > /tmp/trial/out'",
	"",
	"nova-sandbox modules",
	"nova-sandbox policy --write /tmp/trial",
	NULL,
};

int
verb_help(void)
{
	for (size_t i = 0; banner[i]; i++)
		printf("%s\n", banner[i]);
	return fflush(stdout) == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
}

struct verbdoc {
	const char *verb;
	unsigned argv_verb; /* its flags from the table, or 0 */
	const char *exits;
};

static const struct verbdoc docs[] = {
	{ "check", ARGV_CHECK,
	  "0 report printed whatever is enforceable; 2 usage" },
	{ "version", 0, "0 printed; 2 an argument was given" },
	{ "policy", ARGV_POLICY, "0 policy printed; 2 could not build it" },
	{ "probe", ARGV_PROBE,
	  "0 the wall held; 1 the wall is broken; 2 could not run" },
	{ "worktree", 0, "0 done (prune: whatever it removed); 1 prune could "
	  "not remove a tree it chose; 2 could not run" },
	/* run, reap and egress print their own help (run_usage, reap_usage,
	 * egress_help) */
};

/* The description without back quotes, and its back-quoted kind word. */
static void
split_help(const char *h, char *kind, size_t kn, char *desc, size_t dn)
{
	const char *q = strchr(h, '`'), *e = q ? strchr(q + 1, '`') : NULL;
	size_t o = 0;

	kind[0] = '\0';
	if (e != NULL)
		snprintf(kind, kn, "%.*s", (int)(e - q - 1), q + 1);
	for (; *h && o + 1 < dn; h++)
		if (*h != '`')
			desc[o++] = *h;
	desc[o] = '\0';
}

static int
flag_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct flagdef *const *)a)->name,
		      (*(const struct flagdef *const *)b)->name);
}

static void
print_flags(const struct flagdef *defs, size_t ndefs, unsigned v)
{
	const struct flagdef *sorted[32];
	size_t n = 0;
	char kind[64], desc[256];

	for (size_t i = 0; i < ndefs && n < 32; i++)
		if (defs[i].verbs & v)
			sorted[n++] = &defs[i];
	qsort(sorted, n, sizeof(sorted[0]), flag_cmp);
	for (size_t i = 0; i < n; i++) {
		split_help(sorted[i]->help, kind, sizeof(kind), desc,
			   sizeof(desc));
		printf("  --%s%s%s  %s\n", sorted[i]->name, kind[0] ? " " : "",
		       kind, desc);
	}
}

static void
print_quotes(const char *verb)
{
	char pat[64];
	int any = 0;

	snprintf(pat, sizeof(pat), "nova-sandbox %s", verb);
	for (size_t i = 0; banner[i]; i++) {
		if (strstr(banner[i], pat) == NULL)
			continue;
		if (!any++)
			printf("from `nova-sandbox help`:\n");
		printf("  %s\n", banner[i]);
	}
}

int
verb_help_for(const char *verb)
{
	const struct verbdoc *d = NULL;

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		if (strcmp(docs[i].verb, verb) == 0)
			d = &docs[i];
	if (strcmp(verb, "egress") == 0)
		return egress_help(NULL);
	if (strcmp(verb, "run") == 0)
		return run_usage();
	if (strcmp(verb, "reap") == 0)
		return reap_usage();
	if (d == NULL)
		return -1;
	printf("usage: nova-sandbox %s [flags]\n", verb);
	print_quotes(verb);
	printf("flags:\n");
	if (d->argv_verb)
		print_flags(args_flags, args_nflags, d->argv_verb);
	if (strcmp(verb, "worktree") == 0)
		print_flags(worktree_flags, worktree_nflags, 1);
	printf("exit codes: each verb's own, by verb:\n");
	printf("  %s: %s\n", verb, d->exits);
	return fflush(stdout) == 0 ? 0 : -1;
}
