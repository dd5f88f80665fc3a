#!/bin/bash
# SPDX-License-Identifier: MIT
# t_names.sh -- a run's name cannot be squatted from inside a wall.  The
# hostile command is the bare wrap's, as the test user (tests/helpers/
# ns_squat): it binds the abstract socket that named a run before, and it
# tries to take the lock that names one now.  `run --name` of that name must
# still work, the user's and root's; the lock is refused inside the wall
# (control: the same helper unwalled takes it, and then the name is truly
# held: volume_exists); a live run's name is still volume_exists.  A wall
# that may only read the run-name directory is refused too (names_reachable:
# a read lock on a leftover lock file would block the name), and a read lock
# found on a lock file is named as what it is (name_squatted), never
# volume_exists.
source "$(dirname "$0")/lib.sh"

SQ="$H/ns_squat"
if [ "$(id -u)" = 0 ]; then
	STATE_ROOT=/run/nova-sandbox
else
	STATE_ROOT=""
fi
# the test user's state directory (no /run/user/<uid> on a machine without
# logind; spec section 13)
if [ -d "/run/user/$TUID" ]; then
	STATE_USER="/run/user/$TUID/nova-sandbox"
else
	STATE_USER="$THOME/.local/state/nova-sandbox"
fi

tool() {
	run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run "$@"
}

# CMD... as the test user (as root: setpriv; as a user: yourself), in the
# background, stdout and stderr to FILE; $BG is the command's own pid
# (setpriv execs it), never a subshell's
bg_as_user() {
	local f=$1
	shift
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@" \
			>"$f" 2>&1 </dev/null &
	else
		"$@" >"$f" 2>&1 </dev/null &
	fi
	BG=$!
}

# the squatter in the bare wrap (as the test user), in the background:
# its stdout in $W/sq.out; $SQPID
squat_walled() {
	W=$(newdir)
	bg_as_user "$W/sq.out" env HOME="$W" PATH=/usr/bin:/bin "$NS" \
		--write "$W" -- "$SQ" "$@"
	SQPID=$BG
	for _ in $(seq 100); do
		grep -qE '^(held|refused)' "$W/sq.out" 2>/dev/null && return 0
		sleep 0.05
	done
	_fail "the squatter said nothing"
}

squat_stop() {
	{
		kill -KILL "$SQPID"
		pkill -KILL -f "ns_squat .*$$"
		wait "$SQPID"
	} 2>/dev/null
}

t "a walled process binds the old abstract name: run --name still works" <<'EOF'
squat_walled abstract "nova-sandbox/place/$TUID/sq-$$"
expect_eq "$(grep -E '^(held|refused)' "$W/sq.out")" "held" "the walled bind (the attack itself)"
tool --name "sq-$$" --size 8m -- /bin/true
expect_rc 0
expect_no_err 'volume_exists'
expect_err "^SANDBOX DONE name=sq-$$ exit=0 "
squat_stop
EOF

t "a walled process cannot take the user's name lock" <<'EOF'
squat_walled lock "$STATE_USER/sl-$$.lock"
expect_eq "$(grep -E '^(held|refused)' "$W/sq.out")" "refused Permission denied" "the walled lock"
squat_stop
tool --name "sl-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=sl-$$ exit=0 "
EOF

t "control: unwalled, the user's own process holds the lock: the name is truly held" <<'EOF'
bg_as_user "$OUT.sq" "$SQ" lock "$STATE_USER/sc-$$.lock"
SQPID=$BG
for _ in $(seq 100); do grep -q . "$OUT.sq" && break; sleep 0.05; done
expect_eq "$(cat "$OUT.sq")" "held" "the unwalled lock"
tool --name "sc-$$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=volume_exists: .*sc-$$"
squat_stop
rm -f "$OUT.sq"
tool --name "sc-$$" --size 8m -- /bin/true
expect_rc 0
EOF

t "a live run's name is still volume_exists; free again after it ends" <<'EOF'
bg_as_user "$ERR.live" env PATH=/usr/bin:/bin "$NS" run --name "sv-$$" --size 8m \
	-- /bin/sleep 30
LIVE=$BG
for _ in $(seq 100); do grep -q '^SANDBOX OK ' "$ERR.live" && break; sleep 0.05; done
tool --name "sv-$$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=volume_exists: .*sv-$$"
# the module's text, then the host's line with the name's form in place;
# filled with a free name it runs while the live run holds its own
expect_err "^SANDBOX REFUSED reason=volume_exists: .*; run: nova-sandbox run --name '<name>' --size 8m -- /bin/true\$"
L=$(sed -n 's/^SANDBOX REFUSED reason=volume_exists: .*; run: //p' "$ERR")
run_as env HOME="$THOME" PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "${L//<name>/sw-$$}"
expect_rc 0
kill -TERM "$LIVE"
wait "$LIVE"
rm -f "$ERR.live"
tool --name "sv-$$" --size 8m -- /bin/true
expect_rc 0
expect_absent "$STATE_USER/sv-$$.lock"
EOF

t "a SIGKILLed run leaves its unlocked lock file; reap removes it, the name works" <<'EOF'
bg_as_user "$ERR.live" env PATH=/usr/bin:/bin "$NS" run --name "sk-$$" --size 8m \
	-- /bin/sleep 30.$$
