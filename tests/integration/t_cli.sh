#!/bin/bash
# SPDX-License-Identifier: MIT
# t_cli.sh -- the CLI: dispatch, help, version, check, the bare wrap's
# refusals (reference section 2 phases 1-3, each with its token and exit
# code, and nothing created), its OK/DONE lines, exit codes and signals.
source "$(dirname "$0")/lib.sh"

# a fresh world for one walled run: $D (test user's), $D/w the --write,
# $D/w/home the HOME
world() {
	D=$(newdir)
	mkdir -p "$D/w/home" "$D/r"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
}
# the bare wrap as the test user, HOME inside the --write
wrap() {
	run_as env HOME="$D/w/home" PATH=/usr/bin:/bin "$NS" "$@"
}
nothing_created() {
	expect_absent "$D/w/.nova-sandbox-tmp"
	expect_absent "$D/side"
}

# ---- dispatch ---------------------------------------------------------
t "no arguments: no_command, exit 2" <<'EOF'
run "$NS"
expect_rc 2
expect_err '^SANDBOX REFUSED reason=no_command: .*; run: nova-sandbox help$'
EOF

t "unknown verb: unknown_verb, exit 2, word quoted" <<'EOF'
run "$NS" frobnicate
expect_rc 2
expect_err '^SANDBOX REFUSED reason=unknown_verb: unknown verb "frobnicate"; available: '
EOF

t "run refuses bad input with 125 (t_run.sh has the rest); worktree without flags: 2 (t_worktree.sh has the rest)" <<'EOF'
run "$NS" run --name x; expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_size: '
run "$NS" reap --nope; expect_rc 125
run "$NS" worktree; expect_rc 2
expect_err "^WORKTREE REFUSED reason=bad_pr: "
run "$NS" egress plan; expect_rc 2
expect_err '^EGRESS REFUSED reason=no_command: egress plan writes the plan to --out'
EOF

# ---- help -------------------------------------------------------------
t "help banner: pinned lines, on stdout, exit 0" <<'EOF'
run "$NS" help
expect_rc 0
expect_out '^A command that runs OUTSIDE the wall and dies inside it is missing a --read'
expect_out "^exit codes: each verb's own, by verb:$"
expect_out 'modules'
expect_out 'NOVA_SANDBOX_CONFIG'
expect_no_out 'probe-step'
expect_no_out 'no-system-reads'
ex=$(sed -n '/^example:$/,$p' "$OUT" | sed -n '2,5p')
want="nova-sandbox check
mkdir -p /tmp/trial/home
HOME=/tmp/trial/home nova-sandbox probe --write /tmp/trial
HOME=/tmp/trial/home nova-sandbox --write /tmp/trial -- /bin/sh -c 'echo inside > /tmp/trial/out'"
expect_eq "$ex" "$want" "example block"
[ -s "$ERR" ] && _fail "stderr not empty"
EOF

# The codes a text names, one line: "0-124 125 128+N 3" (sorted, unique;
# an en dash is a dash, section references are not codes).
codes_of() {
	sed -e 's/–/-/g' -e 's/§[0-9]*//g' | grep -oE '[0-9]+(-[0-9]+|\+N)?' |
		sort -u | tr '\n' ' '
}
# "verb<TAB>codes" per verb from SPEC §4's table
spec_codes() {
	sed -n '/^## 4\. Exit codes/,/^## 5\./p' "$SPEC" | grep '^| ' |
		grep -v '^| verb \|^|---' | while IFS= read -r row; do
		cell1=$(printf '%s' "$row" | cut -d'|' -f2 | sed 's/([^)]*)//g')
		codes=$(printf '%s' "$row" | cut -d'|' -f3- | codes_of)
		printf '%s\n' "$cell1" | tr ',' '\n' | sed 's/^ *//; s/ *$//' |
			grep -v '^$' | while IFS= read -r v; do
			printf '%s\t%s\n' "$v" "$codes"
		done
	done | sort
}
# the same from the banner's "exit codes:" block (continuation lines are
# indented deeper; "bare form" is the spec's "bare wrap")
banner_codes() {
	sed -n "/^exit codes: each verb's own, by verb:\$/,/^\$/p" "$OUT" |
		sed '1d;/^$/d' | awk '
		/^  [^ ]/ { if (e != "") print e; e = substr($0, 3); next }
		{ sub(/^ +/, " "); e = e $0 }
		END { if (e != "") print e }' | while IFS= read -r e; do
		codes=$(printf '%s' "${e#*:}" | codes_of)
		printf '%s\n' "${e%%:*}" | tr ',' '\n' |
			sed 's/^ *//; s/ *$//; s/^bare form$/bare wrap/' |
			while IFS= read -r v; do
			printf '%s\t%s\n' "$v" "$codes"
		done
	done | sort
}
SPEC="$(cd "$(dirname "$0")/../.." && pwd)/docs/SPEC-SANDBOX.md"

