#!/bin/bash
# SPDX-License-Identifier: MIT
# t_remedy.sh -- paste-able remedies (docs/SPEC-SANDBOX.md §3 "Lines"),
# as the test user: each refusal class that prints the caller's command
# line fixed is asserted word for word, then the line is pasted into sh
# (the form a caller must fill in, '<n>m' and the like, filled by the
# test, nothing else touched) and must pass: the control that the fixed
# line is the fix.  Every independent problem is still one line each.
source "$(dirname "$0")/lib.sh"

SECRET=s3cr3t-value-$$
# the environment a caller pastes in: nova-sandbox on PATH, HOME inside
# the first --write
ENVV() { echo env -i HOME="$W/home" PATH="$NOVA_B/bin:/usr/bin:/bin" LANG=C TERM=dumb; }
wrap() { run_as $(ENVV) "$NS" "$@"; }
setup() {
	W=$(newdir)
	mkdir "$W/home" && [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"
}
# the fixed line of the first refusal with reason $1
line_of() {
	sed -n "s/^SANDBOX REFUSED reason=$1: .*; run: //p" "$ERR" | head -1
}
# paste: the line, with each "form=value" argument's form filled in,
# run by sh as the test user
paste_line() {
	local l=$1 kv
	shift
	for kv in "$@"; do l=${l//"${kv%%=*}"/"${kv#*=}"}; done
	run_as $(ENVV) sh -c "$l"
}

# ---- run's value checks ------------------------------------------------

t "run: every bad value at once, each a line of its own, then the one line that fixes them all" <<'EOF'
setup
wrap run --name "rv-$$" --size 8x --timeout soon --max-procs 0 --max-mem lots --cpu 0 --place x --scratch /s --container d -- /bin/true
expect_rc 125
for tok in bad_size bad_timeout bad_max_procs bad_max_mem bad_cpu bad_place bad_scratch no_container; do
	expect_err "^SANDBOX REFUSED reason=$tok: "
done
expect_no_err '^SANDBOX REFUSED .*run: nova-sandbox run'
expect_err "^SANDBOX NOTE one line fixes the 8 problems above that carry a fix; run: nova-sandbox run --name rv-$$ --size '<n>m' --timeout '<n>m' --max-procs '<n>' --max-mem '<n>g' --cpu '<1\.\.100>' --place job --container 'disk<n>' -- /bin/true\$"
expect_eq "$(grep -c '^SANDBOX REFUSED' "$ERR")" 8 "eight refusals, one line each"
expect_eq "$(grep -c "run: nova-sandbox run --name rv-" "$ERR")" 1 "one fixed line, after them"
L=$(sed -n 's/^SANDBOX NOTE one line fixes .*; run: //p' "$ERR")
paste_line "$L" "<n>m=64m" "<n>g=1g" "<n>=64" "<1..100>=50" "disk<n>=disk1"
expect_no_err 'REFUSED reason=bad_(size|timeout|max_procs|max_mem|cpu|place|scratch)'
EOF

for c in "--size 8x|bad_size|<n>m=64m" "--timeout soon|bad_timeout|<n>m=5m" \
	"--max-procs 0|bad_max_procs|<n>=64" "--max-mem lots|bad_max_mem|<n>g=1g" \
	"--max-procs=x|bad_max_procs|<n>=64" "--cpu 200|bad_cpu|<1..100>=50" \
	"--place wsb|no_wsb|" "--scratch /s|bad_scratch|" \
	"--status-fd 9|bad_status_fd|" "--env 1X=$SECRET|bad_env|" \
	"--env-deny A=B|bad_env|" "--toolchain cobol|bad_toolchain|" \
	"--write rel|bad_write|</abs/dir>=CDIR" \
	"--out-max-files 0 --out ODIR|bad_out_max|<n>=9"; do
IFS='|' read -r flagv reason fill <<<"$c"
t "run $flagv: $reason's fixed line pastes and runs (the control)" <<EOF
setup
O=\$(newdir)
F=\$(echo "$flagv" | sed "s|ODIR|\$O|")
# a value flag is named once (given twice it is refused): --size 8x
# stands alone
S="--size 64m"; case "$flagv" in --size*) S= ;; esac
wrap run --name "rp-\$\$" \$S \$F -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=$reason: '
L=\$(line_of $reason)
case "\$L" in "nova-sandbox run --name rp-"*" -- /bin/true") ;; *) _fail "no fixed line: \$L";; esac
case "\$L" in *"$SECRET"*) _fail "the line prints a --env VALUE";; esac
# a cache --write must be outside /tmp, which run's place covers
C=\$(mktemp -d /var/tmp/nova-it-cache.XXXXXX)
at_end "rm -rf '\$C'"
[ "\$(id -u)" != 0 ] || chown "\$TUID:\$TGID" "\$C"
paste_line "\$L" "${fill/CDIR/\$C}"
expect_rc 0
expect_no_err 'REFUSED'
expect_err '^SANDBOX DONE name=rp-.* exit=0 '
EOF
done

