#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run.sh -- `nova-sandbox run` on linux (nsplace.so + landlock.so), through
# the built binary, as the unprivileged test user AND as root (the command
# then runs as uid 65534): exit codes pass through, --timeout (124, the
# background child killed), SIGINT (130), a runaway fork loop (137, no
# survivor), freed=, the place is gone after each (checked in /proc and
# with findmnt, not by the tool's word), a live name refused, the
# validation matrix with nothing created, and the handoff.
source "$(dirname "$0")/lib.sh"

MARK="47.$$"
# a read root outside /tmp (the place is mounted over /tmp inside)
RD=$(mktemp -d "$NOVA_B/tests/run-read.XXXXXX")
chmod 755 "$RD"
echo "$RD" >> "$_DIRS"
echo "read me" > "$RD/data"
chmod 644 "$RD/data"

MODES="user"
if [ "$(id -u)" = 0 ]; then MODES="user root"; fi

tool() {
	if [ "$MODE" = user ]; then
		run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run "$@"
	else
		run env PATH=/usr/bin:/bin "$NS" run "$@"
	fi
}

# Start the tool in the background (stderr to $ERR); $BG is its pid.
tool_bg() {
	# as an ordinary user the suite is already the user (setpriv
	# --clear-groups needs root)
	if [ "$MODE" = user ] && [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
			env PATH=/usr/bin:/bin "$NS" run "$@" >"$OUT" 2>"$ERR" </dev/null &
	else
		env PATH=/usr/bin:/bin "$NS" run "$@" >"$OUT" 2>"$ERR" </dev/null &
	fi
	BG=$!
}

wait_ok() {
	for _ in $(seq 100); do
		grep -q '^SANDBOX OK ' "$ERR" && return 0
		sleep 0.05
	done
	_fail "no SANDBOX OK line"
}

# Nothing of the run is left: no marked process, no nova-sandbox tmpfs in
# any process's mount table, nothing in the host's mount table or /tmp.
gone() {
	local n=1 m=1
	for _ in $(seq 100); do
		n=$(pgrep -f "sleep $MARK" | wc -l)
		m=$(grep -l -- '- tmpfs nova-sandbox ' /proc/[0-9]*/mountinfo 2>/dev/null | wc -l)
		[ "$n" = 0 ] && [ "$m" = 0 ] && break
		sleep 0.05
	done
	[ "$n" = 0 ] || { _fail "$n marked processes survived"; pkill -KILL -f "sleep $MARK"; }
	[ "$m" = 0 ] || _fail "$m processes still see a nova-sandbox tmpfs"
	! findmnt -rn | grep -q 'nova-sandbox' || _fail "findmnt shows a nova-sandbox mount"
	expect_absent "/tmp/nova-$1"
}

for MODE in $MODES; do

t "$MODE: exit 0 passes through; OK, STEP and DONE lines; gone after" <<'EOF'
tool --name "t0-$$" --size 8m -- /bin/true
expect_rc 0
expect_err '^SANDBOX STEP name=look state=start$'
expect_err '^SANDBOX STEP name=create state=done ms=[0-9]+$'
expect_err "^SANDBOX OK name=t0-$$ place=nsplace backend=landlock abi=[0-9]+ .*read=0 write=1 .*cwd=/tmp/nova-t0-$$/work .*deletes=/tmp/nova-t0-$$\$"
expect_err '^SANDBOX STEP name=kill state=done ms=[0-9]+$'
expect_err '^SANDBOX STEP name=delete state=done ms=[0-9]+$'
expect_err "^SANDBOX DONE name=t0-$$ exit=0 wall=[0-9]+\.[0-9]{3} freed=[0-9]+\$"
gone "t0-$$"
EOF

t "$MODE: exit 3 and 7 pass through" <<'EOF'
tool --name "t3-$$" --size 8m -- /bin/sh -c 'exit 3'
expect_rc 3
expect_err "^SANDBOX DONE name=t3-$$ exit=3 "
# an exit a denial can give (the control of the causes below): the hint
expect_err '^SANDBOX NOTE the command exited 3: if the wall denied it a path, rerun with --explain to name it$'
tool --name "t7-$$" --size 8m -- /bin/sh -c 'exit 7'
expect_rc 7
expect_err "^SANDBOX DONE name=t7-$$ exit=7 "
gone "t7-$$"
EOF

t "$MODE: the place is the only write root: cwd work/, HOME home/, TMPDIR tmp/" <<'EOF'
tool --name "tw-$$" --size 8m --read "$RD" -- /bin/sh -c \
	'pwd; echo "$HOME $TMPDIR"; cat '"$RD"'/data; touch x "$HOME/y" "$TMPDIR/z" && echo wrote; touch '"$RD"'/no || echo denied'
expect_rc 0
expect_out "^/tmp/nova-tw-$$/work\$"
expect_out "^/tmp/nova-tw-$$/home /tmp/nova-tw-$$/tmp\$"
expect_out '^read me$'
expect_out '^wrote$'
expect_out '^denied$'
expect_absent "$RD/no"
gone "tw-$$"
EOF

t "$MODE: the command is not uid 0 and inherits no descriptor but 0, 1, 2" <<'EOF'
# ls lists its own /proc/self/fd: 0 1 2 and the directory it reads (3);
# a descriptor of the tool, the keeper or the place leaked in adds more.
tool --name "tu-$$" --size 8m -- /bin/sh -c 'id -u; ls /proc/self/fd | tr "\n" " "'
expect_rc 0
if [ "$MODE" = root ]; then expect_out '^65534$'; else expect_out "^$TUID\$"; fi
expect_out '^0 1 2 3 $'
gone "tu-$$"
EOF

t "$MODE: /proc is the run's own: a process outside is not listed, own pid small" <<'EOF'
# a process of the machine (started here, outside any run) with a unique
# argument; inside, /proc is readable (the shell finds its own entry) but
# lists only the run's processes, and the shell's pid is the namespace's
sleep "48.$$" </dev/null >/dev/null 2>&1 &
OUTSIDE=$!
LIST='for f in /proc/[0-9]*/cmdline; do tr "\0" " " < "$f"; echo; done'
run_as /bin/sh -c "$LIST"
grep -q "^sleep 48\.$$ " "$OUT" ||
	_fail "control: the outside process is not listed in the host's /proc"
tool --name "tp-$$" --size 8m -- /bin/sh -c \
	'echo "pid=$$"; read s r < /proc/self/stat; [ "$s" = "$$" ] && echo self-listed; '"$LIST"' | grep -c "^sleep 48\.'"$$"' " || :'
expect_rc 0
expect_out '^self-listed$'
expect_out '^0$'
p=$(sed -n 's/^pid=\([0-9]*\)$/\1/p' "$OUT")
[ -n "$p" ] && [ "$p" -le 10 ] || _fail "the command's pid inside is $p, not the namespace's"
kill "$OUTSIDE"; wait "$OUTSIDE" 2>/dev/null
gone "tp-$$"
EOF

t "$MODE: control: the same write outside the place without the wall succeeds" <<'EOF'
touch "$RD/no" && expect_present "$RD/no"
rm -f "$RD/no"
EOF

t "$MODE: freed= is the bytes the command left (100 KiB file)" <<'EOF'
tool --name "tf-$$" --size 8m -- /bin/sh -c 'head -c 102400 /dev/zero > f'
expect_rc 0
f=$(sed -n 's/^SANDBOX DONE .* freed=\([0-9]*\)$/\1/p' "$ERR")
[ -n "$f" ] && [ "$f" -ge 102400 ] && [ "$f" -le 8388608 ] || _fail "freed=$f"
gone "tf-$$"
EOF

t "$MODE: --size caps the place (a write past it fails inside)" <<'EOF'
tool --name "ts-$$" --size 64k -- /bin/sh -c 'head -c 200000 /dev/zero > f || exit 9'
expect_rc 9
# the cause, not the --explain hint
expect_err '^SANDBOX NOTE the command exited 9: the place is full \(--size 64k\)$'
expect_no_err 'rerun with --explain'
gone "ts-$$"
EOF

t "$MODE: --timeout: TIMEOUT, 124, the background child killed" <<'EOF'
tool --name "tt-$$" --size 8m --timeout 500ms -- /bin/sh -c "sleep $MARK & sleep $MARK"
expect_rc 124
expect_err "^SANDBOX TIMEOUT after=500ms name=tt-$$\$"
expect_err '^SANDBOX NOTE the command was ended: it timed out after 500ms \(--timeout\)$'
expect_no_err 'rerun with --explain'
expect_err "^SANDBOX DONE name=tt-$$ exit=124 "
gone "tt-$$"
EOF

t "$MODE: a normal exit kills the background child" <<'EOF'
tool --name "tb-$$" --size 8m -- /bin/sh -c "sleep $MARK & exit 0"
expect_rc 0
gone "tb-$$"
EOF

t "$MODE: SIGINT to the tool: 130, DONE, gone" <<'EOF'
tool_bg --name "ti-$$" --size 8m -- /bin/sh -c "sleep $MARK & sleep $MARK"
wait_ok
kill -INT "$BG"
wait "$BG"
RC=$?
expect_rc 130
expect_err "^SANDBOX DONE name=ti-$$ exit=130 "
expect_err '^SANDBOX NOTE the command was ended: the tool was asked to stop and passed the signal on$'
expect_no_err 'rerun with --explain'
gone "ti-$$"
EOF

t "$MODE: a runaway fork loop: RUNAWAY, 137, no survivor" <<'EOF'
# bash retries a fork that RLIMIT_NPROC (the backstop) refuses, so the loop
# keeps the tree past the cap until the count sees it
tool --name "tr-$$" --size 8m --max-procs 30 -- /bin/bash -c "while :; do sleep $MARK & done 2>/dev/null"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 30\)'
expect_err '^SANDBOX NOTE the command was ended: it passed a cap of processes or memory$'
expect_no_err 'rerun with --explain'
expect_err "^SANDBOX DONE name=tr-$$ exit=137 "
gone "tr-$$"
EOF

