/* SPDX-License-Identifier: MIT */
/* test_ll_audit.c -- the Landlock audit records' parser (ll_audit.c):
 * the serial, each record type the source uses, quoted and hex-encoded
 * paths, the blocker -> operation and DAC-mode table, network and scope
 * objects, the audit group's header-less nlmsg_len, and malformed text
 * refused (a hostile command cannot make the parser read past a record:
 * every field is bounded by the datagram). */
#include <CUnit/CUnit.h>
#include <string.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "ll_audit.h"

static int
parse(int type, const char *text, struct ll_arec *r)
{
	return ll_audit_parse(type, text, strlen(text), r);
}

static void
test_access_quoted(void)
{
	struct ll_arec r;

	CU_ASSERT_EQUAL(parse(1423, "audit(1796161449.370:59): domain=1ba847553 "
			      "blockers=fs.read_dir path=\"/home\" dev=\"vda\" "
			      "ino=1314", &r), 0);
	CU_ASSERT_EQUAL(r.serial, 59);
	CU_ASSERT_EQUAL(r.domain, 0x1ba847553ULL);
	CU_ASSERT_EQUAL(r.op, NS_OP_READ);
	CU_ASSERT_EQUAL(r.mode, R_OK);
	CU_ASSERT_STRING_EQUAL(r.blocker, "fs.read_dir");
	CU_ASSERT_STRING_EQUAL(r.path, "/home");
}

static void
test_access_hex_and_ops(void)
{
	static const struct {
		const char *blockers;
		uint32_t op;
		int mode;
	} t[] = {
		{ "fs.execute", NS_OP_EXEC, X_OK },
		{ "fs.read_file", NS_OP_READ, R_OK },
		{ "fs.write_file,fs.truncate", NS_OP_WRITE, W_OK },
		{ "fs.make_reg", NS_OP_WRITE, W_OK | X_OK },
		{ "fs.remove_dir", NS_OP_WRITE, W_OK | X_OK },
		{ "fs.refer", NS_OP_WRITE, W_OK | X_OK },
		{ "fs.ioctl_dev", NS_OP_OTHER, -1 },
	};
	char text[256];
	struct ll_arec r;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		/* "/a b" hex-encoded, as audit writes a path with a space */
		snprintf(text, sizeof(text), "audit(1.2:7): domain=a blockers=%s "
			 "path=2F612062 dev=\"vda\" ino=3", t[i].blockers);
		CU_ASSERT_EQUAL_FATAL(parse(1423, text, &r), 0);
		CU_ASSERT_EQUAL(r.op, t[i].op);
		CU_ASSERT_EQUAL(r.mode, t[i].op == NS_OP_OTHER ? -1 : t[i].mode);
		CU_ASSERT_STRING_EQUAL(r.path, "/a b");
	}
	CU_ASSERT_STRING_EQUAL(r.blocker, "fs.ioctl_dev");
}

static void
test_net_and_scope(void)
{
	struct ll_arec r;

	CU_ASSERT_EQUAL(parse(1423, "audit(1.2:8): domain=b blockers=net.connect_tcp "
			      "daddr=192.0.2.1 dest=443", &r), 0);
	CU_ASSERT_EQUAL(r.op, NS_OP_CONNECT);
	CU_ASSERT_STRING_EQUAL(r.path, "192.0.2.1:443");
	CU_ASSERT_EQUAL(r.mode, -1);
	CU_ASSERT_EQUAL(parse(1423, "audit(1.2:9): domain=b blockers=net.bind_tcp "
			      "src=8080", &r), 0);
	CU_ASSERT_EQUAL(r.op, NS_OP_BIND);
	CU_ASSERT_STRING_EQUAL(r.path, "tcp port 8080");
	CU_ASSERT_EQUAL(parse(1423, "audit(1.2:10): domain=b blockers=scope.signal "
			      "opid=1 ocomm=\"init\"", &r), 0);
	CU_ASSERT_EQUAL(r.op, NS_OP_OTHER);
	CU_ASSERT_STRING_EQUAL(r.path, "scope.signal");
}

