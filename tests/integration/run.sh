#!/bin/bash
# Integration tests: drive the built binary.  Every tests/integration/t_*.sh
# is run with bash; each sources lib.sh.  Walled commands run as an
# unprivileged user: as root we create (once) and drop to $NOVA_TEST_USER.
# A skip must name its reason and be listed in expected-skips, or the run
# fails (CI fails on an unexpected skip).
# usage: tests/integration/run.sh <builddir> [t_name ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
shift || true
export NOVA_B="$B"
export NOVA_TEST_USER="${NOVA_TEST_USER:-nova-test}"
if [ "$(id -u)" = 0 ] && ! id "$NOVA_TEST_USER" >/dev/null 2>&1; then
	useradd --system --create-home --shell /bin/sh "$NOVA_TEST_USER" || exit 2
fi
results=$(mktemp -d /tmp/nova-it-results.XXXXXX)
trap 'rm -rf "$results"' EXIT
export NOVA_RESULTS="$results"
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/t_*.sh); fi
fail=0
for t in "${tests[@]}"; do
	case "$t" in /*) ;; *) t="$here/$t" ;; esac
	echo "== $(basename "$t")"
	if ! bash "$t"; then fail=1; fi
done
npass=$(cat "$results"/pass 2>/dev/null | wc -l)
nfail=$(cat "$results"/fail 2>/dev/null | wc -l)
echo "integration: $npass passed, $nfail failed"
if [ -s "$results/skip" ]; then
	while IFS= read -r line; do
		if grep -qxF "$line" "$here/expected-skips" 2>/dev/null; then
			echo "expected skip: $line"
		else
			echo "UNEXPECTED SKIP: $line"
			fail=1
		fi
	done < "$results/skip"
fi
[ "$nfail" -eq 0 ] || fail=1
exit "$fail"
