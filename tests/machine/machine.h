/* SPDX-License-Identifier: MIT */
/* machine.h -- what this machine can do that a test's control depends on.
 *
 * Some controls of the test suites need a facility the kernel, the
 * hypervisor or the distribution may not give: the i386 syscall entry,
 * MAP_32BIT, TIOCSTI, a pty, IPv6, MPTCP, unprivileged user namespaces,
 * audit, ambient capabilities, cgroup v2 controllers.  A suite asks
 * machine_has() first; where the machine lacks the facility the case is a
 * named skip ("skipped here", with the reason), never a failed control.
 * A control that fails on a machine that has the facility still fails.
 *
 * NOVA_MACHINE in the environment forces answers, for the unit test of
 * this logic and to see a suite's skips on a machine that has everything:
 *
 *   NOVA_MACHINE="i386=no,userns=yes"
 *
 * A forced name that is no probe, or a value other than yes or no, is an
 * error (MACHINE_BAD), never a silent answer. */
#ifndef NS_TESTS_MACHINE_H
#define NS_TESTS_MACHINE_H

#include <stddef.h>

enum machine_answer {
	MACHINE_LACKS = 0, /* the machine lacks it; why says what failed */
	MACHINE_HAS = 1,
	MACHINE_BAD = -1, /* no such probe, or NOVA_MACHINE is malformed */
};

/* Ask probe `name`: its answer, forced by NOVA_MACHINE when that names it.
 * `why` (size n) receives the reason when the answer is not MACHINE_HAS. */
enum machine_answer machine_has(const char *name, char *why, size_t n);

/* The probes, in table order: the name of probe i, NULL past the last. */
const char *machine_probe_name(size_t i);

/* What probe `name` needs, in a few words (NULL for no such probe). */
const char *machine_probe_what(const char *name);

#endif
