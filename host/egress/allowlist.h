/* SPDX-License-Identifier: MIT */
/* allowlist.h -- the platform-independent half of the egress wall: the
 * reviewed allowlist (infra/image/egress.txt), the plan (resolve, pin,
 * render) and the auditor that `check --plan` and `check --live` share.
 * Nothing here touches the kernel; the module does (api/ns_backend.h,
 * struct ns_egress_ops).  Reference: docs/SPEC-SANDBOX.md "Egress". */
#ifndef NS_HOST_EGRESS_ALLOWLIST_H
#define NS_HOST_EGRESS_ALLOWLIST_H

#include <stddef.h>

#include "ns_egress_plan.h"
#include "base/remedy.h"
#include "base/util.h"

#define EGRESS_RUN_MAX 32
#define EGRESS_MAX_ADDRS 4096
#define EGRESS_PER_NAME 64
#define EGRESS_PER_NAME_MAX 256

/* The three names every run gets; asserted present in the policy file. */
extern const char *const egress_base_names[];

/* The resolver seam: every address `name` has (A and AAAA) into out (at
 * most max), *n set.  0, or -1 with *why (heap) set.  On 0, *why may be
 * set (heap) too: a note (one family failed, the other's addresses are
 * all there is), said as an EGRESS NOTE naming the host.  The production
 * body is egress_dns_lookup (a real query to the resolver on port 53). */
typedef int (*egress_lookup_fn)(void *ctx, const struct ns_egress_addr *resolver,
				const char *name, struct ns_egress_addr *out,
				size_t max, size_t *n, char **why);

int egress_dns_lookup(void *ctx, const struct ns_egress_addr *resolver,
		      const char *name, struct ns_egress_addr *out, size_t max,
		      size_t *n, char **why);
/* The DNS wire parts, exposed for the unit suite.  query: a query for
 * name/qtype with id into buf; returns its length or -1.  parse: the
 * reply m to the query q (as sent): 0 with the A (qtype 1) or AAAA (28)
 * records of the asked name and of the CNAME chain from it (zero records
 * is ok; records for any other name are ignored); -2 when m is not a reply
 * to q (another id, no QR bit, a question that is not q's name, type and
 * class); -1 with *why (static text) for a reply that fails (an rcode, TC,
 * malformed).  ask: send q on the connected datagram socket fd and wait
 * up to timeout_ms for its reply, re-sending every 2 s of silence (a
 * datagram that is not the reply is dropped, nothing is re-sent for it);
 * 0 or -1 with *why. */
int egress_dns_query(unsigned id, const char *name, int qtype,
		     unsigned char *buf, size_t n);
int egress_dns_parse(const unsigned char *m, size_t len,
		     const unsigned char *q, size_t qlen,
		     struct ns_egress_addr *out, size_t max, size_t *n,
		     const char **why);
int egress_dns_ask(int fd, const char *name, int qtype, long timeout_ms,
		   struct ns_egress_addr *out, size_t max, size_t *n,
		   const char **why);
/* Both questions (A, then AAAA) for name on the connected datagram socket
 * fd, within timeout_ms in all: what egress_dns_lookup does once it has
 * its socket.  0 with *n addresses (and *why NULL, or a heap note when one
 * family failed and the other answered), or -1 with *why (heap). */
int egress_dns_resolve(int fd, const char *name, long timeout_ms,
		       struct ns_egress_addr *out, size_t max, size_t *n,
		       char **why);

/* One allowance of the policy file: a name's or an address's TCP port.
 * A line is "<name>" (port 443), "<name>:<port>", "<ipv4>:<port>" or
 * "[<ipv6>]:<port>"; an address may be loopback (127.0.0.0/8 one address,
 * ::1): that is how a server or resolver on loopback is allowed. */
struct egress_allow {
	char name[254];              /* the DNS name; "" for an address */
	struct ns_egress_addr addr;  /* an address line: fam 4 or 6 */
	int port;                    /* tcp 1..65535 */
};

struct egress_allows {
	struct egress_allow *v;
	size_t n, cap;
	int failed;                  /* an allocation failed: never a plan */
};
void egress_allows_free(struct egress_allows *a);
/* Is a one loopback address (127.0.0.0/8, ::1)? */
int egress_addr_loopback(const struct ns_egress_addr *a);

/* The policy file's text into names (lowercased, deduplicated, in file
 * order) and, when allows is not NULL, every (name or address, port) it
 * allows (deduplicated, in file order).  Every bad line is a refusal
 * (bad_policy) naming path:line and the form it wanted.  Returns the
 * number of refusals added, -1 on ENOMEM. */
