/* SPDX-License-Identifier: MIT */
/* jo_wall.c -- the container-shaped wall: every command is created inside
 * an anonymous Job Object (kill on close, die on unhandled exception, the
 * caps as job limits: processes, memory, the CPU rate of --cpu) under a
 * restricted, low-integrity copy of the caller's token; the --write roots
 * get a low mandatory label for the run's duration (restored at release),
 * or, under --acl caller, keep the security the caller gave them, which
 * must let the command write.  See docs/SPEC-SANDBOX.md "Windows" for
 * what this keeps and what it does not. */
#include "jo_win.h" /* windows.h first: sddl.h and aclapi.h need it */

#include <aclapi.h>
#include <io.h>
#include <sddl.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "common/nk_module.h"

#define JO_MAX_LABELS 64

struct jo_label {
	wchar_t *path;            /* "\\?\" form, heap */
	PSECURITY_DESCRIPTOR old; /* the saved label, LocalFree'd */
	PACL old_sacl;            /* inside old, or NULL: none was set */
};

struct jo_state {
	HANDLE token;   /* restricted, low integrity, primary */
	HANDLE job;     /* the current spawn's job (NULL between runs) */
	HANDLE port;    /* its completion port */
	HANDLE proc;    /* the command's process */
	uint64_t max_procs, max_mem;
	uint32_t cpu;     /* --cpu percent, 0: none (ABI 1.3) */
	uint32_t acl;     /* NS_ACL_* (ABI 1.3) */
	wchar_t *app;     /* the command, plain (CreateProcess takes no \\?\) */
	wchar_t *cwd;     /* its working directory, plain */
	uint32_t killed;  /* NS_TERM_* the tool ended it with, or 0 */
	int tree_gone;    /* JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO seen */
	struct jo_label labels[JO_MAX_LABELS];
	size_t n_labels;
	wchar_t *cmdline;
	wchar_t *env;
};

/* ---- facts ----------------------------------------------------------- */

/* Can a job here take a CPU rate cap of percent (Windows 8 and later;
 * Wine has none)?  A throwaway job is asked; nothing of the caller
 * changes.  0, or the Win32 error. */
static DWORD
cpu_rate_error(uint32_t percent)
{
	JOBOBJECT_CPU_RATE_CONTROL_INFORMATION c;
	HANDLE j = CreateJobObjectW(NULL, NULL);
	DWORD e = 0;

	memset(&c, 0, sizeof(c));
	c.ControlFlags = JOB_OBJECT_CPU_RATE_CONTROL_ENABLE |
			 JOB_OBJECT_CPU_RATE_CONTROL_HARD_CAP;
	c.CpuRate = jo_cpu_rate(percent);
	if (j == NULL || !SetInformationJobObject(
				 j, JobObjectCpuRateControlInformation, &c,
				 sizeof(c)))
		e = GetLastError();
	if (j != NULL)
		CloseHandle(j);
	return e;
}

static int
jo_facts(const struct ns_host *h, struct ns_wall_facts *out)
{
	const struct jo_api *a = jo_api();

	(void)h;
	out->available = a->missing == NULL;
	out->net_enforceable = 0;
	snprintf(out->abi, sizeof(out->abi), "%s", a->wine ? "wine" : "win32");
	if (a->missing != NULL)
		snprintf(out->why, sizeof(out->why),
			 "%s is not exported by this Windows; jobobject needs "
			 "Windows 10 or later (never WSL, never an unrestricted "
			 "process)", a->missing);
	if (a->wine != NULL)
		snprintf(out->note, sizeof(out->note),
			 "under Wine %s: the job and the scratch are real, the "
			 "low integrity level and the labels are NOT enforced "
			 "(no wall for files)", a->wine);
	else
		snprintf(out->note, sizeof(out->note),
			 "job object with kill-on-close and the caps as limits; "
			 "writes outside --write refused by a low integrity "
			 "level; reads and the network are not confined");
	if (cpu_rate_error(100) != 0) {
		size_t n = strlen(out->note);

		snprintf(out->note + n, sizeof(out->note) - n, "; a job takes "
			 "no CPU rate here: run --cpu is refused");
	}
	return NS_OK;
}

/* ---- the token ------------------------------------------------------- */

