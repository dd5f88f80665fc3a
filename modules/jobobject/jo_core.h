/* SPDX-License-Identifier: MIT */
/* jo_core.h -- the Win32-independent logic of jobobject.dll: the command
 * line CreateProcessW is given, the exit-code mapping, the owner marker,
 * the WSL refusal, the scratch's name and the retry policy.  Portable C11
 * with no Windows header, so its CUnit suite runs on Linux too
 * (modules/jobobject/tests/test_jo_core.c); the Win32 files call it. */
#ifndef NS_JO_CORE_H
#define NS_JO_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "ns_backend.h"

/* The longest command line CreateProcessW takes, in UTF-16 units with the
 * terminating NUL (32767); the core counts UTF-8 bytes, which are never
 * fewer than the UTF-16 units of the same text. */
#define JO_CMDLINE_MAX 32767u

/* The exit code TerminateJobObject gives every process the tool ends:
 * severity "informational", the customer bit, facility 0xE53 ("NS"), the
 * NS_TERM_* reason in the low byte.  No Windows status and no exit() of a
 * program uses it, so "ended by the tool" never reads as "exited 0". */
#define JO_KILL_BASE 0x6E530000u
#define JO_KILL_CODE(why) (JO_KILL_BASE | ((uint32_t)(why) & 0xffu))

/* Why a command line cannot be built (jo_cmdline's return). */
enum jo_cmd_err {
	JO_CMD_OK = 0,
	JO_CMD_ARGV0_QUOTE = 1, /* argv[0] holds '"': no quoting carries it */
	JO_CMD_TOO_LONG = 2,    /* over JO_CMDLINE_MAX */
	JO_CMD_BATCH_META = 3,  /* a .bat/.cmd argument cmd.exe would parse */
	JO_CMD_EMPTY = 4        /* no argv[0] */
};

/* Build the command line for CreateProcessW from argv (NULL-terminated),
 * UTF-8, into out (NUL-terminated).  Each argument is quoted so that the
 * Microsoft C runtime and CommandLineToArgvW give back exactly argv: an
 * argument with no space, tab, newline, vertical tab or '"' and not empty
 * goes as it is; any other is wrapped in '"', a run of backslashes before
 * a '"' (or before the closing '"') is doubled and the '"' escaped.
 * argv[0] follows the program-name rule (quotes delimit, backslashes are
 * literal): it is always quoted and may not hold '"'.  When `batch` is set
 * (the command is a .bat or .cmd, which CreateProcessW hands to cmd.exe
 * with its own parsing), an argument holding any of " % ! ^ & | < > ( )
 * or a line break is refused rather than quoted: cmd.exe has no quoting
 * that carries them safely.  *bad is set to the index of the argument at
 * fault.  Returns enum jo_cmd_err. */
int jo_cmdline(const char *const *argv, int batch, char *out, size_t cap,
	       size_t *bad);

/* 1 when path names a .bat or .cmd file (case-insensitive). */
int jo_is_batch(const char *path);

/* How a process's exit code reads, platform-neutral: see the table in
 * docs/SPEC-SANDBOX.md "Windows".  A code the tool's TerminateJobObject
 * set reads as the signal the host would have sent (NS_TERM_SIGNAL: 15,
 * TIMEOUT and CAP: 9); a crash NTSTATUS reads as the POSIX signal of the
 * same crash (access violation 11, illegal instruction 4, divide 8, ...),
 * Ctrl-C 2; a status saying the program could not start (a DLL missing,
 * its init failed, an entry point missing) is NS_END_STATUS (the host's
 * 125: the command could not be started inside the wall); any other code
 * is NS_END_CODE with its low byte, as a POSIX shell sees `exit -1`. */
void jo_exit_map(uint32_t code, struct ns_exit *out);

/* The owner marker `.nova-sandbox-owner` in a scratch:
 * "pid=<decimal>\nstart=<decimal FILETIME of the owner's creation>\n".
 * jo_marker_format writes it (returns its length, or 0 when cap is short);
 * jo_marker_parse reads it strictly: exactly those two lines, digits
 * only, pid 1..2^32-1, start 1..2^63-1, nothing after.  Returns 0, or -1
 * for garbage (reap then treats the scratch as ownerless). */
size_t jo_marker_format(uint32_t pid, uint64_t start, char *out, size_t cap);
int jo_marker_parse(const char *buf, size_t len, uint32_t *pid,
		    uint64_t *start);

