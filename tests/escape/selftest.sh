#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/escape/selftest.sh -- the escape suite's machinery on attacks whose
# answers are known, before any real attack counts (run.sh calls it):
#
#   - a control that fails where the machine has what it needs is a
#     CONTROL FAILED and fails the run;
#   - the same control where the machine lacks it (the probe's answer
#     forced by NOVA_MACHINE) is a named skip-here, counted in
#     skipped_here with its name and reason, and the run passes;
#   - a probe that cannot answer (a malformed NOVA_MACHINE) fails the run;
#   - an attack with no probe in its needs is never skipped.
#
# usage: tests/escape/selftest.sh <builddir>
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
tab=$(mktemp "$B/tests/esc-selftest.XXXXXX") || exit 2
out=$(mktemp "$B/tests/esc-selftest-out.XXXXXX") || exit 2
trap 'rm -f "$tab" "$out"' EXIT
chmod 644 "$tab"
cat > "$tab" <<'TAB'
st-ctl-fails  | base | bare | tty    | - | false | a control that cannot succeed
TAB
fail=0

# expect DESC RC-WANT PATTERN...: run the suite on $tab with $FORCE
expect() {
	local desc=$1 want=$2 rc p
	shift 2
	NOVA_ESCAPE_TAB="$tab" NOVA_MACHINE="$FORCE" "$here/run.sh" "$B" >"$out" 2>&1
	rc=$?
	for p in "$@"; do
		grep -qE -- "$p" "$out" || { echo "selftest: $desc: no line matches '$p'"; rc=x; }
	done
	if [ "$rc" != "$want" ]; then
		echo "selftest FAIL: $desc (exit $rc, want $want):"
		sed 's/^/  | /' "$out"
		fail=1
	else
		echo "selftest ok: $desc"
	fi
}

FORCE="tty=yes"
expect "a failed control where the machine has the probe fails the run" 1 \
	'^CONTROL FAILED \[base\] st-ctl-fails' \
	'control_failed=1 skipped_here=0$'
FORCE="tty=no"
expect "the same where the machine lacks it is a named skip" 0 \
	'^skip-here \[base\] st-ctl-fails: this machine lacks tty: forced off by NOVA_MACHINE$' \
	'attacks=0 .* control_failed=0 skipped_here=1 \(st-ctl-fails\)$'
FORCE="tty=perhaps"
expect "a probe that cannot answer fails the run" 1 \
	'^CONTROL FAILED .*st-ctl-fails.*the machine probe could not answer: .*NOVA_MACHINE' \
	'control_failed=1 skipped_here=0$'
sed -i 's/| tty    |/| -      |/' "$tab"
FORCE="tty=no"
expect "an attack with no probe is never skipped" 1 \
	'^CONTROL FAILED \[base\] st-ctl-fails' \
	'control_failed=1 skipped_here=0$'
exit "$fail"
