/* SPDX-License-Identifier: MIT */
/* config.c -- the ini files that select modules (see config.h).
 *
 * Each file is opened with os_open_own (no link followed) and checked on
 * the descriptor (and every parent directory) before iniparser reads
 * exactly that file through os_fd_name (Linux: /proc/self/fd/N).  conf.d
 * is opened the same way as a directory, checked on its descriptor, listed
 * through it, and each drop-in opened relative to it.  iniparser finds syntax errors; the line numbers of
 * sections and keys it accepted are found by scanning the same bytes (a
 * locator, not a second parser). */
#include "conf/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "os/os.h"
#include "conf/cload.h"

#ifndef NS_MODULEDIR_REL
#define NS_MODULEDIR_REL "../lib/nova-sandbox"
#endif


struct pdefault {
	const char *platform;
	const char *wall;
	const char *egress;
	const char *place;
	const char *proxy; /* 1.5: --net-allow's filtering proxy */
};

static const struct pdefault pdefaults[] = {
	{ "linux", "landlock.so", "nftegress.so", "nsplace.so", "netproxy.so" },
	{ "darwin", "seatbelt.dylib", NULL, "apfsvol.so", "netproxy.so" },
	{ "windows", "jobobject.dll", NULL, "jobobject.dll", NULL },
};

static const char *const platform_names[] = { "linux", "darwin", "windows",
					      NULL };
static const char *const platform_keys[] = { "wall", "egress", "place",
					      "proxy", NULL };
static const char *const main_keys[] = { "moduledir", NULL };

static void
use_file(struct cload *cl, const struct cfile *f)
{
	cl->shown = f->shown;
	cl->text = f->text;
	cl->len = f->len;
	cl->d = f->d;
}

static int
in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static char *
join_list(const char *const *list)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if (sbuf_addf(&b, "%s%s", i ? ", " : "", list[i]) < 0)
			break;
	return sbuf_take(&b);
}

/* ---- opening and reading ---------------------------------------------- */

