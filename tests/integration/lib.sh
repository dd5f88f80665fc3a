# SPDX-License-Identifier: MIT
# lib.sh -- shared helpers for the integration tests (sourced).
#
# A case is a name and a body:
#
#   t 'name' <<'EOF'
#   run_as ...
#   expect_rc 0
#   EOF
#
# The body runs in a subshell of the file (it sees every variable and
# function the file set before it; what it sets dies with it).  A failed
# expectation, a body that stops early (exit, an unset variable under
# set -u, a syntax error) or is killed fails the case, reported with its
# name.  t returns 1 when the case failed (`t ... <<'EOF' ... EOF || exit 1`
# stops a file whose later cases need this one).  Anything between cases
# is file-level setup: it runs whichever cases are selected.
#
#   t 'name' <<'EOF'         a case (the body on stdin, a quoted heredoc)
#   at_end 'cmd'             in a body: run cmd when the body ends, passed
#                            or failed (last registered runs first)
#   skip "reason"            in a body: this case cannot run here (ends the
#                            body; the reason must be in expected-skips.*)
#   needs_machine [-root] PROBE...
#                            in a body: the case's control needs these of
#                            the machine (tests/machine/machine.h: i386,
#                            tty, tiocsti, ipv6, userns, audit, ambient...),
#                            asked as the test user (-root: as the suite's
#                            own user).  Where the machine lacks one the
#                            case ends as a skip-here naming the probe's
#                            reason: counted in skipped_here, never in
#                            expected-skips.*; a probe that cannot answer
#                            fails the case.  NOVA_MACHINE forces answers.
#   run CMD...               run, capturing $OUT $ERR (files) and $RC
#   run_as CMD...            the same, as the unprivileged test user
#   expect_rc N              the last run exited N
#   expect_err REGEX         stderr has a line matching REGEX (grep -E)
#   expect_out REGEX         stdout has a line matching REGEX
#   expect_no_err REGEX      stderr has no line matching REGEX
#   expect_absent PATH       PATH does not exist (nothing was created)
#   expect_present PATH
#   expect_eq A B MSG
#   newdir                   a fresh directory owned by the test user
#
# Selection: T_ONLY=<pattern> runs only the cases whose name (without the
# "t_file: " prefix) is the pattern or matches it as a shell glob; the
# others are not run and not counted.  run.sh sets it from an argument
# t_file.sh:'<name or glob>'.
set -u
NS="$NOVA_B/bin/nova-sandbox"
# where the build puts the modules: install-shaped, beside the binary as
# MODULEDIR_REL (the Makefile writes it into the build dir)
MODREL=$(cat "$NOVA_B/moduledir-rel")
MODS=$(cd "$NOVA_B/bin/$MODREL" && pwd)
H="$NOVA_B/tests/helpers"
FIX="$NOVA_B/tests/fixtures"
OUT=$(mktemp /tmp/nova-it-out.XXXXXX)
ERR=$(mktemp /tmp/nova-it-err.XXXXXX)
RC=0
_case=""
_case_failed=0
_DIRS=$(mktemp /tmp/nova-it-dirs.XXXXXX)
chmod 644 "$OUT" "$ERR"

if [ "$(id -u)" = 0 ]; then
	TUID=$(id -u "$NOVA_TEST_USER")
	TGID=$(id -g "$NOVA_TEST_USER")
	THOME=$(getent passwd "$NOVA_TEST_USER" | cut -d: -f6)
else
	TUID=$(id -u)
	TGID=$(id -g)
	THOME=$HOME
fi

_STATE=$(mktemp /tmp/nova-it-state.XXXXXX)

_cleanup() {
	while IFS= read -r d; do rm -rf -- "$d"; done < "$_DIRS"
	rm -f "$OUT" "$ERR" "$_DIRS" "$_STATE"
}
trap _cleanup EXIT

# is the case named $1 selected by T_ONLY?
_selected() {
	[ -n "${T_ONLY:-}" ] || return 0
	[ "$1" = "$T_ONLY" ] && return 0
	# shellcheck disable=SC2053
	[[ $1 == $T_ONLY ]]
}