static int
make_token(const struct ns_host *h, HANDLE *out)
{
	const struct jo_api *a = jo_api();
	HANDLE self = NULL, r = NULL;
	PSID low = NULL;
	TOKEN_MANDATORY_LABEL tml;
	DWORD flags = DISABLE_MAX_PRIVILEGE;

	if (!OpenProcessToken(GetCurrentProcess(),
			      TOKEN_DUPLICATE | TOKEN_QUERY |
				      TOKEN_ASSIGN_PRIMARY |
				      TOKEN_ADJUST_DEFAULT,
			      &self))
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "OpenProcessToken failed (error %lu)",
				 GetLastError());
	if (!a->CreateRestrictedToken(self, flags, 0, NULL, 0, NULL, 0, NULL,
				      &r)) {
		DWORD e = GetLastError();

		CloseHandle(self);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "CreateRestrictedToken failed (error %lu)", e);
	}
	CloseHandle(self);
	if (!ConvertStringSidToSidW(L"S-1-16-4096", &low)) {
		CloseHandle(r);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "the low integrity SID cannot be made "
				 "(error %lu)", GetLastError());
	}
	tml.Label.Attributes = SE_GROUP_INTEGRITY;
	tml.Label.Sid = low;
	if (!SetTokenInformation(r, TokenIntegrityLevel, &tml,
				 sizeof(tml) + GetLengthSid(low))) {
		DWORD e = GetLastError();

		LocalFree(low);
		CloseHandle(r);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "the token's integrity level cannot be set "
				 "to low (error %lu)", e);
	}
	LocalFree(low);
	*out = r;
	return NS_OK;
}

/* ---- the labels of the --write roots ---------------------------------- */

static int
label_low(const struct ns_host *h, struct jo_state *s, const char *path)
{
	struct jo_label *l;
	PSECURITY_DESCRIPTOR sd = NULL;
	PACL sacl = NULL;
	BOOL present = FALSE, dflt = FALSE;
	DWORD e;

	if (s->n_labels == JO_MAX_LABELS)
		return jo_refuse(h, NS_E_REFUSED, "bad_write",
				 "more than %d --write roots", JO_MAX_LABELS);
	l = &s->labels[s->n_labels];
	l->path = jo_wpath(path);
	if (l->path == NULL)
		return jo_refuse(h, NS_E_REFUSED, "bad_write",
				 "--write %s is not a path Windows can name",
				 path);
	e = GetNamedSecurityInfoW(l->path, SE_FILE_OBJECT,
				  LABEL_SECURITY_INFORMATION, NULL, NULL, NULL,
				  &l->old_sacl, &l->old);
	if (e != ERROR_SUCCESS) {
		free(l->path);
		return jo_refuse(h, NS_E_SYSTEM, "bad_write",
				 "the label of --write %s cannot be read "
				 "(error %lu)", path, e);
	}
	if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
		    L"S:(ML;OICI;NW;;;LW)", SDDL_REVISION_1, &sd, NULL) ||
	    !GetSecurityDescriptorSacl(sd, &present, &sacl, &dflt)) {
		e = GetLastError();
		LocalFree(l->old);
		LocalFree(sd);
		free(l->path);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "a low label cannot be made (error %lu)", e);
	}
	e = SetNamedSecurityInfoW(l->path, SE_FILE_OBJECT,
				  LABEL_SECURITY_INFORMATION, NULL, NULL, NULL,
				  sacl);
	LocalFree(sd);
	if (e != ERROR_SUCCESS) {
		LocalFree(l->old);
		free(l->path);
		return jo_refuse(h, NS_E_SYSTEM, "bad_write",
				 "--write %s cannot be labelled low integrity "
				 "(error %lu; it must be yours)", path, e);
	}
	s->n_labels++;
	return NS_OK;
}

static void
labels_restore(const struct ns_host *h, struct jo_state *s)
{
	static ACL empty; /* an empty SACL removes the label */

	InitializeAcl(&empty, sizeof(empty), ACL_REVISION);
	while (s->n_labels > 0) {
		struct jo_label *l = &s->labels[--s->n_labels];
		DWORD e = SetNamedSecurityInfoW(
			l->path, SE_FILE_OBJECT, LABEL_SECURITY_INFORMATION,
			NULL, NULL, NULL, l->old_sacl ? l->old_sacl : &empty);

		if (e != ERROR_SUCCESS && h != NULL) {
			char p[JO_PATH] = "?";

			nk_utf8(l->path + 4, p, sizeof(p));
			jo_note(h, "the low label on %s could not be restored "
				   "(error %lu): icacls \"%s\" /setintegritylevel "
				   "(OI)(CI)medium", p, e, p);
		}
		LocalFree(l->old);
		free(l->path);
	}
}

