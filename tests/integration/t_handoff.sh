#!/bin/bash
# SPDX-License-Identifier: MIT
# t_handoff.sh -- `run --out` caps the entries and the depth of what it
# copies out, not only the bytes, measured before a byte is written: 20,000
# empty files (0 bytes, under every byte cap) and a deep directory chain are
# refused with out_failed naming the count and the flag, nothing written;
# a tree within the caps is copied whole.  As the test user.
source "$(dirname "$0")/lib.sh"

tool() {
	run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run "$@"
}

# files() N: make N empty files in work/many (the command, inside the run)
MANY='mkdir many && cd many && i=0; while [ $i -lt $0 ]; do : > f$i; i=$((i+1)); done'

t "20,000 empty files: out_failed naming the count and --out-max-files, nothing written" <<'EOF'
D=$(newdir)
tool --name "hf-$$" --size 64m --out "$D" --artifact many -- /bin/sh -c "$MANY" 20000
expect_rc 125
expect_err '^SANDBOX REFUSED reason=out_failed: the artifacts hold more than 10000 entries \(files and directories\), over --out-max-files 10000; nothing was copied'
expect_err "^SANDBOX DONE name=hf-$$ exit=125 "
expect_no_err '^SANDBOX OUT '
expect_absent "$D/hf-$$"
EOF

t "control: the same tree under a raised --out-max-files is copied" <<'EOF'
D=$(newdir)
tool --name "hg-$$" --size 64m --out "$D" --artifact many --out-max-files 20001 \
	-- /bin/sh -c "$MANY" 20000
expect_rc 0
expect_err "^SANDBOX OUT name=hg-$$ files=20000 bytes=0\$"
expect_eq "$(find "$D/hg-$$/many" -type f | wc -l)" 20000 "files copied"
EOF

t "a depth bomb (64 levels): out_failed naming --out-max-depth, nothing written" <<'EOF'
D=$(newdir)
tool --name "hd-$$" --size 8m --out "$D" --artifact deep -- /bin/sh -c \
	'mkdir deep && cd deep && i=0; while [ $i -lt 64 ]; do mkdir d && cd d; i=$((i+1)); done; echo x > leaf'
expect_rc 125
expect_err '^SANDBOX REFUSED reason=out_failed: the artifact path deep(/d)+ is deeper than --out-max-depth 32 \(components below work/\); nothing was copied'
expect_absent "$D/hd-$$"
EOF

t "a tree within the caps is copied whole (31 levels, files at each)" <<'EOF'
D=$(newdir)
tool --name "hk-$$" --size 8m --out "$D" --artifact deep -- /bin/sh -c \
	'mkdir deep && cd deep && i=0; while [ $i -lt 30 ]; do mkdir d && echo $i > f && cd d; i=$((i+1)); done; echo end > leaf'
expect_rc 0
expect_err "^SANDBOX OUT name=hk-$$ files=31 "
expect_present "$D/hk-$$/deep$(printf '/d%.0s' $(seq 30))/leaf"
EOF

t "the count flags are validated like the other run flags, nothing made" <<'EOF'
D=$(newdir)
tool --name "hv-$$" --size 8m --out "$D" --out-max-files 0 --out-max-depth 1x -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_out_max: --out-max-files wants a whole number 1\.\.16777216 like 10000, got 0'
expect_err '^SANDBOX REFUSED reason=bad_out_max: --out-max-depth wants a whole number 1\.\.255 like 32, got 1x'
expect_err '^run: nova-sandbox run --name <n> --size <8g> '
expect_no_err '^SANDBOX (STEP|OK|DONE)'
tool --name "hv-$$" --size 8m --out-max-files 5 -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_out: --artifact, --out-max-bytes, --out-max-files and --out-max-depth need --out <dir>'
expect_absent "$D/hv-$$"
EOF

t "two runs --out of one name: exactly the second run's files, no staging left" <<'EOF2'
D=$(newdir)
tool --name "hr-$$" --size 8m --out "$D" --artifact a --artifact RESULT.md -- /bin/sh -c \
	'mkdir a && echo one > a/first && echo run1 > RESULT.md'
expect_rc 0
expect_present "$D/hr-$$/a/first"
tool --name "hr-$$" --size 8m --out "$D" --artifact a -- /bin/sh -c \
	'mkdir a && echo two > a/second'
expect_rc 0
expect_err "^SANDBOX OUT name=hr-$$ files=1 "
expect_eq "$(cd "$D/hr-$$" && find . | sort | tr '\n' ' ')" ". ./a ./a/second " "the second run's files only"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "hr-$$ " "--out holds the one directory (no .nova-new/.nova-old left)"
EOF2

