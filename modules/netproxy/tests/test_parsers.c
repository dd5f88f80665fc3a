/* SPDX-License-Identifier: MIT */
/* test_parsers.c -- netproxy's parsers of the client's bytes: the HTTP
 * request head (np_http.h) and its rewrite, the SOCKS5 handshake
 * (np_socks.h), the ClientHello's server name (np_tls.h, whole and
 * fragmented), and the report line's fields (np_report.h). */
#include <CUnit/Basic.h>
#include <string.h>

#include "common/cu_run.h"
#include "np_http.h"
#include "np_report.h"
#include "np_socks.h"
#include "np_tls.h"

static int
http(const char *s, struct np_http_req *r)
{
	return np_http_parse(s, strlen(s), r);
}

static void
test_http_connect(void)
{
	const char *s = "CONNECT pypi.org:443 HTTP/1.1\r\nHost: pypi.org:443\r\n"
			"User-Agent: x\r\n\r\nEARLY";
	struct np_http_req r;

	CU_ASSERT_EQUAL_FATAL(http(s, &r), NP_P_DONE);
	CU_ASSERT(r.connect);
	CU_ASSERT_EQUAL(r.port, 443);
	CU_ASSERT(r.host_len == 8 && memcmp(s + r.host, "pypi.org", 8) == 0);
	CU_ASSERT_STRING_EQUAL(s + r.head_len, "EARLY");
	s = "CONNECT [2001:db8::1]:8443 HTTP/1.1\r\n\r\n";
	CU_ASSERT_EQUAL_FATAL(http(s, &r), NP_P_DONE);
	CU_ASSERT(r.host_len == 11 && memcmp(s + r.host, "2001:db8::1", 11) == 0);
	CU_ASSERT_EQUAL(r.port, 8443);
	CU_ASSERT_EQUAL(http("CONNECT pypi.org:443 HTTP/1.1\r\nHost: x\r\n", &r),
			NP_P_MORE);
}

static void
test_http_bad(void)
{
	static const char *const bad[] = {
		"CONNECT pypi.org HTTP/1.1\r\n\r\n",        /* no port */
		"CONNECT pypi.org:0 HTTP/1.1\r\n\r\n",
		"CONNECT pypi.org:65536 HTTP/1.1\r\n\r\n",
		"CONNECT pypi.org:44a HTTP/1.1\r\n\r\n",
		"CONNECT u@pypi.org:443 HTTP/1.1\r\n\r\n",
		"CONNECT 2001:db8::1:443 HTTP/1.1\r\n\r\n", /* no brackets */
		"CONNECT []:443 HTTP/1.1\r\n\r\n",
		"CONNECT pypi.org:443 HTTP/2.0\r\n\r\n",
		"CONNECT  pypi.org:443 HTTP/1.1\r\n\r\n",
		"GET /path HTTP/1.1\r\nHost: a\r\n\r\n",    /* not a proxy request */
		"GET https://a.example/ HTTP/1.1\r\n\r\n",
		"GET http://user@a.example/ HTTP/1.1\r\n\r\n",
		"GET http:///x HTTP/1.1\r\n\r\n",
		"G\x01T http://a/ HTTP/1.1\r\n\r\n",
		"GET http://a/ HTTP/1.1\r\n folded\r\n\r\n",
		"GET http://a/ HTTP/1.1\r\nNo colon\r\n\r\n",
		"GET http://a/ HTTP/1.1\r\nName : v\r\n\r\n",
		"GET http://a/ HTTP/1.1\r\nX: a\nb\r\n\r\n",
		"GET http://a/ HTTP/1.1\r\nX: a\x7f\r\n\r\n",
		"GET http://a/ HTTP/1.1\n\r\n\r\n",
	};
	struct np_http_req r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (http(bad[i], &r) != NP_P_BAD)
			CU_FAIL(bad[i]);
}

/* What cannot begin or go on with a head is refused before its end: a
 * first word no method, a line end without its CR. */
