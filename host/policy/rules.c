/* SPDX-License-Identifier: MIT */
/* rules.c -- the roots (the resolver's and the command's directories, the
 * terminals), the rules in text order and ancestors= (policy.h, build.h).
 * */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/ttys.h"
#include "policy/build.h"

/* ---- roots -------------------------------------------------------- */

/* Platform data, opened once like a caller path (its links are the
 * platform's and followed silently): absent is skipped silently, a
 * duplicate dropped. */
static int
add_resolved(struct build *b, struct strv *sv, struct rpaths *rs,
	     const char *p, const char *const *skip_under)
{
	struct rpath rp;
	struct path_fail f;
	int rc = path_walk(p, build_uid(b), PATH_TRUST_LINKS | PATH_ANY_TYPE,
			   &rp, NULL, &f);

	path_fail_free(&f);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (!strv_contains(sv, rp.path) &&
	    !path_inside_list(rp.path, skip_under)) {
		if (strv_push(sv, rp.path) < 0 || rpaths_push(rs, &rp) < 0)
			rc = -1;
	}
	rpath_free(&rp);
	return rc;
}

static int
add_resolver_dir(struct build *b)
{
	const char *conf = b->in->roots->resolver_conf;
	struct rpath rp, dir;
	struct path_fail f;
	int rc;

	if (conf == NULL)
		return 0;
	rc = path_walk(conf, build_uid(b), PATH_TRUST_LINKS | PATH_ANY_TYPE |
		       PATH_KEEP_DIR, &rp, NULL, &f);
	path_fail_free(&f);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	rc = rpath_parent(&rp, &dir);
	rpath_free(&rp);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (!rpath_inside_any(&dir, &b->pol->r_roots)) {
		if (strv_push(&b->pol->opt_roots, dir.path) < 0 ||
		    rpaths_push(&b->pol->r_opt, &dir) < 0)
			rc = -1;
		b->n_resolver = 1;
	}
	rpath_free(&dir);
	return rc;
}

struct shared_look {
	int fd;
	uint32_t uid;
};

/* One entry of a command's directory: another user's file (root's is
 * none) stops the listing (1). */
static int
other_owner(void *arg, const char *name)
{
	const struct shared_look *l = arg;
	struct os_stat st;

	return os_fstat_at(l->fd, name, &st) == 0 && st.uid != l->uid &&
	       st.uid != 0 && st.uid != os_euid();
}

/* Is the command's directory one others share: group- or world-writable,
 * sticky, another user's, or holding another user's file (/tmp, a shared
 * drop directory)?  root is no other user here (a directory of root's
 * nobody else may write is the administrator's, like the system roots),
 * nor the caller (run's root, a test's owner of a tree).
 * Its reason (static), or NULL. */
static const char *
dir_shared(const struct rpath *dir, uint32_t uid)
{
	struct shared_look l = { -1, uid };
	struct os_stat st;
	int rc;

	if (os_fstat(dir->fd, &st) != 0)
		return "a directory that could not be looked at";
	if (st.mode & OS_S_ISVTX)
		return "sticky (a directory others share, like /tmp)";
	if (st.mode & (S_IWGRP | S_IWOTH))
		return "writable by others";
	if (st.uid != uid && st.uid != 0 && st.uid != os_euid())
		return "another user's";
	/* listed through a descriptor opened to read it (the walk's is
	 * O_PATH), beneath the walk's own */
	l.fd = os_dir_reopen(dir->fd);
	rc = l.fd < 0 ? -1 : os_dir_names(l.fd, dir->path, other_owner, &l);
	if (l.fd >= 0)
		close(l.fd);
	if (rc == 1)
		return "holding another user's files";
	return rc == 0 ? NULL : "a directory that could not be listed";
}

/* Rule 3: the command's directory becomes a read root, unless others
 * share it: then the command's file alone (a file rule), with a NOTE. */
