#!/bin/bash
# SPDX-License-Identifier: MIT
# t_seatbelt.sh -- the macOS wall (seatbelt.dylib's portable core, built
# here as the test artifact $NOVA_B/tests/modules/seatbelt.so) through the
# real host on Linux: [linux] wall = that file, [seatbelt] sandbox_exec and
# log = the fakes in modules/seatbelt/tests/fakes/.  The fake sandbox-exec
# checks the profile (balanced, no -D value in its text, every param
# defined) and enforces its file parameters with Landlock (ns_llexec), so a
# write outside the profile's write roots is really denied here; the fake
# log replays recorded violation shapes.  This is the darwin FLOW on Linux:
# what a real Mac enforces is docs/MACOS.md's checklist, not this file.
source "$(dirname "$0")/lib.sh"

SRC=$(cd "$(dirname "$0")/../../modules/seatbelt/tests/fakes" && pwd)
ASRC=$(cd "$(dirname "$0")/../../modules/apfsvol/tests/fakes" && pwd)
SB="$NOVA_B/tests/modules/seatbelt.so"
S=$(mktemp -d "$NOVA_B/t_seatbelt.XXXXXX")  # root-owned: config + tools
chmod 755 "$S"
echo "$S" >> "$_DIRS"
mkdir -m 755 "$S/bin"
install -m 0755 "$SRC/sandbox-exec" "$SRC/log" "$ASRC/diskutil" \
	"$ASRC/lsof" "$ASRC/ps" "$S/bin/"
install -m 0644 "$SRC/denials.ndjson" "$S/"
W=$(newdir)      # the test user's: state, logs, the write root
cat > "$S/c.conf" <<CONF
[linux]
wall = $SB
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

fresh() {
	rm -rf "$W/st" "$W/job" "$W/outside" "$W/vol" "$W/astate" "$W/sb.log" \
		"$W/log.calls" "$W/secret"
	mkdir -m 755 "$W/st" "$W/job" "$W/outside" "$W/vol" "$W/astate" "$W/secret"
	echo key > "$W/secret/key"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
	export FAKE_SB_STATE="$W/st" FAKE_SB_LOG="$W/sb.log"
	export FAKE_LOG_CALLS="$W/log.calls" FAKE_LOG_DIR="$W"
	export FAKE_APFS_VOLUMES="$W/vol" FAKE_APFS_STATE="$W/astate"
	export FAKE_APFS_LOG="$W/alog"
	unset FAKE_SB_FAIL FAKE_LOG_REPLAY FAKE_LOG_FAIL
}
wrap() { run_as env HOME="$W/job" "$NS" "$@"; }

t "modules: seatbelt is a helper-shaped wall, available with its tool" <<'EOF'
fresh
run_as "$NS" modules
expect_rc 0
expect_out "^MODULE role=wall file=$SB .* name=seatbelt .* roles=wall shape=helper available=yes"
EOF

t "modules: without its helper the wall is not available, and says why" <<'EOF'
fresh
sed "s|^sandbox_exec = .*|sandbox_exec = $S/bin/absent|" "$S/c.conf" > "$S/c2.conf"
chmod 644 "$S/c2.conf"
NOVA_SANDBOX_CONFIG="$S/c2.conf" run_as "$NS" modules
expect_rc 1
expect_out "name=seatbelt .* available=no why=.*absent.*sandbox-exec"
EOF

t "wrap: OK line, the command runs, exit passes through, DONE" <<'EOF'
fresh
wrap --write "$W/job" -- /bin/sh -c 'echo hi > "$HOME/f"; exit 3'
expect_rc 3
expect_err '^SANDBOX OK backend=seatbelt '
expect_err '^SANDBOX DONE exit=3 cmd=dash$'
expect_eq "$(cat "$W/job/f")" hi "written inside"
# the preflight (true) and the command, each through the fake
expect_eq "$(sed 's/params=.*cmd=/cmd=/' "$W/sb.log")" "$(printf 'cmd=/usr/bin/true\ncmd=/usr/bin/dash')" "helper calls"
EOF

