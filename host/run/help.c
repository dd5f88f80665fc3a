/* SPDX-License-Identifier: MIT */
/* help.c -- the long usage texts of `run` and `reap` (reference
 * sections 8 and 9: they print their own usage, not the flag table). */
#include <stdio.h>

#include "run/run.h"

static const char *const run_text[] = {
	"usage: nova-sandbox run --name <n> --size <8g> [--timeout <30m>] [--read <dir>]...",
	"                        [--go] [--max-procs <n>] [--max-mem <s>] [--status-fd <n>]",
	"                        [--explain] [--net-deny] [--write <cache dir>]...",
	"                        [--toolchain <t>]... [--env-clear] [--env KEY[=VALUE]]...",
	"                        [--env-deny <pattern>]... [--env-inherit]",
	"                        [--protect <path>]... [--unprotect <path>]...",
	"                        [windows: --scratch <dir> --place job --memory <s> --cpu <n>]",
	"                        [--out <dir> [--artifact <p>]... [--out-max-bytes <64m>]",
	"                         [--out-max-files <10000>] [--out-max-depth <32>]]",
	"                        -- <command> <args...>",
	"",
	"nova-sandbox run gives ONE command a disposable place to work, walls it",
	"there, and takes the place away on every path out.  Five steps: look (a",
	"live run of that name refuses: volume_exists; a read lock on the name's",
	"lock file, which no run takes, refuses as name_squatted), create, run,",
	"kill the whole process tree, delete.  The place is the ONLY directory",
	"the command may write: <place>/work is its cwd, <place>/home its HOME",
	"(0700), <place>/tmp its TMPDIR; --read adds read roots (one that holds",
	"the run-name directory refuses: names_reachable).",
	"",
	"linux (nsplace.so): a tmpfs of --size bytes mounted over /tmp in a",
	"private mount namespace, at /tmp/nova-<name>; the command runs in a",
	"private PID namespace, unprivileged through a user namespace (as root",
	"the command runs as uid/gid 65534).  The caller's /tmp is not visible",
	"inside.  A SIGKILL of the tool leaves nothing: no mount, no process.",
	"darwin (apfsvol.so): an APFS volume nova-<name> in the boot container,",
	"--size its quota; reap clears what a SIGKILL left.",
	"windows (jobobject.dll): a directory nova-<name> in %TEMP% (or in",
	"--scratch <dir>) with work\\, home\\, tmp\\ and an owner marker; the command",
	"runs in a job object (kill on close, the caps as its limits) under a",
	"restricted low-integrity token; reap clears what a SIGKILL left in %TEMP%.",
	"",
	"flags:",
	"  --name <n>            1-32 characters: a letter or digit, then letters, digits, - _ .",
	"  --size <8g>           the place's cap: digits[.frac][k|m|g|t][b]",
	"  --timeout <30m>       a Go duration; then SIGTERM, 2 s, SIGKILL, exit 124",
	"  --read <dir>          a directory the command may read and execute (repeatable)",
	"  --max-procs <n>       the process cap (default 256); a tree that reaches it",
	"                        is killed: SANDBOX RUNAWAY, exit 137",
	"  --max-mem <s>         the memory cap (default 8g, at least 16m): resident,",
	"                        swapped, memfd, shmem and the place's tmpfs; reached:",
	"                        exit 137",
	"  --status-fd <n>       the tool's SANDBOX lines go to descriptor n (3 or above,",
	"                        open for writing) instead of stderr; the command never",
	"                        holds it, so it cannot forge them",
	"  --explain             name every path the wall denied the command, before",
	"                        DONE (SANDBOX DENIED lines); refused",
	"                        (explain_unavailable) under a wall that cannot",
	"  --out <dir>           copy the artifacts to <dir>/<name>/ before the delete:",
	"                        into a fresh <dir>/.<name>.nova-new-*, renamed into",
	"                        place, so <dir>/<name>/ holds exactly one run's files",
	"  --artifact <p>        a path relative to <place>/work (the cwd) to copy",
	"                        (repeatable; each named one must exist).  Default:",
	"                        RESULT.md, usage.tsv and repo.bundle, each when present",
	"  --out-max-bytes <64m> the cap on the total copied (measured before a byte is written)",
	"  --out-max-files <n>   the cap on the files and directories copied (default 10000)",
	"  --out-max-depth <n>   the cap on path components below work/ (default 32, at most 255)",
	"                        (both measured before a byte is written, like the bytes)",
	"  --go                  add go env GOROOT and GOMODCACHE as read roots",
	"  --toolchain <t>       go|python|node|rust|c: add the read roots the toolchain",
	"                        reports, each in a NOTE (as the bare form's)",
	"  --net-deny            no IP networking at all (as the bare form's)",
	"  --protect <path>      a path under a --write that stays readable and not",
	"                        writable; every .git at the top of a --write is by",
	"                        default (as the bare form's; protected= on the OK line)",
	"  --unprotect <path>    lift one protection (as the bare form's)",
	"  --write <dir>         a directory OUTSIDE the place the command may also",
	"                        write (a package cache); it is not deleted with the",
	"                        place, a NOTE says so, deletes= names it",
	"  (environment)         by default a clean one: PATH, HOME, LANG, LC_*, TERM,",
	"                        TZ, the temp variables and what --env adds, whoever",
	"                        starts run (env=clean on the OK line; a NOTE names",
	"                        what it dropped)",
	"  --env-inherit         your whole environment instead, less the agent and",
	"                        bus sockets (env=inherit)",
	"  --env-clear           only PATH, HOME, LANG, TERM (env=clear)",
	"  --env KEY[=VALUE]     keep KEY from your environment, or set it (repeatable)",
	"  --env-deny <pattern>  drop the variables whose name matches (repeatable);",
	"                        the last three as the bare form's (nova-sandbox help)",
	"",
	"other platforms' flags (off their platform --scratch and --place wsb",
	"are refused, the rest accepted and ignored with a NOTE):",
	"    --scratch <dir>     windows: make the place in <dir> (absolute,",
	"                        existing, yours, changeable by no one else, not a",
	"                        link) instead of %TEMP%; reap does not look there,",
	"                        so a LEAK's remedy is its rmdir (bad_scratch)",
	"    --place job|wsb     windows: job, the default; wsb (Windows Sandbox) is",
	"                        not built (no_wsb)",
	"    --memory <s>        windows: the job's memory limit, as --max-mem is;",
	"                        alone it replaces --max-mem's 8g, with it the",
	"                        smaller applies (a NOTE says which)",
	"    --cpu <1..100>      windows: a hard cap on the job's CPU rate, in",
	"                        percent; refused (bad_cpu) where the job cannot",
	"                        take one",
	"    --container <disk>  darwin: the APFS container",
	"",
	"handoff: only regular files and directories of regular files on the place",
	"are copied, each opened with O_NOFOLLOW|O_NONBLOCK relative to a checked",
	"directory; links, FIFOs and devices are refused (named) or skipped",
	"(inside a directory).  To hand back a repository, make a bundle in the",
	"place's work/: git bundle create repo.bundle --all.  --out is checked",
	"before anything runs (a directory can be made and renamed there, and it",
	"has the smaller of --out-max-bytes and --size free); what a killed",
	"hand-off left there is cleared by the next run (a NOTE each).",
	"",
	"lines (stderr, or the --status-fd; each one whole, in one write; DONE is",
	"the tool's last): SANDBOX STEP name=<s> state=start|done ms=<n>, SANDBOX OK,",
	"SANDBOX TIMEOUT, SANDBOX RUNAWAY, SANDBOX OUT name= files= bytes=,",
	"SANDBOX DONE name=<n> exit=<c> wall=<s.sss> freed=<bytes>, and when the",
	"place could not be removed SANDBOX LEAK name= volume= remedy=\"<command>\".",
	"",
	"exit codes: each verb's own, by verb:",
	"  run: the command's own; 3 the place leaked; 124 --timeout; 125 refused;",
	"       127 not on PATH; 128+N a caught signal N; 137 a cap was reached",
	NULL
};

