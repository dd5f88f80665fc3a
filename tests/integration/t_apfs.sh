#!/bin/bash
# SPDX-License-Identifier: MIT
# t_apfs.sh -- the macOS place (apfsvol.so) through the host's run and reap
# verbs on Linux, against fake diskutil/lsof/ps (modules/apfsvol/tests/
# fakes/) that record every call.  The command is walled by landlock.so as
# the test user; the fakes keep their volumes under a test-user directory.
source "$(dirname "$0")/lib.sh"

SRC=$(cd "$(dirname "$0")/../../modules/apfsvol/tests/fakes" && pwd)
S=$(mktemp -d "$NOVA_B/t_apfs.XXXXXX")  # root-owned: config + tools
chmod 755 "$S"
echo "$S" >> "$_DIRS"
mkdir -m 755 "$S/bin"
install -m 0755 "$SRC/diskutil" "$SRC/lsof" "$SRC/ps" "$S/bin/"
W=$(newdir)                             # the test user's: volumes, log
cat > "$S/c.conf" <<CONF
[linux]
wall = landlock.so
place = $NOVA_B/tests/modules/apfsvol.so

[apfsvol]
diskutil = $S/bin/diskutil
lsof = $S/bin/lsof
ps = $S/bin/ps
volumes = $W/vol
lockfile = $W/create.lock
CONF
chmod 644 "$S/c.conf"
export NOVA_SANDBOX_CONFIG="$S/c.conf"
export FAKE_APFS_VOLUMES="$W/vol" FAKE_APFS_STATE="$W/state"
export FAKE_APFS_LOG="$W/log"