t "help banner: its exit codes are SPEC §4's, verb by verb" <<'EOF'
run "$NS" help
expect_rc 0
spec_codes > "$OUT.spec"
banner_codes > "$OUT.banner"
[ "$(wc -l < "$OUT.spec")" -ge 10 ] || _fail "read too few rows of §4: $(cat "$OUT.spec")"
grep -q '^bare wrap	0-124 125 126 127 128+N 137 $' "$OUT.spec" ||
	_fail "the bare wrap's row of §4 was not read: $(cat "$OUT.spec")"
if ! diff -u "$OUT.spec" "$OUT.banner" > "$OUT.diff"; then
	_fail "banner and SPEC §4 differ (- spec, + banner):
$(cat "$OUT.diff")"
fi
rm -f "$OUT.spec" "$OUT.banner" "$OUT.diff"
# 126 is only ever the command's own (§4), never the tool's
expect_out "126 only as the\$"
expect_no_out '126 could not'
EOF

t "-h, --help and help <unknown> print the banner" <<'EOF'
for a in -h --help "help nothing"; do
	run "$NS" $a
	expect_rc 0
	expect_out '^nova-sandbox: '
done
EOF

t "per-verb help: every spelling, before any side effect" <<'EOF'
world
for h in -h --help -help --h; do
	wrap policy --write "$D/w" "$h"
	expect_rc 0
	expect_out '^usage: nova-sandbox policy \[flags\]$'
	expect_out '^  --write dir  '
	expect_out '^  policy: '
done
nothing_created
run "$NS" help probe
expect_rc 0
expect_out '^  --secret path  '
expect_no_out '^  --cwd'
run "$NS" check -h
expect_out '^  --json  '
run "$NS" version --help
expect_rc 0
expect_out '^usage: nova-sandbox version'
EOF

# ---- version ----------------------------------------------------------
t "version: one line, four tokens and named extras" <<'EOF'
run "$NS" version
expect_rc 0
expect_out '^nova-sandbox [^ ]+ linux/[a-z0-9]+ c11-[a-z]+-[0-9.]+ backend=landlock platform=linux$'
run "$NS" --version
expect_rc 0
EOF

t "version with an argument: unknown_flag, exit 2" <<'EOF'
run "$NS" version extra
expect_rc 2
expect_err '^SANDBOX REFUSED reason=unknown_flag: version takes no flags and no arguments, got 1; run: nova-sandbox version$'
EOF

# ---- check ------------------------------------------------------------
t "check: CHECK OK on stdout, exit 0" <<'EOF'
run "$NS" check
expect_rc 0
expect_out '^CHECK OK backend=landlock abi=[0-9]+ net=enforceable hosts=none note=.+'
expect_out '; not protected from the programs that run after the job outside the wall: a nested repository below the working directory .*, a \.git the job creates where none was, a directory the job makes a repository of its own .*bare HEAD, objects/, refs/.*NOTE after the command.*hooks .*core\.hooksPath.*a hard link to a file in \.git made before the run, objects/info/alternates .*a worktree elsewhere .*--write HOME: ~/\.gitconfig, ~/\.config/git, ~/\.bashrc.*direnv after allow, an editor.s tasks, Makefiles, package\.json scripts\); --net-allow: the proxy decides on the name asked and the TLS server name only .*Host inside TLS.*\*\.suffix for the job .*DNS servers.*address range .*host.s side, and a program that ignores the proxy variables gets no network$'
EOF