static void
test_http_early(void)
{
	static const char *const bad[] = {
		"GET http://a/ HTTP/1.1\n",       /* LF only, no blank line */
		"GET http://a/ HTTP/1.1\r\nX: y\n",
		"\x16\x03\x01\x00\x02",          /* a TLS record */
		"\x04\x01\x00\x50",              /* SOCKS4 */
		" GET",
		"GET\t",
	};
	static const char *const more[] = {
		"G", "GET", "GET ", "GET http://a/ HTTP/1.1\r",
		"GET http://a/ HTTP/1.1\r\nX: y\r\n",
	};
	struct np_http_req r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (http(bad[i], &r) != NP_P_BAD)
			CU_FAIL(bad[i]);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (http(more[i], &r) != NP_P_MORE)
			CU_FAIL(more[i]);
}

static void
test_http_cap(void)
{
	static char big[NP_HTTP_HEAD_MAX + 10];
	struct np_http_req r;

	memset(big, 'a', sizeof(big));
	memcpy(big, "GET http://a/ HTTP/1.1\r\nX: ", 28);
	CU_ASSERT_EQUAL(np_http_parse(big, NP_HTTP_HEAD_MAX - 1, &r), NP_P_MORE);
	CU_ASSERT_EQUAL(np_http_parse(big, NP_HTTP_HEAD_MAX, &r), NP_P_BAD);
}

static void
test_http_rewrite(void)
{
	const char *s = "GET http://A.example:8080?q=1 HTTP/1.1\r\n"
			"Host: evil.example\r\nProxy-Authorization: x\r\n"
			"proxy-connection: keep-alive\r\nConnection: keep-alive\r\n"
			"Accept: */*\r\nKeep-Alive: 5\r\nX-Proxy: kept\r\n\r\nBODY";
	const char *want = "GET /?q=1 HTTP/1.1\r\nHost: A.example:8080\r\n"
			   "Accept: */*\r\nX-Proxy: kept\r\n"
			   "Connection: close\r\n\r\n";
	struct np_http_req r;
	char out[512];
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(http(s, &r), NP_P_DONE);
	CU_ASSERT(!r.connect);
	CU_ASSERT_EQUAL(r.port, 8080);
	CU_ASSERT_EQUAL_FATAL(np_http_rewrite(s, &r, out, sizeof(out), &n), 0);
	CU_ASSERT(n == strlen(want) && memcmp(out, want, n) == 0);
	CU_ASSERT_EQUAL(np_http_rewrite(s, &r, out, 20, &n), -1);
	s = "POST http://a.example/up/x HTTP/1.0\r\n\r\n";
	CU_ASSERT_EQUAL_FATAL(http(s, &r), NP_P_DONE);
	CU_ASSERT_EQUAL(r.port, 80);
	CU_ASSERT_EQUAL_FATAL(np_http_rewrite(s, &r, out, sizeof(out), &n), 0);
	CU_ASSERT(memcmp(out, "POST /up/x HTTP/1.0\r\nHost: a.example\r\n", 38) == 0);
}

