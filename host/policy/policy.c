/* SPDX-License-Identifier: MIT */
/* policy.c -- the platform-independent policy builder: what the caller
 * typed becomes resolved, existing paths and rules, or EVERY independent
 * refusal at once (rule 16).  The order of the refusals is the original
 * tool's (shared/reference/original-behaviour.md section 2, phase 2).
 * The only thing it ever creates is the default temp directory (rule 8),
 * and only once every check has passed. */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out.h"
#include "base/remedy.h"
#include "os/os.h"
#include "policy/envpol.h"
#include "policy/paths.h"
#include "policy/rmtree.h"
#include "policy/ttys.h"

#define TMP_NAME ".nova-sandbox-tmp"

struct build {
	const struct policy_input *in;
	struct policy *pol;
	struct refusals *r;
	size_t n_resolver; /* 1 when opt_roots[0] is the resolver's dir */
	uid_t uid;         /* the command's user, asked once per build */
	/* the home_outside refusal, for the home guard's joint line: its
	 * index in r plus one (0: none) and the length of its text before
	 * "; run: " */
	size_t home_ref, home_cut;
};

/* refusals_add's status folded to the builder's: 0 or -1 (allocation). */
#define ADD(r, ...) (refusals_add((r), __VA_ARGS__) < 0 ? -1 : 0)
/* ... for a text that ends with its own remedy (struct refusal). */
#define ADD_SAID(r, tok, ...) \
	(refusals_addr((r), (tok), REMEDY_IN_TEXT, __VA_ARGS__) < 0 ? -1 : 0)

/* ---- paste-able remedies (base/remedy.h) -------------------------- */

/* The caller's command line, as the verb handed it over. */
static struct cmdline
build_line(const struct build *b)
{
	return cmdline_of(b->in->verb, b->in->remedy_args);
}

/* The typed line with the first `flag` whose value is `match` (NULL: any
 * value) given `value` instead (NULL: the flag and its value left out);
 * `add` (when not NULL) with `value` put first instead. */
static int
remedy_line(struct sbuf *s, const struct build *b, const char *flag,
	    const char *match, const char *value, const char *add)
{
	/* the switches a fix may leave out: one word, no value after it */
	static const char *const switches[] = { "--net-deny", "--net-listen",
		"--explain", "--env-clear", NULL };
	struct cmdline c = build_line(b);
	struct cmdfix f = { flag, match, value, add, 0 };

	for (size_t i = 0; switches[i] != NULL; i++)
		if (strcmp(flag, switches[i]) == 0)
			f.bare = FIX_SWITCH;

	return remedy_cmdline(s, &c, &f);
}

/* A refusal "<text>; run: <the command line fixed as remedy_line says>".
 * Without the typed args (a caller that gave none) the text alone, with
 * the verb's remedy. */
static int
refuse_line(struct build *b, const char *tok, const char *text,
	    const char *flag, const char *match, const char *value,
	    const char *add)
{
	struct sbuf s = {0};
	int rc;

	/* past the listed problems no line: it would never print */
	if (b->in->remedy_args == NULL || !remedy_wanted(b->r))
		return ADD(b->r, tok, "%s", text);
	rc = sbuf_addf(&s, "%s; run: ", text);
	rc = rc ? rc : remedy_line(&s, b, flag, match, value, add);
	rc = rc ? rc : ADD_SAID(b->r, tok, "%s", s.s);
	sbuf_free(&s);
	return rc;
}

/* ---- flags that are not paths ------------------------------------- */

static int
check_gpu(struct build *b)
{
	const char *g = b->in->gpu;
	size_t n;

	b->pol->gpu = "none";
	if (g == NULL)
		return 0;
	while (isspace((unsigned char)*g))
		g++;
	n = strlen(g);
	while (n > 0 && isspace((unsigned char)g[n - 1]))
		n--;
	if (n == 0 || (n == 4 && strncmp(g, "none", 4) == 0))
		return 0;
	if (n == 5 && strncmp(g, "metal", 5) == 0) {
		b->pol->gpu = "metal";
		return 0;
	}
	{
		struct sbuf t = {0};
		int rc = sbuf_addf(&t, "--gpu wants none or metal, got %s",
				   b->in->gpu);

		rc = rc ? rc : refuse_line(b, REASON_BAD_GPU, t.s, "--gpu",
					   NULL, "none", NULL);
		sbuf_free(&t);
		return rc;
	}
}

static int
loopback_host(const char *host, int bracketed)
{
	if (bracketed)
		return os_ip_loopback(host, 1);
	if (strcasecmp(host, "localhost") == 0)
		return 1;
	return os_ip_loopback(host, 0);
}

/* host:port, or [v6]:port; the host loopback, the port 1-65535. */
static int
net_allow_ok(const char *s)
{
	const char *h = s, *port, *end;
	char host[64];
	unsigned long long pv;
	int br = s[0] == '[';

	if (br) {
		h = s + 1;
		end = strchr(h, ']');
		if (end == NULL || end[1] != ':')
			return 0;
		port = end + 2;
	} else {
		end = strchr(s, ':');
		if (end == NULL || strchr(end + 1, ':') != NULL)
			return 0;
		port = end + 1;
	}
	if (end == h || (size_t)(end - h) >= sizeof(host))
		return 0;
	memcpy(host, h, (size_t)(end - h));
	host[end - h] = '\0';
	if (parse_u64(port, 65535, &pv) != 0 || pv == 0)
		return 0;
	return loopback_host(host, br);
}

