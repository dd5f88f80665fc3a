/* SPDX-License-Identifier: MIT */
/* cmdguard.c -- HOME, the command and the home guard (policy.h, build.h;
 * docs/SPEC-SANDBOX.md rule 5). */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "os/os.h"
#include "policy/build.h"

/* ---- HOME --------------------------------------------------------- */

/* "; run: mkdir -p <w>/home [<w>/bin] && [cp -- <cmd> <w>/bin/ && ]
 * [HOME=<w>/home ]nova-sandbox <the line>", w the first --write: HOME
 * inside it (home), and the command run as a copy in <w>/bin (copy: the
 * command's path; the home guard), both fixes in one line so that either
 * refusal's line, pasted, passes both. */
static int
home_fix_line(struct sbuf *s, const struct build *b, int home,
	      const char *copy)
{
	const char *w = b->pol->writes.v[0], *sep = is_root_dir(w) ? "" : "/";
	const char *base = copy ? strrchr(copy, '/') : NULL;
	struct cmdline c = build_line(b);
	struct sbuf hd = {0}, bin = {0}, to = {0};
	struct cmdfix f = { "--", NULL, NULL, NULL, 0 };
	int rc;

	rc = sbuf_addf(&hd, "%s%shome", w, sep);
	rc = rc ? rc : sbuf_addf(&bin, "%s%sbin", w, sep);
	/* the copy's name: <w>/bin/<the command's base name> */
	rc = rc ? rc : sbuf_addf(&to, "%s%sbin%s", w, sep, base ? base : "/");
	rc = rc ? rc : sbuf_add(s, "; run: mkdir -p");
	if (home) {
		rc = rc ? rc : sbuf_add(s, " ");
		rc = rc ? rc : out_shell_quote(s, hd.s);
	}
	if (copy != NULL) {
		rc = rc ? rc : sbuf_add(s, " ");
		rc = rc ? rc : out_shell_quote(s, bin.s);
		rc = rc ? rc : sbuf_add(s, " && cp -- ");
		rc = rc ? rc : out_shell_quote(s, copy);
		rc = rc ? rc : sbuf_add(s, " ");
		rc = rc ? rc : out_shell_quote(s, to.s);
		f.value = to.s;
	}
	rc = rc ? rc : sbuf_add(s, " && ");
	if (home) {
		rc = rc ? rc : sbuf_add(s, "HOME=");
		rc = rc ? rc : out_shell_quote(s, hd.s);
		rc = rc ? rc : sbuf_add(s, " ");
	}
	rc = rc ? rc : remedy_cmdline(s, &c, copy ? &f : NULL);
	sbuf_free(&hd);
	sbuf_free(&bin);
	sbuf_free(&to);
	return rc < 0 ? -1 : 0;
}

static int
home_remedy(struct sbuf *s, const struct build *b)
{
	return home_fix_line(s, b, 1, NULL);
}

static int
refuse_home(struct build *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
refuse_home(struct build *b, const char *fmt, ...)
{
	struct sbuf s = {0};
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&s, fmt, ap);
	va_end(ap);
	b->home_cut = s.len;
	if (rc == 0)
		rc = home_remedy(&s, b);
	if (rc == 0)
		rc = ADD_SAID(b->r, REASON_HOME_OUTSIDE, "%s", s.s); /* run: */
	b->home_ref = rc == 0 ? b->r->n : 0;
	sbuf_free(&s);
	return rc;
}

static int
home_walked(struct build *b, const char *h, int rc, const struct path_fail *f)
{
	if (rc < 0)
		return -1;
	if (f->link != NULL)
		return refuse_home(b, "HOME %s resolves through the symlink %s "
				   "-> %s, which the command's user could have "
				   "made or replaced (%s): a link the command "
				   "could have planted is never followed; HOME "
				   "must be a real directory inside a --write",
				   h, f->link, f->target, f->why);
	return refuse_home(b, "HOME %s cannot be resolved (%s): HOME must be "
			   "an existing directory inside a --write", h,
			   strerror(f->err));
}

int
check_home(struct build *b)
{
	const char *h = b->in->home;
	struct strv links = {0};
	struct path_fail f;
	char *abs;
	int rc;

	if (h == NULL || *h == '\0')
		return refuse_home(b, "HOME is unset: the command's HOME must "
				   "be a directory inside a --write");
	if ((abs = path_abs(h)) == NULL)
		return -1;
	rc = path_walk(abs, build_uid(b), PATH_ANY_TYPE | PATH_READ_BACK,
		       &b->pol->r_home,
		       &links, &f);
	free(abs);
	if (rc != 0)
		rc = home_walked(b, h, rc, &f);
	else if (!rpath_inside_any(&b->pol->r_home, &b->pol->r_writes))
		rc = refuse_home(b, "HOME %s is outside every --write: HOME "
				 "must be inside one", h);
	else if ((b->pol->home = strdup(b->pol->r_home.path)) == NULL)
		rc = -1;
	else
		rc = path_note_links("HOME", h, &b->pol->r_home, &links,
				     &b->pol->notes);
	path_fail_free(&f);
	strv_free(&links);
	return rc;
}

