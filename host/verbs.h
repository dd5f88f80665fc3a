/* verbs.h -- what main() knows about the running process, and the verbs
 * implemented outside main.c. */
#ifndef NS_HOST_VERBS_H
#define NS_HOST_VERBS_H

#include "config.h"

struct hostrun {
	const char *exe;     /* absolute path of the running binary */
	const char *exe_dir; /* its directory */
	const char *config_path; /* NOVA_SANDBOX_CONFIG when honoured, or NULL */
	char **env;          /* the caller's environment */
};

/* `nova-sandbox modules [--json]`: per configured module (every role of
 * this platform), its file, name, version, ABI, roles and whether it is
 * available here.  Returns the exit code (0 ok, 1 no wall is available,
 * 2 could not run: usage or config refused). */
int verb_modules(const struct hostrun *hr, int argc, char **argv);

#endif
