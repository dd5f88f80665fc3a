/* SPDX-License-Identifier: MIT */
/* test_netallow.c -- the --net-allow entry grammar (host/policy/
 * netallow.c, spec rule 7): a table of entries, good and nasty, with the
 * kind, port, name and address each must give or the refusal it must
 * get; and --net-allow-file's lines (comments, blanks, file:line, a
 * link, a directory). */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/netallow.h"
#include "common/cu_run.h"

struct want {
	const char *text;
	uint32_t kind; /* 0: refused */
	unsigned port;
	const char *name;  /* NAME/SUFFIX */
	unsigned fam, plen;
	const char *addr4; /* the first four bytes, v4 */
};

static const struct want table[] = {
	{ "example.com", NS_NET_NAME, 443, "example.com", 0, 0, NULL },
	{ "Example.COM.:8443", NS_NET_NAME, 8443, "example.com", 0, 0, NULL },
	{ "xn--bcher-kva.example", NS_NET_NAME, 443, "xn--bcher-kva.example",
	  0, 0, NULL },
	{ "*.pythonhosted.org", NS_NET_SUFFIX, 443, "pythonhosted.org", 0, 0,
	  NULL },
	{ "*.co.uk:80", NS_NET_SUFFIX, 80, "co.uk", 0, 0, NULL },
	{ "192.0.2.7", NS_NET_ADDR, 443, NULL, 4, 32, "\xc0\x00\x02\x07" },
	{ "192.0.2.0/24:8080", NS_NET_ADDR, 8080, NULL, 4, 24,
	  "\xc0\x00\x02\x00" },
	{ "127.0.0.0/8:5432", NS_NET_ADDR, 5432, NULL, 4, 8, "\x7f\0\0\0" },
	{ "127.0.0.2/32:80", NS_NET_ADDR, 80, NULL, 4, 32, "\x7f\0\0\x02" },
	{ "[2001:db8::1]:443", NS_NET_ADDR, 443, NULL, 6, 128, NULL },
	{ "2001:db8::1", NS_NET_ADDR, 443, NULL, 6, 128, NULL },
	{ "[2001:db8::/32]:443", NS_NET_ADDR, 443, NULL, 6, 32, NULL },
	{ "localhost:8080", NS_NET_LOOPBACK, 8080, NULL, 0, 0, NULL },
	{ "LOCALHOST.:1", NS_NET_LOOPBACK, 1, NULL, 0, 0, NULL },
	{ "127.0.0.1:11434", NS_NET_LOOPBACK, 11434, NULL, 4, 32, NULL },
	{ "[::1]:65535", NS_NET_LOOPBACK, 65535, NULL, 6, 128, NULL },
	/* refused */
	{ "", 0, 0, NULL, 0, 0, NULL },
	{ "*", 0, 0, NULL, 0, 0, NULL },
	{ "*.com", 0, 0, NULL, 0, 0, NULL },
	{ "*.", 0, 0, NULL, 0, 0, NULL },
	{ "a.*.com", 0, 0, NULL, 0, 0, NULL },
	{ "**.example.com", 0, 0, NULL, 0, 0, NULL },
	{ "2130706433", 0, 0, NULL, 0, 0, NULL },
	{ "2130706433:80", 0, 0, NULL, 0, 0, NULL },
	{ "0x7f.1", 0, 0, NULL, 0, 0, NULL },
	{ "0x7f000001", 0, 0, NULL, 0, 0, NULL },
	{ "127.1", 0, 0, NULL, 0, 0, NULL },
	{ "127.0.1:80", 0, 0, NULL, 0, 0, NULL },
	{ "010.0.0.1", 0, 0, NULL, 0, 0, NULL },
	{ "example.123", 0, 0, NULL, 0, 0, NULL },
	{ "[::ffff:127.0.0.1]:443", 0, 0, NULL, 0, 0, NULL },
	{ "[::ffff:192.0.2.1]", 0, 0, NULL, 0, 0, NULL },
	{ "127.0.0.2:80", 0, 0, NULL, 0, 0, NULL },
	{ "0.0.0.0:80", 0, 0, NULL, 0, 0, NULL },
	{ "[::]:80", 0, 0, NULL, 0, 0, NULL },
	{ "localhost", 0, 0, NULL, 0, 0, NULL },
	{ "127.0.0.1", 0, 0, NULL, 0, 0, NULL },
	{ "[::1]", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:0", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:65536", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:443x", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:+443", 0, 0, NULL, 0, 0, NULL },
	{ "example.com:0443", 0, 0, NULL, 0, 0, NULL },
	{ ":443", 0, 0, NULL, 0, 0, NULL },
	{ "example.com x", 0, 0, NULL, 0, 0, NULL },
	{ "exa_mple.com", 0, 0, NULL, 0, 0, NULL },
	{ "-example.com", 0, 0, NULL, 0, 0, NULL },
	{ "example-.com", 0, 0, NULL, 0, 0, NULL },
	{ "example..com", 0, 0, NULL, 0, 0, NULL },
	{ ".example.com", 0, 0, NULL, 0, 0, NULL },
	{ "exämple.com", 0, 0, NULL, 0, 0, NULL },
	{ "example.com\n:80", 0, 0, NULL, 0, 0, NULL },
	{ "http://example.com", 0, 0, NULL, 0, 0, NULL },
	{ "192.0.2.1/24", 0, 0, NULL, 0, 0, NULL },
	{ "192.0.2.0/0", 0, 0, NULL, 0, 0, NULL },
	{ "192.0.2.0/33", 0, 0, NULL, 0, 0, NULL },
	{ "192.0.2.0/024", 0, 0, NULL, 0, 0, NULL },
	{ "[2001:db8::1/32]", 0, 0, NULL, 0, 0, NULL },
	{ "[2001:db8::1]x", 0, 0, NULL, 0, 0, NULL },
	{ "[2001:db8::1", 0, 0, NULL, 0, 0, NULL },
	{ "[]:80", 0, 0, NULL, 0, 0, NULL },
	{ "[192.0.2.1]:80", 0, 0, NULL, 0, 0, NULL },
	{ "2001:db8::zz", 0, 0, NULL, 0, 0, NULL },
};

