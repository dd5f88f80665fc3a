/* SPDX-License-Identifier: MIT */
/* test_landlock.c -- landlock.so's pure logic: the ABI table, the masks per
 * ABI, clamping, file-vs-directory masking, facts and note clauses, the
 * refusal order, the policy text (golden) and the seccomp filter (run on a
 * small classic-BPF interpreter). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "common/fake_host.h"
#include "ll_table.h"

/* ---- table ------------------------------------------------------------ */

static void
test_table_rows(void)
{
	static const struct {
		int abi;
		uint64_t fs, net, scoped;
		uint32_t flags;
	} want[] = {
		{ 1, 0x1fff, 0, 0, 0 },      { 2, 0x3fff, 0, 0, 0 },
		{ 3, 0x7fff, 0, 0, 0 },      { 4, 0x7fff, 3, 0, 0 },
		{ 5, 0xffff, 3, 0, 0 },      { 6, 0xffff, 3, 3, 0 },
		{ 7, 0xffff, 3, 3, 0x7 },    { 8, 0xffff, 3, 3, 0xf },
		{ 9, 0x1ffff, 3, 3, 0xf },
	};
	size_t i;

	CU_ASSERT_EQUAL(ll_table_top(), 9);
	CU_ASSERT_PTR_NULL(ll_row(0));
	CU_ASSERT_PTR_NULL(ll_row(-1));
	CU_ASSERT_PTR_NULL(ll_row(10));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ll_abi_row *r = ll_row(want[i].abi);

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL(r->abi, want[i].abi);
		CU_ASSERT_EQUAL(r->fs, want[i].fs);
		CU_ASSERT_EQUAL(r->net, want[i].net);
		CU_ASSERT_EQUAL(r->scoped, want[i].scoped);
		CU_ASSERT_EQUAL(r->restrict_flags, want[i].flags);
	}
}

static void
test_uapi_layout(void)
{
	CU_ASSERT_EQUAL(sizeof(struct nova_ll_ruleset_attr), 24);
	CU_ASSERT_EQUAL(sizeof(struct nova_ll_path_beneath_attr), 12);
	CU_ASSERT_EQUAL(NOVA_LL_FS_RESOLVE_UNIX, 1ULL << 16);
	CU_ASSERT_EQUAL(NOVA_LL_RESTRICT_TSYNC, 1U << 3);
	CU_ASSERT_EQUAL(NOVA_LL_LOG_NEW_EXEC_ON, 1U << 1);
}

static void
test_restrict_flags(void)
{
	int a;

	for (a = 1; a <= 6; a++)
		CU_ASSERT_EQUAL(ll_restrict_flags(a), 0);
	for (a = 7; a <= 9; a++)
		CU_ASSERT_EQUAL(ll_restrict_flags(a), NOVA_LL_LOG_NEW_EXEC_ON);
	CU_ASSERT_EQUAL(ll_restrict_flags(0), 0);
}

static void
test_scope_layer(void)
{
	struct nova_ll_ruleset_attr a;

	ll_scope_layer(6, &a);
	CU_ASSERT_EQUAL(a.scoped, 3);
	CU_ASSERT_EQUAL(a.handled_access_fs, 0);
	CU_ASSERT_EQUAL(a.handled_access_net, 0);
	ll_scope_layer(5, &a);
	CU_ASSERT_EQUAL(a.scoped, 0);
	CU_ASSERT_EQUAL(a.handled_access_fs, NOVA_LL_FS_MAKE_BLOCK);
	ll_scope_layer(1, &a);
	CU_ASSERT_EQUAL(a.handled_access_fs, NOVA_LL_FS_MAKE_BLOCK);
}

/* ---- masks -------------------------------------------------------------- */