t "$MODE: a live run's name is refused (volume_exists), the live run untouched" <<'EOF'
tool_bg --name "tl-$$" --size 8m -- /bin/sh -c "sleep $MARK"
LIVE=$BG
wait_ok
cp "$ERR" "$ERR.live"
tool --name "tl-$$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=volume_exists: .*tl-$$"
expect_no_err '^SANDBOX DONE'
expect_no_err '^SANDBOX OK'
[ "$(pgrep -f "sleep $MARK" | wc -l)" -ge 1 ] || _fail "the live run was touched"
kill -TERM "$LIVE"
wait "$LIVE"
RC=$?
expect_rc 143
rm -f "$ERR.live"
gone "tl-$$"
EOF

t "$MODE: a command not on PATH: 127, the place still deleted and DONE" <<'EOF'
tool --name "tn-$$" --size 8m -- no-such-command-$$
expect_rc 127
expect_err '^SANDBOX REFUSED reason=not_found'
expect_err "^SANDBOX DONE name=tn-$$ exit=127 "
gone "tn-$$"
EOF

t "$MODE: a --read under /tmp is refused: the place hides /tmp; deleted, DONE" <<'EOF'
D=$(newdir)
tool --name "th-$$" --size 8m --read "$D" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: --read $D is under /tmp"
expect_err "^SANDBOX DONE name=th-$$ exit=125 "
gone "th-$$"
EOF

