#!/bin/bash
# SPDX-License-Identifier: MIT
# t_conv.sh -- the conveniences of issue 15, as the test user: the temp
# directory the tool made is removed after the tree is dead (rule 8a),
# --toolchain (rule 3a), policy --json's rules, run --net-deny and run's
# --write cache directory.  Each with its control.
source "$(dirname "$0")/lib.sh"

setup() {
	W=$(newdir)
	mkdir "$W/home" && { [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"; }
}
wrap() {
	run_as env HOME="$W/home" PATH=/usr/bin:/bin "$NS" "$@"
}

# ---- rule 8a: the temp directory ----------------------------------------

t "the temp directory the tool made is removed once the tree is dead, its contents and a straggler's too" <<'EOF2'
setup
wrap --write "$W" -- /bin/sh -c 'echo x > "$TMPDIR/f"; mkdir "$TMPDIR/d"; echo y > "$TMPDIR/d/g"; test -d "$TMPDIR" && echo "made $TMPDIR"; (sleep 1; echo late > "$TMPDIR/late") & exit 0'
expect_rc 0
expect_out "^made $W/.nova-sandbox-tmp\$"
expect_absent "$W/.nova-sandbox-tmp"
EOF2

t "control: a temp directory that existed before is left, with what is in it" <<'EOF2'
setup
mkdir "$W/.nova-sandbox-tmp" && echo keep > "$W/.nova-sandbox-tmp/old"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$W/.nova-sandbox-tmp"
wrap --write "$W" -- /bin/sh -c 'echo x > "$TMPDIR/new"'
expect_rc 0
expect_eq "$(cat "$W/.nova-sandbox-tmp/old")" keep "the earlier file"
expect_present "$W/.nova-sandbox-tmp/new"
EOF2

t "a temp directory the command replaced by a link is not followed: the link's target stays" <<'EOF2'
setup
V=$(newdir)
echo precious > "$V/file"
wrap --write "$W" --write "$V" -- /bin/sh -c 'rm -rf "$TMPDIR" && ln -s '"$V"' "$TMPDIR"'
expect_rc 0
expect_err '^SANDBOX NOTE the temp directory .* is no longer the directory the tool made'
expect_eq "$(cat "$V/file")" precious "the link's target is untouched"
EOF2

t "policy makes no temp directory that outlives it" <<'EOF2'
setup
wrap policy --write "$W" -- /bin/true
expect_rc 0
expect_absent "$W/.nova-sandbox-tmp"
EOF2

# ---- rule 3a: --toolchain ------------------------------------------------
# Real toolchains where this machine has them for the test user
# (/usr/bin/python3 with a venv, /usr/bin/node, /usr/bin/cc); go and rust
# are not installed for the test user here, so fakes on PATH stand in for
# them (scripts that answer as go env and rustc --print sysroot do), and
# the absent case is a PATH without them.

# fake TOOL DIR ANSWER...: an executable DIR/TOOL printing each ANSWER
fake() {
	local tool=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	{ echo '#!/bin/sh'; for a in "$@"; do printf 'echo %s\n' "$a"; done; } > "$dir/$tool"
	chmod 755 "$dir" "$dir/$tool"
}

t "--toolchain go: go env's roots become read roots (a NOTE each), never write roots; control without it" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot/src" "$G/modcache" && echo pkg > "$G/goroot/src/p.go"
fake go "$G/bin" "$G/goroot" "$G/modcache"
chmod -R a+rX "$G"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/sh -c \
	"cat '$G/goroot/src/p.go'; echo x > '$G/goroot/src/new' && echo WROTE"
expect_err "^SANDBOX NOTE --toolchain go \\($G/bin/go\\) adds the read root\\(s\\): $G/goroot $G/modcache; never a write root\$"
expect_out '^pkg$'
expect_no_out '^WROTE$'
expect_absent "$G/goroot/src/new"
expect_err '^SANDBOX OK .* read=2 '
# control: without --toolchain the same read is denied
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" -- /bin/cat "$G/goroot/src/p.go"
expect_no_out '^pkg$'
expect_rc 1
EOF2

t "--toolchain go without go on PATH: bad_toolchain naming it, nothing made" <<'EOF2'
setup
wrap --write "$W" --toolchain go --toolchain cobol -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_toolchain: --toolchain wants go, python, node, rust or c, got cobol; run: nova-sandbox --write [^ ]+ --toolchain go -- /bin/true$'
wrap --write "$W" --toolchain go -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: go is not on PATH /usr/bin:/bin; install it \(or put it on PATH\), or leave out --toolchain go and name its directories with --read'
expect_absent "$W/.nova-sandbox-tmp"
expect_no_err '^SANDBOX OK'
EOF2

t "--toolchain go that hangs is killed after 10 s and refused" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/bin" && printf '#!/bin/sh\nexec sleep 60\n' > "$G/bin/go" && chmod 755 "$G/bin/go"
start=$(date +%s)
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: $G/bin/go did not answer within 10 s; "
took=$(( $(date +%s) - start ))
[ "$took" -lt 30 ] || _fail "the timeout took ${took}s"
EOF2

# the test user's state directory, as the tool finds it (spec §13)
state_dir() {
	local r=/run/user/$TUID
	if [ -d "$r" ] && [ "$(stat -c %u "$r")" = "$TUID" ]; then
		echo "$r/nova-sandbox"
	else
		echo "$(getent passwd "$TUID" | cut -d: -f6)/.local/state/nova-sandbox"
	fi
}

t "--toolchain node: the answers are kept; a second call runs no tool; a changed node is asked again, and npm after it" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/bin" "$G/prefix" "$G/count"
[ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$G/count"
# a node that counts its calls and answers a prefix; an npm that counts
# and fails (as an npm that refuses its config does)
printf '#!/bin/sh\necho x >> %s/count/node\necho %s/prefix\n' "$G" "$G" > "$G/bin/node"
printf '#!/bin/sh\necho x >> %s/count/npm\nexit 1\n' "$G" > "$G/bin/npm"
chmod 755 "$G/bin" "$G/bin/node" "$G/bin/npm"
calls() { echo "$(cat "$G/count/node" 2>/dev/null | wc -l) $(cat "$G/count/npm" 2>/dev/null | wc -l)"; }
node_wrap() {
	run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain node -- /bin/true
	expect_rc 0
	expect_err "^SANDBOX NOTE --toolchain node \\($G/bin/node\\) adds the read root\\(s\\): $G/prefix; never a write root\$"
}
node_wrap
expect_eq "$(calls)" "1 1" "the first call asks node and npm"
node_wrap
expect_eq "$(calls)" "1 1" "the second call runs neither (their answers kept)"
touch "$G/bin/node"
node_wrap
expect_eq "$(calls)" "2 2" "a touched node is asked again, and npm after it"
node_wrap
expect_eq "$(calls)" "2 2" "kept again"
touch "$G/bin/npm"
node_wrap
expect_eq "$(calls)" "2 3" "a touched npm alone: npm is asked again"
# the kept file: the test user's, 0600; one another user could write is
# not used (and is replaced)
C=$(ls -t "$(state_dir)"/toolchain-node-*.cache | head -n1) # the newest: ours
expect_present "$C"
at_end "rm -f '$C'"
expect_eq "$(stat -c '%u %a' "$C")" "$TUID 600" "the kept answers' file"
chmod 0666 "$C"
node_wrap
expect_eq "$(calls)" "3 4" "a kept file writable by others is not read"
expect_eq "$(stat -c '%a' "$C")" "600" "and is replaced"
# one that does not parse is a miss
printf 'nova-sandbox toolchain answers 1\nkey zz\n' > "$C"
[ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$C"
chmod 0600 "$C"
node_wrap
expect_eq "$(calls)" "4 5" "a kept file that does not parse is a miss"
EOF2

t "--toolchain node: with the state directory inside a --write, no answer is read or kept, and a NOTE says so" <<'EOF2'
setup
S=$(state_dir)
H=${S%/nova-sandbox} # the directory above it, the test user's
run_as mkdir -p "$H" || _fail "cannot make $H as the test user"
G=$(newdir)
mkdir -p "$G/bin" "$G/prefix" "$G/count"
[ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$G/count"
printf '#!/bin/sh\necho x >> %s/count/node\necho %s/prefix\n' "$G" "$G" > "$G/bin/node"
chmod 755 "$G/bin" "$G/bin/node"
run_as env HOME="$W/home" PATH="$G/bin:/bin" "$NS" policy --write "$H" --write "$W" --toolchain node -- /bin/true
c1=$(wc -l < "$G/count/node")
run_as env HOME="$W/home" PATH="$G/bin:/bin" "$NS" policy --write "$H" --write "$W" --toolchain node -- /bin/true
expect_rc 0
expect_err "^POLICY NOTE --toolchain node: its tools' answers are not kept in the state directory $S: it is inside --write $H, where the command could write answers; they are asked on every call\$"
c2=$(wc -l < "$G/count/node")
[ "$c1" -ge 1 ] && [ "$c2" -gt "$c1" ] || _fail "node was not asked on each call ($c1, then $c2)"
EOF2

t "--toolchain python (the real /usr/bin/python3, in a venv): the venv is a read root; control without it" <<'EOF2'
/usr/bin/python3 -c 'import venv' 2>/dev/null || _fail "python3 has no venv module (infra/deps.sh installs python3-venv)"
setup
V=$(newdir)
/usr/bin/python3 -m venv --without-pip "$V/venv" && echo data > "$V/venv/marker" && chmod -R a+rX "$V"
run_as env HOME="$W/home" PATH="$V/venv/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain python -- /bin/cat "$V/venv/marker"
expect_rc 0
expect_out '^data$'
expect_err "^SANDBOX NOTE --toolchain python \\($V/venv/bin/python3\\) adds the read root\\(s\\): $V/venv; already readable as OS roots: /usr"
run_as env HOME="$W/home" PATH="$V/venv/bin:/usr/bin:/bin" "$NS" --write "$W" -- /bin/cat "$V/venv/marker"
expect_rc 1
expect_no_out '^data$'
EOF2

t "a default venv's interpreter (a link of the user's) is refused with the way to keep the venv: python3 -m venv --copies; control: a link of the user's outside a venv gets no such word" <<'EOF2'
/usr/bin/python3 -c 'import venv' 2>/dev/null || _fail "python3 has no venv module (infra/deps.sh installs python3-venv)"
setup
V=$(newdir)
run_as /usr/bin/python3 -m venv --without-pip "$V/venv" || _fail "the test user could not make a venv"
[ -L "$V/venv/bin/python3" ] || _fail "a default venv's python3 is no link here"
wrap --write "$W" -- "$V/venv/bin/python3" -c 'print(1)'
expect_rc 125
expect_err "^SANDBOX REFUSED reason=not_executable: the command $V/venv/bin/python3 resolves through the symlink "
expect_err "this is the interpreter of the venv $V/venv: make the venv with python3 -m venv --copies "
expect_err "python3 -m venv --copies --clear $V/venv"
# control: the same kind of link, in a directory that is no venv's bin
mkdir "$V/bin" && ln -s /usr/bin/python3 "$V/bin/python3"
[ "$(id -u)" != 0 ] || chown -hR "$TUID:$TGID" "$V/bin"
wrap --write "$W" -- "$V/bin/python3" -c 'print(1)'
expect_rc 125
expect_err "^SANDBOX REFUSED reason=not_executable: the command $V/bin/python3 resolves through the symlink "
expect_no_err 'venv'
# and a venv made as the README says runs
run_as /usr/bin/python3 -m venv --without-pip --copies "$V/copies" || _fail "no --copies venv"
wrap --write "$W" --read "$V/copies" -- "$V/copies/bin/python3" -c 'print(1)'
expect_rc 0
expect_out '^1$'
EOF2

t "--toolchain node and c (the real /usr/bin/node and cc): their roots are OS roots here, said so" <<'EOF2'
setup
for tool in /usr/bin/node /usr/bin/cc; do
	[ -x "$tool" ] || _fail "$tool is not installed (infra/deps.sh installs nodejs and gcc)"
done
wrap --write "$W" --toolchain node -- /bin/true
expect_rc 0
expect_err '^SANDBOX NOTE --toolchain node \(/usr/bin/node\) adds the read root\(s\): none; already readable as OS roots: /usr'
wrap --write "$W" --toolchain c -- /bin/true
expect_rc 0
expect_err '^SANDBOX NOTE --toolchain c \(/usr/bin/cc\) adds the read root\(s\): none; already readable as OS roots: /usr/lib/gcc/'
EOF2

t "--toolchain rust (fakes: rustc --print sysroot, cargo's home two levels up): both roots" <<'EOF2'
setup
R=$(newdir)
mkdir -p "$R/sysroot/lib" "$R/.cargo/bin" "$R/rbin"
fake rustc "$R/rbin" "$R/sysroot"
fake cargo "$R/.cargo/bin"
chmod -R a+rX "$R"
run_as env HOME="$W/home" PATH="$R/rbin:$R/.cargo/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain rust -- /bin/ls "$R/.cargo/bin"
expect_rc 0
expect_out '^cargo$'
expect_err "^SANDBOX NOTE --toolchain rust \\($R/rbin/rustc\\) adds the read root\\(s\\): $R/sysroot $R/.cargo; never a write root\$"
EOF2

t "policy --json: the rules as objects; --toolchain's roots say origin toolchain, read-exec" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot" "$G/modcache"
fake go "$G/bin" "$G/goroot" "$G/modcache"
chmod -R a+rX "$G"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" policy --write "$W" --read-noexec "$G/bin" --toolchain go --json -- /bin/true
expect_rc 0
python3 - "$OUT" "$W" "$G" <<'PY' || _fail "policy --json rules"
import json, sys
doc = json.load(open(sys.argv[1]))
w, g = sys.argv[2], sys.argv[3]
rules = doc["rules"]
assert isinstance(rules, list) and rules, rules
for r in rules:
    assert set(r) == {"path", "access", "origin"}, r
by = {r["path"]: r for r in rules}
assert by[w] == {"path": w, "access": "write", "origin": "write"}, by.get(w)
assert by[g + "/goroot"] == {"path": g + "/goroot", "access": "read-exec", "origin": "toolchain"}
assert by[g + "/modcache"]["origin"] == "toolchain"
assert by[g + "/bin"] == {"path": g + "/bin", "access": "read", "origin": "read-noexec"}
assert by["/dev/null"]["access"] == "write-file" and by["/dev/null"]["origin"] == "write-file"
assert any(r["origin"] == "root" and r["access"] == "read-exec" for r in rules)
# the text payload says the same paths
for p in (w, g + "/goroot"):
    assert p in doc["payload"], p
PY
EOF2

# ---- run: --net-deny, --write <cache> -----------------------------------

t "run --net-deny: no IP inside the place (net=denied); control: the same connect without it" <<'EOF2'
CONNECT='import socket, sys
try:
    s = socket.socket()
    s.settimeout(2)
    s.connect(("127.0.0.1", int(sys.argv[1])))
    print("connected")
except PermissionError:
    print("denied")
except OSError as e:
    print("other", e)'
python3 -c 'import socket,time,sys
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(5); print(s.getsockname()[1]); sys.stdout.flush(); time.sleep(30)' > /tmp/nova-it-port.$$ &
L=$!
at_end "kill $L; rm -f /tmp/nova-it-port.$$"
sleep 0.5
P=$(cat /tmp/nova-it-port.$$)
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "nd-$$" --size 8m --net-deny -- /usr/bin/python3 -c "$CONNECT" "$P"
expect_rc 0
expect_err "^SANDBOX OK name=nd-$$ .* net=denied "
expect_out '^denied$'
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "nc-$$" --size 8m -- /usr/bin/python3 -c "$CONNECT" "$P"
expect_rc 0
expect_err "^SANDBOX OK name=nc-$$ .* net=nopromise "
expect_out '^connected$'
EOF2

t "run --write: a cache directory outside the place is written and kept (NOTE, write=2, deletes=); control without it" <<'EOF2'
C=$(mktemp -d /var/tmp/nova-it-cache.XXXXXX)
at_end "rm -rf '$C'"
[ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$C"
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "wc-$$" --size 8m --write "$C" -- /bin/sh -c "echo pkg > '$C/cached'"
expect_rc 0
expect_err "^SANDBOX NOTE --write $C is outside the place: the command may write and delete there, and what it leaves there is not deleted with the place"
expect_err "^SANDBOX OK name=wc-$$ .* write=2 .* deletes=/tmp/nova-wc-$$,$C\$"
expect_eq "$(cat "$C/cached")" pkg "the cache kept after the run"
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "wd-$$" --size 8m -- /bin/sh -c "echo pkg > '$C/other'"
expect_rc 2
expect_absent "$C/other"
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "we-$$" --size 8m --write relative/dir -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_write: --write wants an absolute directory outside the place, got relative/dir'
run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "we-$$" --size 8m --write /nonexistent-$$ -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_write: .*/nonexistent-$$"
expect_no_err '^SANDBOX (STEP|OK)'
EOF2
