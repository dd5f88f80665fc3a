/* SPDX-License-Identifier: MIT */
/*
 * ns_backend.h -- the stable C ABI between the nova-sandbox host and its
 * backend modules.  This is the only header a module author needs; it is
 * installed as <nova-sandbox/ns_backend.h> and is self-contained C99/C11.
 *
 * CHANGELOG: docs/ABI.md section 11, "Changelog" (append-only; every minor
 * adds members at the END of a struct).
 *
 * COMPATIBILITY RULES (enforced by the host before any module function runs)
 *   - the module exports ONE data symbol, NS_BACKEND_SYMBOL ("ns_backend_v1"),
 *     of type `const struct ns_backend_ops`; use NS_BACKEND_DEFINE below;
 *   - magic == NS_BACKEND_MAGIC; abi_major == the host's major; abi_minor <=
 *     the host's minor: abi_minor is the lowest host minor the module
 *     needs (1.2: NS_MODULE_REQUIRES_MINOR; before 1.2 it was always the
 *     header's minor, which is the same rule for an older module);
 *   - struct_size >= the size of the 1.0 struct; the host copies
 *     min(struct_size, its own sizeof) into a zeroed struct, so a member a
 *     module does not have reads as NULL/0 ("old behaviour");
 *   - the same rule holds for every role table (each starts with struct_size)
 *     and for every struct the host passes in (ns_host, ns_policy, ...):
 *     a module MUST NOT read a member beyond the struct_size it was given;
 *   - members are only ever appended; a removed or reordered member is a new
 *     major, exported under a new symbol (ns_backend_v2).
 *
 * INCLUDING IT
 *   Installed as <nova-sandbox/ns_backend.h>; `pkg-config --cflags
 *   nova-sandbox` adds its directory, so `#include <ns_backend.h>` works
 *   too.  Either spelling is the same file.
 *
 * MODULE CONDUCT
 *   - a module MUST NOT print, call exit(), _exit() (except in a child it
 *     forked itself), abort(), or install signal handlers in the host;
 *   - threads: the host is single-threaded and forks; a module MUST NOT
 *     leave a thread running when an operation returns;
 *   - children: the host reaps with waitpid(-1) (on Linux it is also a
 *     child subreaper, PR_SET_CHILD_SUBREAPER; darwin has none, and the
 *     command's tree is its process group), so it may reap a helper a
 *     module forked: a
 *     module MUST NOT rely on waitpid() for a helper's status (use a pipe or
 *     a pidfd the helper's exit closes), and a helper that must outlive the
 *     operation is part of the command's tree (the host ends that tree);
 *   - signals at spawn(): the host has SIGCHLD blocked and its own handlers
 *     for SIGINT, SIGTERM, SIGHUP and SIGQUIT (each one the caller did not
 *     ignore); the host itself ignores no signal, so a disposition that is
 *     SIG_IGN at spawn() is the caller's: the command MUST start with an
 *     empty signal mask and every disposition at its default except those
 *     SIG_IGN ones, which stay ignored (as across a plain exec);
 *   - lifetimes: the ns_policy and every string it points at live from
 *     prepare() until release() returns (every spawn() and finish() of
 *     that state included); a string from option() lives as long as the
 *     host process; a struct the host passes to an operation (ns_launch,
 *     ns_proc, ns_finish, ns_denial, ...) lives only during that call;
 *   - descriptors: the host owns the descriptors of ns_launch and closes
 *     them; spawn() MUST NOT close them in the calling process;
 *   - release(): once per successful prepare(), in the process that called
 *     prepare(), after its last spawn() and finish(): in the wrap and the
 *     probe once the command's end is known and before the tool exits, in
 *     `run` in the keeper once the run's init has ended;
 *   - a module MUST NOT have constructors or destructors: the host validates
 *     the descriptor before calling anything, and a constructor would run
 *     before that validation;
 *   - every problem a module meets is returned as an ns_status and said once
 *     through host->refuse() (or host->note() for information); the host
 *     owns formatting, context (which module, which file) and exit codes.
 */
#ifndef NS_BACKEND_H
#define NS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NS_BACKEND_MAGIC 0x4e534250u /* "NSBP" */
#define NS_BACKEND_ABI_MAJOR 1
#define NS_BACKEND_ABI_MINOR 5
#define NS_BACKEND_SYMBOL "ns_backend_v1"

#if defined(_WIN32)
#define NS_BACKEND_EXPORT __declspec(dllexport)
#else
#define NS_BACKEND_EXPORT __attribute__((visibility("default")))
#endif

/* Status every module operation returns.  Any other value is treated by the
 * host as NS_E_INTERNAL. */
enum ns_status {
	NS_OK = 0,
	NS_E_UNAVAILABLE = 1, /* the mechanism is absent on this machine */
	NS_E_REFUSED = 2,     /* the request cannot be walled as asked */
	NS_E_SYSTEM = 3,      /* a system call failed; errno was said */
	NS_E_INTERNAL = 4     /* a bug: an invariant did not hold */
};

/* Roles a module serves (ns_backend_ops.roles is a bit set). */
#define NS_ROLE_WALL 0x1u   /* confines one command's filesystem/network */
#define NS_ROLE_EGRESS 0x2u /* the bench's outbound allowlist (nftables) */
#define NS_ROLE_PLACE 0x4u  /* a disposable, size-capped place to work */
#define NS_ROLE_PROXY 0x8u  /* 1.5: the filtering proxy for --net-allow */

/* The lowest host minor this module needs: define it before including
 * this header (a wall that uses nothing 1.2 added: 0).  NS_BACKEND_HEADER
 * writes it as abi_minor, which every host checks against its own. */