/* ---- --acl caller: the write roots as the caller prepared them -------- */

/* The integrity RID and policy of the mandatory label in sd's SACL:
 * 1 and *rid, *mask; 0 when there is none. */
static int
label_of(PSECURITY_DESCRIPTOR sd, uint32_t *rid, uint32_t *mask)
{
	BOOL present = FALSE, dflt = FALSE;
	PACL sacl = NULL;

	if (!GetSecurityDescriptorSacl(sd, &present, &sacl, &dflt) ||
	    !present || sacl == NULL)
		return 0;
	for (DWORD i = 0; i < sacl->AceCount; i++) {
		SYSTEM_MANDATORY_LABEL_ACE *a;
		PSID sid;

		if (!GetAce(sacl, i, (LPVOID *)&a) ||
		    a->Header.AceType != SYSTEM_MANDATORY_LABEL_ACE_TYPE)
			continue;
		sid = (PSID)&a->SidStart;
		*rid = *GetSidSubAuthority(sid,
					   *GetSidSubAuthorityCount(sid) - 1u);
		*mask = a->Mask;
		return 1;
	}
	return 0;
}

/* Does sd's ACL let the command's token create files and directories? */
static int
acl_lets_write(struct jo_state *s, PSECURITY_DESCRIPTOR sd)
{
	GENERIC_MAPPING map = { FILE_GENERIC_READ, FILE_GENERIC_WRITE,
				FILE_GENERIC_EXECUTE, FILE_ALL_ACCESS };
	PRIVILEGE_SET ps;
	DWORD psl = sizeof(ps), granted = 0;
	BOOL ok = FALSE;
	HANDLE imp = NULL;

	if (!DuplicateTokenEx(s->token, TOKEN_QUERY, NULL,
			      SecurityImpersonation, TokenImpersonation, &imp))
		return 0;
	if (!AccessCheck(sd, imp, FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY, &map,
			 &ps, &psl, &granted, &ok))
		ok = FALSE;
	CloseHandle(imp);
	return ok != FALSE;
}

/* --acl caller: nothing is changed on disk; each --write root must
 * already let the low-integrity, restricted command write (a low label
 * the caller set, and an ACL that grants it), else it is refused here,
 * before anything runs (the command would only fail there). */
static int
caller_root(const struct ns_host *h, struct jo_state *s, const char *path)
{
	PSECURITY_DESCRIPTOR sd = NULL;
	uint32_t rid = 0, mask = 0;
	wchar_t *w = jo_wpath(path);
	HANDLE f = w ? CreateFileW(w, READ_CONTROL, FILE_SHARE_READ |
				   FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
				   OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS |
				   FILE_FLAG_OPEN_REPARSE_POINT, NULL) :
		       INVALID_HANDLE_VALUE;
	DWORD e = f == INVALID_HANDLE_VALUE ? GetLastError() : 0;
	int has, ok;

	free(w);
	if (e == 0)
		e = GetSecurityInfo(f, SE_FILE_OBJECT,
				    OWNER_SECURITY_INFORMATION |
				    GROUP_SECURITY_INFORMATION |
				    DACL_SECURITY_INFORMATION |
				    LABEL_SECURITY_INFORMATION, NULL, NULL,
				    NULL, NULL, &sd);
	if (f != INVALID_HANDLE_VALUE)
		CloseHandle(f);
	if (e != 0)
		return jo_refuse(h, NS_E_REFUSED, "bad_write",
				 "--write %s: its security cannot be read (error "
				 "%lu), so under --acl caller the tool cannot "
				 "tell whether the command may write there",
				 path, e);
	has = label_of(sd, &rid, &mask);
	ok = jo_low_may_write(has, rid, mask);
	if (ok && !acl_lets_write(s, sd)) {
		LocalFree(sd);
		return jo_refuse(h, NS_E_REFUSED, "bad_write",
				 "--write %s: its ACL does not let you create "
				 "files in it, and under --acl caller the tool "
				 "changes nothing: grant yourself write there, "
				 "or name another --write", path);
	}
	LocalFree(sd);
	if (!ok)
		return jo_refuse(h, NS_E_REFUSED, "bad_write",
				 "--write %s %s, so the low-integrity command "
				 "could not write there, and under --acl caller "
				 "the tool changes nothing: label it yourself "
				 "(icacls \"%s\" /setintegritylevel (OI)(CI)low) "
				 "or leave --acl caller out (--acl tool labels "
				 "it for the run and restores it)", path,
				 has ? "has a mandatory label above low" :
				 "has no low mandatory label", path);
	return NS_OK;
}

