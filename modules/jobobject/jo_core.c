/* SPDX-License-Identifier: MIT */
/* jo_core.c -- jobobject.dll's portable logic (jo_core.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "banned.h"
#include "jo_core.h"

/* ---- the command line ------------------------------------------------ */

struct jo_buf {
	char *p;
	size_t cap, len;
	int full;
};

static void
put(struct jo_buf *b, char c, size_t n)
{
	while (n-- > 0) {
		if (b->len + 1 >= b->cap) {
			b->full = 1;
			return;
		}
		b->p[b->len++] = c;
	}
}

static int
needs_quotes(const char *a)
{
	return a[0] == '\0' || strpbrk(a, " \t\n\v\"") != NULL;
}

/* The C runtime's rule: 2n backslashes + '"' -> n backslashes and a
 * quote character; 2n+1 backslashes + '"' -> n and a literal '"';
 * backslashes not before a '"' are literal. */
static void
quote_arg(struct jo_buf *b, const char *a)
{
	if (!needs_quotes(a)) {
		for (; *a != '\0'; a++)
			put(b, *a, 1);
		return;
	}
	put(b, '"', 1);
	for (;;) {
		size_t bs = 0;

		while (*a == '\\') {
			a++;
			bs++;
		}
		if (*a == '\0') {
			put(b, '\\', bs * 2); /* before the closing quote */
			break;
		}
		if (*a == '"') {
			put(b, '\\', bs * 2 + 1);
			put(b, '"', 1);
		} else {
			put(b, '\\', bs);
			put(b, *a, 1);
		}
		a++;
	}
	put(b, '"', 1);
}

static int
batch_meta(const char *a)
{
	return strpbrk(a, "\"%!^&|<>()\r\n") != NULL;
}

int
jo_is_batch(const char *path)
{
	size_t n = strlen(path);
	const char *e = n >= 4 ? path + n - 4 : "";

	return (e[0] == '.') &&
	       ((((e[1] | 0x20) == 'b') && ((e[2] | 0x20) == 'a') &&
		 ((e[3] | 0x20) == 't')) ||
		(((e[1] | 0x20) == 'c') && ((e[2] | 0x20) == 'm') &&
		 ((e[3] | 0x20) == 'd')));
}

int
jo_cmdline(const char *const *argv, int batch, char *out, size_t cap,
	   size_t *bad)
{
	struct jo_buf b = { out, cap < JO_CMDLINE_MAX ? cap : JO_CMDLINE_MAX,
			    0, 0 };

	*bad = 0;
	if (cap > 0)
		out[0] = '\0';
	if (argv == NULL || argv[0] == NULL || cap == 0)
		return JO_CMD_EMPTY;
	if (strchr(argv[0], '"') != NULL)
		return JO_CMD_ARGV0_QUOTE;
	put(&b, '"', 1);
	for (const char *p = argv[0]; *p != '\0'; p++)
		put(&b, *p, 1);
	put(&b, '"', 1);
	for (size_t i = 1; argv[i] != NULL; i++) {
		if (batch && batch_meta(argv[i])) {
			*bad = i;
			out[0] = '\0';
			return JO_CMD_BATCH_META;
		}
		put(&b, ' ', 1);
		quote_arg(&b, argv[i]);
		if (b.full) {
			*bad = i;
			break;
		}
	}
	if (b.full) {
		out[0] = '\0';
		return JO_CMD_TOO_LONG;
	}
	out[b.len] = '\0';
	return JO_CMD_OK;
}

/* ---- exit codes ------------------------------------------------------ */

#define JO_END_SIG(st, sig) { (st), NS_END_SIGNAL, (sig) }
#define JO_END_NOSTART(st) { (st), NS_END_STATUS, 0 }

static const struct {
	uint32_t status;
	uint32_t how;
	int32_t code;
} jo_status_map[] = {
	JO_END_SIG(0xC0000005u, 11), /* STATUS_ACCESS_VIOLATION */
	JO_END_SIG(0xC0000006u, 7),  /* STATUS_IN_PAGE_ERROR: SIGBUS */
	JO_END_SIG(0xC00000FDu, 11), /* STATUS_STACK_OVERFLOW */
	JO_END_SIG(0xC000001Du, 4),  /* STATUS_ILLEGAL_INSTRUCTION */
	JO_END_SIG(0xC0000096u, 4),  /* STATUS_PRIVILEGED_INSTRUCTION */
	JO_END_SIG(0xC0000094u, 8),  /* STATUS_INTEGER_DIVIDE_BY_ZERO */
	JO_END_SIG(0xC0000095u, 8),  /* STATUS_INTEGER_OVERFLOW */
	JO_END_SIG(0xC000008Eu, 8),  /* STATUS_FLOAT_DIVIDE_BY_ZERO */
	JO_END_SIG(0xC0000090u, 8),  /* STATUS_FLOAT_INVALID_OPERATION */
	JO_END_SIG(0xC0000091u, 8),  /* STATUS_FLOAT_OVERFLOW */
	JO_END_SIG(0xC0000409u, 6),  /* STATUS_STACK_BUFFER_OVERRUN (abort) */
	JO_END_SIG(0x80000003u, 5),  /* STATUS_BREAKPOINT: SIGTRAP */
	JO_END_SIG(0xC000013Au, 2),  /* STATUS_CONTROL_C_EXIT */
	JO_END_SIG(0xC0000017u, 9),  /* STATUS_NO_MEMORY: the job's memory */
	JO_END_SIG(0xC000012Du, 9),  /* STATUS_COMMITMENT_LIMIT: the same */
	JO_END_NOSTART(0xC0000135u), /* STATUS_DLL_NOT_FOUND */
	JO_END_NOSTART(0xC0000139u), /* STATUS_ENTRYPOINT_NOT_FOUND */
	JO_END_NOSTART(0xC0000142u), /* STATUS_DLL_INIT_FAILED */
	JO_END_NOSTART(0xC000007Bu), /* STATUS_INVALID_IMAGE_FORMAT */
	JO_END_NOSTART(0xC0000022u), /* STATUS_ACCESS_DENIED at load */
};

