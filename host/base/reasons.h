/* SPDX-License-Identifier: MIT */
/* reasons.h -- every reason token that can follow `reason=` in a REFUSED
 * line, in one list: the host's own and those of the in-tree modules (they
 * refuse through ns_host.refuse with their own tokens).
 * Reference: docs/SPEC-SANDBOX.md section 3 "Lines", the table of reason
 * tokens; tests/unit/test_reasons.c checks the two are the same list. */
#ifndef NS_HOST_REASONS_H
#define NS_HOST_REASONS_H

/* X(NAME, "token"): REASON_<NAME> is the token's one spelling. */
#define NS_REASONS(X) \
	X(ALLOW_ANY, "allow_any") \
	X(ALLOW_PORT, "allow_port") \
	X(APPLY_FAILED, "apply_failed") \
	X(ARGS_TOO_LONG, "args_too_long") \
	X(AS_ROOT, "as_root") \
	X(BAD_ADDRESS, "bad_address") \
	X(BAD_ARTIFACT, "bad_artifact") \
	X(BAD_BASE, "bad_base") \
	X(BAD_CHAIN, "bad_chain") \
	X(BAD_CIDR, "bad_cidr") \
	X(BAD_CONFIG, "bad_config") \
	X(BAD_CPU, "bad_cpu") \
	X(BAD_CWD, "bad_cwd") \
	X(BAD_ENCODING, "bad_encoding") \
	X(BAD_ENV, "bad_env") \
	X(BAD_FLAG, "bad_flag") \
	X(BAD_GPU, "bad_gpu") \
	X(BAD_HEAD, "bad_head") \
	X(BAD_MAX_MEM, "bad_max_mem") \
	X(BAD_MAX_PROCS, "bad_max_procs") \
	X(BAD_MEMORY, "bad_memory") \
	X(BAD_MODEL_HOST, "bad_model_host") \
	X(BAD_NET, "bad_net") \
	X(BAD_ORIGIN, "bad_origin") \
	X(BAD_OUT, "bad_out") \
	X(BAD_OUT_MAX, "bad_out_max") \
	X(BAD_PLACE, "bad_place") \
	X(BAD_PLAN, "bad_plan") \
	X(BAD_POLICY, "bad_policy") \
	X(BAD_PR, "bad_pr") \
	X(BAD_PROTECT, "bad_protect") \
	X(BAD_READ, "bad_read") \
	X(BAD_REPO, "bad_repo") \
	X(BAD_RESOLVER, "bad_resolver") \
	X(BAD_RULE, "bad_rule") \
	X(BAD_SCRATCH, "bad_scratch") \
	X(BAD_SIZE, "bad_size") \
	X(BAD_STATUS_FD, "bad_status_fd") \
	X(BAD_TABLE, "bad_table") \
	X(BAD_TIMEOUT, "bad_timeout") \
	X(BAD_TOOLCHAIN, "bad_toolchain") \
	X(BAD_UID, "bad_uid") \
	X(BAD_VETH, "bad_veth") \
	X(BAD_WRITE, "bad_write") \
	X(CHECK, "check") \
	X(DENY_AFTER_ACCEPT, "deny_after_accept") \
	X(DROP_FAILED, "drop_failed") \
	X(EXPLAIN_UNAVAILABLE, "explain_unavailable") \
	X(FD_LIMIT, "fd_limit") \
	X(HOME_OUTSIDE, "home_outside") \
	X(LANDLOCK_ABI_UNKNOWN, "landlock_abi_unknown") \
	X(LIVE_MISMATCH, "live_mismatch") \
	X(NAME_SQUATTED, "name_squatted") \
	X(NAMES_REACHABLE, "names_reachable") \
	X(NESTED_SANDBOX, "nested_sandbox") \
	X(NET_ALLOW_UNSUPPORTED, "net_allow_unsupported") \
	X(NET_UNENFORCEABLE, "net_unenforceable") \
	X(NETNS_UNAVAILABLE, "netns_unavailable") \
	X(NO_COMMAND, "no_command") \
	X(NO_CONTAINER, "no_container") \
	X(NO_DEFAULT_DENY, "no_default_deny") \
	X(NO_EGRESS, "no_egress") \
	X(NO_EGRESS_TABLE, "no_egress_table") \
	X(NO_FORGE, "no_forge") \
	X(NO_METADATA_DENY, "no_metadata_deny") \
	X(NO_NAME, "no_name") \
	X(NO_OUT, "no_out") \
	X(NO_PR, "no_pr") \
	X(NO_PRIVILEGE, "no_privilege") \
	X(NO_PROXY, "no_proxy") \
	X(NO_SANDBOX, "no_sandbox") \
	X(NO_SELECTOR, "no_selector") \
	X(NO_TABLE, "no_table") \
	X(NO_WSB, "no_wsb") \
	X(NOT_EXECUTABLE, "not_executable") \
	X(NOT_FOUND, "not_found") \
	X(OUT_FAILED, "out_failed") \
	X(PLAN_MISMATCH, "plan_mismatch") \
	X(PROBE_OUTSIDE_INSIDE, "probe_outside_inside") \
	X(PROBE_OUTSIDE_UNWRITABLE, "probe_outside_unwritable") \
	X(PROBE_STEP_NOT_A_CHILD, "probe_step_not_a_child") \
	X(PROTECT_UNAVAILABLE, "protect_unavailable") \
	X(PROTECT_UNSUPPORTED, "protect_unsupported") \
	X(RESOLVE_FAILED, "resolve_failed") \
	X(SANDBOX_FAILED, "sandbox_failed") \
	X(SECRET_INSIDE_ALLOW, "secret_inside_allow") \
	X(TABLE_EXISTS, "table_exists") \
	X(TREE_IN_USE, "tree_in_use") \
	X(UNKNOWN_FLAG, "unknown_flag") \
	X(UNKNOWN_VERB, "unknown_verb") \
	X(UNSCOPED_RULE, "unscoped_rule") \
	X(VOLUME_EXISTS, "volume_exists") \
	X(VOLUME_FAILED, "volume_failed") \
	X(WALL_WRITABLE, "wall_writable")

#define NS_REASON_CONST(id, tok) static const char REASON_##id[] = tok;
NS_REASONS(NS_REASON_CONST)
#undef NS_REASON_CONST

#endif
