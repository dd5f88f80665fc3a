/* SPDX-License-Identifier: MIT */
/* fuzz_common.h -- what every libFuzzer harness in tests/fuzz/ shares
 * (header-only; each harness is its own binary): the entry point's
 * prototype, an output sink that costs no system call, and the argv split
 * the argument harnesses use. */
#ifndef NS_TESTS_FUZZ_COMMON_H
#define NS_TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static ssize_t
fz_discard(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

/* A FILE that swallows what is written to it: the code that prints runs
 * (formatting, escaping), the fuzzer does not wait on a terminal. */
static inline FILE *
fz_sink(void)
{
	static FILE *f;
	static const cookie_io_functions_t io = { .write = fz_discard };

	if (f == NULL)
		f = fopencookie(NULL, "w", io);
	if (f == NULL)
		abort();
	return f;
}

/* Split the input on NUL bytes into words, as the kernel hands argv to
 * main: "a\0b\0c" and "a\0b\0c\0" are both {a, b, c}.  Each word is its
 * own allocation of exactly its bytes and NUL, so a read past a word's end
 * is caught by ASan (in one shared buffer it would land in the next word).
 * Returns argc; argv[argc] is NULL; free with fz_argv_free. */
static inline int
fz_argv(const uint8_t *data, size_t size, char ***argv)
{
	size_t n = 0, k = 0, i = 0;
	char **v;

	for (size_t j = 0; j < size; j++)
		n += data[j] == '\0';
	n += size > 0 && data[size - 1] != '\0';
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL)
		abort();
	for (; k < n; k++) {
		const uint8_t *nul = memchr(data + i, '\0', size - i);
		size_t len = nul ? (size_t)(nul - (data + i)) : size - i;

		v[k] = malloc(len + 1);
		if (v[k] == NULL)
			abort();
		memcpy(v[k], data + i, len);
		v[k][len] = '\0';
		i += len + 1;
	}
	*argv = v;
	return (int)n;
}

static inline void
fz_argv_free(char **argv)
{
	for (size_t k = 0; argv[k] != NULL; k++)
		free(argv[k]);
	free(argv);
}

/* A private directory beside the harness's binary (under the build tree,
 * which the tool's own-file checks accept, unlike /tmp): "<dir of the
 * binary>/<prefix>-XXXXXX" made with mkdtemp into out (PATH_MAX).
 * Aborts when it cannot. */
static inline void
fz_private_dir(const char *prefix, char *out)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		abort();
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(out, PATH_MAX, "%s/%s-XXXXXX", exe, prefix);
	if (mkdtemp(out) == NULL)
		abort();
}

#endif
