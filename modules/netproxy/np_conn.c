/* SPDX-License-Identifier: MIT */
/* np_conn.c -- one client connection's course (np.h), in its own thread:
 * a bridge connects to the host's loopback port and relays; the proxy
 * listener reads an HTTP or SOCKS5 request (first byte 0x05), decides,
 * resolves, connects to a vetted address, answers, checks the TLS
 * ClientHello's server name, then relays. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "np.h"
#include "np_report.h"
#include "np_socks.h"

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One more read into s->buf (up to cap bytes in all) before deadline:
 * >0, or <= 0 at EOF, timeout or error. */
static long
fill(struct np_slot *s, size_t cap, long deadline)
{
	long r;

	if (s->have >= cap || now_ms() > deadline)
		return -1;
	r = np_net_recv(s->cfd, s->buf + s->have, cap - s->have);
	if (r > 0)
		s->have += (size_t)r;
	return r;
}

static void
consume(struct np_slot *s, size_t n)
{
	memmove(s->buf, s->buf + n, s->have - n);
	s->have -= n;
}

/* ---- answers ------------------------------------------------------------ */

static const char *const reasons[] = {
	[NP_NOT_ALLOWED] = "no --net-allow entry names this host",
	[NP_PORT] = "no --net-allow entry allows this port for this host",
	[NP_PRIVATE] = "the name resolves to a loopback, private or "
		       "link-local address no --net-allow entry names",
	[NP_SNI] = "the TLS server name is not the host asked for",
	[NP_BAD] = "not a request this proxy speaks",
};

