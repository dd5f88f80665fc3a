/* SPDX-License-Identifier: MIT */
/* np_http.h -- the proxy's HTTP request head, pure functions: the
 * request line (CONNECT host:port, or an absolute http:// URI) and the
 * header lines, strict (CRLF only, no obs-fold, token names), and the
 * head rewritten for the origin server. */
#ifndef NS_NETPROXY_NP_HTTP_H
#define NS_NETPROXY_NP_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "np_parse.h"

#define NP_HTTP_HEAD_MAX 16384 /* request line and headers */
#define NP_HTTP_HEADERS_MAX 100

/* Offsets into the parsed buffer (the head stays where it was read). */
struct np_http_req {
	int connect;       /* CONNECT (authority-form) */
	size_t method, method_len;
	size_t host, host_len;  /* without IPv6 brackets */
	size_t auth, auth_len;  /* host[:port] as sent (Host: for GET) */
	size_t path, path_len;  /* origin-form; 0 length: "/" */
	size_t version;         /* "HTTP/1.x", 8 bytes */
	uint16_t port;          /* default 80 for http:// */
	size_t head_len;        /* through the empty line */
};

/* Parse the head at the start of buf (len bytes read so far).  MORE: no
 * end of head yet and nothing wrong so far; DONE: *r filled; BAD.  The
 * caller refuses a head still MORE at NP_HTTP_HEAD_MAX bytes. */
int np_http_parse(const char *buf, size_t len, struct np_http_req *r);

/* The head for the origin server of an absolute-URI request: the
 * request line in origin-form, "Host: <authority>", every header but
 * Host, Connection, Keep-Alive and Proxy-*, then "Connection: close".
 * Into out (cap); its length into *n.  0, or -1 when it does not fit. */
int np_http_rewrite(const char *buf, const struct np_http_req *r, char *out,
		    size_t cap, size_t *n);

/* One header line of a parsed head, from *off (start: the offset after
 * the request line; np_http_first_header).  1 with name/value offsets,
 * 0 at the empty line. */
struct np_http_hdr {
	size_t name, name_len, value, value_len;
};
size_t np_http_first_header(const char *buf, size_t head_len);
int np_http_next_header(const char *buf, size_t head_len, size_t *off,
			struct np_http_hdr *h);

#endif
