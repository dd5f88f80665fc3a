/* SPDX-License-Identifier: MIT */
/* np_tls.c -- the ClientHello's server name (np_tls.h). */
#include "np_tls.h"

#include <string.h>

#include "banned.h"

#define REC_TYPE_HANDSHAKE 0x16
#define HS_CLIENT_HELLO 1
#define EXT_SERVER_NAME 0
#define REC_MAX 18432 /* 2^14 + 2048: the largest record a peer may send */

/* A bounded reader over the reassembled handshake. */
struct rd {
	const uint8_t *p;
	size_t n, at;
	int bad;
};

static size_t
get(struct rd *r, size_t k)
{
	size_t v = 0;

	if (r->bad || k > r->n - r->at) {
		r->bad = 1;
		return 0;
	}
	for (size_t i = 0; i < k; i++)
		v = v << 8 | r->p[r->at + i];
	r->at += k;
	return v;
}

static void
skip(struct rd *r, size_t k)
{
	if (r->bad || k > r->n - r->at)
		r->bad = 1;
	else
		r->at += k;
}

/* The handshake message in hs is whole (its 4-byte header says how
 * long it is). */
static int
hello_whole(const uint8_t *hs, size_t hn)
{
	return hn >= 4 &&
	       hn - 4 >= ((size_t)hs[1] << 16 | (size_t)hs[2] << 8 | hs[3]);
}

/* The handshake fragments of consecutive handshake records into hs
 * (cap NP_TLS_MAX), up to the record that completes the ClientHello
 * (what follows it, a ChangeCipherSpec or early data, is not read); *hn
 * its length.  NOT, MORE (the records so far are valid), or BAD. */
/* ChangeCipherSpec, Alert, application data, heartbeat: TLS, but never
 * what a client sends first (its ClientHello), so no way past the check. */
static int
is_other_record(uint8_t t)
{
	return t == 0x14 || t == 0x15 || t == 0x17 || t == 0x18;
}

static int
reassemble(const uint8_t *b, size_t len, uint8_t *hs, size_t *hn)
{
	size_t at = 0;

	*hn = 0;
	if (len >= 1 && is_other_record(b[0]))
		return NP_TLS_BAD;
	if (len >= 1 && b[0] != REC_TYPE_HANDSHAKE)
		return NP_TLS_NOT;
	while (len - at >= 5 && !hello_whole(hs, *hn)) {
		size_t rl = (size_t)b[at + 3] << 8 | b[at + 4];

		if (b[at] != REC_TYPE_HANDSHAKE || b[at + 1] != 3 ||
		    rl == 0 || rl > REC_MAX)
			return NP_TLS_BAD;
		if (len - at - 5 < rl)
			rl = len - at - 5; /* a partial record: what is here */
		if (rl > NP_TLS_MAX - *hn)
			return NP_TLS_BAD;
		memcpy(hs + *hn, b + at + 5, rl);
		*hn += rl;
		at += 5 + rl;
	}
	return NP_TLS_MORE;
}

/* server_name's list: the first host_name (type 0) into out. */
static int
server_name(struct rd *r, size_t ext_len, char *out, size_t cap)
{
	size_t end = r->at + ext_len, list = get(r, 2), nl;

	if (r->bad || list + 2 != ext_len || list < 3)
		return NP_TLS_BAD;
	if (get(r, 1) != 0)
		return NP_TLS_BAD;
	nl = get(r, 2);
	if (r->bad || nl == 0 || nl >= cap || nl > end - r->at)
		return NP_TLS_BAD;
	memcpy(out, r->p + r->at, nl);
	out[nl] = '\0';
	if (memchr(out, '\0', nl) != NULL)
		return NP_TLS_BAD;
	r->at = end;
	return NP_TLS_SNI;
}

/* The extensions block, exactly its declared length. */
static int
extensions(struct rd *r, char *out, size_t cap)
{
	size_t total = get(r, 2), end = r->at + total;
	int found = NP_TLS_NOSNI;

	if (r->bad || total > r->n - r->at)
		return NP_TLS_BAD;
	while (!r->bad && r->at < end) {
		size_t type = get(r, 2), el = get(r, 2);

		if (r->bad || el > end - r->at)
			return NP_TLS_BAD;
		if (type != EXT_SERVER_NAME) {
			skip(r, el);
			continue;
		}
		if (found == NP_TLS_SNI)
			return NP_TLS_BAD; /* two server_name extensions */
		found = server_name(r, el, out, cap);
		if (found == NP_TLS_BAD)
			return NP_TLS_BAD;
	}
	return r->bad || r->at != end ? NP_TLS_BAD : found;
}

/* The ClientHello body (after its 4-byte header). */
static int
client_hello(struct rd *r, char *out, size_t cap)
{
	size_t cs;

	skip(r, 2 + 32);      /* legacy_version, random */
	skip(r, get(r, 1));   /* legacy_session_id */
	cs = get(r, 2);
	if (r->bad || cs < 2 || cs % 2 != 0)
		return NP_TLS_BAD;
	skip(r, cs);          /* cipher_suites */
	skip(r, get(r, 1));   /* legacy_compression_methods */
	if (r->bad)
		return NP_TLS_BAD;
	if (r->at == r->n)
		return NP_TLS_NOSNI; /* no extensions at all */
	return extensions(r, out, cap);
}

int
np_tls_sni(const uint8_t *b, size_t len, char *out, size_t cap)
{
	uint8_t hs[NP_TLS_MAX];
	size_t hn, body;
	int st = reassemble(b, len, hs, &hn);
	struct rd r = { hs, 0, 0, 0 };

	if (st != NP_TLS_MORE || hn < 4)
		return st;
	if (hs[0] != HS_CLIENT_HELLO)
		return NP_TLS_BAD;
	body = (size_t)hs[1] << 16 | (size_t)hs[2] << 8 | hs[3];
	if (body > NP_TLS_MAX - 4)
		return NP_TLS_BAD;
	if (hn < 4 + body)
		return NP_TLS_MORE;
	r.n = 4 + body; /* bytes after the ClientHello are not read */
	r.at = 4;
	return client_hello(&r, out, cap);
}