/* ---- prepare / render ------------------------------------------------- */

static void
state_free(const struct ns_host *h, struct jo_state *s)
{
	if (s->job != NULL) {
		TerminateJobObject(s->job, JO_KILL_CODE(NS_TERM_DONE));
		CloseHandle(s->job);
	}
	if (s->port != NULL)
		CloseHandle(s->port);
	if (s->proc != NULL)
		CloseHandle(s->proc);
	if (s->token != NULL)
		CloseHandle(s->token);
	labels_restore(h, s);
	free(s->cmdline);
	free(s->env);
	free(s->app);
	free(s->cwd);
	free(s);
}

static int
plain_paths(const struct ns_host *h, struct jo_state *s,
	    const struct ns_policy *pol)
{
	DWORD e = 0;

	s->app = jo_plain(pol->command, &e);
	if (s->app == NULL)
		return jo_refuse(h, NS_E_REFUSED, "not_executable",
				 "%s cannot be started: Windows starts a program "
				 "by a path under %d characters, and it has no "
				 "short (8.3) name that is (error %lu); install "
				 "it at a shorter path", pol->command, MAX_PATH,
				 e);
	s->cwd = jo_plain(pol->cwd, &e);
	if (s->cwd == NULL)
		return jo_refuse(h, NS_E_REFUSED, "bad_cwd",
				 "%s cannot be the command's working directory: "
				 "Windows starts a process only in a directory "
				 "under %d characters, and it has no short (8.3) "
				 "name that is (error %lu); name a shorter one "
				 "(--cwd, --write or --scratch)", pol->cwd,
				 MAX_PATH, e);
	return NS_OK;
}

/* --cpu: this Windows must take a job's CPU rate cap before the OK line. */
static int
cpu_probe(const struct ns_host *h, uint32_t percent)
{
	DWORD e = cpu_rate_error(percent);

	if (e != 0)
		return jo_refuse(h, NS_E_REFUSED, "bad_cpu",
				 "--cpu %u: this Windows cannot cap a job's CPU "
				 "rate (JobObjectCpuRateControlInformation: "
				 "error %lu)", percent, e);
	return NS_OK;
}

/* The write roots: a low label for the run (--acl tool; Wine neither reads
 * labels by name, error 5, nor enforces them: none set there), or, under
 * --acl caller, nothing changed and each checked as it is. */
static int
write_roots(const struct ns_host *h, struct jo_state *s,
	    const struct ns_policy *pol)
{
	const struct jo_api *a = jo_api();
	int rc = NS_OK;

	for (size_t i = 0; i < pol->n_rules; i++) {
		int r2 = NS_OK;

		if (pol->rules[i].access != NS_ACCESS_WRITE)
			continue;
		if (s->acl == NS_ACL_CALLER)
			r2 = caller_root(h, s, pol->rules[i].path);
		else if (a->wine == NULL)
			r2 = label_low(h, s, pol->rules[i].path);
		if (r2 != NS_OK && rc == NS_OK)
			rc = r2;
		if (r2 != NS_OK && s->acl != NS_ACL_CALLER)
			break; /* labels: stop at the first; caller: all said */
	}
	return rc;
}