static const char *const reap_text[] = {
	"usage: nova-sandbox reap [--dry-run]",
	"",
	"nova-sandbox reap clears the places a SIGKILLed run left behind: the",
	"places the place module lists (nova- names with an owner marker),",
	"never one whose owner is live (marker pid alive and its start time",
	"unchanged; an unreadable start time counts as live).  Holders get",
	"SIGTERM, 2 s, SIGKILL; then the place is deleted.  It touches nothing",
	"whose name it did not make.  On linux (nsplace.so) a SIGKILL leaves",
	"no place, so reap finds volumes=0.  It also clears what a killed",
	"hand-off left in its --out (.<name>.nova-new-<pid>, .nova-old-<pid>):",
	"an earlier copy that is the only one left is renamed back, the rest",
	"removed.",
	"",
	"flags:",
	"  --dry-run   list what would be reaped; signal and delete nothing",
	"",
	"lines: SANDBOX REAP volume=<n> procs=<k> deleted=yes|no, SANDBOX REAP",
	"out=<dir>/<entry> pid=<p> deleted=yes|no (or restored=<dir>/<name>),",
	"then SANDBOX REAP OK volumes=<n>.",
	"",
	"exit codes: each verb's own, by verb:",
	"  reap: 0 nothing remains; 3 something remains; 125 refused",
	NULL
};

static int
print(const char *const *t)
{
	for (size_t i = 0; t[i] != NULL; i++)
		printf("%s\n", t[i]);
	return fflush(stdout) == 0 ? 0 : -1;
}

int
run_usage(void)
{
	return print(run_text);
}

int
reap_usage(void)
{
	return print(reap_text);
}
