/* SPDX-License-Identifier: MIT */
/* sb_profile.c -- the SBPL profile of one policy.
 *
 * THE ONE RULE: no path is ever in the text.  Every path -- each rule the
 * host resolved (realpath'd again here, because seatbelt matches the name
 * the kernel resolved: /tmp/x never matches, /private/tmp/x does), every
 * ancestor of one, and the few fixed paths of the baseline -- reaches
 * sandbox-exec as `-D NAME=value` and the text says (param "NAME").  A
 * directory called `x")) (allow default) (("` is then a directory and
 * nothing else.  The text holds no '/' at all, which the suite asserts.
 *
 * Order matters in SBPL (the last matching rule wins): the allows, then
 * the read-noexec denials (a --read-noexec inside a --read stays without
 * exec), then the metadata of the ancestors, then the network section,
 * and LAST the protected paths (ABI 1.4): denials no allow after them can
 * reopen. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "banned.h"
#include "sb.h"

/* ---- the baseline (docs/SPEC-SANDBOX.md "darwin: seatbelt.dylib") ----- */

/* What a normal program needs under (deny default); the union of the
 * anchors' measured lists (Chromium's sysctl list, Codex's, Nix's). */
static const char *const base_clauses[] = {
	"(allow process-fork)",
	"(allow signal (target same-sandbox))",
	"(allow process-info* (target same-sandbox))",
	"(allow user-preference-read)",
	"(allow ipc-posix-sem)",
	"(allow ipc-posix-shm)",
	"(allow pseudo-tty)",
	"(allow iokit-open (iokit-registry-entry-class \"RootDomainUserClient\"))",
	NULL
};

static const char *const sysctls[] = {
	"hw.activecpu", "hw.busfrequency_compat", "hw.byteorder",
	"hw.cacheconfig", "hw.cachelinesize_compat", "hw.cpufamily",
	"hw.cpufrequency", "hw.cpufrequency_compat", "hw.cputype",
	"hw.l1dcachesize_compat", "hw.l1icachesize_compat",
	"hw.l2cachesize_compat", "hw.l3cachesize_compat", "hw.logicalcpu",
	"hw.logicalcpu_max", "hw.machine", "hw.model", "hw.memsize",
	"hw.ncpu", "hw.nperflevels", "hw.packages", "hw.pagesize",
	"hw.pagesize_compat", "hw.physicalcpu", "hw.physicalcpu_max",
	"hw.tbfrequency_compat", "hw.vectorunit", "machdep.cpu.brand_string",
	"kern.argmax", "kern.hostname", "kern.maxfilesperproc", "kern.maxproc",
	"kern.osproductversion", "kern.osrelease", "kern.ostype",
	"kern.osvariant_status", "kern.osversion", "kern.secure_kernel",
	"kern.usrstack64", "kern.version", "sysctl.proc_cputype", "vm.loadavg",
	NULL
};

static const char *const sysctl_prefixes[] = {
	"hw.optional.arm.", "hw.optional.armv8_", "hw.perflevel",
	"kern.proc.pid.", "kern.proc.pgrp.", NULL
};

/* Never widened by any flag: --gpu metal adds nothing here. */
static const char *const mach_base[] = {
	"com.apple.system.opendirectoryd.libinfo",
	"com.apple.system.opendirectoryd.membership",
	"com.apple.system.logger", "com.apple.logd",
	"com.apple.system.notification_center", "com.apple.bsd.dirhelper",
	"com.apple.sysmond", "com.apple.PowerManagement.control", NULL
};

/* Only when the network is not denied: name resolution and TLS. */
static const char *const mach_net[] = {
	"com.apple.SystemConfiguration.DNSConfiguration",
	"com.apple.SystemConfiguration.configd", "com.apple.mDNSResponder",
	"com.apple.networkd", "com.apple.trustd", "com.apple.trustd.agent",
	"com.apple.SecurityServer", "com.apple.ocspd", NULL
};

/* Fixed paths of the baseline, parameters like every other path.  Links
 * are named as links (their own metadata), so they are not realpath'd. */
struct fixed {
	const char *name;
	const char *path;
	const char *ops;
	const char *shape;
};

static const struct fixed fixed[] = {
	{ "DEVFD", "/dev/fd", "file-read* file-write-data", "subpath" },
	{ "LETC", "/etc", "file-read-metadata", "literal" },
	{ "LTMP", "/tmp", "file-read-metadata", "literal" },
	{ "LVAR", "/var", "file-read-metadata", "literal" },
	{ "LXSL", "/private/var/db/xcode_select_link", "file-read*", "literal" },
	{ "LVOL", "/System/Volumes", "file-read-metadata", "literal" },
	{ "LDATA", "/System/Volumes/Data", "file-read-metadata", "literal" },
};
#define N_FIXED (sizeof(fixed) / sizeof(fixed[0]))

