/* SPDX-License-Identifier: MIT */
/* apfsvol.c -- apfsvol.so: the macOS place, one APFS volume per run.
 *
 * The volume nova-<name> is added to the boot volume's APFS container
 * (looked up with diskutil, never assumed) with --size as its quota, under
 * a lock file; work/ home/ tmp/ (0700) and the owner marker
 * .nova-sandbox-owner ("pid=<n>\nstart=<ps lstart or ->\n", 0600) are made
 * on it.  It is deleted by identifier after its holders (lsof) are killed;
 * a failed delete is refused with the one command that removes it, so the
 * host prints SANDBOX LEAK.
 *
 * Options ([apfsvol]): diskutil, lsof, ps (absolute paths of the tools;
 * never looked up on PATH), volumes (the mount root, /Volumes), lockfile
 * (default <UserCacheDir>/nova-sandbox/volume-create.lock), lock_wait
 * (seconds, 900), timeout (seconds per tool run, 300).
 *
 * Portable POSIX C: it builds on Linux, where its suite drives it against
 * fake tools (modules/apfsvol/tests/fakes/). */
#include "av.h"
#include "common/nk_module.h"

static const char *const av_options[] = {
	"diskutil", "lsof", "ps", "volumes", "lockfile", "lock_wait",
	"timeout", NULL
};

NK_DESCRIPTOR(NS_ROLE_PLACE, "apfsvol",
	      "macOS place: one APFS volume per run (diskutil), deleted "
	      "by identifier",
	      av_options, .place = &av_place_ops);
