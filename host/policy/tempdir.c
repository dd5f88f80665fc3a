/* SPDX-License-Identifier: MIT */
/* tempdir.c -- the default temp directory, made once every check has passed
 * and removed after (policy.h, build.h; docs/SPEC-SANDBOX.md rule 8). */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/rmtree.h"
#include "policy/build.h"

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
int
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

int
check_tmp(struct build *b)
{
	if (b->in->tmp == NULL)
		return default_tmp(b);
	return resolve_in_write(b, "--tmp", REASON_BAD_WRITE, b->in->tmp,
				&b->pol->tmp, &b->pol->r_tmp);
}

/* Called last, when the build is sound: made under the first --write's
 * descriptor, never following a name planted where it should be. */
int
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