#ifndef NS_MODULE_REQUIRES_MINOR
#define NS_MODULE_REQUIRES_MINOR NS_BACKEND_ABI_MINOR
#endif

/* ------------------------------------------------------------------ */
/* Denials: what the wall refused the command (1.2).                   */
/* ------------------------------------------------------------------ */

/* The operation a denial names. */
enum ns_op {
	NS_OP_READ = 1,    /* open for reading, list a directory */
	NS_OP_WRITE = 2,   /* open for writing, truncate */
	NS_OP_EXEC = 3,    /* execute, map executable */
	NS_OP_CREATE = 4,  /* create a file, directory, link, node */
	NS_OP_DELETE = 5,  /* unlink, rmdir */
	NS_OP_RENAME = 6,  /* rename or link into or out of a directory */
	NS_OP_CONNECT = 7, /* connect: path is "<addr>:<port>" or a socket */
	NS_OP_BIND = 8,    /* bind or listen */
	NS_OP_OTHER = 9    /* anything else the wall refused */
};

struct ns_denial {
	uint32_t struct_size;
	uint32_t op;       /* enum ns_op */
	const char *path;  /* absolute path (or address) the wall refused */
	uint64_t count;    /* how many times (>= 1) */
	const char *detail; /* the system call or the log's word, or NULL:
			       for the host's debug output, never a line */
};

/* ------------------------------------------------------------------ */
/* Host services: passed IN to every operation.                        */
/* ------------------------------------------------------------------ */

struct ns_host {
	uint32_t struct_size; /* sizeof(struct ns_host) as the host built it */
	uint16_t abi_major;   /* the host's ABI */
	uint16_t abi_minor;
	void *cookie; /* opaque; pass back unchanged to every service */
	/* One information line (printed as "<VERB> NOTE <text>").  Text is one
	 * line, no newline.  MAY be called any number of times. */
	void (*note)(void *cookie, const char *text);
	/* One refusal: reason is a token from docs/SPEC-SANDBOX.md (for a wall:
	 * no_sandbox, sandbox_failed, net_unenforceable, landlock_abi_unknown,
	 * ...), text says what is wrong and what would fix it.  A module that
	 * returns NS_E_UNAVAILABLE, NS_E_REFUSED or NS_E_SYSTEM MUST have called
	 * refuse() at least once during that operation. */
	void (*refuse)(void *cookie, const char *reason, const char *text);
	/* One line of the generated policy text (the `policy` verb's body). */
	void (*text)(void *cookie, const char *line);
	/* The module's own option from its config section, or NULL when the
	 * key is not set.  Keys are the ones the module lists in `options`. */
	const char *(*option)(void *cookie, const char *key);
	/* 1.2 (read only when struct_size covers it) */
	/* One denial the wall made, from finish() only.  The host adds up the
	 * counts of the same (op, path), maps each to the flag that would
	 * have allowed it and prints at most ten SANDBOX DENIED lines before
	 * DONE.  Only what the WALL refused: a path the user could not have
	 * reached outside the wall either (permissions, absent) is no
	 * denial. */
	void (*denial)(void *cookie, const struct ns_denial *d);
};

/* ------------------------------------------------------------------ */
/* The policy: resolved by the host, read-only for the module.         */
/* ------------------------------------------------------------------ */

/* What a rule grants.  A module maps each to its own mechanism and MUST
 * refuse (NS_E_REFUSED) a class it cannot enforce rather than widen it. */
enum ns_access {
	NS_ACCESS_READ_EXEC = 1,  /* read files, list dirs, execute */
	NS_ACCESS_READ = 2,       /* read files, list dirs, NO execute */
	NS_ACCESS_WRITE = 3,      /* everything the mechanism can grant */
	NS_ACCESS_WRITE_FILE = 4  /* one file (a device): read, write */
};

/* Why a rule is there; used to label the policy text and nothing else. */
enum ns_origin {
	NS_ORIGIN_ROOT = 1,        /* a fixed OS root (ns_wall_ops.read_roots) */
	NS_ORIGIN_OPTIONAL = 2,    /* an optional root: the command's dir, ... */
	NS_ORIGIN_READ = 3,        /* --read */
	NS_ORIGIN_READ_NOEXEC = 4, /* --read-noexec */
	NS_ORIGIN_WRITE = 5,       /* --write */
	NS_ORIGIN_TMP = 6,         /* the temp directory, when not a --write */
	NS_ORIGIN_CWD = 7,         /* the working directory, when not a --write */
	NS_ORIGIN_WRITE_FILE = 8   /* ns_wall_ops.write_files */
};

struct ns_rule {
	const char *path; /* absolute, resolved, existing */
	uint32_t access;  /* enum ns_access */
	uint32_t origin;  /* enum ns_origin */
};

#define NS_POLICY_NET_DENY 0x1u   /* no IP networking at all */
#define NS_POLICY_NET_LISTEN 0x2u /* may listen (accepted; see the spec) */
#define NS_POLICY_EXPLAIN 0x4u    /* 1.2: --explain: name every denial */
#define NS_POLICY_NET_PROXIED 0x8u /* 1.5: a network namespace of the
				      command's own; see net_ports */

