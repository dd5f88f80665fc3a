#!/bin/bash
# SPDX-License-Identifier: MIT
# t_denials.sh -- ABI 1.2, 1.3 and 1.4 through the binary with fixture walls
# (they confine NOTHING; the Linux wall's own denials are tests/denials/):
# a 1.1 module, a 1.2 module and a "needs 1.0" module load and run, the DENIED lines of
# denier.so (dedupe, remedies, nearest directory, the cap and its NOTE,
# escaping, before DONE), the rerun NOTE, explain_unavailable, what
# finish() is told, a wall that waits and terminates itself (wrap and
# run), and a wall that keeps the caps itself (NS_WALL_CAPS_NATIVE).
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-denials.XXXXXX")
chmod 755 "$STAGE"
trap 'rm -rf "$STAGE"; _cleanup' EXIT
for m in denier waiter capper wall_1_1 wall_1_2 wall_1_3 wall_1_4 wall_req0 newer_minor place_dir; do
	cp "$FIX/$m.so" "$STAGE/" && chmod 755 "$STAGE/$m.so"
done
# the test user writes the fixtures' logs here
LOGS=$(newdir)
# place_dir.so's places (run)
PD=$(newdir)

# conf NAME WALL [EXTRA]: a config naming the staged WALL, path on stdout
conf() {
	printf '[nova-sandbox]\nmoduledir = %s\n[linux]\nwall = %s\n%s' \
		"$STAGE" "$2" "${3:-}" > "$STAGE/$1"
	chmod 644 "$STAGE/$1"
	echo "$STAGE/$1"
}

# denials FILE LINES...: the denier's script (readable by the test user)
script() {
	local f=$1
	shift
	printf '%s\n' "$@" > "$f"
	chmod 644 "$f"
}

# wrap CONF DIR [FLAGS...] -- CMD...: the bare wrap as the test user
wrap() {
	local c=$1 d=$2
	shift 2
	mkdir -p "$d/home"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$d/home"
	run_as env NOVA_SANDBOX_CONFIG="$c" HOME="$d/home" "$NS" --write "$d" "$@"
}

# line number of the first stderr line matching REGEX (0: none)
lineno() {
	local n
	n=$(grep -nE -- "$1" "$ERR" | head -1 | cut -d: -f1)
	echo "${n:-0}"
}

