#!/bin/bash
# SPDX-License-Identifier: MIT
# t_inputs.sh -- inputs are never taken silently and always named (issue
# 29, items 4 and 9): a value flag given twice is refused naming both
# values (repeatable flags stay repeatable: the control); a missing /proc
# is named; a run-name directory the caller cannot write is named with its
# path; nsplace's uid and gid options are checked for every caller;
# --max-mem has a floor; egress plan checks --out before any DNS; out of
# file descriptors is its own cause, with the limit and `ulimit -n`.
source "$(dirname "$0")/lib.sh"

# the test user's run-name directory (spec section 13)
if [ -d "/run/user/$TUID" ]; then
	STATE_USER="/run/user/$TUID/nova-sandbox"
else
	STATE_USER="$THOME/.local/state/nova-sandbox"
fi
tool() { run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" "$@"; }

# ---- a value flag given twice ------------------------------------------------

t "run: --name, --size and --out given twice are refused naming both values; nothing runs" <<'EOF'
W=$(newdir); O=$(newdir)
tool run --name "in1-$$" --size 8m --out "$W" --out "$O" --name "in2-$$" --size 16m -- /bin/touch "$W/ran"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_flag: --out is given twice \($W, then $O\); name it once"
expect_err "^SANDBOX REFUSED reason=bad_flag: --name is given twice \(in1-$$, then in2-$$\); name it once"
expect_err "^SANDBOX REFUSED reason=bad_flag: --size is given twice \(8m, then 16m\); name it once"
expect_err "^SANDBOX NOTE one line fixes the 3 problems above that carry a fix; run: nova-sandbox run --name in1-$$ --size 8m --out $W -- /bin/touch $W/ran\$"
expect_absent "$W/ran"
EOF

t "control: run's repeatable flags (--read, --artifact) stay repeatable" <<'EOF'
O=$(newdir)
tool run --name "in3-$$" --size 8m --read /usr --read /etc --out "$O" --artifact a --artifact b -- /bin/sh -c ': > a; : > b'
expect_rc 0
expect_present "$O/in3-$$/a"
expect_present "$O/in3-$$/b"
EOF

t "the bare form: --cwd given twice is refused naming both; --read twice is not (the control)" <<'EOF'
W=$(newdir); mkdir -p "$W/home"; [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"
run_as env HOME="$W/home" PATH=/usr/bin:/bin "$NS" --write "$W" --cwd "$W" --cwd /usr -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_flag: --cwd is given twice \($W, then /usr\); name it once; run: nova-sandbox --write $W --cwd $W -- /bin/true\$"
run_as env HOME="$W/home" PATH=/usr/bin:/bin "$NS" --write "$W" --read /usr --read /etc --cwd "$W" -- /bin/true
expect_rc 0
expect_no_err 'REFUSED'
EOF

# ---- /proc and the run-name directory ----------------------------------------

t "no /proc: the refusal names /proc/self/exe and its error, not only 'cannot find its own binary'" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: unmounting /proc in a mount namespace of its own needs root"
run unshare -m sh -c 'umount -l /proc && exec "$0" --write /tmp -- /bin/true' "$NS"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=sandbox_failed: cannot find its own binary, beside which the module directory is: it reads /proc/self/exe, which cannot be read: is /proc mounted\? \(mount -t proc proc /proc\) \(No such file or directory\)'
EOF

# the test user's run in a mount namespace of its own whose run-name
# directory is a tmpfs of mode $1 (nothing of the machine's is changed)
run_in_state() {
	local mode=$1
	shift
	run unshare -m sh -c 'd=$0 m=$1 u=$2 g=$3; shift 3
		mount -t tmpfs -o "mode=$m,uid=$u,gid=$g,size=1m" nova-it "$d" &&
		exec setpriv --reuid="$u" --regid="$g" --clear-groups -- "$@"' \
		"$STATE_USER" "$mode" "$TUID" "$TGID" env HOME="$THOME" PATH=/usr/bin:/bin "$NS" "$@"
}

t "a run-name directory the caller cannot write: the lock file's path and the fix are named" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: a tmpfs over the run-name directory needs root"
[ -d "$STATE_USER" ] || run_as mkdir -p "$STATE_USER"
run_in_state 0500 run --name "in4-$$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=volume_failed: nsplace: cannot reserve the name in4-$$: its lock file $STATE_USER/in4-$$.lock cannot be made: Permission denied; make the run-name directory writable by you \(chmod u\+w $STATE_USER\)"
# the control: the same, writable
run_in_state 0700 run --name "in4-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=in4-$$ exit=0 "
EOF

# ---- nsplace's options, --max-mem --------------------------------------------

# a config of its own (safe: below the build directory) naming nsplace
conf_with() {
	C="$NOVA_B/conf-inputs-$$"
	mkdir -p -m 0755 "$C"
	at_end "rm -rf '$C'"
	printf '[linux]\nwall = landlock.so\nplace = nsplace.so\n[nsplace]\n%s\n' "$1" > "$C/c.conf"
	chmod 0644 "$C/c.conf"
}

for v in "uid = -5" "uid = 0" "gid = +7" "uid = 1x"; do
re=$(printf '%s' "$v" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
t "nsplace: '[nsplace] $v' is refused for a caller that is not root too" <<EOF
conf_with "$v"
run_as env HOME="\$THOME" PATH=/usr/bin:/bin NOVA_SANDBOX_CONFIG="\$C/c.conf" "\$NS" run --name "in5-\$\$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_config: nsplace: \[nsplace\] $re: the options uid and gid want a number 1\.\.2147483647"
expect_no_err 'SANDBOX OK'
EOF
done

t "control: '[nsplace] uid = 65534' is a valid option; a caller that is not root runs" <<'EOF'
conf_with "uid = 65534"
run_as env HOME="$THOME" PATH=/usr/bin:/bin NOVA_SANDBOX_CONFIG="$C/c.conf" "$NS" run --name "in6-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=in6-$$ exit=0 "
EOF

t "--max-mem below 16m is refused (a process tree needs that to start); 16m runs (the control)" <<'EOF'
for v in 1 1k 15m; do
	tool run --name "in7-$$" --size 8m --max-mem "$v" -- /bin/true
	expect_rc 125
	expect_err "^SANDBOX REFUSED reason=bad_max_mem: --max-mem wants at least 16m, the least a command's tree needs to start \(a shell, the C library, the tool's init\), got $v; run: nova-sandbox run --name in7-$$ --size 8m --max-mem '<n>g' -- /bin/true\$"
done
tool run --name "in7-$$" --size 8m --max-mem 16m -- /bin/sh -c 'echo started'
expect_rc 0
expect_out '^started$'
EOF

# ---- egress plan: --out before DNS -------------------------------------------

t "egress plan --out <a directory>: bad_out before any name is resolved; a file there gets past it (the control)" <<'EOF'
D=$(newdir)
printf 'github.com\napi.github.com\nobjects.githubusercontent.com\napi.anthropic.com\n' > "$D/pol.txt"
run "$NS" egress plan --run r1 --policy "$D/pol.txt" --resolver 192.0.2.53 --model-host api.anthropic.com --uid 1000 --out "$D"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_out: --out $D cannot be written: it is a directory; name a file"
expect_no_err 'EGRESS STEP name=resolve'
expect_no_err 'resolve_failed'
run "$NS" egress plan --run r1 --policy "$D/pol.txt" --resolver 192.0.2.53 --model-host api.anthropic.com --uid 1000 --out "$D/nope/p.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_out: --out $D/nope/p.nft cannot be written: its directory: No such file or directory"
expect_no_err 'EGRESS STEP name=resolve'
# the control: a file in an existing directory is not refused for --out
# (the resolver, a documentation address, may then not answer)
run timeout 60 "$NS" egress plan --run r1 --policy "$D/pol.txt" --resolver 192.0.2.53 --model-host api.anthropic.com --uid 1000 --out "$D/p.nft"
expect_no_err 'bad_out'
expect_err '^EGRESS STEP name=resolve state=start'
expect_eq "$(ls -A "$D")" "pol.txt" "nothing left beside --out"
EOF

# ---- out of file descriptors (item 4) ----------------------------------------

# the caller's line as the test user under `ulimit -n $1`, HOME inside $W
ulimited() {
	local n=$1
	shift
	run_as env HOME="$W/home" PATH=/usr/bin:/bin sh -c 'ulimit -n "$0" && exec "$@"' "$n" "$@"
}
fd_setup() {
	W=$(newdir)
	mkdir -p "$W/home"
	[ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"
}

t "ulimit -n 16: the bare wrap names EMFILE, the limit and ulimit -n, not 'out of memory' or a path" <<'EOF'
fd_setup
for n in 12 16 20; do
	ulimited "$n" "$NS" --write "$W" -- /bin/true
	expect_rc 125
	expect_err "^SANDBOX REFUSED reason=fd_limit: out of file descriptors: the tool could not make one it needs \(EMFILE: this process's limit, ulimit -n, is $n; .*; run: ulimit -n 1024 && nova-sandbox --write $W -- /bin/true\$"
	expect_eq "$(grep -c 'REFUSED' "$ERR")" 1 "the one cause, alone"
	expect_no_err 'out of memory|cannot be resolved|cannot be found|cannot be made'
done
# the control: the line it prints, pasted, runs
L=$(sed -n 's/^SANDBOX REFUSED reason=fd_limit: .*; run: //p' "$ERR")
run_as env HOME="$W/home" PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "$L"
expect_rc 0
expect_err '^SANDBOX DONE exit=0 '
EOF

t "ulimit -n 16: run names EMFILE, not --tmp, HOME or /bin/sh; 64 runs (the control)" <<'EOF'
fd_setup
ulimited 16 "$NS" run --name "in8-$$" --size 8m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=fd_limit: out of file descriptors: .*ulimit -n, is 16; .*; run: ulimit -n 1024 && nova-sandbox run --name in8-$$ --size 8m -- /bin/true\$"
expect_no_err 'reason=(bad_write|home_outside|not_found|not_executable|sandbox_failed)'
ulimited 64 "$NS" run --name "in8-$$" --size 8m -- /bin/true
expect_rc 0
expect_err "^SANDBOX DONE name=in8-$$ exit=0 "
EOF

t "2,000 --read /usr under ulimit -n 1024: fd_limit with ulimit -n 2048, not bad_write" <<'EOF'
fd_setup
A=()
for i in $(seq 2000); do A+=(--read /usr); done
ulimited 1024 "$NS" "${A[@]}" --write "$W" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=fd_limit: .*ulimit -n, is 1024; .*; run: ulimit -n 2048 && nova-sandbox --read /usr '
expect_no_err 'reason=bad_write'
EOF

# every other verb that makes descriptors: "<exit> <prefix> <limits>
# <the pasted line's exit> <verb line>"
FD_VERBS='2 PROBE 5,8,16 0 probe --write @W
2 CHECK 4,5 0 check
2 MODULES 4,5,7 0 modules
125 SANDBOX 4,5,6 0 reap
125 SANDBOX 4,8,10 0 run --name @N --size 8m -- /bin/true
2 WORKTREE 4,12 0 worktree --repo @W/repo --scratch @W/scratch --prune
2 EGRESS 4 - egress plan --run r1 --policy @W/egress.txt --model-host github.com --resolver 192.0.2.53 --uid 1000 --out @W/plan.nft'

t "a low ulimit -n: probe, check, modules, reap, run, worktree and egress name fd_limit with the limit and ulimit -n, not a wall 'not available', 'out of memory', a path or nothing at all; nothing made; control: the line it prints, pasted, runs" <<'EOF'
fd_setup
mkdir "$W/scratch" && git init -q "$W/repo" || _fail "git init"
printf 'github.com\n' > "$W/egress.txt"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$W/repo" "$W/scratch" "$W/egress.txt"
while read -r code pre limits okrc line; do
	line=${line//@W/$W}
	line=${line//@N/fdt-$$}
	for n in ${limits//,/ }; do
		# shellcheck disable=SC2086
		ulimited "$n" "$NS" $line
		expect_rc "$code"
		expect_err "^$pre REFUSED reason=[a-z_]+: out of file descriptors: the tool could not make one it needs \(EMFILE: this process's limit, ulimit -n, is $n; .*; run: ulimit -n 1024 && nova-sandbox $line\$"
		expect_err '(reason=fd_limit|\(fd_limit\); run:)'
		expect_eq "$(grep -c 'REFUSED' "$ERR")" 1 "$line at $n: the one cause, alone"
		expect_no_err 'out of memory|cannot be resolved|cannot be found|cannot be made|available=no|unsafe_owner_or_mode'
		expect_no_out '^(MODULE |MODULES OK|CHECK OK|PROBE STEP)'
	done
	# the control: the line it prints, pasted (egress plan's would ask
	# the resolver: none)
	[ "$okrc" = - ] && continue
	L=$(sed -n 's/^[A-Z]* REFUSED reason=[a-z_]*: out of file descriptors: .*; run: //p' "$ERR")
	[ -n "$L" ] || _fail "$line: no line to paste"
	run_as env HOME="$W/home" PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "$L"
	expect_rc "$okrc"
	expect_no_err 'fd_limit|REFUSED'
done <<<"$FD_VERBS"
expect_absent "$W/.nova-sandbox-tmp"
expect_absent "$W/plan.nft"
expect_eq "$(ls -A "$W/scratch")" "" "worktree made nothing"
EOF
