/* SPDX-License-Identifier: MIT */
/* np_parse.h -- the results the proxy's incremental parsers share. */
#ifndef NS_NETPROXY_NP_PARSE_H
#define NS_NETPROXY_NP_PARSE_H

enum np_parse {
	NP_P_MORE = 0, /* a prefix of something valid: read more */
	NP_P_DONE = 1, /* complete and valid */
	NP_P_BAD = 2   /* not what the proxy speaks */
};

#endif
