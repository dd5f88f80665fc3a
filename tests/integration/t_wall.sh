#!/bin/bash
# SPDX-License-Identifier: MIT
# t_wall.sh -- the Linux wall (landlock.so) through the host, as the
# unprivileged test user: reads, writes, outside writes and secrets refused,
# --read-noexec, symlinks and hardlinks out of a --write.  Every denial is
# paired with a control: the same action, unwalled, succeeds.
source "$(dirname "$0")/lib.sh"

W=$(newdir)      # the --write
O=$(newdir)      # a directory outside the wall, the user's own
R=$(newdir)      # a --read / --read-noexec
echo "read me" > "$R/data"
cp /bin/true "$R/true"
echo "the secret" > "$O/secret"
echo "original" > "$O/target"
echo "linked" > "$O/file"
chmod 600 "$O/secret"
chmod 755 "$R/true"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$R"/* "$O"/*
# this kernel reports ABI 7 (landlock.md); another machine may say so here
ABI=${NOVA_EXPECT_LANDLOCK_ABI:-7}

wall() { run_as env HOME="$W" "$NS" "$@"; }

t "SANDBOX OK names landlock and the kernel's abi" <<'EOF'
wall --write "$W" -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK backend=landlock abi=$ABI read=0 read-noexec=0 write=1 net=nopromise "
expect_err '^SANDBOX DONE exit=0 cmd=true$'
EOF

t "reads the roots and --read" <<'EOF'
wall --read "$R" --write "$W" -- /bin/sh -c \
	'cat /etc/passwd >/dev/null && ls /usr/bin >/dev/null && cat "$0"/data' "$R"
expect_rc 0
expect_out '^read me$'
EOF

t "writes inside --write" <<'EOF'
wall --write "$W" -- /bin/sh -c 'echo inside > "$0"/f && mkdir "$0"/d && mv "$0"/f "$0"/d/g' "$W"
expect_rc 0
expect_eq "$(cat "$W/d/g" 2>/dev/null)" "inside" "write inside"
EOF

t "control: unwalled, the user writes outside" <<'EOF'
run_as /bin/sh -c 'echo control > "$0"/c' "$O"
expect_rc 0
expect_present "$O/c"
rm -f "$O/c"
EOF

t "cannot write outside" <<'EOF'
wall --write "$W" -- /bin/sh -c 'echo out > "$0"/c' "$O"
expect_rc 2
expect_err 'Permission denied'
expect_absent "$O/c"
EOF

t "control: unwalled, the user reads the secret" <<'EOF'
run_as cat "$O/secret"
expect_rc 0
expect_out '^the secret$'
EOF

t "cannot read a secret outside" <<'EOF'
wall --write "$W" -- /bin/cat "$O/secret"
expect_rc 1
expect_no_out 'the secret'
expect_err 'Permission denied'
EOF

t "control: --read executes what it grants" <<'EOF'
wall --read "$R" --write "$W" -- /bin/sh -c '"$0"/true' "$R"
expect_rc 0
EOF

t "--read-noexec reads but does not execute" <<'EOF'
wall --read-noexec "$R" --write "$W" -- /bin/sh -c 'cat "$0"/data && "$0"/true' "$R"
expect_rc 126
expect_out '^read me$'
EOF

# a symlink in the --write to a file outside it
ln -s "$O/target" "$W/link"
[ "$(id -u)" = 0 ] && chown -h "$TUID:$TGID" "$W/link"

t "control: unwalled, a symlink in --write writes through to outside" <<'EOF'
run_as /bin/sh -c 'echo through > "$0"/link' "$W"
expect_rc 0
expect_eq "$(cat "$O/target")" "through" "control write through symlink"
echo "original" > "$O/target"
EOF

t "a symlink planted in --write cannot write outside" <<'EOF'
wall --write "$W" -- /bin/sh -c 'echo through > "$0"/link' "$W"
expect_rc 2
expect_eq "$(cat "$O/target")" "original" "target unchanged"
EOF

t "control: unwalled, an outside file can be hardlinked into --write" <<'EOF'
run_as ln "$O/file" "$W/hl"
expect_rc 0
expect_present "$W/hl"
rm -f "$W/hl"
EOF

t "an outside file cannot be hardlinked into --write" <<'EOF'
wall --write "$W" -- /bin/ln "$O/file" "$W/hl"
expect_rc 1
expect_absent "$W/hl"
EOF

# A signal the caller started the tool with ignored (nohup's SIGHUP; a
# background job's SIGINT) stays ignored by the command, as it would be
# without the wall, and the tool does not catch it either.
t "control: unwalled, a command started with SIGHUP ignored survives its own SIGHUP" <<'EOF'
run_as /bin/sh -c 'trap "" HUP; exec /bin/sh -c "kill -HUP \$\$; echo survived"'
expect_rc 0
expect_out '^survived$'
EOF

