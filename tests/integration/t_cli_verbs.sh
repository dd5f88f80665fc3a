#!/bin/bash
# SPDX-License-Identifier: MIT
# t_cli_verbs.sh -- policy, probe and probe-step (reference sections 4-6), and
# the egress verbs' argument handling (what needs no root and no network).
source "$(dirname "$0")/lib.sh"

world() {
	D=$(newdir)
	mkdir -p "$D/w/home" "$D/r"
	echo secret > "$D/secret"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
}
as_user() {
	run_as env HOME="$D/w/home" PATH=/usr/bin:/bin "$NS" "$@"
}

# ---- policy -----------------------------------------------------------
t "policy: text on stdout, POLICY OK on stderr, byte-identical rerun" <<'EOF'
world
as_user policy --read "$D/r" --write "$D/w"
expect_rc 0
expect_out '^backend=landlock$'
expect_out "^write=$D/w\$"
expect_out "^read=$D/r\$"
cp "$OUT" "$D/first"
bytes=$(wc -c < "$OUT")
expect_err "^POLICY OK backend=landlock read=1 read-noexec=0 write=1 bytes=$bytes gpu=none protected=-\$"
as_user policy --read "$D/r" --write "$D/w"
cmp -s "$OUT" "$D/first" || _fail "rerun differs"
EOF

t "policy: other verbs' flags are NOTEs; runs no command" <<'EOF'
world
as_user policy --secret "$D/secret" --max 3 --acl tool --write "$D/w" -- /bin/touch "$D/side"
expect_rc 0
expect_err '^POLICY NOTE --secret is probe.s flag and is ignored here: the policy printed is the same without it$'
expect_err '^POLICY NOTE --acl is the bare form.s flag and is ignored here'
expect_absent "$D/side"
EOF

t "policy: unknown flag is no_command, exit 2; no profile-file flag" <<'EOF'
world
for f in --x --profile --policy-file -f --print-policy; do
	as_user policy "$f" --write "$D/w"
	expect_rc 2
	expect_err '^POLICY REFUSED reason=no_command: unknown flag '
done
as_user policy --x
expect_err '^POLICY REFUSED reason=no_command: unknown flag --x; run: nova-sandbox help policy$'
expect_absent "$D/w/.nova-sandbox-tmp"
EOF

t "policy: build refusals keep their tokens, exit 2, nothing created" <<'EOF'
world
run_as env HOME="$D/r" "$NS" policy --write "$D/w"
expect_rc 2
expect_err "^POLICY REFUSED reason=home_outside: .*nova-sandbox policy --write $D/w\$"
expect_absent "$D/w/.nova-sandbox-tmp"
EOF

t "policy --json: one object on stdout" <<'EOF'
world
as_user policy --json --write "$D/w"
expect_rc 0
expect_out '^\{"result":\{"verb":"policy","status":"ok","exit":0\},"payload":".*backend=landlock\\n.*","rules":\[\{"path":"/usr","access":"read-exec","origin":"root"\},.*\],"facts":\{"backend":"landlock","read":0,"read-noexec":0,"write":1,"bytes":[0-9]+,"gpu":"none","protected":\[\]\},"notes":\[\]\}$'
EOF

# ---- probe ------------------------------------------------------------
t "probe passes here: 4 steps, control first" <<'EOF'
world
as_user probe --write "$D/w"
expect_rc 0
expect_eq "$(sed -n 1p "$OUT" | cut -d' ' -f1-5)" "PROBE STEP name=write_outside_control expect=allow got=allow" "control first"
expect_out "^PROBE STEP name=write_outside expect=deny got=deny path=$D/.nova-sandbox-probe-[0-9]+\$"
expect_out "^PROBE STEP name=write_inside expect=allow got=allow path=$D/w/.nova-sandbox-probe-inside\$"
expect_out '^PROBE STEP name=read_root expect=allow got=allow path=/'
expect_out '^PROBE OK backend=landlock abi=[0-9]+ steps=4 passed=4 net=nopromise gpu=none$'
expect_absent "$D/w/.nova-sandbox-probe-inside"
ls "$D"/.nova-sandbox-probe-* >/dev/null 2>&1 && _fail "outside file left"
EOF