static int
add_command_dir(struct build *b)
{
	struct policy *pol = b->pol;
	struct rpath *dir = &pol->r_cmd_dir;
	const char *why;

	if (pol->command == NULL || dir->n_up == 0)
		return 0;
	if (path_inside_list(dir->path, b->in->roots->system_prefixes) ||
	    inside_caller(pol, dir) || rpath_inside_any(dir, &pol->r_roots) ||
	    strv_contains(&pol->opt_roots, dir->path))
		return 0;
	why = dir_shared(dir, build_uid(b));
	if (why != NULL) {
		if (strv_contains(&pol->opt_roots, pol->r_command.path))
			return 0;
		if (strv_pushf(&pol->notes, "the command's directory %s is %s: "
			       "only the command %s is readable and executable "
			       "there, not the directory (--read %s grants it)",
			       dir->path, why, pol->r_command.path,
			       dir->path) < 0 ||
		    strv_push(&pol->opt_roots, pol->r_command.path) < 0)
			return -1;
		return rpaths_push(&pol->r_opt, &pol->r_command);
	}
	if (strv_push(&pol->opt_roots, dir->path) < 0)
		return -1;
	return rpaths_push(&pol->r_opt, dir);
}

/* Is the character device `rdev` what /dev/tty or one of fds 0-2 is? */
static int
tty_is_stdio(const char *path, uint64_t rdev)
{
	struct os_stat st;

	if (strcmp(path, "/dev/tty") == 0)
		return rdev == os_dev_make(5, 0);
	for (int fd = 0; fd <= 2; fd++)
		if (os_fstat(fd, &st) == 0 && S_ISCHR(st.mode) &&
		    st.rdev == rdev)
			return 1;
	return 0;
}

/* One terminal as a write-file rule with its own descriptor (rule 5's
 * walk, no link followed), kept only when the descriptor is still the
 * device ttys.c granted: the rule never lands on another node. */
static int
add_tty(struct build *b, const char *path)
{
	struct policy *pol = b->pol;
	struct rpath rp;
	struct path_fail f;
	struct os_stat st;
	int rc = path_walk(path, build_uid(b), PATH_ANY_TYPE, &rp, NULL, &f);

	path_fail_free(&f);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (os_fstat(rp.fd, &st) == 0 && S_ISCHR(st.mode) &&
	    tty_is_stdio(path, st.rdev) &&
	    !strv_contains(&pol->write_files, rp.path) &&
	    (strv_push(&pol->write_files, rp.path) < 0 ||
	     rpaths_push(&pol->r_write_files, &rp) < 0))
		rc = -1;
	rpath_free(&rp);
	return rc;
}

/* The terminals the command's own stdio already holds for reading and
 * writing (host/policy/ttys.c decides, on the descriptors): write files too.
 * Never resolved again: ttys.c verified each name against the inode. */
static int
add_stdio_ttys(struct build *b)
{
	struct policy *pol = b->pol;

	if (!b->in->stdio_ttys)
		return 0;
	if (ttys_stdio(&pol->ttys) < 0)
		return -1;
	for (size_t i = 0; i < pol->ttys.n; i++)
		if (add_tty(b, pol->ttys.v[i]) < 0)
			return -1;
	return 0;
}

int
collect_roots(struct build *b)
{
	const struct platform_roots *t = b->in->roots;
	const char *const *p;

	for (p = t->read_roots; p != NULL && *p != NULL; p++)
		if (add_resolved(b, &b->pol->roots, &b->pol->r_roots, *p,
				 NULL) < 0)
			return -1;
	if (add_resolver_dir(b) < 0)
		return -1;
	for (p = t->optional_roots; p != NULL && *p != NULL; p++)
		if (add_resolved(b, &b->pol->opt_roots, &b->pol->r_opt, *p,
				 t->system_prefixes) < 0)
			return -1;
	if (add_command_dir(b) < 0)
		return -1;
	for (p = t->write_files; p != NULL && *p != NULL; p++)
		if (add_resolved(b, &b->pol->write_files,
				 &b->pol->r_write_files, *p, NULL) < 0)
			return -1;
	return add_stdio_ttys(b);
}

/* ---- rules, in text order ----------------------------------------- */

