#!/bin/bash
# SPDX-License-Identifier: MIT
# t_wall_dev.sh -- devices through the wall (issue 7, class 2; SPEC §6, the
# device rows): no other terminal of the user, /dev/tty only when the
# command's own stdio is that terminal and holds it for reading and
# writing, no /dev/shm object of another program, no new pty; /dev/null,
# zero, full, random and urandom still work.  The bare wrap and `run`.
# Every denial has its control: the same helper, unwalled, succeeds.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
DEV="$H/ns_dev"
wall() { run_as env HOME="$W" "$NS" --write "$W" -- "$@"; }
runw() { run_as env HOME="$THOME" PATH=/usr/bin:/bin "$NS" run "$@"; }
# ns_ptyrun gives the tool a controlling terminal on its stdin; `away`
# then moves fd 0 off it (fds 1 and 2 are the test's files already)
ptyrun() { run_as env HOME="$W" "$H/ns_ptyrun" "$@"; }
away() { run_as env HOME="$W" "$H/ns_ptyrun" /bin/sh -c 'exec "$@" </dev/null' _ "$@"; }

HOLDERS=()
stop_holders() {
	local p
	for p in "${HOLDERS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	HOLDERS=()
}
trap 'stop_holders; _cleanup' EXIT

# hold NAME ARGS...: start an ns_dev holder as the test user; $HELD is
# what it announced (the pty's slave, the shm name)
hold() {
	local f="$W/held.$1.$$"
	shift
	rm -f "$f"
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- \
			"$DEV" "$@" "$f" </dev/null >/dev/null 2>&1 &
	else
		"$DEV" "$@" "$f" </dev/null >/dev/null 2>&1 &
	fi
	HOLDERS+=($!)
	at_end stop_holders    # the case's holders die with the case
	for _ in $(seq 100); do [ -s "$f" ] && break; sleep 0.05; done
	HELD=$(cat "$f" 2>/dev/null)
	[ -n "$HELD" ] || _fail "the holder did not start"
}

# ---- another terminal of the user ---------------------------------------
t "control: unwalled, another pty of the user is read (keystrokes)" <<'EOF'
hold pty hold-pty
run_as "$DEV" read "$HELD"
expect_rc 0
expect_out '^data=typed-secret$'
stop_holders
EOF

t "walled: another pty of the user cannot be opened" <<'EOF'
hold pty hold-pty
wall "$DEV" read "$HELD"
expect_rc 1
expect_out '^denied: open: Permission denied$'
expect_no_out 'typed-secret'
stop_holders
EOF

t "run: another pty of the user cannot be opened" <<'EOF'
hold pty hold-pty
runw --name "dv-$$" --size 8m -- "$DEV" read "$HELD"
expect_rc 1
expect_out '^denied: open: Permission denied$'
stop_holders
EOF

# ---- /dev/tty and the terminal on the command's own stdio ---------------
t "control: with stdin away from the terminal, unwalled /dev/tty still opens" <<'EOF'
needs_machine tty
away "$DEV" open-tty
expect_rc 0
expect_out '^ok$'
EOF

t "walled: /dev/tty is refused when fds 0-2 are away from the terminal" <<'EOF'
needs_machine tty
away "$NS" --write "$W" -- "$DEV" open-tty
expect_rc 1
expect_out '^denied: open /dev/tty: Permission denied$'
expect_err '^SANDBOX OK .* tty=- protected=- deletes='
EOF

t "walled: with stdin on the terminal, /dev/tty and its own node are granted" <<'EOF'
needs_machine tty
ptyrun "$NS" --read "$H" --write "$W" -- /bin/sh -c '"$0" open-tty && "$0" read /proc/self/fd/0' "$DEV"
expect_rc 0
expect_out '^ok$'
expect_no_out '^denied'
expect_err '^SANDBOX OK .* tty=/dev/tty,/dev/pts/[0-9]+ protected=- deletes='
EOF

t "walled: a terminal on stdio for writing only is not granted by name" <<'EOF'
needs_machine tty
run_as env HOME="$W" "$H/ns_ptyrun" /bin/sh -c 'exec "$@" </dev/null 2>/dev/tty' _ \
	"$NS" --write "$W" -- "$DEV" open-tty
expect_rc 1
expect_out '^denied: open /dev/tty: Permission denied$'
EOF

t "run: /dev/tty is refused when fds 0-2 are away from the terminal" <<'EOF'
needs_machine tty
away "$NS" run --name "dt-$$" --size 8m -- "$DEV" open-tty
expect_rc 1
expect_out '^denied: open /dev/tty: Permission denied$'
EOF

t "run: with stdin on the terminal, /dev/tty is granted" <<'EOF'
needs_machine tty
ptyrun env PATH=/usr/bin:/bin "$NS" run --name "du-$$" --size 8m -- "$DEV" open-tty
expect_rc 0
expect_out '^ok$'
expect_err '^SANDBOX OK name=du-[0-9]+ .* tty=/dev/tty,/dev/pts/[0-9]+ protected=- deletes='
EOF

# ---- /dev/shm and new ptys ----------------------------------------------
t "control: unwalled, another program's /dev/shm object is read" <<'EOF'
hold shm hold-shm "/nova-it-shm-$$"
run_as "$DEV" shm-read "/nova-it-shm-$$"
expect_rc 0
expect_out '^data=shm-secret$'
stop_holders
EOF

t "walled: another program's /dev/shm object cannot be opened" <<'EOF'
hold shm hold-shm "/nova-it-shm-$$"
wall "$DEV" shm-read "/nova-it-shm-$$"
expect_rc 1
expect_out '^denied: shm_open: Permission denied$'
stop_holders
EOF

t "walled: no POSIX shm object can be made inside (the stated cost)" <<'EOF'
run_as "$DEV" shm-make "/nova-it-own-$$"
expect_rc 0
wall "$DEV" shm-make "/nova-it-own-$$"
expect_rc 1
expect_out '^denied: shm_open: Permission denied$'
EOF

t "walled: no new pty (/dev/ptmx); control: unwalled it opens" <<'EOF'
needs_machine tty
run_as "$DEV" ptmx
expect_rc 0
wall "$DEV" ptmx
expect_rc 1
expect_out '^denied: open /dev/ptmx: Permission denied$'
EOF

# ---- the devices a command needs ----------------------------------------
t "null, zero, full, random, urandom work inside as outside" <<'EOF'
run_as "$DEV" devs
expect_rc 0
expect_out '^ok$'
wall "$DEV" devs
expect_rc 0
expect_out '^ok$'
runw --name "dd-$$" --size 8m -- "$DEV" devs
expect_rc 0
expect_out '^ok$'
EOF

t "/dev/urandom is read, never written, inside; control: written outside" <<'EOF'
run_as "$DEV" write /dev/urandom
expect_rc 0
wall "$DEV" write /dev/urandom
expect_rc 1
expect_out '^denied: open: Permission denied$'
EOF

t "policy: the device rules, no /dev root" <<'EOF'
needs_machine tty
run_as env HOME="$W" "$NS" policy --write "$W"
expect_rc 0
expect_out '^read=/dev/random$'
expect_out '^read=/dev/urandom$'
expect_out '^writefile=/dev/null$'
expect_out '^writefile=/dev/zero$'
expect_out '^writefile=/dev/full$'
expect_no_out '^read=/dev$'
expect_no_out '^writefile=/dev/tty$'
ptyrun "$NS" policy --write "$W"
expect_rc 0
expect_out '^writefile=/dev/tty$'
expect_out '^writefile=/dev/pts/[0-9]+$'
EOF