static void
test_masks_dir(void)
{
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_READ_EXEC, 7, 1), 0xd);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_READ, 7, 1), 0xc);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 1, 1), 0x1fff);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 2, 1), 0x3fff);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 4, 1), 0x7fff);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 7, 1), 0xffff);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 9, 1), 0x1ffff);
	/* WRITE_FILE: EXECUTE|READ_FILE|WRITE_FILE|TRUNCATE|IOCTL_DEV */
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE_FILE, 1, 1), 0x7);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE_FILE, 3, 1), 0x4007);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE_FILE, 5, 1), 0xc007);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE_FILE, 9, 1), 0xc007);
}

static void
test_masks_file(void)
{
	/* a rule on a non-directory carries only file rights */
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_READ_EXEC, 7, 0), 0x5);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_READ, 7, 0), 0x4);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 1, 0), 0x7);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 3, 0), 0x4007);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 7, 0), 0xc007);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 9, 0), 0x1c007);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE_FILE, 7, 0), 0xc007);
}

static void
test_masks_refused(void)
{
	CU_ASSERT_EQUAL(ll_access_mask(0, 7, 1), 0);
	CU_ASSERT_EQUAL(ll_access_mask(99, 7, 1), 0);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 0, 1), 0);
	CU_ASSERT_EQUAL(ll_access_mask(NS_ACCESS_WRITE, 10, 1), 0);
}

/* ---- facts, clamp, note ------------------------------------------------- */

static void
facts_for(int kabi, int err, struct ns_wall_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->struct_size = sizeof(*f);
	ll_fill_facts(kabi, err, f);
}

static int
ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

static void
test_facts_plain(void)
{
	struct ns_wall_facts f;

	facts_for(7, 0, &f);
	CU_ASSERT_EQUAL(f.available, 1);
	CU_ASSERT_EQUAL(f.net_enforceable, 1);
	CU_ASSERT_STRING_EQUAL(f.abi, "7");
	CU_ASSERT_STRING_EQUAL(f.used, "");
	CU_ASSERT_STRING_EQUAL(f.clamp, "");
	CU_ASSERT_STRING_EQUAL(f.why, "");
	facts_for(3, 0, &f);
	CU_ASSERT_EQUAL(f.net_enforceable, 0);
	CU_ASSERT_STRING_EQUAL(f.abi, "3");
}

static void
test_facts_clamped(void)
{
	struct ns_wall_facts f;

	CU_ASSERT_EQUAL(ll_built_abi(7), 7);
	CU_ASSERT_EQUAL(ll_built_abi(9), 9);
	CU_ASSERT_EQUAL(ll_built_abi(12), 9);
	facts_for(12, 0, &f);
	CU_ASSERT_EQUAL(f.available, 1);
	CU_ASSERT_EQUAL(f.net_enforceable, 1);
	CU_ASSERT_STRING_EQUAL(f.abi, "12");
	CU_ASSERT_STRING_EQUAL(f.used, "9");
	CU_ASSERT_PTR_NOT_NULL(strstr(f.clamp,
		"landlock abi 12 is above this tool's table: the wall is "
		"built at abi 9 (clamped); "));
	CU_ASSERT_EQUAL(strncmp(f.clamp, "landlock abi 12", 15), 0);
}

static void
test_facts_absent(void)
{
	struct ns_wall_facts f;

	facts_for(LL_NO_LANDLOCK, ENOSYS, &f);
	CU_ASSERT_EQUAL(f.available, 0);
	CU_ASSERT_EQUAL(f.net_enforceable, 0);
	CU_ASSERT_STRING_EQUAL(f.abi, "-");
	CU_ASSERT_PTR_NOT_NULL(strstr(f.why, "CONFIG_SECURITY_LANDLOCK"));
	CU_ASSERT_PTR_NOT_NULL(strstr(f.why, "lsm=landlock"));
	facts_for(LL_NO_LANDLOCK, EOPNOTSUPP, &f);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.why, "not enabled at boot"));
	CU_ASSERT_PTR_NOT_NULL(strstr(f.why, "lsm=landlock"));
	facts_for(0, 0, &f);
	CU_ASSERT_EQUAL(f.available, 1);
	CU_ASSERT_EQUAL(f.net_enforceable, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.note, "landlock_abi_unknown"));
}

