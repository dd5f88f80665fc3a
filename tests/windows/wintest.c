/* SPDX-License-Identifier: MIT */
/* wintest.c -- the Windows suite: a test ns_host that loads jobobject.dll
 * by its full path (LoadLibraryExW, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
 * SYSTEM32), checks the ns_backend_v1 header and drives the wall and the
 * place through ABI 1.3 with jo_child.exe as the command.  Run under Wine
 * by tests/windows/run.sh (and by hand on Windows, docs/WINDOWS.md).
 *
 *   wintest.exe <jobobject.dll> <jo_child.exe> <nova-sandbox.conf>
 *
 * One line per test: "PASS <name>", "FAIL <name> -- <why>" or
 * "SKIP <name> -- <reason>" (only what Wine does not implement, only under
 * Wine; run.sh asserts the skip list), then
 * "windows suite: <p> passed, <s> skipped, <f> failed".  Exit 0 only when
 * nothing failed. */
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>
#include <io.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iniparser.h"
#include "ns_backend.h"
#include "wt.h"

/* the tool's own termination code (jobobject's jo_core.h, by value: the
 * test speaks only the ABI and the documented codes) */
#define KILL_CODE(why) (0x6E530000u | (why))

static const struct ns_backend_ops *B;
static char dll[MAX_PATH], child[MAX_PATH], tmp[MAX_PATH], conf[MAX_PATH];

/* ---- the test host ---------------------------------------------------- */

static struct {
	char refusals[8192], notes[4096], text[8192];
	char reason[64];
	int n_refusals;
} hs;

static void
cat(char *buf, size_t cap, const char *a, const char *b)
{
	size_t n = strlen(buf);

	snprintf(buf + n, cap - n, "%s%s%s\n", a, b ? ": " : "", b ? b : "");
}

static void
h_note(void *c, const char *t)
{
	(void)c;
	cat(hs.notes, sizeof(hs.notes), t, NULL);
}

static void
h_refuse(void *c, const char *reason, const char *t)
{
	(void)c;
	snprintf(hs.reason, sizeof(hs.reason), "%s", reason);
	cat(hs.refusals, sizeof(hs.refusals), reason, t);
	hs.n_refusals++;
}

static void
h_text(void *c, const char *l)
{
	(void)c;
	cat(hs.text, sizeof(hs.text), l, NULL);
}

static const char *
h_option(void *c, const char *k)
{
	(void)c;
	(void)k;
	return NULL;
}

static void
h_denial(void *c, const struct ns_denial *d)
{
	(void)c;
	(void)d;
}

static const struct ns_host H = {
	sizeof(struct ns_host), NS_BACKEND_ABI_MAJOR, NS_BACKEND_ABI_MINOR,
	NULL, h_note, h_refuse, h_text, h_option, h_denial
};

static void
hs_reset(void)
{
	memset(&hs, 0, sizeof(hs));
}

static const char *
hs_extra(void)
{
	static char buf[8300];

	snprintf(buf, sizeof(buf), "%s%s", hs.refusals[0] ? " | refusals: " :
			"", hs.refusals);
	return buf;
}

/* ---- a policy and one walled command ----------------------------------- */

struct cmd {
	const char *argv[16];
	struct ns_rule rules[4];
	size_t n_rules;
	uint64_t max_procs, max_mem;
	int out_fd; /* the command's stdout, or -1 */
	const char *command; /* default: jo_child.exe */
	uint32_t cpu, acl;   /* ABI 1.3: cpu_percent, acl */
	const char *name;    /* --name, or NULL */
	const char *cwd;     /* default: the temp directory */
};

static char **envp;

static void
env_init(void)
{
	wchar_t *e = GetEnvironmentStringsW(), *p;
	size_t n = 0, i = 0;

	for (p = e; *p; p += wcslen(p) + 1)
		n++;
	envp = calloc(n + 1, sizeof(char *));
	for (p = e; *p; p += wcslen(p) + 1) {
		int k = WideCharToMultiByte(CP_UTF8, 0, p, -1, NULL, 0, NULL,
					    NULL);

		envp[i] = malloc((size_t)k);
		WideCharToMultiByte(CP_UTF8, 0, p, -1, envp[i++], k, NULL,
				    NULL);
	}
	FreeEnvironmentStringsW(e);
}

static void
policy_of(const struct cmd *c, struct ns_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->rules = c->rules;
	p->n_rules = c->n_rules;
	p->gpu = "none";
	p->command = c->command ? c->command : child;
	p->argv = c->argv;
	p->envp = (const char *const *)envp;
	p->cwd = c->cwd ? c->cwd : tmp;
	p->tmp = tmp;
	p->home = tmp;
	p->max_procs = c->max_procs;
	p->max_mem_bytes = c->max_mem;
	p->cpu_percent = c->cpu;
	p->acl = c->acl;
	p->name = c->name;
}

struct walled {
	struct ns_policy pol;
	void *state;
	struct ns_proc proc;
};

static int
start(struct cmd *c, struct walled *w)
{
	struct ns_launch l = { sizeof(l), { -1, -1, -1 }, NULL, 0 };

	c->argv[0] = c->argv[0] ? c->argv[0] : "jo_child.exe";
	policy_of(c, &w->pol);
	memset(&w->proc, 0, sizeof(w->proc));
	w->proc.struct_size = sizeof(w->proc);
	l.stdio[1] = c->out_fd;
	if (B->wall->prepare(&H, &w->pol, &w->state) != NS_OK)
		return fail("prepare refused (%s)", hs.reason);
	if (B->wall->spawn(&H, w->state, &w->pol, &l, &w->proc) != NS_OK) {
		B->wall->release(&H, w->state);
		return fail("spawn refused (%s)", hs.reason);
	}
	return 0;
}

static int
wait_end(struct walled *w, int64_t ms, struct ns_exit *e)
{
	memset(e, 0, sizeof(*e));
	e->struct_size = sizeof(*e);
	return B->wall->wait(&H, w->state, &w->proc, ms, e) == NS_OK ? 0 :
	       fail("wait failed (%s)", hs.reason);
}

/* The code the host makes of an end (docs/SPEC-SANDBOX.md §4). */
static int
exit_code(const struct ns_exit *e, uint32_t killed)
{
	if (killed == NS_TERM_TIMEOUT)
		return 124;
	if (e->how == NS_END_CODE)
		return e->code & 0xff;
	if (e->how == NS_END_SIGNAL)
		return 128 + e->code;
	return 125;
}

static void
stop(struct walled *w, uint32_t killed)
{
	struct ns_finish f;

	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	f.proc = w->proc;
	f.killed = killed;
	B->wall->finish(&H, w->state, &f);
	B->wall->release(&H, w->state);
}

/* One command to its end: its host exit code. */
static int
run_cmd(struct cmd *c, int *code)
{
	struct walled w;
	struct ns_exit e;

	if (start(c, &w) != 0)
		return -1;
	if (wait_end(&w, 30000, &e) != 0 || e.how == NS_END_RUNNING) {
		B->wall->terminate(&H, w.state, &w.proc, NS_TERM_SIGNAL);
		stop(&w, NS_TERM_SIGNAL);
		return fail("the command did not end in 30 s");
	}
	*code = exit_code(&e, 0);
	stop(&w, 0);
	return 0;
}

/* ---- the config ----------------------------------------------------------- */

/* modules/jobobject/dropin.conf (the module's conf.d drop-in) read by the
 * iniparser the Windows host links (third_party/iniparser-4.1, built for
 * Windows): [windows] wall and place name the very DLL the suite loads,
 * and nothing else is in the section. */
