#!/bin/bash
# SPDX-License-Identifier: MIT
# t_wall_seccomp.sh -- what the wall's seccomp filter refuses, through the
# real binary as the test user: acting on another process of the same user
# by pid (prlimit, renice), the user's keyring, socket families other than
# AF_UNIX under --net-deny (vsock, netlink, packet), FS_IOC_SETFLAGS on a
# --read file, a System V segment made outside.  Each has a control: the
# same helper, unwalled (or walled without --net-deny), succeeds.  The
# same in `run`.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
R=$(newdir)
C="$H/ns_wallcall"
wall() { run_as env HOME="$W" "$NS" "$@"; }
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@"
	else
		"$@"
	fi
}

# another process of the test user, outside every wall ($! is the sleep
# itself: a simple command, not a function, is put in the background)
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
		sleep 600 </dev/null >/dev/null 2>&1 &
else
	sleep 600 </dev/null >/dev/null 2>&1 &
fi
TP=$!
# wait until it is the sleep, as the test user (setpriv drops, then execs)
for _ in $(seq 100); do
	[ "$(cat /proc/$TP/comm 2>/dev/null)" = sleep ] &&
		[ "$(awk '/^Uid:/ { print $2 $3 $4 }' /proc/$TP/status)" = \
			"$TUID$TUID$TUID" ] && break
	sleep 0.05
done
SHM=""
_stop() {
	kill "$TP" 2>/dev/null && wait "$TP" 2>/dev/null
	[ -n "$SHM" ] && ipcrm -m "$SHM" 2>/dev/null
	_cleanup
}
trap _stop EXIT

# ---- class 1: other processes of the same user -------------------------
t "control: unwalled, prlimit on another process of the user works" <<'EOF'
run_as "$C" prlimit "$TP"
expect_rc 0
expect_out '^ok nofile='
EOF

t "walled, prlimit on another process of the user is refused" <<'EOF'
wall --write "$W" -- "$C" prlimit "$TP"
expect_rc 1
expect_out '^denied: prlimit64: Operation not permitted$'
EOF

t "walled, prlimit on itself (pid 0) works" <<'EOF'
wall --write "$W" -- "$C" prlimit 0
expect_rc 0
expect_out '^ok nofile='
EOF

t "walled, a shell's ulimit works (its own limit, pid 0)" <<'EOF'
wall --write "$W" -- /bin/sh -c 'ulimit -n 64 && ulimit -n'
expect_rc 0
expect_out '^64$'
EOF

t "control: unwalled, renice of another process of the user works" <<'EOF'
run_as "$C" renice "$TP"
expect_rc 0
expect_out '^ok$'
EOF

t "walled, renice of another process of the user is refused" <<'EOF'
wall --write "$W" -- "$C" renice "$TP"
expect_rc 1
expect_out '^denied: setpriority: Operation not permitted$'
EOF

t "control: unwalled, the user's keyring (@u) is reachable" <<'EOF'
run_as "$C" keyctl-user
expect_rc 0
expect_out '^ok keyring='
EOF

t "walled, the user's keyring (@u) is refused" <<'EOF'
wall --write "$W" -- "$C" keyctl-user
expect_rc 1
expect_out '^denied: keyctl: Operation not permitted$'
EOF

# ---- class 5: socket families under --net-deny ---------------------------
for fam in vsock netlink; do
	t "control: walled without --net-deny, an AF_${fam^^} socket is made" <<'EOF'
	[ "$fam" != vsock ] || needs_machine vsock
	wall --write "$W" -- "$C" socket "$fam"
	expect_rc 0
	expect_out '^ok$'
EOF

	t "walled with --net-deny, an AF_${fam^^} socket is refused" <<'EOF'
	[ "$fam" != vsock ] || needs_machine vsock
	wall --write "$W" --net-deny -- "$C" socket "$fam"
	expect_rc 1
	expect_out '^denied: socket: Permission denied$'
EOF
done

