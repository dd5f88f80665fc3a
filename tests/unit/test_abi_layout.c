/* SPDX-License-Identifier: MIT */
/* test_abi_layout.c -- the module ABI (api/ns_backend.h) pinned: every
 * offset and size of ABI 1.0 to 1.4 on LP64 (x86_64, aarch64; the pins
 * are in abi_pins.h, cross-checked by tests/abi/run.sh) at compile time,
 * and the constants and size macros at run time.  A change here is an ABI
 * change: members are only ever appended (docs/ABI.md §11, the changelog). */
#include <CUnit/Basic.h>

#include "common/cu_run.h"
#include <stddef.h>

#include "../../api/ns_backend.h"

#include "abi_pins.h"

/* The values that cross the ABI. */
_Static_assert(NS_BACKEND_MAGIC == 0x4e534250u, "magic");
_Static_assert(NS_BACKEND_ABI_MAJOR == 1, "major");
_Static_assert(NS_OK == 0 && NS_E_UNAVAILABLE == 1 && NS_E_REFUSED == 2 &&
		   NS_E_SYSTEM == 3 && NS_E_INTERNAL == 4, "ns_status values");
_Static_assert(NS_ROLE_WALL == 1 && NS_ROLE_EGRESS == 2 && NS_ROLE_PLACE == 4,
	       "role bits");
_Static_assert(NS_ACCESS_READ_EXEC == 1 && NS_ACCESS_READ == 2 &&
		   NS_ACCESS_WRITE == 3 && NS_ACCESS_WRITE_FILE == 4,
	       "ns_access values");
_Static_assert(NS_ORIGIN_ROOT == 1 && NS_ORIGIN_OPTIONAL == 2 &&
		   NS_ORIGIN_READ == 3 && NS_ORIGIN_READ_NOEXEC == 4 &&
		   NS_ORIGIN_WRITE == 5 && NS_ORIGIN_TMP == 6 &&
		   NS_ORIGIN_CWD == 7 && NS_ORIGIN_WRITE_FILE == 8,
	       "ns_origin values");
_Static_assert(NS_POLICY_NET_DENY == 1 && NS_POLICY_NET_LISTEN == 2 &&
		   NS_POLICY_EXPLAIN == 4, "policy flags");
_Static_assert(NS_OP_READ == 1 && NS_OP_WRITE == 2 && NS_OP_EXEC == 3 &&
		   NS_OP_CREATE == 4 && NS_OP_DELETE == 5 && NS_OP_RENAME == 6 &&
		   NS_OP_CONNECT == 7 && NS_OP_BIND == 8 && NS_OP_OTHER == 9,
	       "ns_op values");
_Static_assert(NS_END_RUNNING == 0 && NS_END_CODE == 1 &&
		   NS_END_SIGNAL == 2 && NS_END_STATUS == 3, "ns_end values");
_Static_assert(NS_TERM_SIGNAL == 1 && NS_TERM_TIMEOUT == 2 &&
		   NS_TERM_CAP == 3 && NS_TERM_DONE == 4, "NS_TERM_* values");
_Static_assert(NS_WALL_EXPLAIN == 1 && NS_WALL_CAPS_NATIVE == 2 &&
		   NS_WALL_CAPS_CPU == 4 && NS_WALL_ACL_CALLER == 8 &&
		   NS_WALL_PROTECT == 0x10,
	       "wall feature bits");
_Static_assert(NS_PLACE_PARENT == 1, "place feature bits");
_Static_assert(NS_ACL_TOOL == 0 && NS_ACL_CALLER == 1, "--acl values");
_Static_assert(NS_SHAPE_RESTRICT_SELF == 1 && NS_SHAPE_HELPER == 2 &&
		   NS_SHAPE_CONTAINER == 3, "wall shapes");

