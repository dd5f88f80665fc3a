/* SPDX-License-Identifier: MIT */
/* childenv.c -- rule 9: the child's environment, what the wall passes and
 * what it drops (policy.h; docs/SPEC-SANDBOX.md rule 9). */
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