t "a SIGHUP the caller ignored stays ignored by the walled command (nohup)" <<'EOF'
run_as env HOME="$W" /bin/sh -c 'trap "" HUP; exec "$0" --write "$1" -- /bin/sh -c "kill -HUP \$\$; echo survived"' "$NS" "$W"
expect_rc 0
expect_out '^survived$'
expect_err '^SANDBOX DONE exit=0 cmd='
EOF

t "a SIGHUP the caller ignored is not caught by the tool: a hangup sent to it leaves the run alone" <<'EOF'
run_as env HOME="$W" /bin/sh -c 'trap "" HUP; "$0" --write "$1" -- /bin/sh -c "sleep 1; echo finished" & p=$!; sleep 0.3; kill -HUP $p; wait $p' "$NS" "$W"
expect_rc 0
expect_out '^finished$'
expect_err '^SANDBOX DONE exit=0 cmd='
EOF

t "control: a SIGHUP the caller did not ignore ends the walled run (129)" <<'EOF'
run_as env HOME="$W" /bin/sh -c '"$0" --write "$1" -- /bin/sh -c "sleep 1; echo finished" & p=$!; sleep 0.3; kill -HUP $p; wait $p' "$NS" "$W"
expect_rc 129
expect_no_out '^finished$'
EOF

# SIGCHLD ignored by the caller would make the kernel reap the command
# for the tool, which then lost its status (exit 125; run hung): the tool
# sets SIGCHLD back to its default when it starts.
t "control: the helper hands a program SIGCHLD ignored (what the tool then starts under)" <<'EOF'
run_as "$H/ns_sigign" 17 -- /bin/grep SigIgn /proc/self/status
expect_rc 0
expect_out '^SigIgn:.*1....$' # bit 16: SIGCHLD (17) ignored
EOF

t "a SIGCHLD the caller ignored: the wrap still reports the command's own exit (7)" <<'EOF'
run_as env HOME="$W" "$H/ns_sigign" 17 -- "$NS" --write "$W" -- /bin/sh -c "exit 7"
expect_rc 7
expect_err '^SANDBOX DONE exit=7 '
expect_no_err 'lost'
EOF

t "a SIGCHLD the caller ignored: run reports the command's exit (7), no TIMEOUT, no hang" <<'EOF'
run_as env HOME="$W" "$H/ns_sigign" 17 -- "$NS" run --name "chld-$$" --size 8m --timeout 10s -- /bin/sh -c "exit 7"
expect_rc 7
expect_err '^SANDBOX DONE name=chld-[0-9]* exit=7 '
expect_no_err 'TIMEOUT'
EOF

# Rule 8a's removal never enters a mount point: a directory mounted inside
# the temp directory (here by root, in a mount namespace of the test's
# own; the walled command cannot mount) stays whole, and a NOTE says why
# the temp directory is left.
t "control: rm -rf of a tree holding a bind mount empties what is mounted (root)" <<'EOF'
[ "$(id -u)" = 0 ] || skip "a bind mount needs root"
V=$(newdir); X=$(newdir)
echo keep > "$V/a"; mkdir "$V/sub" "$X/m"; echo keep > "$V/sub/b"
unshare -m --propagation private sh -c 'mount --bind "$0" "$1/m" && rm -rf "$1/m/"*' "$V" "$X"
RC=$?
expect_rc 0
expect_eq "$(ls -A "$V")" "" "the mounted directory emptied"
EOF

t "the temp directory's removal does not enter a mount point inside it; the NOTE says so (root)" <<'EOF'
[ "$(id -u)" = 0 ] || skip "a bind mount needs root"
V=$(newdir); W2=$(newdir)
echo keep > "$V/a"; mkdir "$V/sub"; echo keep > "$V/sub/b"
chown -R "$TUID:$TGID" "$V" "$W2"
unshare -m --propagation private sh -c '
	setpriv --reuid="$2" --regid="$3" --clear-groups -- env HOME="$1" "$4" \
		--write "$1" -- /bin/sh -c "mkdir \"\$TMPDIR/m\"; sleep 2" &
	p=$!
	i=0; while [ ! -d "$1/.nova-sandbox-tmp/m" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
	mount --bind "$0" "$1/.nova-sandbox-tmp/m"
	wait $p' "$V" "$W2" "$TUID" "$TGID" "$NS" >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 0
expect_eq "$(cat "$V/a" "$V/sub/b" 2>&1)" "$(printf 'keep\nkeep')" "what was mounted is whole"
expect_err '^SANDBOX NOTE the temp directory .*/.nova-sandbox-tmp the tool made holds a mount point \(another file system, or another mount of this one\), which the tool does not enter: left as it is; unmount it, then remove the directory$'
EOF