static void
test_size_macros(void)
{
	/* the smallest struct_size the host accepts: the 1.0 structs */
	if (PINNED) {
		CU_ASSERT_EQUAL(NS_BACKEND_OPS_SIZE_1_0, 72);
		CU_ASSERT_EQUAL(NS_WALL_OPS_SIZE_1_0, 88);
		CU_ASSERT_EQUAL(NS_EGRESS_OPS_SIZE_1_0, 40);
		CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_0, 48);
		CU_ASSERT_EQUAL(NS_PLACE_SIZE_1_0, 1168);
		CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_1, 72);
		CU_ASSERT_EQUAL(NS_PLACE_SIZE_1_1, 1428);
		CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_0, 104);
		CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_1, 120);
		CU_ASSERT_EQUAL(NS_BACKEND_OPS_SIZE_1_1, 72);
		CU_ASSERT_EQUAL(NS_WALL_OPS_SIZE_1_1, 88);
		CU_ASSERT_EQUAL(NS_HOST_SIZE_1_1, 48);
		CU_ASSERT_EQUAL(NS_WALL_OPS_SIZE_1_2, 120);
		CU_ASSERT_EQUAL(NS_HOST_SIZE_1_2, 56);
		CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_2, 144);
		CU_ASSERT_EQUAL(NS_PLACE_REQ_SIZE_1_2, 24);
		CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_2, 72);
		CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_3, 152);
		CU_ASSERT_EQUAL(NS_PLACE_REQ_SIZE_1_3, 32);
		CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_3, 80);
		CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_4, 176);
	}
	/* the egress table never grew: the 1.0 size is the whole struct */
	CU_ASSERT_EQUAL(NS_EGRESS_OPS_SIZE_1_0, sizeof(struct ns_egress_ops));
	/* 1.2 appended to the ops, the wall table, the host and the policy:
	 * each 1.1 part is a strict prefix and the 1.2 size is the whole */
	CU_ASSERT(NS_BACKEND_OPS_SIZE_1_1 < sizeof(struct ns_backend_ops));
	CU_ASSERT_EQUAL(NS_BACKEND_OPS_SIZE_1_1,
			offsetof(struct ns_backend_ops, built_minor));
	CU_ASSERT(NS_WALL_OPS_SIZE_1_1 <= offsetof(struct ns_wall_ops, features));
	CU_ASSERT_EQUAL(NS_WALL_OPS_SIZE_1_2, sizeof(struct ns_wall_ops));
	CU_ASSERT_EQUAL(NS_HOST_SIZE_1_1, offsetof(struct ns_host, denial));
	CU_ASSERT_EQUAL(NS_HOST_SIZE_1_2, sizeof(struct ns_host));
	CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_1, offsetof(struct ns_policy, max_procs));
	/* 1.3 appended to the policy, the place request and the place
	 * table: each 1.2 part is a strict prefix, the 1.3 size is the whole
	 * struct (no unnamed padding at the end for a later append to land
	 * on) */
	CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_2,
			offsetof(struct ns_policy, cpu_percent));
	CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_3,
			offsetof(struct ns_policy, protect));
	/* 1.4 appended the protected paths: the 1.3 policy is a strict
	 * prefix, the 1.4 size is the whole struct */
	CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_4,
			offsetof(struct ns_policy, net_ports));
	/* 1.5 appended the network namespace's ports and sink: the 1.4
	 * policy is a strict prefix, the 1.5 size is the whole struct; the
	 * descriptor grew by the proxy table, after 1.4's last member */
	CU_ASSERT_EQUAL(NS_POLICY_SIZE_1_5, sizeof(struct ns_policy));
	CU_ASSERT(NS_BACKEND_OPS_SIZE_1_4 <=
		  offsetof(struct ns_backend_ops, proxy));
	CU_ASSERT_EQUAL(NS_PROXY_OPS_SIZE_1_5, sizeof(struct ns_proxy_ops));
	{
		struct ns_policy p = { .struct_size = NS_POLICY_SIZE_1_4 };

		CU_ASSERT(!NS_POLICY_HAS_NETNS(&p));
		CU_ASSERT(NS_POLICY_HAS_PROTECT(&p));
		p.struct_size = sizeof(p);
		CU_ASSERT(NS_POLICY_HAS_NETNS(&p));
	}
	{
		struct ns_policy p = { .struct_size = NS_POLICY_SIZE_1_3 };

		CU_ASSERT(!NS_POLICY_HAS_PROTECT(&p));
		CU_ASSERT(NS_POLICY_HAS_CPU(&p));
		p.struct_size = sizeof(p);
		CU_ASSERT(NS_POLICY_HAS_PROTECT(&p));
	}
	CU_ASSERT_EQUAL(NS_PLACE_REQ_SIZE_1_2,
			offsetof(struct ns_place_req, parent));
	CU_ASSERT_EQUAL(NS_PLACE_REQ_SIZE_1_3, sizeof(struct ns_place_req));
	CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_2,
			offsetof(struct ns_place_ops, features));
	CU_ASSERT_EQUAL(NS_PLACE_OPS_SIZE_1_3, sizeof(struct ns_place_ops));
	{
		struct ns_policy p = { .struct_size = NS_POLICY_SIZE_1_2 };
		struct ns_place_req q = { .struct_size = NS_PLACE_REQ_SIZE_1_2 };

		CU_ASSERT(!NS_POLICY_HAS_CPU(&p));
		CU_ASSERT(!NS_PLACE_REQ_HAS_PARENT(&q));
		p.struct_size = sizeof(p);
		q.struct_size = sizeof(q);
		CU_ASSERT(NS_POLICY_HAS_CPU(&p) && NS_POLICY_HAS_CAPS(&p));
		CU_ASSERT(NS_PLACE_REQ_HAS_PARENT(&q));
	}
	/* 1.1 appended to the place table and the place: the 1.0 part is a
	 * strict prefix and the 1.1 size is the whole table */
	CU_ASSERT(NS_PLACE_OPS_SIZE_1_0 < NS_PLACE_OPS_SIZE_1_1);
	CU_ASSERT(NS_PLACE_SIZE_1_0 <= offsetof(struct ns_place, root_fd));
	CU_ASSERT(NS_PLACE_SIZE_1_1 <= sizeof(struct ns_place));
	CU_ASSERT_EQUAL(NS_BACKEND_ABI_MINOR, 5);
}