t "wrap: a SIGHUP the caller ignored stays ignored by the command (nohup; rule 12)" <<'EOF'
fresh
run_as env HOME="$W/job" /bin/sh -c 'trap "" HUP; exec "$0" --write "$1" -- /bin/sh -c "kill -HUP \$\$; echo survived"' "$NS" "$W/job"
expect_rc 0
expect_out '^survived$'
EOF

t "wrap: a write outside the write roots is denied (control: allowed unwalled)" <<'EOF'
fresh
run_as /bin/sh -c "echo x > '$W/outside/control'"
expect_rc 0
expect_present "$W/outside/control"
wrap --write "$W/job" -- /bin/sh -c "echo x > '$W/outside/new.txt'"
expect_rc 2
expect_absent "$W/outside/new.txt"
EOF

t "wrap: every path is a -D parameter, realpath'd, never in the profile" <<'EOF'
fresh
# (the host refuses '"' and '\' in any path, on every platform: the
# module's own suite passes those through as parameters)
d="$W/job/a ) (allow default) ( b"
mkdir -p "$d" "$W/real"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
# a link the command's user could not have made is followed (rule 5): as
# root, root's link in root's dir; as a user, the system's /bin -> usr/bin
if [ "$(id -u)" = 0 ]; then
	ln -sfn "$W/real" "$S/link"
	link="$S/link" real="$W/real"
else
	link=/bin real=$(realpath /bin)
	[ -L /bin ] || skip "no root-owned directory link here (/bin is no link)"
fi
wrap --write "$W/job" --read "$d" --read "$link" -- /bin/sh -c 'exit 0'
expect_rc 0
grep -qF "=$d" "$W/st/params" || _fail "the hostile dir is no -D value"
grep -qF "=$real" "$W/st/params" || _fail "the link is not resolved"
grep -qE "=$link\$" "$W/st/params" && _fail "the link's own name was passed"
grep -q / "$W/st/profile" && _fail "a path is in the profile text"
grep -q '^(deny default' "$W/st/profile" || _fail "no deny default"
EOF

t "wrap: a newline in a path is refused before anything runs" <<'EOF'
fresh
d="$W/job/a
b"
mkdir -p "$d"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
wrap --write "$W/job" --read "$d" -- /bin/true
expect_rc 125
expect_err 'REFUSED reason='
expect_no_err '^SANDBOX OK'
[ -s "$W/sb.log" ] && _fail "sandbox-exec ran"
EOF

t "wrap: a profile that does not compile is sandbox_failed, command not run" <<'EOF'
fresh
export FAKE_SB_FAIL=syntax
wrap --write "$W/job" -- /bin/sh -c 'touch "$HOME/ran"'
expect_rc 125
expect_err '^SANDBOX REFUSED reason=sandbox_failed: sandbox-exec did not compile the generated profile \(exit 65\).*preflight, exit 65.*sandbox-exec: syntax error'
expect_no_err '^SANDBOX OK'
expect_absent "$W/job/ran"
EOF

