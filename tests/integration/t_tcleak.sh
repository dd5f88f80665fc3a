#!/bin/bash
# SPDX-License-Identifier: MIT
# t_tcleak.sh -- the red team's leaks in --toolchain's discovery (rule 3a):
# nothing the walled command could have written, and no tree the caller
# did not vouch for, is run outside the wall; no answer widens the wall
# past what a toolchain is.  Each leak is reproduced the way it was found
# (a walled command plants, the next --toolchain runs it), and each has a
# control showing the planted thing does run, or the secret is readable,
# when it is asked the old way outside the wall.
source "$(dirname "$0")/lib.sh"

setup() {
	W=$(newdir)
	M=$(newdir) # the marker a planted program leaves when it runs
	mkdir "$W/home" && { [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"; }
}
wrap() {
	run_as env HOME="$W/home" PATH=/usr/bin:/bin "$NS" "$@"
}
# plant SCRIPT: the walled command runs it (sh -c), inside --write $W
plant() {
	wrap --write "$W" -- /bin/sh -c "$1"
	expect_rc 0
}
# in_dir DIR CMD...: run_as CMD with DIR its working directory
in_dir() {
	local d=$1
	shift
	run_as /bin/sh -c 'cd "$0" && exec "$@"' "$d" "$@"
}
# an executable script FILE whose body is BODY
script() {
	mkdir -p "$(dirname "$1")"
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod 755 "$(dirname "$1")" "$1"
}

# ---- T1: python's user site-packages -------------------------------------

t "T1: a .pth the command planted in ~/.local is not run by --toolchain python; control: python3 with that HOME runs it" <<'EOF2'
setup
run_as env HOME="$W/home" /usr/bin/python3 -c 'import site; print(site.getusersitepackages())'
SITE=$(cat "$OUT")
case "$SITE" in "$W/home/"*) ;; *) _fail "user site $SITE is not under the HOME given" ;; esac
plant "mkdir -p '$SITE' && echo 'import os; open(\"$M/pwned\", \"w\").write(\"x\")' > '$SITE/x.pth'"
wrap --write "$W" --toolchain python -- /bin/true
expect_rc 0
expect_err '^SANDBOX NOTE --toolchain python \(/usr/bin/python3\) adds the read root'
expect_absent "$M/pwned"
# control: the planted .pth is live for a python3 that is not isolated
run_as env HOME="$W/home" /usr/bin/python3 -c pass
expect_present "$M/pwned"
EOF2

# ---- T2, T3: rustup's settings and a checkout's rust-toolchain.toml ------
# rustup is not installed here; a proxy on PATH (outside every --write)
# does what rustup's rustc proxy does: a toolchain named by
# $RUSTUP_HOME/settings.toml (default ~/.rustup) or by the working
# directory's rust-toolchain.toml `path`, its bin/rustc executed.

