/* SPDX-License-Identifier: MIT */
/* hostrun.h -- what main() learned about the running process, handed to
 * every verb and to the rooms that need to know where the tool's own
 * files are. */
#ifndef NS_HOST_HOSTRUN_H
#define NS_HOST_HOSTRUN_H

struct hostrun {
	const char *exe;     /* absolute path of the running binary */
	const char *exe_dir; /* its directory */
	const char *config_path; /* NOVA_SANDBOX_CONFIG when honoured, or NULL */
	char **env;          /* the caller's environment */
};

#endif
