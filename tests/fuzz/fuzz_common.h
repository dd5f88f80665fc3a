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
#include <string.h>
#include <sys/types.h>

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

/* The input as a NUL-terminated copy (heap; the caller frees). */
static inline char *
fz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Split the input on NUL bytes into words, as the kernel hands argv to
 * main: "a\0b\0c" and "a\0b\0c\0" are both {a, b, c}.  *buf owns the
 * bytes and *argv the pointers (argv[argc] is NULL); free both. */
static inline int
fz_argv(const uint8_t *data, size_t size, char **buf, char ***argv)
{
	size_t n = 0, k = 0;
	char *s = fz_text(data, size);
	char **v;

	for (size_t i = 0; i < size; i++)
		n += data[i] == '\0';
	n += size > 0 && data[size - 1] != '\0';
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL)
		abort();
	for (size_t i = 0; i < size && k < n; k++) {
		v[k] = s + i;
		i += strlen(s + i) + 1;
	}
	*buf = s;
	*argv = v;
	return (int)n;
}

#endif
