#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_place10.sh -- `run` with a place module built against ABI 1.0 (the
# fixture place_dir.so: no enter, a plain directory visible to everyone,
# the shape of apfsvol): the loader accepts the 1.0 table, the host runs
# the enter-less flow (create, the keeper opens the root, the wall with the
# root's path, kill, destroy), and a destroy that fails is a LEAK, exit 3,
# with the module's remedy.  As the test user (the wall refuses root, and
# an enter-less place has no keeper that drops privileges).
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-place10.XXXXXX")
chmod 755 "$STAGE"
PD="$STAGE/places"
mkdir "$PD"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$PD"
trap 'rm -rf "$STAGE"; _cleanup' EXIT

conf() {
	printf '[linux]\nwall = %s\nplace = %s\n[place_dir]\ndir = %s\n%s' \
		"$MODS/landlock.so" "$FIX/place_dir.so" "$PD" \
		"$2" > "$STAGE/$1"
	chmod 644 "$STAGE/$1"
	echo "$STAGE/$1"
}
C=$(conf ok.conf "")
L=$(conf leak.conf "leak = yes
")

t "a 1.0 place table is accepted by modules (abi=1.0)" <<'EOF'
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 0
expect_out "^MODULE role=place file=$FIX/place_dir.so from=[^ ]+ .* name=place_dir version=1.0.0 abi=1\.0 needs=1\.0 roles=place available=yes\$"
EOF

t "run through a 1.0 place: created, walled at its root, deleted" <<'EOF'
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name p1 \
	--size 1m -- /bin/sh -c "pwd; echo x > f && echo wrote; touch $STAGE/no || echo denied; exit 5"
expect_rc 5
expect_out "^$PD/nova-p1/work\$"
expect_out '^wrote$'
expect_out '^denied$'
expect_absent "$STAGE/no"
expect_err "^SANDBOX OK name=p1 place=place_dir backend=landlock .*deletes=$PD/nova-p1\$"
expect_err '^SANDBOX DONE name=p1 exit=5 wall=[0-9.]+ freed=4242$'
expect_absent "$PD/nova-p1"
EOF

t "a name that exists is refused: volume_exists, nothing made, no DONE" <<'EOF'
mkdir "$PD/nova-p2"
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name p2 \
	--size 1m -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=volume_exists: '
expect_no_err '^SANDBOX DONE'
expect_present "$PD/nova-p2"
rmdir "$PD/nova-p2"
EOF

t "a destroy that fails: DONE freed=0, LEAK with the module's remedy, exit 3" <<'EOF'
run_as env NOVA_SANDBOX_CONFIG="$L" PATH=/usr/bin:/bin "$NS" run --name p3 \
	--size 1m -- /bin/true
expect_rc 3
expect_err '^SANDBOX DONE name=p3 exit=0 wall=[0-9.]+ freed=0$'
expect_err "^SANDBOX LEAK name=p3 volume=dir:p3 remedy=\"rm -rf $PD/nova-p3\"\$"
expect_present "$PD/nova-p3"
rm -rf "$PD/nova-p3"
EOF

t "the background child of an enter-less place is killed too" <<'EOF'
MARK="61.$$"
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name p4 \
	--size 1m --timeout 300ms -- /bin/sh -c "sleep $MARK & sleep $MARK"
expect_rc 124
expect_eq "$(pgrep -f "^sleep $MARK\$" | wc -l)" 0 "marked sleeps left"
expect_absent "$PD/nova-p4"
EOF
