# lib.sh -- shared helpers for the integration tests (sourced).
#
#   t "name"                 start a test case
#   run CMD...               run, capturing $OUT $ERR (files) and $RC
#   run_as CMD...            the same, as the unprivileged test user
#   expect_rc N              the last run exited N
#   expect_err REGEX         stderr has a line matching REGEX (grep -E)
#   expect_out REGEX         stdout has a line matching REGEX
#   expect_no_err REGEX      stderr has no line matching REGEX
#   expect_absent PATH       PATH does not exist (nothing was created)
#   expect_present PATH
#   expect_eq A B MSG
#   skip "reason"            this case cannot run here (must be expected)
#   newdir                   a fresh directory owned by the test user
# Every case ends at the next `t` or at the end of the file; a case with a
# failed expectation is reported FAIL with the failing check.
set -u
NS="$NOVA_B/bin/nova-sandbox"
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

_end_case() {
	[ -n "$_case" ] || return 0
	if [ "$_case_failed" -eq 0 ]; then
		echo "ok   $_case"
		echo "$_case" >> "$NOVA_RESULTS/pass"
	else
		echo "FAIL $_case"
		echo "$_case" >> "$NOVA_RESULTS/fail"
	fi
	_case=""
}

_cleanup() {
	_end_case
	while IFS= read -r d; do rm -rf -- "$d"; done < "$_DIRS"
	rm -f "$OUT" "$ERR" "$_DIRS"
}
trap _cleanup EXIT

t() {
	_end_case
	_case="$(basename "$0" .sh): $1"
	_case_failed=0
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
	echo "skip $_case: $1"
	echo "$(basename "$0" .sh): $1" >> "$NOVA_RESULTS/skip"
	_case=""
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
