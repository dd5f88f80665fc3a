/* SPDX-License-Identifier: MIT */
/* signals.c -- the stop signals the wrap and `run` forward (os.h), for
 * every POSIX layer. */
#include "os/os.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>

void
os_catch_stop_signals(void (*fn)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) != 0 ||
		    old.sa_handler != SIG_IGN) /* the caller's SIG_IGN stays */
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
