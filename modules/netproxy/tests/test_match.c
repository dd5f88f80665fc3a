/* SPDX-License-Identifier: MIT */
/* test_match.c -- netproxy's decision (np_match.h): host normalisation
 * (strict literals, no numeric forms a resolver would take), the entry
 * matcher (names, suffixes strictly below, addresses and ranges, ports)
 * and the special-address table. */
#include <CUnit/Basic.h>
#include <arpa/inet.h>
#include <string.h>

#include "common/cu_run.h"
#include "np_match.h"

static int
norm(const char *in, char *name, struct np_addr *a)
{
	return np_host_norm(in, strlen(in), name, NP_NAME_MAX + 1, a);
}

static void
test_names(void)
{
	char n[NP_NAME_MAX + 1];
	struct np_addr a;

	CU_ASSERT_EQUAL(norm("PyPI.org.", n, &a), NP_HOST_NAME);
	CU_ASSERT_STRING_EQUAL(n, "pypi.org");
	CU_ASSERT_EQUAL(norm("a-b.example", n, &a), NP_HOST_NAME);
	CU_ASSERT_EQUAL(norm("localhost", n, &a), NP_HOST_NAME);
	CU_ASSERT_EQUAL(norm("x1.example1", n, &a), NP_HOST_NAME);
}

static void
test_bad_names(void)
{
	static const char *const bad[] = {
		"", ".", "a..b", ".a", "a.b..", "-a.b", "a-.b", "a_b.c",
		"a b", "a%2eb", "a/b", "a@b", "2130706433", "0x7f.1", "127.1",
		"0177.0.0.1", "1.2.3", "0x7f000001", "a.0x1f", "a.123",
		"[::1]", "::1%lo", "fe80::1%eth0",
	};
	char n[NP_NAME_MAX + 1];
	struct np_addr a;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (norm(bad[i], n, &a) != NP_HOST_BAD)
			CU_FAIL(bad[i]);
	CU_ASSERT_EQUAL(np_host_norm("a\0b", 3, n, sizeof(n), &a), NP_HOST_BAD);
}

static void
test_long_names(void)
{
	char in[300], n[NP_NAME_MAX + 1];
	struct np_addr a;

	memset(in, 'a', 64);
	memcpy(in + 64, ".com", 5);
	CU_ASSERT_EQUAL(norm(in, n, &a), NP_HOST_BAD); /* a 64-byte label */
	memset(in, 'a', sizeof(in));
	for (size_t i = 63; i < 254; i += 64)
		in[i] = '.';
	in[253] = '\0';
	CU_ASSERT_EQUAL(norm(in, n, &a), NP_HOST_NAME);
	in[253] = 'a';
	in[254] = '\0';
	CU_ASSERT_EQUAL(norm(in, n, &a), NP_HOST_BAD); /* 254 bytes */
}

static void
test_literals(void)
{
	char n[NP_NAME_MAX + 1];
	struct np_addr a;

	CU_ASSERT_EQUAL(norm("192.0.2.7", n, &a), NP_HOST_ADDR);
	CU_ASSERT_EQUAL(a.fam, 4);
	CU_ASSERT_EQUAL(a.a[3], 7);
	CU_ASSERT_EQUAL(norm("2001:db8::1", n, &a), NP_HOST_ADDR);
	CU_ASSERT_EQUAL(a.fam, 6);
	CU_ASSERT_EQUAL(norm("::ffff:127.0.0.1", n, &a), NP_HOST_ADDR);
	CU_ASSERT_EQUAL(a.fam, 6);
}

static struct np_addr
addr(const char *s)
{
	struct np_addr a = { 0 };

	if (inet_pton(AF_INET, s, a.a) == 1)
		a.fam = 4;
	else if (inet_pton(AF_INET6, s, a.a) == 1)
		a.fam = 6;
	return a;
}

static void
test_special(void)
{
	static const char *const special[] = {
		"127.0.0.1", "127.255.0.1", "10.1.2.3", "172.16.0.1",
		"172.31.255.255", "192.168.1.1", "169.254.169.254",
		"100.64.0.1", "100.127.255.255", "0.0.0.0", "224.0.0.1",
		"255.255.255.255", "240.0.0.1", "::", "::1", "fe80::1",
		"fec0::1", "fc00::1", "fd12::1", "ff02::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1",
		"64:ff9b::7f00:1", "64:ff9b:1::1", "2002:7f00:1::1",
		"2002:c0a8:101::1",
	};
	static const char *const plain[] = {
		"192.0.2.1", "8.8.8.8", "172.32.0.1", "172.15.255.255",
		"100.128.0.1", "100.63.255.255", "2001:db8::1",
		"2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
		"2002:808:808::1", "198.51.100.1",
	};
	struct np_addr a;

	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		a = addr(special[i]);
		if (!np_addr_special(&a))
			CU_FAIL(special[i]);
	}
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		a = addr(plain[i]);
		if (np_addr_special(&a))
			CU_FAIL(plain[i]);
	}
}