t "run: a missing --name and --size are added first, in their form" <<'EOF'
setup
wrap run -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_name: "
expect_err "^SANDBOX REFUSED reason=bad_size: "
expect_err "^SANDBOX NOTE one line fixes the 2 problems above that carry a fix; run: nova-sandbox run --name '<name>' --size '<n>m' -- /bin/true\$"
EOF

t "run: --artifact, --out and a count without --out: the form in place" <<'EOF'
setup
wrap run --name "ra-$$" --size 64m --out rel --artifact ../x -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_out: --out wants an absolute directory, got rel\$"
expect_err "^SANDBOX REFUSED reason=bad_artifact: "
expect_err "^SANDBOX NOTE one line fixes the 2 problems above that carry a fix; run: nova-sandbox run --name ra-$$ --size 64m --out '</abs/dir>' --artifact '<path/in/work>' -- /bin/true\$"
wrap run --name "ra-$$" --size 64m --artifact a -- /bin/touch a
expect_err "^SANDBOX REFUSED reason=no_out: .*; run: nova-sandbox run --out '</abs/dir>' --name ra-$$ --size 64m --artifact a -- /bin/touch a\$"
O=$(newdir)
paste_line "$(line_of no_out)" "</abs/dir>=$O"
expect_rc 0
expect_no_err 'REFUSED'
expect_present "$O/ra-$$/a"
EOF

# ---- the bare form ---------------------------------------------------------

t "as_root: root (by sudo) is refused first with the line that drops to that user; pasted as root, it runs as the user" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: the euid 0 refusal needs root"
setup
run $(ENVV) SUDO_UID="$TUID" SUDO_GID="$TGID" "$NS" --write "$W" -- /bin/sh -c 'id -u > "$HOME/uid"'
expect_rc 125
L=$(line_of as_root)
expect_eq "$L" "setpriv --reuid=$TUID --regid=$TGID --clear-groups -- nova-sandbox --write $W -- /bin/sh -c 'id -u > \"\$HOME/uid\"'" "the fixed line"
run $(ENVV) sh -c "$L"
expect_rc 0
expect_no_err 'REFUSED'
expect_eq "$(cat "$W/home/uid" 2>/dev/null)" "$TUID" "the command's uid"
EOF

t "bare form: --status-fd, --env, --env-deny, --toolchain, --acl, a switch: every one at once, one line each, then the one fixed line; the values of --env masked" <<'EOF'
setup
wrap --write "$W" --status-fd 99 --env "1X=$SECRET" --env "K=$SECRET" --env-deny 'A=B' --toolchain cobol --acl foo --net-deny=maybe -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_status_fd: --status-fd wants an open, writable descriptor of 3 or above, got 99 \(not open\); or leave it out \(the lines go to stderr\)\$"
expect_err "^SANDBOX REFUSED reason=bad_env: --env wants KEY or KEY=VALUE, "
expect_err "^SANDBOX REFUSED reason=bad_env: --env-deny wants "
expect_err "^SANDBOX REFUSED reason=bad_toolchain: "
expect_err "^SANDBOX REFUSED reason=no_command: --acl wants tool or caller, got foo\$"
expect_err "^SANDBOX REFUSED reason=no_command: --net-deny wants true or false, got maybe\$"
expect_err "^SANDBOX NOTE one line fixes the 6 problems above that carry a fix; run: nova-sandbox --write $W --env 'K=<VALUE>' --acl '<tool\|caller>' '--net-deny=<true\|false>' -- /bin/true\$"
expect_no_err "$SECRET"
expect_absent "$W/.nova-sandbox-tmp"
EOF