t "$MODE: handoff: regular files and a directory copied; OUT line" <<'EOF'
D=$(newdir)
tool --name "ho-$$" --size 8m --out "$D" -- /bin/sh -c \
	'echo result > RESULT.md; printf "a\tb\n" > usage.tsv'
expect_rc 0
expect_err "^SANDBOX OUT name=ho-$$ files=2 bytes=11\$"
expect_eq "$(cat "$D/ho-$$/RESULT.md")" "result" "RESULT.md"
expect_absent "$D/ho-$$/repo.bundle"
tool --name "hd-$$" --size 8m --out "$D" --artifact d -- /bin/sh -c \
	'mkdir -p d/e; echo 1 > d/x; echo 2 > d/e/y; mkfifo d/fifo; ln -s /etc/passwd d/link'
expect_rc 0
expect_err "^SANDBOX OUT name=hd-$$ files=2 bytes=4\$"
expect_present "$D/hd-$$/d/e/y"
expect_absent "$D/hd-$$/d/fifo"
expect_absent "$D/hd-$$/d/link"
gone "hd-$$"
EOF

t "$MODE: handoff: a planted link pointing outside is refused; exit 0 -> 125" <<'EOF'
D=$(newdir)
echo secret > "$D/secret"
mkdir "$D/o" && { [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$D/o"; }
tool --name "hl-$$" --size 8m --out "$D/o" --artifact evil -- /bin/sh -c \
	"ln -s $D/secret evil"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=out_failed: the artifact evil is not a regular file'
expect_err "^SANDBOX DONE name=hl-$$ exit=125 "
expect_eq "$(ls -A "$D/o")" "" "--out holds nothing"
expect_eq "$(cat "$D/secret")" "secret" "the link's target"
gone "hl-$$"
EOF

t "$MODE: handoff: out_failed leaves a non-zero exit alone" <<'EOF'
D=$(newdir)
tool --name "hn-$$" --size 8m --out "$D" --artifact missing -- /bin/sh -c 'exit 4'
expect_rc 4
expect_err '^SANDBOX REFUSED reason=out_failed: the artifact missing is not in the place'
gone "hn-$$"
EOF

t "$MODE: handoff: over --out-max-bytes refused before any byte is written" <<'EOF'
D=$(newdir)
tool --name "hc-$$" --size 8m --out "$D" --out-max-bytes 1k -- /bin/sh -c \
	'echo small > RESULT.md; head -c 4000 /dev/zero > usage.tsv'
expect_rc 125
expect_err '^SANDBOX REFUSED reason=out_failed: the artifacts hold 4006 bytes, over --out-max-bytes 1024'
expect_absent "$D/hc-$$"
gone "hc-$$"
EOF

done

# the validation cases: as the user, D an --out directory
D=$(newdir)
MODE=user

t "validation matrix: every problem at once, 125, the run-usage line, nothing created" <<'EOF'
tool --name '-x' --size 8% --timeout 0s --artifact ../a --out-max-bytes 1q \
	--max-procs 0 --max-mem 0 --container d1 --cpu 0 --scratch /s --bogus
expect_rc 125
for tok in no_name bad_size bad_timeout bad_artifact bad_out_max no_out \
	bad_max_procs bad_max_mem no_container bad_cpu bad_scratch no_command; do
	expect_err "^SANDBOX REFUSED reason=$tok: "
done
expect_err '^SANDBOX REFUSED reason=bad_flag: unknown flag --bogus; the flags of run are --name, --size, .*--toolchain, --protect, --unprotect; run: nova-sandbox help run$'
expect_err '^run: nova-sandbox run --name <n> --size <8g> '
expect_no_err '^SANDBOX (STEP|OK|DONE)'
EOF

t "validation: names, sizes, timeouts, artifacts one at a time" <<'EOF'
for bad in "--name a/b" "--name abcdefghijabcdefghijabcdefghij123" "--name .a" \
	"--size 0" "--size 8gg" "--size 1.2.3g" "--timeout 10" "--timeout 1d" \
	"--artifact /abs" "--artifact a/./b" "--artifact ."; do
	# shellcheck disable=SC2086
	set -- $bad
	args=(--name ok --size 1m --out "$D")
	case "$1" in
	--name) args=(--name "$2" --size 1m) ;;
	--size) args=(--name ok --size "$2") ;;
	--timeout) args=(--name ok --size 1m --timeout "$2") ;;
	--artifact) args=(--name ok --size 1m --out "$D" --artifact "$2") ;;
	esac
	tool "${args[@]}" -- /bin/true
	[ "$RC" = 125 ] || _fail "$bad: exit $RC"
	grep -q '^SANDBOX REFUSED reason=' "$ERR" || _fail "$bad: no refusal"
	! grep -qE '^SANDBOX (STEP|DONE)' "$ERR" || _fail "$bad: a step ran"
