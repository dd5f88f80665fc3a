/* SPDX-License-Identifier: MIT */
/* landlock.c -- landlock.so, the Linux wall (restrict-self-then-fork).
 *
 * facts()   asks the kernel for its ABI and says what the wall keeps;
 * prepare() refuses what cannot be walled and builds the ruleset (nothing
 *           is confined yet); with --net-allow (NS_POLICY_NET_PROXIED,
 *           ll_netns.c) it proves the network namespace can be made;
 * render()  writes the policy as text;
 * spawn()   (ll_spawn.c) confines the calling process once, then forks the
 *           command under a nested scope layer and a seccomp filter.
 * wait(), finish() (ll_wait.c) and the --explain tracer (ll_trace.c): ABI
 *           1.2, used only when the host is 1.2 (see below).
 * The Linux root and device table is ll_table.c's; the host's policy
 * builder turns it into rules.
 *
 * NS_MODULE_REQUIRES_MINOR 0: every 1.2 part is found by size and only
 * used when the host offers it.  A 1.0 or 1.1 host copies the wall table
 * up to its own size (no features, wait or finish: it waits with
 * waitpid and never sets NS_POLICY_EXPLAIN, so the tracer never runs);
 * host->denial is called only when NS_HOST_HAS_DENIAL; the policy's
 * 1.1 descriptors are read only when NS_POLICY_HAS_FDS.  So the module
 * needs nothing a 1.0 host lacks, and says so. */
#define NS_MODULE_REQUIRES_MINOR 0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "banned.h"
#include "ll_netns.h"
#include "ll_protect.h"
#include "ll_socks.h"
#include "ll_spawn.h"
#include "ll_table.h"
#include "ll_audit.h"
#include "ll_trace.h"
#include "common/nk_module.h"

static const char *const optional_roots[] = { NULL };
#define HOST_SIZE_1_0 (offsetof(struct ns_host, option) + sizeof(void *))
#define FACTS_SIZE_1_0 (offsetof(struct ns_wall_facts, why) + 256)

int
ll_host_ok(const struct ns_host *host)
{
	return host != NULL && host->struct_size >= HOST_SIZE_1_0 &&
	       host->refuse != NULL && host->text != NULL;
}

int
ll_policy_ok(const struct ns_host *host, const struct ns_policy *pol)
{
	if (pol != NULL && pol->struct_size >= NS_POLICY_SIZE_1_0)
		return 1;
	host->refuse(host->cookie, "sandbox_failed",
		     "landlock.so: the host passed a policy older than ABI "
		     "1.0; rebuild nova-sandbox");
	return 0;
}

static void ll_audit_on_facts(int kabi, char *note, size_t n);

/* --net-allow's namespace, in the few bytes the note has left: made when
 * no known setting keeps user namespaces from this user (prepare() tries
 * it and refuses netns_unavailable where it cannot be made). */
static void
ll_netns_on_facts(int kabi, char *note, size_t n)
{
	size_t len = strlen(note);

	if (kabi >= 1)
		snprintf(note + len, n - len, "; --net-allow: %s",
			 ll_protect_cause() == NULL ? "own netns" :
			 "no userns");
}

static int
ll_facts(const struct ns_host *host, struct ns_wall_facts *out)
{
	int err, kabi;

	(void)host;
	if (out == NULL || out->struct_size < FACTS_SIZE_1_0)
		return NS_E_INTERNAL;
	kabi = ll_sys_abi(&err);
	ll_fill_facts(kabi, err, out);
	ll_netns_on_facts(kabi, out->note, sizeof(out->note));
	ll_socks_on_facts(kabi, out->note, sizeof(out->note));
	ll_audit_on_facts(kabi, out->note, sizeof(out->note));
	return NS_OK;
}

/* Whether the Landlock audit records are a second source here
 * (ll_audit.c): they need CAP_AUDIT_READ, which an unprivileged user
 * never has, and audit on; the tracer is the first source either way. */
