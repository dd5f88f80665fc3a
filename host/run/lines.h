/* SPDX-License-Identifier: MIT */
/* lines.h -- run's and reap's lines and clock (run/lines.c): portable,
 * what reap needs of the run room on every platform. */
#ifndef NS_HOST_RUN_LINES_H
#define NS_HOST_RUN_LINES_H

#include <stdint.h>

#include "base/util.h"

/* CLOCK_MONOTONIC in milliseconds. */
uint64_t run_now_ms(void);
void run_step(const char *step, uint64_t since); /* since 0: start */
void run_note(const char *text);
/* SANDBOX LEAK name= volume= remedy="" (run and reap). */
void run_leak_line(const char *name, const char *id, const char *remedy);
/* Print r as SANDBOX REFUSED lines (help run), free it; returns code. */
/* The caller's line fd_limit's remedy is built on when a refusal list
 * keeps none (a place module's). */
void run_line_set(const struct cmdline *line);
int run_refuse(struct refusals *r, int code);

#endif
