/* SPDX-License-Identifier: MIT */
/* worktree.c -- `nova-sandbox worktree` (reference section 10): one pull
 * request's exact head in a scratch tree of its own, and --prune.
 *
 * git and gh are run through os/tool.h: found once on PATH and kept open,
 * argv only, "--" before every operand that comes from outside, an
 * environment built here (the caller's GIT_* never reach git; the forge
 * token reaches gh only), a deadline per call.  The repository and the
 * scratch are walked once (policy/paths.h) and used by descriptor after:
 * git runs with its working directory set from the descriptor, a tree is
 * deleted entry by entry below the scratch's descriptor, never through a
 * link and never across a mount.  Every file operation is os/os.h's, so
 * the verb is the same on every platform.  docs/SPEC-SANDBOX.md
 * "worktree". */
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
#include "policy/paths.h"
#include "wall/session.h"
#include "verbs/verbs.h"
#include "verbs/worktree.h"
#include "verbs/wt.h"

/* ---- flags (worktree_flags.c) ------------------------------------------ */

static const struct flagspec wt_spec = {
	.defs = NULL, /* worktree_flags.c: set where it is parsed */
	.ndefs = 0,
	.verb = 1,
	.verbname = "worktree",
	.remedy = WT_HELP,
	.list_lead = "the flags of worktree are",
	.near = FN_EDIT,
	.single = FS_NONE,
	.foreign = FF_UNKNOWN,
	.tok_unknown = REASON_BAD_FLAG,
	.tok_positional = REASON_BAD_FLAG,
	.tok_value = REASON_BAD_FLAG,
	.opts = FO_ONCE | FO_VALUE_NOT_DD,
	.remedy_on = FR_UNKNOWN | FR_POSITIONAL,
};

/* A value flag as the last word has no value: that is its own flag's
 * problem (bad_repo, bad_pr, ...), said once, not a second bad_flag. */
static int
strip_valueless(int argc, char **argv, struct wtargs *a)
{
	static const char *const names[] = { "--repo", "--scratch", "--pr",
					     "--base" };

	if (argc == 0)
		return argc;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(argv[argc - 1], names[i]) == 0) {
			a->valueless[i] = 1;
			return argc - 1;
		}
	return argc;
}

/* ---- validation ---------------------------------------------------------- */

static void
check_pr(struct wt *w, struct refusals *r)
{
	const struct wtargs *a = &w->a;

	if (a->prune && (a->pr != NULL || a->valueless[2])) {
		refusals_add(r, REASON_BAD_PR, "--pr and --prune are two modes: "
			     "name one");
		return;
	}
	if (a->prune)
		return;
	if (a->pr == NULL || parse_u64(a->pr, WT_PR_MAX, &w->id) != 0 ||
	    w->id == 0)
		refusals_add(r, REASON_BAD_PR, "--pr wants one pull-request "
			     "number above 0%s%s", a->pr ? ", got " : "",
			     a->pr ? a->pr : "");
}

static void
check_base(struct wt *w, struct refusals *r)
{
	if (w->a.valueless[3] || (w->a.base != NULL && !wt_branch_ok(w->a.base)))
		refusals_add(r, REASON_BAD_BASE, "--base wants a branch name "
			     "(no leading '-', no space, control character or "
			     "~^:?*[\\, no \"..\"), got %s",
			     w->a.base ? w->a.base : "no value");
}

/* The repository's git directory, named by its .git as git would find
 * it there (a directory, or a gitfile as a linked tree or a submodule
 * has; a link is never followed), never by git's discovery: 0, or -1
 * with the refusal added. */
static int
repo_gitdir(struct wt *w, struct refusals *r)
{
	struct os_stat st;
	char *named = NULL;
	int fd;

	if (os_fstat_at(w->repo.fd, ".git", &st) == 0 && S_ISDIR(st.mode)) {
		w->gitdir = str_fmt("%s/.git", w->repo.path);
	} else if (os_fstat_at(w->repo.fd, ".git", &st) == 0 &&
		   S_ISREG(st.mode) &&
		   (fd = os_open_read_at(w->repo.fd, ".git", 0)) >= 0) {
		named = gitfile_read(fd);
		close(fd);
		if (named != NULL)
			w->gitdir = os_is_absolute(named) ?
				str_fmt("%s", named) :
				str_fmt("%s/%s", w->repo.path, named);
	}
	free(named);
	if (w->gitdir != NULL)
		return 0;
	refusals_add(r, REASON_BAD_REPO, "--repo wants an existing repository "
		     "named by an absolute path: git does not call %s a work "
		     "tree: its .git is neither a directory nor a gitfile "
		     "(\"gitdir: <dir>\"; a link is never followed)", w->a.repo);
	return -1;
}