static int
t_config(void)
{
	dictionary *d = iniparser_load(conf);
	const char *wall, *place, *base = strrchr(dll, '\\');
	const char *keys[8];
	int n;

	if (d == NULL)
		return fail("iniparser cannot read %s", conf);
	wall = iniparser_getstring(d, "windows:wall", NULL);
	place = iniparser_getstring(d, "windows:place", NULL);
	n = iniparser_getsecnkeys(d, "windows");
	if (wall == NULL || base == NULL || _stricmp(wall, base + 1) != 0 ||
	    place == NULL || _stricmp(place, base + 1) != 0) {
		iniparser_freedict(d);
		return fail("[windows] wall = %s, place = %s, the suite loads "
			    "%s", wall ? wall : "(none)",
			    place ? place : "(none)", dll);
	}
	if (n != 2 || iniparser_getseckeys(d, "windows", keys) == NULL ||
	    strcmp(keys[0], "windows:wall") != 0 ||
	    strcmp(keys[1], "windows:place") != 0) {
		iniparser_freedict(d);
		return fail("[windows] holds %d keys, want wall and place", n);
	}
	iniparser_freedict(d);
	return 0;
}

/* ---- the module ---------------------------------------------------------- */

static int
t_load(void)
{
	wchar_t w[MAX_PATH];
	HMODULE m;
	FARPROC p;

	if (MultiByteToWideChar(CP_UTF8, 0, dll, -1, w, MAX_PATH) <= 0)
		return fail("bad path %s", dll);
	SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_SYSTEM32);
	if (LoadLibraryExW(L"jobobject.dll", NULL,
			   LOAD_LIBRARY_SEARCH_SYSTEM32) != NULL)
		return fail("a bare name was found on the search path");
	m = LoadLibraryExW(w, NULL, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
					    LOAD_LIBRARY_SEARCH_SYSTEM32);
	if (m == NULL)
		return fail("LoadLibraryExW %s: error %lu", dll,
			    GetLastError());
	p = GetProcAddress(m, NS_BACKEND_SYMBOL);
	if (p == NULL)
		return fail("no %s export", NS_BACKEND_SYMBOL);
	B = (const struct ns_backend_ops *)(void *)p;
	if (B->magic != NS_BACKEND_MAGIC || B->abi_major != NS_BACKEND_ABI_MAJOR ||
	    B->abi_minor > NS_BACKEND_ABI_MINOR ||
	    B->struct_size < NS_BACKEND_OPS_SIZE_1_0)
		return fail("header: magic %x abi %u.%u size %u", B->magic,
			    B->abi_major, B->abi_minor, B->struct_size);
	if (B->roles != (NS_ROLE_WALL | NS_ROLE_PLACE) || B->wall == NULL ||
	    B->place == NULL || strcmp(B->name, "jobobject") != 0)
		return fail("roles %x name %s", B->roles, B->name);
	if (B->wall->struct_size < NS_WALL_OPS_SIZE_1_2 ||
	    B->wall->shape != NS_SHAPE_CONTAINER || B->wall->wait == NULL ||
	    B->wall->terminate == NULL ||
	    !(B->wall->features & NS_WALL_CAPS_NATIVE))
		return fail("wall: shape %u features %x", B->wall->shape,
			    B->wall->features);
	return 0;
}

static int
t_facts(void)
{
	struct ns_wall_facts f;

	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	if (B->wall->facts(&H, &f) != NS_OK || !f.available)
		return fail("not available: %s", f.why);
	if (f.net_enforceable)
		return fail("claims to enforce --net-deny");
	if (wine != NULL && (strcmp(f.abi, "wine") != 0 ||
			     strstr(f.note, "NOT enforced") == NULL))
		return fail("under Wine the facts must say so: abi=%s note=%s",
			    f.abi, f.note);
	return 0;
}

/* ---- W-rules under Wine ---------------------------------------------------- */

static int
t_exit_normal(void)
{
	struct cmd c = { { NULL, "exit", "7", NULL }, .out_fd = -1 };
	int code = -1;

	if (run_cmd(&c, &code) != 0)
		return -1;
	return code == 7 ? 0 : fail("exit %d, want 7", code);
}

static int
t_in_job_from_birth(void)
{
	struct cmd c = { { NULL, "injob", NULL }, .out_fd = -1 };
	int code = -1;

	if (run_cmd(&c, &code) != 0)
		return -1;
	return code == 0 ? 0 : fail("the command was not in a job (%d)", code);
}

static int
t_exit_mapping(void)
{
	static const struct {
		const char *mode, *arg;
		int want;
	} t[] = {
		{ "exit", "0", 0 },
		{ "exit", "125", 125 },
		{ "exit", "-1", 255 },
		{ "status", "C0000005", 139 },
		{ "status", "C000013A", 130 },
		{ "status", "C0000409", 134 },
		{ "status", "C0000135", 125 },
		{ "crash", NULL, 139 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cmd c = { { NULL, t[i].mode, t[i].arg, NULL },
				 .out_fd = -1 };
		int code = -1;

		if (run_cmd(&c, &code) != 0)
			return -1;
		if (code != t[i].want)
			return fail("%s %s: exit %d, want %d", t[i].mode,
				    t[i].arg ? t[i].arg : "", code, t[i].want);
	}
	return 0;
}

static int
t_hostile_argv(void)
{
	static const char *const args[] = {
		"plain", "two words", "", "\"", "\\\"", "trailing\\",
		"sp ace\\", "\" & calc.exe & \"", "--x=\"a b\"\\", "t\tab",
		"%PATH%", "^&|<>", "\xc3\xa9t\xc3\xa9", NULL
	};
	struct cmd c = { { NULL, "args" }, .out_fd = -1 };
	char path[MAX_PATH], got[4096];
	size_t n = 0, at = 0;
	int fd, code = -1;

	for (; args[n] != NULL; n++)
		c.argv[2 + n] = args[n];
	snprintf(path, sizeof(path), "%sjo-args.out", tmp);
	fd = _open(path, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0600);
	if (fd < 0)
		return fail("cannot open %s", path);
	c.out_fd = fd;
	if (run_cmd(&c, &code) != 0) {
		_close(fd);
		return -1;
	}
	_close(fd);
	fd = _open(path, _O_RDONLY | _O_BINARY);
	n = fd >= 0 ? (size_t)_read(fd, got, sizeof(got)) : 0;
	if (fd >= 0)
		_close(fd);
	DeleteFileA(path);
	if (code != 0)
		return fail("args exited %d", code);
	for (size_t i = 0; args[i] != NULL; i++) {
		size_t k = strlen(args[i]) + 1;

		if (at + k > n || memcmp(got + at, args[i], k) != 0)
			return fail("argument %zu [%s] did not come back", i,
				    args[i]);
		at += k;
	}
	return at == n ? 0 : fail("extra output");
}

static int
t_timeout(void)
{
	struct cmd c = { { NULL, "sleep", "60000", NULL }, .out_fd = -1 };
	struct walled w;
	struct ns_exit e;
	DWORD raw = 0;
	int code;

	if (start(&c, &w) != 0)
		return -1;
	if (wait_end(&w, 300, &e) != 0)
		return -1;
	if (e.how != NS_END_RUNNING)
		return fail("a sleeping command ended (how %u)", e.how);
	B->wall->terminate(&H, w.state, &w.proc, NS_TERM_TIMEOUT);
	if (wait_end(&w, 10000, &e) != 0)
		return -1;
	GetExitCodeProcess((HANDLE)w.proc.handle, &raw);
	code = exit_code(&e, NS_TERM_TIMEOUT);
	stop(&w, NS_TERM_TIMEOUT);
	if (raw != KILL_CODE(NS_TERM_TIMEOUT))
		return fail("the tool's code is %lx, not %x", raw,
			    KILL_CODE(NS_TERM_TIMEOUT));
	if (e.how != NS_END_SIGNAL || e.code != 9 || code != 124)
		return fail("timeout read as how %u code %d (exit %d)", e.how,
			    e.code, code);
	return 0;
}

static int
t_runaway(void)
{
	struct cmd c = { { NULL, "many", "20", NULL }, .out_fd = -1,
			 .max_procs = 4 };
	struct walled w;
	struct ns_exit e;
	int code;

	if (start(&c, &w) != 0)
		return -1;
	if (wait_end(&w, 20000, &e) != 0)
		return -1;
	code = exit_code(&e, 0);
	stop(&w, NS_TERM_CAP);
	if (code != 137)
		return fail("a runaway tree gave %d (how %u code %d), want 137",
			    code, e.how, e.code);
	if (strstr(hs.notes, "reached a cap") == NULL)
		return fail("no cap note from finish()");
	return 0;
}

static DWORD
read_pid(const char *path, int wait_ms)
{
	for (int t = 0; t < wait_ms; t += 50) {
		FILE *f = fopen(path, "r");
		unsigned long pid = 0;

		if (f != NULL) {
			int ok = fscanf(f, "%lu", &pid) == 1;

			fclose(f);
			if (ok && pid > 0)
				return (DWORD)pid;
		}
		Sleep(50);
	}
	return 0;
}

static int
t_grandchildren(void)
{
	char pidfile[MAX_PATH];
	struct cmd c = { { NULL, "tree", pidfile, NULL }, .out_fd = -1 };
	struct walled w;
	struct ns_exit e;
	HANDLE gc;
	DWORD pid, raw = 0;

	snprintf(pidfile, sizeof(pidfile), "%sjo-tree.pid", tmp);
	DeleteFileA(pidfile);
	if (start(&c, &w) != 0)
		return -1;
	/* the command exits 0 at once; its grandchild keeps the job alive */
	if (wait_end(&w, 1500, &e) != 0)
		return -1;
	pid = read_pid(pidfile, 5000);
	gc = pid ? OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION,
			       FALSE, pid) : NULL;
	if (e.how != NS_END_CODE || e.code != 0 || gc == NULL) {
		B->wall->terminate(&H, w.state, &w.proc, NS_TERM_DONE);
		stop(&w, NS_TERM_DONE);
		return fail("the command's end %u/%d, grandchild %lu", e.how,
			    e.code, pid);
	}
	if (WaitForSingleObject(gc, 0) != WAIT_TIMEOUT) {
		CloseHandle(gc);
		stop(&w, 0);
		return fail("the grandchild was not running");
	}
	B->wall->terminate(&H, w.state, &w.proc, NS_TERM_DONE);
	if (WaitForSingleObject(gc, 5000) != WAIT_OBJECT_0) {
		CloseHandle(gc);
		stop(&w, NS_TERM_DONE);
		return fail("the grandchild outlived terminate()");
	}
	GetExitCodeProcess(gc, &raw);
	CloseHandle(gc);
	if (wait_end(&w, 5000, &e) != 0 || e.how != NS_END_CODE ||
	    e.code != 0) {
		stop(&w, NS_TERM_DONE);
		return fail("after the leftovers the command's end changed");
	}
	stop(&w, NS_TERM_DONE);
	return raw == KILL_CODE(NS_TERM_DONE) ? 0 :
	       fail("the grandchild's code %lx", raw);
}

