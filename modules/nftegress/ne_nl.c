/* SPDX-License-Identifier: MIT */
/* ne_nl.c -- the netlink conversations of nftegress: one batch sent and
 * drained, the table read back (GETTABLE, GETCHAIN and GETRULE dumps),
 * the table destroyed.  Reference egress.md sections 1.2-1.6. */
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>
#include <libnftnl/table.h>

#include "ne.h"

#ifndef NFT_MSG_DESTROYTABLE
#define NFT_MSG_DESTROYTABLE 26 /* kernel >= 6.3; not in 6.1 headers */
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#define RXBUF 65536

int
ne_lines_add(struct nelines *l, const char *fmt, ...)
{
	char buf[512];
	char **nv;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (l->n + 1 >= l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;

		nv = realloc(l->v, cap * sizeof(*nv));
		if (nv == NULL)
			return -1;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n] = strdup(buf);
	if (l->v[l->n] == NULL)
		return -1;
	l->n++;
	return 0;
}

void
ne_lines_free(struct nelines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static struct mnl_socket *
nl_open(size_t bufsz)
{
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_NETFILTER,
						 SOCK_CLOEXEC);
	int one = 1, sz = (int)(bufsz < (1u << 30) ? bufsz : (1u << 30));

	if (nl == NULL)
		return NULL;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(nl);
		return NULL;
	}
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (sz > 0) {
		setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_SNDBUFFORCE,
			   &sz, sizeof(sz));
		setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE,
			   &sz, sizeof(sz));
	}
	return nl;
}

struct drain {
	uint32_t end_seq, err_seq;
	int err, committed;
};

static int
ack_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct drain *d = data;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return MNL_CB_ERROR;
	if (e->error == 0 && nlh->nlmsg_seq == d->end_seq)
		d->committed = 1;
	if (e->error != 0 && d->err == 0) {
		d->err = -e->error;
		d->err_seq = nlh->nlmsg_seq;
	}
	return MNL_CB_OK;
}

/* nfnetlink runs the batch inside sendmsg(): every reply is queued when
 * it returns; drain them without waiting, then wait briefly once. */
static int
drain_replies(struct mnl_socket *nl, struct drain *d)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = ack_cb };
	char *buf = malloc(RXBUF);
	struct pollfd p = { mnl_socket_get_fd(nl), POLLIN, 0 };
	ssize_t n;

	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		if (poll(&p, 1, d->committed || d->err ? 0 : 1000) <= 0)
			break;
		n = recv(p.fd, buf, RXBUF, MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS) {
			d->err = d->err ? d->err : ENOBUFS;
			continue;
		}
		if (n <= 0)
			break;
		mnl_cb_run2(buf, (size_t)n, 0, mnl_socket_get_portid(nl), NULL,
			    d, ctl, NLMSG_MIN_TYPE);
	}
	free(buf);
	return 0;
}

int
ne_send_batch(const char *buf, size_t len, uint32_t end_seq,
	      uint32_t *err_seq, int *err, int *committed)
{
	struct drain d = { end_seq, 0, 0, 0 };
	struct mnl_socket *nl = nl_open(len * 2 + RXBUF);

	if (nl == NULL)
		return -errno;
	if (mnl_socket_sendto(nl, buf, len) < 0) {
		int e = errno;

		mnl_socket_close(nl);
		return -e;
	}
	drain_replies(nl, &d);
	mnl_socket_close(nl);
	*err_seq = d.err_seq;
	*err = d.err;
	*committed = d.committed;
	return 0;
}

/* ---- dumps ----------------------------------------------------------- */

static int
talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char *buf = malloc(RXBUF);
	uint32_t seq = nlh ? nlh->nlmsg_seq : 0;
	uint32_t port = mnl_socket_get_portid(nl);
	ssize_t n;
	int rc = -EIO;

	if (buf == NULL || nlh == NULL) {
		free(buf);
		return -ENOMEM;
	}
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	while ((n = mnl_socket_recvfrom(nl, buf, RXBUF)) > 0) {
		int k = mnl_cb_run(buf, (size_t)n, seq, port, cb, data);

		if (k <= MNL_CB_STOP) {
			rc = k < 0 ? -errno : 0;
			break;
		}
	}
	if (n < 0)
		rc = -errno;
out:
	free(buf);
	return rc;
}

