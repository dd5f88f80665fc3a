/* SPDX-License-Identifier: MIT */
/* sb_gpu.c -- the GPU capability probe's bounded taxonomy.
 *
 * With --gpu metal, prepare() runs a tiny MLX operation under the run's
 * OWN profile (never in the unconfined parent: a GPU the parent can reach
 * says nothing about the wall) and sorts what the child printed into one
 * of six answers, each with a remedy a reader can act on:
 *
 *   ok                  the arithmetic ran and printed the marker
 *   runtime_missing     no interpreter / it could not be executed
 *   package_discovery   the interpreter ran, the package was not found
 *                       (a venv python resolved to its base executable)
 *   no_metal_device     MLX/Metal found no device (the wall keeps it out:
 *                       --gpu metal never widens mach-lookup or devices)
 *   policy_refused      the wall refused something on the way
 *   device_unavailable  anything else: never a silent pass
 *
 * Only the child's own bounded output is read; a traceback is never
 * printed whole (one line, at most 160 bytes). */
#include <stdio.h>
#include <string.h>

#include "banned.h"
#include "sb.h"

const char sb_gpu_program[] =
	"import mlx.core as mx\n"
	"a = mx.ones((4,)) + 1\n"
	"mx.eval(a)\n"
	"print('" SB_GPU_MARKER "', float(a.sum()))\n";

struct gpu_rule {
	enum sb_gpu g;
	const char *needle;
};

/* First match wins, most specific first: MLX's own device message before
 * the generic refusals, the import failure before either. */
static const struct gpu_rule rules[] = {
	{ SB_GPU_NO_METAL_DEVICE, "No Metal device available" },
	{ SB_GPU_NO_METAL_DEVICE, "[metal::load_device]" },
	{ SB_GPU_NO_METAL_DEVICE, "MTLCreateSystemDefaultDevice" },
	{ SB_GPU_PACKAGE_DISCOVERY, "ModuleNotFoundError" },
	{ SB_GPU_PACKAGE_DISCOVERY, "No module named" },
	{ SB_GPU_PACKAGE_DISCOVERY, "ImportError" },
	{ SB_GPU_RUNTIME_MISSING, "command not found" },
	{ SB_GPU_RUNTIME_MISSING, "cannot execute" },
	{ SB_GPU_RUNTIME_MISSING, "xcrun: error" },
	{ SB_GPU_RUNTIME_MISSING, "Library not loaded" },
	{ SB_GPU_POLICY_REFUSED, "Operation not permitted" },
	{ SB_GPU_POLICY_REFUSED, "Permission denied" },
	{ SB_GPU_POLICY_REFUSED, "deny(" },
	{ SB_GPU_POLICY_REFUSED, "Sandbox:" },
};

static const char *const words[] = {
	[SB_GPU_OK] = "ok",
	[SB_GPU_RUNTIME_MISSING] = "runtime_missing",
	[SB_GPU_PACKAGE_DISCOVERY] = "package_discovery_failed",
	[SB_GPU_NO_METAL_DEVICE] = "no_metal_device",
	[SB_GPU_POLICY_REFUSED] = "policy_refused",
	[SB_GPU_DEVICE_UNAVAILABLE] = "device_unavailable",
};

static const char *const remedies[] = {
	[SB_GPU_OK] = "the probe's arithmetic ran under this wall",
	[SB_GPU_RUNTIME_MISSING] =
		"no usable interpreter: set [seatbelt] gpu_python to the "
		"python that has MLX, and --read its directory",
	[SB_GPU_PACKAGE_DISCOVERY] =
		"the interpreter ran but found no mlx: name the venv's own "
		"python (not its base executable) and --read-noexec its "
		"site-packages",
	[SB_GPU_NO_METAL_DEVICE] =
		"Metal found no device inside the wall: --gpu metal records "
		"intent and grants no device or mach service (see "
		"docs/MACOS.md)",
	[SB_GPU_POLICY_REFUSED] =
		"the wall refused the probe a file or service: rerun with "
		"the paths it needs as --read",
	[SB_GPU_DEVICE_UNAVAILABLE] =
		"the probe neither ran nor failed in a known way: treat the "
		"GPU as unavailable",
};

const char *
sb_gpu_word(enum sb_gpu g)
{
	return (unsigned)g <= SB_GPU_DEVICE_UNAVAILABLE ? words[g] : "unknown";
}

const char *
sb_gpu_remedy(enum sb_gpu g)
{
	return (unsigned)g <= SB_GPU_DEVICE_UNAVAILABLE ? remedies[g] : "";
}

/* The line of out holding at, printable, at most 160 bytes. */
static void
line_of(const char *out, const char *at, char *detail, size_t len)
{
	const char *a = at, *b = at;
	size_t o = 0;

	while (a > out && a[-1] != '\n')
		a--;
	while (*b && *b != '\n')
		b++;
	for (; a < b && o + 1 < len && o < 160; a++)
		if ((unsigned char)*a >= 0x20 && *a != 0x7f)
			detail[o++] = *a;
	detail[o] = '\0';
}

enum sb_gpu
sb_gpu_classify(int status, const char *out, char *detail, size_t len)
{
	const char *hit;

	if (len > 0)
		detail[0] = '\0';
	if (out == NULL)
		out = "";
	if (status == 0 && (hit = strstr(out, SB_GPU_MARKER)) != NULL) {
		line_of(out, hit, detail, len);
		return SB_GPU_OK;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if ((hit = strstr(out, rules[i].needle)) != NULL) {
			line_of(out, hit, detail, len);
			return rules[i].g;
		}
	if (status == 126 || status == 127) {
		snprintf(detail, len, "exit %d: the interpreter could not be "
			 "run", status);
		return SB_GPU_RUNTIME_MISSING;
	}
	if (status < 0)
		snprintf(detail, len, "the probe did not run to an exit");
	else
		snprintf(detail, len, "exit %d without a known diagnostic",
			 status);
	return SB_GPU_DEVICE_UNAVAILABLE;
}
