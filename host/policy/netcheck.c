/* SPDX-License-Identifier: MIT */
/* netcheck.c -- the policy builder's network checks (rule 7): --net-deny
 * with --net-listen, every --net-allow and --net-allow-file entry parsed
 * into pol->net (netallow.h), each bad one refused with its form, and a
 * proxied entry with --net-deny (a contradiction). */
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"
#include "policy/netallow.h"

/* One bad --net-allow: the form in place of the bad value. */
static int
bad_flag_entry(struct build *b, const char *text, const char *why)
{
	struct sbuf t = {0};
	int rc = sbuf_addf(&t, "--net-allow %s is not an entry: %s; it wants "
			   NETALLOW_FORM, text, why);

	rc = rc ? rc : refuse_line(b, REASON_BAD_NET, t.s, "--net-allow", text,
				   "<host>[:<port>]", NULL);
	sbuf_free(&t);
	return rc < 0 ? -1 : 0;
}

static int
add_entry(struct build *b, const char *text, const char *where)
{
	const char *why = NULL;
	int rc;

	if (b->pol->net.n >= NETALLOW_MAX)
		return 1;
	rc = net_list_add(&b->pol->net, text, &why);
	if (rc <= 0)
		return rc;
	if (where == NULL)
		return bad_flag_entry(b, text, why);
	return ADD(b->r, REASON_BAD_NET, "--net-allow-file %s: %s is not an "
		   "entry: %s; a line wants " NETALLOW_FORM ", or a # comment",
		   where, text, why);
}

/* Every entry of one --net-allow-file. */
static int
add_file(struct build *b, const char *path)
{
	struct strv lines = {0}, where = {0};
	char *why = NULL;
	int rc = netallow_file(path, &lines, &where, &why);

	if (rc > 0)
		rc = ADD(b->r, REASON_BAD_NET, "%s", why);
	for (size_t i = 0; rc == 0 && i < lines.n; i++)
		rc = add_entry(b, lines.v[i], where.v[i]) < 0 ? -1 : 0;
	free(why);
	strv_free(&lines);
	strv_free(&where);
	return rc;
}

/* The first entry --net-deny contradicts (the proxy needs the network it
 * closes), or NULL. */
static const char *
proxied_with_deny(const struct build *b)
{
	for (size_t i = 0; b->in->net_deny && i < b->pol->net.n; i++)
		if (b->pol->net.v[i].kind != NS_NET_LOOPBACK)
			return b->pol->net.v[i].text;
	return NULL;
}

static int
check_entries(struct build *b)
{
	const struct strv *na = &b->in->net_allow;
	const char *clash;
	struct sbuf t = {0};
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < na->n; i++)
		rc = add_entry(b, na->v[i], NULL);
	for (size_t i = 0; rc >= 0 && i < b->in->net_allow_files.n; i++)
		rc = add_file(b, b->in->net_allow_files.v[i]);
	if (rc < 0)
		return -1;
	if (b->pol->net.n >= NETALLOW_MAX &&
	    ADD(b->r, REASON_BAD_NET, "more than %u --net-allow entries: name "
		"fewer (a *.<suffix> or a CIDR covers many)", NETALLOW_MAX) < 0)
		return -1;
	if ((clash = proxied_with_deny(b)) == NULL)
		return 0;
	rc = sbuf_addf(&t, "--net-allow %s and --net-deny contradict: --net-deny "
		       "closes the network the proxy reaches %s through (only "
		       "localhost, 127.0.0.1 and [::1] entries go with it); "
		       "drop --net-deny: with --net-allow the command reaches "
		       "the entries and nothing else", clash, clash);
	rc = rc ? rc : refuse_line(b, REASON_BAD_NET, t.s, "--net-deny", NULL,
				   NULL, NULL);
	sbuf_free(&t);
	return rc < 0 ? -1 : 0;
}

int
check_net(struct build *b)
{
	if (b->in->net_deny && b->in->net_listen &&
	    refuse_line(b, REASON_BAD_NET, "--net-deny and --net-listen "
			"cannot both be given: --net-deny closes what "
			"--net-listen opens; pass one of them", "--net-listen",
			NULL, NULL, NULL) < 0)
		return -1;
	return check_entries(b);
}

int
policy_net_check(const struct policy_input *in, struct net_list *out,
		 struct refusals *r)
{
	struct policy pol;
	struct build b;
	int rc;

	memset(&pol, 0, sizeof(pol));
	memset(&b, 0, sizeof(b));
	b.in = in;
	b.pol = &pol;
	b.r = r;
	rc = check_net(&b);
	*out = pol.net; /* check_net fills nothing else of pol: no
			   policy_free (a zeroed policy's descriptors read 0) */
	return rc;
}
