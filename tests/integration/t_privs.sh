#!/bin/bash
# SPDX-License-Identifier: MIT
# t_privs.sh -- the caller's capabilities and the wall (root only: the
# cases give the unprivileged test user ambient capabilities, as a
# service's AmbientCapabilities= or `setpriv --ambient-caps` would, and
# switch the kernel's audit on):
# - the command holds no capability, whatever the caller had (a leak the
#   red team's class "what does the mechanism not cover" found: ambient
#   CAP_AUDIT_READ or CAP_NET_RAW passed into the wall);
# - with CAP_AUDIT_READ and audit on, landlock.so names the wall's denials
#   from the kernel's Landlock audit records too, with or without
#   --explain; DAC's refusals are not named; a path the tracer named is
#   not named twice; without the capability or with audit off, nothing is
#   read (controls).
source "$(dirname "$0")/lib.sh"

AUDITCTL="$H/ns_auditctl"
if [ "$(id -u)" = 0 ]; then
	AUDIT0=$("$AUDITCTL" get 2>/dev/null || echo x)
	trap '[ "$AUDIT0" = 0 ] && "$AUDITCTL" off >/dev/null 2>&1; _cleanup' EXIT
fi

# as the test user with ambient capabilities $1 (e.g. +audit_read)
run_caps() {
	local caps=$1
	shift
	setpriv --reuid="$TUID" --regid="$TGID" --clear-groups \
		--inh-caps="$caps" --ambient-caps="$caps" -- "$@" \
		>"$OUT" 2>"$ERR" </dev/null
	RC=$?
}
world() {
	D=$(newdir)
	mkdir -p "$D/w/home"
	O=$(newdir)          # the test user's, outside every rule
	echo secret > "$O/secret"
	chown -R "$TUID:$TGID" "$D" "$O"
}
# the command: read $O, create in $O, and two refusals DAC makes too
# (/root is root's 0700; /etc is not the test user's to write)
JOB='ls "$0" >/dev/null; echo x > "$0/f"; cat /root/.nova-no 2>/dev/null; echo x > /etc/nova-au; exit 3'

t "the command holds no capability, with ambient ones in the caller" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient
world
# control: outside the wall the same caller's process has them
run_caps +audit_read,+net_raw grep '^CapAmb' /proc/self/status
expect_out '^CapAmb:[[:space:]]+0000002000002000$'
run_caps +audit_read,+net_raw env HOME="$D/w/home" "$NS" --write "$D/w" -- \
	/bin/grep '^Cap[IPEA]' /proc/self/status
expect_rc 0
expect_out '^CapInh:[[:space:]]+0+$'
expect_out '^CapPrm:[[:space:]]+0+$'
expect_out '^CapEff:[[:space:]]+0+$'
expect_out '^CapAmb:[[:space:]]+0+$'
# and under --explain (the tracer's fork)
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" --explain -- \
	/bin/grep '^CapAmb' /proc/self/status
expect_out '^CapAmb:[[:space:]]+0+$'
EOF

t "control: audit off, CAP_AUDIT_READ: nothing read, check says audit is off" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" off >/dev/null || _fail "audit off"
# whether audit is on takes CAP_AUDIT_CONTROL to ask
run_caps +audit_read,+audit_control "$NS" check
expect_out 'the audit log is readable but audit is off \(no records\)'
run_caps +audit_read "$NS" check
expect_out 'the audit log is read too \(whether audit is on is unknown\)'
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" -- /bin/sh -c "$JOB" "$O"
expect_rc 3
expect_no_err '^SANDBOX DENIED'
expect_err '^SANDBOX NOTE the command exited 3: if the wall denied it a path, rerun with --explain to name it$'
EOF

t "control: audit on, no CAP_AUDIT_READ: nothing read, check says why" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" on >/dev/null || _fail "audit on"
run_as "$NS" check
expect_out 'the audit log is not read \(no CAP_AUDIT_READ\)'
run_as env HOME="$D/w/home" "$NS" --write "$D/w" -- /bin/sh -c "$JOB" "$O"
expect_rc 3
expect_no_err '^SANDBOX DENIED'
EOF