static int
jo_prepare(const struct ns_host *h, const struct ns_policy *pol,
	   void **state)
{
	const struct jo_api *a = jo_api();
	struct jo_state *s;
	int rc;

	*state = NULL;
	if (a->missing != NULL)
		return jo_refuse(h, NS_E_UNAVAILABLE, "no_sandbox",
				 "%s is not exported by this Windows: no job "
				 "wall here (never WSL, never unrestricted)",
				 a->missing);
	if (pol->flags & NS_POLICY_NET_DENY)
		return jo_refuse(h, NS_E_REFUSED, "net_unenforceable",
				 "the Windows wall cannot deny the network; "
				 "drop --net-deny or run on another platform");
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "out of memory");
	if (NS_POLICY_HAS_CAPS(pol)) {
		s->max_procs = pol->max_procs;
		s->max_mem = pol->max_mem_bytes;
	}
	if (NS_POLICY_HAS_CPU(pol)) {
		s->cpu = pol->cpu_percent;
		s->acl = pol->acl;
	}
	rc = jo_check_command(h, pol, &s->cmdline);
	if (rc == NS_OK)
		rc = jo_make_env(h, pol, &s->env);
	if (rc == NS_OK)
		rc = plain_paths(h, s, pol);
	if (rc == NS_OK)
		rc = make_token(h, &s->token);
	if (rc == NS_OK && s->cpu != 0)
		rc = cpu_probe(h, s->cpu);
	if (rc == NS_OK)
		rc = write_roots(h, s, pol);
	if (rc != NS_OK) {
		state_free(NULL, s);
		return rc;
	}
	if (pol->name != NULL)
		jo_note(h, "--name %s names no container: the jobobject wall "
			   "has no AppContainer (it is a restricted, "
			   "low-integrity token in a job object); the name "
			   "changes nothing", pol->name);
	if (a->wine != NULL)
		jo_note(h, "Wine %s does not enforce integrity levels or "
			   "labels: the command's file writes are not walled "
			   "here%s", a->wine, s->acl == NS_ACL_CALLER ? "" :
			   ", and no label was set");
	*state = s;
	return NS_OK;
}

static const char *const jo_access_word[] = {
	"?", "read-exec", "read", "write", "write-file"
};

static int
jo_render(const struct ns_host *h, const struct ns_policy *pol)
{
	int caller = NS_POLICY_HAS_CPU(pol) && pol->acl == NS_ACL_CALLER;
	char *line;
	size_t cap = 4096 + 128;

	if ((line = malloc(cap)) == NULL)
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "out of memory");
	h->text(h->cookie, "job anonymous kill-on-close "
			   "die-on-unhandled-exception no-breakaway");
	if (NS_POLICY_HAS_CAPS(pol)) {
		snprintf(line, cap,
			 "job-limits processes=%llu job-memory=%llu",
			 (unsigned long long)pol->max_procs,
			 (unsigned long long)pol->max_mem_bytes);
		if (NS_POLICY_HAS_CPU(pol) && pol->cpu_percent != 0)
			snprintf(line + strlen(line), cap - strlen(line),
				 " cpu-rate=%u", jo_cpu_rate(pol->cpu_percent));
		h->text(h->cookie, line);
	}
	h->text(h->cookie, "token restricted disable-max-privilege "
			   "integrity=low");
	for (size_t i = 0; i < pol->n_rules; i++) {
		uint32_t ac = pol->rules[i].access;

		snprintf(line, cap, "%s %s%s",
			 jo_access_word[ac < 5 ? ac : 0], pol->rules[i].path,
			 ac != NS_ACCESS_WRITE ? " (not confined)" :
			 caller ? " acl=caller (as prepared; nothing changed)" :
				  " label=low");
		h->text(h->cookie, line);
	}
	free(line);
	return NS_OK;
}

/* ---- spawn ----------------------------------------------------------- */

