/* SPDX-License-Identifier: MIT */
/* grammar.c -- the host's one copy of the plan line grammar: the
 * implementation half of api/ns_egress_plan.h (a single-header library,
 * compiled exactly once per binary).  The renderer (egress_plan.c), the
 * auditor (egress_audit.c) and the verbs use it through egress/allowlist.h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

#define NS_EGRESS_PLAN_IMPLEMENTATION
#include "ns_egress_plan.h"