/* ---- the command -------------------------------------------------- */

/* The first executable <dir>/<name> on the caller's PATH, or NULL in
 * *out.  Empty and relative entries are skipped: a command is never
 * found by the working directory.  Only a candidate: settle_command opens
 * it once and decides on the descriptor. */
static int
look_path(const struct build *b, const char *name, char **out)
{
	const char *p = b->in->path ? b->in->path : os_getenv("PATH");
	const char sep[2] = {os_path_list_sep(), '\0'};
	struct sbuf c = {0};

	*out = NULL;
	while (p != NULL && *p != '\0' && *out == NULL) {
		size_t n = strcspn(p, sep);

		const char *const *sfx = os_exe_suffixes(name);

		for (; n > 0 && os_root_len(p) > 0 && os_root_len(p) <= n &&
		       *sfx != NULL && *out == NULL; sfx++) {
			if (sbuf_addn(&c, p, n) < 0 ||
			    sbuf_addf(&c, "/%s%s", name, *sfx) < 0)
				goto out_oom;
			if (os_path_executable(c.s) &&
			    (*out = sbuf_take(&c)) == NULL)
				goto out_oom;
			sbuf_free(&c);
		}
		p += n + (p[n] == sep[0]);
	}
	return 0;
out_oom:
	sbuf_free(&c);
	return -1;
}

/* The form of the command a not_found or not_executable line shows in
 * place of it: only the caller knows which file it meant. */
#define FORM_COMMAND "</abs/path/of/the/command>"

/* A refusal of the command: the text, then the caller's line with the
 * command's form in place of the command. */