t "probe --explain under the real wall: still 4 of 4, the denied step named" <<'EOF'
world
as_user probe --write "$D/w" --explain
expect_rc 0
expect_out "^PROBE STEP name=write_outside expect=deny got=deny path=$D/.nova-sandbox-probe-[0-9]+\$"
# $D holds the probe's HOME: the remedy says so
expect_err "^PROBE DENIED path=$D/.nova-sandbox-probe-[0-9]+ op=create remedy=\"--write $D\" warn=secrets,home\$"
expect_out '^PROBE OK backend=landlock abi=[0-9]+ steps=4 passed=4 net=nopromise gpu=none$'
expect_eq "$(grep -c '^PROBE DENIED' "$ERR")" 1 "DENIED lines (only the denied step's)"
EOF

t "probe --secret: 5 steps, the secret stays unread" <<'EOF'
world
as_user probe --secret "$D/secret" --write "$D/w" --net-deny
expect_rc 0
expect_out "^PROBE STEP name=read_secret expect=deny got=deny path=$D/secret\$"
expect_out '^PROBE OK backend=landlock abi=[0-9]+ steps=5 passed=5 net=denied gpu=none$'
EOF

t "probe --json" <<'EOF'
world
as_user probe --json --write "$D/w"
expect_rc 0
expect_out '^\{"result":\{"verb":"probe","status":"ok","exit":0\},"items":\[\{"kind":"step","fields":\{"name":"write_outside_control".*"facts":\{"backend":"landlock","abi":"[0-9]+","steps":4,"passed":4,"net":"nopromise","gpu":"none"\}\}$'
EOF

t "probe --bogus: the pinned line, alone, exit 2" <<'EOF'
run_as "$NS" probe --bogus
expect_rc 2
expect_eq "$(cat "$ERR")" "PROBE REFUSED reason=check: unknown flag --bogus; run: nova-sandbox help probe" "stderr"
EOF

t "probe as root: as_root first and alone (not HOME, not a bad flag), with the line that drops to a user, exit 2, nothing made" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: the euid 0 refusal needs root"
world
run env -u SUDO_UID -u SUDO_GID HOME=/root "$NS" probe --write "$D/w" --bogus
expect_rc 2
expect_eq "$(cat "$ERR")" "PROBE REFUSED reason=check: nova-sandbox runs as root (euid 0) and the wall is for an unprivileged user: a command is never walled as root; run it as the user it is for, or use nova-sandbox run, which is for root (it runs the command as an unprivileged uid in a place of its own) (as_root); run: setpriv '--reuid=<uid>' '--regid=<gid>' --clear-groups -- nova-sandbox probe --write $D/w --bogus" "stderr"
expect_eq "$(cat "$OUT")" "" "stdout"
run env SUDO_UID="$TUID" SUDO_GID="$TGID" HOME=/root "$NS" probe --json --write "$D/w"
expect_rc 2
expect_out "^\{\"result\":\{\"verb\":\"probe\",\"status\":\"refused\",\"exit\":2,.*\"why\":\[\"as_root: .*; run: setpriv --reuid=$TUID --regid=$TGID --clear-groups -- nova-sandbox probe --json --write $D/w\"\]"
expect_absent "$D/w/.nova-sandbox-probe-inside"
ls "$D"/.nova-sandbox-probe-* >/dev/null 2>&1 && _fail "outside file made"
# control: the same probe as the test user passes
as_user probe --write "$D/w"
expect_rc 0
expect_no_err 'as_root'
EOF

t "probe: other verbs' flags refused alone" <<'EOF'
world
as_user probe --cwd "$D/w" --write "$D/w" --name x
expect_rc 2
expect_err '^PROBE REFUSED reason=check: --cwd is not a flag of probe'
expect_err '^PROBE REFUSED reason=check: --name is not a flag of probe'
expect_absent "$D/w/.nova-sandbox-tmp"
EOF

t "bare probe: exactly one line, (bad_write)" <<'EOF'
world
as_user probe
expect_rc 2
expect_eq "$(wc -l < "$ERR")" 1 "one line"
expect_err '^PROBE REFUSED reason=check: .*\(bad_write\)'
expect_no_err 'secret'
EOF

t "probe: --secret inside a --write is secret_inside_allow" <<'EOF'
world
as_user probe --secret "$D/w/home" --write "$D/w"
expect_rc 2
expect_err 'reason=check: --secret .* is a directory.*\(bad_read\)'
echo s > "$D/w/s"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/w/s"
as_user probe --secret "$D/w/s" --write "$D/w"
expect_rc 2
expect_err '^PROBE REFUSED reason=secret_inside_allow: .*the secret is never inside either list'
EOF