t "a failed handoff keeps the earlier run's files whole (nothing staged left)" <<'EOF2'
D=$(newdir)
tool --name "hx-$$" --size 8m --out "$D" -- /bin/sh -c 'echo run1 > RESULT.md'
expect_rc 0
tool --name "hx-$$" --size 8m --out "$D" --artifact missing -- /bin/sh -c 'echo run2 > RESULT.md'
expect_rc 125
expect_err '^SANDBOX REFUSED reason=out_failed: '
expect_eq "$(cat "$D/hx-$$/RESULT.md")" "run1" "the earlier files"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "hx-$$ " "nothing staged left"
EOF2

t "an earlier directory that cannot be moved aside: refused, said, nothing lost (root: a sticky --out)" <<'EOF2'
[ "$(id -u)" = 0 ] || skip "needs root to make an entry the test user may not rename"
D=$(mktemp -d /tmp/nova-it-sticky.XXXXXX)
at_end "rm -rf '$D'"
chmod 1777 "$D"
mkdir "$D/hs-$$" && echo old > "$D/hs-$$/RESULT.md"
tool --name "hs-$$" --size 8m --out "$D" -- /bin/sh -c 'echo new > RESULT.md'
expect_rc 125
expect_err "^SANDBOX REFUSED reason=out_failed: $D/hs-$$ holds an earlier run's artifacts and cannot be moved aside \(Operation not permitted\): nothing was replaced; this run's artifacts are in $D/\.hs-$$\.nova-kept-[0-9]+; run: rm -rf "
expect_eq "$(cat "$D/hs-$$/RESULT.md")" old "the earlier files stay"
expect_eq "$(cat "$D"/.hs-$$.nova-kept-*/RESULT.md)" new "this run's files are kept, staged"
# a later run leaves the kept copy alone (no sweep takes it)
tool --name "hs2-$$" --size 8m --out "$D" -- /bin/true
expect_rc 0
expect_eq "$(cat "$D"/.hs-$$.nova-kept-*/RESULT.md)" new "the kept copy after a later run"
EOF2

# ---- H1: the --out the hand-off writes is the one checked before the run --

t "H1: --out inside run's --write is refused up front, nothing run; control: the same run with an --out outside it hands off" <<'EOF2'
C=$(mktemp -d /var/tmp/nova-it-cache.XXXXXX)
at_end "rm -rf '$C'"
V=$(newdir)
mkdir "$C/out" "$V/h1-$$" && echo precious > "$V/h1-$$/file"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$C" "$V"
tool --name "h1-$$" --size 8m --write "$C" --out "$C/out" -- /bin/sh -c \
	"rm -rf '$C/out' && ln -s '$V' '$C/out' && echo new > RESULT.md"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_out: --out $C/out is inside --write $C: the command could replace it .*; name an --out outside every --write; run: nova-sandbox run --name h1-$$ --size 8m --write $C --out /[^ ]+ -- /bin/sh -c "
expect_no_err '^SANDBOX (STEP|OK)'
expect_eq "$(cat "$V/h1-$$/file")" precious "the victim's file"
[ -d "$C/out" ] && [ ! -L "$C/out" ] || _fail "--out was replaced: the command ran"
# control: --out outside the --write, the same command may not touch it
D=$(newdir)
tool --name "h1-$$" --size 8m --write "$C" --out "$D" -- /bin/sh -c "echo new > RESULT.md"
expect_rc 0
expect_eq "$(cat "$D/h1-$$/RESULT.md")" new "the hand-off"
EOF2

t "H1: --out an ancestor of run's --write is refused up front" <<'EOF2'
C=$(mktemp -d /var/tmp/nova-it-cache.XXXXXX)
at_end "rm -rf '$C'"
mkdir "$C/cache"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$C"
tool --name "h2-$$" --size 8m --write "$C/cache" --out "$C" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_out: --out $C is an ancestor of --write $C/cache: the command could replace it "
expect_no_err '^SANDBOX (STEP|OK)'
EOF2

t "H1: an --out replaced by a link while the command runs: the hand-off goes by the directory opened before, the link's target untouched; control: the moved directory holds the artifacts" <<'EOF2'
D=$(newdir)
V=$(newdir)
mkdir "$V/h3-$$" && echo precious > "$V/h3-$$/file"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$V"
( for _ in $(seq 100); do grep -q '^SANDBOX OK' "$ERR" 2>/dev/null && break; sleep 0.1; done
  mv "$D" "$D.moved" && ln -s "$V" "$D" ) &
