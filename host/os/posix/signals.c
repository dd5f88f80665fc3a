/* SPDX-License-Identifier: MIT */
/* signals.c -- the stop signals the wrap and `run` forward (os.h), for
 * every POSIX layer. */
#include "os/os.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>

const char *
os_stop_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
	    sig == SIGHUP ? "SIGHUP" : sig == SIGQUIT ? "SIGQUIT" :
	    "a stop signal";
}

void
os_catch_stop_signals(void (*fn)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* A SIGHUP the caller ignored stays ignored (nohup asks exactly
	 * that).  INT, TERM and QUIT are caught even when ignored: a shell
	 * ignores INT and QUIT for a background job only to keep the
	 * keyboard's interrupt away, and a launcher that signals the tool's
	 * pid by hand means it. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigs[i] != SIGHUP || sigaction(sigs[i], NULL, &old) != 0 ||
		    old.sa_handler != SIG_IGN)
			(void)sigaction(sigs[i], &sa, NULL);
}

void
os_signals_start(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGCHLD, &sa, NULL);
}