rust_fakes() {
	R=$(newdir)
	mkdir -p "$R/sysroot" "$R/.cargo/bin"
	script "$R/bin/rustc" "h=\${RUSTUP_HOME:-\$HOME/.rustup}
if [ -f rust-toolchain.toml ]; then
	p=\$(sed -n 's/^path = \"\\(.*\\)\"\$/\\1/p' rust-toolchain.toml)
	[ -n \"\$p\" ] && exec \"\$p/bin/rustc\" \"\$@\"
fi
tc=\$(sed -n 's/^default_toolchain = \"\\(.*\\)\"\$/\\1/p' \"\$h/settings.toml\" 2>/dev/null)
[ -n \"\$tc\" ] && exec \"\$h/toolchains/\$tc/bin/rustc\" \"\$@\"
echo $R/sysroot"
	script "$R/.cargo/bin/cargo" "exit 0"
	chmod -R a+rX "$R"
}

t "T2: a rustup toolchain the command planted in ~/.rustup is not run by --toolchain rust; control: the proxy with that HOME runs it" <<'EOF2'
setup
rust_fakes
plant "mkdir -p '$W/home/.rustup/toolchains/evil/bin' && printf 'default_toolchain = \"evil\"\n' > '$W/home/.rustup/settings.toml' && printf '#!/bin/sh\ntouch $M/pwned\necho /\n' > '$W/home/.rustup/toolchains/evil/bin/rustc' && chmod 755 '$W/home/.rustup/toolchains/evil/bin/rustc'"
run_as env HOME="$W/home" PATH="$R/bin:$R/.cargo/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain rust -- /bin/true
expect_rc 0
expect_err "^SANDBOX NOTE --toolchain rust \\($R/bin/rustc\\) adds the read root\\(s\\): $R/sysroot $R/.cargo; never a write root\$"
expect_absent "$M/pwned"
run_as env HOME="$W/home" "$R/bin/rustc" --print sysroot
expect_present "$M/pwned"
EOF2

t "T3: a checkout's rust-toolchain.toml (the caller's cwd) is not followed by --toolchain rust; control: the proxy in that cwd runs it" <<'EOF2'
setup
rust_fakes
CK="$W/ck"
mkdir -p "$CK/.tc/bin"
printf '[toolchain]\npath = "%s"\n' "$CK/.tc" > "$CK/rust-toolchain.toml"
printf '#!/bin/sh\ntouch %s/pwned\necho /\n' "$M" > "$CK/.tc/bin/rustc"
chmod 755 "$CK/.tc/bin/rustc"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$CK"
in_dir "$CK" env HOME="$W/home" PATH="$R/bin:$R/.cargo/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain rust -- /bin/true
expect_rc 0
expect_err "^SANDBOX NOTE --toolchain rust \\($R/bin/rustc\\) adds the read root\\(s\\): $R/sysroot $R/.cargo; never a write root\$"
expect_absent "$M/pwned"
in_dir "$CK" env HOME="$W/home" "$R/bin/rustc" --print sysroot
expect_present "$M/pwned"
EOF2

# ---- T4, T5: npm's prefix from a project or user .npmrc ------------------

t "T4: a checkout's .npmrc prefix (the caller's cwd) does not become a read root; control: npm there answers it" <<'EOF2'
[ -x /usr/bin/npm ] || _fail "/usr/bin/npm is not installed (infra/deps.sh installs npm)"
setup
S=$(newdir) && echo secret > "$S/secret" && chmod a+r "$S/secret"
CK="$W/ck" && mkdir "$CK" && echo "prefix=$S" > "$CK/.npmrc"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$CK"
in_dir "$CK" env HOME="$W/home" PATH=/usr/bin:/bin "$NS" --write "$W" --toolchain node -- /bin/cat "$S/secret"
expect_rc 1
expect_no_out '^secret$'
expect_err '^SANDBOX NOTE --toolchain node \(/usr/bin/node\) adds the read root'
expect_no_err "^SANDBOX NOTE --toolchain node .*$S"
in_dir "$CK" env HOME="$W/home" PATH=/usr/bin:/bin /usr/bin/npm config get prefix
expect_out "^$S\$"
EOF2

t "T5: a ~/.npmrc the command wrote does not become a read root; control: npm with that HOME answers it" <<'EOF2'
[ -x /usr/bin/npm ] || _fail "/usr/bin/npm is not installed (infra/deps.sh installs npm)"
setup
S=$(newdir) && echo secret > "$S/secret" && chmod a+r "$S/secret"
plant "echo 'prefix=$S' > '$W/home/.npmrc'"
wrap --write "$W" --toolchain node -- /bin/cat "$S/secret"
expect_rc 1
expect_no_out '^secret$'
expect_no_err "^SANDBOX NOTE --toolchain node .*$S"
run_as env HOME="$W/home" PATH=/usr/bin:/bin /usr/bin/npm config get prefix
expect_out "^$S\$"
EOF2

# ---- T6: an answer too broad to be a read root -----------------------------

t "T6: a toolchain answering /, HOME or an ancestor of a --write is refused (too broad); control: a toolchain's own directory is taken" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot"
for ans in / "$W/home" "$(dirname "$W")"; do
	script "$G/bin/go" "echo $ans"
	run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
	expect_rc 125
	expect_err "^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: $G/bin/go answered $ans, which holds .*: too broad for a read root; leave out --toolchain go and name its directories with --read; run: nova-sandbox --write $W -- /bin/true\$"
	expect_no_err '^SANDBOX OK'
done
script "$G/bin/go" "echo $G/goroot"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 0
expect_err "^SANDBOX NOTE --toolchain go \\($G/bin/go\\) adds the read root\\(s\\): $G/goroot; never a write root\$"
EOF2

# ---- T7: a PATH directory inside a --write ---------------------------------

t "T7: a python3 the command planted in a PATH directory inside its --write is not run (NOTE); control: it runs when called" <<'EOF2'
setup
plant "mkdir -p '$W/bin' && printf '#!/bin/sh\ntouch $M/pwned\necho /usr\n' > '$W/bin/python3' && chmod 755 '$W/bin/python3'"
run_as env HOME="$W/home" PATH="$W/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain python -- /bin/true
expect_rc 0
expect_absent "$M/pwned"
expect_err "^SANDBOX NOTE --toolchain python: $W/bin/python3 is inside --write $W: not run \\(the command could have changed it\\); its directories are readable as part of that --write\$"
run_as env HOME="$W/home" "$W/bin/python3"
expect_present "$M/pwned"
EOF2

t "T7: a python3 on a clean PATH directory that links through a link the command planted in its --write is not run (NOTE); control: it runs when called" <<'EOF2'
setup
L=$(newdir)
E=$(newdir)
script "$E/py" "touch $M/pwned; echo /usr"
plant "ln -s '$E/py' '$W/lnk'"
ln -s "$W/lnk" "$L/python3"
run_as env HOME="$W/home" PATH="$L:/usr/bin:/bin" "$NS" --write "$W" --toolchain python -- /bin/true
expect_rc 0
expect_absent "$M/pwned"
expect_err "^SANDBOX NOTE --toolchain python: $L/python3 is inside --write $W: not run \\(the command could have changed it\\); its directories are readable as part of that --write\$"
run_as env HOME="$W/home" "$L/python3"
expect_present "$M/pwned"
EOF2

t "T7: a PATH directory inside a --write is left out of the PATH the tools get (NOTE); control: the others stay" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot" "$W/bin"
script "$G/bin/go" "echo \"\$PATH\" > $G/path; echo $G/goroot"
run_as env HOME="$W/home" PATH="$G/bin:$W/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 0
expect_eq "$(cat "$G/path")" "$G/bin:/usr/bin:/bin" "the tools' PATH"
expect_err "^SANDBOX NOTE --toolchain go \\($G/bin/go\\) adds the read root\\(s\\): $G/goroot; asked with a PATH without these entries inside a --write: $W/bin; never a write root\$"
EOF2

t "a tool another user could change (its directory group-writable) is not run: bad_toolchain; control: mode 0755 is run" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot"
script "$G/bin/go" "touch $M/ran; echo $G/goroot"
chmod 775 "$G/bin"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: $G/bin/go is not run: $G/bin \\(owner uid [0-9]+, mode 0775\\) could be changed by another user; "
expect_absent "$M/ran"
chmod 755 "$G/bin"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 0
expect_present "$M/ran"
EOF2

# ---- go: go env's configuration, the environment the tools get ----------
# go is not installed here: a fake go does what go env does with GOENV
# (default ~/.config/go/env) and GOTOOLCHAIN (a toolchain it runs), and
# logs the environment and directory it was given.

t "go: the tools run in an empty private directory as HOME, GOENV=off GOTOOLCHAIN=local GOFLAGS= , only vouched variables; control: go with the caller's environment runs the planted toolchain" <<'EOF2'
setup
G=$(newdir)
mkdir -p "$G/goroot" "$G/modcache"
script "$G/bin/go" "env > $G/env; pwd > $G/pwd; ls -A > $G/ls
f=\${GOENV:-\$HOME/.config/go/env}
if [ \"\$GOENV\" != off ] && [ -f \"\$f\" ]; then . \"\$f\"; fi
if [ -n \"\$GOTOOLCHAIN\" ] && [ \"\$GOTOOLCHAIN\" != local ]; then exec \"\$GOTOOLCHAIN\"; fi
echo $G/goroot; echo $G/modcache"
chmod -R a+rX "$G"
plant "mkdir -p '$W/home/.config/go' '$W/evil' && printf '#!/bin/sh\ntouch $M/pwned\necho /\n' > '$W/evil/go' && chmod 755 '$W/evil/go' && echo 'GOTOOLCHAIN=$W/evil/go' > '$W/home/.config/go/env'"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" GOROOT="$G/goroot" GOPATH="$W/gopath" GOFLAGS=-modfile=x GOENV="$W/home/.config/go/env" GOTOOLCHAIN="$W/evil/go" PYTHONPATH="$W" NODE_OPTIONS=--require=x "$NS" --write "$W" --toolchain go -- /bin/true
expect_rc 0
expect_absent "$M/pwned"
expect_err "^SANDBOX NOTE --toolchain go \\($G/bin/go\\) adds the read root\\(s\\): $G/goroot $G/modcache; never a write root\$"
P=$(cat "$G/pwd")
grep -qx "HOME=$P" "$G/env" || _fail "HOME is not the directory it ran in ($P)"
case "$P" in "$W"* | "$W/home"*) _fail "it ran in $P, inside the --write" ;; esac
expect_eq "$(cat "$G/ls")" "" "its directory was empty"
expect_absent "$P"
for v in GOTOOLCHAIN=local GOENV=off GOFLAGS= GOROOT="$G/goroot" LC_ALL=C; do
	grep -qx "$v" "$G/env" || _fail "the tool's environment lacks $v"
done
for v in GOPATH PYTHONPATH NODE_OPTIONS; do
	! grep -q "^$v=" "$G/env" || _fail "the tool's environment has $v"
done
# control: go asked the old way (the caller's HOME and GOTOOLCHAIN unset)
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$G/bin/go" env GOROOT
expect_present "$M/pwned"
EOF2

# ---- run --toolchain: a tool inside run's cache --write ------------------

t "run --write C --toolchain python: a python3 in C/bin is not run (NOTE); control: it runs when called" <<'EOF2'
M=$(newdir)
C=$(mktemp -d /var/tmp/nova-it-cache.XXXXXX)
at_end "rm -rf '$C'"
script "$C/bin/python3" "touch $M/pwned; echo /usr"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$C"
run_as env HOME="$THOME" PATH="$C/bin:/usr/bin:/bin" "$NS" run --name "tl-$$" --size 8m --write "$C" --toolchain python -- /bin/true
expect_rc 0
expect_err "^SANDBOX NOTE --toolchain python: $C/bin/python3 is inside --write $C: not run "
expect_absent "$M/pwned"
run_as "$C/bin/python3"
expect_present "$M/pwned"
EOF2

t "run --go: go is asked as --toolchain go asks it (no planted GOENV or GOTOOLCHAIN run); control: go with the caller's environment runs it" <<'EOF2'
setup
G=$(mktemp -d /var/tmp/nova-it-go.XXXXXX) # the place is mounted over /tmp
at_end "rm -rf '$G'"
chmod 755 "$G"
mkdir -p "$G/goroot"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$G"
script "$G/bin/go" "f=\${GOENV:-\$HOME/.config/go/env}
if [ \"\$GOENV\" != off ] && [ -f \"\$f\" ]; then . \"\$f\"; fi
if [ -n \"\$GOTOOLCHAIN\" ] && [ \"\$GOTOOLCHAIN\" != local ]; then exec \"\$GOTOOLCHAIN\"; fi
echo $G/goroot; echo /nonexistent/modcache-$$"
chmod -R a+rX "$G"
plant "mkdir -p '$W/home/.config/go' '$W/evil' && printf '#!/bin/sh\ntouch $M/pwned\necho /\n' > '$W/evil/go' && chmod 755 '$W/evil/go' && echo 'GOTOOLCHAIN=$W/evil/go' > '$W/home/.config/go/env'"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$NS" run --name "tg-$$" --size 8m --go -- /bin/true
expect_rc 0
expect_absent "$M/pwned"
expect_err "^SANDBOX NOTE --go added 1 read root\\(s\\) from go env: $G/goroot\$"
expect_err "^SANDBOX NOTE --go skipped 1 read root\\(s\\) from go env: /nonexistent/modcache-$$\$"
run_as env HOME="$W/home" PATH="$G/bin:/usr/bin:/bin" "$G/bin/go" env GOROOT
expect_present "$M/pwned"
EOF2
