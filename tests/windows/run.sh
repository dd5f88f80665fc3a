#!/bin/sh
# tests/windows/run.sh -- the Windows suite under Wine (make check-windows).
# usage: tests/windows/run.sh <build-win dir>
# A throwaway WINEPREFIX (removed on exit, its wineserver killed), Windows
# 10 as the version, WINEDEBUG=-all, every wine call under timeout, no
# display.  Runs wintest.exe against jobobject.dll and jo_child.exe by full
# path, prints its lines and the count, and fails when a test failed or
# when the skipped tests are not exactly tests/windows/expected-skips (a
# new skip fails, as a vanished one does).
set -eu
WB=${1:?usage: run.sh <build-win dir>}
here=$(cd "$(dirname "$0")" && pwd -P)
for t in wine wineboot wineserver timeout; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "windows suite: $t is missing; ./infra/deps.sh installs wine64" >&2
		exit 1
	}
done
WB=$(cd "$WB" && pwd -P)
dll=$WB/lib/nova-sandbox/jobobject.dll
exe=$WB/tests/windows/wintest.exe
child=$WB/tests/windows/jo_child.exe
for f in "$dll" "$exe" "$child"; do
	[ -f "$f" ] || { echo "windows suite: $f is not built (make windows)" >&2; exit 1; }
done
# Wine's Z: drive is the Linux root
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }

WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/nova-wine.XXXXXX")
export WINEPREFIX WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
unset DISPLAY WAYLAND_DISPLAY
log=$WINEPREFIX.log
cleanup() {
	timeout 20 wineserver -k >/dev/null 2>&1 || true
	rm -rf "$WINEPREFIX" "$log"
}
trap cleanup EXIT INT TERM
start=$(date +%s)
timeout 120 wineboot -i </dev/null >/dev/null 2>&1 ||
	{ echo "windows suite: wineboot failed or took over 120 s" >&2; exit 1; }
timeout 60 wine winecfg -v win10 </dev/null >/dev/null 2>&1 ||
	{ echo "windows suite: winecfg -v win10 failed" >&2; exit 1; }
rc=0
conf=$(cd "$here/../.." && pwd -P)/conf/nova-sandbox.conf
timeout 180 wine "$exe" "$(winpath "$dll")" "$(winpath "$child")" "$(winpath "$conf")" \
	</dev/null >"$log" 2>&1 || rc=$?
tr -d '\r' <"$log" | grep -v '^$' | sed 's/^/  /'
[ "$rc" = 124 ] && echo "windows suite: wintest.exe did not finish in 180 s" >&2
got=$(tr -d '\r' <"$log" | sed -n 's/^SKIP \(.*\) -- .*/\1/p' | sort)
want=$(grep -v '^#' "$here/expected-skips" | grep -v '^$' | sort)
if [ "$got" != "$want" ]; then
	echo "windows suite: the skips are not tests/windows/expected-skips:" >&2
	printf '%s\n' "$want" >"$log.want"
	printf '%s\n' "$got" | diff -u "$log.want" - >&2 || true
	rm -f "$log.want"
	rc=1
fi
tr -d '\r' <"$log" | grep -q '^windows suite: [0-9]* passed, [0-9]* skipped, 0 failed$' || rc=1
echo "windows suite: $(( $(date +%s) - start )) s under Wine ($(timeout 20 wine --version 2>/dev/null | tr -d '\r'))"
[ "$rc" = 0 ] && echo "windows suite: passed" || echo "windows suite: FAILED"
exit "$rc"
