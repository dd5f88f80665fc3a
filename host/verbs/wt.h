/* SPDX-License-Identifier: MIT */
/* wt.h -- the worktree verb's private state, shared by its files
 * (worktree.c: flags, validation, materialise, the verb; worktree_tools.c:
 * git and gh, the refusal and NOTE lines; worktree_forge.c; worktree_tree.c; worktree_prune.c) and by
 * no other file. */
#ifndef NS_VERBS_WT_H
#define NS_VERBS_WT_H

#include "os/tool.h"
#include "base/util.h"
#include "policy/paths.h"
#include "verbs/worktree.h"

#define WT_REMEDY "run: nova-sandbox worktree --repo <dir> --scratch <dir> --pr <id>"
#define WT_RETRY WT_REMEDY "; retry once the forge answers"
#define WT_HELP "nova-sandbox help worktree"
#define WT_STALE_S (24 * 60 * 60)
#define WT_CALL_MS 60000u   /* one git or gh question */
#define WT_FETCH_MS 600000u /* a fetch, a checkout */
#define WT_GUID_LEN 32
#define WT_HEAD_LEN 40
#define WT_RECORD_MAX 4096
#define WT_RM_DEPTH 512 /* one descriptor a level: inside the default 1024 open files */
#define WT_PR_MAX 2147483647ull

struct wt {
	struct wtargs a;
	unsigned long long id;
	struct rpath repo, scratch;
	struct tool git, gh;
	struct strv genv, ghenv;  /* the two environments */
	char *gitdir;             /* the repository's git directory */
	char *common;             /* its common directory (worktrees/ there) */
	int commonfd;             /* O_PATH of common, or -1 */
	struct strv filters;      /* the filter drivers git's config defines */
	struct strv secrets;      /* token values, never printed */
	unsigned call_ms, fetch_ms;
	char **env;               /* the caller's */
};

/* What the forge said of one pull request. */
struct prinfo {
	char head[WT_HEAD_LEN + 1];
	char *base;
	char *state;
};

enum forge_rc { FG_OK, FG_NO_PR, FG_NO_FORGE, FG_BAD_ORIGIN, FG_BAD_HEAD,
		FG_OOM };

/* Where one git call works: the repository (gitdir NULL) or a tree. */
struct gplace {
	const char *gitdir, *worktree;
};

/* worktree_tools.c: the environments, git and gh; the verb's refusal
 * and NOTE lines after validation, redacted */
int refuse_one(const struct wt *w, const char *tok, const char *remedy,
	       const char *text);
void wt_note(const struct wt *w, const char *text);
const char *env_get(char **env, const char *name);
int build_envs(struct wt *w);
char *wt_redact(const struct wt *w, const char *s);
int git_at(struct wt *w, const struct gplace *p, int cwd_fd, unsigned ms,
	   struct toolres *res, char *const *args);
int wt_git(struct wt *w, int cwd_fd, unsigned ms, struct toolres *res,
	   char *const *args);
char *first_line(const struct wt *w, const struct toolres *res);
int git_line(struct wt *w, const struct gplace *p, int cwd_fd,
	     char *const *args, char *buf, size_t n);

/* worktree_forge.c */
enum forge_rc gh_pr(struct wt *w, const char *on, unsigned long long id,
		    struct prinfo *pi, char **why);
enum forge_rc forge_repo(struct wt *w, char **on, char **why);
int refuse_forge(const struct wt *w, enum forge_rc rc, char *why);

/* worktree_tree.c: records and trees */
char *gitfile_read(int fd);
char *tree_path(const struct wt *w, const char *guid);
int record_read(const struct wt *w, unsigned long long id, char *guid);
int new_guid(char *guid);
int record_write(const struct wt *w, const char *guid, const char *base,
		 const char *head);
int tree_remove(struct wt *w, const char *guid, char **why);
int tree_in_use(const struct wt *w, const char *guid,
		const struct os_stat *id, int *lockfd);
int worktrees(struct wt *w, struct strv *out);
int tree_gitdir(struct wt *w, int tfd, char **gd, char **why);
int gitlinks(struct wt *w, const struct gplace *p, int tfd,
	     struct strv *out);
int tree_clean(int tfd, const struct strv *links, char **found);

/* worktree_prune.c */
int wt_prune(struct wt *w);

#endif
