#!/bin/bash
# SPDX-License-Identifier: MIT
# t_ownfiles.sh -- a wall whose write set reaches the tool's own files is
# refused (wall_writable, exit 125, nothing created): a build tree under a
# --write (its binary, its modules), a config under a --write, a module
# named by absolute path under a --write, a --write that is a bind mount of
# the build tree, a module with a second name (hard link) in a --write, the
# run-name directory under a --write; with controls: the same build with a
# --write elsewhere runs, and a root-owned tree the command cannot change is
# exempt.  As the test user (run as a user: yourself; the bind mount and the
# root-owned tree are then skipped).  The trees live in the test user's
# home: the loader refuses module and config files below /tmp (sticky).
source "$(dirname "$0")/lib.sh"

STAGE="$THOME/it-own.$$"
rm -rf "$STAGE"
mkdir -p "$STAGE"
chmod 755 "$STAGE"
trap 'umount -l "$STAGE"/bindw 2>/dev/null; rm -rf "$STAGE"; _cleanup' EXIT

# give the test user a path (as a user the files are already yours)
own() {
	[ "$(id -u)" = 0 ] || return 0
	if [ "$1" = -R ]; then
		chown -R "$TUID:$TGID" "$2"
	else
		chown "$TUID:$TGID" "$1"
	fi
}

# a copy of the build's binary and modules owned by the test user
copy_tree() {
	mkdir -p "$1"
	cp -a "$NOVA_B/bin" "$NOVA_B/lib" "$1/"
	own -R "$1"
	chmod -R go-w "$1"
}

# the bare wrap as the test user: wrap <binary> <write> [env...] -- cmd
wrap() {
	local bin=$1 w=$2
	shift 2
	run_as env HOME="$w" PATH=/usr/bin:/bin "$@" "$bin" --write "$w" -- /bin/true
}

conf() {
	printf '[linux]\nwall = %s\nplace = %s\n' "$2" \
		"$MODS/nsplace.so" > "$1"
	own "$1"
	chmod 644 "$1"
}

# w1: the test user's directory holding a copy of the build tree (b/);
# w3: one holding a copy of a module, named by path by the config c3
copy_tree "$STAGE/w1/b"
own "$STAGE/w1"
mkdir -p "$STAGE/w3/mods" "$STAGE/c3"
cp "$MODS/landlock.so" "$STAGE/w3/mods/"
own -R "$STAGE/w3"
chmod -R go-w "$STAGE/w3"
conf "$STAGE/c3/ns.conf" "$STAGE/w3/mods/landlock.so"

t "a build tree under the --write: refused naming the binary, nothing created" <<'EOF'
W="$STAGE/w1"
wrap "$W/b/bin/nova-sandbox" "$W"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own binary $W/b/bin/nova-sandbox is within the wall's reach: the command \(uid $TUID\) may change $W in the write root $W, so the next run would load a replacement unwalled; install nova-sandbox outside every --write, or name a --write that does not contain $W/b/bin/nova-sandbox; no fixed command line can be given: --write $W is the only --write and one is required; run: nova-sandbox help\$"
expect_no_err '^SANDBOX (OK|DONE)'
expect_absent "$W/.nova-sandbox-tmp"
EOF

t "a build tree under one of two --writes: the line without that --write, pasted, runs" <<'EOF'
W="$STAGE/w1"
D=$(newdir)
run_as env HOME="$D" PATH=/usr/bin:/bin "$W/b/bin/nova-sandbox" --write "$D" --write "$W" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own binary $W/b/bin/nova-sandbox is within the wall's reach: .*; or leave it out; run: nova-sandbox --write $D -- /bin/true\$"
L=$(sed -n 's/^SANDBOX REFUSED reason=wall_writable: the tool.s own binary .*; run: //p' "$ERR")
run_as env HOME="$D" PATH="$W/b/bin:/usr/bin:/bin" sh -c "$L"
expect_rc 0
expect_err '^SANDBOX OK '
EOF

t "control: the same build tree with a --write elsewhere runs" <<'EOF'
W="$STAGE/w1"
D=$(newdir)
wrap "$W/b/bin/nova-sandbox" "$D"
expect_rc 0
expect_err '^SANDBOX OK '
expect_no_err 'wall_writable'
EOF

t "the --write deeper than the tree's root, at the module directory: refused naming it" <<'EOF'
W="$STAGE/w1"
M=$(cd "$W/b/bin/$MODREL" && pwd)
wrap "$W/b/bin/nova-sandbox" "$M"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own module directory $M is within the wall's reach: .* may change $M in the write root $M, "
EOF

