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
