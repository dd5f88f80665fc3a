/* verb_egress.h -- `nova-sandbox egress plan|apply|check|drop`. */
#ifndef NS_HOST_VERB_EGRESS_H
#define NS_HOST_VERB_EGRESS_H

#include "verbs.h"

/* argv[0] is "egress".  Returns the exit code: 0 done, 1 invariants or
 * the kernel said NO, 2 could not run. */
int verb_egress(const struct hostrun *hr, int argc, char **argv);
/* The egress help (sub may be NULL or a sub-verb); 0 or -1. */
int egress_help(const char *sub);

#endif