static void
check_one(const struct want *w)
{
	struct ns_net_entry e;
	const char *why = NULL;
	int rc = netallow_parse(w->text, &e, &why);

	if ((rc == 0) != (w->kind != 0))
		fprintf(stderr, "\n  '%s': rc %d (%s)\n", w->text, rc,
			why ? why : "-");
	if (w->kind == 0) {
		CU_ASSERT_EQUAL(rc, 1);
		CU_ASSERT_PTR_NOT_NULL(why);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(e.kind, w->kind);
	CU_ASSERT_EQUAL(e.port, w->port);
	CU_ASSERT_STRING_EQUAL(e.text, w->text);
	if (w->name != NULL)
		CU_ASSERT_STRING_EQUAL(e.name, w->name);
	else
		CU_ASSERT_PTR_NULL(e.name);
	if (w->fam != 0 && w->kind == NS_NET_ADDR) {
		CU_ASSERT_EQUAL(e.fam, w->fam);
		CU_ASSERT_EQUAL(e.plen, w->plen);
	}
	if (w->addr4 != NULL)
		CU_ASSERT_EQUAL(memcmp(e.addr, w->addr4, 4), 0);
	netallow_entry_free(&e);
}

static void
test_table(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		check_one(&table[i]);
}

/* Lengths: a 63-byte label is one, 64 is not; a name of 253 is one, 254
 * and a 300-byte name are not; more than 300 bytes is refused whole. */
static void
test_lengths(void)
{
	char buf[512];
	struct ns_net_entry e;
	const char *why;

	memset(buf, 'a', 63);
	memcpy(buf + 63, ".example", 9);
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 0);
	netallow_entry_free(&e);
	memset(buf, 'a', 64);
	memcpy(buf + 64, ".example", 9);
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 1);
	/* 3 labels of 63 and one of 61 = 253 bytes; 62: 254 */
	for (int i = 0; i < 3; i++) {
		memset(buf + i * 64, 'b', 63);
		buf[i * 64 + 63] = '.';
	}
	memset(buf + 192, 'a', 62);
	buf[253] = '\0';
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 0);
	netallow_entry_free(&e);
	buf[253] = 'a';
	buf[254] = '\0';
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 1);
	memset(buf, 'c', 300);
	buf[300] = '\0';
	buf[100] = buf[200] = '.';
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 1);
	memset(buf, 'c', 400);
	buf[400] = '\0';
	CU_ASSERT_EQUAL(netallow_parse(buf, &e, &why), 1);
}

static void
test_list(void)
{
	struct net_list l = {0};
	const char *why;

	CU_ASSERT_EQUAL(net_list_add(&l, "example.com", &why), 0);
	CU_ASSERT_EQUAL(net_list_add(&l, "localhost:8080", &why), 0);
	CU_ASSERT_EQUAL(net_list_add(&l, "*.com", &why), 1);
	CU_ASSERT_EQUAL(l.n, 2);
	CU_ASSERT_EQUAL(net_list_proxied(&l), 1);
	CU_ASSERT_STRING_EQUAL(netallow_kind(l.v[1].kind), "loopback");
	CU_ASSERT_STRING_EQUAL(netallow_kind(NS_NET_SUFFIX), "suffix");
	net_list_free(&l);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void
test_file(void)
{
	char dir[] = "/tmp/na-unit-XXXXXX", path[128], link[160];
	struct strv lines = {0}, where = {0};
	char *why = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/allow", dir);
	write_file(path, "# deps\n\n  pypi.org  \nfiles.pythonhosted.org:443\n"
		   "\t# indented comment\nlocalhost:8080");
	CU_ASSERT_EQUAL(netallow_file(path, &lines, &where, &why), 0);
	CU_ASSERT_EQUAL_FATAL(lines.n, 3);
	CU_ASSERT_STRING_EQUAL(lines.v[0], "pypi.org");
	CU_ASSERT_STRING_EQUAL(lines.v[2], "localhost:8080");
	snprintf(link, sizeof(link), "%s:3", path);
	CU_ASSERT_STRING_EQUAL(where.v[0], link);
	snprintf(link, sizeof(link), "%s:6", path);
	CU_ASSERT_STRING_EQUAL(where.v[2], link);
	strv_free(&lines);
	strv_free(&where);
	/* a link to it, and a directory: refused, nothing read */
	snprintf(link, sizeof(link), "%s/ln", dir);
	CU_ASSERT_EQUAL(symlink(path, link), 0);
	CU_ASSERT_EQUAL(netallow_file(link, &lines, &where, &why), 1);
	CU_ASSERT_PTR_NOT_NULL(why);
	free(why);
	CU_ASSERT_EQUAL(netallow_file(dir, &lines, &where, &why), 1);
	free(why);
	CU_ASSERT_EQUAL(lines.n, 0);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "the entry table, good and nasty", test_table },
		{ "label and name lengths", test_lengths },
		{ "the list: proxied count, kinds", test_list },
		{ "--net-allow-file: comments, file:line, no link", test_file },
		{ NULL, NULL }
	};

	return cu_run("netallow", NULL, NULL, cases);
}
