/* SPDX-License-Identifier: MIT */
/* ll_facts.c -- what the wall can do at a given kernel ABI, said as facts,
 * the `check` note clause, the clamp NOTE and the refusals prepare() makes
 * before it touches the kernel.  Pure: the ABI and the errno come in. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "banned.h"
#include "ll_table.h"

void
ll_unavailable_why(int err, char *buf, size_t n)
{
	if (err == EOPNOTSUPP) {
		snprintf(buf, n,
			 "landlock is built into this kernel but not enabled "
			 "at boot (EOPNOTSUPP); add landlock to the lsm= boot "
			 "parameter (e.g. lsm=landlock,lockdown,yama,"
			 "integrity,apparmor,bpf) and reboot");
		return;
	}
	snprintf(buf, n,
		 "the running kernel has no landlock (%s); run a kernel built "
		 "with CONFIG_SECURITY_LANDLOCK=y (Linux 5.13 or later) with "
		 "landlock in the lsm= boot parameter (lsm=landlock,...)",
		 err == ENOSYS ? "ENOSYS" : strerror(err));
}

void
ll_clamp_sentence(int kabi, char *buf, size_t n)
{
	int top = ll_table_top();

	if (kabi <= top) {
		if (n > 0)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, n,
		 "landlock abi %d is above this tool's table: the wall is "
		 "built at abi %d (clamped); rights the kernel added after "
		 "abi %d are not handled, a newer nova-sandbox handles them",
		 kabi, top, top);
}

/* The clause for a built ABI (>= 1). */
static const char *
clause_for(int abi)
{
	if (abi < 4)
		return "filesystem only: reads, writes and execution are "
		       "walled; --net-deny is refused below landlock abi 4 "
		       "(net_unenforceable); unix sockets and signals are "
		       "not scoped";
	if (abi < 6)
		return "filesystem; --net-deny: unix sockets only (TCP by "
		       "landlock, every other socket family by seccomp); unix "
		       "sockets and signals are not scoped below abi 6";
	if (abi < 9)
		return "filesystem; --net-deny: unix sockets only, every "
		       "other socket family refused; "
		       "abstract unix sockets and signals scoped; pathname "
		       "unix sockets are not walled below abi 9";
	return "filesystem; --net-deny: unix sockets only, every other socket "
	       "family refused; abstract unix sockets "
	       "and signals scoped; pathname unix sockets walled";
}

/* What no ABI walls (spec section 6, Gaps): said in every note. */
static const char gaps[] =
	"; not walled: metadata reads outside (stat, xattrs, readlink, "
	"inotify), metadata writes to the user's own files, advisory locks "
	"on --read files; --read-noexec stops execve only";

/* Append text to buf (holding *len bytes), as much as fits. */
static void
append(char *buf, size_t n, int *len, const char *text)
{
	int k;

	if (*len < 0 || (size_t)*len >= n)
		return;
	k = snprintf(buf + *len, n - (size_t)*len, "%s", text);
	*len = k < 0 ? -1 : *len + k;
}

void
ll_note(int kabi, char *buf, size_t n)
{
	int len;

	if (kabi == LL_NO_LANDLOCK) {
		snprintf(buf, n, "nothing is walled: the running kernel has "
				 "no landlock, a run is refused (no_sandbox)");
		return;
	}
	if (kabi < 1) {
		snprintf(buf, n, "nothing is walled: landlock reported abi %d, "
				 "below 1, a run is refused "
				 "(landlock_abi_unknown)", kabi);
		return;
	}
	if (kabi > ll_table_top())
		len = snprintf(buf, n, "landlock abi %d is above this tool's "
				       "table, built at abi %d (clamped): %s",
			       kabi, ll_built_abi(kabi),
			       clause_for(ll_built_abi(kabi)));
	else
		len = snprintf(buf, n, "%s", clause_for(kabi));
	append(buf, n, &len, gaps);
	if (ll_net_enforceable(kabi)) {
		char backend[64];

		snprintf(backend, sizeof(backend), "; backend at the running "
			 "kernel's landlock LSM, abi %d", kabi);
		append(buf, n, &len, backend);
	}
}

void
ll_fill_facts(int kabi, int err, struct ns_wall_facts *f)
{
	f->available = kabi != LL_NO_LANDLOCK;
	f->net_enforceable = ll_net_enforceable(kabi);
	if (kabi == LL_NO_LANDLOCK)
		snprintf(f->abi, sizeof(f->abi), "-");
	else
		snprintf(f->abi, sizeof(f->abi), "%d", kabi);
	f->used[0] = '\0';
	if (kabi > ll_table_top())
		snprintf(f->used, sizeof(f->used), "%d", ll_built_abi(kabi));
	ll_note(kabi, f->note, sizeof(f->note));
	ll_clamp_sentence(kabi, f->clamp, sizeof(f->clamp));
	f->why[0] = '\0';
	if (kabi == LL_NO_LANDLOCK)
		ll_unavailable_why(err, f->why, sizeof(f->why));
}

const char *
ll_precheck(uid_t euid, int kabi, int err, uint32_t pol_flags, char *text,
	    size_t n)
{
	if (euid == 0) {
		snprintf(text, n, "the wall is for an unprivileged user; run "
				  "nova-sandbox as an unprivileged user (e.g. "
				  "setpriv --reuid=<uid> ...)");
		return "sandbox_failed";
	}
	if (kabi == LL_NO_LANDLOCK) {
		ll_unavailable_why(err, text, n);
		return "no_sandbox";
	}
	if (kabi < 1) {
		snprintf(text, n, "landlock reported abi %d, below 1: what "
				  "that kernel enforces is unknown; run a "
				  "kernel with landlock abi 1 or later "
				  "(Linux 5.13+)", kabi);
		return "landlock_abi_unknown";
	}
	if ((pol_flags & NS_POLICY_NET_DENY) && ll_built_abi(kabi) < 4) {
		snprintf(text, n, "--net-deny needs landlock abi 4 (Linux 6.7) "
				  "for its TCP rules and this kernel has abi "
				  "%d; run without --net-deny (net=nopromise) "
				  "or on Linux 6.7 or later", kabi);
		return "net_unenforceable";
	}
	return NULL;
}
