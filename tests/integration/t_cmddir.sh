#!/bin/bash
# SPDX-License-Identifier: MIT
# t_cmddir.sh -- rule 3's command directory: a directory others share
# (sticky, writable by others, another user's, or holding another user's
# file) is not made a read root; the command's file alone is, with a NOTE.
# A private directory of the user's is granted as before (the control),
# and --read of the shared directory grants it.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
mkdir -p "$W/home"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$W"
# cmddir MODE: a directory of the test user's with the command (cat) and a
# ticket of the user's beside it
cmddir() {
	S=$(newdir)
	cp /bin/cat "$S/job"
	echo ticket > "$S/krb5cc"
	chmod 600 "$S/krb5cc"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$S"
	chmod "$1" "$S"
}
wall() { run_as env HOME="$W/home" "$NS" --write "$W" "$@"; }

t "control: unwalled, the command reads the ticket beside it" <<'EOF'
cmddir 1777
run_as "$S/job" "$S/krb5cc"
expect_rc 0
expect_out '^ticket$'
EOF

t "a sticky directory: the command runs, the ticket beside it is refused, a NOTE says why" <<'EOF'
cmddir 1777
wall -- "$S/job" "$S/krb5cc"
expect_rc 1
expect_err "^SANDBOX NOTE the command's directory $S is sticky \(a directory others share, like /tmp\): only the command $S/job is readable and executable there, not the directory \(--read $S grants it\)$"
expect_err "^SANDBOX OK "
expect_no_out ticket
EOF

t "a directory writable by others: the command's file alone" <<'EOF'
cmddir 0777
wall -- "$S/job" "$S/krb5cc"
expect_rc 1
expect_err "^SANDBOX NOTE the command's directory $S is writable by others: only the command $S/job"
EOF

t "control: a private directory of the user's is granted (the ticket read)" <<'EOF'
cmddir 0755
wall -- "$S/job" "$S/krb5cc"
expect_rc 0
expect_out '^ticket$'
expect_no_err "command's directory"
EOF

t "--read of the shared directory grants it, no NOTE" <<'EOF'
cmddir 1777
wall --read "$S" -- "$S/job" "$S/krb5cc"
expect_rc 0
expect_out '^ticket$'
expect_no_err "command's directory"
EOF

t "a directory holding another user's file: the command's file alone" <<'EOF'
[ "$(id -u)" = 0 ] || skip "another user's file needs root"
cmddir 0755
: > "$S/roots"
chown 4343:4343 "$S/roots"
wall -- "$S/job" "$S/krb5cc"
expect_rc 1
expect_err "^SANDBOX NOTE the command's directory $S is holding another user's files: only the command $S/job"
EOF

t "policy prints the file rule, not the directory" <<'EOF'
cmddir 1777
run_as env HOME="$W/home" "$NS" policy --write "$W" -- "$S/job"
expect_rc 0
expect_out "^read=$S/job\$"
expect_no_out "^read=$S\$"
EOF
