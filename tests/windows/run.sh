#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/windows/run.sh -- the Windows suites under Wine (make check-windows).
# usage: tests/windows/run.sh <build-win dir>
# A throwaway WINEPREFIX (removed on exit, its wineserver killed), Windows
# 10 as the version, WINEDEBUG=-all, winedbg off, every wine call under
# timeout, no display.  Runs wintest.exe (jobobject.dll through the ABI,
# jo_child.exe as the command, the config read with iniparser) and
# ostest.exe (the host's Windows layer), tooltest.exe (the host's tool
# runner, fake_tool.exe as its program) and the real nova-sandbox.exe
# (tests/windows/host.sh), by full path; prints their lines
# and the count ("windows: P passed, F failed, S skipped"), and fails when
# a test failed, a program did not finish, or the skipped tests are not
# exactly tests/windows/expected-skips (a new skip fails, as a vanished one
# does).
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
dll=$WB/lib/nova-sandbox/1/jobobject.dll
exe=$WB/tests/windows/wintest.exe
ostest=$WB/tests/windows/ostest.exe
tooltest=$WB/tests/windows/tooltest.exe
fake=$WB/tests/windows/fake_tool.exe
hostexe=$WB/bin/nova-sandbox.exe
child=$WB/tests/windows/jo_child.exe
conf=$(cd "$here/../.." && pwd -P)/modules/jobobject/dropin.conf
for f in "$dll" "$exe" "$child" "$ostest" "$tooltest" "$fake" "$hostexe"; do
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
	rm -rf "$WINEPREFIX" "$log" "$log.one" "$log.want"
}
trap cleanup EXIT INT TERM
start=$(date +%s)
timeout 120 wineboot -i </dev/null >/dev/null 2>&1 ||
	{ echo "windows suite: wineboot failed or took over 120 s" >&2; exit 1; }
timeout 60 wine winecfg -v win10 </dev/null >/dev/null 2>&1 ||
	{ echo "windows suite: winecfg -v win10 failed" >&2; exit 1; }

# The module and the host run from the prefix's C: drive, as an installed
# tool would: Wine gives a file of another Unix user than the caller
# (root's /home, /work, /) an owner no trust check accepts (S-1-5-7), so
# as an ordinary user every Z: path above the build tree is refused; as
# root Wine calls root's files the caller's.  The copies are the build's.
stage=$WINEPREFIX/drive_c/nsbuild
mkdir -p "$stage"
cp -R "$WB/bin" "$WB/lib" "$stage/"
wdll='C:\nsbuild\lib\nova-sandbox\1\jobobject.dll'
whost='C:\nsbuild\bin\nova-sandbox.exe'

rc=0
# one program, its closing line's name first: its lines shown indented and
# appended to $log; rc=1 unless it exited 0 with "<name>: ... 0 failed"
one() {
	name=$1
	shift
	r=0
	timeout 180 wine "$@" </dev/null >"$log.one" 2>&1 || r=$?
	tr -d '\r' <"$log.one" | grep -v '^$' | sed 's/^/  /'
	tr -d '\r' <"$log.one" >>"$log"
	[ "$r" = 124 ] && echo "windows suite: $name did not finish in 180 s" >&2
	tr -d '\r' <"$log.one" |
		grep -q "^$name: [0-9]* passed, [0-9]* skipped, 0 failed\$" || rc=1
	[ "$r" = 0 ] || rc=1
	lap "$name"
}
# each stage's seconds, so the 2-minute budget is seen where it goes
lapt=$start
lap() {
	echo "  ($1: $(( $(date +%s) - lapt )) s)"
	lapt=$(date +%s)
}
lap "wineboot and winecfg"
: >"$log"
mkdir -p "$WINEPREFIX/drive_c/ostest"
one "windows suite" "$exe" "$wdll" "$(winpath "$child")" "$(winpath "$conf")"
one "windows os layer" "$ostest" "$wdll" 'C:\ostest'
one "windows tool runner" "$tooltest" "$(winpath "$fake")" 'C:\tooltest'
echo "  the host, nova-sandbox.exe:"
. "$here/host.sh"
jchild=$(winpath "$child")
jhost=$jchild
host_suite "$whost"
lap "the host"
echo "  the host's tool runner: worktree and --go with fake git, gh, go:"
. "$here/host_tools.sh"
host_tools "$whost"
lap "the host's tools"

got=$(sed -n 's/^SKIP \(.*\) -- .*/\1/p' "$log" | sort)
want=$(grep -v '^#' "$here/expected-skips" | grep -v '^$' | sort)
if [ "$got" != "$want" ]; then
	echo "windows suite: the skips are not tests/windows/expected-skips:" >&2
	printf '%s\n' "$want" >"$log.want"
	printf '%s\n' "$got" | diff -u "$log.want" - >&2 || true
	rc=1
fi
p=$(grep -c '^PASS ' "$log" || true)
s=$(grep -c '^SKIP ' "$log" || true)
f=$(grep -c '^FAIL ' "$log" || true)
echo "windows suite: $(( $(date +%s) - start )) s under Wine ($(timeout 20 wine --version 2>/dev/null | tr -d '\r'))"
echo "windows: $p passed, $f failed, $s skipped"
[ "$rc" = 0 ] && echo "windows suite: passed" || echo "windows suite: FAILED"
exit "$rc"
