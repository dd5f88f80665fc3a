#!/bin/bash
# SPDX-License-Identifier: MIT
# selftest.sh -- the case machinery of lib.sh tested on itself, before any
# real case runs (run.sh calls it): a failed expectation, a body that
# stops early, a skip and a skip-here (needs_machine, its probes forced) are
# reported under the case's name, at_end runs
# whatever the body did, a body's variables die with it, and T_ONLY runs
# one case and counts no other.
# usage: tests/integration/selftest.sh (NOVA_B and NOVA_TEST_USER as run.sh
# sets them)
set -u
here=$(cd "$(dirname "$0")" && pwd)
D=$(mktemp -d /tmp/nova-it-self.XXXXXX)
trap 'rm -rf "$D"' EXIT
cp "$here/lib.sh" "$D/lib.sh"
cat > "$D/t_self.sh" <<'T'
source "$(dirname "$0")/lib.sh"
t "passes" <<'EOF'
at_end 'echo end-pass >> "$MARKS"'
expect_eq 1 1
EOF
t "fails an expectation" <<'EOF' || echo "t-returned-1" >> "$MARKS"
at_end 'echo end-fail >> "$MARKS"'
expect_eq 1 2 "one is two"
echo after-the-failure >> "$MARKS"
EOF
t "stops on an unset variable" <<'EOF'
at_end 'echo end-stop >> "$MARKS"'
echo "$NO_SUCH_VARIABLE"
echo not-reached >> "$MARKS"
EOF
t "skips" <<'EOF'
at_end 'echo end-skip >> "$MARKS"'
skip "a reason"
EOF
t "sets a variable" <<'EOF'
LEAK=1
EOF
t "sees no variable of another case" <<'EOF'
expect_eq "${LEAK:-unset}" unset "a variable of the case above"
EOF
t "lacks a probe" <<'EOF'
needs_machine i386 tty
echo not-reached-here >> "$MARKS"
EOF
t "has a probe" <<'EOF'
needs_machine i386
echo reached-has >> "$MARKS"
EOF
t "asks no such probe" <<'EOF'
needs_machine nosuch
echo not-reached-bad >> "$MARKS"
EOF
T
fail=0
check() { # label file want
	local got
	got=$(cat "$D/$2" 2>/dev/null)
	[ "$got" = "$3" ] || { echo "selftest: $1: $2 is '$got', wanted '$3'"; fail=1; }
}
one() { # T_ONLY
	rm -rf "$D/res" "$D/marks" && mkdir "$D/res"
	NOVA_RESULTS="$D/res" MARKS="$D/marks" T_ONLY=$1 \
		NOVA_MACHINE="i386=yes,tty=no" bash "$D/t_self.sh" \
		> "$D/out" 2>&1 </dev/null
}
one ""
check "every case" res/pass "t_self: passes
t_self: sets a variable
t_self: sees no variable of another case
t_self: has a probe"
check "every case" res/fail "t_self: fails an expectation
t_self: stops on an unset variable
t_self: asks no such probe"
check "every case" res/skip "t_self: a reason"
check "needs_machine" res/skiphere "t_self: lacks a probe: this machine lacks tty: forced off by NOVA_MACHINE"
check "every case" marks "end-pass
after-the-failure
end-fail
t-returned-1
end-stop
end-skip
reached-has"
grep -qx "FAIL t_self: fails an expectation" "$D/out" &&
	grep -q "one is two: '1' != '2'" "$D/out" &&
	grep -q "the body stopped before its end" "$D/out" ||
	{ echo "selftest: the failures are not reported by name"; fail=1; }
cp "$D/out" "$D/out.all"
one "fails an*"
check "T_ONLY" res/ran "t_self: fails an expectation"
check "T_ONLY" res/fail "t_self: fails an expectation"
check "T_ONLY" res/pass ""
check "T_ONLY" res/skip ""
check "T_ONLY" res/skiphere ""
if [ "$fail" != 0 ]; then
	echo "--- the self-test's output (every case):"; sed 's/^/| /' "$D/out.all"
	exit 1
fi
echo "selftest: lib.sh's cases, at_end, skip, needs_machine and T_ONLY behave"
