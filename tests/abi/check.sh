#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/abi/check.sh -- the ABI gate: build the reference library
# (tests/abi/ref.c: every public struct and enum) from the headers in
# <apidir>, describe it with abidw and compare it with the committed
# baseline (tests/abi/baseline.xml) with abidiff.
#
#   fails (exit 1) on an incompatible change: a member removed, moved,
#     retyped or inserted before the end of a struct, a struct that
#     shrank, an enumerator removed or renumbered, a type removed;
#   passes (exit 0) with the report printed on a compatible addition: a
#     member appended at the END of a struct (the header's rule), an
#     enumerator added, a new type;
#   exit 2: the gate itself could not run (tools, build, a struct or enum
#     of the headers missing from ref.c).
#
# usage: tests/abi/check.sh [apidir] [workdir]
#        (defaults: api/ and a fresh temporary directory)
# To take a new baseline after a reviewed compatible change:
#        ABI_UPDATE=1 tests/abi/check.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
API=$(cd "${1:-$HERE/../../api}" && pwd)
W=${2:-}
CC=${CC:-cc}
if [ -z "$W" ]; then
	W=$(mktemp -d /tmp/nova-abi.XXXXXX)
	trap 'rm -rf "$W"' EXIT
fi
for t in abidw abidiff; do
	command -v "$t" >/dev/null || { echo "abi: $t is missing (abigail-tools)"; exit 2; }
done

# every struct and enum the headers define (outside the egress plan's
# implementation section) must be in ref.c
types=$(sed '/^#if defined(NS_EGRESS_PLAN_IMPLEMENTATION)/,$d' "$API"/*.h |
	sed -n 's/^\(struct\|enum\) \([a-z_0-9]*\) {.*/\1 \2/p' | sort -u)
missing=0
echo "$types" | while read -r kind name; do
	grep -q "^REF($kind, $name)\$" "$HERE/ref.c" || {
		echo "abi: $kind $name is not in tests/abi/ref.c; add REF($kind, $name)"
		exit 1
	}
done || missing=1
[ "$missing" = 0 ] || exit 2

# the reference library, from a copy of ref.c beside a copy of the headers
mkdir -p "$W/api" "$W/tests/abi"
cp "$API"/*.h "$W/api/"
cp "$HERE/ref.c" "$W/tests/abi/ref.c"
(cd "$W" && $CC -std=c11 -g -Og -shared -fPIC -fvisibility=hidden \
	-o libnsabi.so tests/abi/ref.c) || { echo "abi: the reference library does not build"; exit 2; }
(cd "$W" && abidw --no-corpus-path --no-comp-dir-path --out-file abi.xml libnsabi.so) ||
	{ echo "abi: abidw failed"; exit 2; }

if [ "${ABI_UPDATE:-0}" = 1 ]; then
	cp "$W/abi.xml" "$HERE/baseline.xml"
	echo "abi: baseline updated (tests/abi/baseline.xml); commit it with the header change"
	exit 0
fi

rc=0
abidiff --no-added-syms --harmless "$HERE/baseline.xml" "$W/abi.xml" > "$W/report" 2>&1 || rc=$?
# bits: 1 error, 2 usage, 4 ABI change, 8 incompatible change
if [ $((rc & 3)) -ne 0 ]; then
	cat "$W/report"
	echo "abi: abidiff could not compare (exit $rc)"
	exit 2
fi
if [ "$rc" -eq 0 ]; then
	echo "abi: no change against tests/abi/baseline.xml"
	exit 0
fi
# a change: allowed only when every change is an addition at the end
if python3 "$HERE/classify.py" "$W/report"; then
	cat "$W/report"
	echo "abi: compatible additions only (above); take a new baseline with ABI_UPDATE=1 once the header's minor says so"
	exit 0
fi
cat "$W/report"
echo "abi: INCOMPATIBLE change against tests/abi/baseline.xml (above): members are only ever appended; anything else is a new major"
exit 1