t "check --bogus / check word: bad_flag, exit 2" <<'EOF'
run "$NS" check --bogus=1
expect_rc 2
expect_err '^CHECK REFUSED reason=bad_flag: unknown flag --bogus; run: nova-sandbox help check$'
run "$NS" check word
expect_rc 2
expect_err '^CHECK REFUSED reason=bad_flag: unexpected argument word; run: nova-sandbox help check$'
EOF

t "check --json: one object, refusals too" <<'EOF'
run "$NS" check --json
expect_rc 0
expect_out '^\{"result":\{"verb":"check","status":"ok","exit":0\},"facts":\{"backend":"landlock","abi":"[0-9]+","net":"enforceable","hosts":"none","note":".*"\}\}$'
run "$NS" check --bogus --json
expect_rc 2
expect_out '"status":"refused","exit":2,"remedy":"nova-sandbox check -h","why":\["bad_flag: unknown flag --bogus'
EOF

# a config naming a wall that does not exist
C="$NOVA_B/tests/cli-conf"
mkdir -p "$C" && chmod 755 "$C"
printf '[linux]\nwall = /nonexistent/none.so\n' > "$C/none.conf"
chmod 644 "$C/none.conf"

t "check with no loadable wall: backend=none abi=- net=unenforceable, exit 0" <<'EOF'
run env NOVA_SANDBOX_CONFIG="$C/none.conf" "$NS" check
expect_rc 0
expect_out '^CHECK OK backend=none abi=- net=unenforceable hosts=none note=no wall is available here.*none\.so'
EOF

# ---- bare wrap: phase 1 ------------------------------------------------
t "phase 1: no -- is no_command, 125, nothing created" <<'EOF'
world
wrap --write "$D/w" /bin/touch "$D/side"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_command: unexpected argument /bin/touch'
expect_err '^SANDBOX REFUSED reason=no_command: no -- before the command'
nothing_created
EOF

t "phase 1: unknown flag is bad_flag with the list and a near match" <<'EOF'
world
wrap --wirte "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_flag: unknown flag --wirte; the flags are --read, .*--json; did you mean --write\?; run: nova-sandbox help$'
nothing_created
EOF

t "phase 1: --secret --max --json are not flags of the bare form" <<'EOF'
world
wrap --json --write "$D/w" --max 2 --secret /etc/passwd -- /bin/touch "$D/side"
expect_rc 125
n=$(grep -c 'is not a flag of the bare form' "$ERR")
expect_eq "$n" 3 "one line each"
first=$(grep -n 'not a flag' "$ERR" | head -1)
case "$first" in *--secret*) ;; *) _fail "secret not first: $first" ;; esac
nothing_created
EOF

t "phase 1: --acl wants tool or caller; value flag at the end" <<'EOF'
world
wrap --acl maybe --write "$D/w" -- /bin/true
expect_rc 125
expect_err 'reason=no_command: --acl wants tool or caller'
wrap --write
expect_rc 125
expect_err 'reason=no_command: --write wants a value'
nothing_created
EOF

t "phase 1: Go-style booleans accepted and refused" <<'EOF'
world
wrap --net-deny=false --write "$D/w" -- /bin/true
expect_rc 0
expect_err 'net=nopromise'
wrap --net-deny=perhaps --write "$D/w" -- /bin/true
expect_rc 125
expect_err "reason=no_command: --net-deny wants true or false, got perhaps; run: nova-sandbox '--net-deny=<true\\|false>' --write $D/w -- /bin/true\$"
EOF

# ---- bare wrap: phase 2 ------------------------------------------------
t "phase 2: no --write is bad_write, every problem at once" <<'EOF'
world
wrap --read relative --gpu cuda -- /bin/touch "$D/side"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_gpu: '
expect_err '^SANDBOX REFUSED reason=bad_write: .*refusing to guess'
nothing_created
EOF

t "phase 2: missing --read dir is bad_read; nothing created" <<'EOF'
world
wrap --read "$D/absent" --write "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_read: '
expect_absent "$D/absent"
nothing_created
EOF

t "phase 2: --net-deny with --net-listen, bad --net-allow: bad_net" <<'EOF'
world
wrap --net-deny --net-listen --net-allow example.com:80 --write "$D/w" -- /bin/true
expect_rc 125
n=$(grep -c '^SANDBOX REFUSED reason=bad_net: ' "$ERR")
expect_eq "$n" 2 "two bad_net"
nothing_created
EOF

