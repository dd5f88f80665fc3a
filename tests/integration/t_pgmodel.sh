#!/bin/bash
# SPDX-License-Identifier: MIT
# t_pgmodel.sh -- darwin's process model (host/proc/pgreaper.c: no
# subreaper, no parent-death signal, no sigtimedwait) built and run on
# Linux: `make pgmodel` builds $NOVA_B/tests/pgmodel/bin/nova-sandbox with
# PROCMODEL=pgroup and the generic os/posix/procio.c (a stream for the
# keeper's messages, pselect for the SIGCHLD wait).  The stack is darwin's
# as t_seatbelt.sh runs it: seatbelt's portable core (no wait(): the host
# waits for the pid itself, as on a Mac) through the fake sandbox-exec,
# which enforces the file parameters with the real Landlock, and `run`'s
# place apfsvol.so (no PID namespace) against its fakes; as the test user.
# The cases: exit codes, a signal relayed, a timeout, the caps counted
# over the group, the group swept at the end, the supervisor's end seen by
# the keeper, and what the model does not cover (an orphan that left the
# group), against the default build (a subreaper) as the control.
source "$(dirname "$0")/lib.sh"

PG="$NOVA_B/tests/pgmodel/bin/nova-sandbox"

# a pid's state letter, or "-" when it is gone
pstate() {
	local s
	s=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || s=-
	echo "${s:--}"
}
# dead: gone, or a zombie waiting for init to reap it
dead() {
	case $(pstate "$1") in -|Z|X) return 0 ;; esac
	return 1
}
# wait up to 3 s for pid $1 to be dead
gone_soon() {
	for _ in $(seq 30); do dead "$1" && return 0; sleep 0.1; done
	return 1
}
pgid_of() {
	awk '{ sub(/.*\) /, ""); print $3 }' "/proc/$1/stat" 2>/dev/null
}
sid_of() {
	awk '{ sub(/.*\) /, ""); print $4 }' "/proc/$1/stat" 2>/dev/null
}
# home D: a HOME inside the --write D (the home guard), the test user's
home() {
	mkdir -p "$1/home"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$1/home"
	echo "$1/home"
}
# wrap_as BIN D CMD...: BIN's wrap of CMD with --write D, as the test user
wrap_as() {
	local b=$1 d=$2
	shift 2
	fresh
	run_as env HOME="$(home "$d")" "$b" --write "$d" -- "$@"
}
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

# ---- darwin's stack: seatbelt's core + fake sandbox-exec, apfsvol + fakes
SRC=$(cd "$(dirname "$0")/../../modules/seatbelt/tests/fakes" && pwd)
ASRC=$(cd "$(dirname "$0")/../../modules/apfsvol/tests/fakes" && pwd)
S=$(mktemp -d "$NOVA_B/t_pgmodel.XXXXXX")  # root-owned: config + tools
chmod 755 "$S"
echo "$S" >> "$_DIRS"
mkdir -m 755 "$S/bin"
install -m 0755 "$SRC/sandbox-exec" "$SRC/log" "$ASRC/diskutil" \
	"$ASRC/lsof" "$ASRC/ps" "$S/bin/"
W=$(newdir)                              # the test user's
cat > "$S/c.conf" <<CONF
[linux]
wall = $NOVA_B/tests/modules/seatbelt.so
place = $NOVA_B/tests/modules/apfsvol.so

[seatbelt]
sandbox_exec = $S/bin/sandbox-exec
log = $S/bin/log

[apfsvol]
diskutil = $S/bin/diskutil
lsof = $S/bin/lsof
ps = $S/bin/ps
volumes = $W/vol
lockfile = $W/create.lock
CONF
chmod 644 "$S/c.conf"
export NOVA_SANDBOX_CONFIG="$S/c.conf"
export FAKE_SB_LLEXEC="$H/ns_llexec"
# the fake sandbox-exec runs with the command's environment, which run
# starts clean: run passes its variables by name
FENV=(--env FAKE_SB_LLEXEC --env FAKE_SB_STATE --env FAKE_SB_LOG)