static int
refuse_command(struct build *b, const char *tok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
refuse_command(struct build *b, const char *tok, const char *fmt, ...)
{
	struct sbuf t = {0};
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sbuf_vaddf(&t, fmt, ap);
	va_end(ap);
	rc = rc ? rc : refuse_line(b, tok, t.s, "--", NULL, FORM_COMMAND,
				   NULL);
	sbuf_free(&t);
	return rc < 0 ? -1 : 0;
}

static int
refuse_exec_fd(struct build *b, const char *p, const struct rpath *rp)
{
	if (S_ISDIR(rp->mode))
		return refuse_command(b, REASON_NOT_EXECUTABLE, "%s is a "
				      "directory: name an executable file", p);
	if (!S_ISREG(rp->mode) || !os_fd_executable(rp->fd))
		return refuse_command(b, REASON_NOT_EXECUTABLE, "%s is not "
				      "executable by this user: name a file "
				      "this user may execute", p);
	if (path_bad_char(rp->path))
		return refuse_command(b, REASON_NOT_EXECUTABLE, "%s resolves to "
				      "a path holding a control character, "
				      "'\"' or '\\', which a generated policy "
				      "cannot carry: name a file without them",
				      p);
	return 1;
}

/* links is NULL for a command found on PATH: the caller named no path,
 * so its links (sh -> dash) are the system's, followed silently like the
 * fixed roots'; they are judged all the same. */
static int
settle_walked(struct build *b, const char *cand, const struct strv *links)
{
	struct policy *pol = b->pol;
	int rc = refuse_exec_fd(b, cand, &pol->r_command);

	if (rc != 1)
		return rc;
	if ((pol->command = strdup(pol->r_command.path)) == NULL ||
	    rpath_parent(&pol->r_command, &pol->r_cmd_dir) < 0)
		return -1;
	if (links == NULL)
		return 0;
	return path_note_links("the command", cand, &pol->r_command, links,
			       &pol->notes);
}

/* The command, opened once: its checks are made on that descriptor, and
 * its directory (the optional root) is the directory it was found in. */
static int
settle_command(struct build *b, const char *cand, int named)
{
	struct strv links = {0};
	struct path_fail f;
	int rc;

	rc = path_walk(cand, build_uid(b), PATH_ANY_TYPE | PATH_KEEP_DIR |
		       PATH_READ_BACK, &b->pol->r_command, &links, &f);
	if (rc == 0)
		rc = settle_walked(b, cand, named ? &links : NULL);
	else if (rc == 1 && f.link != NULL)
		rc = path_refuse_planted("the command", REASON_NOT_EXECUTABLE, cand,
					 &f, b->r) < 0 ? -1 : 0;
	else if (rc == 1)
		rc = refuse_command(b, REASON_NOT_EXECUTABLE, "%s cannot be "
				    "found (%s): name an executable file", cand,
				    strerror(f.err));
	path_fail_free(&f);
	strv_free(&links);
	return rc;
}

int
resolve_command(struct build *b)
{
	const char *name;
	char *cand;
	int rc;

	if (b->in->argv.n == 0)
		return 0;
	name = b->in->argv.v[0];
	if (os_has_sep(name, strlen(name))) {
		if ((cand = path_abs(name)) == NULL)
			return refuse_command(b, REASON_NOT_EXECUTABLE, "%s "
					      "cannot be found (the working "
					      "directory is unknown): name an "
					      "executable file", name);
	} else if (look_path(b, name, &cand) < 0) {
		return -1;
	} else if (cand == NULL) {
		return refuse_command(b, REASON_NOT_FOUND, "command %s is not "
				      "on PATH: name it by its absolute path "
				      "after --", name);
	}
	rc = settle_command(b, cand, os_has_sep(name, strlen(name)));
	free(cand);
	return rc;
}

/* The command's directory becomes a read root for this run; refuse when
 * that directory is, or holds, a caller's home the caller did not name.
 * Decided by the identities walked, never by name. */
int
caller_homes(struct strv *homes)
{
	const char *pw = os_user_home((unsigned)os_ruid());
	const char *h = os_getenv(os_home_var());

	if (pw != NULL && strv_push(homes, pw) < 0)
		return -1;
	if (h != NULL && h[0] != '\0' && !strv_contains(homes, h) &&
	    strv_push(homes, h) < 0)
		return -1;
	return strv_failed(homes) ? -1 : 0;
}

/* The home_outside refusal's line, now with the copy of the command the
 * home guard asks for too (home_fix_line). */
static int
rejoin_home(struct build *b)
{
	struct refusal *rf = &b->r->v[b->home_ref - 1];
	struct sbuf s = {0};

	if (sbuf_addn(&s, rf->text, b->home_cut) < 0 ||
	    home_fix_line(&s, b, 1, b->pol->command) < 0) {
		sbuf_free(&s);
		return -1;
	}
	free(rf->text);
	rf->text = s.s;
	return 0;
}

/* The command's directory is, or holds, home h: bad_read, with a line
 * that runs a copy of the command from inside the first --write (and sets
 * HOME too when home_outside was refused: both lines then are the one
 * that fixes both).  `run` has no such line: its --write is the place. */
static int
refuse_guard(struct build *b, const char *dir, const char *h)
{
	struct sbuf s = {0};
	int line = b->in->remedy_args != NULL && b->pol->writes.n > 0 &&
		   (b->in->verb == NULL || strcmp(b->in->verb, "run") != 0);
	int rc;

	rc = sbuf_addf(&s, "the command's directory %s is, or holds, the home "
		       "directory %s and would become a read root: run a copy "
		       "of the command from inside a --write, or move it into "
		       "a directory such as %s/bin", dir, h, h);
	if (!line) {
		rc = rc ? rc : ADD(b->r, REASON_BAD_READ, "%s", s.s);
		sbuf_free(&s);
		return rc < 0 ? -1 : 0;
	}
	rc = rc ? rc : home_fix_line(&s, b, b->home_ref != 0,
				     b->pol->command);
	rc = rc ? rc : ADD_SAID(b->r, REASON_BAD_READ, "%s", s.s);
	if (rc == 0 && b->home_ref != 0)
		rc = rejoin_home(b);
	sbuf_free(&s);
	return rc < 0 ? -1 : 0;
}

int
home_guard(struct build *b)
{
	const struct strv *homes = &b->in->caller_homes;
	const struct rpath *dir = &b->pol->r_cmd_dir;
	struct strv looked = { 0 };
	int rc = 0, hit = 0;

	/* guarded: the directory rule 3 makes a read root, not one under a
	 * system prefix (no root is added for it: no passwd lookup either) */
	if (b->pol->command == NULL || dir->n_up == 0 ||
	    path_inside_list(dir->path, b->in->roots->system_prefixes) ||
	    inside_caller(b->pol, dir))
		return 0;
	if (b->in->homes_on_demand && homes->n == 0) {
		if (caller_homes(&looked) < 0) {
			strv_free(&looked);
			return -1; /* the guard fails closed */
		}
		homes = &looked;
	}
	for (size_t i = 0; i < homes->n && rc == 0 && !hit; i++) {
		struct rpath h;
		struct path_fail f;
		/* a relative home is refused by the walk (EINVAL), skipped */
		int w = path_walk(homes->v[i], build_uid(b), PATH_TRUST_LINKS,
				  &h, NULL, &f);

		if (w != 0) {
			/* a home not walked for want of memory is not a home
			 * that is not there: the guard fails closed */
			if (w < 0)
				rc = -1;
			path_fail_free(&f);
			continue;
		}
		hit = !inside_caller(b->pol, &h) && rpath_inside(&h, dir);
		if (hit)
			rc = refuse_guard(b, dir->path, h.path);
		rpath_free(&h);
	}
	strv_free(&looked);
	return rc;
}
