#!/bin/bash
# SPDX-License-Identifier: MIT
# t_paths.sh -- rule 5: each caller path is opened once, with no symlink
# followed by the kernel, and the rule is made from that descriptor.  A link
# the command's user could have planted is refused; a link it could not
# have made is followed and said in a NOTE.  The race (issue 7, class 3): a
# leftover process swaps a directory and a symlink while the tool runs; the
# write must land only in the directory the OK line names, never in the
# symlink's target.
source "$(dirname "$0")/lib.sh"

W=$(newdir)   # the caller's work directory, writable by the test user
T=$(newdir)   # somewhere else the test user can write, never named
run_as mkdir "$W/home"
HOMEV="$W/home"
wall() { run_as env HOME="$HOMEV" "$NS" "$@"; }

t "control: unwalled, the test user can write the link's target" <<'EOF'
run_as /bin/sh -c 'echo c > "$1/control" && rm "$1/control"' _ "$T"
expect_rc 0
EOF

t "control: --write on the real directory works" <<'EOF'
wall --write "$W" --write "$T" -- /bin/sh -c "echo in > '$T/ok'"
expect_rc 0
expect_err "^SANDBOX OK .* deletes=$W,$T\$"
expect_present "$T/ok"
rm -f "$T/ok"
EOF

# the user's own link in the --write, to the real directory
run_as ln -s "$T" "$W/planted"

t "a symlink planted in a --write directory and named as --write is refused" <<'EOF'
wall --write "$W/planted" -- /bin/sh -c 'echo in > ok'
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_write: --write $W/planted resolves through the symlink $W/planted -> $T, which the command's user could have made or replaced \(the link is owned by this user\).* name --write $T"
expect_no_err '^SANDBOX OK'
expect_absent "$T/ok"
EOF

t "the same planted link as --read, --read-noexec, --cwd and --tmp is refused" <<'EOF'
wall --write "$W" --read "$W/planted" --read-noexec "$W/planted" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: --read $W/planted resolves through the symlink"
expect_err "^SANDBOX REFUSED reason=bad_read: --read-noexec $W/planted resolves through the symlink"
wall --write "$W" --cwd "$W/planted" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_cwd: --cwd $W/planted resolves through the symlink"
EOF

t "a link beneath the path (not only the last component) is refused too" <<'EOF'
run_as mkdir "$T/sub"
wall --write "$W/planted/sub" -- /bin/true
expect_rc 125
expect_err "resolves through the symlink $W/planted -> $T,.* name --write $T/sub"
rmdir "$T/sub"
EOF

t "HOME through a planted link is refused" <<'EOF'
run_as env HOME="$W/planted" "$NS" --write "$W" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=home_outside: HOME $W/planted resolves through the symlink $W/planted -> $T"
EOF

t "a command reached through a planted link is refused" <<'EOF'
run_as ln -s /bin/true "$W/cmdlink"
wall --write "$W" -- "$W/cmdlink"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=not_executable: the command $W/cmdlink resolves through the symlink $W/cmdlink -> /bin/true"
EOF

t "a link in a group- or other-writable directory is refused whoever owns it" <<'EOF'
if [ "$(id -u)" = 0 ]; then
	OW=$(mktemp -d /tmp/nova-it-ow.XXXXXX); echo "$OW" >> "$_DIRS"
	chmod 0777 "$OW"; ln -s "$T" "$OW/rootlink"
	wall --write "$OW/rootlink" -- /bin/true
	expect_rc 125
	expect_err "resolves through the symlink $OW/rootlink -> $T, which the command's user could have made or replaced \(its directory is writable by group or others\)"
else
	wall --write "$W/planted" -- /bin/true
	expect_rc 125
fi
EOF

# a link the user could not have made (as root: root's, in a root-owned
# directory; as a user: /bin, where the system has one)
if [ "$(id -u)" = 0 ]; then
	RD=$(mktemp -d /tmp/nova-it-rd.XXXXXX); echo "$RD" >> "$_DIRS"
	chmod 0755 "$RD"; ln -s "$T" "$RD/rootlink"
	LINK="$RD/rootlink"; TARGET="$T"