fresh() {
	rm -rf "$W/vol" "$W/state" "$W/log"
	mkdir -m 755 "$W/vol" "$W/state"
	[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$W/vol" "$W/state"
	unset FAKE_APFS_FAIL FAKE_APFS_BUSY_PID
}
# the calls so far (ps's pid shown as N), then forget them
calls() {
	sed 's/-p [0-9]*$/-p N/' "$W/log" 2>/dev/null
	rm -f "$W/log"
}
vols_left() {
	ls -A "$W/vol" | wc -l
}
# a volume made as a dead run would leave it, with marker text $2
leftover() {
	"$S/bin/diskutil" apfs addVolume disk3 APFS "nova-$1" -quota 1B >/dev/null
	[ -n "$2" ] && printf '%b' "$2" > "$W/vol/nova-$1/.nova-sandbox-owner"
	rm -f "$W/log"
}
stop_sleepers() {
	for p in "$@"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
}

CREATE="diskutil info -plist /
diskutil info -plist nova-%s
diskutil apfs addVolume disk3 APFS nova-%s -quota 8388608B
diskutil info -plist disk3s7
ps -o lstart= -p N"
DELETE="diskutil info -plist disk3s7
lsof -w -t +f -- \$V/nova-%s
diskutil unmount force disk3s7
diskutil apfs deleteVolume disk3s7"

START='Thu Jan  1 10:00:00 2026'  # what the fake ps says of a live pid

t "run: success, walled in work/, exact calls, volume gone" <<'EOF'
fresh
run_as "$NS" run --name ok1 --size 8m -- /bin/sh -c \
	'echo hi > f && [ "$(cat f)" = hi ] && [ "$PWD" = '"$W"'/vol/nova-ok1/work ] && ! touch '"$W"'/escape'
expect_rc 0
expect_err '^SANDBOX STEP name=create state=start$'
expect_err '^SANDBOX STEP name=create state=done ms=[0-9]+$'
expect_err '^SANDBOX OK '
expect_err '^SANDBOX STEP name=delete state=done ms=[0-9]+$'
expect_err '^SANDBOX DONE name=ok1 exit=0 wall=[0-9.]+ freed=[0-9]+$'
expect_no_err 'LEAK|REFUSED'
expect_eq "$(calls)" "$(printf 'diskutil info -plist nova-ok1\n'"$CREATE"'\ndiskutil info -plist disk3s7\n'"$DELETE" ok1 ok1 ok1)" "call sequence"
expect_absent "$W/vol/nova-ok1"
expect_absent "$W/escape"
EOF

t "run: the command's exit status passes through" <<'EOF'
fresh
run_as "$NS" run --name ok2 --size 8m -- /bin/sh -c 'exit 7'
expect_rc 7
expect_err '^SANDBOX DONE name=ok2 exit=7 '
expect_eq "$(vols_left)" 0 "volumes left"
EOF

t "run: name taken is volume_exists, nothing made or deleted" <<'EOF'
fresh
leftover taken 'pid=1\nstart=-\n'
run_as "$NS" run --name taken --size 8m -- /bin/true
expect_rc 125
expect_err 'REFUSED reason=volume_exists'
expect_no_err '^SANDBOX OK'
expect_eq "$(calls)" "" "no tool beyond look's stat"
expect_present "$W/vol/nova-taken"
EOF

t "run: container not found is refused, nothing made" <<'EOF'
fresh
export FAKE_APFS_FAIL=container
run_as "$NS" run --name nc --size 8m -- /bin/true
expect_rc 125
expect_err 'REFUSED reason=volume_failed: .*Could not find disk: /'
expect_eq "$(calls)" "$(printf 'diskutil info -plist nova-nc\ndiskutil info -plist /')" "calls"
expect_eq "$(vols_left)" 0 "volumes left"
EOF

t "run: create fails, nothing made" <<'EOF'
fresh
export FAKE_APFS_FAIL=create
run_as "$NS" run --name cf --size 8m -- /bin/true
expect_rc 125
expect_err 'REFUSED reason=volume_failed: .*-69625'
expect_eq "$(vols_left)" 0 "volumes left"
EOF

t "run: delete fails is a LEAK with the one remedy, exit 3" <<'EOF'
fresh
export FAKE_APFS_FAIL="delete"
run_as "$NS" run --name lk --size 8m -- /bin/true
expect_rc 3
expect_err '^SANDBOX DONE name=lk exit=0 .* freed=0$'
expect_err '^SANDBOX LEAK name=lk volume=disk3s7 remedy="diskutil apfs deleteVolume disk3s7"$'
expect_present "$W/vol/nova-lk"
EOF

# a sequel: it reaps the volume the case above leaked
t "reap: the leaked run's orphan is deleted" <<'EOF'
unset FAKE_APFS_FAIL
rm -f "$W/log"
run "$NS" reap
expect_rc 0
expect_err '^SANDBOX REAP volume=nova-lk procs=0 deleted=yes$'
expect_err '^SANDBOX REAP OK volumes=1$'
expect_absent "$W/vol/nova-lk"
EOF

t "reap: orphan, live, recycled pid, garbage marker, busy holder" <<'EOF'
fresh
sleep 60 & live=$!
sleep 60 & busy=$!
sh -c 'exit 0' & dead=$!; wait $dead
leftover orphan "pid=$dead\nstart=$START\n"
leftover live "pid=$live\nstart=$START\n"
leftover recycled "pid=$live\nstart=Wed Dec 31 09:00:00 2025\n"
leftover garbage 'pid=12x\nstart=\n'
leftover busy "pid=$dead\nstart=$START\n"
export FAKE_APFS_BUSY_PID=$busy
run "$NS" reap
expect_rc 0
expect_err '^SANDBOX REAP volume=nova-orphan procs=0 deleted=yes$'
expect_err '^SANDBOX REAP volume=nova-live procs=0 deleted=no$'
expect_err '^SANDBOX REAP volume=nova-recycled procs=0 deleted=yes$'
expect_err '^SANDBOX REAP volume=nova-garbage procs=0 deleted=yes$'
expect_err '^SANDBOX REAP volume=nova-busy procs=1 deleted=yes$'
expect_present "$W/vol/nova-live"
expect_eq "$(ls -A "$W/vol")" "nova-live" "what reap left"
kill -0 "$live" || _fail "reap touched the live owner"
wait "$busy" 2>/dev/null
kill -0 "$busy" 2>/dev/null && _fail "the holder survived"
stop_sleepers "$live" "$busy"
EOF

t "reap: a holder that is the reap itself is dropped, never signalled" <<'EOF'
fresh
sh -c 'exit 0' & dead=$!; wait $dead
leftover self "pid=$dead\nstart=$START\n"
export FAKE_APFS_BUSY_PID=caller
run "$NS" reap
expect_rc 0
expect_err '^SANDBOX REAP volume=nova-self procs=0 deleted=yes$'
expect_err '^SANDBOX REAP OK volumes=1$'
expect_absent "$W/vol/nova-self"
unset FAKE_APFS_BUSY_PID
EOF

t "reap --dry-run: an orphan remains, exit 3, nothing deleted" <<'EOF'
fresh
leftover dry 'garbage'
run "$NS" reap --dry-run
expect_rc 3
expect_err '^SANDBOX REAP volume=nova-dry procs=0 deleted=no$'
expect_present "$W/vol/nova-dry"
expect_no_err 'deleteVolume'
[ -z "$(grep -E 'deleteVolume|unmount' "$W/log" 2>/dev/null)" ] || _fail "dry run deleted"
EOF

t "reap: a failed delete is a LEAK, exit 3" <<'EOF'
fresh
leftover stuck 'pid=1x\n'
export FAKE_APFS_FAIL=delete
run "$NS" reap
expect_rc 3
expect_err '^SANDBOX REAP volume=nova-stuck procs=0 deleted=no$'
expect_err '^SANDBOX LEAK name=nova-stuck volume=disk3s7 remedy="diskutil apfs deleteVolume disk3s7"$'
unset FAKE_APFS_FAIL
EOF

t "run: a hand-off that fails writing into --out with nowhere else to go keeps the volume (LEAK, reap), the work in it" <<'EOF'
[ "$(id -u)" = 0 ] || skip "needs root to mount a small filesystem"
fresh
D=$(newdir)
W1=$(newdir)
W2=$(mktemp -d /var/tmp/nova-it-w.XXXXXX)
at_end "rm -rf '$W2'"
chown "$TUID:$TGID" "$W2"
mount -t tmpfs -o size=1m,mode=0777 none "$D" || _fail "mount"
at_end "umount '$D'"
( for _ in $(seq 100); do grep -q '^SANDBOX OK' "$ERR" 2>/dev/null && break; sleep 0.1; done
  head -c 2m /dev/zero > "$D/fill" 2>/dev/null; : ) &
FILL=$!
# HOME is no directory, /tmp and /var/tmp are above a --write: nowhere else
run_as env HOME=/nonexistent "$NS" run --name kp --size 8m --out "$D" \
	--out-max-bytes 512k --write "$W1" --write "$W2" -- /bin/sh -c \
	'sleep 2; head -c 300000 /dev/zero > RESULT.md'
wait "$FILL"
expect_rc 3
expect_err "^SANDBOX REFUSED reason=out_failed: writing RESULT.md: No space left on device; no other directory \(HOME, /var/tmp, /tmp\) could take the artifacts either: the place is kept with them \(the LEAK line below\); run: nova-sandbox help run\$"
expect_err '^SANDBOX DONE name=kp exit=125 .* freed=0$'
expect_err '^SANDBOX LEAK name=kp volume=disk3s7 remedy="nova-sandbox reap"$'
expect_err "^SANDBOX NOTE the place was kept: it holds the only copy of this run's work, in $W/vol/nova-kp/work; "
expect_no_err '^SANDBOX STEP name=delete'
expect_eq "$(stat -c %s "$W/vol/nova-kp/work/RESULT.md")" 300000 "the work in the kept volume"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "fill " "no stage left in --out"
run "$NS" reap
expect_rc 0
expect_err '^SANDBOX REAP volume=nova-kp procs=0 deleted=yes$'
expect_absent "$W/vol/nova-kp"
EOF