static void
ll_audit_on_facts(int kabi, char *note, size_t n)
{
	static const char *const says[] = {
		[LL_AUDIT_NO_CAP] = "--explain traces; the audit log is not "
				    "read (no CAP_AUDIT_READ)",
		[LL_AUDIT_NOT_HERE] = "--explain traces; the audit log is not "
				      "read here (not the initial PID "
				      "namespace)",
		[LL_AUDIT_OFF] = "--explain traces; the audit log is readable "
				 "but audit is off (no records)",
		[LL_AUDIT_UNKNOWN] = "--explain traces; the audit log is read "
				     "too (whether audit is on is unknown)",
		[LL_AUDIT_ON] = "--explain traces; the audit log names denials "
				"too, with or without --explain",
	};
	size_t len = strlen(note);
	const char *say;

	/* the reachable sockets' list ends the note and comes first: the
	 * clause goes only where it fits whole after a note without it */
	if (kabi < 7 || strstr(note, "reachable from inside now") != NULL)
		return;
	say = says[ll_audit_state()];
	if (len + 2 + strlen(say) < n)
		snprintf(note + len, n - len, "; %s", say);
}

static int
refuse_errno(const struct ns_host *host, const char *what, const char *path,
	     int err)
{
	char text[512];

	snprintf(text, sizeof(text), "cannot %s '%s' for the landlock "
				     "ruleset: %s", what, path, strerror(err));
	host->refuse(host->cookie, "sandbox_failed", text);
	return NS_E_SYSTEM;
}

/* The descriptor the host resolved rule i to (ABI 1.1+, found by size),
 * or -1: then, and only then (an older host), the path is opened here. */
static int
host_fd(const struct ns_policy *pol, size_t i)
{
	if (!NS_POLICY_HAS_FDS(pol) || pol->rule_fds == NULL)
		return -1;
	return pol->rule_fds[i];
}

/* Rule r on fd, with no stat on the way: the directory rights first, as
 * nearly every rule is a directory.  The kernel refuses rights only a
 * directory can take on anything else (a file, a device, a socket) with
 * EINVAL, and only then is the descriptor asked what it is: a
 * non-directory gets the file rights, a directory keeps the error.  0, or
 * -1 with errno and *what the step that failed. */