t "phase 2: --cwd outside every --write is bad_cwd" <<'EOF'
world
wrap --cwd "$D/r" --write "$D/w" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_cwd: '
nothing_created
EOF

t "phase 2: HOME outside the --write is home_outside with a remedy" <<'EOF'
world
run_as env HOME="$D/r" "$NS" --write "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=home_outside: .*; run: mkdir -p $D/w/home && HOME=$D/w/home nova-sandbox --write $D/w -- /bin/touch $D/side\$"
nothing_created
EOF

t "phase 2: not_found alone is 127; with another problem 125" <<'EOF'
world
wrap --write "$D/w" -- no-such-command-xyz
expect_rc 127
expect_err '^SANDBOX REFUSED reason=not_found: '
nothing_created
wrap --gpu bad --write "$D/w" -- no-such-command-xyz
expect_rc 125
nothing_created
EOF

t "phase 2: a non-executable command is not_executable, 125" <<'EOF'
world
printf 'echo hi\n' > "$D/r/noexec"; chmod 644 "$D/r/noexec"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/r/noexec"
wrap --read "$D/r" --write "$D/w" -- "$D/r/noexec"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=not_executable: '
nothing_created
EOF

# ---- bare wrap: phase 0 ------------------------------------------------
t "phase 0: euid 0 is as_root, alone and first (before HOME, a bad flag, the wall), with the line that drops to a user; 125, nothing created" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: the euid 0 refusal needs root"
world
# root's own HOME, outside every --write: root is said, not HOME
run env -u SUDO_UID -u SUDO_GID HOME=/root "$NS" --write "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=as_root: nova-sandbox runs as root \(euid 0\) and the wall is for an unprivileged user: a command is never walled as root; run it as the user it is for, or use nova-sandbox run, which is for root \(it runs the command as an unprivileged uid in a place of its own\); run: setpriv '--reuid=<uid>' '--regid=<gid>' --clear-groups -- nova-sandbox --write $D/w -- /bin/touch $D/side\$"
expect_eq "$(grep -c 'REFUSED' "$ERR")" 1 "refusals"
expect_no_err 'home_outside|sandbox_failed'
expect_no_err '^SANDBOX OK'
nothing_created
# a bad flag, a missing --write and a config with no wall: still root alone
run env -u SUDO_UID -u SUDO_GID HOME=/root NOVA_SANDBOX_CONFIG=/nonexistent.conf "$NS" --bogus --timeout x -- /bin/touch "$D/side"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=as_root: .*; run: setpriv '--reuid=<uid>' '--regid=<gid>' --clear-groups -- nova-sandbox --bogus --timeout x -- /bin/touch $D/side\$"
expect_eq "$(grep -c 'REFUSED' "$ERR")" 1 "refusals"
nothing_created
# root by sudo: the line names the user sudo came from
run env SUDO_UID="$TUID" SUDO_GID="$TGID" HOME=/root "$NS" --write "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=as_root: .*; run: setpriv --reuid=$TUID --regid=$TGID --clear-groups -- nova-sandbox --write $D/w -- /bin/touch $D/side\$"
# not a user: a SUDO_UID of 0 or no number is not used
run env SUDO_UID=0 SUDO_GID=x HOME=/root "$NS" --write "$D/w" -- /bin/touch "$D/side"
expect_err "; run: setpriv '--reuid=<uid>' '--regid=<gid>' --clear-groups -- "
# control: -h still answers as root
run "$NS" -h
expect_rc 0
nothing_created
EOF

t "phase 0 control: the same line as the test user is not refused as_root and runs" <<'EOF'
world
wrap --write "$D/w" -- /bin/touch "$D/w/ran"
expect_rc 0
expect_no_err 'as_root'
expect_present "$D/w/ran"
EOF

t "phase 3: no loadable wall is no_sandbox, 125, nothing runs" <<'EOF'
world
run_as env HOME="$D/w/home" NOVA_SANDBOX_CONFIG="$C/none.conf" "$NS" --write "$D/w" -- /bin/touch "$D/side"
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_sandbox: '
nothing_created
EOF

