#!/bin/sh
# Run every CUnit suite binary given; fail when any fails.
# usage: tests/run-unit.sh <builddir> <suite>...
set -u
shift
fail=0
for t in "$@"; do
	echo "== $t"
	if ! "$t"; then
		echo "FAIL: $t"
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "unit suites: all passed"
exit "$fail"
