#!/bin/bash
# SPDX-License-Identifier: MIT
# t_bwrap.sh -- the out-of-tree bwrap wall (examples/bwrap): staged install,
# build against the INSTALLED header only, select it by config, wall a real
# command with it as the unprivileged test user (controls run unwalled).
# The cases are steps: each needs the ones above it (run the whole file).
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
umask 022
# Under the build dir, not /tmp: the loader refuses modules and configs in
# group/world-writable directories.
STAGE="$NOVA_B/stage-bwrap"
rm -rf -- "$STAGE"
mkdir -p -m 0755 "$STAGE"
echo "$STAGE" >> "$_DIRS"
SRC="$STAGE/src/bwrap"
PCDIR="$STAGE/usr/lib/pkgconfig"
MODDIR="$STAGE/usr/lib/nova-sandbox/1"
CONF="$STAGE/conf/nova-sandbox.conf"
STAGED_H="$STAGE/usr/include/nova-sandbox/ns_backend.h"

# the example's make, pointed at the stage; "$@" are extra make arguments
ex_make() {
	PKG_CONFIG_PATH="$PCDIR" PKG_CONFIG_SYSROOT_DIR="$STAGE" \
		make -C "$SRC" "$@"
}

# the dependencies in a gcc -MD file that are neither the system's (/usr)
# nor the staged include dir
deps_outside() {
	sed -e 's/\\$//' -e 's/^[^:]*://' "$1" | tr ' ' '\n' |
		grep -v -e '^$' -e '^bwrap_wall\.c$' -e '^/usr/' \
			-e "^$STAGE/usr/include/"
}

# a walled run as the test user, with the staged config and HOME inside D
walled() {
	local d=$1
	shift
	run_as env HOME="$d/home" NOVA_SANDBOX_CONFIG="$CONF" "$@"
}

write_conf() { # $1 = extra lines for the [bwrap_wall] section
	mkdir -p -m 0755 "$STAGE/conf"
	printf '[nova-sandbox]\nmoduledir = %s\n\n[linux]\nwall = bwrap_wall.so\n\n[bwrap_wall]\n%s\n' \
		"$MODDIR" "$1" > "$CONF"
	chmod 0644 "$CONF"
}

t "make install stages the header, the pc file and the binary" <<'EOF'
# -o: use the build under test as it is (never rebuild it with other flags)
run make -C "$ROOT" install B="$NOVA_B" DESTDIR="$STAGE" PREFIX=/usr \
	-o "$NOVA_B/.flags" -o "$NOVA_B/bin/nova-sandbox"
expect_rc 0
expect_present "$STAGED_H"
expect_present "$PCDIR/nova-sandbox.pc"
expect_present "$STAGE/usr/bin/nova-sandbox"
run env PKG_CONFIG_PATH="$PCDIR" pkg-config --variable=moduledir nova-sandbox
expect_out '^/usr/lib/nova-sandbox/1$'
EOF