t() {
	local name=$1 body st rc
	body=$(cat)
	_selected "$name" || return 0
	_case="$(basename "$0" .sh): $name"
	echo "$_case" >> "$NOVA_RESULTS/ran"
	: > "$_STATE"
	# each case starts with empty output files: a watcher that waits for
	# a line in $ERR (a filler started at SANDBOX OK) must not see the
	# case before's
	: > "$OUT"
	: > "$ERR"
	if [ -z "$body" ]; then
		echo "     no body: write t 'name' <<'EOF' ... EOF"
		st=fail
	else
		(_body "$body") </dev/null
		rc=$?
		st=$(cat "$_STATE")
		case "$st" in
		pass | fail | skip:* | here:*) ;;
		stopped) echo "     the body stopped before its end (exit $rc)"; st=fail ;;
		*) echo "     the body was killed (exit $rc)"; st=fail ;;
		esac
	fi
	case "$st" in
	pass) echo "ok   $_case"; echo "$_case" >> "$NOVA_RESULTS/pass" ;;
	skip:*)
		echo "skip $_case: ${st#skip:}"
		echo "$(basename "$0" .sh): ${st#skip:}" >> "$NOVA_RESULTS/skip" ;;
	here:*)
		echo "skip-here $_case: ${st#here:}"
		echo "$_case: ${st#here:}" >> "$NOVA_RESULTS/skiphere" ;;
	*) echo "FAIL $_case"; echo "$_case" >> "$NOVA_RESULTS/fail"; _case=""; return 1 ;;
	esac
	_case=""
	return 0
}

# the subshell that runs one body: its EXIT trap runs the at_end commands
# and writes how the body ended to $_STATE
_body() {
	_case_failed=0
	_skipped=""
	_here=""
	_reached=0
	_AT_END=()
	trap _body_end EXIT
	eval "$1"$'\n''_reached=1'
	exit 0
}

_body_end() {
	local i
	for ((i = ${#_AT_END[@]} - 1; i >= 0; i--)); do
		eval "${_AT_END[i]}" || echo "     at_end failed: ${_AT_END[i]}"
	done
	if [ -n "$_skipped" ]; then
		printf 'skip:%s' "$_skipped" > "$_STATE"
	elif [ -n "$_here" ]; then
		printf 'here:%s' "$_here" > "$_STATE"
	elif [ "$_reached" != 1 ]; then
		echo stopped > "$_STATE"
	elif [ "$_case_failed" != 0 ]; then
		echo fail > "$_STATE"
	else
		echo pass > "$_STATE"
	fi
}

at_end() {
	_AT_END+=("$1")
}

_fail() {
	_case_failed=1
	echo "     $*"
	echo "     --- stdout:"; sed 's/^/     | /' "$OUT" | head -20
	echo "     --- stderr:"; sed 's/^/     | /' "$ERR" | head -20
}

run() {
	"$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

# as the test user, HOME and cwd as given by the caller's environment
run_as() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@" \
			>"$OUT" 2>"$ERR" </dev/null
	else
		"$@" >"$OUT" 2>"$ERR" </dev/null
	fi
	RC=$?
}

expect_rc() {
	[ "$RC" = "$1" ] || _fail "expected exit $1, got $RC"
}
expect_err() {
	grep -qE -- "$1" "$ERR" || _fail "stderr lacks /$1/"
}
expect_out() {
	grep -qE -- "$1" "$OUT" || _fail "stdout lacks /$1/"
}
expect_no_err() {
	! grep -qE -- "$1" "$ERR" || _fail "stderr has /$1/"
}
expect_no_out() {
	! grep -qE -- "$1" "$OUT" || _fail "stdout has /$1/"
}
expect_absent() {
	[ ! -e "$1" ] && [ ! -L "$1" ] || _fail "$1 exists"
}
expect_present() {
	[ -e "$1" ] || _fail "$1 is absent"
}
expect_eq() {
	[ "$1" = "$2" ] || _fail "${3:-values differ}: '$1' != '$2'"
}
skip() {
	_skipped=$1
	exit 0
}
needs_machine() {
	local as=() why rc
	if [ "${1:-}" = -root ]; then
		shift
	elif [ "$(id -u)" = 0 ]; then
		as=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups --)
	fi
	why=$("${as[@]}" "$H/ns_machine" "$@" 2>&1)
	rc=$?
	why=$(printf '%s' "$why" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	case $rc in
	0) return 0 ;;
	1) _here="this machine lacks $why"; exit 0 ;;
	*) _fail "the machine probe could not answer: $why"; _reached=1; exit 0 ;;
	esac
}

# a fresh directory under /tmp owned by the test user (removed at exit)
newdir() {
	local d
	d=$(mktemp -d /tmp/nova-it.XXXXXX)
	chmod 755 "$d"
	[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$d"
	echo "$d" >> "$_DIRS"
	echo "$d"
}