struct ns_policy {
	uint32_t struct_size;
	uint32_t flags; /* NS_POLICY_* */
	const struct ns_rule *rules; /* in the order the text prints them */
	size_t n_rules;
	const char *const *net_allow; /* host:port, loopback only; n_net_allow */
	size_t n_net_allow;
	const char *gpu;     /* "none" or "metal" */
	const char *name;    /* --name, or NULL */
	const char *command; /* resolved absolute path of the executable */
	const char *const *argv; /* NULL-terminated; argv[0] as the user typed */
	const char *const *envp; /* NULL-terminated; the child's whole env */
	const char *cwd;  /* the child's working directory */
	const char *tmp;  /* the child's TMPDIR */
	const char *home; /* the child's HOME */
	/* 1.1+ (size-discovered; see the CHANGELOG and NS_POLICY_HAS_FDS) */
	/* n_rules descriptors parallel to rules (a separate array: struct
	 * ns_rule is strided by a module with its own size and never grows).
	 * rule_fds[i] is an O_PATH|O_CLOEXEC descriptor of the very file
	 * rules[i].path was resolved to, opened once with no symlink followed
	 * after the host's checks (docs/SPEC-SANDBOX.md rule 5), or -1 where
	 * the host has none.  rules[i].path is the name read back from it, for
	 * text only.  A wall that can confine by descriptor MUST use it and
	 * MUST NOT open the path again; one that cannot (a helper binding by
	 * name) says so in its docs.  Valid during prepare() and render()
	 * only: the host closes them once prepare() has returned (the array
	 * then holds -1).  The module never closes them and never passes them
	 * to the command. */
	const int32_t *rule_fds;
	/* Points at the working directory's descriptor, opened like a rule
	 * (O_PATH|O_CLOEXEC, a directory), or NULL (a pointer, so that a
	 * zeroed member means "none", as every appended member must).  Valid
	 * until the host frees the policy (through every spawn()): a wall
	 * that starts the command itself fchdir()s to *cwd_fd instead of
	 * chdir(cwd), before it places any descriptor, and the command never
	 * holds it. */
	const int32_t *cwd_fd;
	/* 1.2 (NS_POLICY_HAS_CAPS) */
	/* The caps the host enforces (0: none).  A wall with
	 * NS_WALL_CAPS_NATIVE enforces them itself (a job object's limits)
	 * and the host then does not count the tree; any other wall ignores
	 * them. */
	uint64_t max_procs;     /* processes in the command's tree */
	uint64_t max_mem_bytes; /* resident + swapped + memory files */
	int64_t timeout_ms;     /* wall time, from spawn() */
	/* 1.3 (NS_POLICY_HAS_CPU) */
	/* A hard cap on the CPU time of the command's whole tree, in percent
	 * of the machine (1..100; 0: none).  Set only for a wall with
	 * NS_WALL_CAPS_CPU, which MUST keep it (a Windows job's CPU rate
	 * control, HARD_CAP, rate = percent * 100) or refuse in prepare(),
	 * never run without it. */
	uint32_t cpu_percent;
	/* Who prepares the security of the write roots (`--acl`): NS_ACL_TOOL
	 * (0, as a zeroed member reads: the wall grants what it must, e.g. a
	 * low mandatory label for the run, and restores it at release()) or
	 * NS_ACL_CALLER (the wall changes no ACL or label on disk: the caller
	 * has prepared them; a write root the command could not write is
	 * refused in prepare()).  NS_ACL_CALLER is set only for a wall with
	 * NS_WALL_ACL_CALLER. */
	uint32_t acl;
	/* 1.4 (NS_POLICY_HAS_PROTECT) */
	/* n_protect absolute, resolved paths (a file or a directory: the
	 * object and, for a directory, everything beneath it) that stay
	 * readable and are NOT writable, created in, renamed, removed or
	 * changed, whatever rule covers them (a --write above them
	 * included).  protect_fds (n_protect entries, parallel) holds an
	 * O_PATH|O_CLOEXEC descriptor of the very object protect[i] was
	 * resolved to, opened once with no symlink followed, or -1; unlike
	 * rule_fds they are valid until the host frees the policy (through
	 * every spawn()), so a wall that makes its mount layer at spawn()
	 * can check identity there.  protect[i] is the name read back, for
	 * the text and for a wall that binds by name.  n_protect > 0 is
	 * passed only to a wall with NS_WALL_PROTECT, which MUST keep every
	 * entry or refuse in prepare() (never run without it).  The module
	 * never closes the descriptors and never passes them to the
	 * command. */
	const char *const *protect;
	size_t n_protect;
	const int32_t *protect_fds;
	/* 1.5 (NS_POLICY_HAS_NETNS) */
	/* With NS_POLICY_NET_PROXIED (set only for a wall with
	 * NS_WALL_NETNS, never together with NS_POLICY_NET_DENY): the
	 * command runs in a network namespace of its own that holds only
	 * loopback, up.  Before the command starts, inside that namespace,
	 * the wall binds and listens (backlog >= 128) one TCP socket on
	 * 127.0.0.1:net_ports[i] for each of the n_net_ports ports (and
	 * one on [::1]:port where the namespace has IPv6), and sends each
	 * over net_sink: one message per socket, the payload a uint16_t
	 * port in host order, the socket as one SCM_RIGHTS descriptor.
	 * Then it closes its copies of the sockets and of net_sink; the
	 * command never holds either.  net_sink is a SOCK_SEQPACKET unix
	 * socket valid through every spawn(); the wall never closes it in
	 * the calling process.  A wall that cannot make the namespace here
	 * refuses in prepare() ("netns_unavailable", saying why and what
	 * would fix it), never runs with the host's network. */
	const uint16_t *net_ports;
	size_t n_net_ports;
	int32_t net_sink;
	uint32_t reserved15; /* 0 */
};

#define NS_ACL_TOOL 0u   /* 1.3: the wall prepares the write roots */
#define NS_ACL_CALLER 1u /* 1.3: the caller did; change nothing on disk */

