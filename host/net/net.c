/* SPDX-License-Identifier: MIT */
/* net.c -- the net room's choices (net.h): the proxy module, the path by
 * the wall's features, the ports, the command's environment and what the
 * wall is told.  No process, no socket here (netproc.c). */
#include "net/net.h"

#include <stdlib.h>
#include <string.h>

#include "base/out.h"

/* ---- the proxy module and the path --------------------------------- */

static int
no_proxy(const struct config *cfg, const struct strv *why_not,
	 struct refusals *r)
{
	struct sbuf b = {0};
	int rc;

	for (size_t i = 0; i < why_not->n; i++)
		sbuf_addf(&b, "; %s", why_not->v[i]);
	if (why_not->n == 0)
		sbuf_addf(&b, "; the config names none for %s", cfg->platform);
	rc = refusals_addr(r, REASON_NO_PROXY, REMEDY_IN_TEXT, "--net-allow "
			  "needs a proxy "
			  "module (role proxy) and none could be loaded%s; "
			  "install it (its package, or make install "
			  "MODULES=netproxy) and name it as proxy = <file> in "
			  "[%s] of the config, or run without --net-allow",
			  b.s ? b.s : "", cfg->platform);
	sbuf_free(&b);
	return rc < 0 ? -1 : 1;
}

/* The module's ready(): NS_OK, else its refusals as one no_proxy. */
static int
proxy_ready(struct net_run *n, struct hostsvc *hs, struct refusals *r)
{
	struct refusals mine = {0};
	struct refusals *saved = hs->refusals;
	const char *stem = hs->stem;
	struct sbuf b = {0};
	int ok, rc;

	hs->refusals = &mine;
	hs->stem = n->mod.stem;
	ok = n->mod.proxy.ready(&hs->host) == NS_OK;
	hs->refusals = saved;
	hs->stem = stem;
	for (size_t i = 0; i < mine.n; i++)
		sbuf_addf(&b, "%s%s", i ? "; " : "", mine.v[i].text);
	refusals_free(&mine);
	rc = ok ? 0 : refusals_addr(r, REASON_NO_PROXY, REMEDY_IN_TEXT,
				    "the proxy module %s "
				   "is not ready here: %s; --net-allow needs "
				   "it (fix what it says, or run without "
				   "--net-allow)", n->mod.ops.name,
				   b.s ? b.s : "ready() failed and said "
				   "nothing") < 0 ? -1 : 1;
	sbuf_free(&b);
	return rc;
}

static int
choose_path(struct net_run *n, const char *wall, uint32_t features,
	    struct refusals *r)
{
	if (features & NS_WALL_NETNS)
		n->path = NET_PATH_NETNS;
	else if (features & NS_WALL_NET_LOOPBACK)
		n->path = NET_PATH_LOOPBACK;
	else
		return refusals_addr(r, REASON_NET_ALLOW_UNSUPPORTED,
				     REMEDY_IN_TEXT,
				    "--net-allow is not supported by the wall "
				    "%s: it keeps neither a network namespace "
				    "of the command's own (NS_WALL_NETNS) nor "
				    "a loopback-only network "
				    "(NS_WALL_NET_LOOPBACK), and the tool never "
				    "runs --net-allow with an open network; run "
				    "without --net-allow (with --net-deny for "
				    "no network)", wall) < 0 ? -1 : 1;
	return 0;
}

int
net_select(struct net_run *n, const struct config *cfg,
	   struct hostsvc *hs, const char *wall_name,
	   uint32_t wall_features, size_t n_entries, struct refusals *r)
{
	struct strv why_not = {0};
	int rc, path;

	n->wall_sink = n->proxy_sink = n->report_fd = -1;
	n->stop_fd = n->status_fd = -1;
	if (n_entries == 0)
		return 0;
	n->active = 1;
	path = choose_path(n, wall_name, wall_features, r); /* both said */
	if (path < 0)
		return -1;
	if (loader_select_proxy(cfg, &n->mod, &why_not) != 0) {
		rc = no_proxy(cfg, &why_not, r);
		strv_free(&why_not);
		return rc < 0 ? -1 : 1;
	}
	strv_free(&why_not);
	n->loaded = 1;
	rc = proxy_ready(n, hs, r);
	return rc < 0 ? -1 : rc ? rc : path;
}

/* ---- ports ------------------------------------------------------------ */