done
expect_absent "$D/ok"
EOF

t "--go: go env's existing roots become read roots (NOTE), absent ones skipped" <<'EOF'
G=$(mktemp -d "$NOVA_B/tests/run-go.XXXXXX")
chmod 755 "$G"
echo "$G" >> "$_DIRS"
printf '#!/bin/sh\necho %s\necho /nonexistent/modcache-%s\n' "$RD" "$$" > "$G/go"
chmod 755 "$G/go"
run_as env PATH="$G:/usr/bin:/bin" "$NS" run --name "tg-$$" --size 1m --go -- \
	/bin/cat "$RD/data"
expect_rc 0
expect_out '^read me$'
expect_err "^SANDBOX NOTE --go added 1 read root\(s\) from go env: $RD\$"
expect_err "^SANDBOX NOTE --go skipped 1 read root\(s\) from go env: /nonexistent/modcache-$$\$"
expect_err "^SANDBOX OK name=tg-$$ .* read=1 "
EOF

t "--go without go on PATH: bad_read naming --go, nothing created" <<'EOF'
run_as env PATH=/usr/bin:/bin "$NS" run --name "tg2-$$" --size 1m --go -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_read: --go could not run `go env GOROOT GOMODCACHE`'
expect_no_err '^SANDBOX (STEP|DONE)'
EOF

