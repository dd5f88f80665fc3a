/* SPDX-License-Identifier: MIT */
/* ne_plan.c -- the module's own copy of the plan line grammar: the
 * implementation half of <ns_egress_plan.h> (a single-header library from
 * the public ABI, compiled exactly once in this module; hidden, so the
 * module still exports nothing but ns_backend_v1). */
#define NS_EGRESS_PLAN_IMPLEMENTATION
#include "ns_egress_plan.h"
