/* SPDX-License-Identifier: MIT */
/* ll_audit.h -- landlock.so's second source of denials: the kernel's
 * Landlock audit records (ABI 7: AUDIT_LANDLOCK_ACCESS and
 * AUDIT_LANDLOCK_DOMAIN), read from the audit netlink multicast group.
 * Only where the tool can read them (CAP_AUDIT_READ), audit is on, and the
 * process that confines itself is in the initial PID namespace (the
 * records name pids there). */
#ifndef NS_LL_AUDIT_H
#define NS_LL_AUDIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ns_backend.h"

struct ll_trace;

/* What the audit source can be here, for `check` and for prepare(). */
enum ll_audit_state {
	LL_AUDIT_NO_CAP = 0, /* no CAP_AUDIT_READ */
	LL_AUDIT_NOT_HERE,   /* not the initial PID namespace: the records'
				pids are not this process's */
	LL_AUDIT_OFF,        /* readable, but audit is off: no records */
	LL_AUDIT_UNKNOWN,    /* readable; whether audit is on cannot be asked */
	LL_AUDIT_ON          /* readable and on */
};
enum ll_audit_state ll_audit_state(void);

#define LL_AUDIT_DOMAINS 16

/* The source for one prepare() .. release(): the listening socket and the
 * domains this process made, as their records named them (a domain's
 * record comes once, with its first denial: the probe's later steps need
 * it remembered). */
struct ll_audit {
	int fd; /* non-blocking, close-on-exec; -1: not usable here */
	uint64_t dom[LL_AUDIT_DOMAINS];
	size_t ndom;
};

/* Open the listening socket before the command starts (a->fd -1 when the
 * source is not usable here). */
void ll_audit_open(struct ll_audit *a);
void ll_audit_close(struct ll_audit *a);

/* After the command's tree is gone: read what the kernel logged for the
 * domains `self` (the pid that called landlock_restrict_self) made,
 * excluding `self`'s own calls, and report each through host->denial
 * (those `trace` already named are left to it; trace may be NULL), with
 * a NOTE saying where they came from and when records were lost.  The
 * count of lines reported. */
size_t ll_audit_report(const struct ns_host *host, struct ll_audit *a,
		       pid_t self, const struct ll_trace *trace);

/* ---- pure helpers, for the unit suite ---- */

/* One audit record, as the multicast group delivers it. */
struct ll_arec {
	uint64_t serial; /* the event ("audit(<time>:<serial>)") */
	uint64_t domain; /* 1423/1424: domain=<hex> */
	pid_t pid;       /* 1424: the domain's creator; 1300: the caller */
	int allocated;   /* 1424: status=allocated */
	uint32_t op;     /* 1423: NS_OP_* of the first blocker */
	int mode;        /* 1423: the faccessat mode DAC must allow, or -1 */
	char blocker[40];
	char path[4096]; /* 1423: the object ("" when none) */
};

/* Parse the text of a record of audit type `type` (n bytes, need not end
 * in NUL): 0 with *out filled, -1 when it is not one this source uses or
 * is malformed. */
int ll_audit_parse(int type, const char *text, size_t n, struct ll_arec *out);

/* The text length of a record datagram of `got` bytes (>= the netlink
 * header) whose header says nlmsg_len. */
size_t ll_audit_text_len(uint32_t nlmsg_len, size_t got);

/* The value of key in text (n bytes) decoded into out: a "quoted" value,
 * an audit hex string, or a plain word.  0, or -1 when absent, malformed
 * or too long. */
int ll_audit_field(const char *text, size_t n, const char *key, char *out,
		   size_t outn);

#endif