static int
add_path(int ruleset, int fd, uint32_t access, int abi, const char **what)
{
	uint64_t dir_mask = ll_access_mask(access, abi, 1), file_mask;
	struct stat st;

	*what = "grant an unknown access class to";
	if (dir_mask == 0) {
		errno = EINVAL;
		return -1;
	}
	*what = "add the rule for";
	if (ll_sys_add_path(ruleset, fd, dir_mask) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	*what = "stat";
	if (fstat(fd, &st) != 0)
		return -1;
	*what = "add the rule for";
	file_mask = ll_access_mask(access, abi, 0);
	if (S_ISDIR(st.st_mode) || file_mask == dir_mask) {
		errno = EINVAL; /* the refusal was not the type's */
		return -1;
	}
	if (file_mask == 0) {
		*what = "grant an unknown access class to";
		errno = EINVAL;
		return -1;
	}
	return ll_sys_add_path(ruleset, fd, file_mask);
}

/* One path-beneath rule, made from the host's descriptor (never the name
 * again); the rights are decided on that descriptor (add_path). */
static int
add_rule(const struct ns_host *host, int ruleset, int abi,
	 const struct ns_rule *r, int hfd)
{
	const char *what;
	int fd = hfd, rc = NS_OK;

	if (fd < 0)
		fd = open(r->path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return refuse_errno(host, "open", r->path, errno);
	if (add_path(ruleset, fd, r->access, abi, &what) != 0)
		rc = refuse_errno(host, what, r->path, errno);
	if (hfd < 0)
		close(fd);
	return rc;
}

/* --net-allow at ABI 4+: TCP connect is handled, and allowed to the
 * listeners' ports only, so a connect that bypasses the proxy is refused
 * by Landlock (EACCES, a denial --explain and the audit log name) rather
 * than only failing in the empty namespace (ENETUNREACH). */
static int
proxied(int abi, const struct ns_policy *pol)
{
	return abi >= 4 && ll_netns_wanted(pol);
}

static int
add_ports(const struct ns_host *host, int fd, const struct ns_policy *pol)
{
	char port[16];

	for (size_t i = 0; i < pol->n_net_ports; i++)
		if (ll_sys_add_port(fd, pol->net_ports[i],
				    NOVA_LL_NET_CONNECT_TCP) != 0) {
			snprintf(port, sizeof(port), "%u",
				 (unsigned)pol->net_ports[i]);
			return refuse_errno(host, "add the connect rule for "
					    "port", port, errno);
		}
	return NS_OK;
}

static int
build_ruleset(const struct ns_host *host, const struct ns_policy *pol,
	      int abi, int *out)
{
	struct nova_ll_ruleset_attr attr;
	size_t i;
	int fd, rc = NS_OK;

	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = ll_row(abi)->fs;
	/* Net is handled only with net-deny or --net-allow: handled means
	 * deny-by-default, which would break every command run without. */
	if (pol->flags & NS_POLICY_NET_DENY)
		attr.handled_access_net = ll_row(abi)->net;
	if (proxied(abi, pol))
		attr.handled_access_net = NOVA_LL_NET_CONNECT_TCP;
	/* No scope in the main layer: the tool is in this domain too, and the
	 * scopes belong to the child's nested layer (ll_spawn.c). */
	fd = ll_sys_create_ruleset(&attr);
	if (fd < 0)
		return refuse_errno(host, "create", "ruleset", errno);
	for (i = 0; i < pol->n_rules && rc == NS_OK; i++)
		rc = add_rule(host, fd, abi, &pol->rules[i], host_fd(pol, i));
	if (rc == NS_OK && proxied(abi, pol))
		rc = add_ports(host, fd, pol);
	if (rc != NS_OK) {
		close(fd);
		return rc;
	}
	*out = fd;
	return NS_OK;
}

static int
precheck_status(const char *reason)
{
	if (strcmp(reason, "no_sandbox") == 0)
		return NS_E_UNAVAILABLE;
	return NS_E_REFUSED;
}

/* Rule 5a: the namespace the protection needs, tried in a child before
 * the OK line.  A machine without user namespaces is protect_unavailable
 * (the host adds the line with --unprotect); a path that changed since the
 * host resolved it is sandbox_failed. */
static int
protect_probe(const struct ns_host *host, const struct ns_policy *pol)
{
	struct ll_pfail f;
	const char *cause;
	char text[1024];
	int userns;

	if (ll_protect_probe(pol, &f) == 0)
		return NS_OK;
	userns = f.step <= LL_PS_PRIVATE || f.err == EPERM || f.err == EACCES;
	cause = userns ? ll_protect_cause() : NULL;
	snprintf(text, sizeof(text), "%s%s is kept read-only by a mount "
		 "namespace of the wall's own, which needs a user namespace: "
		 "%s (%s: %s)%s", pol->protect[0], pol->n_protect > 1 ?
		 " (and every other protected path)" : "",
		 cause != NULL ? cause : userns ? "none can be made here" :
		 "it cannot be bound", ll_protect_step(f.step),
		 strerror(f.err), userns ? "; allow unprivileged user "
		 "namespaces, or lift the protection knowingly" : "");
	host->refuse(host->cookie, userns ? "protect_unavailable" :
		     "sandbox_failed", text);
	return userns ? NS_E_UNAVAILABLE : NS_E_SYSTEM;
}

/* --net-allow: the network namespace, tried in the same child as rule
 * 5a's (one unshare).  No user namespace here, or no network namespace
 * in it: netns_unavailable, naming the setting and its fix; never the
 * host's network. */
static int
netns_probe(const struct ns_host *host, const struct ll_pfail *f)
{
	const char *cause = ll_protect_cause(), *fix = ll_protect_fix();
	char text[1024];

	if (f->step > LL_PS_PRIVATE && f->step != LL_PS_LO)
		return NS_OK; /* a later step: the caller says which */
	snprintf(text, sizeof(text), "--net-allow runs the command in a "
		 "network namespace of its own, which needs an unprivileged "
		 "user namespace: %s (%s: %s); %s%s", cause != NULL ? cause :
		 "none can be made here", ll_protect_step(f->step),
		 strerror(f->err), fix != NULL ? "to allow it: " : "allow "
		 "unprivileged user namespaces (user.max_user_namespaces > 0, "
		 "no AppArmor userns restriction) or run without --net-allow",
		 fix != NULL ? fix : "");
	host->refuse(host->cookie, "netns_unavailable", text);
	return NS_E_UNAVAILABLE;
}

static int
ns_probe(const struct ns_host *host, const struct ns_policy *pol)
{
	struct ll_pfail f;
	char text[512];
	int rc;

	if (ll_netns_wanted(pol)) {
		if (ll_netns_check(pol, text, sizeof(text)) != NULL) {
			host->refuse(host->cookie, "sandbox_failed", text);
			return NS_E_INTERNAL;
		}
		if (ll_protect_probe(pol, &f) == 0)
			return NS_OK;
		if ((rc = netns_probe(host, &f)) != NS_OK)
			return rc;
		if (f.step >= LL_PS_LO) {
			snprintf(text, sizeof(text), "--net-allow: %s failed "
				 "in the probe: %s", ll_protect_step(f.step),
				 strerror(f.err));
			host->refuse(host->cookie, "sandbox_failed", text);
			return NS_E_SYSTEM;
		}
	}
	return ll_protect_wanted(pol) ? protect_probe(host, pol) : NS_OK;
}

static int
ll_prepare(const struct ns_host *host, const struct ns_policy *pol,
	   void **state)
{
	struct ll_state *st;
	const char *reason;
	char text[512];
	int err, kabi, fd = -1, rc;

	if (!ll_host_ok(host) || state == NULL)
		return NS_E_INTERNAL;
	if (!ll_policy_ok(host, pol))
		return NS_E_INTERNAL;
	*state = NULL;
	kabi = ll_sys_abi(&err);
	reason = ll_precheck(geteuid(), kabi, err, pol->flags, text,
			     sizeof(text));
	if (reason != NULL) {
		host->refuse(host->cookie, reason, text);
		return precheck_status(reason);
	}
	if ((rc = ns_probe(host, pol)) != NS_OK)
		return rc;
	rc = build_ruleset(host, pol, ll_built_abi(kabi), &fd);
	if (rc != NS_OK)
		return rc;
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		close(fd);
		host->refuse(host->cookie, "sandbox_failed",
			     "landlock.so: out of memory");
		return NS_E_SYSTEM;
	}
	st->ruleset = fd;
	st->ns_cwd = -1;
	st->audit.fd = -1;
	if (kabi >= 7)
		ll_audit_open(&st->audit);
	st->abi = ll_built_abi(kabi);
	st->pol_flags = pol->flags;
	*state = st;
	if (host->note != NULL)
		ll_socks_on_prepare(host, kabi); /* the pathname-socket gap */
	return NS_OK;
}

static int
ll_render_op(const struct ns_host *host, const struct ns_policy *pol)
{
	int err;

	if (!ll_host_ok(host))
		return NS_E_INTERNAL;
	if (!ll_policy_ok(host, pol))
		return NS_E_INTERNAL;
	return ll_render(host, pol, ll_sys_abi(&err));
}

static void
ll_release(const struct ns_host *host, void *state)
{
	struct ll_state *st = state;

	(void)host;
	if (st == NULL)
		return;
	if (st->ruleset >= 0)
		close(st->ruleset);
	if (st->ns_cwd >= 0)
		close(st->ns_cwd);
	ll_audit_close(&st->audit);
	ll_trace_free(st->trace);
	free(st);
}

static const struct ns_wall_ops wall_ops =
	NK_WALL_OPS(NS_SHAPE_RESTRICT_SELF, ll_facts, ll_prepare, ll_render_op,
		    ll_spawn, ll_release,
		    /* ll_table.c: roots and devices */
		    .read_roots = ll_read_roots, .write_files = ll_write_files,
		    .optional_roots = optional_roots,
		    .system_prefixes = ll_system_prefixes,
		    .resolver_conf = "/etc/resolv.conf",
		    .features = NS_WALL_EXPLAIN | NS_WALL_PROTECT |
				NS_WALL_NETNS,
		    .finish = ll_finish,
		    .wait = ll_wait,
		    .terminate = NULL /* the host signals the tree by pid */);

NK_DESCRIPTOR(NS_ROLE_WALL, "landlock",
	      "Linux wall: Landlock ruleset + nested scope layer + "
	      "seccomp, restrict-self-then-fork",
	      NK_NO_OPTIONS, .wall = &wall_ops);
