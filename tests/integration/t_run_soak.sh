#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_soak.sh -- a SIGKILL of the tool leaves nothing (issue 4): 20 runs,
# each SIGKILLed at a random moment while background children hold files
# open in the place, leave no mount (in any process's mount table), no
# process and no directory -- with reap run between them (and without);
# a live run in parallel is never touched by reap and ends normally.
source "$(dirname "$0")/lib.sh"

MARK="53.$$"
LMARK="59.$$"

as_user_bg() {
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
		env PATH=/usr/bin:/bin "$@" </dev/null >/dev/null 2>&1 &
	BG=$!
}

if [ "$(id -u)" = 0 ]; then
	start() { as_user_bg "$@"; }
else
	start() { env PATH=/usr/bin:/bin "$@" </dev/null >/dev/null 2>&1 & BG=$!; }
fi

marked() { pgrep -f "^sleep $1\$" | wc -l; }
mounts() { grep -l -- '- tmpfs nova-sandbox ' /proc/[0-9]*/mountinfo 2>/dev/null | wc -l; }

t "soak: 20 SIGKILLed runs (reap between half of them) leave nothing; a live run is never touched" <<'EOF'
LERR=$(mktemp /tmp/nova-it-live.XXXXXX)
chmod 666 "$LERR"
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
		env PATH=/usr/bin:/bin "$NS" run --name "live-$$" --size 8m -- \
		/bin/sh -c "exec 3>held; sleep $LMARK & sleep $LMARK" </dev/null >/dev/null 2>"$LERR" &
else
	env PATH=/usr/bin:/bin "$NS" run --name "live-$$" --size 8m -- \
		/bin/sh -c "exec 3>held; sleep $LMARK & sleep $LMARK" </dev/null >/dev/null 2>"$LERR" &
fi
LIVE=$!
for _ in $(seq 100); do grep -q '^SANDBOX OK' "$LERR" && break; sleep 0.05; done
grep -q '^SANDBOX OK' "$LERR" || _fail "the live run did not start"
for i in $(seq 20); do
	start "$NS" run --name "soak$i-$$" --size 8m -- /bin/sh -c \
		"sleep $MARK > f & sleep $MARK < f & exec 3>g; while :; do echo x >> g; sleep 0.01; done"
	# a random moment: anywhere from before the place exists to mid-run
	sleep "0.$(( RANDOM % 300 ))"
	kill -KILL "$BG"
	wait "$BG" 2>/dev/null
	if [ $((i % 2)) = 0 ]; then
		run "$NS" reap
		[ "$RC" = 0 ] || _fail "reap after run $i: exit $RC"
		grep -q '^SANDBOX REAP OK volumes=0$' "$ERR" || _fail "reap after run $i said: $(cat "$ERR")"
	fi
done
# nothing of the killed runs is left (the kernel tears down asynchronously)
for _ in $(seq 100); do
	[ "$(marked "$MARK")" = 0 ] && break
	sleep 0.05
done
expect_eq "$(marked "$MARK")" 0 "processes of the killed runs"
for i in $(seq 20); do
	[ ! -e "/tmp/nova-soak$i-$$" ] || _fail "/tmp/nova-soak$i-$$ exists"
done
! findmnt -rn | grep -q nova-sandbox || _fail "findmnt shows a nova-sandbox mount"
# the live run is untouched: its processes and its place (one mount table
# per process of the live run: keeper, init, sh, sleep, sleep)
expect_eq "$(marked "$LMARK")" 2 "the live run's sleeps"
[ "$(mounts)" -ge 1 ] || _fail "the live run's place is gone"
kill -INT "$LIVE"
wait "$LIVE"
RC=$?
expect_rc 130
grep -q "^SANDBOX DONE name=live-$$ exit=130 " "$LERR" || _fail "live DONE: $(cat "$LERR")"
for _ in $(seq 100); do
	[ "$(mounts)" = 0 ] && [ "$(marked "$LMARK")" = 0 ] && break
	sleep 0.05
done
expect_eq "$(mounts)" 0 "processes that still see a nova-sandbox tmpfs"
expect_eq "$(marked "$LMARK")" 0 "the live run's sleeps after it ended"
rm -f "$LERR"
EOF

t "soak as root: SIGKILLed runs (command as uid 65534, no user namespace) leave nothing" <<'EOF'
if [ "$(id -u)" != 0 ]; then
	skip "root soak needs root (run the suite as root)"
else
	RMARK="57.$$"
	for i in $(seq 6); do
		env PATH=/usr/bin:/bin "$NS" run --name "rsoak$i-$$" --size 8m -- \
			/bin/sh -c "sleep $RMARK & sleep $RMARK" </dev/null >/dev/null 2>&1 &
		BG=$!
		# mid-run: the command's sleeps exist
		for _ in $(seq 100); do [ "$(marked "$RMARK")" -ge 2 ] && break; sleep 0.02; done
		[ "$(marked "$RMARK")" -ge 2 ] || _fail "root run $i did not start"
		kill -KILL "$BG"
		wait "$BG" 2>/dev/null
		for _ in $(seq 100); do [ "$(marked "$RMARK")" = 0 ] && break; sleep 0.05; done
		expect_eq "$(marked "$RMARK")" 0 "processes of root run $i after SIGKILL"
	done
	for _ in $(seq 100); do [ "$(mounts)" = 0 ] && break; sleep 0.05; done
	expect_eq "$(mounts)" 0 "processes that still see a nova-sandbox tmpfs"
fi
EOF

t "reap: --dry-run and bad flags (linux: nothing to reap)" <<'EOF'
run "$NS" reap --dry-run
expect_rc 0
expect_err '^SANDBOX REAP OK volumes=0$'
run "$NS" reap --force
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_command: unknown flag --force; the flags of reap are --dry-run; did you mean --dry-run\?'
expect_err '^run: nova-sandbox reap \[--dry-run\]$'
run "$NS" reap orphan
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_command: unexpected argument orphan'
run "$NS" reap -h
expect_rc 0
expect_out '^usage: nova-sandbox reap \[--dry-run\]$'
EOF