static void
test_note_clauses(void)
{
	char n[512];

	ll_note(3, n, sizeof(n));
	CU_ASSERT_EQUAL(strncmp(n, "filesystem only", 15), 0);
	CU_ASSERT_PTR_NULL(strstr(n, "backend at"));
	ll_note(5, n, sizeof(n));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "not scoped below abi 6"));
	CU_ASSERT(ends_with(n, "; backend at the running kernel's landlock "
			       "LSM, abi 5"));
	ll_note(7, n, sizeof(n));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "unix sockets only"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "every other socket family"));
	/* the gaps no abi closes are said in every note (spec 6, Gaps) */
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "metadata reads outside"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "advisory locks on --read files"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "--read-noexec stops execve only"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "signals scoped"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "not walled below abi 9"));
	CU_ASSERT(ends_with(n, "landlock LSM, abi 7"));
	ll_note(9, n, sizeof(n));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "pathname unix sockets walled"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "--read-noexec stops execve only"));
	ll_note(3, n, sizeof(n));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "metadata writes to the user's own"));
	/* the longest note (clamped, abi 9 clause) fits whole */
	ll_note(12, n, sizeof(n));
	CU_ASSERT(strlen(n) < sizeof(n) - 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "--read-noexec stops execve only"));
	CU_ASSERT_EQUAL(strncmp(n, "landlock abi 12 is above", 24), 0);
	CU_ASSERT(ends_with(n, "landlock LSM, abi 12"));
	ll_note(LL_NO_LANDLOCK, n, sizeof(n));
	CU_ASSERT_PTR_NOT_NULL(strstr(n, "no_sandbox"));
}

/* ---- refusals, in order ------------------------------------------------- */

static void
test_precheck_order(void)
{
	char t[512];
	const char *r;

	r = ll_precheck(0, LL_NO_LANDLOCK, ENOSYS, NS_POLICY_NET_DENY, t,
			sizeof(t));
	CU_ASSERT_STRING_EQUAL(r, "sandbox_failed");
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "unprivileged user"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "setpriv --reuid="));
	r = ll_precheck(1000, LL_NO_LANDLOCK, ENOSYS, NS_POLICY_NET_DENY, t,
			sizeof(t));
	CU_ASSERT_STRING_EQUAL(r, "no_sandbox");
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "lsm=landlock"));
	r = ll_precheck(1000, 0, 0, NS_POLICY_NET_DENY, t, sizeof(t));
	CU_ASSERT_STRING_EQUAL(r, "landlock_abi_unknown");
	r = ll_precheck(1000, 3, 0, NS_POLICY_NET_DENY, t, sizeof(t));
	CU_ASSERT_STRING_EQUAL(r, "net_unenforceable");
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "--net-deny"));
	CU_ASSERT_PTR_NULL(ll_precheck(1000, 3, 0, 0, t, sizeof(t)));
	CU_ASSERT_PTR_NULL(ll_precheck(1000, 4, 0, NS_POLICY_NET_DENY, t,
				       sizeof(t)));
	CU_ASSERT_PTR_NULL(ll_precheck(1000, 12, 0, NS_POLICY_NET_DENY, t,
				       sizeof(t)));
}

/* ---- policy text (golden) ------------------------------------------------ */

static const struct ns_rule golden_rules[] = {
	{ "/usr", NS_ACCESS_READ_EXEC, NS_ORIGIN_ROOT },
	{ "/etc", NS_ACCESS_READ_EXEC, NS_ORIGIN_ROOT },
	{ "/opt/tool", NS_ACCESS_READ_EXEC, NS_ORIGIN_OPTIONAL },
	{ "/srv/in put", NS_ACCESS_READ_EXEC, NS_ORIGIN_READ },
	{ "/srv/data", NS_ACCESS_READ, NS_ORIGIN_READ_NOEXEC },
	{ "/w", NS_ACCESS_WRITE, NS_ORIGIN_WRITE },
	{ "/w2/t\x01x", NS_ACCESS_WRITE, NS_ORIGIN_WRITE },
	{ "/w/.nova-sandbox-tmp", NS_ACCESS_WRITE, NS_ORIGIN_TMP },
	{ "/c", NS_ACCESS_WRITE, NS_ORIGIN_CWD },
	{ "/dev/null", NS_ACCESS_WRITE_FILE, NS_ORIGIN_WRITE_FILE },
	{ "/dev/tty", NS_ACCESS_WRITE_FILE, NS_ORIGIN_WRITE_FILE },
};

