#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/denials/run.sh -- the denial corpus (corpus.tab) against --explain.
#
# Every case runs three times, each in a fresh world (the same paths), as
# the unprivileged test user, env -i PATH=/usr/bin:/bin HOME=$W/home:
#
#   control  unwalled.  deny: it must exit 0; ctl: it must fail, and the
#            walled run must fail with the same exit code (the wall is not
#            why).  A failed control is a test error ("CONTROL FAILED").
#   explain  `nova-sandbox --explain --write $W <flags> -- <command>`; a deny
#            case must fail.  Its `SANDBOX DENIED path= op= remedy=` lines
#            are scored: an expected entry is named when a line has its
#            path, op and remedy; a line no entry matches is FALSE, and so
#            is every DENIED line of a ctl case.
#   remedy   (deny cases) the remedies the lines suggest are applied to the
#            flags -- "--read D"/"--write D" added (replacing a weaker
#            --read/--read-noexec of the same D, which rule 6 would refuse
#            beside it), "without --net-deny" removes --net-deny -- and the
#            command rerun walled: it must now exit 0.
#
# Last lines:
#   denials: cases=<n> expected=<e> named=<k> (<pct>%) false=<f>
#   remedies: fixed=<x> of <y> deny cases
# The run fails when pct < 95, false > 0, a remedy did not fix its case, a
# control failed, or the tool refused a case (e.g. a wall without explain).  As root the commands run as $NOVA_TEST_USER (created
# when missing), as anyone else as the invoking user.  Serialise with the
# integration suite (the test user is machine-wide).
#
# usage: tests/denials/run.sh <builddir> [-v] [case-name-or-glob ...]
#   NOVA_DENIALS_NS=<program> runs that instead of <builddir>/bin/nova-sandbox
#   (how the harness itself was checked against a fake, tests/README.md)
set -u
shopt -s extglob
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
shift || true
VERBOSE=0
if [ "${1:-}" = -v ]; then VERBOSE=1; shift; fi
ONLY=("$@")

NS=${NOVA_DENIALS_NS:-$B/bin/nova-sandbox}
H="$B/tests/helpers"
PY=/usr/bin/python3
TEST_USER="${NOVA_TEST_USER:-nova-test}"
for f in "$NS" "$H/ns_denyop" "$H/ns_netprobe" "$H/ns_listen" "$PY" /usr/bin/git; do
	[ -x "$f" ] || { echo "denials: $f is not there (make; infra/deps.sh)"; exit 2; }
done
if [ "$(id -u)" = 0 ]; then
	id "$TEST_USER" >/dev/null 2>&1 ||
		useradd --system --create-home --shell /bin/sh "$TEST_USER" || exit 2
	TUID=$(id -u "$TEST_USER")
	TGID=$(id -g "$TEST_USER")
	AS_USER=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups --)
else
	TUID=$(id -u)
	TGID=$(id -g)
	AS_USER=()
fi