static int
open_config(struct cload *cl, const char *path)
{
	char *why = NULL;
	int fd;

	fd = os_open_own(path, 0);
	if (fd < 0) {
		if (errno == ENOENT)
			conf_bad(cl, 0, "no such config file; name an existing file "
			    "or unset NOVA_SANDBOX_CONFIG for the defaults");
		else if (errno == ELOOP)
			conf_bad(cl, 0, "is a symbolic link; name the file itself");
		else
			conf_bad(cl, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (os_trust_fd(fd, path, 1, &why) != OS_TRUST_OK) {
		conf_bad(cl, 0, "config refused: %s", why ? why : "unsafe");
		free(why);
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- values ----------------------------------------------------------- */

char *
config_stem(const char *file)
{
	const char *base = os_last_sep(file);
	char *s;

	base = base ? base + 1 : file;
	s = str_ndup(base, strcspn(base, "."));
	for (char *p = s; p != NULL && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

static void
add_stem(struct cload *cl, const char *e)
{
	char *stem;

	stem = config_stem(e);
	if (stem == NULL ||
	    (!strv_contains(&cl->stems, stem) && strv_push(&cl->stems, stem) < 0))
		cl->nomem = 1;
	free(stem);
}

static size_t
strv_index(const struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], s) == 0)
			return i;
	return v->n;
}

/* One entry of this platform's role list, with where it came from; a file
 * named a second time (in this file or another) is refused naming both. */
static void
add_entry(struct cload *cl, const char *key, const char *e, unsigned line,
	  struct strv *out, struct strv *from)
{
	size_t at = strv_index(out, e);
	struct sbuf b = { 0 };

	if (at < out->n) {
		conf_bad(cl, line, "%s %s is named a second time (first at %s); "
		    "a module serves a role once: remove one of the two",
		    key, e, from->v[at]);
		return;
	}
	if (sbuf_addf(&b, "%s:%u", cl->shown, line) < 0 ||
	    strv_push(out, e) < 0 || strv_push(from, b.s) < 0)
		cl->nomem = 1;
	sbuf_free(&b);
}

static int
check_entry(struct cload *cl, const char *sec, const char *key,
	    const char *e, size_t n)
{
	unsigned line = conf_locate(cl, sec, key, 0);

	if (n == 0) {
		conf_bad(cl, line, "%s in [%s] has an empty entry; name module "
		    "files separated by commas", key, sec);
		return -1;
	}
	if (os_has_sep(e, n) && !os_is_absolute(e)) {
		conf_bad(cl, line, "%s in [%s]: \"%.*s\" is neither a bare file "
		    "name (looked up in the module directory) nor an absolute "
		    "path", key, sec, (int)n, e);
		return -1;
	}
	return 0;
}

/* "a.so, b.so" -> entries; out and from are NULL for another platform. */
static void
parse_list(struct cload *cl, const char *sec, const char *key,
	   const char *val, struct strv *out, struct strv *from)
{
	unsigned line = conf_locate(cl, sec, key, 0);

	const char *p = val;

	for (;;) {
		size_t n = strcspn(p, ",");
		const char *e = p;
		char *c;

		conf_trim(&e, &n);
		if (check_entry(cl, sec, key, e, n) == 0) {
			c = str_ndup(e, n);
			if (c == NULL)
				cl->nomem = 1;
			else {
				add_stem(cl, c);
				if (out != NULL)
					add_entry(cl, key, c, line, out, from);
			}
			free(c);
		}
		p += strcspn(p, ",");
		if (*p++ == '\0')
			break;
	}
}

static struct strv *
role_list(struct config *cfg, const char *key)
{
	if (strcmp(key, "wall") == 0)
		return &cfg->wall;
	if (strcmp(key, "egress") == 0)
		return &cfg->egress;
	if (strcmp(key, "proxy") == 0)
		return &cfg->proxy;
	return &cfg->place;
}

static struct strv *
role_from(struct config *cfg, const char *key)
{
	if (strcmp(key, "wall") == 0)
		return &cfg->wall_from;
	if (strcmp(key, "egress") == 0)
		return &cfg->egress_from;
	if (strcmp(key, "proxy") == 0)
		return &cfg->proxy_from;
	return &cfg->place_from;
}

static void
platform_values(struct cload *cl, const char *plat)
{
	char full[64];
	const char *val;
	int mine = strcmp(plat, cl->cfg->platform) == 0;

	for (size_t i = 0; platform_keys[i] != NULL; i++) {
		snprintf(full, sizeof(full), "%s:%s", plat, platform_keys[i]);
		val = iniparser_getstring(cl->d, full, NULL);
		if (val == NULL)
			continue;
		parse_list(cl, plat, platform_keys[i], val,
			   mine ? role_list(cl->cfg, platform_keys[i]) : NULL,
			   mine ? role_from(cl->cfg, platform_keys[i]) : NULL);
	}
}

static void
set_moduledir(struct cload *cl)
{
	const char *val = iniparser_getstring(cl->d, "nova-sandbox:moduledir",
					      NULL);
	unsigned line = conf_locate(cl, "nova-sandbox", "moduledir", 0);
	char *real;

	if (val == NULL)
		return;
	if (cl->cfg->moduledir_from != NULL) {
		conf_bad(cl, line, "moduledir is set a second time (first at %s); "
		    "set it in one file", cl->cfg->moduledir_from);
		return;
	}
	if (!os_is_absolute(val)) {
		conf_bad(cl, line, "moduledir \"%s\" is not an absolute path", val);
		return;
	}
	if (!os_is_dir(val) || (real = os_real_dir(val)) == NULL) {
		conf_bad(cl, line, "moduledir \"%s\" is not an existing directory",
		    val);
		return;
	}
	free(cl->cfg->moduledir);
	cl->cfg->moduledir = real;
	cl->cfg->moduledir_from = str_fmt("%s:%u", cl->shown, line);
	if (cl->cfg->moduledir_from == NULL)
		cl->nomem = 1;
}

/* ---- sections and keys ------------------------------------------------ */

static void
check_dup(struct cload *cl, const char *sec, const char *key)
{
	unsigned first = conf_locate(cl, sec, key, 0);
	unsigned again = conf_locate(cl, sec, key, 1);

	if (again)
		conf_bad(cl, again, "key \"%s\" in [%s] is set twice (first at "
		    "line %u); set it once", key, sec, first);
}

static void
unknown_key(struct cload *cl, const char *sec, const char *key,
	    const char *const *allowed)
{
	char *keys = join_list(allowed);

	conf_bad(cl, conf_locate(cl, sec, key, 0), "unknown key \"%s\" in [%s]; the "
	    "keys of [%s] are %s", key, sec, sec, keys ? keys : "");
	free(keys);
}

static void
keep_opt(struct cload *cl, const char *sec, const char *key)
{
	struct config *cfg = cl->cfg;
	struct config_opt *nv, *o;
	const char *val;
	char full[512];

	for (size_t i = 0; i < cfg->n_opts; i++)
		if (strcmp(cfg->opts[i].section, sec) == 0 &&
		    strcmp(cfg->opts[i].key, key) == 0) {
			conf_bad(cl, conf_locate(cl, sec, key, 0), "key \"%s\" in [%s] is "
			    "set a second time (first at %s:%u); set it in one "
			    "file", key, sec, cfg->opts[i].file,
			    cfg->opts[i].line);
			return;
		}
	nv = realloc(cfg->opts, (cfg->n_opts + 1) * sizeof(*nv));
	if (nv == NULL) {
		cl->nomem = 1;
		return;
	}
	cfg->opts = nv;
	snprintf(full, sizeof(full), "%s:%s", sec, key);
	o = &cfg->opts[cfg->n_opts];
	o->section = strdup(sec);
	o->key = strdup(key);
	val = iniparser_getstring(cl->d, full, "");
	o->value = strdup(val != NULL ? val : "");
	o->line = conf_locate(cl, sec, key, 0);
	o->file = strdup(cl->shown);
	cfg->n_opts++;
	if (!o->section || !o->key || !o->value || !o->file)
		cl->nomem = 1;
}

/* allowed NULL: a module's section, every key kept for later checking. */
static void
check_keys(struct cload *cl, const char *sec, const char *const *allowed)
{
	int nk = iniparser_getsecnkeys(cl->d, sec);
	const char **keys;
	size_t skip = strlen(sec) + 1;

	if (nk <= 0)
		return;
	keys = calloc((size_t)nk, sizeof(*keys));
	if (keys == NULL || iniparser_getseckeys(cl->d, sec, keys) == NULL) {
		cl->nomem = keys == NULL;
		free(keys);
		return;
	}
	for (int i = 0; i < nk; i++) {
		const char *key = keys[i] + skip;

		/* no value: a "[sec:key]" header, refused on its own */
		if (iniparser_getstring(cl->d, keys[i], NULL) == NULL)
			continue;
		check_dup(cl, sec, key);
		if (allowed == NULL)
			keep_opt(cl, sec, key);
		else if (!in_list(allowed, key))
			unknown_key(cl, sec, key, allowed);
	}
	free(keys);
}

static void
unknown_section(struct cload *cl, const char *sec)
{
	char *stems = join_list((const char *const *)cl->stems.v);

	conf_bad(cl, conf_locate(cl, sec, NULL, 0), "unknown section [%s]; the sections "
	    "are [nova-sandbox], [linux], [darwin], [windows] and one per "
	    "module named in them (here: %s)", sec,
	    stems && *stems ? stems : "none");
	free(stems);
}

static void
check_section(struct cload *cl, const char *sec)
{
	if (strcmp(sec, "nova-sandbox") == 0)
		check_keys(cl, sec, main_keys);
	else if (in_list(platform_names, sec))
		check_keys(cl, sec, platform_keys);
	else if (strv_contains(&cl->stems, sec))
		check_keys(cl, sec, NULL);
	else
		unknown_section(cl, sec);
}

/* iniparser keeps a key before any section as ":key". */
static void
check_sectionless(struct cload *cl)
{
	for (ssize_t i = 0; i < cl->d->size; i++) {
		const char *k = cl->d->key[i];

		if (k != NULL && k[0] == ':')
			conf_bad(cl, conf_locate(cl, "", k + 1, 0), "key \"%s\" is "
			    "outside any section; put it under [%s]", k + 1,
			    os_platform());
	}
}

/* A role this platform's section leaves unset keeps its compiled-in
 * default; that module's options section is then allowed too. */
static void
default_stems(struct cload *cl)
{
	for (size_t i = 0; i < sizeof(pdefaults) / sizeof(pdefaults[0]); i++) {
		const struct pdefault *p = &pdefaults[i];

		if (strcmp(p->platform, cl->cfg->platform) != 0)
			continue;
		if (cl->cfg->wall.n == 0 && p->wall)
			add_stem(cl, p->wall);
		if (cl->cfg->egress.n == 0 && p->egress)
			add_stem(cl, p->egress);
		if (cl->cfg->place.n == 0 && p->place)
			add_stem(cl, p->place);
		if (cl->cfg->proxy.n == 0 && p->proxy)
			add_stem(cl, p->proxy);
	}
}

/* The first pass over a file: its role lists and moduledir (every file's
 * modules are known before any file's sections are checked). */
static void
validate_roles(struct cload *cl, struct cfile *f)
{
	f->skip = check_colon_headers(cl);
	if (f->skip)
		return;
	for (size_t i = 0; platform_names[i] != NULL; i++)
		platform_values(cl, platform_names[i]);
	set_moduledir(cl);
}

/* The second pass: its sections and keys. */
static void
validate_sections(struct cload *cl)
{
	int nsec = iniparser_getnsec(cl->d);

	check_sectionless(cl);
	for (int i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(cl->d, i);

		if (sec != NULL)
			check_section(cl, sec);
	}
}

/* ---- defaults and the whole load -------------------------------------- */

static int
fill_defaults(struct config *cfg)
{
	for (size_t i = 0; i < sizeof(pdefaults) / sizeof(pdefaults[0]); i++) {
		const struct pdefault *p = &pdefaults[i];

		if (strcmp(p->platform, cfg->platform) != 0)
			continue;
		if (cfg->wall.n == 0 && p->wall &&
		    (strv_push(&cfg->wall, p->wall) ||
		     strv_push(&cfg->wall_from, "default")))
			return -1;
		if (cfg->egress.n == 0 && p->egress &&
		    (strv_push(&cfg->egress, p->egress) ||
		     strv_push(&cfg->egress_from, "default")))
			return -1;
		if (cfg->place.n == 0 && p->place &&
		    (strv_push(&cfg->place, p->place) ||
		     strv_push(&cfg->place_from, "default")))
			return -1;
		if (cfg->proxy.n == 0 && p->proxy &&
		    (strv_push(&cfg->proxy, p->proxy) ||
		     strv_push(&cfg->proxy_from, "default")))
			return -1;
	}
	return 0;
}

static char *
exe_dir_self(void)
{
	char buf[OS_PATH_MAX];
	char *slash;

	if (os_self_exe(buf, sizeof(buf)) != 0)
		return strdup("/");
	slash = strrchr(buf, '/');
	if (slash != NULL)
		*slash = '\0';
	return strdup(buf[0] ? buf : "/");
}

/* dir/rel with rel's leading "../" taken off dir's end, for a module
 * directory that does not exist (realpath cannot say it): heap. */
static char *
join_up(const char *dir, const char *rel)
{
	size_t n = strlen(dir);

	while (strncmp(rel, "../", 3) == 0) {
		while (n > 1 && dir[n - 1] != '/')
			n--;
		if (n > 1)
			n--;
		rel += 3;
	}
	return str_fmt("%.*s/%s", (int)(n == 1 && dir[0] == '/' ? 0 : n), dir,
		       rel);
}

static int
default_moduledir(struct config *cfg, const char *exe_dir)
{
	struct sbuf b = { 0 };
	char *self = exe_dir ? NULL : exe_dir_self();
	int rc;

	rc = sbuf_addf(&b, "%s/%s", exe_dir ? exe_dir : self, NS_MODULEDIR_REL);
	if (rc < 0) {
		free(self);
		return -1;
	}
	cfg->moduledir = os_real_dir(b.s);
	if (cfg->moduledir == NULL)
		cfg->moduledir = join_up(exe_dir ? exe_dir : self, NS_MODULEDIR_REL);
	free(self);
	sbuf_free(&b);
	return cfg->moduledir ? 0 : -1;
}

static char *
absolute(const char *path)
{
	char cwd[OS_PATH_MAX];
	struct sbuf b = { 0 };

	if (os_is_absolute(path))
		return strdup(path);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return strdup(path);
	if (sbuf_addf(&b, "%s/%s", strcmp(cwd, "/") ? cwd : "", path) < 0)
		return NULL;
	return sbuf_take(&b);
}

static const char *
pick_path(const char *explicit_path)
{
	static const char sys[] = NS_SYSCONFDIR "/nova-sandbox/nova-sandbox.conf";

	if (explicit_path != NULL && explicit_path[0] != '\0')
		return explicit_path;
	if (os_path_kind(sys) != OS_PATH_ABSENT)
		return sys;
	return NULL;
}

/* The main file (when there is one) into files[0]. */
static int
read_main(struct cload *cl, const char *path, struct cfile **files,
	  size_t *n)
{
	struct config *cfg = cl->cfg;
	int fd;

	cfg->path = absolute(path);
	if (cfg->path == NULL || strv_push(&cfg->files, cfg->path) < 0)
		return -1;
	*files = calloc(1, sizeof(**files));
	if (*files == NULL)
		return -1;
	(*files)[0].shown = cfg->files.v[0];
	*n = 1;
	cl->shown = (*files)[0].shown;
	fd = open_config(cl, cfg->path);
	if (fd >= 0)
		read_file(cl, &(*files)[0], fd);
	return 0;
}

/* Every file's roles first, then every file's sections. */
static void
validate_all(struct cload *cl, struct cfile *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (files[i].d != NULL) {
			use_file(cl, &files[i]);
			validate_roles(cl, &files[i]);
		}
	default_stems(cl);
	for (size_t i = 0; i < n; i++)
		if (files[i].d != NULL && !files[i].skip) {
			use_file(cl, &files[i]);
			validate_sections(cl);
		}
	cl->text = NULL;
	cl->d = NULL;
}

static void
free_files(struct cfile *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (files[i].d != NULL)
			iniparser_freedict(files[i].d);
		free(files[i].text);
	}
	free(files);
}

int
config_load(const char *explicit_path, const char *exe_dir,
	    struct config *cfg, struct refusals *r)
{
	struct cload cl = { .cfg = cfg, .r = r };
	struct cfile *files = NULL;
	size_t nfiles = 0, before = r->n;
	const char *path;
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->platform = os_platform();
	if (default_moduledir(cfg, exe_dir) < 0)
		return -1;
	path = pick_path(explicit_path);
	if (path != NULL)
		rc = read_main(&cl, path, &files, &nfiles);
	if (rc == 0) {
		cfg->dropdir = dropdir_of(cfg->path);
		if (cfg->dropdir == NULL)
			rc = -1;
	}
	if (rc == 0)
		read_dropins(&cl, &files, &nfiles);
	if (rc == 0 && !cl.nomem)
		validate_all(&cl, files, nfiles);
	free_files(files, nfiles);
	free(cl.text);
	if (cl.d != NULL)
		iniparser_freedict(cl.d);
	strv_free(&cl.stems);
	if (cl.nomem || rc < 0 || fill_defaults(cfg) < 0)
		return -1;
	return r->n > before ? 1 : 0;
}

const char *
config_option(const struct config *cfg, const char *stem, const char *key)
{
	if (cfg == NULL || stem == NULL || key == NULL)
		return NULL;
	for (size_t i = 0; i < cfg->n_opts; i++)
		if (strcmp(cfg->opts[i].section, stem) == 0 &&
		    strcasecmp(cfg->opts[i].key, key) == 0)
			return cfg->opts[i].value;
	return NULL;
}

int
config_check_options(const struct config *cfg, const char *stem,
		     const char *const *accepted, struct refusals *r)
{
	int n = 0;
	char *keys = join_list(accepted);

	for (size_t i = 0; i < cfg->n_opts; i++) {
		const struct config_opt *o = &cfg->opts[i];

		if (strcmp(o->section, stem) != 0 || in_list(accepted, o->key))
			continue;
		refusals_add(r, REASON_BAD_CONFIG, "%s:%u: unknown key \"%s\" in "
			     "[%s]; the keys of [%s] are %s", o->file ?
			     o->file : "-", o->line, o->key, stem, stem,
			     keys && *keys ? keys : "none (the module takes "
			     "no options)");
		n++;
	}
	free(keys);
	return n;
}

void
config_free(struct config *cfg)
{
	for (size_t i = 0; i < cfg->n_opts; i++) {
		free(cfg->opts[i].section);
		free(cfg->opts[i].key);
		free(cfg->opts[i].value);
		free(cfg->opts[i].file);
	}
	free(cfg->opts);
	free(cfg->path);
	free(cfg->moduledir);
	strv_free(&cfg->wall);
	strv_free(&cfg->egress);
	strv_free(&cfg->place);
	strv_free(&cfg->proxy);
	strv_free(&cfg->proxy_from);
	strv_free(&cfg->wall_from);
	strv_free(&cfg->egress_from);
	strv_free(&cfg->place_from);
	strv_free(&cfg->files);
	free(cfg->moduledir_from);
	free(cfg->dropdir);
	memset(cfg, 0, sizeof(*cfg));
}