t "help: run -h prints the usage, nothing else, even with bad flags" <<'EOF'
MODE=user
tool --size bad -h
expect_rc 0
expect_out '^usage: nova-sandbox run --name <n> --size <8g>'
expect_out 'git bundle create'
expect_out 'repo\.bundle'
expect_out '--out-max-bytes'
expect_no_err .
EOF

if [ "$(id -u)" != 0 ]; then
	t "root: the root cases" <<'EOF'
	skip "root cases need root (run the suite as root)"
EOF
fi

# ---- issue 7: lifetime, caps, status lines (user mode) ------------------
MODE=user
HOG="$NOVA_B/tests/helpers/ns_memhog"

t "a fork bomb that hits --max-procs 50: RUNAWAY, 137 (not a timeout), no survivor" <<'EOF'
tool --name "fb-$$" --size 8m --max-procs 50 --timeout 30s -- /bin/bash -c \
	"f(){ f|f& }; f 2>/dev/null; sleep $MARK"
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ processes \(cap 50\); the process tree was killed$'
expect_err "^SANDBOX DONE name=fb-$$ exit=137 "
expect_no_err '^SANDBOX TIMEOUT'
gone "fb-$$"
EOF

t "memfd + fallocate past --max-mem 64m: RUNAWAY, 137" <<'EOF'
tool --name "mf-$$" --size 8m --max-mem 64m --timeout 30s -- "$HOG" memfd 200 20
expect_rc 137
expect_out '^held$'
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ bytes of memory \(cap 67108864\); the process tree was killed$'
gone "mf-$$"
EOF

t "control: the same memfd under --max-mem 1g runs to its end" <<'EOF'
tool --name "mc-$$" --size 8m --max-mem 1g -- "$HOG" memfd 200 2
expect_rc 0
expect_out '^held$'
expect_no_err 'RUNAWAY'
gone "mc-$$"
EOF

t "a tmpfs file in the place past --max-mem 64m: RUNAWAY, 137" <<'EOF'
tool --name "mt-$$" --size 512m --max-mem 64m --timeout 30s --read "$(dirname "$HOG")" -- /bin/sh -c \
	"$HOG file 200 20 \"\$TMPDIR/big\""
expect_rc 137
expect_out '^held$'
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ bytes of memory \(cap 67108864\)'
gone "mt-$$"
EOF

t "control: ordinary memory past --max-mem 64m is caught too" <<'EOF'
tool --name "ma-$$" --size 8m --max-mem 64m --timeout 30s -- "$HOG" anon 200 20
expect_rc 137
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ bytes of memory \(cap 67108864\)'
gone "ma-$$"
EOF

t "every line is whole: the keeper's refusal races the supervisor's STEP, 20 times" <<'EOF'
# the keeper refuses (not on PATH) right after it reports the place ready,
# while the supervisor prints create's state=done: both write to fd 2
for i in $(seq 20); do
	tool --name "gl$i-$$" --size 8m -- "no-such-command-$$"
	[ "$RC" = 127 ] || { _fail "try $i: exit $RC"; break; }
	bad=$(grep -cv '^SANDBOX ' "$ERR")
	[ "$bad" = 0 ] || { _fail "try $i: $bad line(s) not starting with SANDBOX"; break; }
	n=$(grep -c '^SANDBOX ' "$ERR")
	[ "$n" -ge 10 ] || { _fail "try $i: $n lines, some glued"; break; }
done
EOF