static int
make_job(const struct ns_host *h, struct jo_state *s)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim;
	JOBOBJECT_ASSOCIATE_COMPLETION_PORT acp;
	JOBOBJECT_CPU_RATE_CONTROL_INFORMATION cpu;

	memset(&lim, 0, sizeof(lim));
	lim.BasicLimitInformation.LimitFlags =
		JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
		JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
	if (s->max_procs > 0 && s->max_procs <= 0xffffffffu) {
		lim.BasicLimitInformation.LimitFlags |=
			JOB_OBJECT_LIMIT_ACTIVE_PROCESS;
		lim.BasicLimitInformation.ActiveProcessLimit =
			(DWORD)s->max_procs;
	}
	if (s->max_mem > 0) {
		lim.BasicLimitInformation.LimitFlags |=
			JOB_OBJECT_LIMIT_JOB_MEMORY;
		lim.JobMemoryLimit = (SIZE_T)s->max_mem;
	}
	memset(&cpu, 0, sizeof(cpu));
	cpu.ControlFlags = JOB_OBJECT_CPU_RATE_CONTROL_ENABLE |
			   JOB_OBJECT_CPU_RATE_CONTROL_HARD_CAP;
	cpu.CpuRate = jo_cpu_rate(s->cpu);
	s->job = CreateJobObjectW(NULL, NULL); /* anonymous, not inherited */
	s->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	if (s->job == NULL || s->port == NULL)
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "a job object cannot be made (error %lu)",
				 GetLastError());
	acp.CompletionKey = s->job;
	acp.CompletionPort = s->port;
	if (!SetInformationJobObject(s->job,
				     JobObjectExtendedLimitInformation, &lim,
				     sizeof(lim)) ||
	    !SetInformationJobObject(s->job,
				     JobObjectAssociateCompletionPortInformation,
				     &acp, sizeof(acp)) ||
	    (s->cpu != 0 &&
	     !SetInformationJobObject(s->job,
				      JobObjectCpuRateControlInformation, &cpu,
				      sizeof(cpu))))
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "the job's limits cannot be set (error %lu)",
				 GetLastError());
	return NS_OK;
}

/* The three standard handles as inheritable duplicates (the attribute
 * list's HANDLE_LIST then lets only those into the command). */
static int
std_handles(const struct ns_host *h, const struct ns_launch *l, HANDLE dup[3],
	    size_t *n_dup, HANDLE list[3], size_t *n_list)
{
	static const DWORD std_id[3] = { STD_INPUT_HANDLE, STD_OUTPUT_HANDLE,
					 STD_ERROR_HANDLE };

	*n_dup = *n_list = 0;
	for (int i = 0; i < 3; i++) {
		HANDLE src = l->stdio[i] >= 0 ?
				     (HANDLE)_get_osfhandle(l->stdio[i]) :
				     GetStdHandle(std_id[i]);

		dup[i] = NULL;
		if (src == NULL || src == INVALID_HANDLE_VALUE)
			continue; /* none: the child gets none */
		if (!DuplicateHandle(GetCurrentProcess(), src,
				     GetCurrentProcess(), &dup[i], 0, TRUE,
				     DUPLICATE_SAME_ACCESS))
			return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
					 "standard handle %d cannot be passed "
					 "(error %lu)", i, GetLastError());
		list[(*n_list)++] = dup[i];
		(*n_dup)++;
	}
	return NS_OK;
}

static int
create_in_job(const struct ns_host *h, struct jo_state *s,
	      const struct ns_policy *pol, HANDLE dup[3], HANDLE *list,
	      size_t n_list, PROCESS_INFORMATION *pi, int *from_birth)
{
	const struct jo_api *a = jo_api();
	STARTUPINFOEXW si;
	SIZE_T sz = 0;
	/* no process group of its own: Ctrl-C reaches the command as a
	 * signal reaches it on the other platforms */
	DWORD flags = CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT |
		      EXTENDED_STARTUPINFO_PRESENT;
	wchar_t *line;
	BOOL ok;
	DWORD e;
	int attrs = n_list > 0 ? 2 : 1;

	memset(&si, 0, sizeof(si));
	si.StartupInfo.cb = sizeof(si);
	si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
	si.StartupInfo.hStdInput = dup[0];
	si.StartupInfo.hStdOutput = dup[1];
	si.StartupInfo.hStdError = dup[2];
	a->InitializeProcThreadAttributeList(NULL, (DWORD)attrs, 0, &sz);
	si.lpAttributeList = malloc(sz);
	if (si.lpAttributeList == NULL ||
	    !a->InitializeProcThreadAttributeList(si.lpAttributeList,
						  (DWORD)attrs, 0, &sz)) {
		free(si.lpAttributeList);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "an attribute list cannot be made");
	}
	*from_birth = a->UpdateProcThreadAttribute(
		si.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_JOB_LIST, &s->job,
		sizeof(HANDLE), NULL, NULL) != 0;
	if (n_list > 0 &&
	    !a->UpdateProcThreadAttribute(si.lpAttributeList, 0,
					  PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
					  list, n_list * sizeof(HANDLE), NULL,
					  NULL)) {
		a->DeleteProcThreadAttributeList(si.lpAttributeList);
		free(si.lpAttributeList);
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "the handle list cannot be set (error %lu)",
				 GetLastError());
	}
	/* CreateProcessW may write into the line: a copy per spawn */
	line = _wcsdup(s->cmdline);
	ok = line != NULL &&
	     a->CreateProcessAsUserW(s->token, s->app, line, NULL, NULL,
				     n_list > 0, flags, s->env, s->cwd,
				     &si.StartupInfo, pi);
	e = line != NULL ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
	free(line);
	a->DeleteProcThreadAttributeList(si.lpAttributeList);
	free(si.lpAttributeList);
	if (ok)
		return NS_OK;
	if (e == ERROR_BAD_EXE_FORMAT || e == ERROR_EXE_MACHINE_TYPE_MISMATCH)
		return jo_refuse(h, NS_E_REFUSED, "not_executable",
				 "%s is not a Windows program (error %lu); it "
				 "is never run through WSL", pol->command, e);
	if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ||
	    e == ERROR_ACCESS_DENIED)
		return jo_refuse(h, NS_E_SYSTEM, "not_executable",
				 "%s cannot be started (error %lu)",
				 pol->command, e);
	return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
			 "CreateProcessAsUserW %s failed (error %lu)",
			 pol->command, e);
}