/* The 1.0/1.1 size of ns_policy, and whether pol carries the descriptors. */
#define NS_POLICY_SIZE_1_0 (offsetof(struct ns_policy, home) + sizeof(void *))
#define NS_POLICY_HAS_FDS(pol)                                              \
	((pol)->struct_size >= offsetof(struct ns_policy, cwd_fd) +         \
				       sizeof(void *))
#define NS_POLICY_HAS_CAPS(pol)                                             \
	((pol)->struct_size >= offsetof(struct ns_policy, timeout_ms) +     \
				       sizeof(int64_t))
/* 1.3: whether pol carries cpu_percent and acl. */
#define NS_POLICY_HAS_CPU(pol)                                              \
	((pol)->struct_size >= offsetof(struct ns_policy, acl) +            \
				       sizeof(uint32_t))
/* 1.4: whether pol carries protect, n_protect and protect_fds. */
#define NS_POLICY_HAS_PROTECT(pol)                                          \
	((pol)->struct_size >= offsetof(struct ns_policy, protect_fds) +    \
				       sizeof(void *))
/* 1.5: whether pol carries net_ports, n_net_ports and net_sink. */
#define NS_POLICY_HAS_NETNS(pol)                                            \
	((pol)->struct_size >= offsetof(struct ns_policy, reserved15) +     \
				       sizeof(uint32_t))

/* ------------------------------------------------------------------ */
/* Role: wall.                                                         */
/* ------------------------------------------------------------------ */

/* The three shapes a wall can take; the host's flow is the same for all,
 * the shape tells the reader (and `modules`) what spawn() does. */
enum ns_wall_shape {
	NS_SHAPE_RESTRICT_SELF = 1, /* confine the host, then fork (Landlock) */
	NS_SHAPE_HELPER = 2,        /* exec a helper that confines (bwrap,
				       sandbox-exec) */
	NS_SHAPE_CONTAINER = 3      /* create the process inside a container
				       (a Windows job / AppContainer) */
};

/* What the wall can do here.  Filled by facts(); the host zeroes it and
 * sets struct_size first. */
struct ns_wall_facts {
	uint32_t struct_size;
	int32_t available;       /* 1 when the mechanism is usable here */
	int32_t net_enforceable; /* 1 when NS_POLICY_NET_DENY can be kept */
	char abi[16];  /* the mechanism's level as the OS reports it, "-" */
	char used[16]; /* the level the wall is built at when clamped, or "" */
	char note[512];  /* one clause for `check` (what is and is not kept) */
	char clamp[256]; /* when used[] is set: one NOTE sentence, else "" */
	char why[256];   /* when !available: why, and what would fix it */
};

/* How the host wants the child's descriptors. */
struct ns_launch {
	uint32_t struct_size;
	int32_t stdio[3];        /* fd to dup onto 0,1,2; -1 means inherit */
	const int *extra_fds;    /* become fds 3, 4, ... in the child */
	size_t n_extra_fds;
};

/* The started command. */
struct ns_proc {
	uint32_t struct_size;
	int64_t pid;       /* POSIX pid; the host waits and signals it */
	uintptr_t handle;  /* platform handle (Windows), else 0 */
};

/* 1.2: how a command ended, platform-neutral. */
enum ns_end {
	NS_END_RUNNING = 0, /* wait(): not yet */
	NS_END_CODE = 1,    /* exited: code holds its exit code */
	NS_END_SIGNAL = 2,  /* killed by a signal: code holds its number */
	NS_END_STATUS = 3   /* a platform status (an NTSTATUS): status */
};

struct ns_exit {
	uint32_t struct_size;
	uint32_t how;    /* enum ns_end */
	int32_t code;    /* NS_END_CODE / NS_END_SIGNAL */
	uint64_t status; /* NS_END_STATUS */
};

/* 1.2: what finish() is told. */
struct ns_finish {
	uint32_t struct_size;
	struct ns_proc proc;   /* what spawn() returned */
	int64_t start_ns;      /* CLOCK_REALTIME at spawn(), nanoseconds */
	int64_t end_ns;        /* CLOCK_REALTIME once the tree was gone */
	struct ns_exit exit;   /* how the command itself ended */
	uint32_t killed;       /* the host ended the tree: NS_TERM_* or 0 */
};

/* 1.2: why the host ends a tree (terminate(), ns_finish.killed). */
#define NS_TERM_SIGNAL 1  /* the caller asked the tool to stop */
#define NS_TERM_TIMEOUT 2 /* --timeout */
#define NS_TERM_CAP 3     /* a cap (processes, memory) was reached */
#define NS_TERM_DONE 4    /* the command ended; its leftovers are ended */

/* 1.2: ns_wall_ops.features bits. */
#define NS_WALL_EXPLAIN 0x1u     /* names denials in finish() when the
				    policy has NS_POLICY_EXPLAIN */
#define NS_WALL_CAPS_NATIVE 0x2u /* enforces ns_policy's caps itself */
#define NS_WALL_CAPS_CPU 0x4u    /* 1.3: keeps ns_policy.cpu_percent */
#define NS_WALL_ACL_CALLER 0x8u  /* 1.3: honours ns_policy.acl ==
				    NS_ACL_CALLER (a wall that changes the
				    security of the write roots for a run
				    and can leave it to the caller) */
#define NS_WALL_PROTECT 0x10u    /* 1.4: keeps ns_policy.protect (or
				    refuses in prepare() where it cannot
				    here) */