# ---- bare wrap: success -----------------------------------------------
t "OK line: every field, in order, before the command; DONE last" <<'EOF'
world
mkdir -p "$D/w/a,b"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/w/a,b"
wrap --read "$D/r" --write "$D/w" --write "$D/w/a,b" -- /bin/sh -c 'echo out; echo err >&2'
expect_rc 0
expect_out '^out$'
ok=$(grep '^SANDBOX OK' "$ERR")
b64=$(printf '%s' "$D/w" | base64 -w0 | tr '+/' '-_' | tr -d '=')
expect_eq "$ok" "SANDBOX OK backend=landlock abi=$(cut -d= -f2 <<<"$(grep -o 'abi=[0-9]*' <<<"$ok")") read=1 read-noexec=0 write=2 net=nopromise cwd=$D/w cwdb64=$b64 ancestors=$(grep -o 'ancestors=[0-9]*' <<<"$ok" | cut -d= -f2) cmd=dash gpu=none env-dropped=0 tty=- protected=- deletes=$D/w,$D/w/a\\x2cb" "OK line"
# /bin/sh is a caller-named path: where /bin or sh is a link, a NOTE
# naming it comes before OK (rule 5), and so does rule 9a's NOTE on a
# credential-looking variable of the machine's environment (AWS_CA_BUNDLE)
expect_eq "$(grep -v -e '^SANDBOX NOTE the command /bin/sh resolves through' -e '^SANDBOX NOTE named like credentials and passed in from your environment: ' "$ERR" | sed -n 1p)" "$ok" "OK is the first line (after rule 5's NOTE)"
expect_eq "$(grep -v -e '^SANDBOX NOTE the command /bin/sh resolves through' -e '^SANDBOX NOTE named like credentials and passed in from your environment: ' "$ERR" | sed -n 2p)" "err" "the command's stderr after OK"
expect_eq "$(tail -n1 "$ERR")" "SANDBOX DONE exit=0 cmd=dash" "DONE last"
# rule 8a: the temp directory the tool made is gone after the run
expect_absent "$D/w/.nova-sandbox-tmp"
EOF

t "the command's own exit codes pass through; DONE says them" <<'EOF'
world
for c in 0 3 7 124 125; do
	wrap --write "$D/w" -- /bin/sh -c "exit $c"
	expect_rc "$c"
	expect_err "^SANDBOX DONE exit=$c cmd=dash\$"
	expect_no_err 'REFUSED'
done
EOF

t "a command killed by a signal: 128+N" <<'EOF'
world
wrap --write "$D/w" -- /bin/sh -c 'kill -KILL $$'
expect_rc 137
expect_err '^SANDBOX DONE exit=137 cmd=dash$'
EOF

t "the wall holds: a write outside fails inside, succeeds outside (control)" <<'EOF'
world
wrap --write "$D/w" -- /bin/touch "$D/side"
expect_rc 1
expect_absent "$D/side"
run_as /bin/touch "$D/side"
expect_rc 0
expect_present "$D/side"
EOF

t "dropped agent variables: NOTE before OK" <<'EOF'
world
run_as env HOME="$D/w/home" SSH_AUTH_SOCK=/x GPG_AGENT_INFO=y AI_AGENT=z "$NS" --acl tool --write "$D/w" -- /bin/sh -c 'echo "${SSH_AUTH_SOCK-unset} $AI_AGENT"'
expect_rc 0
expect_out '^unset z$'
expect_eq "$(sed -n 1p "$ERR")" "SANDBOX NOTE --acl tool is accepted and ignored on linux; the wall is the same without it" "acl note first"
expect_eq "$(sed -n 2p "$ERR")" "SANDBOX NOTE dropped from the child's environment: GPG_AGENT_INFO SSH_AUTH_SOCK; each names an agent, a bus or a server that acts as the user outside the wall" "dropped note"
expect_err '^SANDBOX OK '
EOF

t "SIGTERM to the tool is forwarded to the command" <<'EOF'
world
if [ "$(id -u)" = 0 ]; then
	as=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups --)
else
	as=()
fi
"${as[@]}" env HOME="$D/w/home" "$NS" --write "$D/w" -- /bin/sh -c "touch $D/w/started; exec sleep 30" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$D/w/started" ] && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"; RC=$?
expect_rc 143
expect_err '^SANDBOX DONE exit=143 cmd=dash$'
rm -rf "$C"
EOF