for c in "--status-fd 99|bad_status_fd|" "--env 1X=$SECRET|bad_env|" \
	"--env HOME=/|bad_env|" "--env-deny A=B|bad_env|" \
	"--toolchain cobol|bad_toolchain|" "--toolchain go|bad_toolchain|" \
	"--acl foo|no_command|<tool|caller>=tool" \
	"--net-deny=maybe|no_command|<true|false>=false" \
	"--gpu x|bad_gpu|"; do
IFS='|' read -r flagv reason f1 f2 <<<"$c"
fill=$f1${f2:+|$f2}
t "bare form $flagv: $reason's fixed line pastes and runs (the control)" <<EOF
setup
wrap --write "\$W" $flagv -- /bin/echo pasted
expect_rc 125
L=\$(line_of $reason)
case "\$L" in "nova-sandbox --write \$W"*" -- /bin/echo pasted") ;; *) _fail "no fixed line: \$L";; esac
case "\$L" in *"$SECRET"*) _fail "the line prints a --env VALUE";; esac
paste_line "\$L" "$fill"
expect_rc 0
expect_out '^pasted\$'
expect_no_err 'REFUSED'
EOF
done

t "policy: a value flag typed last gets its form in place; filled, it passes" <<'EOF'
setup
wrap policy --write "$W" --read
expect_rc 2
expect_err "^POLICY REFUSED reason=no_command: --read wants a value; run: nova-sandbox policy --write $W --read '<dir>'\$"
L=$(sed -n 's/^POLICY REFUSED reason=no_command: --read wants a value; run: //p' "$ERR")
paste_line "$L" "<dir>=/usr"
expect_rc 0
expect_no_err 'REFUSED'
EOF

t "--net-deny with --net-listen: the line without the switch --net-listen (the next word stays)" <<'EOF'
setup
wrap --net-deny --net-listen --write "$W" -- /bin/echo pasted
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_net: .*; run: nova-sandbox --net-deny --write $W -- /bin/echo pasted\$"
paste_line "$(line_of bad_net)"
expect_rc 0
expect_out '^pasted$'
EOF

# ---- the command and the roots ---------------------------------------------

t "not_found: the command's form in place; filled with a real path, it runs" <<'EOF'
setup
wrap --write "$W" -- "nosuch-$$" 'a b'
expect_rc 127
expect_err "^SANDBOX REFUSED reason=not_found: command nosuch-$$ is not on PATH: name it by its absolute path after --; run: nova-sandbox --write $W -- '</abs/path/of/the/command>' 'a b'\$"
paste_line "$(line_of not_found)" "</abs/path/of/the/command>=/bin/echo"
expect_rc 0
expect_out '^a b$'
EOF

t "not_executable: a file that is not executable, the form in place; filled, it runs" <<'EOF'
setup
echo x > "$W/data" && chmod 644 "$W/data"
wrap --write "$W" -- "$W/data"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=not_executable: $W/data is not executable by this user: name a file this user may execute; run: nova-sandbox --write $W -- '</abs/path/of/the/command>'\$"
paste_line "$(line_of not_executable)" "</abs/path/of/the/command>=/bin/true"
expect_rc 0
expect_no_err 'REFUSED'
EOF