/* The driver: a second wintest process holding the job; killing it must
 * kill the tree (kill-on-close). */
static int
driver(const char *pidfile)
{
	struct cmd c = { { NULL, "tree", pidfile, "stay", NULL },
			 .out_fd = -1 };
	struct walled w;

	if (start(&c, &w) != 0)
		return 2;
	Sleep(INFINITE);
	return 0;
}

static int
t_kill_driver(void)
{
	char pidfile[MAX_PATH];
	wchar_t self[MAX_PATH], line[3 * MAX_PATH];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	HANDLE gc;
	DWORD pid;

	snprintf(pidfile, sizeof(pidfile), "%sjo-driver.pid", tmp);
	DeleteFileA(pidfile);
	GetModuleFileNameW(NULL, self, MAX_PATH);
	_snwprintf(line, 3 * MAX_PATH, L"\"%ls\" --driver \"%hs\" \"%hs\" \"%hs\"",
		   self, dll, child, pidfile);
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	if (!CreateProcessW(self, line, NULL, NULL, FALSE, 0, NULL, NULL, &si,
			    &pi))
		return fail("the driver cannot start (%lu)", GetLastError());
	CloseHandle(pi.hThread);
	pid = read_pid(pidfile, 10000);
	gc = pid ? OpenProcess(SYNCHRONIZE, FALSE, pid) : NULL;
	TerminateProcess(pi.hProcess, 9);
	WaitForSingleObject(pi.hProcess, 5000);
	CloseHandle(pi.hProcess);
	if (gc == NULL)
		return fail("the driver's tree did not start");
	if (WaitForSingleObject(gc, 5000) != WAIT_OBJECT_0) {
		TerminateProcess(gc, 1);
		CloseHandle(gc);
		return fail("the tree outlived its killed driver");
	}
	CloseHandle(gc);
	return 0;
}

static int
t_refuse_wsl(void)
{
	struct cmd c = { { "wsl.exe", "ls", NULL }, .out_fd = -1,
			 .command = "C:\\windows\\system32\\wsl.exe" };
	struct ns_policy p;
	void *st = NULL;

	policy_of(&c, &p);
	if (B->wall->prepare(&H, &p, &st) != NS_E_REFUSED ||
	    strcmp(hs.reason, "no_sandbox") != 0 || st != NULL)
		return fail("wsl.exe was not refused (%s)", hs.reason);
	c.command = "C:\\windows\\system32\\bash.exe";
	hs_reset();
	policy_of(&c, &p);
	if (B->wall->prepare(&H, &p, &st) != NS_E_REFUSED)
		return fail("System32 bash.exe was not refused");
	return 0;
}

static int
t_refuse_bad_exe(void)
{
	char path[MAX_PATH];
	struct cmd c = { { "x.exe", NULL }, .out_fd = -1, .command = path };
	struct walled w;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%sjo-notpe.exe", tmp);
	f = fopen(path, "wb");
	if (f == NULL)
		return fail("cannot write %s", path);
	fputs("#!/bin/sh\necho an ELF or a script is no Windows program\n", f);
	fclose(f);
	rc = start(&c, &w);
	DeleteFileA(path);
	if (rc == 0) {
		B->wall->terminate(&H, w.state, &w.proc, NS_TERM_DONE);
		stop(&w, NS_TERM_DONE);
		return fail("a non-PE file was started");
	}
	return strcmp(hs.reason, "not_executable") == 0 ? 0 :
	       fail("refused as %s, want not_executable", hs.reason);
}

static int
t_refuse_batch_meta(void)
{
	struct cmd c = { { "x.bat", "a&calc.exe", NULL }, .out_fd = -1,
			 .command = "C:\\x\\x.bat" };
	struct ns_policy p;
	void *st = NULL;

	policy_of(&c, &p);
	if (B->wall->prepare(&H, &p, &st) != NS_E_REFUSED ||
	    strstr(hs.refusals, "cmd.exe") == NULL)
		return fail("a batch argument with & was not refused");
	return 0;
}