t "wrap: sandbox_apply failure is sandbox_failed" <<'EOF'
fresh
export FAKE_SB_FAIL=apply
wrap --write "$W/job" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=sandbox_failed: sandbox-exec could not apply the profile \(exit 71'
EOF

t "wrap: inside another sandbox is nested_sandbox, not a missing backend" <<'EOF'
fresh
export FAKE_SB_FAIL=nested
wrap --write "$W/job" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=nested_sandbox: nova-sandbox runs inside another seatbelt sandbox'
expect_no_err 'no_sandbox'
EOF

t "wrap: a failing command gets the log's denials as SANDBOX DENIED lines" <<'EOF'
fresh
export FAKE_LOG_REPLAY="$S/denials.ndjson"
wrap --write "$W/job" -- /bin/sh -c "echo x > '$W/outside/new.txt'"
expect_rc 2
expect_err "^SANDBOX DENIED path=$W/outside/new.txt op=create remedy=\"--write $W/outside\"$"
expect_err "^SANDBOX DENIED path=$W/secret/key op=read remedy=\"--read $W/secret\"$"
# a connect without --net-deny: no flag grants it, counted, not listed
expect_err '^SANDBOX NOTE 1 denied path no flag can grant, not listed .*: 192\.0\.2\.7:443 connect$'
expect_no_err 'Cookies'
expect_eq "$(grep -c 'DENIED path=.*new.txt' "$ERR")" 1 "one line for the repeated denial"
expect_eq "$(wc -l < "$W/log.calls")" 1 "log queried once"
grep -q '^show start=[0-9-]* [0-9:]* end=[0-9-]* [0-9:]* predicate=subsystem == "com.apple.sandbox.reporting" AND category == "violation"$' "$W/log.calls" || _fail "log call: $(cat "$W/log.calls")"
EOF

t "wrap: an empty log is said honestly, never as 'no denials'" <<'EOF'
fresh
wrap --write "$W/job" -- /bin/sh -c 'exit 1'
expect_rc 1
expect_err '^SANDBOX NOTE seatbelt: the unified log holds no sandbox violation for this run; macOS 26 logs none'
expect_no_err 'DENIED'
EOF

t "wrap: an unreadable log is a NOTE, the exit code stays the command's" <<'EOF'
fresh
export FAKE_LOG_FAIL=1
wrap --write "$W/job" -- /bin/sh -c 'exit 4'
expect_rc 4
expect_err "^SANDBOX NOTE seatbelt: could not read the unified log with $S/bin/log \(exit 1: log: Could not open the log store\)"
EOF

t "wrap: a successful command reads no log" <<'EOF'
fresh
export FAKE_LOG_REPLAY="$S/denials.ndjson"
wrap --write "$W/job" -- /bin/true
expect_rc 0
expect_no_err 'DENIED|unified log'
[ -s "$W/log.calls" ] && _fail "log was queried"
EOF

t "policy: prints the SBPL profile and its parameters, runs nothing" <<'EOF'
fresh
wrap policy --write "$W/job" --net-deny --net-allow localhost:8080 -- /bin/true
expect_rc 0
head -1 "$OUT" | grep -qx '(version 1)' || _fail "not a profile: $(head -1 "$OUT")"
expect_out '^\(deny default \(with message "nova-sandbox"\)\)$'
expect_out '^\(allow network-outbound \(remote ip "localhost:8080"\)\)$'
expect_out "^;   W[0-9]+=$W/job\$"
expect_err '^POLICY OK backend=seatbelt read=0 read-noexec=0 write=1 bytes=[0-9]+ gpu=none protected=-$'
[ -s "$W/sb.log" ] && _fail "policy ran sandbox-exec"
wrap policy --write "$W/job" --net-deny --net-allow localhost:8080 -- /bin/true
cmp -s "$OUT" "$OUT.1" 2>/dev/null; cp "$OUT" "$W/p2"
wrap policy --write "$W/job" --net-deny --net-allow localhost:8080 -- /bin/true
cmp -s "$OUT" "$W/p2" || _fail "not byte-identical"
EOF

# ABI 1.4 protected paths: the profile the fake sandbox-exec is handed.
# These go through the CLI (--protect, the default .git) and need the host
# side of issue 23 part 2; the fake cannot enforce a denial inside a write
# root (Landlock cannot subtract), so what a real Mac keeps is docs/MACOS.md's
# checklist, and the hostile names are in the module's own suite.
# the profile's line numbers: of the last allow, and of each P deny
protect_order() {
	awk '/^\(allow /{a = NR} /^\(deny file-write\* file-link/{d = d " " NR}
		END { print a ":" d }' "$1"
}

t "module: hostile protected names reach sandbox-exec as parameters only" <<'EOF'
fresh
# the host refuses '"' and '\' in a path; the module is driven directly
# (ns_walldrive: a hand-built policy) so the fake sandbox-exec sees them:
# it fails 66 on any -D value in the text, 65 on unbalanced parentheses
q="$W/job/q\"uote" b="$W/job/back\\slash" x="$W/job/a\")) (allow default) ((\""
mkdir -p "$q" "$b" "$x"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
cd "$W/job"
run_as env HOME="$W/job" "$H/ns_walldrive" "$SB" -o "sandbox_exec=$S/bin/sandbox-exec" \
	-o "log=$S/bin/log" -w "$W/job" -p "$q" -p "$b" -p "$x" -- /bin/true
expect_rc 0
expect_no_err 'INJECTION|REFUSED|syntax'
for v in "$q" "$b" "$x"; do
	grep -F "=$v" "$W/st/params" | grep -q '^P[0-9]*=' ||
		_fail "$v is no P -D value"
done
grep -q '^(allow default)' "$W/st/profile" && _fail "the profile was broken out of"
grep -c '^(deny file-write\* file-link' "$W/st/profile" > "$W/n"
expect_eq "$(cat "$W/n")" 3 "protected denies"
EOF

t "module: a protected name with a newline is protect_unavailable" <<'EOF'
fresh
n="$W/job/new
line"
mkdir -p "$n"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
cd "$W/job"
run_as env HOME="$W/job" "$H/ns_walldrive" "$SB" -o "sandbox_exec=$S/bin/sandbox-exec" \
	-o "log=$S/bin/log" -w "$W/job" -p "$n" -- /bin/true
expect_rc 125
expect_err '^DRIVE REFUSED reason=protect_unavailable: the protected path'
expect_err 'name it with --unprotect '
[ -s "$W/sb.log" ] && _fail "sandbox-exec ran"
EOF

t "wrap: --protect is a deny after every allow, its path a -D parameter" <<'EOF'
fresh
mkdir -p "$W/job/keep/hooks" && echo cfg > "$W/job/gitfile"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
wrap --write "$W/job" --protect "$W/job/keep" --protect "$W/job/gitfile" \
	-- /bin/true
expect_rc 0
expect_err '^SANDBOX OK backend=seatbelt .*protected='
p=$(grep -E "^P[0-9]+=$W/job/keep\$" "$W/st/params" | cut -d= -f1)
f=$(grep -E "^P[0-9]+=$W/job/gitfile\$" "$W/st/params" | cut -d= -f1)
[ -n "$p" ] && [ -n "$f" ] || _fail "a protected path is no P parameter"
grep -qxF "(deny file-write* file-link (literal (param \"$p\")) (subpath (param \"$p\")))" \
	"$W/st/profile" || _fail "no subpath deny for the directory"
grep -qxF "(deny file-write* file-link (literal (param \"$f\")))" \
	"$W/st/profile" || _fail "no literal deny for the file"
o=$(protect_order "$W/st/profile")
for d in ${o#*:}; do
	[ "$d" -gt "${o%%:*}" ] || _fail "a deny before the last allow ($o)"
done
grep -q / "$W/st/profile" && _fail "a path is in the profile text"
EOF

t "wrap: the .git at the top of a --write is denied by default" <<'EOF'
fresh
mkdir -p "$W/job/.git/hooks"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
wrap --write "$W/job" --cwd "$W/job" -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK backend=seatbelt .*protected=[^ ]*$W/job/\\.git"
grep -qE "^P[0-9]+=$W/job/\.git\$" "$W/st/params" ||
	_fail "the default .git is no P parameter"
EOF

t "probe: all 5 steps pass through the helper" <<'EOF'
fresh
wrap probe --write "$W/job" --secret "$W/secret/key"
expect_rc 0
expect_out '^PROBE STEP name=write_outside_control expect=allow got=allow '
expect_out '^PROBE STEP name=write_outside expect=deny got=deny '
expect_out '^PROBE STEP name=read_secret expect=deny got=deny '
expect_out '^PROBE STEP name=write_inside expect=allow got=allow '
expect_out '^PROBE STEP name=read_root expect=allow got=allow '
expect_out '^PROBE OK backend=seatbelt abi=- steps=5 passed=5 '
EOF

t "probe: a helper that enforces nothing fails the probe (the control)" <<'EOF'
fresh
unset FAKE_SB_LLEXEC
wrap probe --write "$W/job" --secret "$W/secret/key"
expect_rc 1
expect_err 'PROBE REFUSED reason=check: write_outside expected deny and got allow'
EOF

t "gpu: metal records intent, runs the probe under the wall, widens nothing" <<'EOF'
fresh
cat > "$W/job/python3" <<'PY'
#!/bin/sh
echo "RuntimeError: [metal::load_device] No Metal device available" >&2
exit 1
PY
chmod 755 "$W/job/python3"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
wrap --write "$W/job" --gpu metal -- "$W/job/python3"
expect_rc 1
expect_err "^SANDBOX NOTE gpu=metal probe \($W/job/python3, under this wall\): no_metal_device: RuntimeError: \[metal::load_device\] No Metal device available; "
expect_err '^SANDBOX OK .* gpu=metal '
expect_eq "$(grep -c 'cmd=' "$W/sb.log")" 3 "preflight, probe, command"
cp "$W/st/profile" "$W/metal.sb"
wrap --write "$W/job" --gpu none -- /bin/true
expect_eq "$(diff "$W/metal.sb" "$W/st/profile" | grep -c '^[<>]')" 2 "profiles differ by the gpu comment only"
diff "$W/metal.sb" "$W/st/profile" | grep -q '^< ; gpu metal: intent recorded' || _fail "no gpu line"
EOF

t "gpu: the taxonomy from the child's own output (package discovery, ok)" <<'EOF'
fresh
printf '#!/bin/sh\necho "ModuleNotFoundError: No module named '"'"'mlx'"'"'" >&2\nexit 1\n' > "$W/job/python3"
chmod 755 "$W/job/python3"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
wrap --write "$W/job" --gpu metal -- "$W/job/python3"
expect_err 'gpu=metal probe .*: package_discovery_failed: ModuleNotFoundError'
printf '#!/bin/sh\necho NOVA_GPU_OK 8.0\n' > "$W/job/python3"
wrap --write "$W/job" --gpu metal -- "$W/job/python3"
expect_err 'gpu=metal probe .*: ok: NOVA_GPU_OK 8.0'
EOF

t "run: apfsvol + seatbelt through the same flow, volume gone" <<'EOF'
fresh
# the fake sandbox-exec runs with the command's environment, which run
# starts clean: its own variables are passed by name
run_as "$NS" run --name sb1 --size 8m --env FAKE_SB_LLEXEC --env FAKE_SB_STATE \
	--env FAKE_SB_LOG -- /bin/sh -c \
	'echo hi > f && [ "$(cat f)" = hi ] && [ "$PWD" = '"$W"'/vol/nova-sb1/work ] && ! touch '"$W"'/outside/escape'
expect_rc 0
expect_err '^SANDBOX STEP name=create state=done '
expect_err '^SANDBOX OK name=sb1 place=apfsvol backend=seatbelt '
expect_err '^SANDBOX DONE name=sb1 exit=0 '
expect_no_err 'LEAK|REFUSED'
expect_absent "$W/vol/nova-sb1"
expect_absent "$W/outside/escape"
grep -q "cmd=/usr/bin/dash" "$W/sb.log" || _fail "the command did not go through sandbox-exec"
EOF

t "check: the seatbelt clause says where denials come from, honestly" <<'EOF2'
fresh
run_as "$NS" check
expect_rc 0
expect_out '^CHECK OK backend=seatbelt abi=- net=enforceable .*note=seatbelt: an SBPL profile through .*sandbox-exec \(every path a -D parameter\); denials from the unified log after a failing command, which may hold none'
EOF2

t "wrap: --explain is explain_unavailable (the log is read anyway)" <<'EOF2'
fresh
wrap --explain --write "$W/job" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=explain_unavailable: --explain: the wall seatbelt cannot name'
[ -s "$W/sb.log" ] && _fail "sandbox-exec ran"
EOF2
