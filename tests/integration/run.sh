#!/bin/bash
# SPDX-License-Identifier: MIT
# Integration tests: drive the built binary.  Every tests/integration/t_*.sh
# is run with bash; each sources lib.sh.  Walled commands run as an
# unprivileged user: as root we create (once) and drop to $NOVA_TEST_USER.
# A skip must name its reason and be listed in expected-skips.<mode> (root
# or user: the suite runs both ways, and what may skip differs), or the run
# fails (CI fails on an unexpected skip).  A case whose control needs what
# this machine lacks (lib.sh's needs_machine: the i386 entry, a pty, IPv6,
# user namespaces, audit...) is a skip-here: named with the probe's reason
# and counted in skipped_here, not listed.  A listed skip of a file that ran
# but did not skip is said (the list has gone stale), not failed: some
# skips depend on the machine.
# One case: an argument t_file.sh:'<name>' runs only the cases of t_file
# whose name is <name> or matches it as a shell glob (lib.sh's T_ONLY; an
# exported T_ONLY selects in every file named).  Unselected cases are not
# run and not counted; a selection that matches no case fails the run.
# usage: tests/integration/run.sh <builddir> [t_name[.sh][:'<case>'] ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
shift || true
export NOVA_B="$B"
export NOVA_TEST_USER="${NOVA_TEST_USER:-nova-test}"
if [ "$(id -u)" = 0 ] && ! id "$NOVA_TEST_USER" >/dev/null 2>&1; then
	useradd --system --create-home --shell /bin/sh "$NOVA_TEST_USER" || exit 2
fi
# the case machinery first: with it broken no count below means anything
"$here/selftest.sh" || exit 1
results=$(mktemp -d /tmp/nova-it-results.XXXXXX)
trap 'rm -rf "$results"' EXIT
export NOVA_RESULTS="$results"
if [ "$(id -u)" = 0 ]; then mode=root; else mode=user; fi
skips="$here/expected-skips.$mode"
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/t_*.sh); fi
ran=""
fail=0
selecting=${T_ONLY:+1}
for arg in "${tests[@]}"; do
	t=$arg only=${T_ONLY:-}
	case "$arg" in *.sh:* | t_*:*) t=${arg%%:*} only=${arg#*:} selecting=1 ;; esac
	case "$t" in *.sh) ;; *) t="$t.sh" ;; esac
	case "$t" in /*) ;; *) t="$here/$t" ;; esac
	name=$(basename "$t" .sh)
	echo "== $(basename "$t")${only:+ (only: $only)}"
	ran="$ran $name"
	before=$(cat "$results/ran" 2>/dev/null | wc -l)
	if ! T_ONLY="$only" bash "$t" </dev/null; then fail=1; fi
	if [ -n "$only" ] && [ "$(cat "$results/ran" 2>/dev/null | wc -l)" = "$before" ]; then
		echo "NO CASE of $name matches '$only'"
		fail=1
	fi
done
npass=$(cat "$results"/pass 2>/dev/null | wc -l)
nfail=$(cat "$results"/fail 2>/dev/null | wc -l)
# the cases whose control this machine cannot give (lib.sh's needs_machine)
nhere=$(cat "$results"/skiphere 2>/dev/null | wc -l)
if [ "$nhere" -gt 0 ]; then
	sed 's/^/skipped here: /' "$results/skiphere"
fi
echo "integration ($mode): skipped_here=$nhere"
echo "integration ($mode): $npass passed, $nfail failed"
if [ -s "$results/skip" ]; then
	while IFS= read -r line; do
		if grep -qxF "$line" "$skips" 2>/dev/null; then
			echo "expected skip: $line"
		else
			echo "UNEXPECTED SKIP: $line (not in $(basename "$skips"))"
			fail=1
		fi
	done < "$results/skip"
fi
[ -n "$selecting" ] ||
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	case " $ran " in *" ${line%%:*} "*) ;; *) continue ;; esac
	grep -qxF "$line" "$results/skip" 2>/dev/null ||
		echo "note: listed in $(basename "$skips") but did not skip: $line"
done < "$skips"
[ "$nfail" -eq 0 ] || fail=1
exit "$fail"