/* Make sure the suspended child is in the job before it runs a single
 * instruction: JOB_LIST put it there at birth; else assign it now. */
static int
into_job(const struct ns_host *h, struct jo_state *s, PROCESS_INFORMATION *pi)
{
	BOOL in = FALSE;

	if (IsProcessInJob(pi->hProcess, s->job, &in) && in)
		return NS_OK;
	if (AssignProcessToJobObject(s->job, pi->hProcess) &&
	    IsProcessInJob(pi->hProcess, s->job, &in) && in)
		return NS_OK;
	TerminateProcess(pi->hProcess, JO_KILL_CODE(NS_TERM_DONE));
	return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
			 "the command could not be put in its job (error "
			 "%lu); it was ended before it ran", GetLastError());
}

static int
jo_spawn(const struct ns_host *h, void *state, const struct ns_policy *pol,
	 const struct ns_launch *l, struct ns_proc *out)
{
	struct jo_state *s = state;
	PROCESS_INFORMATION pi;
	HANDLE dup[3] = { NULL, NULL, NULL }, list[3];
	size_t n_dup = 0, n_list = 0;
	int rc, from_birth = 0;

	if (l->n_extra_fds > 0)
		return jo_refuse(h, NS_E_REFUSED, "sandbox_failed",
				 "the Windows wall passes only the three "
				 "standard handles");
	if (s->job != NULL) { /* the previous step's job: end it */
		TerminateJobObject(s->job, JO_KILL_CODE(NS_TERM_DONE));
		CloseHandle(s->job);
		CloseHandle(s->port);
		if (s->proc != NULL)
			CloseHandle(s->proc);
		s->job = s->port = s->proc = NULL;
	}
	s->killed = 0;
	s->tree_gone = 0;
	memset(&pi, 0, sizeof(pi));
	rc = make_job(h, s);
	if (rc == NS_OK)
		rc = std_handles(h, l, dup, &n_dup, list, &n_list);
	if (rc == NS_OK)
		rc = create_in_job(h, s, pol, dup, list, n_list, &pi,
				   &from_birth);
	for (size_t i = 0; i < 3; i++)
		if (dup[i] != NULL)
			CloseHandle(dup[i]);
	if (rc == NS_OK)
		rc = into_job(h, s, &pi);
	if (rc != NS_OK) {
		if (pi.hProcess != NULL) {
			CloseHandle(pi.hThread);
			CloseHandle(pi.hProcess);
		}
		return rc;
	}
	ResumeThread(pi.hThread);
	CloseHandle(pi.hThread);
	s->proc = pi.hProcess;
	out->pid = pi.dwProcessId;
	out->handle = (uintptr_t)pi.hProcess;
	(void)from_birth;
	return NS_OK;
}

/* ---- wait / terminate / finish ---------------------------------------- */

static void
end_of(struct jo_state *s, struct ns_exit *out)
{
	DWORD code = 0;

	if (!GetExitCodeProcess(s->proc, &code))
		code = JO_KILL_CODE(NS_TERM_DONE);
	jo_exit_map(code, out);
}

