#!/bin/bash
# SPDX-License-Identifier: MIT
# t_caps.sh -- the bare wrap's process cap (reference section 2, "Caps"):
# a tree past 256 processes is frozen and killed, RUNAWAY on stderr, 137,
# no survivor; a tree under the cap runs to its end (control); orphans of
# the tree count; RLIMIT_NPROC is lowered unless the caller's is tighter.
# Issue 7: nothing the command started outlives DONE (a setsid loop that
# keeps forking, a double fork); a bomb that hits the cap is a runaway;
# --status-fd carries the tool's lines and the command cannot reach it.
# The memory cap (8 GiB) has no CLI override (no hidden flags), so its
# decision is tested in the unit suite (tests/unit/test_caps.c) only.
source "$(dirname "$0")/lib.sh"

world() {
	D=$(newdir)
	mkdir -p "$D/w/home"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
}
wrap() {
	run_as env HOME="$D/w/home" PATH=/usr/bin:/bin "$NS" "$@"
}
# a unique sleep duration marks this run's sleeps for pgrep -f
MARK="31.$$"
survivors() {
	pgrep -u "$TUID" -f "sleep $MARK" | wc -l
}
# the soft RLIMIT_NPROC of the shell that runs this
NPROC="awk '/^Max processes/ { print \$3 }' /proc/self/limits"
no_survivor() {
	local n
	n=$(survivors)
	[ "$n" = 0 ] || { _fail "$n marked sleeps survived"; pkill -KILL -u "$TUID" -f "sleep $MARK"; }
}

t "a fork bomb past 256 processes: RUNAWAY, 137, no survivor" <<'EOF'
world
wrap --write "$D/w" -- /bin/sh -c "i=0; while [ \$i -lt 400 ]; do sleep $MARK & i=\$((i+1)); done; wait"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
expect_err '^SANDBOX DONE exit=137 cmd=dash$'
no_survivor
EOF

t "orphans of the tree count (counted at the end): RUNAWAY, 137, no survivor" <<'EOF'
world
wrap --write "$D/w" -- /bin/sh -c "i=0; while [ \$i -lt 300 ]; do (sleep $MARK &); i=\$((i+1)); done"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
expect_err '^SANDBOX DONE exit=137 cmd=dash$'
no_survivor
EOF

t "control: 50 background sleeps (under the cap) finish normally" <<'EOF'
world
wrap --write "$D/w" -- /bin/sh -c 'i=0; while [ $i -lt 50 ]; do sleep 2 & i=$((i+1)); done; wait'
expect_rc 0
expect_no_err 'RUNAWAY'
expect_err '^SANDBOX DONE exit=0 cmd=dash$'
EOF

t "RLIMIT_NPROC is lowered to the task total + 512" <<'EOF'
world
tasks=$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f2)
wrap --write "$D/w" -- /bin/sh -c "$NPROC"
expect_rc 0
n=$(head -1 "$OUT")
case "$n" in
''|*[!0-9]*) _fail "nproc limit read as '$n'" ;;
*) [ "$n" -le $((tasks + 512 + 100)) ] && [ "$n" -ge $((tasks + 512 - 100)) ] ||
	_fail "nproc $n is not about $tasks + 512" ;;
esac
run_as /bin/sh -c "$NPROC"
expect_eq "$(head -1 "$OUT")" "$(sh -c "$NPROC")" "control: unwalled limit unchanged"
EOF

t "RLIMIT_NPROC: the caller's tighter limit is kept" <<'EOF'
world
# RLIMIT_NPROC counts every task of the user (other tests' too): the limit
# is the test user's task count now + 200, room for what else runs as that
# user meanwhile, and still under the tool's own (machine tasks + 512)
lim=$(( $(ps -L -U "$TUID" --no-headers | wc -l) + 200 ))
run_as prlimit --nproc=$lim:$lim env HOME="$D/w/home" PATH=/usr/bin:/bin "$NS" --write "$D/w" -- /bin/sh -c "$NPROC"
expect_rc 0
expect_out "^$lim\$"
EOF

# ---- issue 7: lifetime, the cap's boundary, status lines ----------------