#define GOLDEN_HEAD                                                        \
	"# nova-sandbox policy (landlock): the ruleset the command runs "  \
	"under\n"                                                          \
	"# read= execute, read files, list dirs; read-noexec= read files, " \
	"list dirs;\n"                                                     \
	"# write= every right of the abi; writefile= read, write, "        \
	"truncate, ioctl of one file\n"                                    \
	"backend=landlock\n"
#define GOLDEN_RULES                                                       \
	"read=/usr\nread=/etc\nread=/opt/tool\nread=/srv/in put\n"          \
	"read-noexec=/srv/data\nwrite=/w\nwrite=/w2/t\\x01x\n"             \
	"write=/w/.nova-sandbox-tmp\nwrite=/c\nwritefile=/dev/null\n"       \
	"writefile=/dev/tty\n"

static void
golden_policy(struct ns_policy *p, uint32_t flags)
{
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->flags = flags;
	p->rules = golden_rules;
	p->n_rules = sizeof(golden_rules) / sizeof(golden_rules[0]);
	p->gpu = "none";
}

static const char *
render(uint32_t flags, int kabi)
{
	struct ns_policy p;

	golden_policy(&p, flags);
	fh_reset();
	CU_ASSERT_EQUAL(ll_render(&fake_ns_host, &p, kabi), NS_OK);
	CU_ASSERT_EQUAL(fh.n_refusals, 0);
	return fh.text;
}

static void
test_render_plain(void)
{
	CU_ASSERT_STRING_EQUAL(render(0, 7),
		GOLDEN_HEAD "abi=7\nnet=nopromise\n" GOLDEN_RULES "gpu=none\n");
	CU_ASSERT_STRING_EQUAL(render(NS_POLICY_NET_DENY, 7),
		GOLDEN_HEAD "abi=7\nnet=denied\n" GOLDEN_RULES "gpu=none\n");
}

static void
test_render_edges(void)
{
	CU_ASSERT_STRING_EQUAL(render(0, 12),
		GOLDEN_HEAD "abi=12 used=9\n"
		"# landlock abi 12 is above this tool's table: the wall is "
		"built at abi 9 (clamped); rights the kernel added after abi 9 "
		"are not handled, a newer nova-sandbox handles them\n"
		"net=nopromise\n" GOLDEN_RULES "gpu=none\n");
	CU_ASSERT_STRING_EQUAL(render(0, LL_NO_LANDLOCK),
		GOLDEN_HEAD "abi=-\n# this kernel has no landlock: a run would "
		"refuse (no_sandbox)\nnet=nopromise\n" GOLDEN_RULES
		"gpu=none\n");
	CU_ASSERT_STRING_EQUAL(render(NS_POLICY_NET_DENY, 3),
		GOLDEN_HEAD "abi=3\n# --net-deny needs landlock abi 4: a run "
		"would refuse (net_unenforceable)\nnet=denied\n" GOLDEN_RULES
		"gpu=none\n");
}

static void
test_render_identical(void)
{
	char first[sizeof(fh.text)];

	snprintf(first, sizeof(first), "%s", render(NS_POLICY_NET_DENY, 7));
	CU_ASSERT_STRING_EQUAL(render(NS_POLICY_NET_DENY, 7), first);
}

static void
test_render_bad_rule(void)
{
	static const struct ns_rule bad[] = { { "/x", 77, 99 } };
	struct ns_policy p;

	golden_policy(&p, 0);
	p.rules = bad;
	p.n_rules = 1;
	fh_reset();
	CU_ASSERT_EQUAL(ll_render(&fake_ns_host, &p, 7), NS_E_INTERNAL);
	CU_ASSERT_EQUAL(fh.n_refusals, 1);
}