LIVE=$BG
for _ in $(seq 100); do grep -q '^SANDBOX OK ' "$ERR.live" && break; sleep 0.05; done
expect_present "$STATE_USER/sk-$$.lock"
{ kill -KILL "$LIVE"; wait "$LIVE"; } 2>/dev/null
rm -f "$ERR.live"
# the keeper and the init (forks of the tool) die with it, the command
# with them: wait until none is left
for _ in $(seq 100); do
	pgrep -f "sleep 30.$$|run --name sk-$$ " >/dev/null || break
	sleep 0.05
done
expect_present "$STATE_USER/sk-$$.lock"
run_as env PATH=/usr/bin:/bin "$NS" reap
expect_rc 0
expect_err '^SANDBOX REAP OK volumes=0$'
expect_absent "$STATE_USER/sk-$$.lock"
tool --name "sk-$$" --size 8m -- /bin/true
expect_rc 0
EOF

# the run-name directory's parent: what a --read of the home (or of
# /run/user/<uid>) grants
STATE_UP=$(dirname "$STATE_USER")
W=$(newdir)

t "a --read that reaches the run-name directory is refused before the command runs" <<'EOF'
# the directory exists (the runs above made it)
run_as env HOME="$W" PATH=/usr/bin:/bin "$NS" --write "$W" --read "$STATE_UP" \
	-- /bin/sh -c ": > $W/ran"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=names_reachable: the tool's own run-name directory $STATE_USER is within the wall's reach: the command \(uid $TUID\) may read it through the read root $STATE_UP, so a walled command could hold the names of later runs \(a read lock on a lock file a killed run left\); name a --read that does not contain $STATE_USER, or create /run/user/$TUID \(a directory of uid $TUID, mode 0700\) so that the names live there; or leave it out; run: nova-sandbox --write $W -- /bin/sh -c ': > $W/ran'\$"
expect_absent "$W/ran"
# pasted, the fixed line runs (the control)
L=$(sed -n 's/^SANDBOX REFUSED reason=names_reachable: .*; run: //p' "$ERR")
run_as env HOME="$W" PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "$L"
expect_rc 0
expect_present "$W/ran"
rm -f "$W/ran"
run_as env PATH=/usr/bin:/bin "$NS" run --name "nr-$$" --size 8m \
	--read "$STATE_UP" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=names_reachable: the tool's own run-name directory $STATE_USER "
expect_no_err '^SANDBOX OK '
EOF

t "control: the same --read of a sibling of the run-name directory runs" <<'EOF'
run_as mkdir -p "$STATE_UP/sib-$$"
run_as env HOME="$W" PATH=/usr/bin:/bin "$NS" --write "$W" \
	--read "$STATE_UP/sib-$$" -- /bin/sh -c ": > $W/ran"
expect_rc 0
expect_no_err 'names_reachable'
expect_present "$W/ran"
run_as rmdir "$STATE_UP/sib-$$"
EOF

t "a read lock on a leftover lock file is named as such, not volume_exists" <<'EOF'
# a SIGKILLed run leaves an unlocked lock file; a process that may only
# read it (the uid's, here unwalled: the control for the refusal above)
# takes a read lock, which no run takes
run_as sh -c "umask 077; : > $STATE_USER/rd-$$.lock"
bg_as_user "$OUT.sq" "$SQ" rlock "$STATE_USER/rd-$$.lock"
SQPID=$BG
for _ in $(seq 100); do grep -q . "$OUT.sq" && break; sleep 0.05; done
expect_eq "$(cat "$OUT.sq")" "held" "the read lock"
tool --name "rd-$$" --size 8m -- /bin/true
expect_rc 125
expect_no_err 'volume_exists'
expect_err "^SANDBOX REFUSED reason=name_squatted: nsplace: the name rd-$$ is not held by a run: its lock file $STATE_USER/rd-$$.lock has a read lock on it, which no run takes \(a run holds its name with a write lock\); end the process that holds it \(fuser -v $STATE_USER/rd-$$.lock\) or remove the file \(rm $STATE_USER/rd-$$.lock\), then run again"
squat_stop
rm -f "$OUT.sq"
tool --name "rd-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=rd-$$ exit=0 "
EOF

if [ "$(id -u)" != 0 ]; then
	t "root's names: a walled process of another user blocks none" <<'EOF'
	skip "root's names need root"
EOF
	exit 0
fi

t "root's names: a walled process of another user blocks none" <<'EOF'
squat_walled abstract "nova-sandbox/place/0/sr-$$"
expect_eq "$(grep -E '^(held|refused)' "$W/sq.out")" "held" "the walled bind of root's old name"
run env PATH=/usr/bin:/bin "$NS" run --name "sr-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=sr-$$ exit=0 "
squat_stop
squat_walled lock "$STATE_ROOT/sr-$$.lock"
expect_eq "$(grep -E '^(held|refused)' "$W/sq.out")" "refused Permission denied" "a lock in root's directory"
squat_stop
expect_eq "$(stat -c '%U %a' "$STATE_ROOT")" "root 700" "root's run-name directory"
EOF
