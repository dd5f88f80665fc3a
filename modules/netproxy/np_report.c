/* SPDX-License-Identifier: MIT */
/* np_report.c -- the proxy's report lines (np_report.h).  One mutex
 * guards the table of lines said; a write that would block is dropped
 * and counted (the host reading slowly never stalls a relay). */
#include "np_report.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "np_match.h"

#define LINE_MAX_ 600
#define HOST_FIELD 256
#define LOST_WAIT_MS 500 /* the last note's write, retried this long */

struct seen {
	char host[HOST_FIELD];
	char why[24];
	uint16_t port;
};

static struct {
	pthread_mutex_t mu;
	int fd;
	size_t n;
	unsigned long dropped;
	int once[NP_ONCE_N];
	struct seen seen[NP_REPORT_SEEN];
} rep = { .mu = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

void
np_report_init(int fd)
{
	rep.fd = fd;
	if (fd >= 0)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void
np_report_field(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (; s != NULL && s[n] != '\0' && n + 1 < cap; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + ('a' - 'A'));
		out[n] = (char)((c >= 'a' && c <= 'z') ||
					(c >= '0' && c <= '9') ||
					c == '.' || c == ':' || c == '-'
				? c : '?');
	}
	if (n == 0 && cap >= 2)
		out[n++] = '-';
	out[n] = '\0';
}

size_t
np_report_format(char *out, size_t cap, const char *kind, const char *host,
		 uint16_t port, const char *why, const char *addr)
{
	char h[HOST_FIELD], a[HOST_FIELD];
	int k;

	np_report_field(host, h, sizeof(h));
	np_report_field(addr, a, sizeof(a));
	k = snprintf(out, cap, "%s %s %u %s%s%s\n", kind, h, (unsigned)port,
		     why, addr != NULL ? " " : "", addr != NULL ? a : "");
	return k < 0 || (size_t)k >= cap ? 0 : (size_t)k;
}

/* Under the mutex.  Lines are shorter than PIPE_BUF: all or nothing. */
static void
emit(const char *line, size_t n)
{
	if (rep.fd < 0 || n == 0)
		return;
	if (write(rep.fd, line, n) != (ssize_t)n)
		rep.dropped++;
}

/* Under the mutex: 1 when (host, port, why) is new (and now seen). */
static int
first_time(const char *host, uint16_t port, const char *why)
{
	struct seen *s;

	for (size_t i = 0; i < rep.n; i++) {
		s = &rep.seen[i];
		if (s->port == port && strcmp(s->why, why) == 0 &&
		    strcmp(s->host, host) == 0)
			return 0;
	}
	if (rep.n == NP_REPORT_SEEN) {
		if (!rep.once[NP_ONCE_FULL]) {
			static const char full[] =
				"note more than 512 distinct refusals: "
				"the proxy repeats lines from here on\n";

			rep.once[NP_ONCE_FULL] = 1;
			emit(full, sizeof(full) - 1);
		}
		return 1;
	}
	s = &rep.seen[rep.n++];
	np_report_field(host, s->host, sizeof(s->host));
	snprintf(s->why, sizeof(s->why), "%s", why);
	s->port = port;
	return 1;
}

static void
say_once(const char *kind, const char *host, uint16_t port, const char *why,
	 const char *addr)
{
	char line[LINE_MAX_], h[HOST_FIELD];
	size_t n = np_report_format(line, sizeof(line), kind, host, port, why,
				    addr);

	np_report_field(host, h, sizeof(h));
	pthread_mutex_lock(&rep.mu);
	if (first_time(h, port, why))
		emit(line, n);
	pthread_mutex_unlock(&rep.mu);
}

void
np_report_deny(const char *host, uint16_t port, int verdict, const char *addr)
{
	say_once("deny", host, port, np_why_token(verdict), addr);
}

void
np_report_fail(const char *host, uint16_t port, const char *why)
{
	say_once("fail", host, port, why, NULL);
}

void
np_report_note(const char *text)
{
	char line[LINE_MAX_];
	int k = snprintf(line, sizeof(line), "note %s\n", text);

	if (k <= 0)
		return;
	if ((size_t)k >= sizeof(line)) {
		k = (int)sizeof(line) - 1;
		line[k - 1] = '\n';
	}
	pthread_mutex_lock(&rep.mu);
	emit(line, (size_t)k);
	pthread_mutex_unlock(&rep.mu);
}

void
np_report_once(enum np_once key, const char *text)
{
	int first;

	pthread_mutex_lock(&rep.mu);
	first = !rep.once[key];
	rep.once[key] = 1;
	pthread_mutex_unlock(&rep.mu);
	if (first)
		np_report_note(text);
}

unsigned long
np_report_dropped(void)
{
	unsigned long d;

	pthread_mutex_lock(&rep.mu);
	d = rep.dropped;
	pthread_mutex_unlock(&rep.mu);
	return d;
}

void
np_report_lost(void)
{
	static const struct timespec tick = { 0, 10 * 1000 * 1000 };
	char line[128];
	int k = 0;

	pthread_mutex_lock(&rep.mu);
	if (rep.dropped > 0 && rep.fd >= 0)
		k = snprintf(line, sizeof(line),
			     "note %lu report lines were lost (the tool did "
			     "not read them in time)\n",
			     rep.dropped);
	pthread_mutex_unlock(&rep.mu);
	for (int ms = 0; k > 0 && (size_t)k < sizeof(line) &&
			 ms <= LOST_WAIT_MS; ms += 10) {
		ssize_t w = write(rep.fd, line, (size_t)k);

		if (w == k || (w < 0 && errno != EAGAIN && errno != EINTR))
			return;
		(void)nanosleep(&tick, NULL);
	}
}