/* Every filter driver git's configuration defines where a call works (the
 * repository's, or a tree's: an includeIf may differ), added to those
 * disarmed on every later call: a tree's .gitattributes names which one
 * runs on which file, and the tree is the job's. */
static int
git_filters(struct wt *w, const struct gplace *pl)
{
	char *args[] = { "git", "config", "-z", "--name-only", "--get-regexp",
			 "^filter\\.", NULL };
	struct toolres res;
	const char *p, *end, *last;
	int rc = -1;

	if (git_at(w, pl, w->repo.fd, w->call_ms, &res, args) != 0 ||
	    (res.status != 0 && res.status != 1) || sbuf_failed(&res.out) ||
	    res.truncated)
		goto out;
	p = sbuf_str(&res.out);
	end = p + res.out.len;
	for (; p < end; p += strlen(p) + 1) {
		char *drv;

		last = strrchr(p, '.');
		if (strncmp(p, "filter.", 7) != 0 || last == NULL ||
		    last <= p + 7)
			continue;
		drv = str_fmt("%.*s", (int)(last - p - 7), p + 7);
		if (drv != NULL && !strv_contains(&w->filters, drv))
			strv_push(&w->filters, drv);
		free(drv);
	}
	rc = strv_failed(&w->filters) ? -1 : 0;
out:
	toolres_free(&res);
	return rc;
}

/* The repository's work tree and common directory, asked of git with its
 * directories named: "true", then the common directory. */
static int
repo_common(struct wt *w, char *out, size_t n)
{
	char *args[] = { "git", "rev-parse", "--is-inside-work-tree",
			 "--path-format=absolute", "--git-common-dir", NULL };
	char *nl;
	int rc = git_line(w, NULL, w->repo.fd, args, out, n);

	if (rc != 0)
		return rc;
	nl = strchr(out, '\n');
	if (nl == NULL || strncmp(out, "true\n", 5) != 0 || nl[1] == '\0')
		return -1;
	w->common = str_fmt("%s", nl + 1);
	if (w->common == NULL)
		return -1;
	w->commonfd = os_open_dir(w->common);
	return w->commonfd >= 0 ? 0 : -1;
}

static void
check_repo(struct wt *w, struct refusals *r)
{
	char out[WT_RECORD_MAX];
	int rc;

	if (w->a.repo == NULL || !os_is_absolute(w->a.repo)) {
		refusals_add(r, REASON_BAD_REPO, "--repo wants an existing "
			     "repository named by an absolute path%s%s",
			     w->a.repo ? ", got " : "",
			     w->a.repo ? w->a.repo : "");
		return;
	}
	rc = path_resolve("--repo", REASON_BAD_REPO, w->a.repo, os_euid(),
			  PATH_READ_BACK, &w->repo, NULL, r);
	if (rc != 0)
		return;
	if (w->git.fd < 0) {
		refusals_add(r, REASON_BAD_REPO, "--repo %s cannot be read: git "
			     "is on no absolute PATH entry; install git",
			     w->a.repo);
		return;
	}
	if (repo_gitdir(w, r) != 0)
		return;
	rc = repo_common(w, out, sizeof(out));
	if (rc == 0 && git_filters(w, NULL) != 0)
		rc = -1;
	if (rc == -2)
		refusals_add(r, REASON_BAD_REPO, "--repo %s cannot be read: git "
			     "(%s) could not be started: %s%s", w->a.repo,
			     w->git.path, strerror(errno), errno == ENOEXEC ?
			     " (a batch file or script the system cannot "
			     "start is never run)" : "");
	else if (rc != 0)
		refusals_add(r, REASON_BAD_REPO, "--repo wants an existing "
			     "repository named by an absolute path: git does "
			     "not call %s a work tree (or its common git "
			     "directory could not be opened)", w->a.repo);
}

