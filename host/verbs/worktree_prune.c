/* SPDX-License-Identifier: MIT */
/* worktree_prune.c -- worktree --prune: every record of the scratch, its
 * pull request asked of the forge, a merged, closed or stale tree removed
 * unless in use (wt.h). */
#include "verbs/wt.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "verbs/worktree.h"

/* ---- prune ----------------------------------------------------------------- */

struct rec {
	unsigned long long id;
	char guid[WT_GUID_LEN + 1];
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Every <n>.pr of the scratch whose record names a guid, sorted by n. */
/* One entry of the scratch: a record <n>.pr kept in *out. */
struct recs {
	struct wt *w;
	struct rec *v;
	size_t n, cap;
};

static int
take_record(void *arg, const char *name)
{
	struct recs *rs = arg;
	size_t len = strlen(name);
	char num[24];
	struct rec r;

	if (len < 4 || len > 22 || strcmp(name + len - 3, ".pr") ||
	    name[0] == '0')
		return 0;
	snprintf(num, sizeof(num), "%.*s", (int)(len - 3), name);
	if (parse_u64(num, WT_PR_MAX, &r.id) != 0 ||
	    record_read(rs->w, r.id, r.guid) != 0)
		return 0;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct rec *v = realloc(rs->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = r;
	return 0;
}

/* Every <n>.pr of the scratch whose record names a guid, sorted by n. */
static int
records(struct wt *w, struct rec **out, size_t *n)
{
	struct recs rs = { w, NULL, 0, 0 };
	int fd = os_dir_reopen(w->scratch.fd), rc;

	*out = NULL;
	*n = 0;
	if (fd < 0)
		return -1;
	rc = os_dir_names(fd, NULL, take_record, &rs);
	close(fd);
	if (rc != 0) {
		free(rs.v);
		return -1;
	}
	if (rs.n > 0)
		qsort(rs.v, rs.n, sizeof(*rs.v), rec_cmp);
	*out = rs.v;
	*n = rs.n;
	return 0;
}

/* Why the tree of r goes, or NULL: it stays. */
static const char *
prune_reason(struct wt *w, const char *on, const struct rec *r,
	     const struct os_stat *tst, int *lockfd)
{
	struct prinfo pi = { "", NULL, NULL };
	char *why = NULL;
	const char *reason = NULL;

	*lockfd = -1;
	if (on == NULL || gh_pr(w, on, r->id, &pi, &why) != FG_OK) {
		free(why);
		return NULL; /* the forge did not answer: kept */
	}
	free(why);
	if (pi.state != NULL && strcasecmp(pi.state, "merged") == 0)
		reason = "pr_merged";
	else if (pi.state != NULL && strcasecmp(pi.state, "closed") == 0)
		reason = "pr_closed";
	else if (pi.state != NULL && strcasecmp(pi.state, "open") == 0 &&
		 time(NULL) - tst->mtime > WT_STALE_S &&
		 !tree_in_use(w, r->guid, tst, lockfd))
		reason = "stale";
	free(pi.base);
	free(pi.state);
	return reason;
}

/* One recorded tree: 1 removed, 0 kept, -1 chosen but not removed. */
static int
prune_one(struct wt *w, const char *on, const struct rec *r,
	  struct strv *listed)
{
	char *path = tree_path(w, r->guid), *why = NULL, *pf;
	const char *reason;
	struct os_stat tst;
	int tfd, lockfd = -1, rc = 0, seen;

	if (path == NULL || !strv_contains(listed, path)) {
		free(path);
		return 0;
	}
	tfd = os_walk_at(w->scratch.fd, r->guid, 1);
	seen = tfd >= 0 && os_fstat(tfd, &tst) == 0;
	if (tfd >= 0)
		close(tfd); /* before its use is asked (Windows) */
	reason = seen ? prune_reason(w, on, r, &tst, &lockfd) : NULL;
	if (reason != NULL && tree_remove(w, r->guid, &why) == 0) {
		pf = out_field(path);
		out_kind(stdout, "WORKTREE", OUT_REMOVED, "path=%s reason=%s",
			 pf ? pf : "-", reason);
		free(pf);
		for (size_t i = 0; i < listed->n; i++)
			if (strcmp(listed->v[i], path) == 0)
				listed->v[i][0] = '\0'; /* no longer counted */
		rc = 1;
	} else if (reason != NULL) {
		wt_note(w, why ? why : "a tree chosen for removal could not be "
		     "removed");
		rc = -1;
	}
	free(why);
	if (lockfd >= 0)
		close(lockfd);
	free(path);
	return rc;
}

static size_t
kept_under(const struct wt *w, const struct strv *listed)
{
	size_t n = strlen(w->scratch.path), k = 0;

	for (size_t i = 0; i < listed->n; i++)
		if (strncmp(listed->v[i], w->scratch.path, n) == 0 &&
		    listed->v[i][n] == '/' && listed->v[i][n + 1] != '\0')
			k++;
	return k;
}

int
wt_prune(struct wt *w)
{
	struct strv listed = {0};
	struct rec *rv = NULL;
	size_t n = 0, removed = 0;
	char *on = NULL, *why = NULL;
	int failed = 0;

	if (worktrees(w, &listed) != 0 || records(w, &rv, &n) != 0) {
		strv_free(&listed);
		free(rv);
		return refuse_one(w, REASON_BAD_REPO, WT_REMEDY, "git could not "
				  "list the repository's worktrees, or the "
				  "scratch could not be read");
	}
	if (n > 0 && forge_repo(w, &on, &why) != FG_OK) {
		char *t = str_fmt("%s: the forge is not asked, every tree is "
				  "kept", why ? why : "origin names no forge");
		wt_note(w, t);
		free(t);
	}
	for (size_t i = 0; i < n; i++) {
		int rc = prune_one(w, on, &rv[i], &listed);

		removed += rc == 1;
		failed |= rc < 0;
	}
	out_kind(stdout, "WORKTREE", OUT_OK, "removed=%zu kept=%zu", removed,
		 kept_under(w, &listed));
	free(on);
	free(why);
	free(rv);
	strv_free(&listed);
	if (fflush(stdout) != 0)
		return NS_EXIT_USAGE;
	return failed ? NS_EXIT_WORKTREE_LEFT : NS_EXIT_OK;
}
