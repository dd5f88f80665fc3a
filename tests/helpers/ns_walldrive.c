/* SPDX-License-Identifier: MIT */
/* ns_walldrive.c -- drive a wall module's ops directly, without the host:
 * a hand-built ns_policy (the module's read roots, --write/--read rules,
 * protected paths with their O_PATH descriptors), then prepare(), spawn(),
 * waitpid() and release().  For unit-level cases of a wall feature whose
 * host side is elsewhere (t_bwrap.sh: ABI 1.4 protected paths).
 *
 *   ns_walldrive MODULE.so [-w DIR] [-r DIR] [-p PATH] [-P PATH]
 *                          [-o KEY=VALUE] -- CMD ARG...
 *     -w DIR   a write rule          -r DIR   a read rule
 *     -p PATH  a protected path (its descriptor opened here, O_PATH)
 *     -P PATH  a protected path whose descriptor is of "/" (a wrong one)
 *     -o KEY=VALUE  the module's option KEY (its config section's)
 *   CMD "policy" renders the policy text on stdout instead.
 *   The command's own directory is its working directory.
 *   Exit: the command's exit code; 125 when the module refused (its
 *   REFUSED line on stderr); 2 on bad usage or a load error. */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns_backend.h"

#define MAXN 64
#define MAXN_OPT 8

static void
on_note(void *c, const char *t)
{
	(void)c;
	fprintf(stderr, "DRIVE NOTE %s\n", t);
}

static void
on_refuse(void *c, const char *r, const char *t)
{
	(void)c;
	fprintf(stderr, "DRIVE REFUSED reason=%s: %s\n", r, t);
}

static void
on_text(void *c, const char *t)
{
	(void)c;
	printf("%s\n", t);
}

static const char *opts[MAXN_OPT];
static size_t n_opts;

static const char *
on_option(void *c, const char *k)
{
	size_t n = strlen(k);

	(void)c;
	for (size_t i = 0; i < n_opts; i++)
		if (strncmp(opts[i], k, n) == 0 && opts[i][n] == '=')
			return opts[i] + n + 1;
	return NULL;
}

struct drive {
	struct ns_rule rules[MAXN];
	const char *protect[MAXN];
	int32_t pfds[MAXN];
	size_t nr, np;
	char *own[MAXN * 2];
	size_t nown;
};

static int
add_rule(struct drive *d, const char *path, uint32_t access)
{
	char *r = realpath(path, NULL);

	if (r == NULL || d->nr == MAXN)
		return r == NULL ? 0 : -1; /* an absent root: no rule */
	d->own[d->nown++] = r;
	d->rules[d->nr++] = (struct ns_rule){ r, access, NS_ORIGIN_WRITE };
	return 0;
}

static int
add_protect(struct drive *d, const char *path, int wrong)
{
	if (d->np == MAXN)
		return -1;
	d->protect[d->np] = path;
	d->pfds[d->np] = open(wrong ? "/" : path,
			      O_PATH | O_CLOEXEC | O_NOFOLLOW);
	return d->pfds[d->np++] < 0 ? -1 : 0;
}

static int
parse(struct drive *d, const struct ns_wall_ops *w, int argc, char **argv,
      int *cmd)
{
	int i;

	for (const char *const *p = w->read_roots; p && *p; p++)
		add_rule(d, *p, NS_ACCESS_READ_EXEC);
	for (const char *const *p = w->write_files; p && *p; p++)
		add_rule(d, *p, NS_ACCESS_WRITE_FILE);
	for (i = 2; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		int rc = -1;

		if (strcmp(argv[i], "-w") == 0)
			rc = add_rule(d, argv[i + 1], NS_ACCESS_WRITE);
		else if (strcmp(argv[i], "-r") == 0)
			rc = add_rule(d, argv[i + 1], NS_ACCESS_READ_EXEC);
		else if (strcmp(argv[i], "-o") == 0 && n_opts < MAXN_OPT &&
			 strchr(argv[i + 1], '=') != NULL)
			rc = (opts[n_opts++] = argv[i + 1], 0);
		else if (strcmp(argv[i], "-p") == 0 ||
			 strcmp(argv[i], "-P") == 0)
			rc = add_protect(d, argv[i + 1], argv[i][1] == 'P');
		if (rc != 0)
			return -1;
	}
	*cmd = i + 1;
	return i < argc && strcmp(argv[i], "--") == 0 && *cmd < argc ? 0 : -1;
}

static int
run(const struct ns_wall_ops *w, struct ns_policy *pol)
{
	struct ns_host h = { sizeof(h), NS_BACKEND_ABI_MAJOR,
			     NS_BACKEND_ABI_MINOR, NULL, on_note, on_refuse,
			     on_text, on_option, NULL };
	struct ns_launch l = { sizeof(l), { 0, 1, 2 }, NULL, 0 };
	struct ns_proc pr = { sizeof(pr), 0, 0 };
	void *st = NULL;
	int ws = 0;

	if (w->prepare(&h, pol, &st) != NS_OK)
		return 125;
	if (w->spawn(&h, st, pol, &l, &pr) != NS_OK) {
		w->release(&h, st);
		return 125;
	}
	while (waitpid((pid_t)pr.pid, &ws, 0) < 0)
		;
	w->release(&h, st);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int
main(int argc, char **argv, char **envp)
{
	static struct drive d;
	struct ns_policy pol;
	const struct ns_backend_ops *m;
	char cwd[PATH_MAX];
	void *so;
	int cmd, rc;

	if (argc < 4 || (so = dlopen(argv[1], RTLD_NOW)) == NULL ||
	    (m = dlsym(so, NS_BACKEND_SYMBOL)) == NULL || m->wall == NULL) {
		fprintf(stderr, "usage: ns_walldrive MODULE.so [-w|-r|-p|-P "
			"PATH]... -- CMD ARG... (%s)\n", dlerror());
		return 2;
	}
	if (parse(&d, m->wall, argc, argv, &cmd) != 0 ||
	    getcwd(cwd, sizeof(cwd)) == NULL) {
		fprintf(stderr, "ns_walldrive: bad arguments or path\n");
		return 2;
	}
	memset(&pol, 0, sizeof(pol));
	pol.struct_size = sizeof(pol);
	pol.rules = d.rules;
	pol.n_rules = d.nr;
	pol.cwd = cwd;
	pol.command = argv[cmd];
	pol.argv = (const char *const *)&argv[cmd];
	pol.envp = (const char *const *)envp;
	pol.protect = d.protect;
	pol.n_protect = d.np;
	pol.protect_fds = d.pfds;
	rc = strcmp(argv[cmd], "policy") == 0 ?
		     (m->wall->render(&(struct ns_host){ sizeof(struct ns_host),
			     NS_BACKEND_ABI_MAJOR, NS_BACKEND_ABI_MINOR, NULL,
			     on_note, on_refuse, on_text, on_option, NULL },
			     &pol) == NS_OK ? 0 : 125) :
		     run(m->wall, &pol);
	for (size_t i = 0; i < d.nown; i++)
		free(d.own[i]);
	return rc;
}
