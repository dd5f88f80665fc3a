/* SPDX-License-Identifier: MIT */
/* ll_render.c -- the policy as text (original-behaviour.md section 4, the
 * Linux LandlockPolicyText): comment header, backend, abi, net, one line per
 * rule in the order the ruleset is built, gpu.  Byte-identical for the same
 * policy and kernel ABI; runs nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "ll_netns.h"
#include "ll_protect.h"
#include "ll_table.h"

static const char *const header[] = {
	"# nova-sandbox policy (landlock): the ruleset the command runs under",
	"# read= execute, read files, list dirs; read-noexec= read files, "
	"list dirs;",
	"# write= every right of the abi; writefile= read, write, truncate, "
	"ioctl of one file",
	NULL
};

/* The key for a rule: by origin, else (an origin newer than this module)
 * by access class. */
static const char *
rule_key(const struct ns_rule *r)
{
	switch (r->origin) {
	case NS_ORIGIN_ROOT:
	case NS_ORIGIN_OPTIONAL:
	case NS_ORIGIN_READ:
		return "read";
	case NS_ORIGIN_READ_NOEXEC:
		return "read-noexec";
	case NS_ORIGIN_WRITE:
	case NS_ORIGIN_TMP:
	case NS_ORIGIN_CWD:
		return "write";
	case NS_ORIGIN_WRITE_FILE:
		return "writefile";
	}
	switch (r->access) {
	case NS_ACCESS_READ_EXEC:
		return "read";
	case NS_ACCESS_READ:
		return "read-noexec";
	case NS_ACCESS_WRITE:
		return "write";
	case NS_ACCESS_WRITE_FILE:
		return "writefile";
	}
	return NULL;
}

/* key=value with control characters as \xNN, so one rule is one line. */
static int
emit_kv(const struct ns_host *host, const char *key, const char *val)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(key) + 4 * strlen(val) + 2, o;
	char *line = malloc(n);
	const unsigned char *p;

	if (line == NULL)
		return -1;
	o = (size_t)snprintf(line, n, "%s=", key);
	for (p = (const unsigned char *)val; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			line[o++] = '\\';
			line[o++] = 'x';
			line[o++] = hex[*p >> 4];
			line[o++] = hex[*p & 0xf];
		} else {
			line[o++] = (char)*p;
		}
	}
	line[o] = '\0';
	host->text(host->cookie, line);
	free(line);
	return 0;
}

static void
emit_abi(const struct ns_host *host, int kabi)
{
	char line[320];

	if (kabi == LL_NO_LANDLOCK) {
		host->text(host->cookie, "abi=-");
		host->text(host->cookie, "# this kernel has no landlock: a run "
					 "would refuse (no_sandbox)");
		return;
	}
	if (kabi < 1) {
		snprintf(line, sizeof(line), "abi=%d", kabi);
		host->text(host->cookie, line);
		host->text(host->cookie, "# landlock abi below 1: a run would "
					 "refuse (landlock_abi_unknown)");
		return;
	}
	if (kabi <= ll_table_top()) {
		snprintf(line, sizeof(line), "abi=%d", kabi);
		host->text(host->cookie, line);
		return;
	}
	snprintf(line, sizeof(line), "abi=%d used=%d", kabi,
		 ll_built_abi(kabi));
	host->text(host->cookie, line);
	line[0] = '#';
	line[1] = ' ';
	ll_clamp_sentence(kabi, line + 2, sizeof(line) - 2);
	host->text(host->cookie, line);
}

/* --net-allow (ll_netns.c): the namespace and its listeners. */
static void
emit_netns(const struct ns_host *host, const struct ns_policy *pol, int kabi)
{
	char ports[512], line[600];

	ll_netns_ports(pol, ports, sizeof(ports));
	host->text(host->cookie, "net=proxied");
	host->text(host->cookie, "# netns= a network namespace of the "
				 "command's own: lo only, the listeners on "
				 "127.0.0.1 and [::1] passed to the proxy");
	snprintf(line, sizeof(line), "netns loopback-only listeners=%s",
		 ports);
	host->text(host->cookie, line);
	host->text(host->cookie, kabi >= 4 ?
		   "# tcp connect: the listeners' ports only (landlock); "
		   "any other is refused EACCES" :
		   "# tcp connect: not handled below landlock abi 4; the "
		   "namespace reaches nothing else");
}

static void
emit_net(const struct ns_host *host, const struct ns_policy *pol, int kabi)
{
	uint32_t flags = pol->flags;
	int deny = (flags & NS_POLICY_NET_DENY) != 0;

	if (ll_netns_wanted(pol) && NS_POLICY_HAS_NETNS(pol)) {
		emit_netns(host, pol, kabi);
		return;
	}

	if (deny && kabi >= 1 && !ll_net_enforceable(kabi))
		host->text(host->cookie, "# --net-deny needs landlock abi 4: "
					 "a run would refuse "
					 "(net_unenforceable)");
	host->text(host->cookie, deny ? "net=denied" : "net=nopromise");
}

static int
emit_rules(const struct ns_host *host, const struct ns_policy *pol)
{
	const char *key;
	size_t i;

	for (i = 0; i < pol->n_rules; i++) {
		key = rule_key(&pol->rules[i]);
		if (key == NULL || pol->rules[i].path == NULL) {
			host->refuse(host->cookie, "sandbox_failed",
				     "landlock.so: a policy rule has an "
				     "unknown origin and access class");
			return NS_E_INTERNAL;
		}
		if (emit_kv(host, key, pol->rules[i].path) != 0) {
			host->refuse(host->cookie, "sandbox_failed",
				     "landlock.so: out of memory");
			return NS_E_SYSTEM;
		}
	}
	return NS_OK;
}

int
ll_render(const struct ns_host *host, const struct ns_policy *pol, int kabi)
{
	size_t i;
	int rc;

	for (i = 0; header[i] != NULL; i++)
		host->text(host->cookie, header[i]);
	host->text(host->cookie, "backend=landlock");
	emit_abi(host, kabi);
	emit_net(host, pol, kabi);
	rc = emit_rules(host, pol);
	if (rc != NS_OK)
		return rc;
	/* rule 5a: read-only whatever rule covers them (ABI 1.4) */
	if (ll_protect_wanted(pol))
		host->text(host->cookie, "# protect= readable, not writable "
					 "whatever rule covers it (a read-only "
					 "bind in the wall's own namespace)");
	for (i = 0; ll_protect_wanted(pol) && i < pol->n_protect; i++)
		if (emit_kv(host, "protect", pol->protect[i]) != 0) {
			host->refuse(host->cookie, "sandbox_failed",
				     "landlock.so: out of memory");
			return NS_E_SYSTEM;
		}
	if (emit_kv(host, "gpu", pol->gpu != NULL ? pol->gpu : "none") != 0) {
		host->refuse(host->cookie, "sandbox_failed",
			     "landlock.so: out of memory");
		return NS_E_SYSTEM;
	}
	return NS_OK;
}