static int
port_listed(const struct net_run *n, unsigned port)
{
	for (size_t i = 0; i < n->n_ports; i++)
		if (n->ports[i] == port)
			return 1;
	return 0;
}

static int
loopback_port(const struct net_list *l, unsigned port)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == NS_NET_LOOPBACK && l->v[i].port == port)
			return 1;
	return 0;
}

void
net_ports_plan(struct net_run *n, const struct net_list *entries)
{
	unsigned p = NET_PROXY_PORT;

	n->entries = entries;
	n->proxied = net_list_proxied(entries);
	n->n_ports = 0;
	n->proxy_port = 0;
	if (n->proxied > 0) {
		while (loopback_port(entries, p) && p < 65535)
			p++;
		n->proxy_port = (uint16_t)p;
		n->ports[n->n_ports++] = (uint16_t)p;
	}
	for (size_t i = 0; i < entries->n; i++)
		if (entries->v[i].kind == NS_NET_LOOPBACK &&
		    !port_listed(n, entries->v[i].port))
			n->ports[n->n_ports++] = entries->v[i].port;
}

/* ---- the command's environment ---------------------------------------- */

static const char *const proxy_vars[] = {
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
	"http_proxy", "https_proxy", "all_proxy", "no_proxy", NULL,
};

static int
is_proxy_var(const char *kv)
{
	for (size_t i = 0; proxy_vars[i] != NULL; i++) {
		size_t len = strlen(proxy_vars[i]);

		if (strncmp(kv, proxy_vars[i], len) == 0 && kv[len] == '=')
			return 1;
	}
	return 0;
}

int
net_env(const struct net_run *n, struct strv *env)
{
	struct strv out = {0};
	unsigned p = n->proxy_port;

	if (!n->active || n->proxied == 0)
		return 0;
	for (size_t i = 0; i < env->n; i++)
		if (!is_proxy_var(env->v[i]))
			strv_push(&out, env->v[i]);
	for (size_t i = 0; i < 8; i += 4) {
		strv_pushf(&out, "%s=http://127.0.0.1:%u", proxy_vars[i], p);
		strv_pushf(&out, "%s=http://127.0.0.1:%u", proxy_vars[i + 1], p);
		strv_pushf(&out, "%s=socks5h://127.0.0.1:%u", proxy_vars[i + 2],
			   p);
		strv_pushf(&out, "%s=localhost,127.0.0.1,::1",
			   proxy_vars[i + 3]);
	}
	if (strv_failed(&out)) {
		strv_free(&out);
		return -1;
	}
	strv_free(env);
	*env = out;
	return 0;
}

/* ---- what the wall is told --------------------------------------------- */

void
net_view(const struct net_run *n, struct ns_policy *view)
{
	if (!n->active)
		return;
	if (n->path == NET_PATH_NETNS) {
		view->flags &= ~NS_POLICY_NET_DENY;
		view->flags |= NS_POLICY_NET_PROXIED;
		view->net_ports = n->ports;
		view->n_net_ports = n->n_ports;
		view->net_sink = n->wall_sink;
		return;
	}
	view->flags |= NS_POLICY_NET_DENY;
	view->net_allow = (const char *const *)n->allow.v;
	view->n_net_allow = n->allow.n;
	view->net_sink = -1;
}

int
net_done_field(const struct net_run *n, struct sbuf *b)
{
	if (!n->active)
		return 0;
	return sbuf_addf(b, " net-denied=%zu", n->denied);
}

void
net_render_view(struct net_run *n, uint32_t wall_features,
		const struct net_list *entries, struct ns_policy *view)
{
	n->wall_sink = n->proxy_sink = n->report_fd = -1;
	n->stop_fd = n->status_fd = -1;
	if (entries->n == 0)
		return;
	n->active = 1;
	n->path = wall_features & NS_WALL_NETNS ? NET_PATH_NETNS :
		  wall_features & NS_WALL_NET_LOOPBACK ? NET_PATH_LOOPBACK :
		  NET_PATH_NONE;
	if (n->path == NET_PATH_NONE)
		return; /* the wrap and run refuse it: net_allow_unsupported */
	net_ports_plan(n, entries);
	for (size_t i = 0; n->path == NET_PATH_LOOPBACK && i < entries->n; i++)
		if (entries->v[i].kind == NS_NET_LOOPBACK)
			strv_push(&n->allow, entries->v[i].text);
	net_view(n, view);
}