t "probe refused only for its --secret creates nothing" <<'EOF'
world
as_user probe --secret "$D/no-such-secret" --write "$D/w"
expect_rc 2
expect_err 'reason=check: --secret .*\(bad_read\)'
expect_absent "$D/w/.nova-sandbox-tmp"
EOF

t "probe: outside path inside a list is probe_outside_inside" <<'EOF'
world
as_user probe --write "$D/w" --read "$D"
expect_rc 2
expect_err '^PROBE REFUSED reason=probe_outside_inside: '
EOF

t "probe fails (exit 1) against a wall that lets writes through" <<'EOF'
world
C="$NOVA_B/tests/cli-leaky"
mkdir -p "$C" && chmod 755 "$C"
if [ ! -f "$FIX/leaky_wall.so" ]; then
	_fail "fixture $FIX/leaky_wall.so was not built"
else
	cp "$FIX/leaky_wall.so" "$C/" && chmod 755 "$C/leaky_wall.so"
	printf '[linux]\nwall = %s/leaky_wall.so\n' "$C" > "$C/leaky.conf"
	chmod 644 "$C/leaky.conf"
	run_as env HOME="$D/w/home" NOVA_SANDBOX_CONFIG="$C/leaky.conf" "$NS" probe --write "$D/w"
	expect_rc 1
	expect_out '^PROBE STEP name=write_outside expect=deny got=allow '
	expect_err '^PROBE REFUSED reason=check: write_outside expected deny and got allow at '
	expect_no_out '^PROBE OK'
	ls "$D"/.nova-sandbox-probe-* >/dev/null 2>&1 && _fail "outside file left"
fi
rm -rf "$C"
EOF

# ---- probe-step ---------------------------------------------------------
t "probe-step by hand: no fd 3" <<'EOF'
world
# fd 3 closed: whoever runs the suite may hold one (flock's lock does)
run bash -c "exec 3<&-; exec '$NS' probe-step 00112233445566778899aabbccddeeff write_outside '$D/side'"
expect_rc 2
expect_err '^PROBE REFUSED reason=probe_step_not_a_child: .*\(no descriptor 3\); nothing was opened'
expect_absent "$D/side"
EOF

t "probe-step by hand: a regular file on fd 3" <<'EOF'
world
head -c 16 /dev/zero > "$D/nonce"
run bash -c "exec 3<'$D/nonce'; exec '$NS' probe-step 00000000000000000000000000000000 write_outside '$D/side'"
expect_rc 2
expect_err '\(descriptor 3 is not a pipe\)'
expect_absent "$D/side"
EOF

t "probe-step by hand: a pipe with the wrong nonce, and a right one" <<'EOF'
world
run bash -c "exec 3< <(head -c 16 /dev/zero); sleep 0.2; NOVA_SANDBOX_PROBE_NONCE=00000000000000000000000000000000 exec '$NS' probe-step 11111111111111111111111111111111 write_outside '$D/side'"
expect_rc 2
expect_err 'the nonce does not match descriptor 3'
expect_absent "$D/side"
# right nonce on a pipe, but the parent is bash, not nova-sandbox
run bash -c "exec 3< <(head -c 16 /dev/zero); sleep 0.2; NOVA_SANDBOX_PROBE_NONCE=00000000000000000000000000000000 '$NS' probe-step 00000000000000000000000000000000 write_outside '$D/side'"
expect_rc 2
expect_err 'the parent is not nova-sandbox'
expect_absent "$D/side"
EOF

t "probe-step: wrong argument count, relative path" <<'EOF'
run "$NS" probe-step a b
expect_rc 2
expect_err 'probe_step_not_a_child: .*takes <nonce> <name> <path>'
run "$NS" probe-step 00 write_outside relative
expect_rc 2
expect_err 'not absolute'
EOF

# ---- egress: flags per sub-verb, file sizes ---------------------------
t "egress apply --uid: bad_flag naming apply's flags, exit 2, nothing applied" <<'EOF'
D=$(newdir)
printf 'not a plan\n' > "$D/plan"
run "$NS" egress apply --uid 5 --plan "$D/plan" --run r1
expect_rc 2
expect_err '^EGRESS REFUSED reason=bad_flag: --uid is not a flag of egress apply; the flags of egress apply are --plan, --run; run: nova-sandbox egress apply -h$'
expect_no_err 'EGRESS (OK|STEP)'
expect_no_err 'bad_plan|invariant'
EOF

