#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every CUnit suite binary given; fail when any fails.  A suite that
# exits 3 (cu_run.h's CU_EXIT_UNSAFE_TREE) found the build tree below a
# directory the module loader refuses: it has printed the one line that
# says which and what to do; every other suite would say the same, so the
# run stops there.
# usage: tests/run-unit.sh <builddir> <suite>...
set -u
shift
fail=0
for t in "$@"; do
	echo "== $t"
	"$t"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		echo "unit suites: not run (the build tree is unsafe, see above)"
		exit 3
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $t"
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "unit suites: all passed"
exit "$fail"