int egress_parse_policy(const char *path, const char *text, size_t len,
			struct strv *names, struct egress_allows *allows,
			struct refusals *r);
/* A DNS name as the policy wants it (lowercase already). */
int egress_name_ok(const char *s);
/* 1..32 of [A-Za-z0-9_]. */
int egress_run_ok(const char *s);
/* 1..15 of [A-Za-z0-9-_.@]. */
int egress_veth_ok(const char *s);
/* "nova_egress_<run>" into buf. */
void egress_table_name(const char *run, char *buf, size_t n);

struct egress_input {
	const char *run;
	const char *policy_path;  /* named in the header */
	struct strv names;        /* the policy's names (owned by caller) */
	/* the policy's ports and address lines (owned by caller); NULL:
	 * every name on tcp 443 alone, no address line */
	const struct egress_allows *allows;
	const char *model_host;   /* NULL when not given */
	struct ns_egress_addr resolver;    /* fam 0: missing */
	struct ns_egress_addr *cidrs;      /* the bench CIDRs */
	size_t n_cidrs;
	const char *uid;          /* NULL or digits */
	const char *veth;         /* NULL or a name */
	egress_lookup_fn lookup;
	void *lookup_ctx;
	/* called around the DNS phase (may be NULL): the STEP lines */
	void (*step)(void *ctx, int done, long ms);
	void *step_ctx;
	/* addresses pinned per name: 0 is EGRESS_PER_NAME (what the verbs
	 * use); at most EGRESS_PER_NAME_MAX (tests/bench renders bigger
	 * plans through the same renderer with it) */
	size_t per_name;
	/* the caller's command line, for the fixed line a refusal of
	 * egress_check_input ends with (NULL: the text alone) */
	const struct cmdline *line;
};

struct egress_plan {
	char table[64];
	struct strv names;  /* allowed, in order */
	struct strv notes;  /* NOTE texts, in order (names left out, a
			       family that failed) */
	size_t allow, deny;
	struct sbuf text;
};

/* Phase 2 of plan: the input-only checks (before any DNS).  Adds
 * refusals; returns how many. */
int egress_check_input(const struct egress_input *in, struct refusals *r);
/* Resolve, pin, refuse pins in denied ranges, render.  Returns 0, or 1
 * with refusals (resolve_failed, bad_address), -1 on ENOMEM (r is then
 * refusals_failed; a failed in->names fails the same way). */
int egress_build(const struct egress_input *in, struct egress_plan *p,
		 struct refusals *r);
void egress_plan_free(struct egress_plan *p);

/* Write the plan text to path, mode 0600, all or nothing: a temporary
 * file in path's directory (which must exist; never created), written,
 * fsynced and renamed over path; on any failure nothing is left and path
 * is untouched.  A symlink at path is replaced, never followed.  0, or -1
 * with *why (heap) set. */
/* Before any name is resolved: can the plan be written to path (its
 * directory exists, path is not a directory, a file can be made beside
 * it; the one made is removed)?  0, or -1 with *why (heap). */
int egress_check_out(const char *path, char **why);
int egress_write_plan(const char *path, const char *text, size_t len,
		      char **why);

/* The ranges a pin (and the resolver) must never fall in. */
int egress_addr_denied(const struct ns_egress_addr *a, const struct ns_egress_addr *cidrs,
		       size_t n_cidrs, const char **what);
/* Range i of that list into *out: 1 when the plan denies it in every
 * chain, 0 when it is only refused as a rule's address, -1 past the end. */
int egress_deny_range(size_t i, struct ns_egress_addr *out);

struct egress_audit {
	char table[80];
	size_t chains, rules, allow, deny;
};

/* The auditor: parse plan text back and assert the invariants.  Adds one
 * refusal per problem (bad_table, bad_chain, bad_rule, unscoped_rule,
 * allow_any, allow_port, no_default_deny, no_metadata_deny,
 * deny_after_accept).  Returns the
 * number added, -1 on ENOMEM. */
int egress_audit(const char *text, size_t len, struct egress_audit *a,
		 struct refusals *r);
/* The lowest ABI minor whose grammar has every line of the plan: 5 when
 * it holds a 1.5 form (a reject verdict, meta l4proto tcp), else 0. */
int egress_plan_minor(const char *text, size_t len);
/* The plan's lines as canonical text (no comments, no indentation), for
 * comparing a plan with what the kernel holds.  NULL on a bad line/ENOMEM. */
char *egress_canonical(const char *text, size_t len);

#endif
