#!/bin/bash
# SPDX-License-Identifier: MIT
# t_wall_escape.sh -- what the walled command must not do to its caller:
# inject keystrokes (TIOCSTI, also with high bits set in the request, cf.
# CVE-2019-10063), signal or ptrace the tool, see descriptors the tool was
# started with.  Each has a control: the same helper, unwalled, succeeds.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
wall() { run_as env HOME="$W" "$NS" "$@"; }

t "control: unwalled TIOCSTI on the controlling tty works" <<'EOF'
needs_machine tty tiocsti
run_as "$H/ns_ptyrun" "$H/ns_escape" tiocsti
expect_rc 0
expect_out '^ok$'
EOF

t "walled TIOCSTI is refused" <<'EOF'
needs_machine tty tiocsti
run_as env HOME="$W" "$H/ns_ptyrun" "$NS" --write "$W" -- "$H/ns_escape" tiocsti
expect_rc 1
expect_out '^denied: ioctl TIOCSTI: Operation not permitted$'
EOF

t "control: unwalled TIOCSTI with high bits set works (the kernel drops them)" <<'EOF'
needs_machine tty tiocsti
run_as "$H/ns_ptyrun" "$H/ns_escape" tiocsti high
expect_rc 0
expect_out '^ok$'
EOF

t "walled TIOCSTI with high bits set is refused" <<'EOF'
needs_machine tty tiocsti
run_as env HOME="$W" "$H/ns_ptyrun" "$NS" --write "$W" -- "$H/ns_escape" tiocsti high
expect_rc 1
expect_out '^denied: ioctl TIOCSTI: Operation not permitted$'
EOF

t "control: a process outside the wall signals its parent" <<'EOF'
run_as /bin/sh -c '"$0" kill-parent' "$H/ns_escape"
expect_rc 0
expect_out '^ok$'
EOF

t "the walled command cannot signal the tool" <<'EOF'
wall --write "$W" -- "$H/ns_escape" kill-parent
expect_rc 1
expect_out '^denied: kill: Operation not permitted$'
EOF

t "control: a process outside the wall ptraces its parent" <<'EOF'
run_as /bin/sh -c '"$0" ptrace-parent' "$H/ns_escape"
expect_rc 0
expect_out '^ok$'
EOF

t "the walled command cannot ptrace the tool" <<'EOF'
wall --write "$W" -- "$H/ns_escape" ptrace-parent
expect_rc 1
expect_out '^denied: ptrace attach: Operation not permitted$'
EOF

t "control: unwalled, a command sees fds 5 and 7 it was started with" <<'EOF'
run_as bash -c 'exec 5</dev/null 7</dev/null; exec "$@"' _ "$H/ns_escape" fds
expect_rc 0
expect_out '^fds=(.*,)?5,7(,.*)?$'
EOF

t "the walled command sees only fds 0-2" <<'EOF'
run_as env HOME="$W" bash -c 'exec 5</dev/null 7</dev/null; exec "$@"' _ \
	"$NS" --write "$W" -- "$H/ns_escape" fds
expect_rc 0
expect_out '^fds=none$'
EOF