/* ---- the seccomp filter, run on a classic-BPF interpreter ------------- */

static uint32_t
bpf_run(const struct sock_filter *p, int n, const struct seccomp_data *d)
{
	const unsigned char *mem = (const unsigned char *)d;
	uint32_t acc = 0;
	int pc = 0;

	while (pc >= 0 && pc < n) {
		const struct sock_filter *i = &p[pc];

		if (i->code == (BPF_LD | BPF_W | BPF_ABS)) {
			memcpy(&acc, mem + i->k, 4);
			pc++;
		} else if (i->code == (BPF_JMP | BPF_JEQ | BPF_K)) {
			pc += 1 + (acc == i->k ? i->jt : i->jf);
		} else if (i->code == (BPF_JMP | BPF_JGE | BPF_K)) {
			pc += 1 + (acc >= i->k ? i->jt : i->jf);
		} else if (i->code == (BPF_RET | BPF_K)) {
			return i->k;
		} else {
			return 0xdeadbeef; /* an instruction we did not write */
		}
	}
	return 0xdeadbeef; /* fell off the end */
}

#define SELF 4242

static uint32_t
verdict(int net_deny, uint32_t arch, int nr, uint64_t a0, uint64_t a1)
{
	struct sock_filter prog[LL_FILTER_MAX];
	struct seccomp_data d;
	int n = ll_filter_build(prog, net_deny, SELF);

	CU_ASSERT_FATAL(n > 0 && n <= LL_FILTER_MAX);
	memset(&d, 0, sizeof(d));
	d.arch = arch;
	d.nr = nr;
	d.args[0] = a0;
	d.args[1] = a1;
	return bpf_run(prog, n, &d);
}

#define X86 AUDIT_ARCH_X86_64
#define ERR(e) (SECCOMP_RET_ERRNO | (e))

static void
test_filter_ioctl(void)
{
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0, TIOCSTI), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0, TIOCLINUX), ERR(EPERM));
	/* exclusive mode on the caller's terminal outlives the run */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0, TIOCEXCL), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0, TIOCEXCL | (1ULL << 40)),
			ERR(EPERM));
	/* CVE-2019-10063: the kernel drops the high half, so must we */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0,
				TIOCSTI | (1ULL << 32)), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0,
				TIOCLINUX | 0xffffffff00000000ULL),
			ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioctl, 0, TCGETS),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_ioctl, 0, TIOCSTI), ERR(EPERM));
}

static void
test_filter_socket(void)
{
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, AF_INET, 0), ERR(EACCES));
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, AF_INET6, 0),
			ERR(EACCES));
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, AF_INET | (1ULL << 32),
				0), ERR(EACCES));
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, AF_UNIX, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_io_uring_setup, 0, 0),
			ERR(ENOSYS));
	/* without net-deny the network is not the filter's business */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_socket, AF_INET, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_io_uring_setup, 0, 0),
			SECCOMP_RET_ALLOW);
}

/* pid arguments: 0 and the baked pid pass, on the low half only (the
 * kernel reads pid_t as int, so SELF | 1 << 32 is SELF to it) */
static void
test_filter_pid(void)
{
	const uint64_t hi = 1ULL << 32;

	CU_ASSERT_EQUAL(verdict(0, X86, SYS_prlimit64, 0, 0), SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_prlimit64, SELF, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_prlimit64, SELF | hi, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_prlimit64, SELF + 1, 0),
			ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_prlimit64, (SELF + 1) | hi, 0),
			ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_sched_setaffinity, 1, 0),
			ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_move_pages, 0, 0),
			SECCOMP_RET_ALLOW);
	/* setpriority(which, who): PRIO_PROCESS (0) on 0/self only */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 0, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 0, SELF),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 0, 7), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 1, 0), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 2, SELF),
			ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_setpriority, 1 | hi, 0),
			ERR(EPERM));
	/* ioprio_set(which, who): IOPRIO_WHO_PROCESS (1) on 0/self only */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioprio_set, 1, 0),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioprio_set, 1, SELF),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioprio_set, 1, 9), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioprio_set, 2, 0), ERR(EPERM));
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_ioprio_set, 3, 0), ERR(EPERM));
	/* the reads stay open */
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_getpriority, 1, 7),
			SECCOMP_RET_ALLOW);
	CU_ASSERT_EQUAL(verdict(0, X86, SYS_sched_getaffinity, 7, 0),
			SECCOMP_RET_ALLOW);
}

