/* SPDX-License-Identifier: MIT */
/* reap.h -- the `reap` verb's pure parts (reference section 9), defined
 * in verbs/reap.c and tested on their own (tests/unit/test_run.c). */
#ifndef NS_HOST_VERBS_REAP_H
#define NS_HOST_VERBS_REAP_H

#include <stddef.h>
#include <stdint.h>

#define REAP_REMEDY "run: nova-sandbox reap [--dry-run]"

/* One line of place.list(): "name=<n> id=<id> root=<root> owner=<pid>
 * start=<rest of line>" (root= may be absent: a 1.0 module).  Pointers
 * into `line`, which is modified.  0, or -1 when malformed. */
struct reap_entry {
	char *name, *id, *root, *start;
	long owner;   /* -1: no (or a garbage) owner marker */
};
int reap_parse_line(char *line, struct reap_entry *e);

/* Is the owner live?  alive: kill(owner, 0) found it (or EPERM);
 * start_rc: 0 when `now` holds its start time, else unreadable.  A pid
 * alive with an unreadable start counts as live; a missing marker or a
 * changed start time (a recycled pid) is an orphan. */
int reap_is_live(const struct reap_entry *e, int alive, int start_rc,
		 const char *now);

/* After SIGTERM to a place's holders: wait until every one of them is
 * gone (polling), at most ms.  pid 1, pids below and the calling process
 * are never waited for (never signalled).  The number still alive. */
size_t reap_grace(const int64_t *pids, size_t n, unsigned ms);

#endif