static void
test_socks(void)
{
	const uint8_t g1[] = { 5, 2, 2, 0 }, g2[] = { 5, 1, 2 };
	const uint8_t rq[] = { 5, 1, 0, 3, 8, 'p', 'y', 'p', 'i', '.', 'o',
			       'r', 'g', 1, 187 };
	const uint8_t r4[] = { 5, 1, 0, 1, 127, 0, 0, 1, 0, 80 };
	const uint8_t r6[] = { 5, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			       0, 0, 0, 1, 0x1f, 0x90 };
	const uint8_t bind[] = { 5, 2, 0, 1, 1, 2, 3, 4, 0, 80 };
	const uint8_t at[] = { 5, 1, 0, 9, 1, 2, 3, 4, 0, 80 };
	const uint8_t nul[] = { 5, 1, 0, 3, 3, 'a', 0, 'b', 0, 80 };
	struct np_socks_req q;
	size_t used = 0;

	CU_ASSERT_EQUAL(np_socks_greeting(g1, 4, &used), NP_P_DONE);
	CU_ASSERT_EQUAL(used, 4);
	CU_ASSERT_EQUAL(np_socks_greeting(g1, 3, &used), NP_P_MORE);
	CU_ASSERT_EQUAL(np_socks_greeting(g2, 3, &used), NP_P_SOCKS_NOAUTH);
	CU_ASSERT_EQUAL(np_socks_greeting((const uint8_t *)"\x04\x01", 2, &used),
			NP_P_BAD);
	CU_ASSERT_EQUAL_FATAL(np_socks_request(rq, sizeof(rq), &q, &used),
			      NP_P_DONE);
	CU_ASSERT_STRING_EQUAL(q.host, "pypi.org");
	CU_ASSERT_EQUAL(q.port, 443);
	CU_ASSERT_EQUAL(used, sizeof(rq));
	CU_ASSERT_EQUAL(np_socks_request(rq, sizeof(rq) - 1, &q, &used),
			NP_P_MORE);
	CU_ASSERT_EQUAL(np_socks_request(r4, sizeof(r4), &q, &used), NP_P_DONE);
	CU_ASSERT_STRING_EQUAL(q.host, "127.0.0.1");
	CU_ASSERT_EQUAL(np_socks_request(r6, sizeof(r6), &q, &used), NP_P_DONE);
	CU_ASSERT_STRING_EQUAL(q.host, "::1");
	CU_ASSERT_EQUAL(q.port, 8080);
	CU_ASSERT_EQUAL(np_socks_request(bind, sizeof(bind), &q, &used),
			NP_P_SOCKS_CMD);
	CU_ASSERT_EQUAL(np_socks_request(at, sizeof(at), &q, &used),
			NP_P_SOCKS_ATYP);
	CU_ASSERT_EQUAL(np_socks_request(nul, sizeof(nul), &q, &used), NP_P_BAD);
}

/* A ClientHello naming sni (NULL: no server_name), in records of at most
 * frag bytes; its length. */
static size_t
hello(uint8_t *out, const char *sni, size_t frag)
{
	uint8_t hs[512], *p = hs + 4;
	size_t n, sl = sni ? strlen(sni) : 0, at = 0, o = 0;

	*p++ = 3, *p++ = 3;
	memset(p, 7, 32), p += 32;
	*p++ = 0;                            /* session id */
	*p++ = 0, *p++ = 2, *p++ = 0x13, *p++ = 1; /* one suite */
	*p++ = 1, *p++ = 0;                  /* null compression */
	n = sni ? 9 + sl : 0;
	*p++ = (uint8_t)((n + 4) >> 8), *p++ = (uint8_t)(n + 4);
	*p++ = 0, *p++ = 0x2b, *p++ = 0, *p++ = 0; /* an empty extension */
	if (sni) {
		*p++ = 0, *p++ = 0, *p++ = 0, *p++ = (uint8_t)(sl + 5);
		*p++ = 0, *p++ = (uint8_t)(sl + 3), *p++ = 0;
		*p++ = 0, *p++ = (uint8_t)sl;
		memcpy(p, sni, sl), p += sl;
	}
	n = (size_t)(p - hs);
	hs[0] = 1, hs[1] = 0, hs[2] = (uint8_t)((n - 4) >> 8);
	hs[3] = (uint8_t)(n - 4);
	while (at < n) {
		size_t k = n - at < frag ? n - at : frag;

		out[o++] = 0x16, out[o++] = 3, out[o++] = 1;
		out[o++] = (uint8_t)(k >> 8), out[o++] = (uint8_t)k;
		memcpy(out + o, hs + at, k);
		o += k, at += k;
	}
	return o;
}