/* net-deny: socket families are an allowlist of AF_UNIX alone */
static void
test_filter_families(void)
{
	int fam;

	for (fam = 0; fam < 64; fam++) {
		uint32_t want = fam == AF_UNIX ? SECCOMP_RET_ALLOW : ERR(EACCES);

		CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, (uint64_t)fam, 0),
				want);
		CU_ASSERT_EQUAL(verdict(1, X86, SYS_socketpair, (uint64_t)fam,
					0), want);
		CU_ASSERT_EQUAL(verdict(0, X86, SYS_socket, (uint64_t)fam, 0),
				SECCOMP_RET_ALLOW);
	}
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_socket, AF_UNIX | (1ULL << 32),
				0), SECCOMP_RET_ALLOW);
}

static void
test_filter_size(void)
{
	struct sock_filter prog[LL_FILTER_MAX];
	int plain = ll_filter_build(prog, 0, SELF);
	int net = ll_filter_build(prog, 1, SELF);

	CU_ASSERT(plain > 0 && plain <= LL_FILTER_MAX);
	CU_ASSERT(net > plain && net <= LL_FILTER_MAX);
	/* a pid that getpid() never returns is a caller's mistake */
	CU_ASSERT_EQUAL(ll_filter_build(prog, 0, 0), -1);
	CU_ASSERT_EQUAL(ll_filter_build(prog, 1, -1), -1);
}

static void
test_filter_arch(void)
{
	CU_ASSERT_EQUAL(verdict(0, AUDIT_ARCH_I386, SYS_ioctl, 0, 0),
			SECCOMP_RET_KILL_PROCESS);
	CU_ASSERT_EQUAL(verdict(1, AUDIT_ARCH_I386, 1, 0, 0),
			SECCOMP_RET_KILL_PROCESS);
	/* x32: the same arch value, numbers with bit 30 set */
	CU_ASSERT_EQUAL(verdict(0, X86, 0x40000000 | SYS_ioctl, 0, TIOCSTI),
			SECCOMP_RET_KILL_PROCESS);
	CU_ASSERT_EQUAL(verdict(1, X86, SYS_read, 0, 0), SECCOMP_RET_ALLOW);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "table rows per ABI", test_table_rows },
		{ "uapi layout", test_uapi_layout },
		{ "restrict_self flags", test_restrict_flags },
		{ "nested scope layer", test_scope_layer },
		{ "masks on a directory", test_masks_dir },
		{ "masks on a file", test_masks_file },
		{ "unknown class or abi", test_masks_refused },
		{ "facts plain", test_facts_plain },
		{ "facts clamped", test_facts_clamped },
		{ "facts without landlock", test_facts_absent },
		{ "note clauses", test_note_clauses },
		{ "refusal order", test_precheck_order },
		{ "render golden", test_render_plain },
		{ "render clamp/absent/net", test_render_edges },
		{ "render byte-identical", test_render_identical },
		{ "render bad rule", test_render_bad_rule },
		{ "filter ioctl", test_filter_ioctl },
		{ "filter socket", test_filter_socket },
		{ "filter arch", test_filter_arch },
		{ "filter pid targets", test_filter_pid },
		{ "filter socket families", test_filter_families },
		{ "filter size", test_filter_size },
		{ NULL, NULL }
	};

	return cu_run("landlock", NULL, NULL, cases);
}
