/* SPDX-License-Identifier: MIT */
/* worktree_forge.c -- the forge: the origin's owner/name and one pull
 * request asked of gh (wt.h). */
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

#include "verbs/verbs.h"
#include "verbs/worktree.h"

/* ---- the forge ----------------------------------------------------------- */

/* origin as the repository's config names it (not rewritten by insteadOf:
 * the forge is named by what the caller configured).  The first of
 * several, as fetch uses. */
static int
origin_url(struct wt *w, char **url)
{
	char *args[] = { "git", "config", "-z", "--get-all",
			 "remote.origin.url", NULL };
	struct toolres res;
	int rc = -1;

	*url = NULL;
	if (wt_git(w, w->repo.fd, w->call_ms, &res, args) == 0 &&
	    res.status == 0 && !sbuf_failed(&res.out))
		*url = str_fmt("%s", sbuf_str(&res.out)); /* up to the NUL */
	else if (res.status == 1)
		*url = str_fmt("%s", "");
	rc = *url ? 0 : -1;
	toolres_free(&res);
	return rc;
}

static int
gh_not_found(const struct toolres *res)
{
	char *low = str_fmt("%s", sbuf_str(&res->err));
	int hit;

	if (low == NULL)
		return 0;
	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	hit = strstr(low, "not found") != NULL ||
	      strstr(low, "could not resolve to a pullrequest") != NULL ||
	      strstr(low, "no pull requests found") != NULL;
	free(low);
	return hit;
}

/* Ask gh about pull request id of repo on; *why a sentence for the
 * refusal (heap). */
enum forge_rc
gh_pr(struct wt *w, const char *on, unsigned long long id,
      struct prinfo *pi, char **why)
{
	char num[32], *head = NULL;
	char *args[] = { "gh", "pr", "view", num, "--repo", (char *)on,
			 "--json", "headRefOid,baseRefName,state", NULL };
	struct toolres res;
	enum forge_rc rc = FG_NO_FORGE;

	snprintf(num, sizeof(num), "%llu", id);
	if (w->gh.fd < 0) {
		*why = str_fmt("gh is on no absolute PATH entry: the forge "
			       "cannot be asked");
		return FG_NO_FORGE;
	}
	if (tool_run(&w->gh, w->repo.fd, args, w->ghenv.v, w->call_ms,
		     &res) != 0)
		*why = str_fmt("gh could not be started: %s", strerror(errno));
	else if (res.timed_out)
		*why = str_fmt("gh did not answer within %u s", w->call_ms / 1000);
	else if (res.status != 0 && gh_not_found(&res))
		rc = FG_NO_PR, *why = str_fmt("the forge does not know pull "
					      "request %llu of %s", id, on);
	else if (res.status != 0)
		*why = str_fmt("the forge could not be reached (gh exited %d)",
			       res.status);
	else if (sbuf_failed(&res.out) || res.truncated ||
		 worktree_parse_pr(sbuf_str(&res.out), &head, &pi->base,
				   &pi->state) != 0)
		*why = str_fmt("gh answered something that is not the JSON "
			       "asked for");
	else if (head == NULL || !wt_hex_lower(head, WT_HEAD_LEN))
		rc = FG_BAD_HEAD, *why = str_fmt("the forge reported a head "
			"that is not forty lowercase hex characters, and the "
			"head reads %.80s", head ? head : "nothing");
	else
		rc = FG_OK, memcpy(pi->head, head, WT_HEAD_LEN + 1);
	free(head);
	toolres_free(&res);
	return rc;
}

/* owner/name from origin, into *on; FG_BAD_ORIGIN with *why. */
enum forge_rc
forge_repo(struct wt *w, char **on, char **why)
{
	char *url = NULL;

	*on = NULL;
	if (origin_url(w, &url) != 0)
		return FG_OOM;
	*on = worktree_owner_name(url);
	if (*on == NULL)
		*why = str_fmt("--repo wants an origin remote whose path names "
			       "<owner>/<name>, and origin reads %s",
			       url[0] ? url : "nothing (no origin remote)");
	free(url);
	return *on ? FG_OK : FG_BAD_ORIGIN;
}

static const char *const forge_tok[] = {
	[FG_NO_PR] = REASON_NO_PR, [FG_NO_FORGE] = REASON_NO_FORGE,
	[FG_BAD_ORIGIN] = REASON_BAD_ORIGIN, [FG_BAD_HEAD] = REASON_BAD_HEAD,
	[FG_OOM] = REASON_SANDBOX_FAILED,
};

int
refuse_forge(const struct wt *w, enum forge_rc rc, char *why)
{
	int code = refuse_one(w, forge_tok[rc],
			      rc == FG_NO_PR || rc == FG_NO_FORGE ? WT_RETRY :
			      WT_REMEDY, why);

	free(why);
	return code;
}