static void
check_scratch(struct wt *w, struct refusals *r)
{
	if (w->a.scratch == NULL || !os_is_absolute(w->a.scratch)) {
		refusals_add(r, REASON_BAD_SCRATCH, "--scratch wants an existing "
			     "directory named by an absolute path and is not "
			     "created%s%s", w->a.scratch ? ", got " : "",
			     w->a.scratch ? w->a.scratch : "");
		return;
	}
	path_resolve("--scratch", REASON_BAD_SCRATCH, w->a.scratch, os_euid(),
		     PATH_READ_BACK, &w->scratch, NULL, r);
}

/* ---- refusals ------------------------------------------------------------ */

/* Every refusal of r printed, its text redacted first (a word of the
 * caller's argv may hold a token too), then the remedy line. */
static int
refuse_all(const struct wt *w, struct refusals *r, char **argv)
{
	wall_fd_keep(r, "worktree", argv + 1);
	wall_fd_cause(r); /* out of descriptors: the one cause */
	for (size_t i = 0; !refusals_failed(r) && i < r->n; i++) {
		char *safe = wt_redact(w, r->v[i].text);

		if (safe == NULL) {
			refusals_oom(r);
			break;
		}
		free(r->v[i].text);
		r->v[i].text = safe;
	}
	out_refusals(stderr, "WORKTREE", r, WT_HELP, 0);
	out_usage(stderr, WT_REMEDY);
	return NS_EXIT_USAGE;
}

/* Reuse: the tree's own git directory checked (tree_gitdir; when it
 * fails, *found says what was found, for a NOTE), then every git call on
 * it names that directory and the tree: the repository lists it, it is at
 * head, with nothing changed, untracked or ignored in it (submodules not
 * entered: a submodule's .git in a tree is the job's too). */
static int
reusable(struct wt *w, int tfd, const char *path, const char *head,
	 char **found)
{
	char *rev[] = { "git", "rev-parse", "--verify", "HEAD", NULL };
	char *st[] = { "git", "status", "--porcelain", "-z",
		       "--untracked-files=all", "--ignored",
		       "--ignore-submodules=all", NULL };
	struct strv list = {0}, links = {0};
	struct toolres res;
	struct gplace p;
	char now[WT_HEAD_LEN + 8], *gd;
	int ok;

	if (tree_gitdir(w, tfd, &gd, found) != 0)
		return 0;
	p.gitdir = gd;
	p.worktree = path;
	if (git_filters(w, &p) != 0 || gitlinks(w, &p, tfd, &links) != 0 ||
	    tree_clean(tfd, &links, found) != 0) {
		strv_free(&links);
		free(gd);
		return 0;
	}
	strv_free(&links);
	ok = worktrees(w, &list) == 0 && strv_contains(&list, path);
	strv_free(&list);
	if (ok && (git_line(w, &p, tfd, rev, now, sizeof(now)) != 0 ||
		   strcmp(now, head) != 0))
		ok = 0;
	if (ok) {
		ok = git_at(w, &p, tfd, w->call_ms, &res, st) == 0 &&
		     res.status == 0 && res.out.len == 0 && res.err.len == 0;
		toolres_free(&res);
	}
	free(gd);
	return ok;
}

/* The files of a tree just added without them: its git directory checked
 * as a reused one's is, the filters its own configuration defines
 * disarmed too (an includeIf on the tree's git directory), then
 * `reset --hard`. */
static int
checkout(struct wt *w, const char *guid, const char *path, char **why)
{
	char *reset[] = { "git", "reset", "--hard", "--quiet", NULL };
	struct toolres res;
	struct gplace p;
	char *gd = NULL, *found = NULL;
	int tfd = os_walk_at(w->scratch.fd, guid, 1), rc = -1;

	if (tfd < 0 || tree_gitdir(w, tfd, &gd, &found) != 0) {
		*why = str_fmt("git made the worktree at %s, but %s", path,
			       found ? found : "it cannot be opened");
		goto out;
	}
	p.gitdir = gd;
	p.worktree = path;
	if (git_filters(w, &p) != 0) {
		*why = str_fmt("git's configuration for the worktree at %s "
			       "could not be read", path);
		goto out;
	}
	rc = git_at(w, &p, tfd, w->fetch_ms, &res, reset);
	if (rc != 0 || res.status != 0) {
		char *e = first_line(w, &res);

		*why = str_fmt("git could not check out the worktree at %s: %s",
			       path, res.timed_out ? "it did not end in time" :
			       e && *e ? e : "git reset --hard failed");
		free(e);
		rc = -1;
	}
	toolres_free(&res);
out:
	if (tfd >= 0)
		close(tfd);
	free(gd);
	free(found);
	return rc;
}