#define NS_WALL_NETNS 0x20u      /* 1.5: keeps NS_POLICY_NET_PROXIED (a
				    network namespace with the listeners
				    of ns_policy.net_ports) */
#define NS_WALL_NET_LOOPBACK 0x40u /* 1.5: with NS_POLICY_NET_DENY, keeps
				    each net_allow "127.0.0.1:<port>"
				    reachable and nothing else (seatbelt's
				    loopback clause); the host then runs
				    the proxy on the host's loopback */

struct ns_wall_ops {
	uint32_t struct_size; /* sizeof(struct ns_wall_ops) as compiled */
	uint32_t shape;       /* enum ns_wall_shape */
	/* Platform data, NULL-terminated lists of absolute paths.  The host
	 * resolves them, skips the absent ones, and turns them into rules. */
	const char *const *read_roots;      /* OS roots: NS_ACCESS_READ_EXEC */
	const char *const *write_files;     /* devices: NS_ACCESS_WRITE_FILE */
	const char *const *optional_roots;  /* read roots kept only if present */
	const char *const *system_prefixes; /* a command under one of these
					       adds no optional root */
	const char *resolver_conf; /* e.g. "/etc/resolv.conf": the directory it
				      resolves into is a read root; or NULL */
	/* REQUIRED.  Say what the mechanism can do here.  MUST NOT change the
	 * calling process.  Returns NS_OK even when !available (the facts say
	 * so); an error return means the question itself failed. */
	int (*facts)(const struct ns_host *host, struct ns_wall_facts *out);
	/* REQUIRED.  Everything that can refuse BEFORE the host prints its OK
	 * line: privilege checks, enforceability, building the ruleset.  MUST
	 * NOT confine the calling process yet.  On NS_OK *state is the module's
	 * (may be NULL) and is passed to spawn()/release(). */
	int (*prepare)(const struct ns_host *host, const struct ns_policy *pol,
		       void **state);
	/* REQUIRED.  Write the policy as text, one host->text() call per line,
	 * byte-identical for the same policy on the same machine.  MUST NOT
	 * confine anything or run anything. */
	int (*render)(const struct ns_host *host, const struct ns_policy *pol);
	/* REQUIRED.  Start pol->command inside the wall with pol->argv,
	 * pol->envp and pol->cwd, descriptors as `launch` says and NO other
	 * descriptor open in the command.  Returns once the command is running
	 * (or failed to start: then NS_E_SYSTEM with refuse("sandbox_failed")).
	 * MAY confine the calling process (NS_SHAPE_RESTRICT_SELF): the host
	 * then runs nothing unwalled afterwards.  MAY be called more than once
	 * with the same state (the probe runs several walled steps). */
	int (*spawn)(const struct ns_host *host, void *state,
		     const struct ns_policy *pol, const struct ns_launch *launch,
		     struct ns_proc *out);
	/* OPTIONAL.  Free what prepare() made (see "release()" above). */
	void (*release)(const struct ns_host *host, void *state);
	/* 1.2 (all OPTIONAL: NULL or 0 means the 1.1 behaviour) */
	uint32_t features; /* NS_WALL_* */
	/* After the command's whole tree is gone and before the host prints
	 * DONE, once per spawn(), in the process that called spawn(): report
	 * what the wall refused through host->denial (only when the policy
	 * has NS_POLICY_EXPLAIN, or from a log the platform keeps anyway), or
	 * a host->note when the record is incomplete.  MUST NOT start
	 * anything that outlives the call or joins the command's tree (a
	 * bounded helper run to completion, e.g. a platform's log reader,
	 * is allowed).  Its return value is said, never changes the exit
	 * code. */
	int (*finish)(const struct ns_host *host, void *state,
		      const struct ns_finish *fin);
	/* For a wall that owns the process (NS_SHAPE_CONTAINER): wait up to
	 * timeout_ms (-1: no limit) for the command's whole tree to end, and
	 * say how the command itself ended (NS_END_RUNNING when the time ran
	 * out).  NULL: the host waits for proc->pid with waitpid().  A
	 * restrict-self wall may set it too (landlock.so traces the command
	 * under --explain): when wait is set, the host MUST NOT call
	 * waitpid() itself until wait() has returned the command's end (it
	 * would take a traced process's stop), and wait() reaps the orphans
	 * a subreaper gets as the host's own loop did.  A wall whose tree
	 * outlives the command returns the command's end when the time ran
	 * out after it; the host ends the leftovers as before. */
	int (*wait)(const struct ns_host *host, void *state,
		    const struct ns_proc *proc, int64_t timeout_ms,
		    struct ns_exit *out);
	/* End the command's whole tree now, why an NS_TERM_*, so that the
	 * platform says "ended by the tool" and not "exited 0".  NULL: the
	 * host signals the tree by pid. */
	int (*terminate)(const struct ns_host *host, void *state,
			 const struct ns_proc *proc, uint32_t why);
};

/* ------------------------------------------------------------------ */
/* Role: egress (the bench's outbound allowlist).                       */
/* The host renders and audits the plan text; the module owns the       */
/* kernel mechanism.  The plan text (apply's `plan`, read_live's lines) */
/* is the grammar of <ns_egress_plan.h>, part of this ABI.              */
/* ------------------------------------------------------------------ */