fresh() {
	rm -rf "$W/st" "$W/vol" "$W/astate" "$W/alog" "$W/sb.log" \
		"$W/log.calls"
	mkdir -m 755 "$W/st" "$W/vol" "$W/astate"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
	export FAKE_SB_STATE="$W/st" FAKE_SB_LOG="$W/sb.log"
	export FAKE_LOG_CALLS="$W/log.calls" FAKE_LOG_DIR="$W"
	export FAKE_APFS_VOLUMES="$W/vol" FAKE_APFS_STATE="$W/astate"
	export FAKE_APFS_LOG="$W/alog"
	unset FAKE_SB_FAIL FAKE_LOG_REPLAY FAKE_LOG_FAIL FAKE_APFS_FAIL
}

t "the pgmodel build is there and says its gap in check; the default build does not" <<'EOF'
fresh
[ -x "$PG" ] || _fail "no $PG: make pgmodel (check-integration builds it)"
run "$PG" check
expect_rc 0
expect_out '^CHECK OK .*; the host: a process the command starts that leaves its process group \(setsid, setpgid\) and whose parent then ends is out of the tool.s reach'
run "$NS" check
expect_rc 0
expect_no_out 'the host:'
EOF

t "wrap: exit codes pass through (7; a signal is 128+N)" <<'EOF'
D=$(newdir)
wrap_as "$PG" "$D" /bin/sh -c 'exit 7'
expect_rc 7
expect_err '^SANDBOX OK backend=seatbelt '
expect_err '^SANDBOX DONE exit=7 cmd=dash$'
wrap_as "$PG" "$D" /bin/sh -c 'kill -TERM $$'
expect_rc 143
expect_err '^SANDBOX DONE exit=143 cmd=dash$'
EOF

t "wrap: the command's group is not the caller's, and its orphan is swept before DONE" <<'EOF'
D=$(newdir)
wrap_as "$PG" "$D" /bin/sh -c \
	'ps -o pgid= -p $$ > '"$D"'/pg; (sleep 300 & echo $! > '"$D"'/orphan); sleep 0.2; exit 0'
expect_rc 0
expect_err '^SANDBOX DONE exit=0 cmd=dash$'
o=$(cat "$D/orphan")
[ -n "$o" ] || _fail "no orphan pid"
at_end "kill -KILL $o 2>/dev/null || :"
dead "$o" || _fail "the orphan $o ($(pstate "$o")) outlived DONE"
[ "$(tr -d ' ' < "$D/pg")" != "$(ps -o pgid= -p $$ | tr -d ' ')" ] ||
	_fail "the command ran in the caller's process group"
EOF

t "wrap: a signal to the tool reaches the command (its trap's exit), its child swept" <<'EOF'
D=$(newdir)
fresh
bg_as env HOME="$(home "$D")" "$PG" --write "$D" -- /bin/sh -c \
	'trap "exit 9" TERM; sleep 300 & echo $! > '"$D"'/kid; wait'
for _ in $(seq 30); do [ -s "$D/kid" ] && break; sleep 0.1; done
k=$(cat "$D/kid")
at_end "kill -KILL $k 2>/dev/null || :"
kill -TERM "$bg"
wait "$bg"; RC=$?
expect_rc 9
expect_err '^SANDBOX DONE exit=9 cmd=dash$'
dead "$k" || _fail "the command's child $k outlived DONE"
EOF

t "wrap: not covered: an orphan that left the group (setsid) escapes; the subreaper build catches it" <<'EOF'
D=$(newdir)
esc='setsid /bin/sh -c "echo \$\$ > '"$D"'/esc; exec sleep 300" & sleep 0.3'
wrap_as "$PG" "$D" /bin/sh -c "$esc"
expect_rc 0
e=$(cat "$D/esc")
[ -n "$e" ] || _fail "no escaped pid"
at_end "kill -KILL $e 2>/dev/null || :"
dead "$e" && _fail "the setsid orphan $e did not escape: the gap the spec names is not there"
[ "$(sid_of "$e")" = "$e" ] || _fail "$e is not in a session of its own"
kill -KILL "$e"
# the control: the Linux build's subreaper keeps it in the tree
rm -f "$D/esc"
wrap_as "$NS" "$D" /bin/sh -c "$esc"
expect_rc 0
e=$(cat "$D/esc")
at_end "kill -KILL $e 2>/dev/null || :"
dead "$e" || _fail "the subreaper build let the setsid orphan $e live"
EOF

