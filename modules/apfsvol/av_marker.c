/* SPDX-License-Identifier: MIT */
/* av_marker.c -- the owner marker .nova-sandbox-owner at a volume's root:
 * "pid=<n>\nstart=<ps lstart, or ->\n", mode 0600, made fresh. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "av.h"

#define AV_MARKER_MAX 512

int
av_marker_write(const struct ns_host *h, int rootfd, long pid,
		const char *start)
{
	char buf[AV_MARKER_MAX];
	int fd, n, bad;

	n = snprintf(buf, sizeof(buf), "pid=%ld\nstart=%s\n", pid,
		     start[0] ? start : "-");
	if (n < 0 || (size_t)n >= sizeof(buf))
		return NS_E_INTERNAL;
	fd = openat(rootfd, AV_MARKER,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		av_refuse(h, "volume_failed", "cannot create the owner marker "
			  AV_MARKER ": %s", strerror(errno));
		return NS_E_SYSTEM;
	}
	bad = write(fd, buf, (size_t)n) != n;
	if (close(fd) != 0 || bad) {
		av_refuse(h, "volume_failed", "cannot write the owner marker "
			  AV_MARKER ": %s", strerror(errno));
		return NS_E_SYSTEM;
	}
	return NS_OK;
}

/* "pid=<1..10 digits, > 0>\nstart=<printable, no newline>\n" exactly. */
static int
parse(char *buf, long *pid, char *start, size_t len)
{
	char *p = buf, *e;
	long v = 0;

	if (strncmp(p, "pid=", 4) != 0)
		return -1;
	p += 4;
	for (e = p; isdigit((unsigned char)*e) && e - p < 10; e++)
		v = v * 10 + (*e - '0');
	if (e == p || *e != '\n' || v <= 0)
		return -1;
	p = e + 1;
	if (strncmp(p, "start=", 6) != 0)
		return -1;
	p += 6;
	e = strchr(p, '\n');
	if (e == NULL || e == p || e[1] != '\0' || (size_t)(e - p) >= len)
		return -1;
	for (char *q = p; q < e; q++)
		if (!isprint((unsigned char)*q))
			return -1;
	memcpy(start, p, (size_t)(e - p));
	start[e - p] = '\0';
	*pid = v;
	return 0;
}

int
av_marker_read(int dirfd, const char *path, long *pid, char *start,
	       size_t len)
{
	char buf[AV_MARKER_MAX + 1];
	struct stat st;
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > AV_MARKER_MAX) {
		close(fd);
		return -1;
	}
	n = read(fd, buf, AV_MARKER_MAX);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (memchr(buf, '\0', (size_t)n) != NULL)
		return -1;
	return parse(buf, pid, start, len);
}