static int
add_tree(struct wt *w, const char *guid, const char *path, const char *head,
	 char **why)
{
	char *fetch[] = { "git", "fetch", "--quiet", "--no-tags",
			  "--no-write-fetch-head", "origin", "--", (char *)head,
			  NULL };
	char *add[] = { "git", "worktree", "add", "--quiet", "--no-checkout",
			"--detach", "--", (char *)path, (char *)head, NULL };
	struct toolres res;
	int rc;

	*why = NULL;
	/* the head may be here already: only a fetch that hung is said */
	rc = wt_git(w, w->repo.fd, w->fetch_ms, &res, fetch);
	if (rc == 0 && res.timed_out)
		*why = str_fmt("git could not make the worktree: fetching %s "
			       "from origin did not end within %u s", head,
			       w->fetch_ms / 1000);
	toolres_free(&res);
	if (*why != NULL)
		return -1;
	rc = wt_git(w, w->repo.fd, w->fetch_ms, &res, add);
	if (rc != 0 || res.status != 0) {
		char *e = first_line(w, &res);

		*why = str_fmt("git could not make the worktree at %s: %s",
			       path, res.timed_out ? "it did not end in time" :
			       e && *e ? e : "git worktree add failed");
		free(e);
		rc = -1;
	}
	toolres_free(&res);
	return rc == 0 ? checkout(w, guid, path, why) : rc;
}

static int
say_ok(const char *path, const char *head)
{
	char *p = out_field(path);

	out_kind(stdout, "WORKTREE", OUT_OK, "path=%s head=%s", p ? p : "-",
		 head);
	free(p);
	return fflush(stdout) == 0 ? NS_EXIT_OK : NS_EXIT_USAGE;
}

/* The recorded tree: reused (1), taken away (0), in use (-1), or it could
 * not be taken away (-2). */
static int
old_tree(struct wt *w, const char *guid, const char *head, char **why)
{
	char *path = tree_path(w, guid);
	struct os_stat id;
	int tfd, lockfd = -1, rc = 0, reuse = 0, seen = 0;

	*why = NULL;
	if (path == NULL)
		return -1;
	/* a job's chmod of the tree itself is undone first: else its lock
	 * and its .git could not be looked at, and it would seem in use */
	if (os_fstat_at(w->scratch.fd, guid, &id) == 0 && S_ISDIR(id.mode) &&
	    id.uid == os_euid() && (id.mode & 0700) != 0700)
		os_fchmod_at(w->scratch.fd, guid, (id.mode & 07777) | 0700);
	tfd = os_walk_at(w->scratch.fd, guid, 1);
	if (tfd >= 0) {
		char *found = NULL;

		reuse = reusable(w, tfd, path, head, &found);
		if (found != NULL) {
			char *t = str_fmt("%s is not reused: %s; it is "
					  "removed and made again", path,
					  found);

			wt_note(w, t);
			free(t);
			free(found);
		}
		seen = os_fstat(tfd, &id) == 0;
		/* closed before its use is asked: on Windows an open
		 * descriptor of the tree counts as one */
		close(tfd);
	}
	if (reuse) {
		rc = 1;
	} else if (tfd >= 0 && (!seen || tree_in_use(w, guid, &id, &lockfd))) {
		*why = str_fmt("%s is not at %s or has changes, and a process "
			       "is working in it (its working directory or "
			       "root is there, or it holds the tree's lock): "
			       "it is not re-made under it", path, head);
		rc = -1;
	} else if (tree_remove(w, guid, why) != 0) {
		rc = -2;
	}
	if (lockfd >= 0)
		close(lockfd);
	free(path);
	return rc;
}