static void
rule_add(struct policy *pol, const struct rpath *rp, uint32_t access,
	 uint32_t origin)
{
	pol->rules[pol->n_rules].path = rp->path;
	pol->rules[pol->n_rules].access = access;
	pol->rules[pol->n_rules].origin = origin;
	pol->rule_fds[pol->n_rules] = rp->fd;
	pol->rule_ids[pol->n_rules].id = rp->id;
	pol->rule_ids[pol->n_rules].mode = rp->mode;
	pol->n_rules++;
}

static const struct ns_rule *dedupe_base;

/* Order rule indices by (path, access, position): the first of equals
 * sorts first, so the text keeps the order rules were given in. */
static int
cmp_rule_idx(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct ns_rule *x = &dedupe_base[i], *y = &dedupe_base[j];
	int c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	if (x->access != y->access)
		return x->access < y->access ? -1 : 1;
	return (i > j) - (i < j);
}

/* Drop a rule that repeats an earlier one (same path, same access) in
 * O(n log n): --read may name many directories. */
static int
rules_dedupe(struct policy *pol)
{
	size_t n = pol->n_rules, k = 0;
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	unsigned char *drop = calloc(n ? n : 1, 1);

	if (idx == NULL || drop == NULL) {
		free(idx);
		free(drop);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	dedupe_base = pol->rules;
	qsort(idx, n, sizeof(*idx), cmp_rule_idx);
	for (size_t i = 1; i < n; i++) {
		const struct ns_rule *a = &pol->rules[idx[i - 1]];
		const struct ns_rule *c = &pol->rules[idx[i]];

		if (a->access == c->access && strcmp(a->path, c->path) == 0)
			drop[idx[i]] = 1; /* the later of two equals */
	}
	for (size_t i = 0; i < n; i++)
		if (!drop[i]) {
			pol->rule_fds[k] = pol->rule_fds[i];
			pol->rule_ids[k] = pol->rule_ids[i];
			pol->rules[k++] = pol->rules[i];
		}
	pol->n_rules = k;
	free(idx);
	free(drop);
	return 0;
}

static void
rules_from(struct policy *pol, const struct rpaths *rs, uint32_t access,
	   uint32_t origin)
{
	for (size_t i = 0; i < rs->n; i++)
		rule_add(pol, &rs->v[i], access, origin);
}

int
make_rules(struct policy *pol)
{
	size_t max = pol->r_roots.n + pol->r_opt.n + pol->r_reads.n +
		     pol->r_reads_noexec.n + pol->r_writes.n + 2 +
		     pol->r_write_files.n;

	pol->rules = calloc(max, sizeof(*pol->rules));
	pol->rule_fds = calloc(max, sizeof(*pol->rule_fds));
	pol->rule_ids = calloc(max, sizeof(*pol->rule_ids));
	if (pol->rules == NULL || pol->rule_fds == NULL ||
	    pol->rule_ids == NULL)
		return -1;
	rules_from(pol, &pol->r_roots, NS_ACCESS_READ_EXEC, NS_ORIGIN_ROOT);
	rules_from(pol, &pol->r_opt, NS_ACCESS_READ_EXEC, NS_ORIGIN_OPTIONAL);
	rules_from(pol, &pol->r_reads, NS_ACCESS_READ_EXEC, NS_ORIGIN_READ);
	rules_from(pol, &pol->r_reads_noexec, NS_ACCESS_READ,
		   NS_ORIGIN_READ_NOEXEC);
	rules_from(pol, &pol->r_writes, NS_ACCESS_WRITE, NS_ORIGIN_WRITE);
	/* --tmp and --cwd are refused outside a --write and the default temp
	 * directory is made inside the first: these two rules exist for a
	 * policy built otherwise, and carry their own descriptors. */
	if (pol->r_tmp.n_up > 0 && !rpath_inside_any(&pol->r_tmp,
						     &pol->r_writes))
		rule_add(pol, &pol->r_tmp, NS_ACCESS_WRITE, NS_ORIGIN_TMP);
	if (pol->r_cwd.n_up > 0 && !rpath_inside_any(&pol->r_cwd,
						     &pol->r_writes) &&
	    !rpath_inside_any(&pol->r_cwd, &pol->r_reads) &&
	    !rpath_inside_any(&pol->r_cwd, &pol->r_reads_noexec))
		rule_add(pol, &pol->r_cwd, NS_ACCESS_WRITE, NS_ORIGIN_CWD);
	rules_from(pol, &pol->r_write_files, NS_ACCESS_WRITE_FILE,
		   NS_ORIGIN_WRITE_FILE);
	return rules_dedupe(pol);
}

/* ---- ancestors= --------------------------------------------------- */

static int
ancestors_of(struct strv *set, const struct strv *sv, size_t from)
{
	for (size_t i = from; i < sv->n; i++)
		if (path_ancestors_add(set, sv->v[i]) < 0)
			return -1;
	return 0;
}

/* One PATH directory for ancestors=: pushed to out when it is not already
 * covered by a system prefix, an optional root or a caller directory. */
static int
path_dir_add(const struct build *b, const char *real, struct strv *out)
{
	if (path_inside_list(real, b->in->roots->system_prefixes) ||
	    path_inside_any(real, &b->pol->opt_roots) ||
	    path_inside_any(real, &b->pol->reads) ||
	    path_inside_any(real, &b->pol->reads_noexec) ||
	    path_inside_any(real, &b->pol->writes) || strv_contains(out, real))
		return 0;
	return strv_push(out, real);
}

/* A PATH entry resolved like platform data: the build's walk (links
 * followed silently, from the directories this build already opened), not
 * realpath()'s readlink per component.  0 with *real (heap) or NULL when
 * the entry does not resolve; -1 out of memory. */
static int
path_entry_real(const struct build *b, const char *entry, char **real)
{
	struct rpath rp;
	struct path_fail f;
	int rc = path_walk(entry, build_uid(b), PATH_TRUST_LINKS | PATH_ANY_TYPE,
			   &rp, NULL, &f);

	path_fail_free(&f);
	*real = NULL;
	if (rc == 0) {
		*real = rp.path;
		rp.path = NULL;
	}
	rpath_free(&rp);
	return rc < 0 ? -1 : 0;
}

/* ancestors= is a count for the OK line, not a check: it goes by name.
 * PATH directories that exist and are not already covered by a system
 * prefix, an optional root or a caller directory.  An entry typed twice
 * is resolved once (the second would resolve to a path already counted). */
static int
path_dirs(const struct build *b, struct strv *out)
{
	const char *p = b->in->path ? b->in->path : os_getenv("PATH");
	struct strv seen = {0};
	struct sbuf e = {0};
	int rc = 0;

	const char sep[2] = {os_path_list_sep(), '\0'};

	while (rc == 0 && p != NULL && *p != '\0') {
		size_t n = strcspn(p, sep);
		char *real = NULL;

		if (n > 0 && os_root_len(p) > 0 && (rc = sbuf_addn(&e, p, n)) == 0 &&
		    !strv_contains(&seen, e.s) && (rc = strv_push(&seen, e.s)) == 0 &&
		    (rc = path_entry_real(b, e.s, &real)) == 0 && real != NULL)
			rc = path_dir_add(b, real, out);
		free(real);
		sbuf_free(&e);
		p += n + (p[n] == sep[0]);
	}
	strv_free(&seen);
	return rc;
}

int
count_ancestors(struct build *b)
{
	struct policy *pol = b->pol;
	struct strv set = {0}, pd = {0};
	int rc;

	rc = path_dirs(b, &pd);
	rc = rc ? rc : ancestors_of(&set, &pol->reads, 0);
	rc = rc ? rc : ancestors_of(&set, &pol->reads_noexec, 0);
	rc = rc ? rc : ancestors_of(&set, &pol->writes, 0);
	rc = rc ? rc : ancestors_of(&set, &pol->opt_roots, b->n_resolver);
	rc = rc ? rc : ancestors_of(&set, &pd, 0);
	rc = rc ? rc : path_ancestors_add(&set, pol->cwd);
	rc = rc ? rc : path_ancestors_add(&set, pol->tmp);
	pol->ancestors = strv_count_unique(&set);
	strv_free(&set);
	strv_free(&pd);
	return rc;
}