struct ns_egress_ops {
	uint32_t struct_size;
	/* REQUIRED.  Is the mechanism usable here (privilege, kernel)?  On
	 * NS_E_UNAVAILABLE the module said why through refuse(). */
	int (*ready)(const struct ns_host *host);
	/* REQUIRED.  Apply the audited plan text for run `run` atomically.  A
	 * table that already exists is refused, never appended to. */
	int (*apply)(const struct ns_host *host, const char *run,
		     const char *plan, size_t plan_len);
	/* REQUIRED.  Read the run's table back from the kernel and write it
	 * as plan text, one host->text() call per line. */
	int (*read_live)(const struct ns_host *host, const char *run);
	/* REQUIRED.  Remove the run's table; absent is NS_OK (idempotent). */
	int (*drop)(const struct ns_host *host, const char *run);
};

/* ------------------------------------------------------------------ */
/* Role: place (a disposable place per run).                            */
/*                                                                      */
/* The host's flow for `run` (docs/ABI.md "The place role"):            */
/*   supervisor (the tool; never walled):  look -> create -> fork the   */
/*   keeper -> [keeper: enter (when set) -> build the policy with       */
/*   place->root as the ONLY write root, work/ the cwd, home/ HOME,     */
/*   tmp/ TMPDIR -> wall.prepare -> fork init -> init: wall.spawn]      */
/*   -> supervise (timeout, signals, caps; used() through root_fd) ->   */
/*   kill every descendant of the tool -> handoff (--out) through       */
/*   root_fd -> used() -> destroy().                                    */
/* A place with enter (e.g. the Linux nsplace) exists only inside the    */
/* keeper's private namespaces and dies with it; a place without enter   */
/* (e.g. macOS apfsvol) is visible to everyone and create() makes it.    */
/* ------------------------------------------------------------------ */

struct ns_place_req {
	uint32_t struct_size;
	const char *name;    /* validated run name */
	uint64_t size_bytes; /* the cap */
	/* 1.3 (NS_PLACE_REQ_HAS_PARENT) */
	/* The directory to make the place in (`run --scratch`), or NULL: the
	 * place's own default (jobobject: the user's temp directory).  Set
	 * only for a place with NS_PLACE_PARENT.  The host resolved it (rule
	 * 5: absolute, existing, every link followed and said) and checked
	 * it is a directory the caller owns that no one else may change and
	 * not itself a link or reparse point; the place checks again on
	 * what it opens, makes the place in exactly that directory and MUST
	 * refuse ("bad_scratch") rather than make it elsewhere. */
	const char *parent;
};

struct ns_place {
	uint32_t struct_size;
	char root[512]; /* the place's root; work/ and home/ are beneath */
	char id[128];   /* what delete and the LEAK remedy name */
	char remedy[512]; /* the one command that removes it, for LEAK */
	void *state;      /* the module's */
	/* 1.1 */
	/* A descriptor (O_PATH|O_DIRECTORY) of root valid in the calling
	 * process, or -1.  The host sets -1 before create(); enter() MUST set
	 * it (opened inside the place, after mounting); the host then passes
	 * it to the supervisor (SCM_RIGHTS) and sets it there before used()
	 * and destroy().  For a place without enter the host opens root
	 * itself after create(), and closes it again BEFORE destroy() (an open
	 * descriptor keeps a volume busy).  The host closes it; destroy() MUST
	 * NOT. */
	int32_t root_fd;
	/* A directory the place hides from the command (mounted over), or ""
	 * (create() fills it).  The host refuses a --read or a command beneath
	 * it, because it would not be there inside. */
	char hidden[256];
};

struct ns_place_ops {
	uint32_t struct_size;
	/* REQUIRED.  Does a place of that name exist?  *exists = 0 or 1. */
	int (*look)(const struct ns_host *host, const char *name, int *exists);
	/* REQUIRED.  Make it (with enter: reserve the name and fill root, id,
	 * remedy, hidden; enter() makes it); on failure nothing is left.  A
	 * name taken between look() and create() is refused with the reason
	 * "volume_exists". */
	int (*create)(const struct ns_host *host,
		      const struct ns_place_req *req, struct ns_place *out);
	/* REQUIRED.  Bytes in use now (place->root_fd is set when >= 0). */
	int (*used)(const struct ns_host *host, const struct ns_place *place,
		    uint64_t *bytes);
	/* REQUIRED.  Kill what holds it and delete it; NS_OK only when gone.
	 * For a place from list() (reap) state is NULL and root_fd -1: id and
	 * root are all it has. */
	int (*destroy)(const struct ns_host *host, struct ns_place *place);
	/* REQUIRED.  Places a dead run left: one host->text() line per place,
	 * "name=<n> id=<id> root=<root> owner=<pid> start=<start>" (1.1; the
	 * 1.0 line had no root=).  name is the place's own name as the system
	 * knows it ("nova-<run name>": the host skips any other); name, id and
	 * root hold no whitespace;
	 * owner is "-" when the owner marker is missing or garbage; start is
	 * the rest of the line (may hold spaces), "-" when unknown.  A place
	 * that can outlive no run (nsplace) lists nothing. */
	int (*list)(const struct ns_host *host);
	/* 1.1 */
	/* OPTIONAL.  Runs in the keeper: a child the host forked for this
	 * run, which does nothing else.  Move the calling process into the
	 * place: private namespaces, mount it at place->root with work/ and
	 * home/ (0700) and tmp/ beneath, set place->root_fd.  The module MAY
	 * unshare, mount and change the caller's credentials; on NS_OK the
	 * caller's credentials are the ones the command runs with (never euid
	 * 0: the wall refuses root).  The host sets PR_SET_PDEATHSIG after it
	 * returns.  Its children form the run; when the keeper dies (even by
	 * SIGKILL of the tool) the place MUST go with it.  NULL: the place is
	 * made by create() and is visible to everyone (apfsvol). */
	int (*enter)(const struct ns_host *host, struct ns_place *place);
	/* OPTIONAL.  Processes holding a place (reap): up to `cap` pids into
	 * pids, the total into *n (may exceed cap).  NULL: none known. */
	int (*holders)(const struct ns_host *host, const struct ns_place *place,
		       int64_t *pids, size_t cap, size_t *n);
	/* OPTIONAL.  The start time of `pid` in the form the owner marker
	 * holds (list()'s start=), into out (NUL-terminated).  NS_E_UNAVAILABLE
	 * when it cannot be read (the host then counts the owner as live).
	 * NULL: never readable. */
	int (*proc_start)(const struct ns_host *host, int64_t pid, char *out,
			  size_t outlen);
	/* 1.3 (both zero in an older table) */
	uint32_t features; /* NS_PLACE_* */
	uint32_t reserved; /* 0; keeps the next append off the padding */
};