static int
materialise(struct wt *w)
{
	struct prinfo pi = { "", NULL, NULL };
	char guid[WT_GUID_LEN + 1], *on = NULL, *why = NULL, *path = NULL;
	enum forge_rc fr;
	int code, had, old;

	fr = forge_repo(w, &on, &why);
	if (fr == FG_OK)
		fr = gh_pr(w, on, w->id, &pi, &why);
	free(on);
	if (fr != FG_OK) {
		free(pi.base);
		free(pi.state);
		return refuse_forge(w, fr, why);
	}
	had = record_read(w, w->id, guid) == 0;
	old = had ? old_tree(w, guid, pi.head, &why) : 0;
	if (old == 1) {
		path = tree_path(w, guid);
		code = say_ok(path ? path : "-", pi.head);
	} else if (old < 0) {
		code = refuse_one(w, old == -1 ? REASON_TREE_IN_USE :
				  REASON_BAD_SCRATCH, WT_REMEDY, why);
	} else if ((!had && new_guid(guid) != 0) ||
		   (path = tree_path(w, guid)) == NULL) {
		code = refuse_one(w, REASON_SANDBOX_FAILED, WT_REMEDY,
				  "no guid could be made");
	} else if (add_tree(w, guid, path, pi.head, &why) != 0) {
		code = refuse_one(w, REASON_BAD_REPO, WT_REMEDY, why);
	} else if (record_write(w, guid, w->a.base ? w->a.base : pi.base,
				pi.head) != 0) {
		char *t = str_fmt("the record %s/%llu.pr could not be written: "
				  "%s; the tree made for it is taken away again",
				  w->scratch.path, w->id, strerror(errno));

		free(why);
		tree_remove(w, guid, &why); /* no tree without its record */
		code = refuse_one(w, REASON_BAD_SCRATCH, WT_REMEDY, t);
		free(t);
	} else {
		code = say_ok(path, pi.head);
	}
	free(why);
	free(path);
	free(pi.base);
	free(pi.state);
	return code;
}

/* ---- the verb -------------------------------------------------------------- */

static int
validate(struct wt *w, int argc, char **argv, struct refusals *r)
{
	struct flagspec spec = wt_spec;
	int n = strip_valueless(argc, argv, &w->a);

	spec.defs = worktree_flags;
	spec.ndefs = worktree_nflags;
	if (flags_parse(&spec, n, argv, &w->a, r) < 0)
		return -1;
	check_pr(w, r);
	check_base(w, r);
	check_repo(w, r);
	check_scratch(w, r);
	return refusals_failed(r) ? -1 : 0;
}

static void
wt_free(struct wt *w)
{
	rpath_free(&w->repo);
	rpath_free(&w->scratch);
	tool_free(&w->git);
	tool_free(&w->gh);
	strv_free(&w->genv);
	strv_free(&w->ghenv);
	strv_free(&w->secrets);
	strv_free(&w->filters);
	free(w->gitdir);
	free(w->common);
	if (w->commonfd >= 0)
		close(w->commonfd);
}

int
verb_worktree(const struct hostrun *hr, int argc, char **argv)
{
	struct refusals r = {0};
	struct wt w;
	const char *pathvar;
	int code;

	if (flags_wants_help(argc - 1, argv + 1))
		return verb_help_for("worktree") == 0 ? NS_EXIT_OK :
						       NS_EXIT_USAGE;
	memset(&w, 0, sizeof(w));
	w.repo.fd = w.repo.dir_fd = w.scratch.fd = w.scratch.dir_fd = -1;
	w.commonfd = -1;
	w.env = hr->env;
	pathvar = env_get(hr->env, "PATH");
	if (build_envs(&w) != 0 || tool_find("git", pathvar, &w.git) < 0 ||
	    tool_find("gh", pathvar, &w.gh) < 0 ||
	    validate(&w, argc - 1, argv + 1, &r) != 0) {
		refusals_oom(&r);
		code = refuse_all(&w, &r, argv);
	} else if (r.n > 0) {
		code = refuse_all(&w, &r, argv);
	} else {
		code = w.a.prune ? wt_prune(&w) : materialise(&w);
	}
	refusals_free(&r);
	wt_free(&w);
	return code;
}