SW=$!
at_end "rm -rf '$D.moved'"
tool --name "h3-$$" --size 8m --out "$D" -- /bin/sh -c "sleep 3; echo new > RESULT.md"
wait "$SW"
expect_rc 0
[ -L "$D" ] || _fail "the swap did not happen during the run"
expect_eq "$(cat "$V/h3-$$/file")" precious "the link target's file"
expect_absent "$V/h3-$$/RESULT.md"
expect_eq "$(cat "$D.moved/h3-$$/RESULT.md")" new "the artifacts, in the directory opened before the run"
EOF2

# ---- issue 29: --out is asked before anything runs ------------------------

t "an --out the user cannot write is refused before anything runs; control: a writable one hands off" <<'EOF'
D=$(newdir)
tool --name "hw-$$" --size 16m --out / -- /bin/sh -c "echo x > RESULT.md; touch '$D/ran'"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_out: --out / cannot take the hand-off: a directory cannot be made in it \(Permission denied\); nothing was run; run: nova-sandbox help run$'
expect_no_err '^SANDBOX (STEP|OK|DONE)'
expect_absent "$D/ran"
expect_eq "$(ls -A / | grep -c '\.nova-')" 0 "no check directory left in /"
tool --name "hw-$$" --size 16m --out "$D" -- /bin/sh -c 'echo x > RESULT.md'
expect_rc 0
expect_eq "$(cat "$D/hw-$$/RESULT.md")" x "the hand-off"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "hw-$$ " "no check directory left"
EOF

t "an --out without room for the hand-off's margin is refused before anything runs; control: a margin that fits" <<'EOF'
[ "$(id -u)" = 0 ] || skip "needs root to mount a small filesystem"
D=$(newdir)
mount -t tmpfs -o size=1m,mode=0777 none "$D" || _fail "mount"
at_end "umount '$D'"
tool --name "hm-$$" --size 16m --out "$D" -- /bin/sh -c 'echo x > RESULT.md'
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_out: --out $D has [0-9]+ bytes free, under the 16777216 the hand-off may write \(the smaller of --out-max-bytes and --size\); free some space or lower --out-max-bytes; nothing was run; run: nova-sandbox help run\$"
expect_no_err '^SANDBOX (STEP|OK|DONE)'
tool --name "hm-$$" --size 16m --out "$D" --out-max-bytes 512k -- /bin/sh -c 'echo x > RESULT.md'
expect_rc 0
expect_eq "$(cat "$D/hm-$$/RESULT.md")" x "the hand-off"
EOF

# ---- issue 29: what a killed hand-off left in --out is cleared -------------

# bg_as_user FILE CMD...: CMD in the background as the test user, its
# stdout and stderr to FILE; its pid in BG
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

# a pid that was ours and is gone
dead_pid() {
	local p
	/bin/true & p=$!
	wait "$p"
	echo "$p"
}

t "leftovers of gone hand-offs: the next run clears them, restores an only copy, leaves a live one's" <<'EOF'
D=$(newdir)
P=$(dead_pid)
mkdir -p "$D/hl-$$" "$D/.hl-$$.nova-new-$P/sub" "$D/.hl-$$.nova-old-$P" \
	"$D/.ho-$$.nova-old-$P" "$D/.hl-$$.nova-check-$P-r" "$D/.hv-$$.nova-new-$$"
echo current > "$D/hl-$$/RESULT.md"
echo partial > "$D/.hl-$$.nova-new-$P/sub/f"
echo older > "$D/.hl-$$.nova-old-$P/RESULT.md"
echo only > "$D/.ho-$$.nova-old-$P/RESULT.md"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$D"
tool --name "hn-$$" --size 8m --out "$D" -- /bin/sh -c 'echo new > RESULT.md'
expect_rc 0
expect_err "^SANDBOX NOTE --out $D: removed \.hl-$$\.nova-new-$P, left by a hand-off whose tool \(pid $P\) is gone\$"
expect_err "^SANDBOX NOTE --out $D: removed \.hl-$$\.nova-old-$P, "
expect_err "^SANDBOX NOTE --out $D: removed \.hl-$$\.nova-check-$P-r, "
expect_err "^SANDBOX NOTE --out $D: \.ho-$$\.nova-old-$P was the only copy left of the earlier $D/ho-$$, moved aside by a hand-off whose tool \(pid $P\) is gone: renamed back to $D/ho-$$\$"
expect_eq "$(ls -A "$D" | sort | tr '\n' ' ')" ".hv-$$.nova-new-$$ hl-$$ hn-$$ ho-$$ " "--out after the run"
expect_eq "$(cat "$D/hl-$$/RESULT.md")" current "the current copy"
expect_eq "$(cat "$D/ho-$$/RESULT.md")" only "the only copy, restored"
expect_eq "$(cat "$D/hn-$$/RESULT.md")" new "the run's own hand-off"
EOF