/* 1.3: ns_place_ops.features bits. */
#define NS_PLACE_PARENT 0x1u /* takes ns_place_req.parent (--scratch) */

/* ------------------------------------------------------------------ */
/* Role: proxy (1.5; the filtering proxy behind --net-allow).           */
/*                                                                      */
/* The host forks a child for the proxy alone and calls serve() there;  */
/* serve() walls the calling process (its own process: no filesystem    */
/* beyond what name resolution needs, a syscall filter, bounded memory  */
/* and connections) BEFORE it reads any byte from a listener, then      */
/* serves until stop_fd reads end-of-file.  The host _exit()s the child */
/* when serve() returns.  What the proxy parses is the adversary's.     */
/* ------------------------------------------------------------------ */

/* What one --net-allow entry names (the host parsed and checked it). */
enum ns_net_kind {
	NS_NET_NAME = 1,    /* exactly this DNS name */
	NS_NET_SUFFIX = 2,  /* "*.<name>": any name strictly below name */
	NS_NET_ADDR = 3,    /* an IP address or a CIDR: addr, fam, plen */
	NS_NET_LOOPBACK = 4 /* a service on the host's loopback, bridged as
			       is (no protocol): only port */
};

/* One entry.  Like ns_rule it never grows: a later minor adds a new
 * array instead. */
struct ns_net_entry {
	uint32_t kind;    /* enum ns_net_kind */
	uint16_t port;    /* 1..65535 */
	uint8_t fam;      /* NS_NET_ADDR: 4 or 6, else 0 */
	uint8_t plen;     /* NS_NET_ADDR: prefix length (32/128: one) */
	uint8_t addr[16]; /* NS_NET_ADDR: network order, v4 in addr[0..3] */
	const char *name; /* NAME/SUFFIX: lowercase ASCII, no trailing dot,
			     no "*."; else NULL */
	const char *text; /* the entry as the user wrote it */
};

/* The proxy's report_fd carries one line per event, '\n'-terminated,
 * fields separated by one space, no field empty or holding a space:
 *   deny <host> <port> <why> [<addr>]
 *     a refused request; host as the client asked (a name, lowercase,
 *     or an address), why one of: not_allowed (no entry names it),
 *     port (an entry names the host, not this port), private (it
 *     resolves to a loopback, private or link-local address no entry
 *     names: addr is that address), sni (the TLS ClientHello names
 *     another host), bad_request (not a request the proxy speaks);
 *   fail <host> <port> <why>
 *     an allowed request that could not be served (resolve, refused,
 *     unreachable: why is a short token);
 *   note <text>
 *     information for the user (the rest of the line).
 * The proxy says each distinct (host, port, why) at most once. */

struct ns_proxy_conf {
	uint32_t struct_size;
	uint32_t flags;                   /* 0 */
	const struct ns_net_entry *allow; /* every --net-allow entry */
	size_t n_allow;
	/* Listeners arrive here (ns_policy.net_sink's other end, or the
	 * host's own on its loopback): one message per socket, a uint16_t
	 * port + one SCM_RIGHTS descriptor, until end-of-file.  The socket
	 * on proxy_port speaks HTTP (CONNECT and absolute-URI requests) and
	 * SOCKS5; one on any other port bridges each connection as is to
	 * the host's 127.0.0.1:<that port> (an NS_NET_LOOPBACK entry). */
	int32_t sink_fd;
	int32_t report_fd; /* write-only; the lines above */
	int32_t stop_fd;   /* read end: end-of-file means stop now */
	uint16_t proxy_port;
	uint16_t reserved; /* 0 */
	uint32_t max_conns;     /* client connections open at once */
	uint32_t reserved2;     /* 0; no hole before the next member */
	uint64_t max_mem_bytes; /* the proxy process's address space */
};

struct ns_proxy_ops {
	uint32_t struct_size;
	/* REQUIRED.  Can the proxy run (and wall itself) here?  On
	 * NS_E_UNAVAILABLE the module said why through refuse().  MUST NOT
	 * change the calling process. */
	int (*ready)(const struct ns_host *host);
	/* REQUIRED.  In the child the host forked for it; every descriptor
	 * but conf's and 0-2 (/dev/null) is closed.  Returns when stop_fd
	 * reads end-of-file (NS_OK) or on a failure it said through
	 * refuse() (which the host reads from report_fd as "note"). */
	int (*serve)(const struct ns_host *host,
		     const struct ns_proxy_conf *conf);
};

/* ------------------------------------------------------------------ */
/* The one exported descriptor.                                         */
/* ------------------------------------------------------------------ */

