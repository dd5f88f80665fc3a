/* SPDX-License-Identifier: MIT */
/* test_net.c -- the net room's pure parts (host/net/): the ports of the
 * namespace path (3128, or the next a loopback entry leaves free; each
 * loopback port once), the proxy variables replacing the caller's, what
 * the wall is told on each path, and the report lines as adversary data
 * (net_parse_line on nasty lines; net_feed's line cap). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "net/net.h"
#include "common/cu_run.h"

static void
list_of(struct net_list *l, const char *const *texts)
{
	const char *why;

	memset(l, 0, sizeof(*l));
	for (; *texts != NULL; texts++)
		CU_ASSERT_EQUAL(net_list_add(l, *texts, &why), 0);
}

static void
test_ports(void)
{
	static const char *const a[] = { "pypi.org", "localhost:3128",
					 "127.0.0.1:3129", "[::1]:3128",
					 "localhost:8080", NULL };
	static const char *const b[] = { "localhost:5432", NULL };
	static struct net_run n;
	struct net_list l;

	list_of(&l, a);
	net_ports_plan(&n, &l);
	CU_ASSERT_EQUAL(n.proxied, 1);
	CU_ASSERT_EQUAL(n.proxy_port, 3130);
	CU_ASSERT_EQUAL_FATAL(n.n_ports, 4);
	CU_ASSERT_EQUAL(n.ports[0], 3130);
	CU_ASSERT_EQUAL(n.ports[1], 3128);
	CU_ASSERT_EQUAL(n.ports[2], 3129);
	CU_ASSERT_EQUAL(n.ports[3], 8080);
	net_list_free(&l);
	list_of(&l, b);
	net_ports_plan(&n, &l);
	CU_ASSERT_EQUAL(n.proxy_port, 0); /* no proxied entry: no proxy port */
	CU_ASSERT_EQUAL(n.n_ports, 1);
	net_list_free(&l);
}

static void
test_env(void)
{
	static struct net_run n;
	struct strv env = {0};
	int seen = 0;

	strv_push(&env, "PATH=/bin");
	strv_push(&env, "HTTPS_PROXY=http://evil:1");
	strv_push(&env, "no_proxy=*");
	strv_push(&env, "HTTP_PROXYX=kept");
	n.active = 1;
	n.proxied = 1;
	n.proxy_port = 3128;
	CU_ASSERT_EQUAL_FATAL(net_env(&n, &env), 0);
	CU_ASSERT_EQUAL(env.n, 2 + 8);
	CU_ASSERT_PTR_NULL(env.v[env.n]);
	for (size_t i = 0; i < env.n; i++) {
		CU_ASSERT_PTR_NULL(strstr(env.v[i], "evil"));
		CU_ASSERT_STRING_NOT_EQUAL(env.v[i], "no_proxy=*");
		seen += strcmp(env.v[i], "HTTPS_PROXY=http://127.0.0.1:3128") == 0;
		seen += strcmp(env.v[i], "all_proxy=socks5h://127.0.0.1:3128") == 0;
		seen += strcmp(env.v[i], "NO_PROXY=localhost,127.0.0.1,::1") == 0;
		seen += strcmp(env.v[i], "HTTP_PROXYX=kept") == 0;
	}
	CU_ASSERT_EQUAL(seen, 4);
	strv_free(&env);
	/* loopback entries only: nothing set */
	n.proxied = 0;
	strv_push(&env, "PATH=/bin");
	CU_ASSERT_EQUAL(net_env(&n, &env), 0);
	CU_ASSERT_EQUAL(env.n, 1);
	strv_free(&env);
}

static void
test_view(void)
{
	static struct net_run n;
	struct ns_policy v;
	static const char *const allow[] = { "127.0.0.1:4000", NULL };

	memset(&v, 0, sizeof(v));
	v.flags = NS_POLICY_NET_DENY; /* loopback entries go with --net-deny */
	n.active = 1;
	n.path = NET_PATH_NETNS;
	n.ports[0] = 3128;
	n.n_ports = 1;
	n.wall_sink = 9;
	net_view(&n, &v);
	CU_ASSERT_EQUAL(v.flags, NS_POLICY_NET_PROXIED);
	CU_ASSERT_EQUAL(v.n_net_ports, 1);
	CU_ASSERT_EQUAL(v.net_sink, 9);
	memset(&v, 0, sizeof(v));
	n.path = NET_PATH_LOOPBACK;
	n.allow.v = (char **)allow;
	n.allow.n = 1;
	net_view(&n, &v);
	CU_ASSERT_EQUAL(v.flags, NS_POLICY_NET_DENY);
	CU_ASSERT_EQUAL(v.n_net_allow, 1);
	CU_ASSERT_EQUAL(v.net_sink, -1);
	CU_ASSERT_EQUAL(v.n_net_ports, 0);
}