struct tinfo {
	uint32_t flags;
	int found;
};

static int
table_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct tinfo *ti = data;

	if (t != NULL && nftnl_table_nlmsg_parse(nlh, t) == 0) {
		ti->found = 1;
		ti->flags = nftnl_table_get_u32(t, NFTNL_TABLE_FLAGS);
	}
	if (t != NULL)	/* libnftnl's frees do not take NULL */
		nftnl_table_free(t);
	return MNL_CB_OK;
}

struct cinfo {
	char name[64];
	int base, hook, prio, policy_accept;
	char type[16];
	struct nelines rules;
};

struct dump {
	const char *table;
	struct cinfo *c;
	size_t n, cap;
	int nomem;
};

static int
hook_of(uint32_t h)
{
	return h == NF_INET_LOCAL_OUT ? NS_EGRESS_HOOK_OUTPUT :
	    h == NF_INET_FORWARD ? NS_EGRESS_HOOK_FORWARD :
	    h == NF_INET_LOCAL_IN ? NS_EGRESS_HOOK_INPUT : NS_EGRESS_HOOK_OTHER;
}

static int
chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct dump *d = data;
	struct cinfo *ci;

	if (c == NULL || nftnl_chain_nlmsg_parse(nlh, c) < 0 ||
	    strcmp(nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE), d->table) != 0)
		goto out;
	if (d->n == d->cap) {
		struct cinfo *nv = realloc(d->c, (d->cap + 8) * sizeof(*nv));

		if (nv == NULL) {
			d->nomem = 1;
			goto out;
		}
		d->c = nv;
		d->cap += 8;
	}
	ci = &d->c[d->n++];
	memset(ci, 0, sizeof(*ci));
	snprintf(ci->name, sizeof(ci->name), "%s",
		 nftnl_chain_get_str(c, NFTNL_CHAIN_NAME));
	ci->base = nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM);
	if (ci->base) {
		ci->hook = hook_of(nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM));
		ci->prio = nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO);
		ci->policy_accept = !nftnl_chain_is_set(c, NFTNL_CHAIN_POLICY) ||
		    nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) == NF_ACCEPT;
		snprintf(ci->type, sizeof(ci->type), "%s",
			 nftnl_chain_is_set(c, NFTNL_CHAIN_TYPE) ?
			 nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE) : "filter");
	}
out:
	if (c != NULL)
		nftnl_chain_free(c);
	return MNL_CB_OK;
}

static void
rule_line(struct dump *d, struct cinfo *ci, const struct nftnl_rule *r)
{
	struct ns_egress_rule x;
	char why[128], line[256];

	if (ne_decode(r, &x, why, sizeof(why)) < 0 ||
	    ns_egress_format_rule(&x, line, sizeof(line)) < 0)
		d->nomem |= ne_lines_add(&ci->rules, "?undecodable rule "
					 "handle %llu: %s",
					 (unsigned long long)
					 nftnl_rule_get_u64(r,
					 NFTNL_RULE_HANDLE), why) < 0;
	else
		d->nomem |= ne_lines_add(&ci->rules, "%s", line) < 0;
}

static int
rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct dump *d = data;
	const char *chain;

	if (r == NULL || nftnl_rule_nlmsg_parse(nlh, r) < 0 ||
	    strcmp(nftnl_rule_get_str(r, NFTNL_RULE_TABLE), d->table) != 0)
		goto out;
	chain = nftnl_rule_get_str(r, NFTNL_RULE_CHAIN);
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->c[i].name, chain) == 0) {
			rule_line(d, &d->c[i], r);
			break;
		}
out:
	if (r != NULL)
		nftnl_rule_free(r);
	return MNL_CB_OK;
}

/* A dump (or GETTABLE) request naming only the table; NULL on ENOMEM. */
static struct nlmsghdr *
get_msg(char *buf, uint16_t type, uint16_t flags, const char *table)
{
	struct nlmsghdr *nlh = nftnl_nlmsg_build_hdr(buf, type, NFPROTO_INET,
						     flags, (uint32_t)time(NULL));
	struct nftnl_table *t;
	struct nftnl_chain *c;
	struct nftnl_rule *r;

	if (type == NFT_MSG_GETTABLE) {
		if ((t = nftnl_table_alloc()) == NULL)
			return NULL;
		nftnl_table_set_str(t, NFTNL_TABLE_NAME, table);
		nftnl_table_nlmsg_build_payload(nlh, t);
		nftnl_table_free(t);
	} else if (type == NFT_MSG_GETCHAIN) {
		if ((c = nftnl_chain_alloc()) == NULL)
			return NULL;
		nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
		nftnl_chain_nlmsg_build_payload(nlh, c);
		nftnl_chain_free(c);
	} else {
		if ((r = nftnl_rule_alloc()) == NULL)
			return NULL;
		nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
		nftnl_rule_nlmsg_build_payload(nlh, r);
		nftnl_rule_free(r);
	}
	return nlh;
}