void
jo_exit_map(uint32_t code, struct ns_exit *out)
{
	memset(out, 0, sizeof(*out));
	out->struct_size = sizeof(*out);
	out->how = NS_END_CODE;
	out->code = (int32_t)(code & 0xffu);
	if ((code & 0xffffff00u) == JO_KILL_BASE) {
		out->how = NS_END_SIGNAL;
		out->code = (code & 0xffu) == NS_TERM_SIGNAL ? 15 : 9;
		return;
	}
	for (size_t i = 0; i < sizeof(jo_status_map) / sizeof(jo_status_map[0]);
	     i++) {
		if (jo_status_map[i].status != code)
			continue;
		out->how = jo_status_map[i].how;
		out->code = jo_status_map[i].code;
		if (out->how == NS_END_STATUS) {
			out->code = 0;
			out->status = code;
		}
		return;
	}
	/* An exception status the table does not name (warning or error
	 * severity, a program's own RaiseException code 0xE...): the process
	 * died of it, whatever its low byte says (0xC0000100 would read as
	 * exit 0).  SIGABRT's 134, as a fail-fast's. */
	if (code >= 0x80000000u && code != 0xFFFFFFFFu) {
		out->how = NS_END_SIGNAL;
		out->code = 6;
	}
}

/* ---- the owner marker ------------------------------------------------ */

size_t
jo_marker_format(uint32_t pid, uint64_t start, char *out, size_t cap)
{
	int n;

	if (cap == 0)
		return 0;
	n = snprintf(out, cap, "pid=%" PRIu32 "\nstart=%" PRIu64 "\n", pid,
		     start);
	if (n < 0 || (size_t)n >= cap) {
		out[0] = '\0';
		return 0;
	}
	return (size_t)n;
}

/* "<key><digits>\n" at *p; the value, at most max, no leading zero. */
static int
marker_line(const char **p, const char *end, const char *key, uint64_t max,
	    uint64_t *v)
{
	size_t kl = strlen(key);
	const char *q = *p;

	if ((size_t)(end - q) < kl || memcmp(q, key, kl) != 0)
		return -1;
	q += kl;
	*v = 0;
	if (q == end || *q < '1' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (*v > (max - (uint64_t)(*q - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(*q - '0');
	}
	if (q == end || *q != '\n')
		return -1;
	*p = q + 1;
	return 0;
}

int
jo_marker_parse(const char *buf, size_t len, uint32_t *pid, uint64_t *start)
{
	const char *p = buf, *end = buf + len;
	uint64_t v;

	if (marker_line(&p, end, "pid=", UINT32_MAX, &v) != 0)
		return -1;
	*pid = (uint32_t)v;
	if (marker_line(&p, end, "start=", INT64_MAX, start) != 0)
		return -1;
	return p == end ? 0 : -1;
}

/* ---- the program's format --------------------------------------------- */

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int
jo_pe_check(const unsigned char *buf, size_t n)
{
	uint32_t pe;
	unsigned ch;

	if (n < 0x40 || buf[0] != 'M' || buf[1] != 'Z')
		return -1;
	pe = le32(buf + 0x3c);
	if (pe > n || n - pe < 24 || memcmp(buf + pe, "PE\0\0", 4) != 0)
		return -1;
	/* COFF header: Characteristics at +18 after the signature */
	ch = (unsigned)buf[pe + 22] | (unsigned)buf[pe + 23] << 8;
	if (!(ch & 0x0002u) || (ch & 0x2000u)) /* EXECUTABLE_IMAGE, DLL */
		return -1;
	return 0;
}

/* ---- WSL ------------------------------------------------------------- */

static int
ci_eq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];

		if (x == '/')
			x = '\\';
		if (y == '/')
			y = '\\';
		if (x >= 'A' && x <= 'Z')
			x = (char)(x + 32);
		if (y >= 'A' && y <= 'Z')
			y = (char)(y + 32);
		if (x != y)
			return 0;
	}
	return 1;
}