t "the example builds from a copy in the stage against the staged header" <<'EOF'
mkdir -p -m 0755 "$STAGE/src"
cp -r "$ROOT/examples/bwrap" "$SRC"
rm -f "$SRC"/*.so "$SRC"/*.d
run ex_make CPPFLAGS=-MD
expect_rc 0
expect_present "$SRC/bwrap_wall.so"
expect_out "-I$STAGE/usr/include/nova-sandbox"
# the header the compiler actually read: the staged one, and nothing else
# of nova-sandbox's
run grep -o '[^ ]*ns_backend\.h' "$SRC/bwrap_wall.d"
expect_out "^$STAGED_H\$"
expect_eq "$(wc -l < "$OUT")" 1 "ns_backend.h files read"
# every other header is the system's: nothing relative, nothing of the tree
run deps_outside "$SRC/bwrap_wall.d"
expect_eq "$(cat "$OUT")" "" "headers from outside the system and the stage"
run nm -D --defined-only "$SRC/bwrap_wall.so"
expect_out ' ns_backend_v1$'
expect_eq "$(wc -l < "$OUT")" 1 "exported symbols"
EOF

t "without the staged header the example does not build (no other source)" <<'EOF'
mv "$STAGED_H" "$STAGED_H.away"
run ex_make -B
expect_rc 2
expect_err 'ns_backend\.h'
mv "$STAGED_H.away" "$STAGED_H"
EOF

t "make install puts the module in the staged moduledir" <<'EOF'
run env PKG_CONFIG_PATH="$PCDIR" make -C "$SRC" install DESTDIR="$STAGE"
expect_rc 0
expect_present "$MODDIR/bwrap_wall.so"
expect_eq "$(stat -c %a "$MODDIR/bwrap_wall.so")" 644 "module mode"
write_conf "bwrap = /usr/bin/bwrap"
EOF

t "modules lists the bwrap wall as available" <<'EOF'
walled "$STAGE" "$NS" modules
expect_rc 0
expect_out '^MODULE .*file=bwrap_wall\.so.* name=bwrap .*available=yes'
expect_out '^MODULE .*shape=helper'
EOF

# the --write of the walled cases below, and a directory outside it
D=$(newdir)
mkdir -p "$D/home" && chown "$TUID:$TGID" "$D/home"
O=$(newdir)

t "control: the outside write succeeds unwalled" <<'EOF'
run_as /bin/sh -c "echo out > '$O/control'"
expect_rc 0
expect_present "$O/control"
EOF

t "walled by bwrap: the inside write lands, the outside write fails" <<'EOF'
walled "$D" "$NS" --write "$D" -- /bin/sh -c \
	"echo in > '$D/f'; echo out > '$O/g'"
expect_err '^SANDBOX OK backend=bwrap abi=- '
expect_err '^SANDBOX DONE exit=[1-9][0-9]* cmd='
expect_present "$D/f"
expect_eq "$(cat "$D/f" 2>/dev/null)" in "inside file"
expect_absent "$O/g"
EOF

t "walled by bwrap: the command's exit code passes through" <<'EOF'
walled "$D" "$NS" --write "$D" -- /bin/sh -c 'exit 7'
expect_rc 7
expect_err '^SANDBOX DONE exit=7 '
EOF

R=$(newdir)   # a --read

t "a --read directory is bound read-only (control: writable unwalled)" <<'EOF'
run_as /bin/sh -c "echo x > '$R/control'"
expect_rc 0
walled "$D" "$NS" --read "$R" --write "$D" -- /bin/sh -c \
	"cat '$R/control' > '$D/copy' && echo y > '$R/g'"
expect_err '^SANDBOX OK backend=bwrap .* read=1 '
expect_eq "$(cat "$D/copy" 2>/dev/null)" x "read through the wall"
expect_absent "$R/g"
EOF

t "--net-deny: the command sees only its own loopback (control: more)" <<'EOF'
run_as /bin/sh -c "tail -n +3 /proc/net/dev | grep -vc '^ *lo:'"
expect_rc 0
walled "$D" "$NS" --net-deny --write "$D" -- /bin/sh -c \
	"tail -n +3 /proc/net/dev | grep -vc '^ *lo:'"
expect_err '^SANDBOX OK backend=bwrap .* net=denied '
expect_out '^0$'
EOF

t "--read-noexec is refused, not widened" <<'EOF'
walled "$D" "$NS" --read-noexec "$R" --write "$D" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=sandbox_failed: --read-noexec .*bwrap'
expect_no_err '^SANDBOX OK'
EOF

t "policy prints the bwrap arguments" <<'EOF'
walled "$D" "$NS" policy --net-deny --read "$R" --write "$D"
expect_rc 0
expect_out '^backend=bwrap$'
expect_out '^flag=--unshare-net$'
expect_out "^ro-bind=$R\$"
expect_out "^bind=$D\$"
expect_err '^POLICY OK backend=bwrap '
EOF

t "a bwrap option that is not absolute: no_sandbox, nothing runs" <<'EOF'
write_conf "bwrap = bwrap"
walled "$D" "$NS" --write "$D" -- /bin/sh -c "echo ran > '$D/ran'"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_sandbox: .*bwrap_wall\.so.*absolute'
expect_absent "$D/ran"
write_conf "bwrap = /usr/bin/bwrap"
EOF

t "an option the module does not list is refused" <<'EOF'
write_conf "bogus = 1"
walled "$D" "$NS" --write "$D" -- /bin/true
expect_rc 125
expect_err 'bogus'
write_conf "bwrap = /usr/bin/bwrap"
EOF
