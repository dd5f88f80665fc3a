/* SPDX-License-Identifier: MIT */
/* av_cfg.c -- apfsvol.so options (absolute paths only) and small checks. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "av.h"

#define AV_LOCK_WAIT_DEFAULT 900u /* 15 minutes, as the original */
#define AV_TIMEOUT_DEFAULT 300u

static int
abs_option(const struct ns_host *h, const char *key, const char *def,
	   const char **out)
{
	const char *v = h->option(h->cookie, key);

	if (v == NULL)
		v = def;
	if (v[0] != '/' || strlen(v) >= 400) {
		av_refuse(h, "bad_config",
			  "apfsvol option %s = %s is not an absolute path; "
			  "set [apfsvol] %s = /absolute/path (tools are never "
			  "looked up on PATH)", key, v, key);
		return -1;
	}
	*out = v;
	return 0;
}

static int
secs_option(const struct ns_host *h, const char *key, unsigned def,
	    unsigned *out)
{
	const char *v = h->option(h->cookie, key);
	unsigned long n = 0;

	*out = def;
	if (v == NULL)
		return 0;
	for (const char *p = v; ; p++) {
		if (*p == '\0' && p != v && n > 0 && n <= 86400) {
			*out = (unsigned)n;
			return 0;
		}
		if (!isdigit((unsigned char)*p) || n > 86400)
			break;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	av_refuse(h, "bad_config", "apfsvol option %s = %s is not a number "
		  "of seconds 1..86400; set [apfsvol] %s = <seconds>", key, v,
		  key);
	return -1;
}

/* <UserCacheDir>/nova-sandbox/volume-create.lock, as the original; left
 * "" when HOME is unusable (av_lock then refuses, naming the option). */
static void
default_lock(struct av_cfg *c)
{
	const char *home = getenv("HOME");
	const char *cache = "/.cache";
	int n;

#ifdef __APPLE__
	cache = "/Library/Caches";
#endif
	if (home == NULL || home[0] != '/')
		return;
	n = snprintf(c->lockfile, sizeof(c->lockfile),
		     "%s%s/nova-sandbox/volume-create.lock", home, cache);
	if (n < 0 || (size_t)n >= sizeof(c->lockfile))
		c->lockfile[0] = '\0';
}

/* Every problem at once; NS_OK or NS_E_UNAVAILABLE (refused). */
int
av_cfg_load(const struct ns_host *h, struct av_cfg *c)
{
	const char *lock = NULL;
	int bad = 0;

	memset(c, 0, sizeof(*c));
	bad |= abs_option(h, "diskutil", "/usr/sbin/diskutil", &c->diskutil);
	bad |= abs_option(h, "lsof", "/usr/sbin/lsof", &c->lsof);
	bad |= abs_option(h, "ps", "/bin/ps", &c->ps);
	bad |= abs_option(h, "volumes", "/Volumes", &c->volumes);
	bad |= secs_option(h, "lock_wait", AV_LOCK_WAIT_DEFAULT, &c->lock_wait);
	bad |= secs_option(h, "timeout", AV_TIMEOUT_DEFAULT, &c->timeout);
	if (h->option(h->cookie, "lockfile") != NULL) {
		if (abs_option(h, "lockfile", "", &lock) == 0)
			snprintf(c->lockfile, sizeof(c->lockfile), "%s", lock);
		else
			bad = -1;
	} else {
		default_lock(c);
	}
	return bad ? NS_E_UNAVAILABLE : NS_OK;
}

/* The run name as the host validated it: [A-Za-z0-9][A-Za-z0-9._-]{0,31}. */
int
av_valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 32 || !isalnum((unsigned char)name[0]))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)name[i]) &&
		    strchr("._-", name[i]) == NULL)
			return 0;
	return 1;
}

/* diskNsM (an APFS volume identifier; never a name). */
int
av_valid_id(const char *id)
{
	const char *p = id;

	if (strncmp(p, "disk", 4) != 0)
		return 0;
	p += 4;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != 's' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '\0';
}

/* <volumes>/<one component, no whitespace, no ".."> */
int
av_under_root(const struct av_cfg *c, const char *path)
{
	size_t n = strlen(c->volumes);
	const char *leaf;

	while (n > 1 && c->volumes[n - 1] == '/')
		n--;
	if (strncmp(path, c->volumes, n) != 0 || path[n] != '/')
		return 0;
	leaf = path + n + 1;
	if (leaf[0] == '\0' || strcmp(leaf, ".") == 0 ||
	    strcmp(leaf, "..") == 0 || strchr(leaf, '/') != NULL)
		return 0;
	for (const char *p = leaf; *p; p++)
		if (isspace((unsigned char)*p) || iscntrl((unsigned char)*p))
			return 0;
	return 1;
}
