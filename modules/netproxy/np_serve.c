/* SPDX-License-Identifier: MIT */
/* np_serve.c -- serve() (np.h): the listeners received, the wall built,
 * then one poll loop accepting connections into a fixed slot table, one
 * thread each, until stop_fd reads end-of-file. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "common/nk_say.h"
#include "np.h"
#include "np_report.h"

static struct np_ctx ctx_;

void
np_slot_set_server(struct np_slot *s, int fd)
{
	pthread_mutex_lock(&s->ctx->mu);
	s->sfd = fd;
	if (s->ctx->stopping)
		(void)shutdown(fd, SHUT_RDWR);
	pthread_mutex_unlock(&s->ctx->mu);
}

void
np_slot_release(struct np_slot *s)
{
	struct np_ctx *c = s->ctx;

	pthread_mutex_lock(&c->mu);
	if (s->sfd >= 0)
		close(s->sfd);
	close(s->cfd);
	s->sfd = s->cfd = -1;
	s->used = 0;
	c->active--;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

static struct np_slot *
slot_take(struct np_ctx *c, int fd, uint16_t bridge)
{
	struct np_slot *s = NULL;

	pthread_mutex_lock(&c->mu);
	for (size_t i = 0; i < c->nslots && s == NULL; i++)
		if (!c->slots[i].used)
			s = &c->slots[i];
	if (s != NULL) {
		s->used = 1;
		s->cfd = fd;
		s->sfd = -1;
		s->bridge = bridge;
		s->have = 0;
		s->host[0] = '\0';
		s->port = 0;
		s->ctx = c;
		c->active++;
	}
	pthread_mutex_unlock(&c->mu);
	return s;
}

/* Over the cap: an immediate answer in the client's protocol if it spoke
 * already (SOCKS5: no acceptable method), else HTTP 503. */
static void
over_cap(int fd, uint16_t bridge)
{
	static const char busy[] =
		"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
		"Connection: close\r\n\r\n";
	static const uint8_t nomethod[] = { 5, 0xff };
	uint8_t first = 0;

	np_report_once(NP_ONCE_CAP, "the proxy is at its connection cap: "
		       "further connections were closed at once");
	if (bridge == 0 && recv(fd, &first, 1, MSG_PEEK | MSG_DONTWAIT) == 1 &&
	    first == 5)
		(void)send(fd, nomethod, sizeof(nomethod), MSG_DONTWAIT);
	else if (bridge == 0)
		(void)send(fd, busy, sizeof(busy) - 1, MSG_DONTWAIT);
	close(fd);
}

static void
accept_all(struct np_ctx *c, const struct np_listener *l)
{
	int fd;

	while ((fd = np_sys_accept(l->fd)) >= 0) {
		uint16_t bridge = l->port == c->conf->proxy_port ? 0 : l->port;
		struct np_slot *s = slot_take(c, fd, bridge);
		pthread_t t;

		if (s == NULL) {
			over_cap(fd, bridge);
			continue;
		}
		if (pthread_create(&t, &c->attr, np_conn_run, s) != 0) {
			np_report_once(NP_ONCE_THREAD, "the proxy could not "
				       "start a thread: a connection was "
				       "closed");
			np_slot_release(s);
		}
	}
}

static void
loop(struct np_ctx *c, const struct np_listener *ls, size_t nl)
{
	struct pollfd p[NP_LISTEN_MAX + 1];

	p[0] = (struct pollfd){ c->conf->stop_fd, POLLIN, 0 };
	for (size_t i = 0; i < nl; i++) {
		p[i + 1] = (struct pollfd){ ls[i].fd, POLLIN, 0 };
		(void)fcntl(ls[i].fd, F_SETFL,
			    fcntl(ls[i].fd, F_GETFL) | O_NONBLOCK);
	}
	for (;;) {
		if (poll(p, (nfds_t)nl + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[0].revents != 0 && np_net_stop_now(p[0].fd))
			return;
		for (size_t i = 0; i < nl; i++)
			if (p[i + 1].revents != 0)
				accept_all(c, &ls[i]);
	}
}

static void
stop(struct np_ctx *c, const struct np_listener *ls, size_t nl)
{
	struct timespec until;

	for (size_t i = 0; i < nl; i++)
		close(ls[i].fd);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += NP_STOP_MS / 1000;
	pthread_mutex_lock(&c->mu);
	c->stopping = 1;
	for (size_t i = 0; i < c->nslots; i++) {
		if (!c->slots[i].used)
			continue;
		(void)shutdown(c->slots[i].cfd, SHUT_RDWR);
		if (c->slots[i].sfd >= 0)
			(void)shutdown(c->slots[i].sfd, SHUT_RDWR);
	}
	while (c->active > 0 &&
	       pthread_cond_timedwait(&c->cv, &c->mu, &until) == 0)
		;
	pthread_mutex_unlock(&c->mu);
}

/* Bridge listeners whose port no loopback entry names are closed. */
static size_t
keep_named(const struct ns_proxy_conf *conf, struct np_listener *ls, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int ok = ls[i].port == conf->proxy_port;

		for (size_t j = 0; j < conf->n_allow && !ok; j++)
			ok = conf->allow[j].kind == NS_NET_LOOPBACK &&
			     conf->allow[j].port == ls[i].port;
		if (ok)
			ls[k++] = ls[i];
		else
			close(ls[i].fd);
	}
	if (k < n)
		np_report_once(NP_ONCE_UNNAMED, "the proxy was sent a "
			       "listener for a port no loopback entry names: "
			       "closed");
	return k;
}

static int
ctx_init(struct np_ctx *c, const struct ns_proxy_conf *conf)
{
	c->conf = conf;
	c->nslots = np_conns(conf);
	c->slots = calloc(c->nslots, sizeof(*c->slots));
	if (c->slots == NULL || pthread_mutex_init(&c->mu, NULL) != 0 ||
	    pthread_cond_init(&c->cv, NULL) != 0 ||
	    pthread_attr_init(&c->attr) != 0 ||
	    pthread_attr_init(&c->jattr) != 0)
		return -1;
	(void)pthread_attr_setstacksize(&c->attr, NP_STACK);
	(void)pthread_attr_setstacksize(&c->jattr, NP_STACK);
	(void)pthread_attr_setdetachstate(&c->attr, PTHREAD_CREATE_DETACHED);
	return 0;
}

int
np_serve(const struct ns_host *host, const struct ns_proxy_conf *conf)
{
	struct np_listener ls[NP_LISTEN_MAX];
	struct sigaction sa;
	size_t nl = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
	np_report_init(conf->report_fd);
	if (np_net_listeners(conf->sink_fd, conf->stop_fd, ls, NP_LISTEN_MAX,
			     &nl) != 0)
		return nk_say(host, NS_E_SYSTEM, "no_proxy", "the proxy could "
			      "not read its listeners: %s", strerror(errno));
	close(conf->sink_fd);
	nl = keep_named(conf, ls, nl);
	if (ctx_init(&ctx_, conf) != 0)
		return nk_say(host, NS_E_SYSTEM, "no_proxy", "the proxy could "
			      "not set up its %zu connection slots",
			      np_conns(conf));
	np_sys_prepare();
	if (np_wall(host, conf, nl) != 0)
		return NS_E_UNAVAILABLE;
	loop(&ctx_, ls, nl);
	stop(&ctx_, ls, nl);
	np_report_lost();
	return NS_OK;
}