else
	LINK=/bin; TARGET=$(readlink /bin)
fi

t "a link the user could not have made is followed, with a NOTE naming it" <<'EOF'
wall --write "$W" --read "$LINK" -- /bin/true
expect_rc 0
expect_err "^SANDBOX NOTE --read $LINK resolves through the symlink $LINK -> $TARGET \(not one the command's user could have made or replaced\): the wall uses "
expect_err '^SANDBOX OK .* read=1 '
EOF

t "policy prints the rule at the path read back from the descriptor" <<'EOF'
run_as env HOME="$HOMEV" "$NS" policy --write "$W" --read "$LINK" -- /bin/true
expect_rc 0
expect_out "^read=$(readlink -f "$LINK")\$"
expect_no_out "^read=$LINK\$"
EOF

# ---- the home guard ----------------------------------------------------
# A command outside the system prefixes and the caller's roots makes its own
# directory a read root (rule 3); that directory must not be, or hold, a
# caller home the caller did not grant.  The guarded home is the test user's
# passwd home (HOME itself must be inside a --write, where it is granted
# anyway); C is a directory that holds no home.
G=$(newdir)
C=$(newdir)
run_as mkdir -p "$G/w/home"
PWHOME=$(getent passwd "$TUID" | cut -d: -f6)
cp /bin/true "$C/mytrue"
chmod 755 "$C/mytrue"

t "control: a command in a directory that holds no home runs, its directory a read root" <<'EOF'
run_as env HOME="$G/w/home" "$NS" --write "$G/w" -- "$C/mytrue"
expect_rc 0
expect_err "^SANDBOX OK "
run_as env HOME="$G/w/home" "$NS" policy --write "$G/w" -- "$C/mytrue"
expect_rc 0
expect_out "^read=$C\$"
EOF

t "home guard: a command in the caller's passwd home is refused" <<'EOF'
[ -d "$PWHOME" ] || _fail "the test user's passwd home $PWHOME does not exist"
run_as cp /bin/true "$PWHOME/nova-hg-mytrue-$$"
at_end "run_as rm -f '$PWHOME/nova-hg-mytrue-$$'"
run_as env HOME="$G/w/home" "$NS" --write "$G/w" -- "$PWHOME/nova-hg-mytrue-$$"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: the command's directory $PWHOME is, or holds, the home directory $PWHOME and would become a read root: run a copy of the command from inside a --write, or move it into a directory such as $PWHOME/bin; run: mkdir -p $G/w/bin && cp -- $PWHOME/nova-hg-mytrue-$$ $G/w/bin/nova-hg-mytrue-$$ && nova-sandbox --write $G/w -- $G/w/bin/nova-hg-mytrue-$$\$"
expect_no_err '^SANDBOX OK'
EOF

# ---- a tree moved to the name (issue 9's red team) ----------------------
# A root-owned directory holding a root-owned link is no user's to change,
# but a command can rename the whole directory inside its --write: the
# next run that is told that name would follow the link as trusted.

t "a root-owned link in a root-owned tree the command moved into place is refused" <<'EOF'
[ "$(id -u)" = 0 ] || skip "a root-owned tree needs root"
M=$(newdir); S=$(newdir)
run_as mkdir "$M/home"
run_as /bin/sh -c 'echo SECRET > "$1/s.txt"; chmod 700 "$1"' _ "$S"
mkdir -m 755 "$M/rootfs" && ln -s "$S" "$M/rootfs/L"
run_as env HOME="$M/home" "$NS" --write "$M" -- /bin/sh -c 'mv rootfs data'
expect_rc 0
expect_present "$M/data/L"
run_as env HOME="$HOMEV" "$NS" --write "$W" --read "$M/data/L" -- /bin/cat "$S/s.txt"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: --read $M/data/L resolves through the symlink $M/data/L -> $S, which the command's user could have made or replaced \(its directory could have been moved to that name: .*\): .* name --read $S; or leave it out; run: nova-sandbox --write [^ ]+ -- /bin/cat [^ ]+\$"
expect_no_out SECRET
run_as env HOME="$HOMEV" "$NS" --write "$W" --write "$M/data/L" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_write: --write $M/data/L resolves through the symlink"
EOF