/* 0 when the first n bytes of a file (at least its first 4096, or the
 * whole file) are a Windows program: "MZ", a PE header inside them
 * ("PE\0\0" at e_lfanew), marked executable and not a DLL; -1 for
 * anything else (an ELF, a script, a DLL, a truncated file), which the
 * wall refuses as not_executable before CreateProcessW could hand it to
 * anything that is not a Windows loader (Wine starts a Unix binary
 * outside the job; Windows answers ERROR_BAD_EXE_FORMAT). */
int jo_pe_check(const unsigned char *buf, size_t n);

/* 1 when the resolved command path is a WSL launcher: wsl.exe,
 * wslhost.exe or wslg.exe anywhere, or bash.exe in the Windows system
 * directory (sysdir, e.g. "C:\\Windows", and its System32, SysWOW64 and
 * Sysnative).  Compared case-insensitively with '/' and '\\' alike and a
 * "\\\\?\\" prefix ignored. */
int jo_is_wsl(const char *path, const char *sysdir);

/* 0 when "nova-<name>" is a directory name Windows keeps as written: the
 * host's run-name rule (1-32 of [A-Za-z0-9._-], alphanumeric first) and
 * no trailing '.' (Windows drops it, so "a." would be "a"). */
int jo_scratch_name_ok(const char *name);

/* The delay before retry `attempt` (0-based) of a delete that met a
 * sharing violation, in milliseconds, or -1 when the retries are spent
 * (about 2 s in all: an antivirus scanner's brief hold, not a live
 * command, which is dead before the delete starts). */
int jo_retry_delay_ms(unsigned attempt);

/* The CpuRate of JOBOBJECT_CPU_RATE_CONTROL_INFORMATION for a --cpu
 * percentage (HARD_CAP: cycles per 10000), or 0 when percent is not
 * 1..100 (no cap). */
uint32_t jo_cpu_rate(uint32_t percent);

/* May a low-integrity process write an object whose mandatory label is
 * this (--acl caller: the tool sets none, so the caller's must allow the
 * command in)?  has_label 0: no label, which Windows reads as medium with
 * no-write-up: no.  Otherwise rid is the label's integrity RID (low is
 * 0x1000) and policy its SYSTEM_MANDATORY_LABEL_* mask: yes when rid is
 * low or below, or when the label does not say no-write-up (0x1).
 * 1 or 0. */
int jo_low_may_write(int has_label, uint32_t rid, uint32_t policy);

/* The LEAK remedy for a scratch made outside the temp directory (run
 * --scratch: reap looks only in the temp directory), the one cmd.exe
 * command that removes it: "rmdir /s /q <root>", root in double quotes
 * when it holds a space, and in its "\\?\" form when it is longer than
 * plain paths may be (259 characters).  0, or -1 when it does not fit
 * cap or root holds a '"' (no quoting carries it). */
int jo_leak_remedy(const char *root, char *out, size_t cap);

/* ---- the environment block ------------------------------------------ */

/* How two names of the environment block compare, as Windows orders the
 * block (CreateProcessW: sorted by name, case-insensitively, in Unicode
 * (not locale) order): <0, 0 (the same variable), >0.  a and b are UTF-16
 * (na, nb units, no NUL).  The DLL passes CompareStringOrdinal ignoring
 * case (the system's upper-casing of each UTF-16 unit, as the host's tool
 * runner, host/os/windows/tool.c, sorts its block); NULL is the portable
 * one: ASCII letters upper-cased (so '_' sorts after 'Z', as Windows
 * has it), then UTF-16 code unit order (an emoji's surrogates sort
 * before U+E000..U+FFFF). */
typedef int (*jo_name_cmp)(const uint16_t *a, size_t na, const uint16_t *b,
			   size_t nb);
int jo_env_cmp_ascii(const uint16_t *a, size_t na, const uint16_t *b,
		     size_t nb);

/* The length in units of the name of the UTF-16 entry e ("NAME=value",
 * NUL-terminated): up to its first '=' after the first unit (a name such
 * as "=C:" begins with one), or the whole entry when it has none. */
size_t jo_env_name_len(const uint16_t *e);

/* Sort the n NUL-terminated UTF-16 entries v by name, in place, stable
 * (a merge sort; tmp holds n pointers of scratch), with cmp (NULL:
 * jo_env_cmp_ascii).  0, or -1 when two entries name the same variable:
 * *dup is then the index in the sorted v of the second (v[*dup - 1] the
 * first), and v is sorted all the same. */
int jo_env_sort(const uint16_t **v, size_t n, const uint16_t **tmp,
		jo_name_cmp cmp, size_t *dup);

#endif /* NS_JO_CORE_H */