static struct ns_net_entry
e_name(uint32_t kind, const char *name, uint16_t port)
{
	struct ns_net_entry e = { .kind = kind, .port = port, .name = name };

	return e;
}

static struct ns_net_entry
e_addr(const char *s, uint8_t plen, uint16_t port)
{
	struct np_addr a = addr(s);
	struct ns_net_entry e = { .kind = NS_NET_ADDR, .port = port,
				  .fam = a.fam, .plen = plen };

	memcpy(e.addr, a.a, 16);
	return e;
}

static void
test_decide_names(void)
{
	struct ns_net_entry al[] = {
		e_name(NS_NET_NAME, "pypi.org", 443),
		e_name(NS_NET_SUFFIX, "example.com", 443),
		e_name(NS_NET_NAME, "git.example.org", 22),
		e_name(NS_NET_LOOPBACK, NULL, 8080),
	};
	size_t n = sizeof(al) / sizeof(al[0]);

	CU_ASSERT_EQUAL(np_decide_name(al, n, "pypi.org", 443), NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "pypi.org", 80), NP_PORT);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "www.pypi.org", 443),
			NP_NOT_ALLOWED);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "a.example.com", 443), NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "a.b.example.com", 443),
			NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "example.com", 443),
			NP_NOT_ALLOWED); /* strictly below */
	CU_ASSERT_EQUAL(np_decide_name(al, n, "badexample.com", 443),
			NP_NOT_ALLOWED);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "a.example.com", 8443), NP_PORT);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "git.example.org", 22), NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_name(al, n, "localhost", 8080),
			NP_NOT_ALLOWED);
}

static void
test_decide_addrs(void)
{
	struct ns_net_entry al[] = {
		e_addr("192.0.2.0", 24, 443), e_addr("2001:db8::", 32, 443),
		e_addr("127.0.0.1", 32, 8080), e_addr("10.1.0.0", 16, 443),
		e_addr("::ffff:172.16.0.0", 108, 443),
	};
	size_t n = sizeof(al) / sizeof(al[0]);
	struct np_addr a;

	a = addr("192.0.2.200");
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 80), NP_PORT);
	a = addr("192.0.3.1");
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_NOT_ALLOWED);
	a = addr("2001:db8:ffff::1");
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_ALLOW);
	a = addr("::ffff:192.0.2.9"); /* mapped: judged as its IPv4 */
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_ALLOW);
	a = addr("::ffff:127.0.0.1");
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 8080), NP_ALLOW);
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_PORT);
	a = addr("172.16.3.4"); /* a mapped entry covers the IPv4 */
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 443), NP_ALLOW);
	a = addr("127.0.0.2");
	CU_ASSERT_EQUAL(np_decide_addr(al, n, &a, 8080), NP_NOT_ALLOWED);
}

static void
test_vet(void)
{
	struct ns_net_entry al[] = { e_addr("10.1.0.0", 16, 443),
				     e_addr("127.0.0.1", 32, 8080) };
	struct np_addr a;

	a = addr("8.8.8.8");
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 443), NP_ALLOW);
	a = addr("127.0.0.1");
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 443), NP_PRIVATE);
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 8080), NP_ALLOW);
	CU_ASSERT_EQUAL(np_vet_resolved(NULL, 0, &a, 8080), NP_PRIVATE);
	a = addr("10.1.2.3");
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 443), NP_ALLOW);
	a = addr("10.2.0.1");
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 443), NP_PRIVATE);
	a = addr("::ffff:10.1.0.9");
	CU_ASSERT_EQUAL(np_vet_resolved(al, 2, &a, 443), NP_ALLOW);
}

static void
test_same_name(void)
{
	CU_ASSERT(np_same_name("Example.COM.", "example.com"));
	CU_ASSERT(np_same_name("example.com", "example.com."));
	CU_ASSERT(!np_same_name("example.com", "example.co"));
	CU_ASSERT(!np_same_name("other.example", "example.com"));
	CU_ASSERT_STRING_EQUAL(np_why_token(NP_PRIVATE), "private");
	CU_ASSERT_STRING_EQUAL(np_why_token(99), "bad_request");
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "names normalised", test_names },
		{ "bad and numeric names refused", test_bad_names },
		{ "label and name lengths", test_long_names },
		{ "literals by inet_pton", test_literals },
		{ "special addresses", test_special },
		{ "names against entries", test_decide_names },
		{ "literals against entries", test_decide_addrs },
		{ "resolved addresses vetted", test_vet },
		{ "SNI comparison", test_same_name },
		{ NULL, NULL },
	};

	return cu_run("netproxy match", NULL, NULL, cases);
}
