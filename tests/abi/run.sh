#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/abi/run.sh -- the ABI gate (make check-abi):
#   1. tests/abi/check.sh on api/ against the committed baseline must pass;
#   2. in scratch copies of api/ (never api/ itself) the gate must FAIL on
#      a member inserted mid-struct, a member retyped, a member removed and
#      an enumerator renumbered, and PASS, reporting it, on a member
#      appended at the end and an enumerator added;
#   3. the layout pins (tests/unit/abi_pins.h) compile for aarch64 with the
#      cross compiler (and hold: they are _Static_asserts), and a moved
#      member fails them there too.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
W=$(mktemp -d /tmp/nova-abi-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
FAILS=0
ok() { echo "ok   abi: $1"; }
no() { echo "FAIL abi: $1"; FAILS=$((FAILS + 1)); }

# scratch NAME PYTHON-REPLACEMENTS: a copy of api/ with one change
scratch() {
	rm -rf "$W/$1"
	mkdir -p "$W/$1"
	cp "$TOP"/api/*.h "$W/$1/"
	python3 - "$W/$1/ns_backend.h" "$2" "$3" <<'P'
import sys
p, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(p).read()
assert s.count(a) == 1, "scratch edit does not apply: " + a
open(p, "w").write(s.replace(a, b))
P
}

# gate NAME WANT(0|1): run the gate on scratch NAME, expect that exit
gate() {
	rc=0
	"$HERE/check.sh" "$W/$1" "$W/work-$1" > "$W/out-$1" 2>&1 || rc=$?
	if [ "$rc" = "$2" ]; then
		return 0
	fi
	tail -20 "$W/out-$1"
	return 1
}

rc=0
"$HERE/check.sh" > "$W/out-api" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then ok "api/ matches tests/abi/baseline.xml"; else cat "$W/out-api"; no "api/ against the baseline (exit $rc)"; fi

HOSTEND='	void (*denial)(void *cookie, const struct ns_denial *d);
};'
scratch append "$HOSTEND" '	void (*denial)(void *cookie, const struct ns_denial *d);
	void *appended;
};'
if gate append 0 && grep -q "'void\* appended', at offset 448" "$W/out-append"; then
	ok "a member appended to ns_host passes, reported"
else no "a member appended to ns_host"; fi

scratch enum_add '	NS_E_INTERNAL = 4     /* a bug: an invariant did not hold */' \
	'	NS_E_INTERNAL = 4,    /* a bug: an invariant did not hold */
	NS_E_LATER = 5'
if gate enum_add 0 && grep -q "NS_E_LATER" "$W/out-enum_add"; then
	ok "an enumerator added passes, reported"
else no "an enumerator added"; fi

scratch insert '	void *cookie; /* opaque' '	void *inserted;
	void *cookie; /* opaque'
if gate insert 1 && grep -q "INCOMPATIBLE" "$W/out-insert"; then
	ok "a member inserted mid-struct in ns_host fails the gate"
else no "a member inserted mid-struct"; fi

scratch retype '	uint32_t roles;       /* NS_ROLE_* bits;' '	uint64_t roles;       /* NS_ROLE_* bits;'
if gate retype 1; then ok "a member retyped in ns_backend_ops fails the gate"
else no "a member retyped"; fi

scratch remove '	/* 1.2 */
	uint16_t built_minor;' '	/* 1.2 */'
if gate remove 1; then ok "a member removed from ns_backend_ops fails the gate"
else no "a member removed"; fi

scratch renumber '	NS_E_UNAVAILABLE = 1,' '	NS_E_UNAVAILABLE = 7,'
if gate renumber 1; then ok "an enumerator renumbered fails the gate"
else no "an enumerator renumbered"; fi

# ---- the layout pins on aarch64 -------------------------------------------
XCC=${ABI_CROSS_CC:-aarch64-linux-gnu-gcc}
if ! command -v "$XCC" >/dev/null; then
	no "no $XCC (gcc-aarch64-linux-gnu, infra/deps.sh): the aarch64 pins are unchecked"
else
	if "$XCC" -std=c11 -fsyntax-only "$TOP/tests/abi/pins_cross.c" 2> "$W/x.err"; then
		ok "the layout pins hold on aarch64 ($XCC)"
	else cat "$W/x.err"; no "the layout pins on aarch64"; fi
	# the same check on a scratch tree with a moved member must fail
	mkdir -p "$W/xtree/api" "$W/xtree/tests/unit" "$W/xtree/tests/abi"
	cp "$W"/insert/*.h "$W/xtree/api/"
	cp "$TOP/tests/unit/abi_pins.h" "$W/xtree/tests/unit/"
	cp "$TOP/tests/abi/pins_cross.c" "$W/xtree/tests/abi/"
	if "$XCC" -std=c11 -fsyntax-only "$W/xtree/tests/abi/pins_cross.c" 2> "$W/x2.err"; then
		no "a moved member passes the aarch64 pins"
	elif grep -q "moved\|changed" "$W/x2.err"; then
		ok "a moved member fails the aarch64 pins"
	else cat "$W/x2.err"; no "the aarch64 pins failed for another reason"; fi
fi

[ "$FAILS" = 0 ] || { echo "abi: $FAILS failed"; exit 1; }
echo "abi: all passed"
