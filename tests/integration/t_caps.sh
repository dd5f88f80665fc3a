#!/bin/bash
# t_caps.sh -- the bare wrap's process cap (reference section 2, "Caps"):
# a tree past 256 processes is frozen and killed, RUNAWAY on stderr, 137,
# no survivor; a tree under the cap runs to its end (control); orphans of
# the tree count; RLIMIT_NPROC is lowered unless the caller's is tighter.
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

t "a fork bomb past 256 processes: RUNAWAY, 137, no survivor"
world
wrap --write "$D/w" -- /bin/sh -c "i=0; while [ \$i -lt 400 ]; do sleep $MARK & i=\$((i+1)); done; wait"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
expect_err '^SANDBOX DONE exit=137 cmd=dash$'
no_survivor

t "orphans of the tree count (counted at the end): RUNAWAY, 137, no survivor"
world
wrap --write "$D/w" -- /bin/sh -c "i=0; while [ \$i -lt 300 ]; do (sleep $MARK &); i=\$((i+1)); done"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 256\); the process tree was killed$'
expect_err '^SANDBOX DONE exit=137 cmd=dash$'
no_survivor

t "control: 50 background sleeps (under the cap) finish normally"
world
wrap --write "$D/w" -- /bin/sh -c 'i=0; while [ $i -lt 50 ]; do sleep 2 & i=$((i+1)); done; wait'
expect_rc 0
expect_no_err 'RUNAWAY'
expect_err '^SANDBOX DONE exit=0 cmd=dash$'

t "RLIMIT_NPROC is lowered to the task total + 512"
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

t "RLIMIT_NPROC: the caller's tighter limit is kept"
world
# RLIMIT_NPROC counts every task of the user (other tests' too): the limit
# is the test user's task count now + 200, room for what else runs as that
# user meanwhile, and still under the tool's own (machine tasks + 512)
lim=$(( $(ps -L -U "$TUID" --no-headers | wc -l) + 200 ))
run_as prlimit --nproc=$lim:$lim env HOME="$D/w/home" PATH=/usr/bin:/bin "$NS" --write "$D/w" -- /bin/sh -c "$NPROC"
expect_rc 0
expect_out "^$lim\$"
