/* SPDX-License-Identifier: MIT */
/* outsweep.c -- what a killed hand-off leaves in --out, found and cleared.
 * A hand-off stages its copy in <out>/.<name>.nova-new-<pid>, moves an
 * earlier <name> aside to <out>/.<name>.nova-old-<pid>, and the check
 * before the run makes <out>/.<name>.nova-check-<pid>; a tool killed
 * between those steps leaves them.  handoff_sweep lists <out> by its
 * descriptor and clears the ones whose owner is gone: an old one that is
 * the only copy left (no <name>) is renamed back, every other one is
 * removed beneath the descriptor (no link followed).  The hand-off
 * records its --out in the tool's state directory (out-<pid>) while it
 * runs, so `reap` can find an --out a killed hand-off left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/os.h"
#include "policy/ownfiles.h"
#include "policy/rmtree.h"
#include "run/handoff.h"
#include "run/runargs.h"

static const char *const kinds[] = { "new", "old", "check", NULL };

/* ".<name>.nova-<kind>-<pid>[-<k>]": 0 with name (in buf), kind and pid
 * set, -1 when entry is no such name. */
int
handoff_leftover_parse(const char *entry, char *name, size_t cap,
		       const char **kind, long *pid)
{
	const char *mark = NULL, *p, *end;
	size_t n;

	if (entry[0] != '.')
		return -1;
	for (p = entry + 1; (p = strstr(p, ".nova-")) != NULL; p++)
		mark = p;
	if (mark == NULL || (n = (size_t)(mark - entry - 1)) == 0 || n >= cap)
		return -1;
	memcpy(name, entry + 1, n);
	name[n] = '\0';
	if (run_valid_name(name) != 0)
		return -1;
	p = mark + 6;
	*kind = NULL;
	for (size_t i = 0; kinds[i] != NULL && *kind == NULL; i++) {
		size_t k = strlen(kinds[i]);

		if (strncmp(p, kinds[i], k) == 0 && p[k] == '-') {
			*kind = kinds[i];
			p += k + 1;
		}
	}
	if (*kind == NULL || *p < '1' || *p > '9')
		return -1;
	errno = 0;
	*pid = strtol(p, (char **)&end, 10);
	if (errno != 0 || *pid <= 0)
		return -1;
	if (*end == '-' && end[1] >= '1' && end[1] <= '9') {
		for (end++; *end >= '0' && *end <= '9'; end++)
			;
	}
	if (strcmp(end, "-r") == 0) /* the check's renamed sibling */
		end += 2;
	return *end == '\0' ? 0 : -1;
}

struct sweep {
	int fd;
	const char *held;
	int dry;
	handoff_sweep_say say;
	void *arg;
	struct strv found;
	size_t done;
};

static int
collect(void *arg, const char *entry)
{
	struct sweep *s = arg;
	char name[64];
	const char *kind;
	long pid;

	if (handoff_leftover_parse(entry, name, sizeof(name), &kind, &pid) == 0
	    && strv_push(&s->found, entry) < 0)
		return -2;
	return 0;
}

/* Its owner is gone: the pid is not alive, or it names the run whose
 * name the caller holds (a run of that name and uid that is not the
 * caller cannot be live).  Only a directory of the caller's uid. */
static int
dead(const struct sweep *s, const char *entry, const char *name, long pid)
{
	struct os_stat sb;

	if (pid == (long)getpid() || os_fstat_at(s->fd, entry, &sb) != 0 ||
	    !S_ISDIR(sb.mode) || sb.uid != os_euid())
		return 0;
	if (!os_pid_alive(pid))
		return 1;
	return s->held != NULL && strcmp(name, s->held) == 0;
}

static void
one(struct sweep *s, const char *entry, int olds)
{
	struct os_stat sb;
	char name[64];
	const char *kind;
	long pid;
	int did;

	if (handoff_leftover_parse(entry, name, sizeof(name), &kind, &pid) != 0
	    || (strcmp(kind, "old") == 0) != olds ||
	    !dead(s, entry, name, pid))
		return;
	s->done++;
	if (olds && os_fstat_at(s->fd, name, &sb) != 0 && errno == ENOENT)
		did = s->dry || os_rename_at(s->fd, entry, name) == 0 ?
		    HANDOFF_SWEEP_RESTORED : HANDOFF_SWEEP_KEPT;
	else
		did = s->dry || rmtree_at(s->fd, entry,
					  2 * RUN_OUT_DEPTH_TOP) == 0 ?
		    HANDOFF_SWEEP_REMOVED : HANDOFF_SWEEP_KEPT;
	if (s->say != NULL)
		s->say(s->arg, entry, name, pid, did);
}