t "run: the exit code passes, the init's group is swept (an orphan gone), the volume deleted" <<'EOF'
fresh
run_as "$PG" run --name pg1 --size 8m "${FENV[@]}" -- /bin/sh -c \
	'(sleep 300 & echo orphan=$!); echo cmd_pgid=$(ps -o pgid= -p $$); sleep 0.2; exit 5'
expect_rc 5
expect_err '^SANDBOX DONE name=pg1 exit=5 '
expect_no_err 'LEAK'
o=$(sed -n 's/^orphan=//p' "$OUT")
[ -n "$o" ] || _fail "no orphan pid"
at_end "kill -KILL $o 2>/dev/null || :"
dead "$o" || _fail "the run's orphan $o outlived DONE"
[ "$(ls -A "$W/vol" | wc -l)" = 0 ] || _fail "a volume is left"
EOF

t "run: --timeout ends the command's group: 124, TIMEOUT" <<'EOF'
fresh
run_as "$PG" run --name pg2 --size 8m "${FENV[@]}" --timeout 1s -- /bin/sh -c \
	'sleep 300 & echo kid=$!; wait'
expect_rc 124
expect_err '^SANDBOX TIMEOUT after=1s name=pg2$'
k=$(sed -n 's/^kid=//p' "$OUT")
at_end "kill -KILL $k 2>/dev/null || :"
dead "$k" || _fail "the command's child $k outlived the timeout"
EOF

t "run: --max-procs counts the group's orphans (no subreaper to keep them)" <<'EOF'
fresh
run_as "$PG" run --name pg3 --size 8m "${FENV[@]}" --max-procs 4 -- /bin/sh -c \
	'for i in 1 2 3 4 5 6; do (sleep 300 & echo o=$!); done; sleep 8; exit 0'
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 4\)'
for o in $(sed -n 's/^o=//p' "$OUT"); do
	at_end "kill -KILL $o 2>/dev/null || :"
	dead "$o" || _fail "orphan $o outlived the runaway"
done
EOF

t "run: the tool SIGKILLed: the keeper sees its end (EOF) and ends the run's group" <<'EOF'
fresh
bg_as "$PG" run --name pg4 --size 8m "${FENV[@]}" -- /bin/sh -c 'echo cmd=$$; sleep 300'
c=""
for _ in $(seq 30); do
	c=$(sed -n 's/^cmd=//p' "$OUT"); [ -n "$c" ] && break; sleep 0.1
done
[ -n "$c" ] || _fail "the command never started"
at_end "kill -KILL $c 2>/dev/null || :"
dead "$c" && _fail "the command is not running before the kill"
{ kill -KILL "$bg"; wait "$bg"; } 2>/dev/null
gone_soon "$c" || _fail "the command $c outlived the tool's SIGKILL ($(pstate "$c"))"
EOF

t "run: the tool and its keeper SIGKILLed: the init sees the keeper's end (EOF) and ends its group" <<'EOF'
fresh
bg_as "$PG" run --name pg5 --size 8m "${FENV[@]}" -- /bin/sh -c 'echo cmd=$$; sleep 300'
c=""
for _ in $(seq 30); do
	c=$(sed -n 's/^cmd=//p' "$OUT"); [ -n "$c" ] && break; sleep 0.1
done
[ -n "$c" ] || _fail "the command never started"
at_end "kill -KILL $c 2>/dev/null || :"
k=$(pgrep -P "$bg" -x nova-sandbox | head -1)
[ -n "$k" ] || _fail "no keeper under the tool $bg"
dead "$c" && _fail "the command is not running before the kill"
{ kill -KILL "$bg" "$k"; wait "$bg"; } 2>/dev/null
gone_soon "$c" || _fail "the command $c outlived its keeper and the tool ($(pstate "$c"))"
EOF