static void
test_tls(void)
{
	uint8_t b[1024];
	char sni[256];
	size_t n = hello(b, "pypi.org", 512);

	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_SNI);
	CU_ASSERT_STRING_EQUAL(sni, "pypi.org");
	for (size_t k = 0; k < n; k++)
		if (np_tls_sni(b, k, sni, sizeof(sni)) != NP_TLS_MORE)
			CU_FAIL("a prefix is not MORE");
	n = hello(b, "files.pythonhosted.org", 7); /* fragmented */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_SNI);
	CU_ASSERT_STRING_EQUAL(sni, "files.pythonhosted.org");
	n = hello(b, NULL, 512);
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_NOSNI);
	CU_ASSERT_EQUAL(np_tls_sni((const uint8_t *)"GET /", 5, sni, 256),
			NP_TLS_NOT);
	n = hello(b, "pypi.org", 512);
	b[0] = 0x17; /* application data first: TLS, but no ClientHello */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_BAD);
	/* an Alert or a ChangeCipherSpec before a ClientHello is not let
	 * through unchecked */
	CU_ASSERT_EQUAL(np_tls_sni((const uint8_t *)"\x15\x03\x01\x00\x02\x01\x00",
				   7, sni, 256),
			NP_TLS_BAD);
	CU_ASSERT_EQUAL(np_tls_sni((const uint8_t *)"\x14\x03\x03\x00\x01\x01",
				   6, sni, 256),
			NP_TLS_BAD);
	CU_ASSERT_EQUAL(np_tls_sni((const uint8_t *)"\x15", 1, sni, 256),
			NP_TLS_BAD);
	b[0] = 0x16, b[5] = 2; /* a ServerHello */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_BAD);
	n = hello(b, "pypi.org", 512);
	memcpy(b + n, "\x14\x03\x03\x00\x01\x01", 6); /* a CCS after it */
	CU_ASSERT_EQUAL(np_tls_sni(b, n + 6, sni, sizeof(sni)), NP_TLS_SNI);
	n = hello(b, "pypi.org", 20);
	b[20 + 5] = 0x17; /* another record type inside the hello */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_BAD);
}

static void
test_tls_bad_lengths(void)
{
	uint8_t b[1024];
	char sni[256];
	size_t n = hello(b, "pypi.org", 512);

	b[n - 9 - 3] = 0xff; /* the server_name list length */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_BAD);
	n = hello(b, "pypi.org", 512);
	b[6] = 0xff, b[7] = 0xff, b[8] = 0xff; /* the hello: over the cap */
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, sizeof(sni)), NP_TLS_BAD);
	n = hello(b, "pypi.org", 512);
	CU_ASSERT_EQUAL(np_tls_sni(b, n, sni, 5), NP_TLS_BAD); /* no room */
}

static void
test_report_fields(void)
{
	char line[256];
	size_t n;

	n = np_report_format(line, sizeof(line), "deny", "Evil Host\n", 443,
			     "not_allowed", NULL);
	CU_ASSERT_STRING_EQUAL(line, "deny evil?host? 443 not_allowed\n");
	CU_ASSERT_EQUAL(n, strlen(line));
	np_report_format(line, sizeof(line), "deny", "", 0, "bad_request", NULL);
	CU_ASSERT_STRING_EQUAL(line, "deny - 0 bad_request\n");
	np_report_format(line, sizeof(line), "deny", "a.example", 443,
			 "private", "fe80::1");
	CU_ASSERT_STRING_EQUAL(line, "deny a.example 443 private fe80::1\n");
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "HTTP CONNECT", test_http_connect },
		{ "HTTP malformed heads refused", test_http_bad },
		{ "HTTP head cap", test_http_cap },
		{ "HTTP refused before the head's end", test_http_early },
		{ "HTTP absolute-URI rewritten", test_http_rewrite },
		{ "SOCKS5 greeting and request", test_socks },
		{ "TLS server name, whole and fragmented", test_tls },
		{ "TLS lengths that lie", test_tls_bad_lengths },
		{ "report fields", test_report_fields },
		{ NULL, NULL },
	};

	return cu_run("netproxy parsers", NULL, NULL, cases);
}