t "a setsid child that keeps forking dies before DONE; DONE is the last line" <<'EOF'
world
# the survivor: a new session, a loop that forks marked sleeps; the command
# waits until it has started (the file), then exits 0
wrap --write "$D/w" -- /bin/sh -c "setsid /bin/sh -c 'touch started; while :; do sleep $MARK & sleep 0.05; done' </dev/null >/dev/null 2>&1 & while [ ! -e started ]; do sleep 0.01; done; exit 0"
expect_rc 0
expect_present "$D/w/started"
expect_err '^SANDBOX DONE exit=0 cmd=dash$'
expect_eq "$(tail -n 1 "$ERR")" "SANDBOX DONE exit=0 cmd=dash" "the last line"
# checked at once, no waiting: nothing may outlive DONE
no_survivor
EOF

t "a double-forked child in a new process group dies before DONE" <<'EOF'
world
wrap --write "$D/w" -- /bin/sh -c "(setsid -f /bin/sh -c 'sleep $MARK; sleep $MARK' &) ; (exec sleep $MARK &) ; sleep 0.2; exit 3"
expect_rc 3
expect_err '^SANDBOX DONE exit=3 cmd=dash$'
no_survivor
EOF

t "a fork bomb that hits the cap (256) is a runaway: 137, RUNAWAY, no survivor" <<'EOF'
world
# f|f& forks until RLIMIT_NPROC refuses; the tree sits at the limit
wrap --write "$D/w" -- /bin/bash -c "f(){ f|f& }; f 2>/dev/null; sleep $MARK"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
expect_err '^SANDBOX DONE exit=137 cmd=bash$'
no_survivor
EOF

# the status fd is a FIFO read by this script (not a file the wall could
# name: a pipe reopened through /proc/<pid>/fd is not a path of the wall)
fifo_reader() {
	FIFO="$D/status.fifo"
	mkfifo "$FIFO"
	[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$FIFO"
	cat "$FIFO" > "$SF" &
	CAT=$!
}

t "--status-fd: the tool's lines on the status fd only; the command cannot spoof them nor hold it" <<'EOF'
world
SF="$D/status"
# control: a descriptor 5 opened by the shell is seen by an unwalled child
run_as /bin/sh -c '[ -e /proc/self/fd/5 ] && echo fd5-open || echo fd5-closed' 5>/dev/null
expect_out '^fd5-open$'
fifo_reader
run_as env HOME="$D/w/home" PATH=/usr/bin:/bin /bin/sh -c "exec \"\$0\" \"\$@\" 5>$FIFO" "$NS" \
	--status-fd 5 --write "$D/w" -- /bin/sh -c \
	'echo "SANDBOX DONE exit=0 cmd=x" >&2; [ -e /proc/self/fd/5 ] && echo fd5-open || echo fd5-closed; for f in /proc/[0-9]*/fd/5; do echo "SANDBOX DONE exit=0 cmd=via-proc" 2>/dev/null >> "$f"; done; exit 4'
expect_rc 4
wait "$CAT"
expect_out '^fd5-closed$'
expect_err '^SANDBOX DONE exit=0 cmd=x$'
expect_no_err '^SANDBOX (OK|DONE exit=4)'
grep -qE '^SANDBOX OK backend=' "$SF" || _fail "the status fd lacks OK"
expect_eq "$(tail -n 1 "$SF")" "SANDBOX DONE exit=4 cmd=dash" "the status fd's last line"
! grep -q 'cmd=x' "$SF" || _fail "the command's line reached the status fd"
! grep -q 'via-proc' "$SF" || _fail "the command reopened the status fd through /proc"
EOF

t "control: a process of the same user reopens another's pipe descriptor through /proc" <<'EOF'
world
SF="$D/status"
fifo_reader
run_as /bin/sh -c "exec 5>$FIFO; sleep 5 & p=\$!; echo via-proc >> /proc/\$p/fd/5; kill \$p"
wait "$CAT"
grep -q 'via-proc' "$SF" || _fail "control: /proc/<pid>/fd/5 of a sibling was not writable"
EOF

t "--status-fd refusals: below 3, not open, read-only, not a number; nothing created" <<'EOF'
world
for v in 2 9 x; do
	wrap --status-fd "$v" --write "$D/w" -- /bin/true
	expect_rc 125
	expect_err "^SANDBOX REFUSED reason=bad_status_fd: --status-fd wants an open, writable descriptor of 3 or above, got $v"
	expect_no_err '^SANDBOX (OK|DONE)'
done
run_as env HOME="$D/w/home" PATH=/usr/bin:/bin /bin/sh -c 'exec "$0" "$@" 5</dev/null' "$NS" \
	--status-fd 5 --write "$D/w" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_status_fd: --status-fd wants an open, writable descriptor of 3 or above, got 5 \(open read-only\)'
expect_absent "$D/w/.nova-sandbox-tmp"
EOF
