/* SPDX-License-Identifier: MIT */
/* abi_pins.h -- every offset and size of the module ABI (api/ns_backend.h)
 * 1.0 to 1.5, pinned at compile time for LP64 (x86_64 and aarch64
 * lay the structs out the same).  Included by test_abi_layout.c (run on
 * this machine) and by tests/abi/pins_cross.c, which tests/abi/run.sh
 * compiles with the aarch64 cross compiler so the pins are not silently
 * empty there.  PINNED says whether this target has pins. */
#ifndef NS_ABI_PINS_H
#define NS_ABI_PINS_H

#include <stddef.h>

#include "../../api/ns_backend.h"

#define O(s, m, off) \
	_Static_assert(offsetof(struct s, m) == (off), #s "." #m " moved")
#define SZ(s, n) \
	_Static_assert(sizeof(struct s) == (n), "sizeof " #s " changed")

#if (defined(__x86_64__) || defined(__aarch64__)) && defined(__LP64__)
SZ(ns_host, 56);
O(ns_host, struct_size, 0);
O(ns_host, abi_major, 4);
O(ns_host, abi_minor, 6);
O(ns_host, cookie, 8);
O(ns_host, note, 16);
O(ns_host, refuse, 24);
O(ns_host, text, 32);
O(ns_host, option, 40);
O(ns_host, denial, 48); /* 1.2 */
SZ(ns_denial, 32);      /* 1.2 */
O(ns_denial, struct_size, 0);
O(ns_denial, op, 4);
O(ns_denial, path, 8);
O(ns_denial, count, 16);
O(ns_denial, detail, 24);
SZ(ns_rule, 16);
O(ns_rule, path, 0);
O(ns_rule, access, 8);
O(ns_rule, origin, 12);
SZ(ns_policy, 200);
O(ns_policy, struct_size, 0);
O(ns_policy, flags, 4);
O(ns_policy, rules, 8);
O(ns_policy, n_rules, 16);
O(ns_policy, net_allow, 24);
O(ns_policy, n_net_allow, 32);
O(ns_policy, gpu, 40);
O(ns_policy, name, 48);
O(ns_policy, command, 56);
O(ns_policy, argv, 64);
O(ns_policy, envp, 72);
O(ns_policy, cwd, 80);
O(ns_policy, tmp, 88);
O(ns_policy, home, 96);
O(ns_policy, rule_fds, 104);
O(ns_policy, cwd_fd, 112);
O(ns_policy, max_procs, 120);     /* 1.2 */
O(ns_policy, max_mem_bytes, 128); /* 1.2 */
O(ns_policy, timeout_ms, 136);    /* 1.2 */
O(ns_policy, cpu_percent, 144);   /* 1.3 */
O(ns_policy, acl, 148);           /* 1.3 */
O(ns_policy, protect, 152);       /* 1.4 */
O(ns_policy, n_protect, 160);     /* 1.4 */
O(ns_policy, protect_fds, 168);   /* 1.4 */
O(ns_policy, net_ports, 176);     /* 1.5 */
O(ns_policy, n_net_ports, 184);   /* 1.5 */
O(ns_policy, net_sink, 192);      /* 1.5 */
O(ns_policy, reserved15, 196);    /* 1.5 */
SZ(ns_wall_facts, 1068);
O(ns_wall_facts, struct_size, 0);
O(ns_wall_facts, available, 4);
O(ns_wall_facts, net_enforceable, 8);
O(ns_wall_facts, abi, 12);
O(ns_wall_facts, used, 28);
O(ns_wall_facts, note, 44);
O(ns_wall_facts, clamp, 556);
O(ns_wall_facts, why, 812);
SZ(ns_launch, 32);
O(ns_launch, struct_size, 0);
O(ns_launch, stdio, 4);
O(ns_launch, extra_fds, 16);
O(ns_launch, n_extra_fds, 24);
SZ(ns_proc, 24);
O(ns_proc, struct_size, 0);
O(ns_proc, pid, 8);
O(ns_proc, handle, 16);
SZ(ns_exit, 24); /* 1.2 */
O(ns_exit, struct_size, 0);
O(ns_exit, how, 4);
O(ns_exit, code, 8);
O(ns_exit, status, 16);
SZ(ns_finish, 80); /* 1.2 */
O(ns_finish, struct_size, 0);
O(ns_finish, proc, 8);
O(ns_finish, start_ns, 32);
O(ns_finish, end_ns, 40);
O(ns_finish, exit, 48);
O(ns_finish, killed, 72);
SZ(ns_wall_ops, 120);
O(ns_wall_ops, struct_size, 0);
O(ns_wall_ops, shape, 4);
O(ns_wall_ops, read_roots, 8);
O(ns_wall_ops, write_files, 16);
O(ns_wall_ops, optional_roots, 24);
O(ns_wall_ops, system_prefixes, 32);
O(ns_wall_ops, resolver_conf, 40);
O(ns_wall_ops, facts, 48);
O(ns_wall_ops, prepare, 56);
O(ns_wall_ops, render, 64);
O(ns_wall_ops, spawn, 72);
O(ns_wall_ops, release, 80);
O(ns_wall_ops, features, 88);   /* 1.2 */
O(ns_wall_ops, finish, 96);     /* 1.2 */
O(ns_wall_ops, wait, 104);      /* 1.2 */
O(ns_wall_ops, terminate, 112); /* 1.2 */
SZ(ns_egress_ops, 40);
O(ns_egress_ops, struct_size, 0);
O(ns_egress_ops, ready, 8);
O(ns_egress_ops, apply, 16);
O(ns_egress_ops, read_live, 24);
O(ns_egress_ops, drop, 32);
SZ(ns_place_req, 32);
O(ns_place_req, struct_size, 0);
O(ns_place_req, name, 8);
O(ns_place_req, size_bytes, 16);
O(ns_place_req, parent, 24); /* 1.3 */
SZ(ns_place, 1432);
O(ns_place, struct_size, 0);
O(ns_place, root, 4);
O(ns_place, id, 516);
O(ns_place, remedy, 644);
O(ns_place, state, 1160);
O(ns_place, root_fd, 1168);   /* 1.1 */
O(ns_place, hidden, 1172);    /* 1.1 */
SZ(ns_place_ops, 80);
O(ns_place_ops, struct_size, 0);
O(ns_place_ops, look, 8);
O(ns_place_ops, create, 16);
O(ns_place_ops, used, 24);
O(ns_place_ops, destroy, 32);
O(ns_place_ops, list, 40);
O(ns_place_ops, enter, 48);      /* 1.1 */
O(ns_place_ops, holders, 56);    /* 1.1 */
O(ns_place_ops, proc_start, 64); /* 1.1 */
O(ns_place_ops, features, 72);   /* 1.3 */
O(ns_place_ops, reserved, 76);   /* 1.3 */
SZ(ns_backend_ops, 88);
O(ns_backend_ops, magic, 0);
O(ns_backend_ops, abi_major, 4);
O(ns_backend_ops, abi_minor, 6);
O(ns_backend_ops, struct_size, 8);
O(ns_backend_ops, roles, 12);
O(ns_backend_ops, name, 16);
O(ns_backend_ops, version, 24);
O(ns_backend_ops, summary, 32);
O(ns_backend_ops, options, 40);
O(ns_backend_ops, wall, 48);
O(ns_backend_ops, egress, 56);
O(ns_backend_ops, place, 64);
O(ns_backend_ops, built_minor, 72); /* 1.2 */
O(ns_backend_ops, proxy, 80);       /* 1.5 */
SZ(ns_net_entry, 40); /* 1.5 */
O(ns_net_entry, kind, 0);
O(ns_net_entry, port, 4);
O(ns_net_entry, fam, 6);
O(ns_net_entry, plen, 7);
O(ns_net_entry, addr, 8);
O(ns_net_entry, name, 24);
O(ns_net_entry, text, 32);
SZ(ns_proxy_conf, 56); /* 1.5 */
O(ns_proxy_conf, struct_size, 0);
O(ns_proxy_conf, flags, 4);
O(ns_proxy_conf, allow, 8);
O(ns_proxy_conf, n_allow, 16);
O(ns_proxy_conf, sink_fd, 24);
O(ns_proxy_conf, report_fd, 28);
O(ns_proxy_conf, stop_fd, 32);
O(ns_proxy_conf, proxy_port, 36);
O(ns_proxy_conf, reserved, 38);
O(ns_proxy_conf, max_conns, 40);
O(ns_proxy_conf, reserved2, 44);
O(ns_proxy_conf, max_mem_bytes, 48);
SZ(ns_proxy_ops, 24); /* 1.5 */
O(ns_proxy_ops, struct_size, 0);
O(ns_proxy_ops, ready, 8);
O(ns_proxy_ops, serve, 16);
#define PINNED 1
#else
#define PINNED 0
#endif

#endif