t "a refusal after create (--read under /tmp) still prints create's state=done" <<'EOF'
D=$(newdir)
tool --name "cd-$$" --size 8m --read "$D" -- /bin/true
expect_rc 125
expect_err '^SANDBOX STEP name=create state=done ms=[0-9]+$'
expect_err "^SANDBOX DONE name=cd-$$ exit=125 "
[ "$(grep -c '^SANDBOX STEP name=create state=done' "$ERR")" = 1 ] || _fail "create's state=done not once"
gone "cd-$$"
EOF

t "--status-fd: run's lines on the status fd only; the command cannot reach it" <<'EOF'
D=$(newdir)
SF="$D/status"
# a FIFO read by this script: a pipe reopened through the run's /proc would
# not be a path the wall denies
mkfifo "$D/status.fifo"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/status.fifo"
cat "$D/status.fifo" > "$SF" &
CAT=$!
run_as env HOME="$THOME" PATH=/usr/bin:/bin /bin/sh -c "exec \"\$0\" \"\$@\" 5>$D/status.fifo" "$NS" run \
	--status-fd 5 --name "sf-$$" --size 8m -- /bin/sh -c \
	'echo "SANDBOX DONE name=sf-'"$$"' exit=0 wall=0.001 freed=0" >&2; [ -e /proc/self/fd/5 ] && echo fd5-open || echo fd5-closed; for f in /proc/[0-9]*/fd/5; do echo via-proc 2>/dev/null >> "$f"; done; exit 4'
expect_rc 4
wait "$CAT"
expect_out '^fd5-closed$'
expect_no_err '^SANDBOX (STEP|OK|DONE name=sf-[0-9]+ exit=4)'
grep -q "^SANDBOX OK name=sf-$$ " "$SF" || _fail "the status fd lacks OK"
grep -q '^SANDBOX STEP name=create state=done' "$SF" || _fail "the status fd lacks the steps"
tail -n 1 "$SF" | grep -qE "^SANDBOX DONE name=sf-$$ exit=4 " || _fail "the status fd's last line is not DONE exit=4"
! grep -q 'wall=0.001' "$SF" || _fail "the command's line reached the status fd"
! grep -q 'via-proc' "$SF" || _fail "the command reopened the status fd through the run's /proc"
gone "sf-$$"
EOF

t "--status-fd refusals in run: validated with the other flags, nothing created" <<'EOF'
tool --status-fd 1 --name "sr-$$" --size 8m -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_status_fd: --status-fd wants an open, writable descriptor of 3 or above, got 1'
expect_no_err '^SANDBOX (STEP|DONE)'
EOF

# ---- issue 7: the memory cap when a member's descriptors cannot be read --
MODE=user
HOG="$NOVA_B/tests/helpers/ns_memhog"

t "a non-dumpable memfd + fallocate past --max-mem 64m: RUNAWAY, 137" <<'EOF'
# PR_SET_DUMPABLE 0 closes /proc/<pid>/fd to the tool: the count falls back
# to the machine's shared-memory growth (§5)
tool --name "nd-$$" --size 8m --max-mem 64m --timeout 30s -- "$HOG" nondump 128 20
expect_rc 137
expect_out '^held$'
expect_err '^SANDBOX RUNAWAY runaway: [0-9]+ bytes of memory \(cap 67108864\); the process tree was killed$'
expect_no_err '^SANDBOX TIMEOUT'
gone "nd-$$"
EOF

t "control: the same non-dumpable memfd outside the wall holds its memory" <<'EOF'
run_as "$HOG" nondump 128 0
expect_rc 0
expect_out '^held$'
EOF

t "an unknown run flag: bad_flag, run's flags and the nearest one, as the bare form's; nothing made" <<'EOF2'
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "uf-$$" --size 8m --net-dany --tiemout 3s -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_flag: unknown flag --net-dany; the flags of run are --name, .*; did you mean --net-deny\?; run: nova-sandbox help run$'
expect_err '^SANDBOX REFUSED reason=bad_flag: unknown flag --tiemout; .*; did you mean --timeout\?; run: nova-sandbox help run$'
expect_no_err '^SANDBOX (STEP|OK|DONE)'
expect_absent "/tmp/nova-uf-$$"
EOF2