static const char *
base_name(const char *p, size_t *dirlen)
{
	const char *b = p;

	for (const char *q = p; *q != '\0'; q++)
		if (*q == '\\' || *q == '/')
			b = q + 1;
	*dirlen = b > p ? (size_t)(b - p - 1) : 0;
	return b;
}

int
jo_is_wsl(const char *path, const char *sysdir)
{
	static const char *const launchers[] = { "wsl.exe", "wslhost.exe",
						 "wslg.exe" };
	static const char *const sysdirs[] = { "\\System32", "\\SysWOW64",
					       "\\Sysnative" };
	size_t dl, sl = strlen(sysdir);
	const char *b;

	if (strncmp(path, "\\\\?\\", 4) == 0)
		path += 4;
	b = base_name(path, &dl);
	for (size_t i = 0; i < 3; i++)
		if (strlen(b) == strlen(launchers[i]) &&
		    ci_eq(b, launchers[i], strlen(b)))
			return 1;
	if (strlen(b) != 8 || !ci_eq(b, "bash.exe", 8))
		return 0;
	while (sl > 0 && (sysdir[sl - 1] == '\\' || sysdir[sl - 1] == '/'))
		sl--;
	if (sl == 0 || dl <= sl || !ci_eq(path, sysdir, sl))
		return 0;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(sysdirs[i]);

		if (dl == sl + n && ci_eq(path + sl, sysdirs[i], n))
			return 1;
	}
	return 0;
}

/* ---- the scratch's name and retries ----------------------------------- */

int
jo_scratch_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n < 1 || n > 32)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return -1;
	}
	return name[n - 1] == '.' ? -1 : 0;
}

uint32_t
jo_cpu_rate(uint32_t percent)
{
	return percent >= 1 && percent <= 100 ? percent * 100u : 0;
}

#define JO_LOW_RID 0x1000u /* SECURITY_MANDATORY_LOW_RID */
#define JO_NO_WRITE_UP 0x1u /* SYSTEM_MANDATORY_LABEL_NO_WRITE_UP */

int
jo_low_may_write(int has_label, uint32_t rid, uint32_t policy)
{
	if (!has_label)
		return 0;
	return rid <= JO_LOW_RID || (policy & JO_NO_WRITE_UP) == 0;
}

int
jo_leak_remedy(const char *root, char *out, size_t cap)
{
	int quote = strpbrk(root, " \t") != NULL, unc, n;
	const char *pre = "";

	if (strchr(root, '"') != NULL)
		return -1;
	unc = strncmp(root, "\\\\", 2) == 0;
	if (strlen(root) >= 259 && strncmp(root, "\\\\?\\", 4) != 0) {
		pre = unc ? "\\\\?\\UNC" : "\\\\?\\";
		root += unc; /* "\\server" -> "\\?\UNC\server" */
	}
	n = snprintf(out, cap, "rmdir /s /q %s%s%s%s", quote ? "\"" : "", pre,
		     root, quote ? "\"" : "");
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int
jo_retry_delay_ms(unsigned attempt)
{
	static const int delays[] = { 10, 20, 50, 100, 200, 400, 600, 600 };

	return attempt < sizeof(delays) / sizeof(delays[0]) ? delays[attempt]
							    : -1;
}

/* ---- the environment block ------------------------------------------ */

static uint16_t
ascii_up(uint16_t c)
{
	return c >= 'a' && c <= 'z' ? (uint16_t)(c - ('a' - 'A')) : c;
}

int
jo_env_cmp_ascii(const uint16_t *a, size_t na, const uint16_t *b, size_t nb)
{
	for (size_t i = 0; i < na && i < nb; i++) {
		uint16_t x = ascii_up(a[i]), y = ascii_up(b[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return na < nb ? -1 : na > nb ? 1 : 0;
}

size_t
jo_env_name_len(const uint16_t *e)
{
	size_t i = e[0] != 0 ? 1 : 0; /* a first '=' is part of the name */

	while (e[i] != 0 && e[i] != '=')
		i++;
	return i;
}

static int
name_cmp(jo_name_cmp cmp, const uint16_t *a, const uint16_t *b)
{
	return cmp(a, jo_env_name_len(a), b, jo_env_name_len(b));
}

int
jo_env_sort(const uint16_t **v, size_t n, const uint16_t **tmp,
	    jo_name_cmp cmp, size_t *dup)
{
	if (cmp == NULL)
		cmp = jo_env_cmp_ascii;
	*dup = 0;
	/* bottom-up merge sort: runs of w, merged pairwise into tmp, back */
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n,
			       hi = lo + 2 * w < n ? lo + 2 * w : n,
			       i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = name_cmp(cmp, v[j], v[i]) < 0 ?
						   v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		for (size_t i = 0; i < n; i++)
			v[i] = tmp[i];
	}
	for (size_t i = 1; i < n; i++)
		if (name_cmp(cmp, v[i - 1], v[i]) == 0) {
			*dup = i;
			return -1;
		}
	return 0;
}