TOP=$(mktemp -d /tmp/nova-den.XXXXXX) || exit 2
chmod 755 "$TOP"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$TOP"
LISTENER=""
cleanup() {
	[ -n "$LISTENER" ] && kill -TERM "$LISTENER" 2>/dev/null && wait "$LISTENER" 2>/dev/null
	rm -rf -- "$TOP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

user() { "${AS_USER[@]}" "$@"; }

# ---- the world ----------------------------------------------------------
# One template, built once by the test user; every run copies it to the
# same $D so that the paths a case expects stay the paths of every run.
TPL="$TOP/template"
D="$TOP/world"
W="$D/w"; O="$D/o"; R="$D/r"; N="$D/n"
OUT="$TOP/out"; ERR="$TOP/err"

build_template() {
	local t=$TPL
	mkdir -p "$t/w/home" "$t/w/sub/deeper" "$t/o/d" "$t/o/empty" "$t/o/ro" \
		"$t/r/sub" "$t/n"
	echo "the secret" > "$t/o/secret"; chmod 600 "$t/o/secret"
	echo "original" > "$t/o/target"
	echo "inside d" > "$t/o/d/f"
	echo "mine" > "$t/w/mine"
	ln -s "$O" "$t/w/olink"
	echo "read me" > "$t/r/data"
	cp /bin/true "$t/n/tool"; chmod 755 "$t/n/tool"
	chmod 755 "$t" "$t"/* "$t/o/d" "$t/o/empty"
	[ "$(id -u)" = 0 ] && chown -hR "$TUID:$TGID" "$t"
	# a bare repository with one commit, made by the user
	user env -i PATH=/usr/bin:/bin HOME="$t/w/home" sh -c '
		git init -q "$1/src" &&
		git -C "$1/src" -c user.name=t -c user.email=t@example.invalid \
			commit -q --allow-empty -m one &&
		git clone -q --bare "$1/src" "$1/o/repo.git" &&
		rm -rf "$1/src"' sh "$t" || return 1
	chmod 555 "$t/o/ro"
}

# The 0000 files are made in each world, not copied: an ordinary user's
# cp cannot read them (as root it could, and the user's control would
# then differ from root's).
new_world() {
	local f
	rm -rf -- "$D"
	cp -a "$TPL" "$D"
	for f in "$O/locked" "$W/locked"; do
		echo "locked" > "$f" && chmod 000 "$f"
		[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$f"
	done
}

# ---- one run --------------------------------------------------------------
# go PHASE: run the case's command (CMD) in the world, in PHASE: ctl
# (unwalled) or wall (walled with FLAGS; EXPLAIN=1 adds --explain); $RC
go() {
	local cmd
	new_world
	if [ "$1" = ctl ]; then
		cmd=("${CMD[@]}")
	else
		cmd=("$NS" ${EXPLAIN:+--explain} --write "$W" "${FLAGS[@]}")
		[ "$CWD" = "$W" ] || cmd+=(--cwd "$CWD")
		cmd+=(-- "${CMD[@]}")
	fi
	(cd "$CWD" && exec "${AS_USER[@]}" env -i PATH=/usr/bin:/bin HOME="$W/home" \
		"${cmd[@]}") >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

dump() {
	echo "     --- $1 rc=$RC stdout:"; sed 's/^/     | /' "$OUT" | head -12
	echo "     --- $1 stderr:"; sed 's/^/     | /' "$ERR" | head -24
}

# a field's value back from its escaping (\xNN, \uNNNN; "-" is empty)
unescape() {
	if [ "$1" = - ]; then printf ''; else printf '%b' "$1"; fi
}

# the DENIED lines of $ERR as "op<TAB>path<TAB>remedy", one a line; a
# line after DONE (the grammar prints them before it) or not of the grammar
# comes back as op "malformed", which no entry matches
denied_lines() {
	# a remedy holds no quote; warn=<words> may follow it (section 3)
	local line done=0 re='^SANDBOX DENIED path=([^ ]+) op=([a-z]+) remedy="([^"]*)"( warn=[a-z,-]+)?$'
	while IFS= read -r line; do
		case "$line" in "SANDBOX DONE "*) done=1 ;; esac
		case "$line" in "SANDBOX DENIED "*) ;; *) continue ;; esac
		if [ "$done" = 1 ]; then
			printf 'malformed\t%s\t(after SANDBOX DONE)\n' "$line"
		elif [[ $line =~ $re ]]; then
			printf '%s\t%s\t%s\n' "${BASH_REMATCH[2]}" \
				"$(unescape "${BASH_REMATCH[1]}")" "$(unescape "${BASH_REMATCH[3]}")"
		else
			printf 'malformed\t%s\t-\n' "$line"
		fi
	done < "$ERR"
}

# the case's expected entries, expanded, into E_OP E_PATH E_REM E_OPT
parse_expected() {
	local e entry
	E_OP=(); E_PATH=(); E_REM=(); E_OPT=()
	[ "$EXPECTED" = none ] && return 0
	while IFS= read -r entry; do
		entry=$(echo "$entry" | sed 's/^ *//;s/ *$//')
		[ -z "$entry" ] && continue
		e=0
		case "$entry" in '?'*) e=1; entry=${entry#\?} ;; esac
		E_OPT+=("$e")
		E_OP+=("${entry%% *}")
		entry=${entry#* }
		E_PATH+=("$(eval "echo \"${entry%% => *}\"")")
		E_REM+=("$(eval "echo \"${entry#* => }\"")")
	done <<< "${EXPECTED// ; /$'\n'}"
}

# ---- remedies -------------------------------------------------------------
# has_flag FLAG DIR: FLAGS holds that pair (or it is the wall's own --write)
has_flag() {
	local i
	[ "$1" = --write ] && [ "$2" = "$W" ] && return 0
	for ((i = 0; i + 1 < ${#FLAGS[@]}; i++)); do
		[ "${FLAGS[i]}" = "$1" ] && [ "${FLAGS[i+1]}" = "$2" ] && return 0
	done
	return 1
}

# drop_flag FLAG DIR: remove that pair from FLAGS
drop_flag() {
	local i out=()
	for ((i = 0; i < ${#FLAGS[@]}; i++)); do
		if [ "${FLAGS[i]}" = "$1" ] && [ "${FLAGS[i+1]:-}" = "$2" ]; then
			i=$((i + 1))
		else
			out+=("${FLAGS[i]}")
		fi
	done
	FLAGS=("${out[@]}")
}

# apply one remedy text to FLAGS; 1 when no flag can do what it says.  A
# weaker flag on the same directory is replaced (rule 6 refuses the same
# directory under two flags).
apply_remedy() {
	local dir=${1#* }
	case "$1" in
	"without --net-deny")
		local f out=()
		for f in "${FLAGS[@]}"; do [ "$f" = --net-deny ] || out+=("$f"); done
		FLAGS=("${out[@]}") ;;
	"--read "*)
		has_flag --write "$dir" || has_flag --read "$dir" && return 0
		drop_flag --read-noexec "$dir"
		FLAGS+=(--read "$dir") ;;
	"--write "*)
		has_flag --write "$dir" && return 0
		drop_flag --read "$dir"
		drop_flag --read-noexec "$dir"
		FLAGS+=(--write "$dir") ;;
	*) return 1 ;;
	esac
	return 0
}

# ---- the run ------------------------------------------------------------
build_template || { echo "denials: the world could not be built"; exit 2; }
user "$H/ns_listen" "$TOP/ports" </dev/null >/dev/null 2>&1 &
LISTENER=$!
for _ in $(seq 100); do [ -s "$TOP/ports" ] && break; sleep 0.05; done
PORT=$(sed -n 's/.*tcp=\([0-9]*\).*/\1/p' "$TOP/ports" 2>/dev/null)
[ -n "$PORT" ] || { echo "denials: the loopback listener did not start"; exit 2; }

n=0; nexp=0; named=0; false_n=0; cfail=0; nfix=0; fixed=0; broken=0; refused=0
while IFS='|' read -r -u 3 NAME KIND FL CW EXPECTED CMDTXT; do
	NAME=$(echo $NAME); KIND=$(echo $KIND)
	[ -z "$NAME" ] && continue
	[[ "$NAME" == \#* ]] && continue
	if [ ${#ONLY[@]} -gt 0 ]; then
		keep=0
		for o in "${ONLY[@]}"; do [[ $NAME == $o ]] && keep=1; done
		[ "$keep" = 1 ] || continue
	fi
	EXPECTED=$(echo "$EXPECTED" | sed 's/^ *//;s/ *$//')
	CMDTXT=$(echo "$CMDTXT" | sed 's/^ *//;s/ *$//')
	FL=$(echo "$FL" | sed 's/^ *//;s/ *$//')
	CW=$(echo $CW)
	eval "CMD=($CMDTXT)"
	if [ "$FL" = - ]; then FLAGS=(); else eval "FLAGS=($FL)"; fi
	if [ "$CW" = - ]; then CWD=$W; else eval "CWD=$CW"; fi
	parse_expected
	n=$((n + 1))

	# control
	EXPLAIN="" go ctl
	CTL_RC=$RC
	if [ "$KIND" = deny ] && [ "$RC" != 0 ]; then
		echo "CONTROL FAILED $NAME: unwalled it exits $RC, not 0"; dump control
		cfail=$((cfail + 1)); continue
	fi
	if [ "$KIND" = ctl ] && [ "$RC" = 0 ]; then
		echo "CONTROL FAILED $NAME: unwalled it succeeds: not a control"; dump control
		cfail=$((cfail + 1)); continue
	fi

	# explain
	EXPLAIN=1 go wall
	lines=$(denied_lines)
	case_named=0; case_exp=0; case_false=0; msgs=""
	if [ "$KIND" = deny ] && [ "$RC" = 0 ]; then
		msgs+="     the walled run succeeded: the wall denied nothing"$'\n'
		broken=$((broken + 1))
	fi
	if grep -q '^SANDBOX REFUSED' "$ERR" && ! grep -q '^SANDBOX OK' "$ERR"; then
		msgs+="     refused: $(grep -m1 '^SANDBOX REFUSED' "$ERR")"$'\n'
		refused=$((refused + 1))
	elif [ "$KIND" = ctl ] && [ "$RC" != "$CTL_RC" ]; then
		msgs+="     walled it exits $RC, unwalled $CTL_RC: not the same failure"$'\n'
		cfail=$((cfail + 1))
	fi
	hit=()
	for i in "${!E_OP[@]}"; do hit[i]=0; done
	while IFS=$'\t' read -r op path rem; do
		[ -z "$op" ] && continue
		match=""
		for i in "${!E_OP[@]}"; do
			# shellcheck disable=SC2053
			if [[ $op == ${E_OP[i]} ]] && [[ $path == ${E_PATH[i]} ]] &&
			   [[ $rem == ${E_REM[i]} ]]; then
				match=$i; hit[i]=1
			fi
		done
		if [ -z "$match" ]; then
			case_false=$((case_false + 1))
			msgs+="     FALSE line: op=$op path=$path remedy=\"$rem\""$'\n'
		fi
	done <<< "$lines"
	for i in "${!E_OP[@]}"; do
		[ "${E_OPT[i]}" = 1 ] && continue
		case_exp=$((case_exp + 1))
		if [ "${hit[i]}" = 1 ]; then
			case_named=$((case_named + 1))
		else
			msgs+="     not named: op=${E_OP[i]} path=${E_PATH[i]} remedy=\"${E_REM[i]}\""$'\n'
		fi
	done
	nexp=$((nexp + case_exp)); named=$((named + case_named))
	false_n=$((false_n + case_false))
	if [ -n "$msgs" ]; then
		echo "MISS     $NAME: named $case_named of $case_exp, false $case_false"
		printf '%s' "$msgs"
		dump explain
	else
		echo "ok       $NAME: named $case_named of $case_exp"
		[ "$VERBOSE" = 1 ] && dump explain
	fi

	# remedy
	[ "$KIND" = deny ] || continue
	nfix=$((nfix + 1))
	fixable=1
	while IFS=$'\t' read -r op path rem; do
		[ -z "$op" ] && continue
		# "-": the tool names no flag for it (/, /dev, ...); the
		# command must succeed without it (the rerun below says)
		case "$rem" in '' | -) continue ;; esac # (unescape gives '' for -)
		apply_remedy "$rem" || fixable=0
	done <<< "$lines"
	if [ -z "$lines" ]; then
		echo "NOT FIXED $NAME: no DENIED line, no remedy to apply"
		continue
	fi
	if [ "$fixable" = 0 ]; then
		echo "NOT FIXED $NAME: a remedy no flag can apply"
		continue
	fi
	EXPLAIN=1 go wall
	if [ "$RC" = 0 ]; then
		fixed=$((fixed + 1))
		[ "$VERBOSE" = 1 ] && echo "fixed    $NAME: ${FLAGS[*]}"
	else
		echo "NOT FIXED $NAME: with ${FLAGS[*]} it exits $RC"
		dump remedy
	fi
done 3< "$here/corpus.tab"

if [ "$nexp" -gt 0 ]; then
	pct=$(awk -v k="$named" -v e="$nexp" 'BEGIN { printf "%.1f", 100 * k / e }')
else
	pct=0.0
fi
[ "$cfail" -gt 0 ] && echo "denials: $cfail control(s) failed (a test error: the case proves nothing)"
[ "$refused" -gt 0 ] && echo "denials: the tool refused $refused case(s) before running them"
[ "$broken" -gt 0 ] && echo "denials: $broken deny case(s) succeeded walled (no denial to name)"
echo "denials: cases=$n expected=$nexp named=$named ($pct%) false=$false_n"
echo "remedies: fixed=$fixed of $nfix deny cases"
[ "$n" -gt 0 ] && [ "$cfail" -eq 0 ] && [ "$refused" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$false_n" -eq 0 ] &&
	[ $((named * 100)) -ge $((nexp * 95)) ] && [ "$fixed" -eq "$nfix" ]