static void
http_answer(struct np_slot *s, const char *status, const char *body)
{
	char msg[1024];
	int n = snprintf(msg, sizeof(msg),
			 "HTTP/1.1 %s\r\nContent-Type: text/plain\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			 status, strlen(body), body);

	if (n > 0 && (size_t)n < sizeof(msg))
		(void)np_net_write_all(s->cfd, msg, (size_t)n);
}

/* Report a refusal (verdict > 0) once and answer it. */
static void
http_refuse(struct np_slot *s, int v, const char *addr)
{
	char body[512];

	np_report_deny(s->host, s->port, v, addr);
	snprintf(body, sizeof(body), "nova-sandbox proxy: %s:%u refused (%s): %s\n",
		 s->host[0] ? s->host : "-", (unsigned)s->port,
		 np_why_token(v), reasons[v]);
	http_answer(s, v == NP_BAD ? "400 Bad Request" : "403 Forbidden", body);
}

static void
http_fail(struct np_slot *s, const char *why)
{
	char body[512];

	np_report_fail(s->host, s->port, why);
	snprintf(body, sizeof(body),
		 "nova-sandbox proxy: %s:%u could not be reached (%s)\n",
		 s->host, (unsigned)s->port, why);
	http_answer(s, "502 Bad Gateway", body);
}

static void
socks_answer(struct np_slot *s, uint8_t rep)
{
	uint8_t r[10];

	np_socks_reply(rep, r);
	(void)np_net_write_all(s->cfd, r, sizeof(r));
}

/* ---- the decision and the connect --------------------------------------- */

/* The resolved addresses no rule refuses, in order, into addrs. */
static int
vetted(struct np_slot *s, struct np_addr *addrs, size_t *n, char *first_bad)
{
	const struct ns_proxy_conf *c = s->ctx->conf;
	struct np_addr got[NP_ADDRS_MAX];
	int k = np_net_resolve(s->host, got, NP_ADDRS_MAX);

	*n = 0;
	for (int i = 0; i < k; i++) {
		if (np_vet_resolved(c->allow, c->n_allow, &got[i], s->port) ==
		    NP_ALLOW)
			addrs[(*n)++] = got[i];
		else if (first_bad[0] == '\0')
			np_addr_text(&got[i], first_bad, NP_ADDR_TEXT);
	}
	if (k <= 0)
		return -1;
	return *n > 0 ? NP_ALLOW : NP_PRIVATE;
}

/* Decide on s->host:s->port, resolve, connect: NP_ALLOW with the server
 * in the slot, a refusal verdict (bad: the private address), or -1
 * with *fail set. */
static int
reach(struct np_slot *s, char *bad, const char **fail)
{
	const struct ns_proxy_conf *c = s->ctx->conf;
	struct np_addr addrs[NP_ADDRS_MAX];
	size_t n = 1;
	int v, fd;

	bad[0] = '\0';
	v = s->is_lit ? np_decide_addr(c->allow, c->n_allow, &s->lit, s->port)
		      : np_decide_name(c->allow, c->n_allow, s->host, s->port);
	if (v != NP_ALLOW)
		return v;
	addrs[0] = s->lit;
	if (!s->is_lit && (v = vetted(s, addrs, &n, bad)) != NP_ALLOW) {
		*fail = "resolve";
		return v;
	}
	fd = np_net_connect(addrs, n, s->port, fail);
	if (fd < 0)
		return -1;
	np_slot_set_server(s, fd);
	return NP_ALLOW;
}

/* The host the client sent into the slot; NP_ALLOW or NP_BAD (the raw
 * bytes kept for the report). */
static int
take_host(struct np_slot *s, const char *h, size_t n, uint16_t port)
{
	int k = np_host_norm(h, n, s->host, sizeof(s->host), &s->lit);

	s->port = port;
	s->is_lit = k == NP_HOST_ADDR;
	if (k == NP_HOST_ADDR)
		np_addr_text(&s->lit, s->host, sizeof(s->host));
	if (k != NP_HOST_BAD)
		return NP_ALLOW;
	n = n < sizeof(s->host) - 1 ? n : sizeof(s->host) - 1;
	memcpy(s->host, h, n);
	s->host[n] = '\0';
	return NP_BAD;
}

/* ---- the first client bytes: the ClientHello's server name ------------- */

static int
hello_verdict(struct np_slot *s, size_t n, long deadline)
{
	char sni[256];

	for (;;) {
		int st = np_tls_sni(s->hello, n, sni, sizeof(sni));
		long r;

		if (st == NP_TLS_NOT || st == NP_TLS_NOSNI)
			return NP_ALLOW;
		if (st == NP_TLS_SNI)
			return np_same_name(sni, s->host) ? NP_ALLOW : NP_SNI;
		if (st == NP_TLS_BAD || n == sizeof(s->hello) ||
		    now_ms() > deadline)
			return NP_BAD;
		r = np_net_recv(s->cfd, s->hello + n, sizeof(s->hello) - n);
		if (r <= 0)
			return -1;
		n += (size_t)r;
		s->have = n;
	}
}

/* The early bytes (already read) and what the client sends within
 * NP_PEEK_MS, checked; s->hello holds s->have bytes to send first.
 * 0 to relay, -1 refused (said) or gone. */
static int
first_bytes(struct np_slot *s, const char *early, size_t n)
{
	long r;
	int v;

	memcpy(s->hello, early, n);
	s->have = n;
	np_net_timeouts(s->cfd, NP_PEEK_MS);
	if (n == 0) {
		if (np_net_wait(s->cfd, NP_PEEK_MS) == 0)
			return 0; /* the client waits for the server */
		r = np_net_recv(s->cfd, s->hello, sizeof(s->hello));
		if (r <= 0)
			return -1;
		s->have = (size_t)r;
	}
	v = hello_verdict(s, s->have, now_ms() + NP_PEEK_MS);
	if (v > 0)
		np_report_deny(s->host, s->port, v, NULL);
	return v == NP_ALLOW ? 0 : -1;
}

/* Send s->hello's bytes to the server, then relay. */
static void
relay_after(struct np_slot *s)
{
	if (s->have == 0 || np_net_write_all(s->sfd, s->hello, s->have) == 0)
		np_conn_relay(s);
}

/* ---- HTTP ------------------------------------------------------------------ */

static void
http_forward(struct np_slot *s, const struct np_http_req *r)
{
	size_t n;

	if (np_http_rewrite(s->buf, r, (char *)s->hello, sizeof(s->hello),
			    &n) != 0 ||
	    np_net_write_all(s->sfd, s->hello, n) != 0)
		return;
	s->have -= r->head_len;
	memcpy(s->hello, s->buf + r->head_len, s->have);
	relay_after(s);
}

static void
http(struct np_slot *s, long deadline)
{
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
	struct np_http_req r;
	const char *fail = NULL;
	char bad[NP_ADDR_TEXT];
	int st, v;

	while ((st = np_http_parse(s->buf, s->have, &r)) == NP_P_MORE)
		if (fill(s, NP_HTTP_HEAD_MAX, deadline) <= 0)
			return;
	if (st != NP_P_DONE || take_host(s, s->buf + r.host, r.host_len,
					 r.port) != NP_ALLOW) {
		http_refuse(s, NP_BAD, NULL);
		return;
	}
	v = reach(s, bad, &fail);
	if (v > 0)
		http_refuse(s, v, v == NP_PRIVATE ? bad : NULL);
	else if (v < 0)
		http_fail(s, fail);
	else if (!r.connect)
		http_forward(s, &r);
	else if (np_net_write_all(s->cfd, ok, sizeof(ok) - 1) == 0 &&
		 first_bytes(s, s->buf + r.head_len, s->have - r.head_len) == 0)
		relay_after(s);
}

/* ---- SOCKS5 --------------------------------------------------------------- */

static const uint8_t socks_fail_rep[] = { NP_SOCKS_HOST_UNREACH,
					  NP_SOCKS_REFUSED,
					  NP_SOCKS_HOST_UNREACH };

static uint8_t
socks_rep_of(const char *fail)
{
	if (strcmp(fail, "refused") == 0)
		return socks_fail_rep[1];
	return strcmp(fail, "resolve") == 0 ? socks_fail_rep[0]
					    : socks_fail_rep[2];
}

/* The greeting and the request; DONE with *q, else answered. */
static int
socks_handshake(struct np_slot *s, struct np_socks_req *q, long deadline)
{
	static const uint8_t noauth[] = { 5, 0 }, nomethod[] = { 5, 0xff };
	const uint8_t *b = (const uint8_t *)s->buf;
	size_t used = 0;
	int st;

	while ((st = np_socks_greeting(b, s->have, &used)) == NP_P_MORE)
		if (fill(s, 512, deadline) <= 0)
			return NP_P_BAD;
	if (st != NP_P_DONE) {
		if (st == NP_P_SOCKS_NOAUTH)
			(void)np_net_write_all(s->cfd, nomethod, 2);
		return NP_P_BAD;
	}
	consume(s, used);
	if (np_net_write_all(s->cfd, noauth, 2) != 0)
		return NP_P_BAD;
	while ((st = np_socks_request(b, s->have, q, &used)) == NP_P_MORE)
		if (fill(s, 512, deadline) <= 0)
			return NP_P_BAD;
	if (st == NP_P_DONE)
		consume(s, used);
	else
		socks_answer(s, st == NP_P_SOCKS_CMD    ? NP_SOCKS_CMD
				: st == NP_P_SOCKS_ATYP ? NP_SOCKS_ATYP
							: NP_SOCKS_FAIL);
	return st;
}

static void
socks(struct np_slot *s, long deadline)
{
	struct np_socks_req q;
	const char *fail = NULL;
	char bad[NP_ADDR_TEXT];
	int v;

	if (socks_handshake(s, &q, deadline) != NP_P_DONE)
		return;
	if (take_host(s, q.host, strlen(q.host), q.port) != NP_ALLOW) {
		np_report_deny(s->host, s->port, NP_BAD, NULL);
		socks_answer(s, NP_SOCKS_NOT_ALLOWED);
		return;
	}
	v = reach(s, bad, &fail);
	if (v != NP_ALLOW) {
		if (v > 0)
			np_report_deny(s->host, s->port, v,
				       v == NP_PRIVATE ? bad : NULL);
		else
			np_report_fail(s->host, s->port, fail);
		socks_answer(s, v > 0 ? NP_SOCKS_NOT_ALLOWED
				      : socks_rep_of(fail));
		return;
	}
	socks_answer(s, NP_SOCKS_OK);
	if (first_bytes(s, s->buf, s->have) == 0)
		relay_after(s);
}

/* ---- the course ------------------------------------------------------------ */

static void
bridge(struct np_slot *s)
{
	const struct np_addr lo = { 4, { 127, 0, 0, 1 } };
	const char *why = "unreachable";
	int fd = np_net_connect(&lo, 1, s->bridge, &why);

	if (fd < 0) {
		np_report_fail("127.0.0.1", s->bridge, why);
		return;
	}
	np_slot_set_server(s, fd);
	s->have = 0;
	np_conn_relay(s);
}

/* SOCKS4 and 4a are not spoken: "request rejected" at once. */
static void
socks4(struct np_slot *s, long deadline)
{
	static const uint8_t rejected[8] = { 0, 0x5b };

	(void)deadline;
	np_report_deny("-", 0, NP_BAD, NULL);
	(void)np_net_write_all(s->cfd, rejected, sizeof(rejected));
}

/* The answer written, the client's side is ended and what it still sends
 * read and dropped for a bounded time, so that closing does not reset
 * the connection before the client read the answer (after a relay the
 * socket is already shut down: this returns at once). */
static void
linger(struct np_slot *s)
{
	long end = now_ms() + NP_LINGER_MS;
	size_t got = 0;
	long r = 1;

	(void)shutdown(s->cfd, SHUT_WR);
	while (r > 0 && got < NP_LINGER_BYTES && now_ms() < end &&
	       np_net_wait(s->cfd, (int)(end - now_ms())) > 0) {
		r = np_net_recv(s->cfd, s->buf, sizeof(s->buf));
		got += r > 0 ? (size_t)r : 0;
	}
}

void *
np_conn_run(void *arg)
{
	struct np_slot *s = arg;
	long deadline = now_ms() + NP_HEAD_MS;
	uint8_t b0;

	np_net_timeouts(s->cfd, NP_IDLE_MS);
	if (s->bridge != 0)
		bridge(s);
	else if (fill(s, NP_HTTP_HEAD_MAX, deadline) > 0) {
		b0 = (uint8_t)s->buf[0];
		(b0 == 5 ? socks : b0 == 4 ? socks4 : http)(s, deadline);
		linger(s);
	}
	np_slot_release(s);
	return NULL;
}

/* ---- the relay ------------------------------------------------------------- */

/* One direction to its end: at end-of-file the other side is told
 * (half-close); on an error both sockets are shut down, which ends the
 * other direction too. */
static void
copy_dir(int from, int to)
{
	if (np_sys_copy(from, to) == 0) {
		(void)shutdown(to, SHUT_WR);
		return;
	}
	(void)shutdown(from, SHUT_RDWR);
	(void)shutdown(to, SHUT_RDWR);
}

static void *
back(void *arg)
{
	struct np_slot *s = arg;

	copy_dir(s->sfd, s->cfd);
	return NULL;
}

void
np_conn_relay(struct np_slot *s)
{
	pthread_t t;

	np_net_timeouts(s->cfd, 0);
	np_net_timeouts(s->sfd, 0);
	if (pthread_create(&t, &s->ctx->jattr, back, s) != 0) {
		np_report_once(NP_ONCE_THREAD, "the proxy could not start a "
			       "thread: a connection was closed");
		return;
	}
	copy_dir(s->cfd, s->sfd);
	pthread_join(t, NULL);
}
