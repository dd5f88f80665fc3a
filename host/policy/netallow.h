/* SPDX-License-Identifier: MIT */
/* netallow.h -- the --net-allow entry grammar (docs/SPEC-SANDBOX.md rule
 * 7): one entry's text into an ns_net_entry (api/ns_backend.h, ABI 1.5),
 * and --net-allow-file's lines.  Pure: no socket, no name resolution. */
#ifndef NS_HOST_POLICY_NETALLOW_H
#define NS_HOST_POLICY_NETALLOW_H

#include <stddef.h>

#include "ns_backend.h"
#include "base/util.h"

/* The wanted form, as every bad_net refusal of an entry says it. */
#define NETALLOW_FORM                                                       \
	"<host>[:<port>]: a DNS name, *.<suffix> (a suffix of two labels "  \
	"or more), an IP address or a CIDR ([<IPv6>]:<port> in brackets), " \
	"the port 1-65535 (default 443; localhost, 127.0.0.1 and [::1] "    \
	"need theirs)"
#define NETALLOW_TEXT_MAX 300       /* bytes of one entry */
#define NETALLOW_FILE_MAX 1048576u  /* bytes of one --net-allow-file */
#define NETALLOW_MAX 4096u          /* entries of one run */
#define NETALLOW_DEFAULT_PORT 443u

/* The entries of one run, in the order given.  Each entry's name and
 * text are the list's (heap). */
struct net_list {
	struct ns_net_entry *v;
	size_t n, cap;
};

/* Parse one entry: 0 with *e filled (e->text and e->name heap: free with
 * netallow_entry_free), 1 when it is not one (*why one static phrase
 * saying what is wrong, e.g. "the port must be 1-65535"), -1 ENOMEM. */
int netallow_parse(const char *text, struct ns_net_entry *e,
		   const char **why);
void netallow_entry_free(struct ns_net_entry *e);
/* Parse text and append it: netallow_parse's codes. */
int net_list_add(struct net_list *l, const char *text, const char **why);
void net_list_free(struct net_list *l);
/* How many entries go through the proxy (every kind but loopback). */
size_t net_list_proxied(const struct net_list *l);
/* "name", "suffix", "addr" or "loopback". */
const char *netallow_kind(uint32_t kind);

/* --net-allow-file: open path fd-first (the last component never
 * followed, a regular file of at most NETALLOW_FILE_MAX bytes) and push
 * each entry line (blank lines and '#' comments skipped, the line's
 * spaces around the entry dropped) to lines, "<path>:<n>" to where.
 * 0, 1 when the file cannot be used (*why heap: the sentence), -1. */
int netallow_file(const char *path, struct strv *lines, struct strv *where,
		  char **why);

#endif