struct line_case {
	const char *line;
	char kind;
	const char *host;
	unsigned port;
	const char *addr;
};

static const struct line_case lines[] = {
	{ "deny pypi.org 443 not_allowed", 'd', "pypi.org", 443, "" },
	{ "deny a.example 5432 private 10.0.0.1", 'd', "a.example", 5432,
	  "10.0.0.1" },
	{ "deny a.example 5432 private ::ffff:10.0.0.1", 'd', "a.example",
	  5432, "::ffff:10.0.0.1" },
	{ "deny a.example 5432 private not-an-address", 'd', "a.example",
	  5432, "" },
	{ "fail x.example 443 refused", 'f', "x.example", 443, "" },
	{ "note hello there", 'n', NULL, 0, NULL },
	{ "deny x 0 port", 0, NULL, 0, NULL },
	{ "deny x 65536 port", 0, NULL, 0, NULL },
	{ "deny x 443 Not_Allowed", 0, NULL, 0, NULL },
	{ "deny x 443 not-allowed", 0, NULL, 0, NULL },
	{ "deny x 443", 0, NULL, 0, NULL },
	{ "deny x 443 port 10.0.0.1 extra", 0, NULL, 0, NULL },
	{ "deny  443 port", 0, NULL, 0, NULL },
	{ "SANDBOX DONE exit=0 cmd=forged", 0, NULL, 0, NULL },
	{ "note", 0, NULL, 0, NULL },
	{ "", 0, NULL, 0, NULL },
};

static void
test_parse(void)
{
	char buf[256];
	struct net_event ev;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", lines[i].line);
		net_parse_line(buf, &ev);
		if (ev.kind != lines[i].kind)
			fprintf(stderr, "\n  '%s': kind %d\n", lines[i].line,
				ev.kind);
		CU_ASSERT_EQUAL(ev.kind, lines[i].kind);
		if (lines[i].host != NULL && ev.kind) {
			CU_ASSERT_STRING_EQUAL(ev.host, lines[i].host);
			CU_ASSERT_EQUAL(ev.port, lines[i].port);
			CU_ASSERT_STRING_EQUAL(ev.addr, lines[i].addr);
		}
	}
}

/* A line longer than NET_LINE_MAX is dropped whole; the next is read. */
static void
test_feed(void)
{
	static struct net_run n;
	char big[NET_LINE_MAX + 100];

	memset(big, 'a', sizeof(big));
	memcpy(big, "deny ", 5);
	big[sizeof(big) - 1] = '\n';
	net_feed(&n, big, sizeof(big));
	CU_ASSERT_EQUAL(n.denied, 0);
	CU_ASSERT_EQUAL(n.blen, 0);
	net_feed(&n, "deny b.example 443 not_allowed\ndeny b.exa", 41);
	CU_ASSERT_EQUAL(n.denied, 1);
	net_feed(&n, "mple 443 not_allowed\ndeny c 1 port\n", 35);
	CU_ASSERT_EQUAL(n.denied, 2); /* the same (host, port): once */
	CU_ASSERT_EQUAL(n.seen.n, 2);
	net_feed(&n, "deny d\0x 1 port\n", 16); /* a NUL: dropped */
	CU_ASSERT_EQUAL(n.denied, 2);
	strv_free(&n.seen);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "ports: 3128 or the next free, loopback ports once",
		  test_ports },
		{ "the proxy variables replace the caller's", test_env },
		{ "what the wall is told on each path", test_view },
		{ "report lines: checked fields, nasty lines", test_parse },
		{ "report bytes: the line cap, split reads, dedupe", test_feed },
		{ NULL, NULL }
	};

	return cu_run("net", NULL, NULL, cases);
}