static int
t_write_granted(void)
{
	char dir[MAX_PATH], file[MAX_PATH];
	struct cmd c = { { NULL, "write", file, NULL }, .out_fd = -1 };
	int code = -1;

	snprintf(dir, sizeof(dir), "%sjo-write", tmp);
	snprintf(file, sizeof(file), "%s\\f", dir);
	CreateDirectoryA(dir, NULL);
	c.rules[0] = (struct ns_rule){ dir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	c.n_rules = 1;
	if (run_cmd(&c, &code) != 0)
		return -1;
	if (code != 0 || GetFileAttributesA(file) == INVALID_FILE_ATTRIBUTES)
		return fail("a write under --write failed (%d)", code);
	DeleteFileA(file);
	RemoveDirectoryA(dir);
	return 0;
}

/* The denial and its control; the denial needs enforced integrity. */
static int
t_write_outside_denied(void)
{
	char dir[MAX_PATH], file[MAX_PATH];
	struct cmd c = { { NULL, "write", file, NULL }, .out_fd = -1 };
	int code = -1;

	snprintf(dir, sizeof(dir), "%sjo-granted", tmp);
	snprintf(file, sizeof(file), "%sjo-outside.txt", tmp);
	CreateDirectoryA(dir, NULL);
	c.rules[0] = (struct ns_rule){ dir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	c.n_rules = 1;
	if (run_cmd(&c, &code) != 0)
		return -1;
	RemoveDirectoryA(dir);
	if (code == 0 || GetFileAttributesA(file) != INVALID_FILE_ATTRIBUTES) {
		DeleteFileA(file);
		return fail("a write outside --write succeeded");
	}
	/* the control: the same write outside the wall succeeds */
	{
		FILE *f = fopen(file, "wb");

		if (f == NULL)
			return fail("the control write failed too: no denial");
		fclose(f);
		DeleteFileA(file);
	}
	return 0;
}

/* ---- the scratch ---------------------------------------------------------- */

static int
mkplace(const char *name, struct ns_place *pl)
{
	struct ns_place_req r = { sizeof(r), name, 1u << 30, NULL };

	memset(pl, 0, sizeof(*pl));
	pl->struct_size = sizeof(*pl);
	pl->root_fd = -1;
	return B->place->create(&H, &r, pl) == NS_OK ? 0 :
	       fail("create %s refused (%s)", name, hs.reason);
}

static int
exists(const char *root, const char *sub)
{
	char p[MAX_PATH];

	snprintf(p, sizeof(p), "%s%s", root, sub);
	return GetFileAttributesA(p) != INVALID_FILE_ATTRIBUTES;
}

static int
put_file(const char *root, const char *sub, DWORD attrs)
{
	char p[MAX_PATH];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, sub);
	f = fopen(p, "wb");
	if (f == NULL)
		return -1;
	fputs("0123456789", f);
	fclose(f);
	return attrs ? (SetFileAttributesA(p, attrs) ? 0 : -1) : 0;
}

static int
t_scratch_unit(void)
{
	struct ns_place pl, again;
	uint64_t used = 0;
	int ex = 0;

	if (mkplace("wt-unit", &pl) != 0)
		return -1;
	if (!exists(pl.root, "\\.nova-sandbox-owner") ||
	    !exists(pl.root, "\\work") || !exists(pl.root, "\\home") ||
	    !exists(pl.root, "\\tmp"))
		return fail("%s lacks its marker or work/home/tmp", pl.root);
	if (B->place->look(&H, "wt-unit", &ex) != NS_OK || ex != 1)
		return fail("look does not see it");
	if (mkplace("wt-unit", &again) == 0 ||
	    strcmp(hs.reason, "volume_exists") != 0)
		return fail("a second create of the name was not refused");
	hs_reset();
	snprintf(again.root, sizeof(again.root), "%s\\work\\d", pl.root);
	CreateDirectoryA(again.root, NULL);
	if (put_file(pl.root, "\\work\\d\\ro", FILE_ATTRIBUTE_READONLY) != 0 ||
	    put_file(pl.root, "\\work\\f", 0) != 0)
		return fail("cannot fill the scratch");
	if (B->place->used(&H, &pl, &used) != NS_OK || used < 20)
		return fail("used %llu, want >= 20", (unsigned long long)used);
	if (B->place->destroy(&H, &pl) != NS_OK)
		return fail("destroy refused (%s)", hs.reason);
	if (exists(pl.root, ""))
		return fail("%s is still there", pl.root);
	ex = 1;
	B->place->look(&H, "wt-unit", &ex);
	return ex == 0 ? 0 : fail("look still sees it");
}

static int
t_scratch_busy_leak(void)
{
	struct ns_place pl;
	char held[MAX_PATH];
	struct cmd c = { { NULL, "hold", held, NULL }, .out_fd = -1 };
	struct walled w;
	struct ns_exit e;
	int rc;

	if (mkplace("wt-busy", &pl) != 0)
		return -1;
	snprintf(held, sizeof(held), "%s\\work\\held", pl.root);
	if (start(&c, &w) != 0)
		return -1;
	for (int i = 0; i < 100 && !exists(pl.root, "\\work\\held"); i++)
		Sleep(20);
	Sleep(100);
	/* the job alive and holding a file: the delete retries, then leaks */
	rc = B->place->destroy(&H, &pl);
	if (rc == NS_OK || strcmp(hs.reason, "volume_failed") != 0 ||
	    strstr(hs.refusals, "still open") == NULL ||
	    strcmp(pl.remedy, "nova-sandbox reap") != 0) {
		B->wall->terminate(&H, w.state, &w.proc, NS_TERM_DONE);
		stop(&w, NS_TERM_DONE);
		return fail("a busy scratch was not a LEAK (rc %d, remedy %s)",
			    rc, pl.remedy);
	}
	/* the job dead: the same delete succeeds */
	B->wall->terminate(&H, w.state, &w.proc, NS_TERM_DONE);
	wait_end(&w, 5000, &e);
	stop(&w, NS_TERM_DONE);
	hs_reset();
	if (B->place->destroy(&H, &pl) != NS_OK || exists(pl.root, ""))
		return fail("the scratch stayed after its job died (%s)",
			    hs.reason);
	return 0;
}

/* One list() line's owner= for the place `name`, "" when absent. */
static int
listed_owner(const char *name, char *owner, size_t cap)
{
	char key[96];
	const char *l, *o;

	hs.text[0] = '\0';
	if (B->place->list(&H) != NS_OK)
		return -1;
	snprintf(key, sizeof(key), "name=nova-%s ", name);
	owner[0] = '\0';
	l = strstr(hs.text, key);
	if (l == NULL)
		return 0;
	o = strstr(l, " owner=");
	if (o != NULL)
		snprintf(owner, cap, "%.*s", (int)strcspn(o + 7, " \n"), o + 7);
	return 0;
}

static int
t_reap(void)
{
	struct ns_place live, dead;
	char owner[32], m[MAX_PATH], now[64];
	struct cmd c = { { NULL, "exit", "0", NULL }, .out_fd = -1 };
	struct walled w;
	struct ns_exit e;
	FILE *f;
	DWORD dead_pid;

	if (mkplace("wt-live", &live) != 0 || mkplace("wt-dead", &dead) != 0)
		return -1;
	/* a dead owner: a process that has exited */
	if (start(&c, &w) != 0)
		return -1;
	wait_end(&w, 5000, &e);
	dead_pid = (DWORD)w.proc.pid;
	stop(&w, 0);
	snprintf(m, sizeof(m), "%s\\.nova-sandbox-owner", dead.root);
	f = fopen(m, "wb");
	fprintf(f, "pid=%lu\nstart=1\n", (unsigned long)dead_pid);
	fclose(f);
	if (listed_owner("wt-live", owner, sizeof(owner)) != 0 ||
	    strtoul(owner, NULL, 10) != GetCurrentProcessId())
		return fail("the live scratch lists owner=%s", owner);
	if (B->place->proc_start(&H, GetCurrentProcessId(), now,
				 sizeof(now)) != NS_OK)
		return fail("the live owner's start is unreadable");
	if (strstr(hs.text, now) == NULL)
		return fail("the live owner's start %s is not its marker's",
			    now);
	listed_owner("wt-dead", owner, sizeof(owner));
	if (strtoul(owner, NULL, 10) != dead_pid)
		return fail("the dead scratch lists owner=%s", owner);
	if (B->place->proc_start(&H, dead_pid, now, sizeof(now)) !=
	    NS_E_UNAVAILABLE)
		return fail("a dead owner has a start time");
	/* reap: the dead one goes, through the list line's root only */
	{
		struct ns_place pl;

		memset(&pl, 0, sizeof(pl));
		pl.struct_size = sizeof(pl);
		pl.root_fd = -1;
		snprintf(pl.root, sizeof(pl.root), "%s", dead.root);
		snprintf(pl.id, sizeof(pl.id), "nova-wt-dead");
		hs_reset();
		if (B->place->destroy(&H, &pl) != NS_OK)
			return fail("reap of a dead owner's scratch refused");
	}
	/* a garbage marker lists owner=- */
	snprintf(m, sizeof(m), "%s\\.nova-sandbox-owner", live.root);
	f = fopen(m, "wb");
	fputs("pid=12x\n", f);
	fclose(f);
	listed_owner("wt-live", owner, sizeof(owner));
	if (strcmp(owner, "-") != 0)
		return fail("a garbage marker lists owner=%s", owner);
	/* never a path that is not a marked scratch */
	{
		struct ns_place pl;

		memset(&pl, 0, sizeof(pl));
		pl.struct_size = sizeof(pl);
		snprintf(pl.root, sizeof(pl.root), "%swt-not-ours", tmp);
		CreateDirectoryA(pl.root, NULL);
		hs_reset();
		if (B->place->destroy(&H, &pl) == NS_OK ||
		    !exists(pl.root, "")) {
			return fail("destroy removed an unmarked directory");
		}
		RemoveDirectoryA(pl.root);
	}
	hs_reset();
	return B->place->destroy(&H, &live) == NS_OK ? 0 :
	       fail("cleanup of the live scratch refused");
}

/* A junction (a mount-point reparse point: no privilege needed) from the
 * scratch to a directory outside it: destroy removes the link and leaves
 * the target's file alone. */
static int
junction(const char *link, const char *target)
{
	struct {
		DWORD tag;
		WORD len, reserved, sub_off, sub_len, print_off, print_len;
		WCHAR buf[2 * MAX_PATH + 8];
	} rb;
	wchar_t sub[MAX_PATH + 8];
	HANDLE h;
	DWORD n = 0;
	int k;
	BOOL ok;

	if (!CreateDirectoryA(link, NULL))
		return -1;
	k = swprintf(sub, MAX_PATH + 8, L"\\??\\%hs", target);
	memset(&rb, 0, sizeof(rb));
	rb.tag = IO_REPARSE_TAG_MOUNT_POINT;
	memcpy(rb.buf, sub, (size_t)(k + 1) * sizeof(WCHAR));
	rb.sub_len = (WORD)(k * sizeof(WCHAR));
	rb.print_off = (WORD)((k + 1) * sizeof(WCHAR));
	rb.len = (WORD)(8 + (k + 2) * sizeof(WCHAR));
	h = CreateFileA(link, GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT,
			NULL);
	if (h == INVALID_HANDLE_VALUE)
		return -1;
	ok = DeviceIoControl(h, FSCTL_SET_REPARSE_POINT, &rb, rb.len + 8, NULL,
			     0, &n, NULL);
	CloseHandle(h);
	return ok ? 0 : -1;
}

static int
t_reparse_not_entered(void)
{
	struct ns_place pl;
	char outside[MAX_PATH], link[MAX_PATH];
	int rc = 0;

	snprintf(outside, sizeof(outside), "%sjo-outside-dir", tmp);
	CreateDirectoryA(outside, NULL);
	if (put_file(outside, "\\keep", 0) != 0 || mkplace("wt-link", &pl) != 0)
		return fail("set-up failed");
	snprintf(link, sizeof(link), "%s\\work\\j", pl.root);
	if (junction(link, outside) != 0)
		rc = fail("a junction cannot be made (%lu)", GetLastError());
	if (rc == 0 && B->place->destroy(&H, &pl) != NS_OK)
		rc = fail("destroy refused (%s)", hs.reason);
	if (rc == 0 && !exists(outside, "\\keep"))
		rc = fail("destroy went through the junction");
	if (rc == 0 && exists(pl.root, ""))
		rc = fail("the scratch stayed");
	snprintf(link, sizeof(link), "%s\\keep", outside);
	DeleteFileA(link);
	RemoveDirectoryA(outside);
	return rc;
}

static int
t_job_memory(void)
{
	struct cmd c = { { NULL, "alloc", "256", NULL }, .out_fd = -1,
			 .max_mem = 64u << 20 };
	int code = -1;

	if (run_cmd(&c, &code) != 0)
		return -1;
	return code == 137 || code == 3 ? 0 :
	       fail("a 256 MiB commit under a 64 MiB job gave %d", code);
}

/* ---- ABI 1.3: --cpu, --memory, --scratch, --acl, --name, long paths ---- */

/* Can a job here take a CPU rate cap?  Asked of the system directly. */
static int
system_has_cpu_rate(void)
{
	JOBOBJECT_CPU_RATE_CONTROL_INFORMATION c;
	HANDLE j = CreateJobObjectW(NULL, NULL);
	BOOL ok;

	memset(&c, 0, sizeof(c));
	c.ControlFlags = JOB_OBJECT_CPU_RATE_CONTROL_ENABLE |
			 JOB_OBJECT_CPU_RATE_CONTROL_HARD_CAP;
	c.CpuRate = 5000;
	ok = j != NULL && SetInformationJobObject(
				  j, JobObjectCpuRateControlInformation, &c,
				  sizeof(c));
	if (j != NULL)
		CloseHandle(j);
	return ok != 0;
}

/* jo_child.exe limits in a job with c's caps: its line into out. */
static int
child_limits(struct cmd *c, char *out, size_t cap)
{
	char path[MAX_PATH];
	int fd, code = -1, n;

	c->argv[1] = "limits";
	c->argv[2] = NULL;
	snprintf(path, sizeof(path), "%sjo-limits.out", tmp);
	fd = _open(path, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0600);
	if (fd < 0)
		return fail("cannot open %s", path);
	c->out_fd = fd;
	if (run_cmd(c, &code) != 0) {
		_close(fd);
		return -1;
	}
	_close(fd);
	fd = _open(path, _O_RDONLY | _O_BINARY);
	n = fd >= 0 ? _read(fd, out, (unsigned)cap - 1) : -1;
	if (fd >= 0)
		_close(fd);
	DeleteFileA(path);
	out[n > 0 ? n : 0] = '\0';
	return code == 0 ? 0 : fail("limits exited %d (%s)", code, out);
}

/* --cpu is kept or refused, never dropped: prepare refuses bad_cpu
 * exactly where a job cannot take a CPU rate (Wine), and takes it where
 * one can (Windows 8 and later). */
static int
t_cpu_kept_or_refused(void)
{
	struct cmd c = { { "jo_child.exe", "exit", "0", NULL }, .out_fd = -1,
			 .cpu = 25 };
	struct ns_policy p;
	void *st = NULL;
	int has = system_has_cpu_rate(), rc;

	policy_of(&c, &p);
	rc = B->wall->prepare(&H, &p, &st);
	if (rc == NS_OK)
		B->wall->release(&H, st);
	if (has && rc != NS_OK)
		return fail("a system with a job CPU rate refused --cpu (%s)",
			    hs.reason);
	if (!has && (rc != NS_E_REFUSED || strcmp(hs.reason, "bad_cpu") != 0 ||
		     st != NULL || strstr(hs.refusals, "--cpu 25") == NULL))
		return fail("a system without a job CPU rate did not refuse "
			    "--cpu as bad_cpu (rc %d)", rc);
	return 0;
}

/* --cpu 25 is the job's HARD_CAP CPU rate 2500, seen from inside it. */
static int
t_cpu_on_job(void)
{
	struct cmd c = { { NULL }, .out_fd = -1, .cpu = 25 };
	char got[256];

	if (child_limits(&c, got, sizeof(got)) != 0)
		return -1;
	/* JOB_OBJECT_CPU_RATE_CONTROL_ENABLE 0x1 | HARD_CAP 0x4 */
	return strstr(got, "cpu=5:2500 ") != NULL ? 0 :
	       fail("the job's limits read %s, want cpu=5:2500", got);
}

/* The memory cap (run's --memory or --max-mem) is the job's
 * JobMemoryLimit, seen from inside it. */
static int
t_memory_on_job(void)
{
	struct cmd c = { { NULL }, .out_fd = -1, .max_mem = 64u << 20 };
	char got[256];
	const char *m;
	unsigned long flags = 0;
	unsigned long long lim = 0;

	if (child_limits(&c, got, sizeof(got)) != 0)
		return -1;
	m = strstr(got, "mem=");
	if (m == NULL || sscanf(m, "mem=%lx:%llu", &flags, &lim) != 2 ||
	    !(flags & JOB_OBJECT_LIMIT_JOB_MEMORY) || lim != 64ULL << 20)
		return fail("the job's limits read %s, want JOB_MEMORY and "
			    "%llu", got, 64ULL << 20);
	return 0;
}

static int
mkplace_in(const char *name, const char *parent, struct ns_place *pl)
{
	struct ns_place_req r = { sizeof(r), name, 1u << 30, parent };

	memset(pl, 0, sizeof(*pl));
	pl->struct_size = sizeof(*pl);
	pl->root_fd = -1;
	return B->place->create(&H, &r, pl);
}

/* Does the path (any length: its \\?\ form) exist? */
static int
wexists(const char *path)
{
	wchar_t w[2048] = L"\\\\?\\";

	if (MultiByteToWideChar(CP_UTF8, 0, path, -1, w + 4, 2040) <= 0)
		return 0;
	return GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;
}

static int
scratch_fill_gone(struct ns_place *pl, const char *par)
{
	char m[2048];

	snprintf(m, sizeof(m), "%s\\.nova-sandbox-owner", pl->root);
	if (!wexists(m))
		return fail("%s has no owner marker", pl->root);
	snprintf(m, sizeof(m), "%s\\work", pl->root);
	if (!wexists(m))
		return fail("%s has no work\\", pl->root);
	hs_reset();
	if (B->place->destroy(&H, pl) != NS_OK)
		return fail("destroy refused (%s)", hs.reason);
	if (wexists(pl->root))
		return fail("%s is still there", pl->root);
	if (!wexists(par))
		return fail("the --scratch directory %s went too", par);
	return 0;
}

/* --scratch: the place is made in that directory (named with '/' and a
 * "..", as the Win32 path it normalises to), not the temp one; a
 * second of the name there is volume_exists; reap's list() does not see
 * it (reap looks only in the temp directory), so its LEAK remedy is the
 * rmdir of it; destroy() removes it and leaves the directory. */
static int
t_scratch_parent(void)
{
	char par[MAX_PATH], typed[MAX_PATH + 16], want[MAX_PATH + 32];
	char owner[32];
	struct ns_place pl, again;
	int rc;

	snprintf(par, sizeof(par), "%sjo-scr", tmp);
	CreateDirectoryA(par, NULL);
	/* named as the host names it ('/'), with a ".." to normalise away */
	snprintf(typed, sizeof(typed), "%sjo-scr/../jo-scr", tmp);
	for (char *q = typed; *q; q++)
		*q = *q == '\\' ? '/' : *q;
	if (mkplace_in("wt-scr", typed, &pl) != NS_OK)
		return fail("create in --scratch %s refused (%s)", typed,
			    hs.reason);
	snprintf(want, sizeof(want), "%s\\nova-wt-scr", par);
	if (_stricmp(pl.root, want) != 0)
		return fail("the place is %s, want %s", pl.root, want);
	if (strncmp(pl.remedy, "rmdir /s /q ", 12) != 0 ||
	    strstr(pl.remedy, "nova-wt-scr") == NULL)
		return fail("the LEAK remedy is %s, want the rmdir of it",
			    pl.remedy);
	if (mkplace_in("wt-scr", par, &again) == NS_OK ||
	    strcmp(hs.reason, "volume_exists") != 0)
		return fail("a second of the name was not volume_exists (%s)",
			    hs.reason);
	if (listed_owner("wt-scr", owner, sizeof(owner)) != 0 ||
	    owner[0] != '\0')
		return fail("reap's list() names a --scratch place (owner=%s)",
			    owner);
	rc = scratch_fill_gone(&pl, par);
	RemoveDirectoryA(par);
	return rc;
}

/* A --scratch that is missing or a file is refused bad_scratch, and
 * nothing is made. */
static int
t_scratch_parent_refused(void)
{
	char file[MAX_PATH], miss[MAX_PATH];
	struct ns_place pl;
	int rc = 0;

	snprintf(file, sizeof(file), "%sjo-scr-file", tmp);
	snprintf(miss, sizeof(miss), "%sjo-scr-missing", tmp);
	put_file(file, "", 0);
	if (mkplace_in("wt-scr-f", file, &pl) == NS_OK ||
	    strcmp(hs.reason, "bad_scratch") != 0 ||
	    strstr(hs.refusals, "is not a directory") == NULL)
		rc = fail("a file as --scratch: %s", hs.refusals);
	hs_reset();
	if (rc == 0 && (mkplace_in("wt-scr-m", miss, &pl) == NS_OK ||
			strcmp(hs.reason, "bad_scratch") != 0 ||
			GetFileAttributesA(miss) != INVALID_FILE_ATTRIBUTES))
		rc = fail("a missing --scratch: %s", hs.refusals);
	DeleteFileA(file);
	return rc;
}

/* A --scratch another owns (here SYSTEM) is refused, nothing made. */
static int
t_scratch_parent_other(void)
{
	char other[MAX_PATH], p[MAX_PATH + 32];
	PSID sys = NULL;
	struct ns_place pl;
	DWORD e;
	int rc = 0;

	snprintf(other, sizeof(other), "%sjo-scr-other", tmp);
	CreateDirectoryA(other, NULL);
	ConvertStringSidToSidA("S-1-5-18", &sys);
	e = SetNamedSecurityInfoA(other, SE_FILE_OBJECT,
				  OWNER_SECURITY_INFORMATION, sys, NULL, NULL,
				  NULL);
	LocalFree(sys);
	if (e != 0)
		rc = fail("the test cannot give %s to SYSTEM (error %lu)",
			  other, e);
	snprintf(p, sizeof(p), "%s\\nova-wt-scr-o", other);
	if (rc == 0 && (mkplace_in("wt-scr-o", other, &pl) == NS_OK ||
			strcmp(hs.reason, "bad_scratch") != 0 ||
			strstr(hs.refusals, "is not yours") == NULL ||
			GetFileAttributesA(p) != INVALID_FILE_ATTRIBUTES))
		rc = fail("SYSTEM's directory as --scratch: %s", hs.refusals);
	RemoveDirectoryA(p);
	RemoveDirectoryA(other);
	return rc;
}

/* A --scratch that is a junction is refused (never made through a link),
 * nothing made on either side. */
static int
t_scratch_parent_junction(void)
{
	char target[MAX_PATH], link[MAX_PATH], p[MAX_PATH + 32];
	struct ns_place pl;
	int rc = 0;

	snprintf(target, sizeof(target), "%sjo-scr-target", tmp);
	snprintf(link, sizeof(link), "%sjo-scr-link", tmp);
	CreateDirectoryA(target, NULL);
	if (junction(link, target) != 0)
		rc = fail("a junction cannot be made (%lu)", GetLastError());
	snprintf(p, sizeof(p), "%s\\nova-wt-scr-j", target);
	if (rc == 0 && (mkplace_in("wt-scr-j", link, &pl) == NS_OK ||
			strcmp(hs.reason, "bad_scratch") != 0 ||
			strstr(hs.refusals, "reparse point") == NULL ||
			GetFileAttributesA(p) != INVALID_FILE_ATTRIBUTES))
		rc = fail("a junction as --scratch: %s", hs.refusals);
	RemoveDirectoryA(p);
	RemoveDirectoryA(link);
	RemoveDirectoryA(target);
	return rc;
}

/* The security descriptor of path (owner, group, DACL, label) as SDDL. */
static int
sd_text(const char *path, char *out, size_t cap)
{
	SECURITY_INFORMATION si = OWNER_SECURITY_INFORMATION |
				  GROUP_SECURITY_INFORMATION |
				  DACL_SECURITY_INFORMATION |
				  LABEL_SECURITY_INFORMATION;
	HANDLE f = CreateFileA(path, READ_CONTROL, FILE_SHARE_READ |
			       FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	PSECURITY_DESCRIPTOR sd = NULL;
	LPSTR t = NULL;
	DWORD e;

	if (f == INVALID_HANDLE_VALUE)
		return -1;
	e = GetSecurityInfo(f, SE_FILE_OBJECT, si, NULL, NULL, NULL, NULL, &sd);
	CloseHandle(f);
	if (e != 0)
		return -1;
	if (!ConvertSecurityDescriptorToStringSecurityDescriptorA(
		    sd, SDDL_REVISION_1, si, &t, NULL)) {
		LocalFree(sd);
		return -1;
	}
	snprintf(out, cap, "%s", t);
	LocalFree(t);
	LocalFree(sd);
	return 0;
}

/* --acl caller: a --write with no low label (what a directory has unless
 * someone labelled it) is refused before anything runs, naming the fix,
 * and its security descriptor is exactly what it was. */
static int
t_acl_caller_unlabelled(void)
{
	char dir[MAX_PATH], file[MAX_PATH], before[4096], after[4096];
	struct cmd c = { { "jo_child.exe", "write", file, NULL },
			 .out_fd = -1, .acl = NS_ACL_CALLER };
	struct ns_policy p;
	void *st = NULL;
	int rc;

	snprintf(dir, sizeof(dir), "%sjo-acl-c", tmp);
	snprintf(file, sizeof(file), "%s\\f", dir);
	CreateDirectoryA(dir, NULL);
	c.rules[0] = (struct ns_rule){ dir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	c.n_rules = 1;
	if (sd_text(dir, before, sizeof(before)) != 0)
		return fail("the security of %s cannot be read", dir);
	policy_of(&c, &p);
	rc = B->wall->prepare(&H, &p, &st);
	if (rc == NS_OK) {
		B->wall->release(&H, st);
		RemoveDirectoryA(dir);
		return fail("an unlabelled --write was taken under --acl caller");
	}
	if (sd_text(dir, after, sizeof(after)) != 0)
		return fail("the security of %s cannot be read after", dir);
	RemoveDirectoryA(dir);
	if (strcmp(hs.reason, "bad_write") != 0 ||
	    strstr(hs.refusals, "has no low mandatory label") == NULL ||
	    strstr(hs.refusals, "/setintegritylevel (OI)(CI)low") == NULL)
		return fail("refused as %s", hs.refusals);
	return strcmp(before, after) == 0 ? 0 :
	       fail("the security changed: %s -> %s", before, after);
}

static int
label_low(const char *dir)
{
	PSECURITY_DESCRIPTOR sd = NULL;
	PACL sacl = NULL;
	BOOL present = FALSE, dflt = FALSE;
	DWORD e;

	if (!ConvertStringSecurityDescriptorToSecurityDescriptorA(
		    "S:(ML;OICI;NW;;;LW)", SDDL_REVISION_1, &sd, NULL) ||
	    !GetSecurityDescriptorSacl(sd, &present, &sacl, &dflt))
		return -1;
	e = SetNamedSecurityInfoA((char *)dir, SE_FILE_OBJECT,
				  LABEL_SECURITY_INFORMATION, NULL, NULL, NULL,
				  sacl);
	LocalFree(sd);
	return e == 0 ? 0 : -1;
}

/* --acl caller on a --write the caller labelled low: the command writes
 * there and the security descriptor, the label included, is unchanged. */
static int
t_acl_caller_labelled(void)
{
	char dir[MAX_PATH], file[MAX_PATH], before[4096], after[4096];
	struct cmd c = { { NULL, "write", file, NULL }, .out_fd = -1,
			 .acl = NS_ACL_CALLER };
	int code = -1;

	snprintf(dir, sizeof(dir), "%sjo-acl-l", tmp);
	snprintf(file, sizeof(file), "%s\\f", dir);
	CreateDirectoryA(dir, NULL);
	if (label_low(dir) != 0 || sd_text(dir, before, sizeof(before)) != 0 ||
	    strstr(before, "(ML;OICI;NW;;;LW)") == NULL)
		return fail("the test cannot label %s low", dir);
	c.rules[0] = (struct ns_rule){ dir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	c.n_rules = 1;
	if (run_cmd(&c, &code) != 0)
		return -1;
	sd_text(dir, after, sizeof(after));
	DeleteFileA(file);
	if (code != 0)
		return fail("the write under --acl caller failed (%d)", code);
	return strcmp(before, after) == 0 ? 0 :
	       fail("the security changed: %s -> %s", before, after);
}

/* --acl tool (the default): the --write root is labelled low while the
 * wall is prepared, and its security is exactly restored at release. */
static int
t_acl_tool_restored(void)
{
	char dir[MAX_PATH], before[4096], during[4096], after[4096];
	struct cmd c = { { "jo_child.exe", "exit", "0", NULL }, .out_fd = -1,
			 .acl = NS_ACL_TOOL };
	struct ns_policy p;
	void *st = NULL;

	snprintf(dir, sizeof(dir), "%sjo-acl-t", tmp);
	CreateDirectoryA(dir, NULL);
	c.rules[0] = (struct ns_rule){ dir, NS_ACCESS_WRITE, NS_ORIGIN_WRITE };
	c.n_rules = 1;
	if (sd_text(dir, before, sizeof(before)) != 0)
		return fail("the security of %s cannot be read", dir);
	policy_of(&c, &p);
	if (B->wall->prepare(&H, &p, &st) != NS_OK)
		return fail("prepare refused (%s)", hs.reason);
	sd_text(dir, during, sizeof(during));
	B->wall->release(&H, st);
	sd_text(dir, after, sizeof(after));
	if (strstr(during, "(ML;OICI;NW;;;LW)") == NULL)
		return fail("no low label during the run: %s", during);
	return strcmp(before, after) == 0 ? 0 :
	       fail("not restored: %s -> %s", before, after);
}

/* --name: the wall says there is no container to name. */
static int
t_name_note(void)
{
	struct cmd c = { { "jo_child.exe", "exit", "0", NULL }, .out_fd = -1,
			 .name = "box" };
	struct ns_policy p;
	void *st = NULL;

	policy_of(&c, &p);
	if (B->wall->prepare(&H, &p, &st) != NS_OK)
		return fail("prepare refused (%s)", hs.reason);
	B->wall->release(&H, st);
	return strstr(hs.notes, "--name box names no container") != NULL ? 0 :
	       fail("no NOTE for --name: %s", hs.notes);
}

/* A directory deeper than 260 characters under the temp directory, each
 * component made in its \\?\ form; its plain name into out. */
static int
mkdir_deep(const char *leaf, char *out, size_t cap)
{
	wchar_t w[1024] = L"\\\\?\\";
	size_t n;

	snprintf(out, cap, "%s%s", tmp, leaf);
	for (int i = 0; i < 8; i++) {
		if (i > 0) {
			n = strlen(out);
			snprintf(out + n, cap - n, "\\%d-%s", i,
				 "dddddddddddddddddddddddddddddddddddddddd");
		}
		MultiByteToWideChar(CP_UTF8, 0, out, -1, w + 4, 1000);
		if (!CreateDirectoryW(w, NULL) &&
		    GetLastError() != ERROR_ALREADY_EXISTS)
			return fail("cannot make %s (%lu)", out, GetLastError());
	}
	return strlen(out) > 300 ? 0 : fail("%s is not deep enough", out);
}

/* Remove what mkdir_deep made (and one file f in the deepest), leaf up. */
static void
rmdir_deep(const char *deep, const char *leaf)
{
	wchar_t w[1024] = L"\\\\?\\";
	char p[1024];
	size_t top = strlen(tmp) + strlen(leaf);

	snprintf(p, sizeof(p), "%s\\f.txt", deep);
	MultiByteToWideChar(CP_UTF8, 0, p, -1, w + 4, 1000);
	DeleteFileW(w);
	snprintf(p, sizeof(p), "%s", deep);
	for (;;) {
		char *s = strrchr(p, '\\');

		MultiByteToWideChar(CP_UTF8, 0, p, -1, w + 4, 1000);
		RemoveDirectoryW(w);
		if (strlen(p) <= top || s == NULL)
			break;
		*s = '\0';
	}
}

/* A --write deeper than 260 characters, its working directory too: the
 * command starts there (by its 8.3 name) and writes a file by a relative
 * name, which lands in the deep directory. */
static int
t_long_write(void)
{
	char deep[1024], f[1100];
	struct cmd c = { { NULL, "write", "f.txt", NULL }, .out_fd = -1 };
	int code = -1, rc;

	if (mkdir_deep("jo-long", deep, sizeof(deep)) != 0)
		return -1;
	c.rules[0] = (struct ns_rule){ deep, NS_ACCESS_WRITE,
				       NS_ORIGIN_WRITE };
	c.n_rules = 1;
	c.cwd = deep;
	rc = run_cmd(&c, &code);
	snprintf(f, sizeof(f), "%s\\f.txt", deep);
	if (rc == 0 && (code != 0 || !wexists(f)))
		rc = fail("the write in a %zu-character --write failed (%d)",
			  strlen(deep), code);
	rmdir_deep(deep, "jo-long");
	return rc;
}

/* A --scratch deeper than 260 characters: the place (root over 260), its
 * marker and work\, and its removal. */
static int
t_long_scratch(void)
{
	char deep[1024];
	struct ns_place pl;
	int rc;

	if (mkdir_deep("jo-long-s", deep, sizeof(deep)) != 0)
		return -1;
	if (mkplace_in("wt-long", deep, &pl) != NS_OK) {
		rmdir_deep(deep, "jo-long-s");
		return fail("create in a %zu-character --scratch refused (%s)",
			    strlen(deep), hs.reason);
	}
	rc = scratch_fill_gone(&pl, deep);
	rmdir_deep(deep, "jo-long-s");
	return rc;
}

/* ---- main -------------------------------------------------------------------- */

int wmain(int argc, wchar_t **argv); /* -municode's entry */

int
wmain(int argc, wchar_t **argv)
{
	wchar_t wt[MAX_PATH];

	wt_init();
	wt_before = hs_reset;
	wt_extra = hs_extra;
	if (argc == 5 && wcscmp(argv[1], L"--driver") == 0) {
		char pidfile[MAX_PATH];

		WideCharToMultiByte(CP_UTF8, 0, argv[2], -1, dll, MAX_PATH, 0, 0);
		WideCharToMultiByte(CP_UTF8, 0, argv[3], -1, child, MAX_PATH, 0, 0);
		WideCharToMultiByte(CP_UTF8, 0, argv[4], -1, pidfile, MAX_PATH,
				    0, 0);
		GetTempPathW(MAX_PATH, wt);
		WideCharToMultiByte(CP_UTF8, 0, wt, -1, tmp, MAX_PATH, 0, 0);
		env_init();
		return t_load() == 0 ? driver(pidfile) : 2;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: wintest.exe <jobobject.dll> "
				"<jo_child.exe> <nova-sandbox.conf> (full "
				"paths)\n");
		return 2;
	}
	WideCharToMultiByte(CP_UTF8, 0, argv[3], -1, conf, MAX_PATH, 0, 0);
	WideCharToMultiByte(CP_UTF8, 0, argv[1], -1, dll, MAX_PATH, 0, 0);
	WideCharToMultiByte(CP_UTF8, 0, argv[2], -1, child, MAX_PATH, 0, 0);
	GetTempPathW(MAX_PATH, wt);
	WideCharToMultiByte(CP_UTF8, 0, wt, -1, tmp, MAX_PATH, 0, 0);
	env_init();

	run("load: full path, header, roles, container shape", t_load);
	if (B == NULL)
		return wt_done("windows suite");
	run("config: [windows] wall and place name jobobject.dll (iniparser 4.1)",
	    t_config);
	run("facts: available, no net promise, Wine said", t_facts);
	run("W1 normal exit keeps the command's code", t_exit_normal);
	run("W2 the command is in the job from birth", t_in_job_from_birth);
	run("W3 hostile arguments arrive intact", t_hostile_argv);
	run("W4 timeout: TerminateJobObject code, 124", t_timeout);
	run("W5 runaway tree: ended by the cap, 137", t_runaway);
	run("W6 grandchildren are in the job and die with it", t_grandchildren);
	run("W7 kill of the driver kills the tree", t_kill_driver);
	run("W8 scratch: exclusive, marker, used, depth-first delete",
	    t_scratch_unit);
	run("W9 busy scratch: retried, then LEAK with remedy", t_scratch_busy_leak);
	run("W10 reap: dead owner only, never an unmarked dir", t_reap);
	run("W11 wsl.exe and System32 bash.exe refused", t_refuse_wsl);
	run("W11 a non-PE file refused, never WSL", t_refuse_bad_exe);
	run("W3 a batch file's cmd.exe metacharacters refused",
	    t_refuse_batch_meta);
	run("W12 NTSTATUS exits map to the documented codes", t_exit_mapping);
	run("wrap: a write under --write succeeds", t_write_granted);
	wine_skip("wrap: a write outside --write is denied",
		  "integrity levels are not enforced", t_write_outside_denied);
	wine_skip("W8 a junction in the scratch is removed, not entered",
		  "junctions (FSCTL_SET_REPARSE_POINT: error 50) and symlinks (a stub) are not implemented", t_reparse_not_entered);
	wine_skip("W5 the job memory cap ends the tree",
		  "job memory limits are not enforced", t_job_memory);
	run("cpu: --cpu is refused exactly where a job takes no CPU rate",
	    t_cpu_kept_or_refused);
	wine_skip("cpu: --cpu 25 is the job's HARD_CAP rate 2500, read inside it",
		  "JobObjectCpuRateControlInformation is not implemented "
		  "(SetInformationJobObject: error 87)", t_cpu_on_job);
	wine_skip("memory: the memory cap is the job's JobMemoryLimit, read inside it",
		  "job limits are not kept (QueryInformationJobObject reads "
		  "them back as 0)", t_memory_on_job);
	run("scratch: --scratch's directory holds the place; not reap's; removed",
	    t_scratch_parent);
	run("scratch: a missing or a file --scratch is refused, nothing made",
	    t_scratch_parent_refused);
	wine_skip("scratch: another's --scratch (SYSTEM's) is refused, nothing made",
		  "owners are not kept (an owner set reads back as the user)",
		  t_scratch_parent_other);
	wine_skip("scratch: a junction as --scratch is refused, nothing made",
		  "junctions (FSCTL_SET_REPARSE_POINT: error 50) are not "
		  "implemented", t_scratch_parent_junction);
	run("acl caller: a --write with no low label is refused, its security unchanged",
	    t_acl_caller_unlabelled);
	wine_skip("acl caller: a --write the caller labelled low is written, unchanged",
		  "labels are not kept (a label set reads back as none)",
		  t_acl_caller_labelled);
	wine_skip("acl tool: the --write is labelled low for the run and restored",
		  "labels are not kept (a label set reads back as none)",
		  t_acl_tool_restored);
	run("name: --name is said to name no container", t_name_note);
	run("long paths: a --write and cwd deeper than 260 characters",
	    t_long_write);
	run("long paths: a --scratch deeper than 260 characters", t_long_scratch);
	return wt_done("windows suite");
}