static int
check_net(struct build *b)
{
	const struct strv *na = &b->in->net_allow;

	if (b->in->net_deny && b->in->net_listen &&
	    refuse_line(b, REASON_BAD_NET, "--net-deny and --net-listen "
			"cannot both be given: --net-deny closes what "
			"--net-listen opens; pass one of them", "--net-listen",
			NULL, NULL, NULL) < 0)
		return -1;
	for (size_t i = 0; i < na->n; i++) {
		struct sbuf t = {0};
		int rc;

		if (net_allow_ok(na->v[i]))
			continue;
		rc = sbuf_addf(&t, "--net-allow %s wants host:port, the host "
			       "localhost or a loopback address (127.0.0.0/8, "
			       "[::1]) and the port 1-65535", na->v[i]);
		/* the form in place of the bad value */
		rc = rc ? rc : refuse_line(b, REASON_BAD_NET, t.s,
					   "--net-allow", na->v[i],
					   "<host:port>", NULL);
		sbuf_free(&t);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int
check_command_and_write(struct build *b)
{
	if (b->in->argv.n == 0 &&
	    ADD(b->r, REASON_NO_COMMAND, "no command after --: name the command "
		"and its arguments after --") < 0)
		return -1;
	if (b->in->writes.n == 0) {
		struct sbuf s = {0};
		int rc = sbuf_add(&s, "no --write was given, and refusing to "
				  "guess one: name --write <dir>, the "
				  "directory the command may change; run: ");

		/* the form in place, put first (section 3, "Lines") */
		rc = rc ? rc : remedy_line(&s, b, "--write", NULL, "</abs/dir>",
					   "--write");
		rc = rc ? rc : ADD_SAID(b->r, REASON_BAD_WRITE, "%s", s.s);
		sbuf_free(&s);
		return rc < 0 ? -1 : 0;
	}
	return 0;
}

/* ---- caller directories (rule 5) ---------------------------------- */

/* The user the command runs as: who could have planted a link.  Asked
 * once per build (policy_build), not once per path walked. */
static uid_t
build_uid(const struct build *b)
{
	return b->uid;
}

/* path_resolve into the list's string and descriptor: 0, or -1. */
static int
resolve_one(struct build *b, const char *flag, const char *reason,
	    const char *p, struct strv *out, struct rpaths *rout)
{
	/* the OK line prints the --write roots: read back from the kernel */
	unsigned fl = strcmp(flag, "--write") == 0 ? PATH_READ_BACK : 0;
	struct rpath rp;
	struct refusals quiet = {0};
	int rc = path_resolve(flag, reason, p, build_uid(b), fl, &rp,
			      &b->pol->notes, &quiet);

	/* rule 5's text, then the command line without that root (a
	 * --write too, when it is not the only one) */
	for (size_t i = 0; rc > 0 && i < quiet.n; i++) {
		int drop = strcmp(flag, "--write") != 0 ||
			   b->in->writes.n > 1;
		struct sbuf t = {0};

		if (sbuf_addf(&t, "%s%s", quiet.v[i].text, drop ?
			      "; or leave it out" : "") < 0 ||
		    (drop ? refuse_line(b, quiet.v[i].reason, t.s, flag, p,
					NULL, NULL) :
		     ADD_SAID(b->r, quiet.v[i].reason, "%s", t.s)) < 0)
			rc = -1;
		sbuf_free(&t);
	}
	if (refusals_failed(&quiet))
		rc = -1;
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (strv_push(out, rp.path) < 0 || rpaths_push(rout, &rp) < 0) {
		rpath_free(&rp);
		return -1;
	}
	return 0;
}

/* Each typed root resolved into out/rout; `kept` gets the typed word of
 * each one resolved (rout->v[k] was typed kept->v[k]). */
static int
resolve_list(struct build *b, const struct strv *typed, const char *flag,
	     const char *reason, struct strv *out, struct rpaths *rout,
	     struct strv *kept)
{
	for (size_t i = 0; i < typed->n; i++) {
		size_t n = rout->n;

		if (resolve_one(b, flag, reason, typed->v[i], out, rout) < 0 ||
		    (rout->n > n && strv_push(kept, typed->v[i]) < 0))
			return -1;
	}
	return 0;
}

/* One flag's resolved roots and the words they were typed as. */
struct typed_roots {
	const char *flag;
	const struct rpaths *r;
	const struct strv *typed;
};

/* The same directory (by identity) under two flags: the line without
 * the one of x, the flag whose grant the other one holds or narrows. */
static int
clash(struct build *b, const struct typed_roots *x,
      const struct typed_roots *y, const char *why)
{
	for (size_t i = 0; i < x->r->n; i++)
		for (size_t j = 0; j < y->r->n; j++)
			if (rpath_same(&x->r->v[i], &y->r->v[j])) {
				struct sbuf t = {0};
				int rc = sbuf_addf(&t, "%s and %s both name "
						   "%s: name it once, with the "
						   "one flag that grants what "
						   "the command needs (%s)",
						   x->flag, y->flag,
						   x->r->v[i].path, why);

				rc = rc ? rc : refuse_line(b, REASON_BAD_READ,
							   t.s, x->flag,
							   x->typed->v[i],
							   NULL, NULL);
				sbuf_free(&t);
				if (rc < 0)
					return -1;
			}
	return 0;
}

static int
resolve_caller_dirs(struct build *b)
{
	const struct policy_input *in = b->in;
	struct policy *pol = b->pol;
	struct strv tr = {0}, tn = {0}, tw = {0};
	struct typed_roots r = { "--read", &pol->r_reads, &tr };
	struct typed_roots n = { "--read-noexec", &pol->r_reads_noexec, &tn };
	struct typed_roots w = { "--write", &pol->r_writes, &tw };
	int rc = -1;

	if (resolve_list(b, &in->reads, "--read", REASON_BAD_READ, &pol->reads,
			 &pol->r_reads, &tr) < 0 ||
	    resolve_list(b, &in->reads_noexec, "--read-noexec", REASON_BAD_READ,
			 &pol->reads_noexec, &pol->r_reads_noexec, &tn) < 0 ||
	    resolve_list(b, &in->writes, "--write", REASON_BAD_WRITE, &pol->writes,
			 &pol->r_writes, &tw) < 0)
		goto out;
	if (clash(b, &r, &w, "--write grants reading and executing too") < 0 ||
	    clash(b, &r, &n, "--read-noexec grants reading, never executing; "
		  "leave out --read-noexec instead to execute from it") < 0 ||
	    clash(b, &n, &w, "--write grants reading too") < 0)
		goto out;
	rc = 0;
out:
	strv_free(&tr);
	strv_free(&tn);
	strv_free(&tw);
	return rc;
}

static int
inside_caller(const struct policy *pol, const struct rpath *p)
{
	return rpath_inside_any(p, &pol->r_reads) ||
	       rpath_inside_any(p, &pol->r_reads_noexec) ||
	       rpath_inside_any(p, &pol->r_writes);
}

/* --cwd and --tmp: resolved once, and inside a --write.  *out stays NULL
 * on a refusal. */
static int
resolve_in_write(struct build *b, const char *flag, const char *reason,
		 const char *p, char **out, struct rpath *rout)
{
	struct refusals quiet = {0};
	int rc = path_resolve(flag, reason, p, build_uid(b), PATH_READ_BACK,
			      rout, &b->pol->notes, &quiet);

	*out = NULL;
	/* rule 5's own text, then the line without the flag */
	for (size_t i = 0; rc > 0 && i < quiet.n; i++) {
		struct sbuf t = {0};
		int rc2 = sbuf_addf(&t, "%s; or leave %s out (the default "
				    "applies)", quiet.v[i].text, flag);

		rc2 = rc2 ? rc2 : refuse_line(b, quiet.v[i].reason, t.s, flag,
					      NULL, NULL, NULL);
		sbuf_free(&t);
		if (rc2 < 0)
			rc = -1;
	}
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (rpath_inside_any(rout, &b->pol->r_writes)) {
		*out = strdup(rout->path);
		return *out ? 0 : -1;
	}
	rpath_free(rout);
	{
		struct sbuf t = {0};
		int rc2 = sbuf_addf(&t, "%s %s is not inside a --write: name a "
				    "directory inside one of the --write "
				    "directories, or leave it out (the default "
				    "applies)", flag, p);

		rc2 = rc2 ? rc2 : refuse_line(b, reason, t.s, flag, p, NULL,
					      NULL);
		sbuf_free(&t);
		return rc2;
	}
}

/* bad_cwd: what is wrong, then "; run: <the command line fixed>": a --cwd
 * that exists but is outside every root gets a --read of it first (it
 * becomes readable; --write it instead to write there); one that cannot
 * be used is left out (the default applies). */
static int
refuse_cwd(struct build *b, const char *why, const char *p, int exists)
{
	struct sbuf s = {0};
	int rc = sbuf_addf(&s, "--cwd %s %s; run: ", p, why);

	if (rc == 0)
		rc = exists ? remedy_line(&s, b, "--cwd", NULL, p, "--read") :
		     remedy_line(&s, b, "--cwd", NULL, NULL, NULL);
	/* a shell comment: the line still pastes */
	if (rc == 0 && exists)
		rc = sbuf_add(&s, " # or --write it, to write there");
	if (rc == 0)
		rc = ADD_SAID(b->r, REASON_BAD_CWD, "%s", s.s);
	sbuf_free(&s);
	return rc;
}

/* The caller's working directory, when it resolves (rule 5) inside a
 * --write, --read or --read-noexec: 1 with *rp set, 0 when not (nothing
 * said), -1 on ENOMEM. */
static int
caller_cwd(struct build *b, struct rpath *rp)
{
	struct refusals quiet = {0};
	struct strv notes = {0};
	int rc;

	if (b->in->caller_cwd == NULL || b->in->caller_cwd[0] != '/')
		return 0;
	rc = path_resolve("--cwd", REASON_BAD_CWD, b->in->caller_cwd,
			  build_uid(b), PATH_READ_BACK, rp, &notes, &quiet);
	strv_free(&notes);
	refusals_free(&quiet);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (inside_caller(b->pol, rp))
		return 1;
	rpath_free(rp);
	return 0;
}

static int
default_cwd(struct build *b)
{
	struct rpath rp;
	int rc = caller_cwd(b, &rp);

	if (rc < 0)
		return -1;
	if (rc == 1 && !rpath_same(&rp, &b->pol->r_writes.v[0])) {
		b->pol->r_cwd = rp;
		b->pol->cwd = strdup(rp.path);
		if (b->pol->cwd == NULL)
			return -1;
		return strv_pushf(&b->pol->notes, "the working directory is "
				  "yours, %s (inside a root of the wall); name "
				  "--cwd <dir> for another", b->pol->cwd) < 0 ?
		       -1 : 0;
	}
	if (rc == 1)
		rpath_free(&rp);
	b->pol->cwd = strdup(b->pol->writes.v[0]);
	if (b->pol->cwd == NULL)
		return -1;
	return rpath_dup(&b->pol->r_writes.v[0], &b->pol->r_cwd);
}

/* Rule 13: --cwd inside a --write, --read or --read-noexec; by default
 * the caller's working directory when it is inside one, else the first
 * --write. */
static int
check_cwd(struct build *b)
{
	struct refusals quiet = {0};
	struct rpath *rp = &b->pol->r_cwd;
	int rc;

	if (b->in->cwd == NULL)
		return default_cwd(b);
	rc = path_resolve("--cwd", REASON_BAD_CWD, b->in->cwd, build_uid(b),
			  PATH_READ_BACK, rp, &b->pol->notes, &quiet);
	if (rc < 0) {
		refusals_free(&quiet);
		return -1;
	}
	if (rc != 0) {
		/* rule 5's own text (a planted link, not a directory ...),
		 * then the command line without the --cwd */
		for (size_t i = 0; rc >= 0 && i < quiet.n; i++) {
			struct sbuf t = {0};

			rc = sbuf_addf(&t, "%s; or leave --cwd out (the "
				       "default applies); run: ",
				       quiet.v[i].text);
			rc = rc ? rc : remedy_line(&t, b, "--cwd", NULL, NULL,
						   NULL);
			rc = rc ? rc : ADD_SAID(b->r, quiet.v[i].reason, "%s",
						t.s);
			sbuf_free(&t);
		}
		refusals_free(&quiet);
		return rc < 0 ? -1 : 0;
	}
	refusals_free(&quiet);
	if (inside_caller(b->pol, rp))
		return (b->pol->cwd = strdup(rp->path)) ? 0 : -1;
	rpath_free(rp);
	return refuse_cwd(b, "is not inside a --write, --read or --read-noexec",
			  b->in->cwd, 1);
}

/* ---- the default temp directory (rule 8) -------------------------- */

/* The first --write's own descriptor: never its name again. */
static int
first_write_fd(const struct policy *pol)
{
	return pol->r_writes.v[0].fd;
}

/* 0 when TMP_NAME under dfd is absent or a real directory; else the errno
 * that says why not (ENOTDIR for a file or a planted symlink). */
static int
tmp_state(int dfd)
{
	struct os_stat st;

	if (os_fstat_at(dfd, TMP_NAME, &st) != 0)
		return errno == ENOENT ? 0 : errno;
	return S_ISDIR(st.mode) ? 0 : ENOTDIR;
}

static int
refuse_tmp(struct build *b, int err)
{
	if (err == ENOTDIR)
		return ADD_SAID(b->r, REASON_BAD_WRITE,
				"the default temp directory %s "
				"exists and is not a directory (a symlink there is "
				"never followed): remove it, or name --tmp <dir> "
				"inside a --write", b->pol->tmp);
	return ADD_SAID(b->r, REASON_BAD_WRITE,
			"the default temp directory %s cannot "
			"be made (%s): name --tmp <dir> inside a --write",
			b->pol->tmp, strerror(err));
}

/* Is the resolved directory w a root ("/", "C:/"), which a name is joined
 * to without another separator? */
static int
is_root_dir(const char *w)
{
	size_t n = os_root_len(w);

	return n > 0 && w[n] == '\0';
}

static int
default_tmp(struct build *b)
{
	const char *w = b->pol->writes.v[0];
	struct sbuf s = {0};
	int err;

	if (sbuf_add(&s, w) < 0 ||
	    sbuf_add(&s, is_root_dir(w) ? TMP_NAME : "/" TMP_NAME) < 0) {
		sbuf_free(&s);
		return -1;
	}
	b->pol->tmp = sbuf_take(&s);
	if (b->pol->tmp == NULL)
		return -1;
	err = tmp_state(first_write_fd(b->pol));
	return err ? refuse_tmp(b, err) : 0;
}

static int
check_tmp(struct build *b)
{
	if (b->in->tmp == NULL)
		return default_tmp(b);
	return resolve_in_write(b, "--tmp", REASON_BAD_WRITE, b->in->tmp,
				&b->pol->tmp, &b->pol->r_tmp);
}

/* Called last, when the build is sound: made under the first --write's
 * descriptor, never following a name planted where it should be. */
static int
make_tmp(struct build *b)
{
	int dfd = first_write_fd(b->pol);
	int err = 0;

	if (os_mkdir_at(dfd, TMP_NAME, 0700) == 0) {
		struct os_stat st;

		b->pol->tmp_created = 1;
		b->pol->tmp_pfd = os_fd_dup(dfd);
		if (b->pol->tmp_pfd < 0 || os_fstat_at(dfd, TMP_NAME, &st) != 0) {
			err = errno;
			(void)os_unlink_at(dfd, TMP_NAME, 1);
			if (b->pol->tmp_pfd >= 0)
				close(b->pol->tmp_pfd);
			b->pol->tmp_created = 0;
			return refuse_tmp(b, err);
		}
		b->pol->tmp_id.dev = st.dev;
		b->pol->tmp_id.ino = st.ino;
	}
	else if (errno == EEXIST)
		err = tmp_state(dfd); /* made before us: a directory or NO */
	else
		err = errno;
	return err ? refuse_tmp(b, err) : 0;
}

int
policy_remove_tmp(struct policy *pol)
{
	struct os_stat st;

	if (!pol->tmp_created)
		return 0;
	if (os_fstat_at(pol->tmp_pfd, TMP_NAME, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.mode) || st.dev != pol->tmp_id.dev ||
	    st.ino != pol->tmp_id.ino)
		return 1;
	switch (rmtree_at(pol->tmp_pfd, TMP_NAME, POLICY_TMP_DEPTH)) {
	case 0:
		break;
	case RMTREE_TOO_DEEP:
		return 2;
	case RMTREE_MOUNT:
		return 3;
	default:
		return -1;
	}
	pol->tmp_created = 0;
	close(pol->tmp_pfd);
	pol->tmp_pfd = -1;
	return 0;
}

int
policy_remove_tmp_said(struct policy *pol, void (*note)(const char *text))
{
	int rc = policy_remove_tmp(pol), e = errno;
	struct sbuf b = {0};

	if (rc == 1)
		sbuf_addf(&b, "the temp directory %s is no longer the directory "
			  "the tool made (the command replaced it): left as it "
			  "is", pol->tmp);
	else if (rc == 2)
		sbuf_addf(&b, "the temp directory %s the tool made holds "
			  "directories nested deeper than %u levels, which the "
			  "tool does not descend: left; remove it", pol->tmp,
			  POLICY_TMP_DEPTH);
	else if (rc == 3)
		sbuf_addf(&b, "the temp directory %s the tool made holds a mount "
			  "point (another file system, or another mount of this "
			  "one), which the tool does not enter: left as it is; "
			  "unmount it, then remove the directory", pol->tmp);
	else if (rc < 0)
		sbuf_addf(&b, "the temp directory %s the tool made could not be "
			  "removed (%s): remove it", pol->tmp, strerror(e));
	if (rc != 0)
		note(b.s ? b.s : "the temp directory the tool made is left");
	sbuf_free(&b);
	return rc;
}

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

static int
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

static int
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

static int
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

static int
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

static int
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

static int
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

/* ---- rule 9: the child's environment ------------------------------ */

/* Rule 9: the variables that name a channel to a process acting as the
 * user (or as root for the user) outside the wall.  The command cannot
 * use the channel's files, but a socket answers whoever connects; the
 * reasons, and what passes, are in docs/SPEC-SANDBOX.md rule 9. */
enum scrub_how { SCRUB_EXACT, SCRUB_PREFIX, SCRUB_SUFFIX };

static const struct {
	const char *name;
	enum scrub_how how;
} scrub[] = {
	{ "SSH_AUTH_SOCK", SCRUB_EXACT },       /* agents sign as the user */
	{ "GPG_AGENT_INFO", SCRUB_EXACT },
	{ "SSH_AGENT_", SCRUB_PREFIX },
	{ "_AGENT_PID", SCRUB_SUFFIX },
	{ "_AGENT_INFO", SCRUB_SUFFIX },
	{ "_AGENT_SOCK", SCRUB_SUFFIX },
	{ "GNOME_KEYRING_CONTROL", SCRUB_EXACT }, /* the user's secrets */
	{ "KRB5CCNAME", SCRUB_EXACT },          /* Kerberos tickets */
	{ "DBUS_SESSION_BUS_ADDRESS", SCRUB_EXACT }, /* runs anything */
	{ "DBUS_STARTER_ADDRESS", SCRUB_EXACT },
	{ "XDG_RUNTIME_DIR", SCRUB_EXACT },     /* bus, systemd, agents */
	{ "DISPLAY", SCRUB_EXACT },             /* X: keystrokes both ways */
	{ "XAUTHORITY", SCRUB_EXACT },
	{ "WAYLAND_DISPLAY", SCRUB_EXACT },
	{ "WAYLAND_SOCKET", SCRUB_EXACT },
	{ "SESSION_MANAGER", SCRUB_EXACT },
	{ "PULSE_SERVER", SCRUB_EXACT },        /* the microphone */
	{ "PIPEWIRE_REMOTE", SCRUB_EXACT },
	{ "DOCKER_HOST", SCRUB_EXACT },         /* a daemon that is root */
	{ "CONTAINER_HOST", SCRUB_EXACT },
	{ "NOTIFY_SOCKET", SCRUB_EXACT },       /* the service manager */
	{ "TMUX", SCRUB_EXACT },                /* send-keys to any pane */
	{ "STY", SCRUB_EXACT },
	{ "KITTY_LISTEN_ON", SCRUB_EXACT },
	{ "NVIM", SCRUB_EXACT },                /* editors run any code */
	{ "NVIM_LISTEN_ADDRESS", SCRUB_EXACT },
	{ "VSCODE_IPC_HOOK_CLI", SCRUB_EXACT },
	{ "VSCODE_GIT_IPC_HANDLE", SCRUB_EXACT },
	{ "EMACS_SOCKET_NAME", SCRUB_EXACT },
	{ "SWAYSOCK", SCRUB_EXACT },            /* compositors: exec anything */
	{ "I3SOCK", SCRUB_EXACT },
	{ "HYPRLAND_INSTANCE_SIGNATURE", SCRUB_EXACT },
	{ "NIRI_SOCKET", SCRUB_EXACT },
	{ "WEZTERM_UNIX_SOCKET", SCRUB_EXACT }, /* terminals: spawn panes */
	{ "ALACRITTY_SOCKET", SCRUB_EXACT },
	{ "ZELLIJ", SCRUB_EXACT },
	{ "ZELLIJ_SESSION_NAME", SCRUB_EXACT },
	{ "PODMAN_HOST", SCRUB_EXACT },         /* container daemons */
	{ "CONTAINERD_ADDRESS", SCRUB_EXACT },
	{ "BUILDKIT_HOST", SCRUB_EXACT },
};

static int
scrub_match(const char *e, size_t n, const char *m, enum scrub_how how)
{
	size_t k = strlen(m);

	if (n < k)
		return 0;
	switch (how) {
	case SCRUB_EXACT:
		return n == k && strncmp(e, m, k) == 0;
	case SCRUB_PREFIX:
		return strncmp(e, m, k) == 0;
	case SCRUB_SUFFIX:
		return strncmp(e + n - k, m, k) == 0;
	}
	return 0;
}

/* Is the name e[0..n) one rule 9 drops? */
static int
scrub_var(const char *e, size_t n)
{
	for (size_t i = 0; i < sizeof(scrub) / sizeof(scrub[0]); i++)
		if (scrub_match(e, n, scrub[i].name, scrub[i].how))
			return 1;
	return 0;
}

static int
name_is(const char *e, size_t n, const char *name)
{
	return strlen(name) == n && strncmp(e, name, n) == 0;
}

static int
tmp_var(const char *e, size_t n)
{
	return name_is(e, n, "TMPDIR") || name_is(e, n, "TMP") ||
	       name_is(e, n, "TEMP") || name_is(e, n, "TMPPREFIX");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
drop_name(struct strv *dropped, const char *e, size_t n)
{
	struct sbuf s = {0};
	int rc = sbuf_addn(&s, e, n);

	if (rc == 0 && !strv_contains(dropped, s.s))
		rc = strv_push(dropped, s.s);
	sbuf_free(&s);
	return rc;
}

/* One caller variable the flags of rule 9a dropped or passed: said in
 * the report by name (never by value). */
static int
report_var(struct env_report *rep, const char *e, size_t n, int decision)
{
	int rc = 0;

	if (rep == NULL)
		return 0;
	if (decision == 0) {
		rc = drop_name(&rep->by_flag, e, n);
		if (rc == 0 && envpol_cred(e, n))
			rc = drop_name(&rep->creds_dropped, e, n);
	} else if (decision == 1 && envpol_cred(e, n) && !envpol_tool_var(e, n))
		rc = drop_name(&rep->creds_passed, e, n);
	return rc;
}

/* The --env KEY=VALUE settings, the last of each KEY, in order; and the
 * credential-looking names --env passes, and the --env KEY the caller's
 * environment does not hold. */
static int
env_sets(char *const *env, const struct env_opts *o, struct strv *out,
	 struct env_report *rep)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && o->keep && i < o->keep->n; i++) {
		const char *k = o->keep->v[i];
		size_t n = strcspn(k, "="), j, later = 0;
		int held = 0;

		for (j = i + 1; j < o->keep->n; j++)
			later |= strncmp(o->keep->v[j], k, n) == 0 &&
				 strcspn(o->keep->v[j], "=") == n;
		if (later)
			continue;
		for (char *const *e = env; e && *e && !held; e++)
			held = strcspn(*e, "=") == n && strncmp(*e, k, n) == 0;
		if (k[n] == '=')
			rc = strv_push(out, k);
		else if (!held && rep != NULL)
			rc = drop_name(&rep->unset_keep, k, n);
		if (rc == 0 && rep != NULL && (k[n] == '=' || held) &&
		    envpol_cred(k, n))
			rc = drop_name(&rep->creds_set, k, n);
	}
	return rc;
}

static void
report_sort(struct env_report *rep)
{
	struct strv *l[] = { &rep->by_flag, &rep->creds_dropped,
			     &rep->creds_passed, &rep->creds_set, &rep->dups,
			     &rep->malformed };

	for (size_t i = 0; i < sizeof(l) / sizeof(*l); i++)
		if (l[i]->n > 1)
			qsort(l[i]->v, l[i]->n, sizeof(char *), cmp_str);
}

static int
report_failed(const struct env_report *rep)
{
	return rep != NULL &&
	       (strv_failed(&rep->by_flag) || strv_failed(&rep->creds_dropped) ||
		strv_failed(&rep->creds_passed) || strv_failed(&rep->creds_set) ||
		strv_failed(&rep->unset_keep) || strv_failed(&rep->dups) ||
		strv_failed(&rep->malformed));
}

/* Does an entry before e in env hold the name e[0..n)? */
static int
seen_before(char *const *env, char *const *e, size_t n)
{
	for (char *const *p = env; p != e; p++)
		if (strncmp(*p, *e, n) == 0 && (*p)[n] == '=')
			return 1;
	return 0;
}

int
policy_child_env_opts(char *const *env, const char *tmp,
		      const struct env_opts *o, struct strv *out,
		      struct strv *dropped, struct env_report *rep)
{
	static const struct env_opts none = { 0, NULL, NULL, 0 };
	const char *by;
	int rc = 0;

	if (o == NULL)
		o = &none;
	for (char *const *e = env; rc == 0 && e != NULL && *e != NULL; e++) {
		size_t n = strcspn(*e, "=");
		int d;

		if (n == 0 || (*e)[n] != '=') { /* no variable: no one reads it */
			if (rep != NULL)
				rc = n ? drop_name(&rep->malformed, *e, n) :
					 drop_name(&rep->malformed, "\"\"", 2);
			continue;
		}
		if (seen_before(env, e, n)) { /* the first is the one decided */
			if (rep != NULL)
				rc = drop_name(&rep->dups, *e, n);
			continue;
		}
		d = envpol_decide(o, *e, n, &by);
		if (tmp_var(*e, n) || d == 2)
			continue;
		if (d != 3 && scrub_var(*e, n))
			rc = drop_name(dropped, *e, n);
		else if (d == 0)
			rc = report_var(rep, *e, n, 0);
		else if ((rc = strv_push(out, *e)) == 0 && d == 1)
			rc = report_var(rep, *e, n, 1);
	}
	if (rc == 0)
		rc = env_sets(env, o, out, rep);
	if (rc == 0 && tmp != NULL)
		rc = (strv_pushf(out, "TMPDIR=%s", tmp) < 0 ||
		      strv_pushf(out, "TMP=%s", tmp) < 0 ||
		      strv_pushf(out, "TEMP=%s", tmp) < 0 ||
		      strv_pushf(out, "TMPPREFIX=%s/zsh", tmp) < 0) ? -1 : 0;
	if (rc == 0 && dropped->n > 1)
		qsort(dropped->v, dropped->n, sizeof(char *), cmp_str);
	if (rc == 0 && rep != NULL)
		report_sort(rep);
	return rc < 0 || strv_failed(out) || strv_failed(dropped) ||
	       report_failed(rep) ? -1 : 0;
}

size_t
policy_env_dropped(const struct policy *pol)
{
	return pol->dropped.n + pol->envrep.by_flag.n;
}

int
policy_child_env(char *const *env, const char *tmp, struct strv *out,
		 struct strv *dropped)
{
	return policy_child_env_opts(env, tmp, NULL, out, dropped, NULL);
}

/* ---- the build ---------------------------------------------------- */

static int
copy_strv(struct strv *dst, const struct strv *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (strv_push(dst, src->v[i]) < 0)
			return -1;
	return 0;
}

/* Every check, gathering refusals; -1 only on allocation failure. */
static int
gather(struct build *b)
{
	if (check_gpu(b) < 0 || check_net(b) < 0 ||
	    check_command_and_write(b) < 0 || resolve_caller_dirs(b) < 0)
		return -1;
	if (b->pol->writes.n == 0)
		return 0; /* nothing else can be judged without a --write */
	if (check_cwd(b) < 0 || check_tmp(b) < 0 || check_home(b) < 0 ||
	    resolve_command(b) < 0 || home_guard(b) < 0)
		return -1;
	return 0;
}

/* The sound build's remaining fields; nothing here can refuse. */
static int
assemble(struct build *b)
{
	const struct policy_input *in = b->in;
	struct policy *pol = b->pol;
	struct env_opts eo;

	if (in->name != NULL && (pol->name = strdup(in->name)) == NULL)
		return -1;
	pol->net_deny = in->net_deny;
	pol->net_listen = in->net_listen;
	if (copy_strv(&pol->net_allow, &in->net_allow) < 0 ||
	    copy_strv(&pol->argv, &in->argv) < 0 ||
	    copy_strv(&pol->toolchain_reads, &in->toolchain_reads) < 0 ||
	    collect_roots(b) < 0 ||
	    make_rules(pol) < 0 || count_ancestors(b) < 0)
		return -1;
	eo.clear = in->env_clear;
	eo.keep = &in->env_keep;
	eo.deny = &in->env_deny;
	eo.clean = in->env_clean;
	return policy_child_env_opts(in->env, pol->tmp, &eo, &pol->env,
				     &pol->dropped, &pol->envrep);
}

/* Did building a list the policy depends on fail?  A lost entry of any of
 * them could widen the wall (a --read, a caller's home for the guard, an
 * argument, a scrubbed variable back): the build then fails whole. */
static int
input_failed(const struct policy_input *in)
{
	return strv_failed(&in->reads) || strv_failed(&in->reads_noexec) ||
	       strv_failed(&in->writes) || strv_failed(&in->net_allow) ||
	       strv_failed(&in->argv) || strv_failed(&in->caller_homes) ||
	       strv_failed(&in->env_keep) || strv_failed(&in->env_deny) ||
	       strv_failed(&in->protect) || strv_failed(&in->unprotect);
}

static int
built_failed(const struct policy *pol)
{
	const struct strv *lists[] = {
		&pol->roots, &pol->opt_roots, &pol->reads, &pol->reads_noexec,
		&pol->writes, &pol->write_files, &pol->ttys, &pol->net_allow,
		&pol->argv, &pol->env, &pol->dropped, &pol->notes,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strv_failed(lists[i]))
			return 1;
	return 0;
}

static void
policy_init_fds(struct policy *pol)
{
	struct rpath *one[] = {
		&pol->r_cwd, &pol->r_tmp, &pol->r_home, &pol->r_command,
		&pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		one[i]->fd = one[i]->dir_fd = -1;
}

int
policy_build(const struct policy_input *in, struct policy *pol,
	     struct refusals *r)
{
	static const struct platform_roots none = {0};
	struct policy_input local = *in;
	struct build b = {.in = &local, .pol = pol, .r = r};
	size_t n0 = r->n;
	int rc;

	if (local.roots == NULL)
		local.roots = &none;
	if (in->remedy_args != NULL) {
		struct cmdline c = build_line(&b);

		remedy_keep(r, &c); /* the one line after the list is fixed on it */
	}
	b.uid = in->as_uid != NULL ? *in->as_uid : (uid_t)os_euid();
	paths_cache_reset();
	memset(pol, 0, sizeof(*pol));
	policy_init_fds(pol);
	rc = input_failed(in) ? -1 : gather(&b);
	if (rc == 0 && r->n == n0)
		rc = assemble(&b);
	if (rc == 0 && r->n == n0) /* rule 5a */
		rc = protect_build(&(struct protect_src){ &in->protect,
			&in->unprotect, &pol->r_writes, &pol->r_cwd, b.uid,
			build_line(&b) }, &pol->prot, &pol->notes, r) < 0 ? -1 : 0;
	if (rc == 0 && built_failed(pol))
		rc = -1; /* before make_tmp: a failed build creates nothing */
	if (rc == 0 && r->n == n0 && in->create_tmp && in->tmp == NULL)
		rc = make_tmp(&b);
	paths_cache_reset(); /* no walked directory stays open */
	if (rc < 0 || refusals_failed(r))
		refusals_oom(r); /* one line, never a shorter list */
	if (rc == 0 && r->n == n0 && !refusals_failed(r))
		return 0;
	policy_free(pol);
	return rc < 0 || refusals_failed(r) ? -1 : 1;
}

void
policy_view(const struct policy *pol, struct ns_policy *view)
{
	memset(view, 0, sizeof(*view));
	view->struct_size = sizeof(*view);
	view->flags = (pol->net_deny ? NS_POLICY_NET_DENY : 0) |
		      (pol->net_listen ? NS_POLICY_NET_LISTEN : 0);
	view->rules = pol->rules;
	view->n_rules = pol->n_rules;
	view->net_allow = (const char *const *)pol->net_allow.v;
	view->n_net_allow = pol->net_allow.n;
	view->gpu = pol->gpu;
	view->name = pol->name;
	view->command = pol->command;
	view->argv = (const char *const *)pol->argv.v;
	view->envp = (const char *const *)pol->env.v;
	view->cwd = pol->cwd;
	view->tmp = pol->tmp;
	view->home = pol->home;
	view->rule_fds = pol->rule_fds;
	view->cwd_fd = pol->r_cwd.fd >= 0 ? &pol->r_cwd.fd : NULL;
	view->protect = pol->prot.paths;
	view->n_protect = pol->prot.n;
	view->protect_fds = pol->prot.fds;
}

void
policy_close_fds(struct policy *pol)
{
	struct rpaths *lists[] = {
		&pol->r_roots, &pol->r_opt, &pol->r_reads, &pol->r_reads_noexec,
		&pol->r_writes, &pol->r_write_files,
	};
	struct rpath *one[] = {
		&pol->r_tmp, &pol->r_home, &pol->r_command, &pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (size_t j = 0; j < lists[i]->n; j++)
			rpath_close(&lists[i]->v[j]);
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		rpath_close(one[i]);
	for (size_t i = 0; pol->rule_fds != NULL && i < pol->n_rules; i++)
		pol->rule_fds[i] = -1;
}

void
policy_free(struct policy *pol)
{
	struct strv *lists[] = {
		&pol->roots, &pol->opt_roots, &pol->reads, &pol->reads_noexec,
		&pol->writes, &pol->write_files, &pol->ttys, &pol->net_allow,
		&pol->argv,
		&pol->env, &pol->dropped,
	};

	struct rpaths *rlists[] = {
		&pol->r_roots, &pol->r_opt, &pol->r_reads, &pol->r_reads_noexec,
		&pol->r_writes, &pol->r_write_files,
	};
	struct rpath *one[] = {
		&pol->r_cwd, &pol->r_tmp, &pol->r_home, &pol->r_command,
		&pol->r_cmd_dir,
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		strv_free(lists[i]);
	for (size_t i = 0; i < sizeof(rlists) / sizeof(rlists[0]); i++)
		rpaths_free(rlists[i]);
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		rpath_free(one[i]);
	strv_free(&pol->notes);
	env_report_free(&pol->envrep);
	if (pol->tmp_created && pol->tmp_pfd >= 0)
		close(pol->tmp_pfd);
	strv_free(&pol->toolchain_reads);
	protect_free(&pol->prot);
	free(pol->rule_fds);
	free(pol->rule_ids);
	free(pol->command);
	free(pol->cwd);
	free(pol->tmp);
	free(pol->home);
	free(pol->name);
	free(pol->rules);
	memset(pol, 0, sizeof(*pol));
}

void
policy_input_free(struct policy_input *in)
{
	strv_free(&in->reads);
	strv_free(&in->reads_noexec);
	strv_free(&in->writes);
	strv_free(&in->net_allow);
	strv_free(&in->argv);
	strv_free(&in->caller_homes);
	strv_free(&in->env_keep);
	strv_free(&in->env_deny);
	strv_free(&in->toolchain_reads);
	strv_free(&in->protect);
	strv_free(&in->unprotect);
}