static void
test_header_first(void)
{
	/* the header the host reads before anything else */
	CU_ASSERT_EQUAL(offsetof(struct ns_backend_ops, magic), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_backend_ops, abi_major), 4);
	CU_ASSERT_EQUAL(offsetof(struct ns_backend_ops, abi_minor), 6);
	CU_ASSERT_EQUAL(offsetof(struct ns_backend_ops, struct_size), 8);
	/* every struct that crosses the ABI starts with its size */
	CU_ASSERT_EQUAL(offsetof(struct ns_host, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_policy, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_wall_facts, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_launch, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_proc, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_wall_ops, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_egress_ops, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_place_req, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_place, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_place_ops, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_denial, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_exit, struct_size), 0);
	CU_ASSERT_EQUAL(offsetof(struct ns_finish, struct_size), 0);
}

/* The policy's HAS macros read struct_size only. */
static void
test_has_macros(void)
{
	struct ns_policy p = { 0 };
	struct ns_host h = { 0 };

	p.struct_size = (uint32_t)NS_POLICY_SIZE_1_1;
	CU_ASSERT(NS_POLICY_HAS_FDS(&p));
	CU_ASSERT(!NS_POLICY_HAS_CAPS(&p));
	p.struct_size = sizeof(p);
	CU_ASSERT(NS_POLICY_HAS_CAPS(&p));
	h.struct_size = (uint32_t)NS_HOST_SIZE_1_1;
	h.denial = (void (*)(void *, const struct ns_denial *))1;
	CU_ASSERT(!NS_HOST_HAS_DENIAL(&h));
	h.struct_size = sizeof(h);
	CU_ASSERT(NS_HOST_HAS_DENIAL(&h));
	h.denial = NULL;
	CU_ASSERT(!NS_HOST_HAS_DENIAL(&h));
}

static void
test_define_macro(void)
{
	static const struct ns_backend_ops d = { NS_BACKEND_HEADER };

	CU_ASSERT_EQUAL(d.magic, NS_BACKEND_MAGIC);
	CU_ASSERT_EQUAL(d.abi_major, NS_BACKEND_ABI_MAJOR);
	/* no NS_MODULE_REQUIRES_MINOR defined: it needs the header's minor */
	CU_ASSERT_EQUAL(d.abi_minor, NS_MODULE_REQUIRES_MINOR);
	CU_ASSERT_EQUAL(d.abi_minor, NS_BACKEND_ABI_MINOR);
	CU_ASSERT_EQUAL(d.built_minor, NS_BACKEND_ABI_MINOR);
	CU_ASSERT_EQUAL(d.struct_size, sizeof(struct ns_backend_ops));
	CU_ASSERT_STRING_EQUAL(NS_BACKEND_SYMBOL, "ns_backend_v1");
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "1.0 to 1.5 size macros match the pinned sizes", test_size_macros },
		{ "HAS macros read struct_size", test_has_macros },
		{ "headers come first", test_header_first },
		{ "NS_BACKEND_HEADER fills the header", test_define_macro },
		{ NULL, NULL }
	};

	return cu_run("abi_layout", NULL, NULL, cases);
}