t "audit on, CAP_AUDIT_READ, no --explain: the wall's denials named from the log, DAC's not" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" on >/dev/null || _fail "audit on"
# control: unwalled, the same user reads and creates in $O
run_as /bin/sh -c 'ls "$0" >/dev/null && echo x > "$0/g"' "$O"
expect_rc 0
run_caps +audit_read,+audit_control "$NS" check
expect_out 'the audit log names denials too, with or without --explain'
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" -- /bin/sh -c "$JOB" "$O"
expect_rc 3
expect_err "^SANDBOX DENIED path=$O op=read remedy=\"--read $O\"\$"
expect_err "^SANDBOX DENIED path=$O op=write remedy=\"--write $O\"\$"
expect_eq "$(grep -c '^SANDBOX DENIED' "$ERR")" 2 "DENIED lines (none for /etc or /root)"
expect_err '^SANDBOX NOTE 2 of the denied paths below come from the kernel.s audit log'
expect_absent "$O/f"
# the remedies fix it
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" --write "$O" -- \
	/bin/sh -c 'ls "$0" >/dev/null && echo x > "$0/f"' "$O"
expect_rc 0
expect_present "$O/f"
EOF

t "audit on, CAP_AUDIT_READ, --explain: what the tracer named is not named twice" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" on >/dev/null || _fail "audit on"
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" --explain -- /bin/sh -c "$JOB" "$O"
expect_rc 3
expect_err "^SANDBOX DENIED path=$O op=read remedy=\"--read $O\"\$"
expect_err "^SANDBOX DENIED path=$O/f op=create remedy=\"--write $O\"\$"
expect_eq "$(grep -c '^SANDBOX DENIED' "$ERR")" 2 "DENIED lines"
expect_no_err 'come from the kernel.s audit log'
EOF

t "--explain with ambient CAP_DAC_READ_SEARCH: DAC's refusals are still not named" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" off >/dev/null || _fail "audit off"
# control: without the capability, nothing named either (DAC refuses both)
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" --explain -- \
	/bin/sh -c 'cat /etc/shadow; ls /root; exit 3'
expect_rc 3
expect_no_err '^SANDBOX DENIED'
run_caps +dac_read_search env HOME="$D/w/home" "$NS" --write "$D/w" --explain -- \
	/bin/sh -c 'cat /etc/shadow; ls /root; exit 3'
expect_rc 3
expect_no_err '^SANDBOX DENIED'
EOF

t "ambient CAP_DAC_OVERRIDE in the caller: no false wall_writable (the command holds none)" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient
world
run_caps +dac_override env HOME="$D/w/home" "$NS" --write "$D/w" -- /bin/true
expect_rc 0
expect_no_err 'wall_writable'
EOF

t "a delete in a sticky directory of another's file: not named (the sticky bit refuses too)" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
S="$O/sticky"
mkdir -m 1777 "$S"; chown root:root "$S"
echo r > "$S/rootfile"                 # root's
run_as sh -c 'echo u > "$0/userfile"' "$S"   # the test user's
"$AUDITCTL" on >/dev/null || _fail "audit on"
# control: outside the wall the user deletes its own file and not root's
run_as rm -f "$S/rootfile"
expect_rc 1
for x in "" --explain; do
	run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" $x -- \
		/bin/sh -c 'rm -f "$0/rootfile"; exit 3' "$S"
	expect_rc 3
	expect_no_err '^SANDBOX DENIED'
done
# the user's own file there: the tracer names it, with a remedy that works
run_caps +audit_read env HOME="$D/w/home" "$NS" --write "$D/w" --explain -- \
	/bin/sh -c 'rm -f "$0/userfile"; exit 3' "$S"
expect_err "^SANDBOX DENIED path=$S/userfile op=delete remedy=\"--write $S\"\$"
run_as env HOME="$D/w/home" "$NS" --write "$D/w" --write "$S" -- rm -f "$S/userfile"
expect_rc 0
expect_absent "$S/userfile"
EOF

t "check in a child PID namespace: the audit log is not read here, and says so" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
"$AUDITCTL" on >/dev/null || _fail "audit on"
run unshare -p -f --mount-proc setpriv --reuid="$TUID" --regid="$TGID" \
	--clear-groups --inh-caps=+audit_read,+audit_control \
	--ambient-caps=+audit_read,+audit_control -- "$NS" check
expect_out 'the audit log is not read here \(not the initial PID namespace\)'
EOF

t "probe, audit on, CAP_AUDIT_READ: the denied step is named from the log, as PROBE DENIED" <<'EOF'
[ "$(id -u)" = 0 ] || skip "ambient capabilities and audit need root"
needs_machine -root ambient audit
world
"$AUDITCTL" on >/dev/null || _fail "audit on"
run_caps +audit_read env HOME="$D/w/home" "$NS" probe --write "$D/w"
expect_rc 0
# $D holds the probe's HOME: the remedy says so
expect_err "^PROBE DENIED path=$D op=write remedy=\"--write $D\" warn=secrets,home\$"
expect_out '^PROBE STEP name=write_outside expect=deny got=deny '
EOF
