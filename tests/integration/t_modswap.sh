#!/bin/bash
# SPDX-License-Identifier: MIT
# t_modswap.sh -- a module file written in place (cp over it: the same
# inode, new bytes) while the tool that loaded it runs: the tool runs the
# private copy it loaded and ends as it would have, with its DONE line
# and the command's exit code, for `run` (nsplace.so) and the bare wrap
# (landlock.so); the next start reads the new bytes.  The old loader
# mapped the file itself: the tool died of SIGSEGV or SIGBUS with no
# DONE line.  The files written over are in a private install-shaped copy
# of the build (bin/ and the module dir beside it), never the build's own.
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-modswap.XXXXXX")
chmod 755 "$STAGE"
echo "$STAGE" >> "$_DIRS"
(umask 022 && mkdir -p "$STAGE/bin" "$STAGE/bin/$MODREL") # no dir others write
SNS="$STAGE/bin/nova-sandbox"
SMODS=$(cd "$STAGE/bin/$MODREL" && pwd)
cp -- "$NS" "$SNS"
cp -- "$MODS"/*.so "$SMODS/"
chmod 0755 "$SNS" "$SMODS"/*.so
MARK="29.$$"

# overwrite SRC DST: SRC's bytes written over DST in place (cp keeps the
# inode: checked, or the case would prove nothing)
overwrite() {
	local ino
	ino=$(stat -c %i "$2")
	cp -- "$1" "$2" || { _fail "cp $1 $2 failed"; return 1; }
	expect_eq "$(stat -c %i "$2")" "$ino" "inode of $2 after cp (in place)"
	cmp -s -- "$1" "$2" || _fail "$2 does not hold the bytes written over it"
}

# restore NAME: the staged module back from the build, by rename
restore() {
	cp -- "$MODS/$1" "$SMODS/.$1.new" && chmod 0755 "$SMODS/.$1.new" &&
		mv -- "$SMODS/.$1.new" "$SMODS/$1"
}

# Start CMD... in the background as the test user (stderr to $ERR); $BG
# is its pid.
bg_as() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
			"$@" >"$OUT" 2>"$ERR" </dev/null &
	else
		"$@" >"$OUT" 2>"$ERR" </dev/null &
	fi
	BG=$!
}

# The command started (the tool's OK line), within 10 s.
wait_ok() {
	for _ in $(seq 200); do
		grep -q '^SANDBOX OK ' "$ERR" && return 0
		sleep 0.05
	done
	_fail "no SANDBOX OK line"
	return 1
}

t "the staged install is the one loaded" <<'EOF'
run "$SNS" modules
expect_rc 0
expect_out "^MODULES OK platform=linux config=defaults moduledir=$SMODS wall=landlock\$"
expect_out "^MODULE role=place file=nsplace.so from=default path=$SMODS/nsplace.so .*available=yes\$"
EOF

t "run: nsplace.so written in place mid-run, the run ends with DONE and the command's exit" <<'EOF'
at_end 'restore nsplace.so'
bg_as env HOME="$THOME" PATH=/usr/bin:/bin "$SNS" run --name "ms-$$" \
	--size 8m -- /bin/sh -c "sleep 2 # $MARK
exit 3"
wait_ok || { kill "$BG"; wait "$BG"; exit 0; }
overwrite "$SMODS/landlock.so" "$SMODS/nsplace.so"
wait "$BG"
RC=$?
expect_rc 3
expect_err "^SANDBOX DONE name=ms-$$ exit=3 wall=[0-9]+\.[0-9]{3} freed=[0-9]+\$"
expect_no_err '^SANDBOX (REFUSED|LEAK)'
expect_eq "$(pgrep -f "sleep 2 # $MARK" | wc -l)" 0 "marked processes left"
# the file really changed: a new run reads the new bytes and refuses them
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$SNS" run --name "ms2-$$" \
	--size 8m -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_sandbox: place module nsplace.so refused \(wrong_role\): module landlock serves wall, not place'
EOF

t "bare wrap: landlock.so written in place mid-command, the wrap ends with DONE and the command's exit" <<'EOF'
at_end 'restore landlock.so'
W=$(newdir)
bg_as env HOME="$W" "$SNS" --write "$W" -- /bin/sh -c "sleep 2 # $MARK
exit 3"
wait_ok || { kill "$BG"; wait "$BG"; exit 0; }
overwrite "$SMODS/nsplace.so" "$SMODS/landlock.so"
wait "$BG"
RC=$?
expect_rc 3
expect_err '^SANDBOX DONE exit=3 cmd=[^ ]+$'
expect_no_err '^SANDBOX (REFUSED|LEAK)'
# the file really changed: a new wrap reads the new bytes and refuses them
run_as env HOME="$W" "$SNS" --write "$W" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_sandbox: wall module [^ ]*/landlock.so refused \(wrong_role\): module nsplace serves place, not wall'
EOF