t "egress: every sub-verb refuses the flags of the others, all at once" <<'EOF'
run "$NS" egress plan --live --plan x --run r1
expect_rc 2
expect_err '^EGRESS REFUSED reason=bad_flag: --live is not a flag of egress plan; the flags of egress plan are --bench-cidr, --model-host, --out, --policy, --resolver, --run, --uid, --veth; '
expect_err '^EGRESS REFUSED reason=bad_flag: --plan is not a flag of egress plan; '
expect_no_err 'reason=(no_command|bad_policy|bad_resolver)'
run "$NS" egress check --uid=5 --veth v0 --bench-cidr 198.51.100.0/24 --plan x
expect_rc 2
expect_eq "$(grep -c '^EGRESS REFUSED reason=bad_flag: --[a-z-]* is not a flag of egress check; the flags of egress check are --live, --plan, --run; run: nova-sandbox egress check -h$' "$ERR")" 3 "bad_flag lines"
run "$NS" egress drop --plan x --out y --run r1
expect_rc 2
expect_err '^EGRESS REFUSED reason=bad_flag: --plan is not a flag of egress drop; the flags of egress drop are --run; '
expect_err '^EGRESS REFUSED reason=bad_flag: --out is not a flag of egress drop; '
expect_no_err 'EGRESS OK'
EOF

t "egress: an unknown flag names the sub-verb's flags and the nearest, once" <<'EOF'
run "$NS" egress check --plna x --live --run r1
expect_rc 2
expect_err '^EGRESS REFUSED reason=bad_flag: unknown flag --plna; the flags of egress check are --live, --plan, --run; did you mean --plan\?; run: nova-sandbox egress check -h$'
expect_no_err 'unexpected argument'
run "$NS" egress plan --resolvr 192.0.2.1
expect_err 'reason=bad_flag: unknown flag --resolvr; the flags of egress plan are .*; did you mean --resolver\?'
EOF

t "egress: a policy file over 1 MiB is refused saying 1 MiB, a plan over 16 MiB saying 16 MiB" <<'EOF'
D=$(newdir)
truncate -s $((1024 * 1024 + 1)) "$D/big.txt"
run "$NS" egress plan --run r1 --policy "$D/big.txt" --model-host m.example --resolver 192.0.2.1 --uid 5 --out "$D/p"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_policy: $D/big.txt: cannot be read: not a regular file of at most 1 MiB; run: nova-sandbox egress plan --run r1 --policy '<file>' --model-host m.example --resolver 192.0.2.1 --uid 5 --out $D/p\$"
expect_no_err '16 MiB'
expect_absent "$D/p"
truncate -s $((16 * 1024 * 1024 + 1)) "$D/big.plan"
run "$NS" egress check --plan "$D/big.plan"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_plan: --plan $D/big.plan cannot be read: not a regular file of at most 16 MiB; run: nova-sandbox egress check --plan '<file>'\$"
EOF

t "egress check --plan: an accept widened to /0 (or host bits) is allow_any, exit 1" <<'EOF'
D=$(newdir)
plan() {
	printf 'table inet nova_egress_t1 {\n\tchain output {\n'
	printf '\t\ttype filter hook output priority filter; policy accept;\n'
	printf '\t\tmeta skuid 1 ip daddr 169.254.169.254 drop\n'
	printf '\t\tmeta skuid 1 %s tcp dport 443 accept\n' "$1"
	printf '\t\tmeta skuid 1 drop\n\t}\n}\n'
}
plan "ip daddr 192.0.2.1" > "$D/ok.nft"
run "$NS" egress check --plan "$D/ok.nft"
expect_rc 0
expect_err '^EGRESS CHECK table=nova_egress_t1 chains=1 rules=3 allow=1 deny=2$'
for a in "ip daddr 0.0.0.0/0" "ip6 daddr ::/0" "ip daddr 192.0.2.1/24"; do
	plan "$a" > "$D/wide.nft"
	run "$NS" egress check --plan "$D/wide.nft"
	expect_rc 1
	expect_err '^EGRESS REFUSED reason=allow_any: line 5: an accept names exactly ONE address'
	expect_no_err 'bad_rule'
done
EOF
