/* SPDX-License-Identifier: MIT */
/* netproxy.c -- the proxy module (NS_ROLE_PROXY): the filtering
 * HTTP/SOCKS5 proxy behind --net-allow, in a process of its own that it
 * walls before reading a byte (docs/SPEC-SANDBOX.md 7, "The proxy").
 * serve() is np_serve (np_serve.c); ready() asks the platform layer. */
#include "banned.h"
#include "common/nk_module.h"
#include "common/nk_say.h"
#include "np.h"

static int
proxy_ready(const struct ns_host *host)
{
	return np_sys_ready(host);
}

static int
proxy_serve(const struct ns_host *host, const struct ns_proxy_conf *conf)
{
	if (conf == NULL || conf->struct_size < sizeof(*conf))
		return nk_say(host, NS_E_INTERNAL, "no_proxy", "the proxy's "
			      "configuration is older than this module");
	return np_serve(host, conf);
}

static const struct ns_proxy_ops proxy_ops = {
	.struct_size = sizeof(struct ns_proxy_ops),
	.ready = proxy_ready,
	.serve = proxy_serve,
};

NK_DESCRIPTOR(NS_ROLE_PROXY, "netproxy",
	      "the filtering HTTP/SOCKS5 proxy behind --net-allow, walled "
	      "in its own process",
	      NK_NO_OPTIONS, .proxy = &proxy_ops);