static uint64_t
active_procs(HANDLE job)
{
	JOBOBJECT_BASIC_ACCOUNTING_INFORMATION acc;

	if (!QueryInformationJobObject(job, JobObjectBasicAccountingInformation,
				       &acc, sizeof(acc), NULL))
		return 0;
	return acc.ActiveProcesses;
}

/* One completion message; the caps are the job's (ActiveProcessLimit,
 * JobMemoryLimit) and, where the system does not enforce the first (Wine),
 * counted here on every new process. */
static void
on_message(struct jo_state *s, DWORD msg)
{
	int cap = msg == JOB_OBJECT_MSG_ACTIVE_PROCESS_LIMIT ||
		  msg == JOB_OBJECT_MSG_JOB_MEMORY_LIMIT ||
		  msg == JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT;

	if (msg == JOB_OBJECT_MSG_NEW_PROCESS && s->max_procs > 0 &&
	    active_procs(s->job) > s->max_procs)
		cap = 1;
	if (msg == JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO)
		s->tree_gone = 1;
	if (cap && s->killed == 0) {
		s->killed = NS_TERM_CAP;
		TerminateJobObject(s->job, JO_KILL_CODE(NS_TERM_CAP));
	}
}

static int
jo_wait(const struct ns_host *h, void *state, const struct ns_proc *proc,
	int64_t timeout_ms, struct ns_exit *out)
{
	struct jo_state *s = state;
	ULONGLONG until = timeout_ms < 0 ? 0 : GetTickCount64() +
					       (ULONGLONG)timeout_ms;

	(void)proc;
	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	if (s == NULL || s->job == NULL)
		return jo_refuse(h, NS_E_INTERNAL, "sandbox_failed",
				 "wait() without a spawned command");
	while (!s->tree_gone) {
		DWORD msg = 0, ms = INFINITE;
		ULONG_PTR key = 0;
		LPOVERLAPPED ov = NULL;
		ULONGLONG now = GetTickCount64();

		if (timeout_ms >= 0)
			ms = now >= until ? 0 : (DWORD)(until - now);
		if (!GetQueuedCompletionStatus(s->port, &msg, &key, &ov, ms)) {
			if (GetLastError() != WAIT_TIMEOUT)
				return jo_refuse(h, NS_E_SYSTEM,
						 "sandbox_failed",
						 "the job's completion port "
						 "failed (error %lu)",
						 GetLastError());
			/* time is up: the command's end if it has ended */
			if (WaitForSingleObject(s->proc, 0) == WAIT_OBJECT_0)
				end_of(s, out);
			else
				out->how = NS_END_RUNNING;
			return NS_OK;
		}
		if ((HANDLE)key == s->job)
			on_message(s, msg);
	}
	WaitForSingleObject(s->proc, INFINITE); /* the tree is gone */
	end_of(s, out);
	return NS_OK;
}

static int
jo_terminate(const struct ns_host *h, void *state, const struct ns_proc *proc,
	     uint32_t why)
{
	struct jo_state *s = state;

	(void)proc;
	if (s == NULL || s->job == NULL)
		return NS_OK;
	if (s->killed == 0)
		s->killed = why;
	if (!TerminateJobObject(s->job, JO_KILL_CODE(why)))
		return jo_refuse(h, NS_E_SYSTEM, "sandbox_failed",
				 "TerminateJobObject failed (error %lu)",
				 GetLastError());
	return NS_OK;
}

static int
jo_finish(const struct ns_host *h, void *state, const struct ns_finish *fin)
{
	struct jo_state *s = state;

	(void)fin;
	if (s != NULL && s->killed == NS_TERM_CAP)
		jo_note(h, "the job reached a cap (processes %llu, memory "
			   "%llu bytes) and was ended",
			(unsigned long long)s->max_procs,
			(unsigned long long)s->max_mem);
	return NS_OK;
}

static void
jo_release(const struct ns_host *h, void *state)
{
	if (state != NULL)
		state_free(h, state);
}


const struct ns_wall_ops jo_wall_ops =
	NK_WALL_OPS(NS_SHAPE_CONTAINER, jo_facts, jo_prepare, jo_render,
		    jo_spawn, jo_release,
		    .features = NS_WALL_CAPS_NATIVE | NS_WALL_CAPS_CPU |
				NS_WALL_ACL_CALLER,
		    .finish = jo_finish, .wait = jo_wait,
		    .terminate = jo_terminate);