static void
emit(struct dump *d, struct nelines *out, const char *table, uint32_t flags)
{
	char base[128];

	if (flags != 0)
		ne_lines_add(out, "table inet %s flags 0x%x {", table, flags);
	else
		ne_lines_add(out, "table inet %s {", table);
	for (size_t i = 0; i < d->n; i++) {
		struct cinfo *ci = &d->c[i];

		ne_lines_add(out, "\tchain %s {", ci->name);
		if (ci->base && ns_egress_format_base(ci->type, ci->hook,
						   ci->prio, ci->policy_accept,
						   base, sizeof(base)) > 0)
			ne_lines_add(out, "\t\t%s", base);
		for (size_t k = 0; k < ci->rules.n; k++)
			ne_lines_add(out, "\t\t%s", ci->rules.v[k]);
		ne_lines_add(out, "\t}");
	}
	ne_lines_add(out, "}");
}

int
ne_read_table(const char *table, struct nelines *out)
{
	char buf[8192];
	struct mnl_socket *nl = nl_open(0);
	struct tinfo ti = { 0, 0 };
	struct dump d = { table, NULL, 0, 0, 0 };
	int rc;

	if (nl == NULL)
		return -errno;
	rc = talk(nl, get_msg(buf, NFT_MSG_GETTABLE, NLM_F_ACK, table),
		  table_cb, &ti);
	if (rc == 0 && !ti.found)
		rc = -ENOENT;
	if (rc == 0)
		rc = talk(nl, get_msg(buf, NFT_MSG_GETCHAIN, NLM_F_DUMP, table),
			  chain_cb, &d);
	if (rc == 0)
		rc = talk(nl, get_msg(buf, NFT_MSG_GETRULE, NLM_F_DUMP, table),
			  rule_cb, &d);
	mnl_socket_close(nl);
	if (rc == 0 && d.nomem)
		rc = -ENOMEM;
	if (rc == 0)
		emit(&d, out, table, ti.flags);
	for (size_t i = 0; i < d.n; i++)
		ne_lines_free(&d.c[i].rules);
	free(d.c);
	return rc;
}

static int
drop_with(const char *table, uint16_t type)
{
	char buf[8192];	/* twice the limit: see send_plan */
	struct mnl_nlmsg_batch *b = mnl_nlmsg_batch_start(buf, sizeof(buf) / 2);
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;
	uint32_t seq = (uint32_t)time(NULL), es = 0;
	int err = 0, committed = 0, rc;

	if (b == NULL || t == NULL) {
		if (t)
			nftnl_table_free(t);
		if (b)
			mnl_nlmsg_batch_stop(b);
		return -ENOMEM;
	}
	nftnl_batch_begin(mnl_nlmsg_batch_current(b), seq++);
	mnl_nlmsg_batch_next(b);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, table);
	nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(b), type,
				    NFPROTO_INET, 0, seq++);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	mnl_nlmsg_batch_next(b);
	nlh = nftnl_batch_end(mnl_nlmsg_batch_current(b), seq);
	nlh->nlmsg_flags |= NLM_F_ACK;
	mnl_nlmsg_batch_next(b);
	rc = ne_send_batch(mnl_nlmsg_batch_head(b), mnl_nlmsg_batch_size(b),
			   seq, &es, &err, &committed);
	mnl_nlmsg_batch_stop(b);
	return rc != 0 ? rc : -err;
}

int
ne_drop_table(const char *table)
{
	int rc = drop_with(table, NFT_MSG_DESTROYTABLE);

	if (rc == -EINVAL || rc == -EOPNOTSUPP)	/* kernel < 6.3 */
		rc = drop_with(table, NFT_MSG_DELTABLE);
	return rc == -ENOENT ? 0 : rc;
}
