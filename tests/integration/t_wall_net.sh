#!/bin/bash
# SPDX-License-Identifier: MIT
# t_wall_net.sh -- --net-deny on Linux means no IP at all: TCP connect, UDP
# send and MPTCP (IPPROTO_MPTCP, which Landlock's TCP rules do not see) all
# fail walled with --net-deny; the controls (unwalled, and walled without
# --net-deny) reach a loopback listener the test started outside the wall.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
LP=""
_stop_listener() { [ -n "$LP" ] && kill "$LP" 2>/dev/null && wait "$LP" 2>/dev/null; LP=""; }
trap '_stop_listener; _cleanup' EXIT

# the listener runs as the test user, outside the wall
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
		"$H/ns_listen" "$W/ports" </dev/null >/dev/null 2>&1 &
else
	"$H/ns_listen" "$W/ports" </dev/null >/dev/null 2>&1 &
fi
LP=$!
for _ in $(seq 50); do [ -s "$W/ports" ] && break; sleep 0.1; done
tcp=$(sed -n 's/.*tcp=\([0-9]*\) mptcp.*/\1/p' "$W/ports")
mptcp=$(sed -n 's/.*mptcp=\([0-9]*\).*/\1/p' "$W/ports")
udp=$(sed -n 's/.*udp=\([0-9]*\).*/\1/p' "$W/ports")

wall() { run_as env HOME="$W" "$NS" "$@"; }

for proto in tcp udp mptcp; do
	port=${!proto}
	t "control: unwalled $proto to 127.0.0.1 works" <<'EOF'
	[ "$proto" != mptcp ] || needs_machine mptcp
	[ "${port:-0}" != 0 ] || _fail "the listener has no $proto port"
	run_as "$H/ns_escape" "$proto" "$port"
	expect_rc 0
	expect_out '^ok$'
EOF

	t "control: walled without --net-deny, $proto works (net=nopromise)" <<'EOF'
	[ "$proto" != mptcp ] || needs_machine mptcp
	wall --write "$W" -- "$H/ns_escape" "$proto" "$port"
	expect_rc 0
	expect_out '^ok$'
	expect_err ' net=nopromise '
EOF

	t "walled with --net-deny, $proto fails (net=denied)" <<'EOF'
	[ "$proto" != mptcp ] || needs_machine mptcp
	wall --net-deny --write "$W" -- "$H/ns_escape" "$proto" "$port"
	expect_rc 1
	expect_out '^denied: socket: Permission denied$'
	expect_err ' net=denied '
EOF
done