t "a config file under the --write: refused naming the config" <<'EOF'
W="$STAGE/w2"
mkdir -p "$W"
own "$W"
conf "$W/ns.conf" landlock.so
wrap "$NS" "$W" NOVA_SANDBOX_CONFIG="$W/ns.conf"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own config file $W/ns.conf is within the wall's reach: .* may change $W in the write root $W, so the next run would read a replacement; "
expect_no_err '^SANDBOX (OK|DONE)'
D=$(newdir)
wrap "$NS" "$D" NOVA_SANDBOX_CONFIG="$W/ns.conf"
expect_rc 0
EOF

t "a module named by path under the --write: refused naming the module" <<'EOF'
W="$STAGE/w3"
wrap "$NS" "$W" NOVA_SANDBOX_CONFIG="$STAGE/c3/ns.conf"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own module $W/mods/landlock.so is within the wall's reach: .* may change $W in the write root $W, "
D=$(newdir)
wrap "$NS" "$D" NOVA_SANDBOX_CONFIG="$STAGE/c3/ns.conf"
expect_rc 0
EOF

t "a module of the user's with a second name on the --write's filesystem: refused" <<'EOF'
W="$STAGE/w4"
mkdir -p "$W"
own "$W"
ln "$STAGE/w3/mods/landlock.so" "$W/alias.so"
D=$(newdir)
# the --write is w4; the module is reached as w3/mods/landlock.so
wrap "$NS" "$W" NOVA_SANDBOX_CONFIG="$STAGE/c3/ns.conf"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own module $STAGE/w3/mods/landlock.so is within the wall's reach: .* may change $STAGE/w3/mods/landlock.so, which has 2 names: another may be in the write root $W, "
rm -f "$W/alias.so"
wrap "$NS" "$W" NOVA_SANDBOX_CONFIG="$STAGE/c3/ns.conf"
expect_rc 0
EOF

t "probe is refused the same way" <<'EOF'
W="$STAGE/w1"
run_as env HOME="$W" PATH=/usr/bin:/bin "$W/b/bin/nova-sandbox" probe --write "$W"
expect_rc 2
expect_err "^PROBE REFUSED reason=check: the tool's own binary $W/b/bin/nova-sandbox is within the wall's reach: .*\(wall_writable\)"
expect_absent "$W/.nova-sandbox-tmp"
EOF

t "the run-name directory under the --write: refused" <<'EOF'
wrap "$NS" "$THOME"
expect_rc 125
case "$NS" in
"$THOME"/*)
	# a checkout under the user's home (the suite as an ordinary user):
	# the home is refused once, for the binary, the first element in it
	expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own binary $NS is within the wall's reach: " ;;
*)
	expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own run-name directory [^ ]+/nova-sandbox is within the wall's reach: .* so a walled command could hold the names of later runs; name a --write that does not contain " ;;
esac
EOF

if [ "$(id -u)" != 0 ]; then
	t "a bind mount of the build tree as the --write; a root-owned tree exempt" <<'EOF'
	skip "the bind mount and the root-owned tree need root"
EOF
	exit 0
fi

t "a bind mount of the build tree as the --write: refused (device and inode decide)" <<'EOF'
W="$STAGE/w1"
mkdir -p "$STAGE/bindw"
unshare -m sh -c "mount --make-rprivate / && mount --bind '$W/b' '$STAGE/bindw' &&
	exec setpriv --reuid=$TUID --regid=$TGID --clear-groups -- env HOME='$STAGE/bindw' \
	PATH=/usr/bin:/bin '$W/b/bin/nova-sandbox' --write '$STAGE/bindw' -- /bin/true" \
	>"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own binary $W/b/bin/nova-sandbox is within the wall's reach: .* may change $W/b in the write root $STAGE/bindw, "
EOF

t "exempt: a root-owned tree the command cannot change, under the --write" <<'EOF'
# the build tree itself (root's, 0755): the --write is granted but the
# command's uid can change nothing of it
[ "$(stat -c %U "$NOVA_B")" = root ] || _fail "the build tree is not root's"
D=$(newdir)
run_as env HOME="$D" PATH=/usr/bin:/bin "$NS" --write "$D" --write "$NOVA_B" -- /bin/true
expect_rc 0
expect_no_err 'wall_writable'
EOF