# AF_PACKET needs CAP_NET_RAW: an unprivileged user holds it in a user and
# network namespace of its own (the helper unshares, then makes the socket)
t "control: unwalled, in a user+net namespace, an AF_PACKET socket is made" <<'EOF'
needs_machine userns
run_as "$C" socket-ns packet
expect_rc 0
expect_out '^ok$'
EOF

t "control: walled without --net-deny, the same AF_PACKET socket is made" <<'EOF'
needs_machine userns
wall --write "$W" -- "$C" socket-ns packet
expect_rc 0
expect_out '^ok$'
EOF

t "walled with --net-deny, AF_PACKET is refused even in a namespace of its own" <<'EOF'
needs_machine userns
wall --write "$W" --net-deny -- "$C" socket-ns packet
expect_rc 1
expect_out '^denied: socket: Permission denied$'
EOF

t "walled with --net-deny, AF_UNIX sockets still work" <<'EOF'
wall --write "$W" --net-deny -- "$C" socket unix
expect_rc 0
expect_out '^ok$'
EOF

t "walled with --net-deny, name lookup fails at once, without a hang" <<'EOF'
wall --write "$W" --net-deny -- /usr/bin/timeout 10 getent ahosts example.org
expect_rc 2
expect_no_err 'Segmentation|Aborted'
EOF

# ---- class 7: flags on a --read file ------------------------------------
as_user sh -c 'echo data > "$0"' "$R/f"

t "control: unwalled, FS_IOC_SETFLAGS on the user's file works" <<'EOF'
run_as "$C" setflags "$R/f"
expect_rc 0
expect_out '^ok flags='
EOF

t "walled, FS_IOC_SETFLAGS on a --read file is refused" <<'EOF'
wall --write "$W" --read "$R" -- "$C" setflags "$R/f"
expect_rc 1
expect_out '^denied: FS_IOC_SETFLAGS: Operation not permitted$'
EOF

# ---- class 8: System V IPC ----------------------------------------------
# a segment made outside the wall, by the user
run_as "$C" shm-make
SHM=$(sed -n 's/^ok id=\([0-9]*\)$/\1/p' "$OUT")

t "control: a segment made outside is attached and read unwalled" <<'EOF'
[ -n "$SHM" ] || _fail "no segment id (shm-make exited $RC)"
run_as "$C" shm-read "${SHM:-0}"
expect_rc 0
expect_out '^ok text=secret$'
EOF

t "walled, the segment made outside cannot be attached" <<'EOF'
wall --write "$W" -- "$C" shm-read "${SHM:-0}"
expect_rc 1
expect_out '^denied: shmat: Operation not permitted$'
EOF

t "walled, no segment can be made (none is left behind)" <<'EOF'
wall --write "$W" -- "$C" shm-make
expect_rc 1
expect_out '^denied: shmget: Operation not permitted$'
EOF

# ---- the same in run (user mode: the tool runs as the test user) ---------
RD=$(mktemp -d "$NOVA_B/tests/seccomp-read.XXXXXX")
chmod 755 "$RD"
echo "$RD" >> "$_DIRS"
cp "$C" "$RD/ns_wallcall"
chmod 755 "$RD/ns_wallcall"
runw() {
	run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "sc$$" \
		--size 64m --read "$RD" "$@"
}

t "run: the user's keyring is refused" <<'EOF'
runw -- "$RD/ns_wallcall" keyctl-user
expect_rc 1
expect_out '^denied: keyctl: Operation not permitted$'
EOF

t "run: pid 1 of the run's namespace is not the command's: prlimit refused" <<'EOF'
runw -- "$RD/ns_wallcall" prlimit 1
expect_rc 1
expect_out '^denied: prlimit64: Operation not permitted$'
EOF

t "run: prlimit on itself works" <<'EOF'
runw -- "$RD/ns_wallcall" prlimit 0
expect_rc 0
expect_out '^ok nofile='
EOF

t "run: the segment made outside cannot be attached" <<'EOF'
runw -- "$RD/ns_wallcall" shm-read "${SHM:-0}"
expect_rc 1
expect_out '^denied: shmat: Operation not permitted$'
EOF