int
handoff_sweep(int out_fd, const char *held, int dry, handoff_sweep_say say,
	      void *arg)
{
	struct sweep s = { out_fd, held, dry, say, arg, {0}, 0 };
	int rc = os_dir_names(out_fd, NULL, collect, &s);

	if (rc != 0 || strv_failed(&s.found)) {
		strv_free(&s.found);
		return -1;
	}
	/* the earlier copies first: one that is the only copy goes back to
	 * <name> before anything of that name is removed */
	for (size_t i = 0; i < s.found.n; i++)
		one(&s, s.found.v[i], 1);
	for (size_t i = 0; i < s.found.n; i++)
		one(&s, s.found.v[i], 0);
	strv_free(&s.found);
	return (int)s.done;
}

/* ---- the record reap reads ------------------------------------------- */

int
handoff_record(const char *out, struct handoff_rec *rec)
{
	char *state = ownfiles_state_dir(os_euid());
	int fd;
	size_t n = strlen(out);

	rec->dirfd = state ? os_open_readdir(state) : -1;
	free(state);
	if (rec->dirfd < 0)
		return -1;
	snprintf(rec->file, sizeof(rec->file), "out-%ld", (long)getpid());
	(void)os_unlink_at(rec->dirfd, rec->file, 0); /* a reused pid's */
	fd = os_create_at(rec->dirfd, rec->file, 0600);
	if (fd >= 0 && write(fd, out, n) == (ssize_t)n &&
	    write(fd, "\n", 1) == 1) {
		close(fd);
		return 0;
	}
	if (fd >= 0)
		close(fd);
	(void)os_unlink_at(rec->dirfd, rec->file, 0);
	close(rec->dirfd);
	rec->dirfd = -1;
	return -1;
}

void
handoff_unrecord(struct handoff_rec *rec)
{
	if (rec->dirfd < 0)
		return;
	(void)os_unlink_at(rec->dirfd, rec->file, 0);
	close(rec->dirfd);
	rec->dirfd = -1;
}

struct reap_walk {
	int dirfd, dry;
	handoff_sweep_say say;
	handoff_rec_say rsay;
	void *arg;
	struct strv files;
};

struct state_names {
	const char *prefix;
	struct strv *names;
};

static int
state_collect(void *arg, const char *entry)
{
	const struct state_names *sn = arg;
	size_t k = strlen(sn->prefix);

	if (strncmp(entry, sn->prefix, k) == 0 && entry[k] >= '1' &&
	    entry[k] <= '9' && strspn(entry + k, "0123456789") ==
	    strlen(entry + k) && strv_push(sn->names, entry) < 0)
		return -2;
	return 0;
}

int
run_state_list(const char *prefix, int *dirfd, struct strv *names)
{
	char *state = ownfiles_state_dir(os_euid());
	struct state_names sn = { prefix, names };

	*dirfd = state ? os_open_readdir(state) : -1;
	free(state);
	if (*dirfd < 0)
		return errno == ENOENT ? 0 : -1;
	if (os_dir_names(*dirfd, NULL, state_collect, &sn) == 0 &&
	    !strv_failed(names))
		return 0;
	close(*dirfd);
	*dirfd = -1;
	return -1;
}

/* The --out path one record names: heap, or NULL. */
static char *
rec_read(int dirfd, const char *file)
{
	char buf[4097];
	int fd = os_open_read_at(dirfd, file, 0);
	ssize_t n;
	char *nl;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (nl == NULL || nl[1] != '\0' || os_root_len(buf) == 0)
		return NULL;
	*nl = '\0';
	return strdup(buf);
}

static void
rec_one(struct reap_walk *w, const char *file)
{
	long pid = strtol(file + 4, NULL, 10);
	char *out;
	int fd;

	if (pid == (long)getpid() || os_pid_alive(pid))
		return;
	out = rec_read(w->dirfd, file);
	fd = out ? os_open_readdir(out) : -1;
	if (w->rsay != NULL)
		w->rsay(w->arg, out, pid, fd >= 0);
	if (fd >= 0) {
		(void)handoff_sweep(fd, NULL, w->dry, w->say, w->arg);
		close(fd);
	}
	if (!w->dry)
		(void)os_unlink_at(w->dirfd, file, 0);
	free(out);
}

int
handoff_reap_records(int dry, handoff_rec_say rsay, handoff_sweep_say say,
		     void *arg)
{
	struct reap_walk w = { -1, dry, say, rsay, arg, {0} };
	int rc = run_state_list("out-", &w.dirfd, &w.files);

	for (size_t i = 0; rc == 0 && i < w.files.n; i++)
		rec_one(&w, w.files.v[i]);
	strv_free(&w.files);
	if (w.dirfd >= 0)
		close(w.dirfd);
	return rc;
}