/* ---- buffers ----------------------------------------------------------- */

static int
grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *nv;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	nv = realloc(*v, n * elem);
	if (nv == NULL)
		return -1;
	*v = nv;
	*cap = n;
	return 0;
}

static void
line(struct sb_prof *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
line(struct sb_prof *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow((void **)&p->text, &p->cap, p->len + (size_t)n + 2,
			  1) != 0) {
		p->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(p->text + p->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	p->len += (size_t)n;
	p->text[p->len++] = '\n';
	p->text[p->len] = '\0';
}

/* A new parameter <kind><index>: its reference "(param \"NAME\")" goes
 * into ref.  -1 when out of memory. */
static int
param(struct sb_prof *p, const char *kind, const char *value, char *ref,
      size_t reflen)
{
	struct sb_param *q;

	if (p->oom || grow((void **)&p->params, &p->pcap, p->n + 1,
			   sizeof(*p->params)) != 0) {
		p->oom = 1;
		return -1;
	}
	q = &p->params[p->n];
	snprintf(q->name, sizeof(q->name), "%s%zu", kind, p->n);
	q->value = strdup(value);
	if (q->value == NULL) {
		p->oom = 1;
		return -1;
	}
	p->n++;
	snprintf(ref, reflen, "(param \"%s\")", q->name);
	return 0;
}

const char *
sb_value_bad(const char *v)
{
	size_t n;

	if (v == NULL || v[0] != '/')
		return "is not an absolute path";
	n = strlen(v);
	if (n >= PATH_MAX)
		return "is longer than PATH_MAX";
	if (n > 1 && v[n - 1] == '/')
		return "ends in a slash (seatbelt's subpath matches no such name)";
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "holds a control character (a newline would "
			       "split a -D parameter)";
	return NULL;
}

/* ---- the rules --------------------------------------------------------- */

struct gen {
	struct sb_prof *p;
	char **real;   /* pol->rules[i].path, realpath'd */
	size_t n;
	char *err;
	size_t errlen;
};

static int
fail(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
fail(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, g->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int
resolve_rules(struct gen *g, const struct ns_policy *pol)
{
	const char *why;

	g->real = calloc(pol->n_rules ? pol->n_rules : 1, sizeof(char *));
	if (g->real == NULL)
		return g->p->oom = 1, fail(g, "out of memory");
	g->n = pol->n_rules;
	for (size_t i = 0; i < pol->n_rules; i++) {
		const char *path = pol->rules[i].path;

		if ((why = sb_value_bad(path)) != NULL)
			return fail(g, "the path '%s' %s; seatbelt passes "
				    "every path as a -D parameter", path, why);
		g->real[i] = realpath(path, NULL);
		if (g->real[i] == NULL)
			return fail(g, "cannot resolve '%s' for the seatbelt "
				    "profile: %s", path, strerror(errno));
		if ((why = sb_value_bad(g->real[i])) != NULL)
			return fail(g, "'%s' resolves to a path that %s", path,
				    why);
	}
	return 0;
}

/* The operations each access class gets, by the rule's own mechanism. */
static const char *
ops_of(uint32_t access, const char **shape)
{
	*shape = "subpath";
	switch (access) {
	case NS_ACCESS_READ_EXEC:
		return "file-read* file-map-executable process-exec*";
	case NS_ACCESS_READ:
		return "file-read*";
	case NS_ACCESS_WRITE:
		return "file-read* file-write* file-map-executable process-exec*";
	case NS_ACCESS_WRITE_FILE:
		*shape = "literal";
		return "file-read* file-write-data file-ioctl";
	default:
		return NULL;
	}
}

static const char *
kind_of(uint32_t access)
{
	static const char *const k[] = { "X", "R", "N", "W", "F" };

	return access <= NS_ACCESS_WRITE_FILE ? k[access] : k[0];
}

static int
emit_rules(struct gen *g, const struct ns_policy *pol)
{
	char ref[64];
	const char *shape, *ops;

	line(g->p, "; the policy's rules, one parameter each");
	for (size_t i = 0; i < pol->n_rules; i++) {
		ops = ops_of(pol->rules[i].access, &shape);
		if (ops == NULL)
			return fail(g, "rule '%s' has an access class (%u) "
				    "seatbelt.dylib does not know; it is "
				    "refused rather than widened",
				    pol->rules[i].path,
				    (unsigned)pol->rules[i].access);
		if (param(g->p, kind_of(pol->rules[i].access), g->real[i], ref,
			  sizeof(ref)) != 0)
			return fail(g, "out of memory");
		line(g->p, "(allow %s (%s %s))", ops, shape, ref);
	}
	return 0;
}

/* --read-noexec stays without exec even inside a --read or a --write:
 * the deny comes after every allow, and the last match wins. */
static void
emit_noexec(struct gen *g, const struct ns_policy *pol)
{
	size_t k = 0;

	for (size_t i = 0; i < pol->n_rules; i++) {
		if (pol->rules[i].access != NS_ACCESS_READ)
			continue;
		if (k++ == 0)
			line(g->p, "; read-noexec: no exec, no executable map");
		/* the rule's parameter is reused: same value, same name */
		for (size_t j = 0; j < g->p->n; j++)
			if (g->p->params[j].name[0] == 'N' &&
			    strcmp(g->p->params[j].value, g->real[i]) == 0) {
				line(g->p, "(deny process-exec* "
				     "file-map-executable (subpath (param "
				     "\"%s\")))", g->p->params[j].name);
				break;
			}
	}
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every proper ancestor of every rule, "/" included (realpath and every
 * stat walk start there), sorted, once each. */
static int
emit_ancestors(struct gen *g)
{
	char **anc = NULL, ref[64];
	size_t n = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < g->n && rc == 0; i++) {
		const char *s = g->real[i];

		/* "/a/b/c": "/a/b", "/a", then "/" below */
		for (size_t k = strlen(s); k-- > 1 && rc == 0;) {
			if (s[k] != '/')
				continue;
			if (grow((void **)&anc, &cap, n + 1, sizeof(*anc)) != 0 ||
			    (anc[n] = strndup(s, k)) == NULL)
				rc = -1;
			else
				n++;
		}
		if (rc == 0 &&
		    (grow((void **)&anc, &cap, n + 1, sizeof(*anc)) != 0 ||
		     (anc[n] = strdup("/")) == NULL))
			rc = -1;
		else if (rc == 0)
			n++;
	}
	if (n > 1)
		qsort(anc, n, sizeof(*anc), cmp_str);
	if (rc == 0 && n > 0)
		line(g->p, "; ancestors: metadata only (stat, realpath)");
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && (i == 0 || strcmp(anc[i], anc[i - 1]) != 0)) {
			if (param(g->p, "A", anc[i], ref, sizeof(ref)) != 0)
				rc = -1;
			else
				line(g->p, "(allow file-read-metadata "
				     "(literal %s))", ref);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(anc[i]);
	free(anc);
	if (rc != 0)
		g->p->oom = 1;
	return rc ? fail(g, "out of memory") : 0;
}

static int
emit_fixed(struct gen *g)
{
	char ref[64];

	line(g->p, "; fixed: the descriptor directory and the links of the "
		   "root");
	for (size_t i = 0; i < N_FIXED; i++) {
		if (param(g->p, fixed[i].name, fixed[i].path, ref,
			  sizeof(ref)) != 0)
			return fail(g, "out of memory");
		line(g->p, "(allow %s (%s %s))", fixed[i].ops, fixed[i].shape,
		     ref);
	}
	return 0;
}

static void
emit_names(struct sb_prof *p, const char *open, const char *form,
	   const char *const *names)
{
	line(p, "%s", open);
	for (size_t i = 0; names[i] != NULL; i++)
		line(p, "  (%s \"%s\")", form, names[i]);
	line(p, ")");
}

static void
emit_baseline(struct sb_prof *p)
{
	line(p, "; baseline: what a normal program needs under deny default");
	for (size_t i = 0; base_clauses[i] != NULL; i++)
		line(p, "%s", base_clauses[i]);
	line(p, "(allow sysctl-read");
	for (size_t i = 0; sysctls[i] != NULL; i++)
		line(p, "  (sysctl-name \"%s\")", sysctls[i]);
	for (size_t i = 0; sysctl_prefixes[i] != NULL; i++)
		line(p, "  (sysctl-name-prefix \"%s\")", sysctl_prefixes[i]);
	line(p, ")");
	emit_names(p, "(allow mach-lookup", "global-name", mach_base);
}

/* "localhost:<port>" for a loopback host:port the host validated; the
 * port is re-read here and written from the number, never copied. */
static int
loopback_port(const char *hp, unsigned *port)
{
	const char *c = strrchr(hp, ':');
	unsigned long v = 0;

	if (c == NULL || c[1] == '\0')
		return -1;
	for (const char *d = c + 1; *d; d++) {
		if (*d < '0' || *d > '9' || v > 65535)
			return -1;
		v = v * 10 + (unsigned long)(*d - '0');
	}
	if (v == 0 || v > 65535)
		return -1;
	if (!(strncmp(hp, "localhost:", 10) == 0 ||
	      strncmp(hp, "127.", 4) == 0 || strncmp(hp, "[::1]:", 6) == 0))
		return -1;
	*port = (unsigned)v;
	return 0;
}

static int
emit_unix_sockets(struct gen *g)
{
	line(g->p, "(allow system-socket (socket-domain AF_UNIX))");
	for (size_t j = 0; j < g->p->n; j++)
		if (g->p->params[j].name[0] == 'W') {
			line(g->p, "(allow network-bind (local unix-socket "
			     "(subpath (param \"%s\"))))", g->p->params[j].name);
			line(g->p, "(allow network-outbound (remote unix-socket "
			     "(subpath (param \"%s\"))))", g->p->params[j].name);
		}
	return 0;
}

static int
emit_net(struct gen *g, const struct ns_policy *pol)
{
	unsigned port;

	line(g->p, "; network");
	if (!(pol->flags & NS_POLICY_NET_DENY)) {
		line(g->p, "; not denied (net=nopromise)%s",
		     (pol->flags & NS_POLICY_NET_LISTEN) ?
			     "; --net-listen: listening is part of it" : "");
		line(g->p, "(allow network*)");
		line(g->p, "(allow system-socket)");
		line(g->p, "(allow sysctl-read (sysctl-name-prefix "
			   "\"net.routetable\"))");
		emit_names(g->p, "(allow mach-lookup", "global-name", mach_net);
		return 0;
	}
	line(g->p, "; denied (--net-deny): no IP; unix sockets only beneath "
		   "a write root");
	emit_unix_sockets(g);
	for (size_t i = 0; i < pol->n_net_allow; i++) {
		if (loopback_port(pol->net_allow[i], &port) != 0)
			return fail(g, "--net-allow %s is not a loopback "
				    "host:port; seatbelt opens only "
				    "localhost:<port>", pol->net_allow[i]);
		line(g->p, "(allow network-outbound (remote ip "
			   "\"localhost:%u\"))", port);
	}
	return 0;
}

static void
emit_gpu(struct sb_prof *p, const struct ns_policy *pol)
{
	if (pol->gpu != NULL && strcmp(pol->gpu, "metal") == 0)
		line(p, "; gpu metal: intent recorded; no mach service and no "
			"device is added for it");
	else
		line(p, "; gpu none");
}

/* ---- protected paths (ABI 1.4) ------------------------------------------ */

/* Is the realpath'd `path` equal to or beneath a write rule? */
static int
in_write_root(const struct gen *g, const struct ns_policy *pol,
	      const char *path)
{
	for (size_t i = 0; i < g->n; i++) {
		size_t k = strlen(g->real[i]);

		if (pol->rules[i].access == NS_ACCESS_WRITE &&
		    strncmp(path, g->real[i], k) == 0 &&
		    (path[k] == '\0' || path[k] == '/' || k == 1))
			return 1;
	}
	return 0;
}

/* The protected path's own name must not move: renaming any ancestor a
 * write root lets the job rename moves it out from under its (name-based)
 * denial, and a directory made in its place is not protected.  Each such
 * ancestor keeps its entry: no unlink or rename of it, nothing created at
 * its name. */
static int
emit_protect_ancestors(struct gen *g, const struct ns_policy *pol,
		       const char *real)
{
	char ref[64], *a;
	int rc = 0;

	for (size_t k = strlen(real); k-- > 1 && rc == 0;) {
		if (real[k] != '/')
			continue;
		if ((a = strndup(real, k)) == NULL)
			return g->p->oom = 1, fail(g, "out of memory");
		if (in_write_root(g, pol, a)) {
			rc = param(g->p, "Q", a, ref, sizeof(ref));
			if (rc == 0)
				line(g->p, "(deny file-write-unlink "
				     "file-write-create (literal %s))", ref);
		}
		free(a);
	}
	return rc != 0 ? fail(g, "out of memory") : 0;
}

/* Is protected path i a directory?  On its descriptor when the host gave
 * one, else on the resolved name. */
static int
protect_is_dir(const struct ns_policy *pol, size_t i, const char *real)
{
	struct stat st;
	int fd = pol->protect_fds != NULL ? pol->protect_fds[i] : -1;

	if (fd >= 0 ? fstat(fd, &st) : stat(real, &st))
		return 1; /* cannot tell: subpath also covers a file */
	return S_ISDIR(st.st_mode);
}

static int
protect_fail(struct gen *g, const char *path, const char *why)
{
	g->p->protect_bad = 1;
	return fail(g, "the protected path '%s' %s, so seatbelt cannot keep "
		    "it read-only here; name it with --unprotect %s to run "
		    "without that protection", path, why, path);
}

/* One protected path: its name and everything beneath it (a directory)
 * or the file itself: no write, create, unlink, rename, link. */
static int
emit_protect_one(struct gen *g, const struct ns_policy *pol, size_t i)
{
	const char *path = pol->protect[i], *why;
	char ref[64], *real;
	int rc;

	if ((why = sb_value_bad(path)) != NULL)
		return protect_fail(g, path, why);
	if ((real = realpath(path, NULL)) == NULL)
		return protect_fail(g, path, strerror(errno));
	if ((why = sb_value_bad(real)) != NULL) {
		free(real);
		return protect_fail(g, path, "resolves to a path that cannot "
				    "be a parameter");
	}
	rc = param(g->p, "P", real, ref, sizeof(ref));
	if (rc == 0 && protect_is_dir(pol, i, real))
		line(g->p, "(deny file-write* file-link (literal %s) "
		     "(subpath %s))", ref, ref);
	else if (rc == 0)
		line(g->p, "(deny file-write* file-link (literal %s))", ref);
	if (rc == 0)
		rc = emit_protect_ancestors(g, pol, real);
	free(real);
	return rc != 0 ? fail(g, "out of memory") : 0;
}

static int
emit_protect(struct gen *g, const struct ns_policy *pol)
{
	if (!NS_POLICY_HAS_PROTECT(pol) || pol->n_protect == 0 ||
	    pol->protect == NULL)
		return 0;
	line(g->p, "; protected (read-only whatever --write covers them), "
		   "after every allow: the last match wins");
	for (size_t i = 0; i < pol->n_protect; i++)
		if (emit_protect_one(g, pol, i) != 0)
			return -1;
	return 0;
}

static int
check_size(struct gen *g)
{
	size_t b = sb_profile_bytes(g->p);

	if (g->p->n > SB_MAX_PARAMS || b > SB_MAX_BYTES)
		return fail(g, "the seatbelt profile would be %zu bytes with "
			    "%zu parameters, over the %u bytes and %u "
			    "parameters this module allows (macOS caps a "
			    "compiled profile at 64 KiB); name fewer or "
			    "shorter --read/--write directories", b, g->p->n,
			    SB_MAX_BYTES, SB_MAX_PARAMS);
	return 0;
}

int
sb_profile_build(const struct ns_policy *pol, struct sb_prof *p, char *err,
		 size_t errlen)
{
	struct gen g = { p, NULL, 0, err, errlen };
	int rc;

	memset(p, 0, sizeof(*p));
	line(p, "(version 1)");
	line(p, "; nova-sandbox seatbelt profile: every path is a parameter");
	line(p, "(deny default (with message \"" SB_TAG "\"))");
	emit_baseline(p);
	rc = resolve_rules(&g, pol);
	if (rc == 0)
		rc = emit_rules(&g, pol);
	if (rc == 0) {
		emit_noexec(&g, pol);
		rc = emit_fixed(&g);
	}
	if (rc == 0)
		rc = emit_ancestors(&g);
	if (rc == 0)
		rc = emit_net(&g, pol);
	if (rc == 0)
		emit_gpu(p, pol);
	if (rc == 0)
		rc = emit_protect(&g, pol);
	for (size_t i = 0; i < g.n; i++)
		free(g.real[i]);
	free(g.real);
	if (rc == 0 && p->oom)
		rc = fail(&g, "out of memory");
	if (rc == 0)
		rc = check_size(&g);
	if (rc != 0 && err[0] == '\0')
		fail(&g, "out of memory");
	return rc;
}

size_t
sb_profile_bytes(const struct sb_prof *p)
{
	size_t b = p->len;

	for (size_t i = 0; i < p->n; i++)
		b += 4 + strlen(p->params[i].name) + strlen(p->params[i].value);
	return b;
}

void
sb_profile_free(struct sb_prof *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->params[i].value);
	free(p->params);
	free(p->text);
	memset(p, 0, sizeof(*p));
}
