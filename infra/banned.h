/* SPDX-License-Identifier: MIT */
/* banned.h -- functions this project never calls (after git's banned.h). */
#ifndef NS_HOST_BANNED_H
#define NS_HOST_BANNED_H

/* The system headers that declare (or inline) these first, so the macros
 * below never rewrite a libc declaration whatever the include order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* mingw-w64: io.h, through it, declares mktemp */

#define NS_BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) NS_BANNED(strcpy)
#undef strcat
#define strcat(x, y) NS_BANNED(strcat)
#undef sprintf
#define sprintf(...) NS_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) NS_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) NS_BANNED(strtok)
#undef atoi
#define atoi(x) NS_BANNED(atoi)
#undef atol
#define atol(x) NS_BANNED(atol)
#undef gets
#define gets(x) NS_BANNED(gets)
#undef mktemp
#define mktemp(x) NS_BANNED(mktemp)

#endif