t "control: the same root-owned tree where no user can rename it is followed, with a NOTE" <<'EOF'
[ "$(id -u)" = 0 ] || skip "a root-owned tree needs root"
S=$(newdir)
run_as /bin/sh -c 'echo SECRET > "$1/s.txt"; chmod 700 "$1"' _ "$S"
RT=$(mktemp -d /tmp/nova-it-rt.XXXXXX); chmod 755 "$RT"
at_end "rm -rf '$RT'"
mkdir -m 755 "$RT/data" && ln -s "$S" "$RT/data/L"
run_as env HOME="$HOMEV" "$NS" --write "$W" --read "$RT/data/L" -- /bin/cat "$S/s.txt"
expect_rc 0
expect_out SECRET
expect_err "^SANDBOX NOTE --read $RT/data/L resolves through the symlink $RT/data/L -> $S \(not one the command's user could have made or replaced\)"
EOF

# ---- the race ----------------------------------------------------------
# $R/a is a directory and $R/b a symlink to $T; a leftover process swaps
# them without pause.  The caller names --write $R/a.  Each run either is
# refused (it met the link) or writes into the directory it opened, which
# the OK line names; a file in $T is the leak.
R=$(newdir)
run_as mkdir "$R/a"
run_as ln -s "$T" "$R/b"
RUNS=${NOVA_RACE_RUNS:-200}

t "control: the swapper swaps (the attack runs)" <<'EOF'
run_as "$H/ns_swap" "$R/a" "$R/b" 1
expect_rc 0
expect_out '^swaps=[1-9]'
EOF

t "race: $RUNS runs while $R/a and a symlink are swapped; no write reaches $T" <<'EOF'
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
		"$H/ns_swap" "$R/a" "$R/b" 120 >/dev/null 2>&1 &
else
	"$H/ns_swap" "$R/a" "$R/b" 120 >/dev/null 2>&1 &
fi
swp=$!
ok=0; refused=0; bad=0
for i in $(seq 1 "$RUNS"); do
	# HOME lives in the second --write; the first, $R/a, is the cwd
	wall --write "$R/a" --write "$W" -- /bin/sh -c "echo $i > m.$i; echo $i > '$T/direct.$i'"
	if grep -q '^SANDBOX OK' "$ERR"; then
		ok=$((ok + 1))
		grep -qE "^SANDBOX OK .* cwd=$R/(a|b) .* deletes=$R/(a|b),$W\$" "$ERR" || bad=$((bad + 1))
	elif grep -q "resolves through the symlink $R/[ab] -> $T" "$ERR"; then
		refused=$((refused + 1))
	fi
done
kill "$swp" 2>/dev/null; wait "$swp" 2>/dev/null
leaked=$(find "$T" -mindepth 1 | wc -l)
echo "     race: runs=$RUNS ok=$ok refused=$refused leaked=$leaked bad_ok_line=$bad"
expect_eq "$leaked" 0 "files that reached the symlink's target $T"
expect_eq "$bad" 0 "OK lines naming something other than $R/a or $R/b"
[ "$ok" -gt 0 ] || _fail "no run got through: the race proved nothing"
inside=$(find "$R/a/" "$R/b/" -maxdepth 1 -name 'm.*' 2>/dev/null | wc -l)
expect_eq "$inside" "$ok" "markers in the directory the OK lines named"
[ "$refused" -gt 0 ] || _fail "no run met the link: the swapper did not race"
EOF