t "a tool SIGKILLed during the copy: reap finds its --out and clears the partial copy; control: the earlier copy stays" <<'EOF'
D=$(newdir)
mkdir "$D/hk-$$" && echo earlier > "$D/hk-$$/RESULT.md"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$D"
bg_as_user "$ERR.live" env PATH=/usr/bin:/bin "$NS" run --name "hk-$$" --size 300m \
	--out "$D" --out-max-bytes 300m --artifact big -- \
	/bin/sh -c 'head -c 200m /dev/zero > big'
LIVE=$BG
S=
while kill -0 "$LIVE" 2>/dev/null; do
	S=$(compgen -G "$D/.hk-$$.nova-new-*" | head -1)
	[ -n "$S" ] && break
done
S=${S##*/}
[ -n "$S" ] || _fail "the copy was not seen: $(cat "$ERR.live")"
PID=${S##*-}
kill -KILL "$PID"
{ wait "$LIVE"; } 2>/dev/null
for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
grep -q '^SANDBOX DONE' "$ERR.live" && _fail "the tool finished before the kill"
rm -f "$ERR.live"
expect_present "$D/$S"
run_as env PATH=/usr/bin:/bin "$NS" reap
expect_rc 0
expect_err "^SANDBOX REAP out=$D/$S pid=$PID deleted=yes\$"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "hk-$$ " "--out after reap"
expect_eq "$(cat "$D/hk-$$/RESULT.md")" earlier "the earlier copy"
run_as env PATH=/usr/bin:/bin "$NS" reap
expect_rc 0
expect_no_err '^SANDBOX REAP out='
EOF

# ---- issue 29: a stop signal during the hand-off --------------------------

t "SIGTERM, SIGINT and SIGHUP during the hand-off: the copy is finished, then exit 128+N with a NOTE" <<'EOF'
for sig in TERM INT HUP; do
	D=$(newdir)
	bg_as_user "$ERR.live" env PATH=/usr/bin:/bin "$NS" run --name "hg-$$" --size 300m \
		--out "$D" --out-max-bytes 300m --artifact big -- \
		/bin/sh -c 'head -c 200m /dev/zero > big'
	LIVE=$BG
	S=
	while kill -0 "$LIVE" 2>/dev/null; do
		S=$(compgen -G "$D/.hg-$$.nova-new-*" | head -1)
		[ -n "$S" ] && break
	done
	[ -n "$S" ] || _fail "SIG$sig: the copy was not seen"
	kill -"$sig" "${S##*-}"
	wait "$LIVE"
	RC=$?
	cp "$ERR.live" "$ERR"
	rm -f "$ERR.live"
	want=$((128 + $(kill -l "$sig")))
	expect_rc "$want"
	expect_err "^SANDBOX NOTE SIG$sig came after the command ended: the hand-off to --out \(the command's work\) and the delete were finished first, then the run stops with exit $want\$"
	expect_err "^SANDBOX OUT name=hg-$$ files=1 bytes=209715200\$"
	expect_err "^SANDBOX DONE name=hg-$$ exit=$want "
	expect_eq "$(stat -c %s "$D/hg-$$/big")" 209715200 "SIG$sig: the whole copy"
	expect_eq "$(ls -A "$D" | tr '\n' ' ')" "hg-$$ " "SIG$sig: --out holds the one copy"
	rm -rf "${D:?}/hg-$$"
done
EOF

t "a hand-off that fails writing into --out (filled during the run): the artifacts go to a fresh directory in HOME, said; nothing lost" <<'EOF'
[ "$(id -u)" = 0 ] || skip "needs root to mount a small filesystem"
D=$(newdir)
mount -t tmpfs -o size=1m,mode=0777 none "$D" || _fail "mount"
at_end "umount '$D'"
at_end "rm -rf '$THOME'/nova-out-hf-$$-*"
( for _ in $(seq 100); do grep -q '^SANDBOX OK' "$ERR" 2>/dev/null && break; sleep 0.1; done
  head -c 2m /dev/zero > "$D/fill" 2>/dev/null; : ) &
FILL=$!
tool --name "hf-$$" --size 16m --out "$D" --out-max-bytes 512k -- /bin/sh -c \
	'sleep 2; head -c 300000 /dev/zero > RESULT.md; echo x > usage.tsv'
wait "$FILL"
expect_rc 125
[ "$(stat -c %s "$D/fill")" -gt 900000 ] || _fail "--out was not filled during the run"
expect_err "^SANDBOX REFUSED reason=out_failed: writing RESULT.md: No space left on device; the artifacts were handed off to $THOME/nova-out-hf-$$-[0-9]+ instead \(files=2 bytes=300002\); run: nova-sandbox help run\$"
S=$(compgen -G "$THOME/nova-out-hf-$$-*" | head -1)
[ -n "$S" ] || _fail "no copy in HOME"
expect_eq "$(stat -c %s "$S/RESULT.md")" 300000 "the copy in HOME"
expect_eq "$(cat "$S/usage.tsv")" x "the copy in HOME"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "fill " "no stage left in --out"
EOF

t "a hand-off no directory takes (--out filled, HOME, /var/tmp and /tmp full): the place is kept open by a holder, a LEAK names where the work is; reap releases it" <<'EOF'
[ "$(id -u)" = 0 ] || skip "needs root to mount a small filesystem"
D=$(newdir)
mount -t tmpfs -o size=1m,mode=0777 none "$D" || _fail "mount"
at_end "umount '$D'"
( for _ in $(seq 100); do grep -q '^SANDBOX OK' "$ERR" 2>/dev/null && break; sleep 0.1; done
  head -c 2m /dev/zero > "$D/fill" 2>/dev/null; : ) &
FILL=$!
# in a mount namespace of its own: --out (D) at /mnt, a 64 KiB /var/tmp
# and /tmp (HOME beneath it), none of which takes a 300,000-byte file
unshare -m --propagation private /bin/sh -c '
	mount --bind "$1" /mnt &&
	mount -t tmpfs -o size=64k,mode=1777 none /var/tmp &&
	mount -t tmpfs -o size=64k,mode=1777 none /tmp &&
	mkdir /tmp/home && chown "$2:$3" /tmp/home || exit 99
	u=$2 g=$3
	shift 3
	exec setpriv --reuid="$u" --regid="$g" --clear-groups -- "$@"' \
	sh "$D" "$TUID" "$TGID" env HOME=/tmp/home PATH=/usr/bin:/bin "$NS" run \
	--name "hz-$$" --size 16m --out /mnt --out-max-bytes 512k -- /bin/sh -c \
	'sleep 2; head -c 300000 /dev/zero > RESULT.md; echo x > usage.tsv' \
	>"$OUT" 2>"$ERR" </dev/null
RC=$?
wait "$FILL"
P=$(sed -n 's|^SANDBOX NOTE the place was kept: .*, and process \([0-9]*\) .*|\1|p' "$ERR")
[ -z "$P" ] || at_end "kill -KILL $P 2>/dev/null"
expect_rc 3
expect_err "^SANDBOX REFUSED reason=out_failed: writing RESULT.md: No space left on device; no other directory \(HOME, /var/tmp, /tmp\) could take the artifacts either: the place is kept with them \(the LEAK line below\); run: nova-sandbox help run\$"
expect_err "^SANDBOX DONE name=hz-$$ exit=125 .* freed=0\$"
expect_err "^SANDBOX LEAK name=hz-$$ volume=[^ ]+ remedy=\"nova-sandbox reap\"\$"
[ -n "$P" ] || _fail "no process named as the place's holder"
expect_err "copy what you need from /proc/$P/cwd/work \(cp -a /proc/$P/cwd/work <dir>\), then run the remedy \(nova-sandbox reap releases it\)\$"
expect_eq "$(ls -A "$D" | tr '\n' ' ')" "fill " "no stage left in --out"
run_as stat -c %s "/proc/$P/cwd/work/RESULT.md"
expect_eq "$(cat "$OUT")" 300000 "the work, read by the caller through the holder"
run_as cat "/proc/$P/cwd/work/usage.tsv"
expect_eq "$(cat "$OUT")" x "the work, read by the caller through the holder"
run_as env PATH=/usr/bin:/bin "$NS" reap --dry-run
expect_rc 3
expect_err "^SANDBOX REAP kept=hz-$$ pid=$P released=no\$"
kill -0 "$P" || _fail "reap --dry-run stopped the holder"
run_as env PATH=/usr/bin:/bin "$NS" reap
expect_rc 0
expect_err "^SANDBOX REAP kept=hz-$$ pid=$P released=yes\$"
case $(ps -o stat= -p "$P") in ""|Z*) ;; *) _fail "the holder outlived reap" ;; esac
run_as ls "/proc/$P/cwd/work"
[ "$RC" != 0 ] || _fail "the place is still reachable after reap"
run_as env PATH=/usr/bin:/bin "$NS" reap
expect_rc 0
expect_no_err '^SANDBOX REAP kept='
EOF
