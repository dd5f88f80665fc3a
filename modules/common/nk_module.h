/* SPDX-License-Identifier: MIT */
/* nk_module.h -- the module kit's descriptor (modules/common/: not part of
 * the ABI; the descriptor it defines is the module's own, the one symbol
 * a module exports).  Every module fills ns_backend_ops the same way: the
 * header from ns_backend.h, the version, its name, summary and options,
 * and the table of each role it takes (the others left NULL); and each
 * table the same way: its size, then its operations. */
#ifndef NS_NK_MODULE_H
#define NS_NK_MODULE_H

#include "ns_backend.h"

#define NK_MODULE_VERSION "0.1.0"

/* A module that takes no option keys. */
#define NK_NO_OPTIONS ((const char *const[]){ NULL })

/* NK_DESCRIPTOR(NS_ROLE_WALL, "landlock", "one line", options,
 *               .wall = &wall_ops); */
#define NK_DESCRIPTOR(roles_, name_, summary_, options_, ...)               \
	NS_BACKEND_DEFINE = { NS_BACKEND_HEADER, .roles = (roles_),         \
			      .name = (name_),                              \
			      .version = NK_MODULE_VERSION,                 \
			      .summary = (summary_),                        \
			      .options = (options_), __VA_ARGS__ }

/* A role's table: its size, the operations every version of the ABI has
 * (in the order the struct declares them), then what the module adds by
 * name (the roots of a wall, .finish, .proc_start, ...). */
#define NK_WALL_OPS(shape_, facts_, prepare_, render_, spawn_, release_,   \
		    ...)                                                    \
	{ .struct_size = sizeof(struct ns_wall_ops), .shape = (shape_),     \
	  .facts = (facts_), .prepare = (prepare_), .render = (render_),    \
	  .spawn = (spawn_), .release = (release_), __VA_ARGS__ }
#define NK_EGRESS_OPS(ready_, apply_, read_live_, drop_, ...)               \
	{ .struct_size = sizeof(struct ns_egress_ops), .ready = (ready_),   \
	  .apply = (apply_), .read_live = (read_live_), .drop = (drop_),    \
	  __VA_ARGS__ }
#define NK_PLACE_OPS(look_, create_, used_, destroy_, list_, ...)           \
	{ .struct_size = sizeof(struct ns_place_ops), .look = (look_),      \
	  .create = (create_), .used = (used_), .destroy = (destroy_),      \
	  .list = (list_), __VA_ARGS__ }

#endif
