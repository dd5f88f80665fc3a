/* SPDX-License-Identifier: MIT */
/* ref.c -- the ABI gate's reference library: one exported function per
 * public struct and enum of api/ns_backend.h and api/ns_egress_plan.h, so
 * that abidw describes every type a module sees (tests/abi/run.sh builds it
 * and compares it with tests/abi/baseline.xml).  check-abi refuses a struct
 * or enum of the headers that is missing here. */
#include "../../api/ns_backend.h"
#include "../../api/ns_egress_plan.h"

#define REF(kind, name)                                                   \
	NS_BACKEND_EXPORT void ns_abi_ref_##name(kind name *p);           \
	NS_BACKEND_EXPORT void ns_abi_ref_##name(kind name *p) { (void)p; }

REF(struct, ns_denial)
REF(struct, ns_host)
REF(struct, ns_rule)
REF(struct, ns_policy)
REF(struct, ns_wall_facts)
REF(struct, ns_launch)
REF(struct, ns_proc)
REF(struct, ns_exit)
REF(struct, ns_finish)
REF(struct, ns_wall_ops)
REF(struct, ns_egress_ops)
REF(struct, ns_place_req)
REF(struct, ns_place)
REF(struct, ns_place_ops)
REF(struct, ns_backend_ops)
REF(struct, ns_net_entry)
REF(struct, ns_proxy_conf)
REF(struct, ns_proxy_ops)
REF(struct, ns_egress_addr)
REF(struct, ns_egress_rule)
REF(struct, ns_egress_line)
REF(enum, ns_status)
REF(enum, ns_op)
REF(enum, ns_access)
REF(enum, ns_origin)
REF(enum, ns_wall_shape)
REF(enum, ns_end)
REF(enum, ns_net_kind)
REF(enum, ns_egress_sel)
REF(enum, ns_egress_hook)
REF(enum, ns_egress_line_kind)
