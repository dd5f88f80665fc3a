/* SPDX-License-Identifier: MIT */
/* cload.c -- reading one config file (cload.h): its bytes from a trusted
 * descriptor, refused when they hold a NUL byte, parsed by iniparser with
 * its error callback captured; and the one bad_config refusal every file
 * of the room says its problems with.  Calls nothing of the room's other
 * files. */
#include "conf/config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "os/os.h"
#include "conf/cload.h"

#define CONFIG_MAX_BYTES (1024 * 1024)

/* One bad_config refusal "<file>:<line>: <text>" (no line when 0). */
void
conf_bad(struct cload *cl, unsigned line, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;
	int rc;

	if (line)
		rc = sbuf_addf(&b, "%s:%u: ", cl->shown, line);
	else
		rc = sbuf_addf(&b, "%s: ", cl->shown);
	va_start(ap, fmt);
	if (rc == 0)
		rc = sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc < 0 || refusals_add(cl->r, REASON_BAD_CONFIG, "%s", b.s) < 0)
		cl->nomem = 1;
	sbuf_free(&b);
}

static int
read_all(struct cload *cl, int fd)
{
	struct stat st;
	size_t got = 0;

	if (fstat(fd, &st) < 0 || st.st_size > CONFIG_MAX_BYTES) {
		conf_bad(cl, 0, "cannot be read or is larger than %d bytes",
		    CONFIG_MAX_BYTES);
		return 1;
	}
	cl->text = malloc((size_t)st.st_size + 1);
	if (cl->text == NULL)
		return -1;
	while (got < (size_t)st.st_size) {
		/* a fresh descriptor, at offset 0, read by nothing else */
		ssize_t n = read(fd, cl->text + got,
				 (unsigned)((size_t)st.st_size - got));
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	cl->text[got] = '\0';
	cl->len = got;
	return 0;
}

/* iniparser reads lines as C strings: a NUL hid the rest of its line
 * (silently at the start, as "too long" mid-line).  Say each one. */
static int
check_nul_bytes(struct cload *cl)
{
	const char *p = cl->text, *end = cl->text + cl->len;
	unsigned line = 0;
	int found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *z = memchr(p, '\0', n);

		line++;
		if (z != NULL) {
			conf_bad(cl, line, "a NUL byte at column %zu; a config is "
			    "text, with no NUL bytes", (size_t)(z - p) + 1);
			found = 1;
		}
		p += n + 1;
	}
	return found;
}

/* ---- iniparser with its error callback captured ----------------------- */

static char ini_err_text[512];
static int ini_err_count;

__attribute__((format(printf, 1, 2))) static int
ini_err(const char *fmt, ...)
{
	va_list ap;

	if (ini_err_count++ == 0) {
		va_start(ap, fmt);
		vsnprintf(ini_err_text, sizeof(ini_err_text), fmt, ap);
		va_end(ap);
	}
	return 0;
}

static unsigned
ini_err_line(void)
{
	const char *p = strrchr(ini_err_text, '(');
	unsigned long v;

	if (p == NULL)
		return 0;
	v = strtoul(p + 1, NULL, 10);
	return v > UINT_MAX ? 0 : (unsigned)v;
}

static void
say_syntax(struct cload *cl)
{
	unsigned line = ini_err_line();

	if (strstr(ini_err_text, "syntax error") != NULL)
		conf_bad(cl, line, "syntax error; a line is [section], "
		    "key = value, or a ; comment");
	else if (strstr(ini_err_text, "too long") != NULL)
		conf_bad(cl, line, "line too long");
	else
		conf_bad(cl, line, "cannot be parsed");
}

static int
parse(struct cload *cl, int fd)
{
	char *name = os_fd_name(fd);

	if (name == NULL)
		return -1;
	ini_err_count = 0;
	ini_err_text[0] = '\0';
	iniparser_set_error_callback(ini_err);
	cl->d = iniparser_load(name);
	iniparser_set_error_callback(NULL);
	free(name);
	if (cl->d != NULL && ini_err_count == 0)
		return 0;
	say_syntax(cl);
	return 1;
}

static void
keep_file(struct cload *cl, struct cfile *f)
{
	f->text = cl->text;
	f->len = cl->len;
	f->d = cl->d;
	cl->text = NULL;
	cl->len = 0;
	cl->d = NULL;
}

/* Read an open, trusted file into f (closing fd): 0 parsed, 1 refused. */
int
read_file(struct cload *cl, struct cfile *f, int fd)
{
	int rc;

	cl->shown = f->shown;
	rc = read_all(cl, fd);
	if (rc == 0)
		rc = check_nul_bytes(cl);
	if (rc == 0)
		rc = parse(cl, fd);
	close(fd);
	if (rc < 0)
		cl->nomem = 1;
	if (rc != 0 && cl->d != NULL) {
		iniparser_freedict(cl->d);
		cl->d = NULL;
	}
	keep_file(cl, f);
	return rc;
}