struct ns_backend_ops {
	/* header: validated before anything else is read */
	uint32_t magic;       /* NS_BACKEND_MAGIC */
	uint16_t abi_major;   /* NS_BACKEND_ABI_MAJOR the module was built for */
	uint16_t abi_minor;   /* the lowest host minor it needs (1.2:
				 NS_MODULE_REQUIRES_MINOR; before: the
				 header's minor, the same rule) */
	uint32_t struct_size; /* sizeof(struct ns_backend_ops) as compiled */
	uint32_t roles;       /* NS_ROLE_* bits; each set bit's table MUST be
				 non-NULL */
	const char *name;     /* short, [a-z0-9_-]+, e.g. "landlock" */
	const char *version;  /* the module's own version, e.g. "0.1.0" */
	const char *summary;  /* one line for `nova-sandbox modules` */
	/* NULL-terminated list of the option keys the module accepts in its
	 * config section; a key not listed is refused by the host, file:line. */
	const char *const *options;
	const struct ns_wall_ops *wall;
	const struct ns_egress_ops *egress;
	const struct ns_place_ops *place;
	/* 1.2 */
	uint16_t built_minor; /* NS_BACKEND_ABI_MINOR of the header it was
				 built with (abi_minor is what it needs) */
	/* 1.5 */
	const struct ns_proxy_ops *proxy;
};

/* Fill the header from the header the module is compiled against; module
 * authors never type version numbers. */
#define NS_BACKEND_HEADER                                                   \
	.magic = NS_BACKEND_MAGIC, .abi_major = NS_BACKEND_ABI_MAJOR,       \
	.abi_minor = NS_MODULE_REQUIRES_MINOR,                              \
	.struct_size = sizeof(struct ns_backend_ops),                       \
	.built_minor = NS_BACKEND_ABI_MINOR

#define NS_BACKEND_DEFINE                                                   \
	NS_BACKEND_EXPORT extern const struct ns_backend_ops ns_backend_v1; \
	NS_BACKEND_EXPORT const struct ns_backend_ops ns_backend_v1

/* Sizes of the 1.0 structs: the smallest struct_size the host accepts. */
#define NS_BACKEND_OPS_SIZE_1_0 (offsetof(struct ns_backend_ops, place) + sizeof(void *))
#define NS_WALL_OPS_SIZE_1_0 (offsetof(struct ns_wall_ops, release) + sizeof(void *))
#define NS_EGRESS_OPS_SIZE_1_0 (offsetof(struct ns_egress_ops, drop) + sizeof(void *))
#define NS_PLACE_OPS_SIZE_1_0 (offsetof(struct ns_place_ops, list) + sizeof(void *))
#define NS_PLACE_SIZE_1_0 (offsetof(struct ns_place, state) + sizeof(void *))

/* Sizes of the 1.1 structs. */
#define NS_PLACE_OPS_SIZE_1_1 (offsetof(struct ns_place_ops, proc_start) + sizeof(void *))
#define NS_PLACE_SIZE_1_1 (offsetof(struct ns_place, hidden) + 256)
#define NS_POLICY_SIZE_1_1 (offsetof(struct ns_policy, cwd_fd) + sizeof(void *))

/* Sizes of the 1.1 structs 1.2 grew, and of the 1.2 ones. */
#define NS_BACKEND_OPS_SIZE_1_1 NS_BACKEND_OPS_SIZE_1_0
#define NS_WALL_OPS_SIZE_1_1 NS_WALL_OPS_SIZE_1_0
#define NS_HOST_SIZE_1_1 (offsetof(struct ns_host, option) + sizeof(void *))
#define NS_WALL_OPS_SIZE_1_2 (offsetof(struct ns_wall_ops, terminate) + sizeof(void *))
#define NS_HOST_SIZE_1_2 (offsetof(struct ns_host, denial) + sizeof(void *))
#define NS_HOST_HAS_DENIAL(h)                                               \
	((h)->struct_size >= NS_HOST_SIZE_1_2 && (h)->denial != NULL)

/* Sizes of the 1.2 structs 1.3 grew, and of the 1.3 ones. */
#define NS_POLICY_SIZE_1_2 (offsetof(struct ns_policy, timeout_ms) + sizeof(int64_t))
#define NS_PLACE_REQ_SIZE_1_2 (offsetof(struct ns_place_req, size_bytes) + sizeof(uint64_t))
#define NS_PLACE_OPS_SIZE_1_2 NS_PLACE_OPS_SIZE_1_1
#define NS_POLICY_SIZE_1_3 (offsetof(struct ns_policy, acl) + sizeof(uint32_t))
#define NS_PLACE_REQ_SIZE_1_3 (offsetof(struct ns_place_req, parent) + sizeof(void *))
#define NS_PLACE_OPS_SIZE_1_3 (offsetof(struct ns_place_ops, reserved) + sizeof(uint32_t))
#define NS_PLACE_REQ_HAS_PARENT(r)                                          \
	((r)->struct_size >= NS_PLACE_REQ_SIZE_1_3)

/* Sizes of the 1.3 struct 1.4 grew, and of the 1.4 one. */
#define NS_POLICY_SIZE_1_4 (offsetof(struct ns_policy, protect_fds) + sizeof(void *))

/* Sizes of the 1.4 structs 1.5 grew, and of the 1.5 ones. */
#define NS_BACKEND_OPS_SIZE_1_4 (offsetof(struct ns_backend_ops, built_minor) + sizeof(uint16_t))
#define NS_POLICY_SIZE_1_5 (offsetof(struct ns_policy, reserved15) + sizeof(uint32_t))
#define NS_PROXY_OPS_SIZE_1_5 (offsetof(struct ns_proxy_ops, serve) + sizeof(void *))

#ifdef __cplusplus
}
#endif

#endif /* NS_BACKEND_H */
