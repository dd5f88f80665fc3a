/* SPDX-License-Identifier: MIT */
/* cload.h -- one config load's private state, shared by the room's files
 * (config.c: values, sections, defaults, the load; cload.c: reading one
 * file, conf_bad; locate.c: the locator;
 * dropins.c: conf.d) and by no file outside conf/. */
#ifndef NS_HOST_CONF_CLOAD_H
#define NS_HOST_CONF_CLOAD_H

#include <iniparser.h>

#include "conf/config.h"

#define CONFIG_MAX_DROPINS 256

#ifndef NS_SYSCONFDIR
#define NS_SYSCONFDIR "/usr/local/etc"
#endif

/* One file read: its bytes and iniparser's dictionary of them. */
struct cfile {
	const char *shown; /* the file as messages name it (cfg->files) */
	char *text;        /* the file's bytes, NUL-terminated */
	size_t len;
	dictionary *d;     /* NULL: refused before parsing */
	int skip;          /* refused in a way that hides its sections */
};

/* The state of one load; shown/text/len/d are the file in hand. */
struct cload {
	struct config *cfg;
	struct refusals *r;
	const char *shown; /* the file as messages name it */
	char *text;        /* the file's bytes, NUL-terminated */
	size_t len;
	dictionary *d;
	struct strv stems; /* module stems named in any platform section */
	int nomem;
};

/* cload.c: one bad_config refusal "<file>:<line>: <text>" (no line
 * when 0); reading one open, trusted file (0 parsed, 1 refused) */
__attribute__((format(printf, 3, 4))) void
conf_bad(struct cload *cl, unsigned line, const char *fmt, ...);
int read_file(struct cload *cl, struct cfile *f, int fd);

/* locate.c */
void conf_trim(const char **s, size_t *n);
unsigned conf_locate(const struct cload *cl, const char *sec,
		     const char *key, unsigned nth);
int check_colon_headers(struct cload *cl);

/* dropins.c */
char *dropdir_of(const char *main_path);
void read_dropins(struct cload *cl, struct cfile **files, size_t *n);

#endif