static void
test_domain_and_syscall(void)
{
	struct ll_arec r;

	CU_ASSERT_EQUAL(parse(1424, "audit(1.2:59): domain=1ba847553 status=allocated "
			      "mode=enforcing pid=21998 uid=995 exe=\"/x\" "
			      "comm=\"nova-sandbox\"", &r), 0);
	CU_ASSERT_EQUAL(r.allocated, 1);
	CU_ASSERT_EQUAL(r.pid, 21998);
	CU_ASSERT_EQUAL(parse(1424, "audit(1.2:64): domain=1ba847553 "
			      "status=deallocated denials=3", &r), 0);
	CU_ASSERT_EQUAL(r.allocated, 0);
	CU_ASSERT_EQUAL(r.pid, 0);
	/* ppid= must not be read as pid= */
	CU_ASSERT_EQUAL(parse(1300, "audit(1.2:60): arch=c000003e syscall=257 "
			      "success=no exit=-13 ppid=21998 pid=21999 uid=995", &r), 0);
	CU_ASSERT_EQUAL(r.pid, 21999);
	CU_ASSERT_EQUAL(r.serial, 60);
}

static void
test_malformed(void)
{
	static const char *const bad[] = {
		"",
		"audit(",
		"audit(1.2:x): domain=1 blockers=fs.read_dir path=\"/a\"",
		"audit(1.2:3) domain=1 blockers=fs.read_dir path=\"/a\"",
		"audit(1.2:3): blockers=fs.read_dir path=\"/a\"",       /* no domain */
		"audit(1.2:3): domain=zz blockers=fs.read_dir",          /* not hex */
		"audit(1.2:3): domain=1 path=\"/a\"",                    /* no blocker */
	};
	struct ll_arec r;
	char out[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(parse(1423, bad[i], &r), -1);
	CU_ASSERT_EQUAL(parse(1325, "audit(1.2:3): domain=1", &r), -1);
	CU_ASSERT_EQUAL(parse(1300, "audit(1.2:3): arch=c000003e", &r), -1);
	/* an unterminated quote, an odd or NUL-bearing hex path, too long */
	CU_ASSERT_EQUAL(ll_audit_field("path=\"/a", 8, "path", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(ll_audit_field("path=2F6", 8, "path", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(ll_audit_field("path=2F00", 9, "path", out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(ll_audit_field("path=\"/abcdefgh\"", 16, "path", out,
				       sizeof(out)), -1);
	/* bounded by n: the field past n is not read */
	CU_ASSERT_EQUAL(ll_audit_field("a=1 pid=7", 4, "pid", out, sizeof(out)), -1);
	/* a record that names no absolute path has no DAC question */
	CU_ASSERT_EQUAL(parse(1423, "audit(1.2:3): domain=1 blockers=fs.read_file "
			      "path=\"relative\"", &r), 0);
	CU_ASSERT_EQUAL(r.mode, -1);
}

static void
test_text_len(void)
{
	/* the audit group counts the text only; a full count is taken too;
	 * never past what came */
	CU_ASSERT_EQUAL(ll_audit_text_len(100, 116), 100);
	CU_ASSERT_EQUAL(ll_audit_text_len(116, 116), 100);
	CU_ASSERT_EQUAL(ll_audit_text_len(5000, 116), 100);
	CU_ASSERT_EQUAL(ll_audit_text_len(0, 16), 0);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "an access record with a quoted path", test_access_quoted },
		{ "hex paths, the blocker table", test_access_hex_and_ops },
		{ "network and scope objects", test_net_and_scope },
		{ "domain and syscall records", test_domain_and_syscall },
		{ "malformed records refused, fields bounded", test_malformed },
		{ "the datagram's text length", test_text_len },
		{ NULL, NULL }
	};

	return cu_run("landlock audit records", NULL, NULL, cases);
}