t "bad_read: one directory under two flags, the line without the weaker; pasted, it runs" <<'EOF'
setup
mkdir "$W/d" && { [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/d"; }
wrap --write "$W" --read "$W" --read-noexec "$W/d" --read "$W/d" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: --read and --write both name $W: name it once, with the one flag that grants what the command needs \(--write grants reading and executing too\)\$"
expect_err "^SANDBOX REFUSED reason=bad_read: --read and --read-noexec both name $W/d: "
expect_err "^SANDBOX NOTE one line fixes the 2 problems above that carry a fix; run: nova-sandbox --write $W --read-noexec $W/d -- /bin/true\$"
wrap --write "$W" --read "$W" -- /bin/true
expect_rc 125
paste_line "$(line_of bad_read)"
expect_rc 0
expect_no_err 'REFUSED'
EOF

# ---- bounds: refusals grow linearly (issue 29) ------------------------------

t "2,000 missing --read: 20 listed, then a count, one line after them; small and quick, not 2,000 command lines" <<'EOF'
setup
A=()
for i in $(seq 2000); do A+=(--read "$W/nope$i"); done
s=$(date +%s%N)
wrap "${A[@]}" --write "$W" -- /bin/true
e=$(date +%s%N)
expect_rc 125
expect_eq "$(grep -c '^SANDBOX REFUSED reason=bad_read: ' "$ERR")" 20 "twenty problems listed"
expect_err '^SANDBOX NOTE 1980 more problems are not listed \(the first 20 are\): bad_read; fix the ones listed'
expect_err '^SANDBOX NOTE (one line fixes the 20 problems above|the fixed command line would be [0-9]* bytes, more than the 65536)'
expect_no_err '^SANDBOX REFUSED .*; run: nova-sandbox'
b=$(wc -c < "$ERR")
[ "$b" -lt 200000 ] || _fail "stderr is $b bytes"
[ $(((e - s) / 1000000)) -lt 5000 ] || _fail "the refusal took $(((e - s) / 1000000)) ms"
EOF

t "a fixed line over 65,536 bytes is not printed; the problem is, with a NOTE saying why" <<'EOF'
setup
X=$(head -c 70000 /dev/zero | tr '\0' x)
wrap --read "$W/nope" --write "$W" -- /bin/echo "$X"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_read: --read $W/nope does not exist; none is created: name an existing directory; or leave it out\$"
expect_err '^SANDBOX NOTE the fixed command line would be [0-9]* bytes, more than the 65536 a line of the tool holds: fix the flags named above'
expect_no_err "$X"
EOF

t "args_too_long: more than 4,096 words or 1 MiB before -- is refused at once; the command's words are not counted (the control)" <<'EOF'
setup
A=()
for i in $(seq 4097); do A+=(--net-deny); done
wrap "${A[@]}" --write "$W" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=args_too_long: 4099 words of [0-9]* bytes before the command: the tool takes at most 4096 words and 1048576 bytes of its own: .*; run: nova-sandbox help$'
expect_eq "$(grep -c 'REFUSED' "$ERR")" 1 "one line, nothing parsed"
E=()
for i in $(seq 10); do E+=(--env "K$i=$(head -c 110000 /dev/zero | tr '\0' v)"); done
wrap "${E[@]}" --write "$W" -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=args_too_long: 22 words of [0-9]* bytes'
wrap policy "${A[@]}" --write "$W"
expect_rc 2
expect_err '^SANDBOX REFUSED reason=args_too_long: '
# the control: 5,000 words of the command's own run
wrap --write "$W" -- /bin/sh -c 'echo $#' sh $(seq 5000)
expect_rc 0
expect_out '^5000$'
EOF

# ---- the egress verbs --------------------------------------------------------

t "egress plan: every bad or missing value at once, then the one fixed line (the forms in place)" <<'EOF'
D=$(newdir)
printf 'github.com\napi.github.com\nobjects.githubusercontent.com\napi.anthropic.com\n' > "$D/pol.txt"
run "$NS" egress plan --policy "$D/pol.txt" --resolver 10.0.0.1 --bench-cidr 10.0.0.0/8 --uid x --model-host evil.example --out "$D/p"
expect_rc 2
A="--policy $D/pol.txt --resolver 10.0.0.1 --bench-cidr 10.0.0.0/8"
for tok in no_name bad_uid bad_model_host bad_resolver; do
	expect_err "^EGRESS REFUSED reason=$tok: "
done
expect_no_err '^EGRESS REFUSED .*; run: nova-sandbox egress plan'
expect_err "^EGRESS NOTE one line fixes the 4 problems above that carry a fix; run: nova-sandbox egress plan --run '<id>' --policy $D/pol.txt --resolver '<ip>' --bench-cidr 10.0.0.0/8 --uid '<n>' --model-host '<host>' --out $D/p\$"
expect_absent "$D/p"
run "$NS" egress plan --run r1 --policy "$D/pol.txt" --resolver 10.0.0.1 --model-host api.anthropic.com
expect_err "^EGRESS REFUSED reason=no_command: egress plan writes the plan to --out <file>; name it; run: nova-sandbox egress plan --out '<file>' --run r1 .*\$"
EOF

t "egress check and apply: the fixed line, filled in, passes (the control)" <<'EOF'
D=$(newdir)
printf 'table inet nova_egress_t1 {\n\tchain output {\n\t\ttype filter hook output priority filter; policy accept;\n\t\tmeta skuid 1 ip daddr 169.254.169.254 drop\n\t\tmeta skuid 1 ip daddr 192.0.2.1 tcp dport 443 accept\n\t\tmeta skuid 1 drop\n\t}\n}\n' > "$D/ok.nft"
run "$NS" egress check
expect_rc 2
expect_err "^EGRESS REFUSED reason=no_command: egress check wants --plan <file>, or --live --run <id>; run: nova-sandbox egress check --plan '<file>'\$"
L=$(sed -n 's/^EGRESS REFUSED reason=no_command: .*; run: //p' "$ERR")
run env PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "${L//<file>/$D/ok.nft}"
expect_rc 0
expect_err '^EGRESS CHECK table=nova_egress_t1 '
# apply with the wrong --run: the line with the plan's own run id
run "$NS" egress apply --plan "$D/ok.nft" --run t2
expect_rc 2
expect_err "^EGRESS REFUSED reason=plan_mismatch: the plan's table is nova_egress_t1 but --run t2 wants nova_egress_t2; run: nova-sandbox egress apply --plan $D/ok.nft --run t1\$"
EOF

t "check: a switch's bad value, the fixed line; filled in, it passes" <<'EOF'
run "$NS" check --json=maybe
expect_rc 2
expect_err "^CHECK REFUSED reason=bad_flag: --json wants true or false, got maybe; run: nova-sandbox check '--json=<true\|false>'\$"
L=$(sed -n 's/^CHECK REFUSED reason=bad_flag: .*; run: //p' "$ERR")
run env PATH="$NOVA_B/bin:/usr/bin:/bin" sh -c "${L//<true|false>/true}"
expect_no_err 'REFUSED'
expect_out '^\{'
EOF

# ---- the refusal corpus: every run: line, pasted, works --------------------

# the refusal tokens of $ERR, one a line
tokens_of() { sed -n 's/^[A-Z]* REFUSED reason=\([a-z_0-9]*\):.*/\1/p' "$ERR"; }
# every "<token>\t<line>" of $ERR that carries a run: line
# (a refusal of one problem ends with its line; more than one: the one
# line after them, "NOTE one line fixes ...", token "all", or the first
# problem's line when the fixes touch the same flags, token "first")
lines_of() {
	sed -n -e 's/^[A-Z]* REFUSED reason=\([a-z_0-9]*\): .*; run: \(.*\)$/\1\t\2/p' \
		-e 's/^[A-Z]* NOTE one line fixes the [0-9]* problems\{0,1\} above that carr[a-z]* a fix; run: \(.*\)$/all\t\1/p' \
		-e 's/^[A-Z]* NOTE the fixes of the problems above touch the same flags: .*; run: \(.*\)$/first\t\1/p' "$ERR" |
		grep -v $'\tnova-sandbox\( [a-z]*\)\? \?\(help\|--help\)$'
}
# paste L (its forms filled from $FILL) as the caller: sh -c in $CWD,
# HOME $HOME_ (unset when empty)
paste_as() {
	local l=$1 kv fills
	IFS=';' read -r -a fills <<<"$FILL"
	for kv in "${fills[@]}"; do
		# shellcheck disable=SC2295 # the form is a glob
		[ -n "$kv" ] && [ "$kv" != - ] && l=${l//${kv%%=*}/"${kv#*=}"}
	done
	run_as env -i ${HOME_:+HOME="$HOME_"} PATH="$NOVA_B/bin:/usr/bin:/bin" \
		LANG=C TERM=dumb sh -c 'cd "$1" && eval "$2"' sh "$CWD" "$l"
}
# pasted TOKEN LINE: the line runs the command, or it is refused only for
# problems the first output refused too, each with its own line (an
# independent problem), never again for its own
pasted() {
	local tok=$1 l=$2 t
	paste_as "$l"
	if [ "$RC" = 0 ] && grep -qx pasted "$OUT" && ! grep -q 'REFUSED' "$ERR"; then
		return 0
	fi
	case "$NAME" in tied-*)
		_fail "pasted, the $tok line of a tied pair did not run: $l"
		return 1 ;;
	esac
	if ! grep -q 'REFUSED' "$ERR"; then
		_fail "pasted, the $tok line neither ran the command nor was refused: $l"
		return 1
	fi
	for t in $(tokens_of); do
		[ "$t" != "$tok" ] && grep -qx "$t" "$FIRST" && continue
		_fail "pasted, the $tok line is refused $t (the first output did not name it, or the line fixed nothing): $l"
		return 1
	done
}

trim() { sed 's/^[[:space:]]*//;s/[[:space:]]*$//' <<<"$1"; }
while IFS='|' read -r name home cwd fill words; do
	name=$(trim "$name")
	case "$name" in '#'* | '') continue ;; esac
	home=$(trim "$home"); cwd=$(trim "$cwd")
	fill=$(trim "$fill"); words=$(trim "$words")
t "refusal corpus $name: each run: line, pasted, runs the command" <<EOF
W=\$(newdir); O=\$(newdir); N=rc-\$\$-$name; NAME=$name
mkdir -p "\$W/home" "\$O/h"
printf '#!/bin/sh\necho pasted\n' > "\$O/s.sh"
cp "\$O/s.sh" "\$O/h/s.sh"
chmod 755 "\$O/s.sh" "\$O/h/s.sh"
echo data > "\$O/data"
# a script directly in the test user's own home (passwd's)
P=\$THOME/nova-it-\$\$-$name.sh
cp "\$O/s.sh" "\$P" && at_end "rm -f '\$P'"
[ "\$(id -u)" != 0 ] || chown "\$TUID:\$TGID" "\$P"
[ "\$(id -u)" != 0 ] || chown -R "\$TUID:\$TGID" "\$W" "\$O"
HOME_="$home"; [ "\$HOME_" != - ] || HOME_=
CWD="$cwd"
FILL="$fill"
eval "set -- $words"
run_as env -i \${HOME_:+HOME="\$HOME_"} PATH="\$NOVA_B/bin:/usr/bin:/bin" \\
	LANG=C TERM=dumb sh -c 'cd "\$1" && shift && exec "\$@"' sh "\$CWD" "\$NS" "\$@"
FIRST=\$(mktemp); at_end "rm -f '\$FIRST'"
tokens_of > "\$FIRST"
case "$name" in
*-ok) # the control: this line is not refused, and runs
	expect_rc 0
	expect_out '^pasted\$' ;;
*)
	# refused: 125, or 127 when every refusal is not_found
	case "\$RC" in 125 | 127) ;; *) _fail "refused with exit \$RC" ;; esac
	[ -s "\$FIRST" ] || _fail "not refused"
	mapfile -t LINES < <(lines_of)
	[ "\${#LINES[@]}" -gt 0 ] || _fail "no run: line"
	for tl in "\${LINES[@]}"; do
		pasted "\${tl%%\$'\t'*}" "\${tl#*\$'\t'}" || break
	done ;;
esac
EOF
done < "$(dirname "$0")/refusals.tab"