t "a module built with the frozen 1.1 header loads and runs" <<'EOF'
C=$(conf c11.conf wall_1_1.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 0
expect_out "^MODULE role=wall file=wall_1_1.so from=[^ ]+ .* name=wall_1_1 version=1.1.0 abi=1\.1 needs=1\.1 roles=wall shape=restrict-self available=yes\$"
D=$(newdir)
wrap "$C" "$D" -- /bin/sh -c "echo x > '$D/ran'; exit 3"
expect_rc 3
expect_present "$D/ran"
expect_err '^SANDBOX OK backend=wall_1_1 '
expect_err '^SANDBOX DONE exit=3 cmd=dash$'
# no finish(), no NS_WALL_EXPLAIN: no rerun NOTE, no DENIED
expect_no_err 'rerun with --explain|DENIED'
EOF

t "a module built with the frozen 1.2 header loads and runs" <<'EOF'
C=$(conf c12.conf wall_1_2.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 0
expect_out "^MODULE role=wall file=wall_1_2.so from=[^ ]+ .* name=wall_1_2 version=1.2.0 abi=1\.2 needs=1\.2 roles=wall shape=restrict-self available=yes\$"
D=$(newdir)
wrap "$C" "$D" --acl caller -- /bin/sh -c "echo x > '$D/ran'; exit 4"
expect_rc 4
expect_present "$D/ran"
expect_err '^SANDBOX OK backend=wall_1_2 '
expect_err '^SANDBOX NOTE --acl caller is accepted and ignored on linux'
expect_err '^SANDBOX DONE exit=4 cmd=dash$'
EOF

t "a module built with the frozen 1.3 header loads and runs" <<'EOF'
C=$(conf c13.conf wall_1_3.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 0
expect_out "^MODULE role=wall file=wall_1_3.so from=[^ ]+ .* name=wall_1_3 version=1.3.0 abi=1\.3 needs=1\.3 roles=wall shape=restrict-self available=yes\$"
D=$(newdir)
wrap "$C" "$D" -- /bin/sh -c "echo x > '$D/ran'; exit 5"
expect_rc 5
expect_present "$D/ran"
expect_err '^SANDBOX OK backend=wall_1_3 '
expect_err '^SANDBOX DONE exit=5 cmd=dash$'
EOF

t "a 1.3 wall (no NS_WALL_PROTECT) and a protected .git: protect_unsupported, --unprotect in the line; lifted, it runs" <<'EOF'
C=$(conf c13.conf wall_1_3.so)
D=$(newdir)
run_as git init -q "$D"
wrap "$C" "$D" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=protect_unsupported: the wall wall_1_3 cannot keep $D/\\.git read-only inside a --write .*; run: nova-sandbox --unprotect $D/\\.git --write $D -- /bin/true\$"
expect_no_err '^SANDBOX OK'
wrap "$C" "$D" --unprotect "$D/.git" -- /bin/true
expect_rc 0
expect_err '^SANDBOX OK backend=wall_1_3 .* protected=- '
EOF

t "a module built with the frozen 1.4 header loads and runs" <<'EOF'
C=$(conf c14.conf wall_1_4.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 0
expect_out "^MODULE role=wall file=wall_1_4.so from=[^ ]+ .* name=wall_1_4 version=1.4.0 abi=1\\.4 needs=1\\.4 roles=wall shape=restrict-self available=yes\$"
D=$(newdir)
wrap "$C" "$D" -- /bin/sh -c "echo x > '$D/ran'; exit 6"
expect_rc 6
expect_present "$D/ran"
expect_err '^SANDBOX OK backend=wall_1_4 '
expect_err '^SANDBOX DONE exit=6 cmd=dash$'
EOF

t "a 1.5 module that needs 1.0 loads (abi=1.5 needs=1.0) and runs" <<'EOF'
C=$(conf r0.conf wall_req0.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules --json
expect_rc 0
expect_out '"name":"wall_req0","version":"1.5.0","abi":"1.5","needs":"1.0"'
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_out "^MODULE role=wall file=wall_req0.so from=[^ ]+ .* abi=1\.5 needs=1\.0 roles=wall "
D=$(newdir)
wrap "$C" "$D" -- /bin/sh -c "echo x > '$D/ran'"
expect_rc 0
expect_present "$D/ran"
expect_err '^SANDBOX DONE exit=0 cmd=dash$'
EOF

t "a module that needs a newer minor is still refused" <<'EOF'
C=$(conf nm.conf newer_minor.so)
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 1
expect_out '^MODULE role=wall file=newer_minor.so from=[^ ]+ available=no refused=abi_minor why=module needs ABI 1\.6; this host speaks ABI 1\.5 '
EOF

t "--explain names the denials: dedupe, each op's remedy, nearest dir, before DONE" <<'EOF'
D=$(newdir)
mkdir -p "$D/data/sub" "$D/sp ace" "$D/w"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/w"
S="$STAGE/d1.txt"
script "$S" "read 2 $D/data/sub/secret" "write 1 $D/data/new/deeper/f" \
	"read 5 $D/data/sub/secret" "exec 1 $D/data/sub" \
	"create 1 $D/nope/x" "delete 1 $D/data/old" "rename 1 $D/data/sub/y" \
	"connect 3 10.0.0.1:443" "bind 1 0.0.0.0:80" "other 1 $D/data" \
	"read 1 $D/sp ace/f"
C=$(conf d1.conf denier.so "[denier]
denials = $S
finish_log = $LOGS/f1.log
")
wrap "$C" "$D/w" --explain -- /bin/sh -c 'exit 2'
expect_rc 2
expect_err "^SANDBOX DENIED path=$D/data/sub/secret op=read remedy=\"--read $D/data/sub\"\$"
expect_eq "$(grep -c "path=$D/data/sub/secret op=read" "$ERR")" 1 "one line for a repeated (op, path)"
expect_err "^SANDBOX DENIED path=$D/data/new/deeper/f op=write remedy=\"--write $D/data\"\$"
expect_err "^SANDBOX DENIED path=$D/data/sub op=exec remedy=\"--read $D/data/sub\"\$"
# $D holds the wrap's HOME ($D/home): said
expect_err "^SANDBOX DENIED path=$D/nope/x op=create remedy=\"--write $D\" warn=secrets,home\$"
expect_err "^SANDBOX DENIED path=$D/data/old op=delete remedy=\"--write $D/data\"\$"
expect_err "^SANDBOX DENIED path=$D/data/sub/y op=rename remedy=\"--write $D/data/sub\"\$"
# no flag grants a connect without --net-deny, a bind, an "other": counted
expect_no_err 'remedy="-"'
expect_err '^SANDBOX NOTE 3 denied paths no flag can grant, not listed \(a kernel file, a device, a socket that is not IP\): 10\.0\.0\.1:443 connect, 0\.0\.0\.0:80 bind, '"$D"'/data other$'
expect_err "^SANDBOX DENIED path=$D/sp\\\\x20ace/f op=read remedy=\"--read $D/sp\\\\x20ace\"\$"
expect_absent "$D/nope"
expect_absent "$D/data/new"
expect_eq "$(grep -c '^SANDBOX DENIED ' "$ERR")" 7 "distinct denials a flag can grant"
expect_no_err 'more denied paths|rerun with --explain'
# each directory's together: sub/secret, then sub/y (rename)
expect_eq "$(grep '^SANDBOX DENIED ' "$ERR" | sed -n 2p | grep -c 'sub/y op=rename')" 1 "grouped"
# first seen first, all before DONE, DONE last
expect_eq "$(grep '^SANDBOX DENIED ' "$ERR" | head -1 | grep -c 'sub/secret')" 1 "first line"
expect_eq "$(grep '^SANDBOX DENIED ' "$ERR" | tail -1 | grep -c 'sp\\x20ace')" 1 "last line"
last=$(grep -n '^SANDBOX DENIED ' "$ERR" | tail -1 | cut -d: -f1)
done_at=$(lineno '^SANDBOX DONE exit=2 ')
[ "$last" -lt "$done_at" ] || _fail "DENIED after DONE ($last >= $done_at)"
expect_eq "$(tail -1 "$ERR" | cut -c1-12)" "SANDBOX DONE" "DONE is last"
# what finish() was told
expect_eq "$(grep -c '^finish pid=[0-9]* how=1 code=2 killed=0 span=ok explain=1$' "$LOGS/f1.log")" 1 "finish log"
EOF

t "every distinct denial is listed, not cut at ten, each directory's together" <<'EOF'
D=$(newdir)
mkdir -p "$D/cap/a" "$D/cap/b"
S="$STAGE/d2.txt"
lines=()
for i in $(seq -w 1 14); do lines+=("read 1 $D/cap/a/p$i" "read 1 $D/cap/b/q$i"); done
lines+=("read 4 $D/cap/a/p01")
script "$S" "${lines[@]}"
C=$(conf d2.conf denier.so "[denier]
denials = $S
")
wrap "$C" "$D" --explain -- /bin/true
expect_rc 0
expect_eq "$(grep -c '^SANDBOX DENIED ' "$ERR")" 28 "lines"
expect_err "^SANDBOX DENIED path=$D/cap/a/p14 op=read remedy=\"--read $D/cap/a\"\$"
expect_no_err 'more denied paths|no flag can grant'
# a/ first, all fourteen, then b/
expect_eq "$(grep '^SANDBOX DENIED ' "$ERR" | head -14 | grep -c '/cap/a/p')" 14 "a's together"
expect_eq "$(grep '^SANDBOX DENIED ' "$ERR" | tail -14 | grep -c '/cap/b/q')" 14 "b's together"
EOF

t "--explain: a remedy that reaches a secret store, the home or a --read source says so (warn=); what no flag grants is counted in one NOTE" <<'EOF'
D=$(newdir)
mkdir -p "$D/home/.ssh" "$D/src" "$D/w"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D/home" "$D/w"
S="$STAGE/d6.txt"
script "$S" "read 1 $D/home/.ssh/id_ed25519" "read 1 $D/home/notes" \
	"create 1 $D/src/build" "read 1 $D/src/x" "read 1 /sys/fs/cgroup" \
	"connect 2 AF_NETLINK" "connect 1 AF_INET"
C=$(conf d6.conf denier.so "[denier]
denials = $S
")
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$D/home" "$NS" --write "$D/w" \
	--write "$D/home" --read "$D/src" --net-deny --explain -- /bin/true
expect_rc 0
expect_err "^SANDBOX DENIED path=$D/home/\.ssh/id_ed25519 op=read remedy=\"--read $D/home/\.ssh\" warn=secrets\$"
expect_err "^SANDBOX DENIED path=$D/home/notes op=read remedy=\"--read $D/home\" warn=secrets,home\$"
expect_err "^SANDBOX DENIED path=$D/src/build op=create remedy=\"--write $D/src\" warn=read-source\$"
# control: the same directory read is no warning
expect_err "^SANDBOX DENIED path=$D/src/x op=read remedy=\"--read $D/src\"\$"
expect_err '^SANDBOX DENIED path=AF_INET op=connect remedy="without --net-deny"$'
expect_eq "$(grep -c '^SANDBOX DENIED ' "$ERR")" 5 "lines"
expect_err '^SANDBOX NOTE 2 denied paths no flag can grant, not listed \(a kernel file, a device, a socket that is not IP\): /sys/fs/cgroup read, AF_NETLINK connect$'
expect_no_err 'remedy="-"'
EOF

t "a path with a tab, = and spaces is one field-escaped line" <<'EOF'
D=$(newdir)
S="$STAGE/d3.txt"
printf 'write 1 %s/a\tb=c SANDBOX DONE exit=0\n' "$D" > "$S"
chmod 644 "$S"
C=$(conf d3.conf denier.so "[denier]
denials = $S
")
wrap "$C" "$D" --explain -- /bin/true
expect_rc 0
expect_err '^SANDBOX DENIED path='"$D"'/a\\x09b\\x3dc\\x20SANDBOX\\x20DONE\\x20exit\\x3d0 op=write remedy="--write '"$D"'" warn=secrets,home$'
expect_eq "$(grep -c '^SANDBOX DONE' "$ERR")" 1 "one DONE line"
EOF

t "without --explain: no DENIED, the rerun NOTE for a non-zero exit only" <<'EOF'
D=$(newdir)
S="$STAGE/d4.txt"
script "$S" "read 1 /etc/shadow"
C=$(conf d4.conf denier.so "[denier]
denials = $S
finish_log = $LOGS/f4.log
")
wrap "$C" "$D" -- /bin/sh -c 'exit 7'
expect_rc 7
expect_no_err 'DENIED'
expect_err '^SANDBOX NOTE the command exited 7: if the wall denied it a path, rerun with --explain to name it$'
n=$(lineno 'rerun with --explain'); d=$(lineno '^SANDBOX DONE exit=7 ')
[ "$n" -gt 0 ] && [ "$n" -lt "$d" ] || _fail "NOTE not before DONE"
expect_eq "$(grep -c 'explain=0$' "$LOGS/f4.log")" 1 "finish told no explain"
wrap "$C" "$D" -- /bin/true
expect_rc 0
expect_no_err 'rerun with --explain|DENIED'
# killed by a signal: ns_exit how=2 code=9, exit 137; no denial sends
# SIGKILL: the cause, no hint
wrap "$C" "$D" -- /bin/sh -c 'kill -9 $$'
expect_rc 137
expect_err '^SANDBOX NOTE the command exited 137: ended by signal 9, which a refused call does not cause$'
expect_no_err 'rerun with --explain'
expect_eq "$(grep -c 'how=2 code=9 ' "$LOGS/f4.log")" 1 "signal in ns_exit"
# a crash may follow a refused call: the hint
wrap "$C" "$D" -- /bin/sh -c 'kill -SEGV $$'
expect_rc 139
expect_err '^SANDBOX NOTE the command exited 139: if the wall denied it a path, rerun with --explain to name it$'
EOF

t "--explain under a wall without NS_WALL_EXPLAIN: explain_unavailable, nothing runs" <<'EOF'
D=$(newdir)
C=$(conf r0e.conf wall_req0.so)
wrap "$C" "$D" --explain -- /bin/sh -c "echo x > '$D/ran'"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=explain_unavailable: --explain: the wall wall_req0 cannot name the paths it denies; run without --explain; run: nova-sandbox --write $D -- /bin/sh -c .*\$"
expect_absent "$D/ran"
expect_absent "$D/.nova-sandbox-tmp"
expect_no_err 'SANDBOX OK|DONE'
# pasted (the line without --explain), it runs under the same wall
L=$(sed -n 's/^SANDBOX REFUSED reason=explain_unavailable: .*; run: //p' "$ERR")
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$D/home" PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "$L"
expect_rc 0
expect_present "$D/ran"
rm -f "$D/ran"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$D/home" "$NS" probe --write "$D" --explain
expect_rc 2
expect_err 'explain_unavailable'
EOF

t "probe --explain: each walled step's denials as PROBE DENIED" <<'EOF'
D=$(newdir)
S="$STAGE/d5.txt"
script "$S" "write 1 $D/outside-x"
C=$(conf d5.conf denier.so "[denier]
denials = $S
")
mkdir -p "$D/w"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/w"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$D/w" "$NS" probe --write "$D/w" --explain
# the fixture lets writes through: the probe itself fails (exit 1)
expect_rc 1
expect_eq "$(grep -c "^PROBE DENIED path=$D/outside-x op=write remedy=\"--write $D\" warn=secrets,home\$" "$ERR")" 3 "one per walled step"
expect_no_err 'rerun with --explain'
EOF

# bg_as CMD...: CMD in the background as the test user, stdout/stderr in
# $OUT/$ERR; $bg is its pid once its SANDBOX OK line is out
bg_as() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@" \
			>"$OUT" 2>"$ERR" </dev/null &
	else
		"$@" >"$OUT" 2>"$ERR" </dev/null &
	fi
	bg=$!
	for _ in $(seq 50); do
		grep -q '^SANDBOX OK' "$ERR" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.3
}

# bg_wrap CONF DIR CMD...: the wrap in the background as the test user
bg_wrap() {
	local c=$1 d=$2
	shift 2
	mkdir -p "$d/home"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$d/home"
	bg_as env NOVA_SANDBOX_CONFIG="$c" HOME="$d/home" "$NS" --write "$d" \
		-- "$@"
}

t "a wall that waits itself: wait() with the 1 s tick as its timeout" <<'EOF'
D=$(newdir)
C=$(conf w1.conf waiter.so "[waiter]
log = $LOGS/w1.log
")
wrap "$C" "$D" -- /bin/sh -c 'sleep 1.5; exit 4'
expect_rc 4
expect_err '^SANDBOX DONE exit=4 cmd=dash$'
expect_eq "$(grep -c '^wait timeout=1000 how=0$' "$LOGS/w1.log")" 1 "one tick ran out"
expect_eq "$(grep -c '^wait timeout=1000 how=1$' "$LOGS/w1.log")" 1 "then the end"
EOF

t "a wall that terminates itself: a signal to the tool goes to terminate()" <<'EOF'
D=$(newdir)
C=$(conf w2.conf waiter.so "[waiter]
log = $LOGS/w2.log
")
bg_wrap "$C" "$D" /bin/sleep 30
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 137
expect_eq "$(grep -c '^terminate why=1$' "$LOGS/w2.log")" 1 "terminate(NS_TERM_SIGNAL)"
expect_err '^SANDBOX DONE exit=137 cmd=sleep$'
EOF

t "control: without terminate(), the signal reaches the command by kill" <<'EOF'
D=$(newdir)
C=$(conf w3.conf wall_req0.so)
bg_wrap "$C" "$D" /bin/sleep 30
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 143
expect_err '^SANDBOX DONE exit=143 cmd=sleep$'
EOF

# rconf NAME WALL [EXTRA]: a config for `run` through place_dir.so
rconf() {
	conf "$1" "$2" "place = place_dir.so
[place_dir]
dir = $PD
${3:-}"
}

t "run --explain: the init's DENIED lines come before the supervisor's DONE" <<'EOF'
S="$STAGE/r1.txt"
script "$S" "read 2 /etc/ssl/private/k" "write 1 /usr/local/x"
C=$(rconf r1.conf denier.so "[denier]
denials = $S
finish_log = $LOGS/r1.log
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn1 \
	--size 1m --explain -- /bin/sh -c 'exit 6'
expect_rc 6
expect_err '^SANDBOX DENIED path=/usr/local/x op=write remedy="--write /usr/local"$'
expect_eq "$(grep -c '^SANDBOX DENIED ' "$ERR")" 2 "lines"
expect_no_err 'rerun with --explain|does not report its denials'
last=$(grep -n '^SANDBOX DENIED ' "$ERR" | tail -1 | cut -d: -f1)
done_at=$(lineno '^SANDBOX DONE name=dn1 exit=6 ')
[ "$last" -gt 0 ] && [ "$last" -lt "$done_at" ] || _fail "DENIED not before DONE"
expect_eq "$(grep -c '^finish pid=[0-9]* how=1 code=6 killed=0 span=ok explain=1$' "$LOGS/r1.log")" 1 "finish log"
expect_absent "$PD/nova-dn1"
EOF

t "run without --explain: the rerun NOTE replaces the old 'does not report' NOTE" <<'EOF'
S="$STAGE/r2.txt"
script "$S" "read 1 /etc/shadow"
C=$(rconf r2.conf denier.so "[denier]
denials = $S
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn2 \
	--size 1m -- /bin/sh -c 'exit 6'
expect_rc 6
expect_no_err 'DENIED|does not report its denials'
expect_err '^SANDBOX NOTE the command exited 6: if the wall denied it a path, rerun with --explain to name it$'
n=$(lineno 'rerun with --explain'); d=$(lineno '^SANDBOX DONE name=dn2 ')
[ "$n" -gt 0 ] && [ "$n" -lt "$d" ] || _fail "NOTE not before DONE"
EOF

t "run: the end NOTE names the cause the tool knows (its --timeout, a full place, a signal), the hint only for an exit a denial can give" <<'EOF'
S="$STAGE/r4.txt"
script "$S" "read 1 /etc/shadow"
C=$(rconf r4.conf denier.so "[denier]
denials = $S
")
# control: an exit a denial can give, the hint
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn4-$$ \
	--size 1m -- /bin/sh -c 'exit 2'
expect_rc 2
expect_err '^SANDBOX NOTE the command exited 2: if the wall denied it a path, rerun with --explain to name it$'
# the timeout
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn4-$$ \
	--size 1m --timeout 1s -- /bin/sleep 20
expect_rc 124
expect_err '^SANDBOX NOTE the command was ended: it timed out after 1s \(--timeout\)$'
expect_no_err 'rerun with --explain'
n=$(lineno 'timed out after'); d=$(lineno '^SANDBOX DONE name=dn4-')
[ "$n" -gt 0 ] && [ "$n" -lt "$d" ] || _fail "NOTE not before DONE"
# the place ended full (place_dir.so says 4242 bytes are used)
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn4-$$ \
	--size 4k -- /bin/sh -c 'exit 1'
expect_rc 1
expect_err '^SANDBOX NOTE the command exited 1: the place is full \(--size 4k\)$'
expect_no_err 'rerun with --explain'
# a signal no denial gives
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn4-$$ \
	--size 1m -- /bin/sh -c 'kill -KILL $$'
expect_rc 137
expect_err '^SANDBOX NOTE the command exited 137: ended by signal 9, which a refused call does not cause$'
expect_no_err 'rerun with --explain'
# the caller's signal, passed on
bg_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn4-$$ \
	--size 1m -- /bin/sleep 30
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 143
expect_err '^SANDBOX NOTE the command was ended: the tool was asked to stop and passed the signal on$'
expect_no_err 'rerun with --explain'
expect_absent "$PD/nova-dn4-$$"
EOF

t "run --explain under a wall without NS_WALL_EXPLAIN: refused, no place made" <<'EOF'
C=$(rconf r3.conf wall_req0.so)
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name dn3 \
	--size 1m --explain -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=explain_unavailable: '
expect_no_err '^SANDBOX (OK|DONE)'
expect_absent "$PD/nova-dn3"
EOF

t "a signal the tool forwarded: finish() is told killed=NS_TERM_SIGNAL and the signal" <<'EOF'
D=$(newdir)
C=$(conf k1.conf denier.so "[denier]
finish_log = $LOGS/k1.log
")
bg_wrap "$C" "$D" /bin/sleep 30
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 143
expect_eq "$(grep -c '^finish pid=[0-9]* how=2 code=15 killed=1 span=ok explain=0$' "$LOGS/k1.log")" 1 "finish log"
expect_err '^SANDBOX NOTE the command was ended: the tool was asked to stop and passed the signal on$'
expect_no_err 'rerun with --explain'
# a command that ends by itself: killed=0 (the other cases' logs)
wrap "$C" "$D" -- /bin/true
expect_eq "$(grep -c 'how=1 code=0 killed=0 ' "$LOGS/k1.log")" 1 "not killed"
EOF

# a tree of 8 three-second sleeps under --max-procs 3 (run)
EIGHT='i=0; while [ $i -lt 8 ]; do sleep 3 & i=$((i+1)); done; wait'

t "control: run --max-procs 3 under a wall that waits (not CAPS_NATIVE): the host counts, RUNAWAY" <<'EOF'
C=$(rconf c1.conf waiter.so "[waiter]
log = $LOGS/c1.log
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name cn1 \
	--size 1m --max-procs 3 -- /bin/sh -c "$EIGHT"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 3\); the process tree was killed$'
expect_absent "$PD/nova-cn1"
EOF

t "run --max-procs 3 under a CAPS_NATIVE wall: the caps reach it, the host does not count" <<'EOF'
C=$(rconf c2.conf capper.so "[capper]
log = $LOGS/c2.log
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name cn2 \
	--size 1m --max-procs 3 --timeout 60s -- /bin/sh -c "$EIGHT"
expect_rc 0
expect_no_err 'RUNAWAY'
expect_err '^SANDBOX DONE name=cn2 exit=0 '
expect_eq "$(grep -c '^caps procs=3 mem=[0-9]* timeout=60000$' "$LOGS/c2.log")" 1 "the caps in the policy"
expect_absent "$PD/nova-cn2"
EOF

# 300 three-second sleeps: past the wrap's fixed cap of 256
MANY='i=0; while [ $i -lt 300 ]; do sleep 3 & i=$((i+1)); done; wait'

t "control: the wrap under a wall that waits: 300 processes pass the 256 cap, RUNAWAY" <<'EOF'
D=$(newdir)
C=$(conf c3.conf waiter.so "[waiter]
log = $LOGS/c3.log
")
wrap "$C" "$D" -- /bin/sh -c "$MANY"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
EOF

t "the wrap under a CAPS_NATIVE wall: 300 processes, the host does not count" <<'EOF'
D=$(newdir)
C=$(conf c4.conf capper.so "[capper]
log = $LOGS/c4.log
")
wrap "$C" "$D" -- /bin/sh -c "$MANY"
expect_rc 0
expect_no_err 'RUNAWAY'
expect_eq "$(grep -c '^caps procs=256 mem=[0-9]* timeout=0$' "$LOGS/c4.log")" 1 "the caps in the policy"
EOF

t "run under a wall that terminates: a signal to the tool reaches terminate() from the init" <<'EOF'
C=$(rconf c5.conf waiter.so "[waiter]
log = $LOGS/c5.log
")
bg_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name cn5 \
	--size 1m -- /bin/sleep 30
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 143
expect_eq "$(grep -c '^terminate why=1$' "$LOGS/c5.log")" 1 "terminate(NS_TERM_SIGNAL)"
expect_absent "$PD/nova-cn5"
EOF
