#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/escape/run.sh -- the attack suite: every attack in attacks.tab is
# tried twice, by the same unprivileged user against the same target:
#
#   control  unwalled; it must SUCCEED (else "control failed": the attack
#            proves nothing here, a test error);
#   walled   inside the wall (the bare wrap or `run`, as the attack says).
#
# Outcome: held (control succeeded, walled attempt failed), LEAK (the walled
# attempt succeeded), or gap (it succeeded and tests/escape/stated-gaps names
# it with a word the spec's text carries: a stated gap; a stated gap whose
# word no Gaps section of the spec carries is a LEAK -- a gap nobody states is a defect).
# A listed gap that holds is said ("now holds"), counted held.
#
# A control that depends on the machine (the i386 entry, a pty, TIOCSTI,
# IPv6, MPTCP, vsock, io_uring, user namespaces, ambient capabilities...:
# the needs column names the probe, and every pty mode needs "tty") is
# asked of the machine first, as the test user (tests/machine/machine.h,
# $B/tests/helpers/ns_machine).  Where the machine lacks it the attack is
# "skip-here", named with the probe's reason and counted in skipped_here,
# never a control failure; a control that fails on a machine that has it
# still fails the run.  NOVA_MACHINE=<probe>=no,... forces a probe's
# answer (to see the skips on a machine that has everything).
#
# The run fails on any LEAK or control failure.  Last line:
#
#   escape: attacks=<n> held=<h> gaps=<g> leaks=<l> control_failed=<c> skipped_here=<k>[ (<name> ...)]
#
# As root the attacks run as $NOVA_TEST_USER (created when missing), as
# anyone else as the invoking user.  Serialise with the integration suite
# (run names and the test user are machine-wide).
#
# usage: tests/escape/run.sh <builddir> [-v] [attack-name ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
shift || true
VERBOSE=0
if [ "${1:-}" = -v ]; then VERBOSE=1; shift; fi
ONLY=("$@")

NS="$B/bin/nova-sandbox"
EB="$B/tests/escape"            # the attack programs (a --read of every wall)
E="$EB/esc"
EH="$EB/esc_hold"
PTY="$B/tests/helpers/ns_ptyrun"
MACHINE="$B/tests/helpers/ns_machine"
SPEC="$here/../../docs/SPEC-SANDBOX.md"
LDSO=$(ls /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* 2>/dev/null | head -1)
TEST_USER="${NOVA_TEST_USER:-nova-test}"

for f in "$NS" "$E" "$EH" "$PTY" "$MACHINE"; do
	[ -x "$f" ] || { echo "escape: $f is not built (make)"; exit 2; }
done
if [ "$(id -u)" = 0 ]; then
	id "$TEST_USER" >/dev/null 2>&1 ||
		useradd --system --create-home --shell /bin/sh "$TEST_USER" || exit 2
	TUID=$(id -u "$TEST_USER")
	TGID=$(id -g "$TEST_USER")
	THOME=$(getent passwd "$TEST_USER" | cut -d: -f6)
	AS_USER=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups --)
	ROOT=1
else
	TUID=$(id -u)
	TGID=$(id -g)
	THOME=$(getent passwd "$TUID" | cut -d: -f6)
	AS_USER=()
	ROOT=0
fi

# The worlds live under the build tree, not /tmp: the config and module
# checks refuse a world-writable ancestor, and run's /tmp is its own.
WROOT=$(mktemp -d "$B/tests/esc-worlds.XXXXXX") || exit 2
chmod 755 "$WROOT"
OUT="$WROOT/out"
ERR="$WROOT/err"
HOLDERS=()
cleanup_all() {
	stop_holders
	rm -rf -- "$WROOT"
}
trap cleanup_all EXIT
trap 'exit 130' INT TERM

# ---- the attacks' environment ------------------------------------------

# A fresh world per phase: W the write root, O a directory of the user
# outside every root, R a read root, files the attacks aim at.
new_world() {
	WORLD=$(mktemp -d "$WROOT/w.XXXXXX")
	W="$WORLD/w"; O="$WORLD/o"; R="$WORLD/r"
	mkdir -p "$W/home" "$W/mnt" "$O/d" "$R"
	echo "the secret" > "$O/secret"; chmod 600 "$O/secret"
	echo "original" > "$O/target"
	echo "linked" > "$O/file"
	echo "mine" > "$W/mine"
	cp /bin/true "$O/true"
	printf '#!/bin/sh\nexec cat %s/secret\n' "$O" > "$O/reader"
	chmod 755 "$O/reader"
	ln -s /etc/hostname "$O/alink"
	echo "read me" > "$R/data"
	cp /bin/true "$R/true"
	ln -s "$O/target" "$W/link"
	ln -s "$O/secret" "$W/slink"
	# planted by "an earlier run" in a directory the command could write
	ln -s "$O" "$W/olink"
	ln -s "$O" "$W/rlink"
	ln -s "$O/reader" "$W/cmdlink"
	ln -s "$O" "$W/tlink"
	ln -s "$O" "$W/clink"
	ln -s "$O" "$W/hlink"
	chmod 755 "$WORLD" "$W" "$O" "$R"
	[ "$ROOT" = 1 ] && chown -hR "$TUID:$TGID" "$WORLD"
	"${AS_USER[@]}" "$E" setxattr "$O/file" >/dev/null
	chmod 644 "$OUT" "$ERR" 2>/dev/null
	: > "$OUT"; : > "$ERR"
	[ "$ROOT" = 1 ] && chown "$TUID:$TGID" "$OUT" "$ERR"
	# the defaults an attack's setup may change
	WF=(--read "$EB" --write "$W")
	RF=(--read "$EB")
	RSIZE=64m
	GENV=()
	GHOME="$W/home"
	GCWD="$W"
	NSBIN="$NS"
	THROUGH=""
}

# Build the command line of this phase into GCMD.
go_cmd() {
	local cmd
	if [ "$PHASE" = ctl ]; then
		cmd=("$@")
	elif [[ "$MODE" == run* ]]; then
		cmd=("$NSBIN" run --name "$RNAME" --size "$RSIZE" "${RF[@]}" -- "$@")
	else
		cmd=("$NSBIN" "${WF[@]}" -- "$@")
	fi
	cmd=(env -i PATH=/usr/bin:/bin HOME="$GHOME" "${GENV[@]}" "${cmd[@]}")
	case "$MODE" in
	*ptyredir) cmd=("$PTY" sh -c 'exec "$@" </dev/null' sh "${cmd[@]}") ;;
	*pty) cmd=("$PTY" "${cmd[@]}") ;;
	esac
	GCMD=("${AS_USER[@]}" "${cmd[@]}")
}

# go CMD...: run the attack's command in this phase; $RC, $OUT, $ERR
go() {
	go_cmd "$@"
	(cd "$GCWD" && exec "${GCMD[@]}") >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

# go_bg CMD...: the same in the background; $BG its pid (wait_bg: $RC)
go_bg() {
	go_cmd "$@"
	(cd "$GCWD" && exec "${GCMD[@]}") >"$OUT" 2>"$ERR" </dev/null &
	BG=$!
}
wait_bg() { wait "$BG"; RC=$?; }

# as the test user, outside any wall
user() { "${AS_USER[@]}" "$@"; }

# wait (at most 5 s) for a file
wait_file() {
	local i
	for i in $(seq 100); do [ -e "$1" ] && return 0; sleep 0.05; done
	return 1
}

# hold VAR KIND ARGS...: start a target outside the wall; its INFO lines
# become VAR_<key> variables
hold() {
	local var=$1 kind=$2 inf k v
	shift 2
	inf="$WORLD/hold-$var"
	"${AS_USER[@]}" "$EH" "$kind" "$inf" "$@" </dev/null >/dev/null \
		2>>"$WORLD/hold.err" &
	HOLDERS+=($!)
	wait_file "$inf" || { echo "     hold $kind did not start: $(cat "$WORLD/hold.err")"; return 1; }
	while IFS='=' read -r k v; do
		printf -v "${var}_$k" '%s' "$v"
	done < "$inf"
}

stop_holders() {
	local p
	for p in "${HOLDERS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${HOLDERS[@]}"; do wait "$p" 2>/dev/null; done
	HOLDERS=()
}

# the targets an attack needs (the table's "needs" column)
setup_needs() {
	local n
	for n in ${1//,/ }; do
		# a machine probe (machine_lacks asked it before the control)
		[[ "$PROBES" == *" $n "* ]] && continue
		case "$n" in
		-) ;;
		root) ;;
		victim) hold V victim "$WORLD/mark" || return 1 ;;
		pty) hold P pty || return 1 ;;
		shm) hold S shm "esc-$$-$IDX" || return 1 ;;
		mq) hold Q mq "esc-$$-$IDX" || return 1 ;;
		sysv) hold Y sysv "$SYSKEY" || return 1 ;;
		key) hold K key "$KDESC" || return 1 ;;
		abstract) hold A abstract "$ABS" || return 1 ;;
		unixsock) hold U unixsock "$O/agent.sock" || return 1 ;;
		listen) hold L listen || return 1 ;;
		*) echo "     unknown need $n"; return 1 ;;
		esac
	done
}

# the table's flags column: words, ENV:NAME=VALUE adds to the environment
apply_flags() {
	local w
	case "$1" in -|@) return 0 ;; esac
	for w in $(eval echo "$1"); do
		case "$w" in
		ENV:*) GENV+=("${w#ENV:}") ;;
		*) if [[ "$MODE" == run* ]]; then RF+=("$w"); else WF+=("$w"); fi ;;
		esac
	done
}

# ---- one phase of one attack: PHASE_RESULT yes|no|broken|refused ---------
phase() {
	local fn=${NAME//-/_} c
	PHASE=$1
	new_world
	RNAME="esc-$$-$IDX"
	HOLD=0; [ "$PHASE" = wall ] && HOLD=2   # seconds a cap attack holds its memory
	SYSKEY=$(( 0x45000000 + ($$ % 30000) * 512 + IDX * 3 ))
	KDESC="esc-$$-$IDX"
	ABS="esc-$$-$IDX"
	if ! setup_needs "$NEEDS"; then
		PHASE_RESULT=broken
		PHASE_DETAIL="a target outside the wall did not start"
		teardown
		return
	fi
	apply_flags "$FLAGS"
	if declare -F "setup_$fn" >/dev/null; then "setup_$fn"; fi
	if [ "$ACTION" = @ ]; then "do_$fn"; else eval "go $ACTION"; fi
	if [ -n "$THROUGH" ]; then
		c=$THROUGH
	elif declare -F "check_$fn" >/dev/null; then
		"check_$fn"; c=$?
		case $c in 0) c=yes ;; 1) c=no ;; *) c=broken ;; esac
	else
		case $RC in 0) c=yes ;; 1) c=no ;; *) c=broken ;; esac
	fi
	if [ "$PHASE" = wall ] && [ "$c" != yes ] &&
	   grep -q '^SANDBOX REFUSED' "$ERR" && ! grep -q '^SANDBOX OK' "$ERR"; then
		c=refused
	fi
	PHASE_RESULT=$c
	PHASE_DETAIL="rc=$RC $(grep -m1 -E '^(ok|denied|read|SANDBOX REFUSED)' "$OUT" "$ERR" 2>/dev/null | head -1 | cut -d: -f2- | cut -c1-160)"
	[ "$VERBOSE" = 1 ] || [ "$c" = broken ] && dump
	teardown
}

dump() {
	echo "     --- $PHASE rc=$RC stdout:"; sed 's/^/     | /' "$OUT" | head -12
	echo "     --- $PHASE stderr:"; sed 's/^/     | /' "$ERR" | head -12
}

teardown() {
	local fn=${NAME//-/_}
	if declare -F "teardown_$fn" >/dev/null; then "teardown_$fn"; fi
	stop_holders
	rm -rf -- "$WORLD"
}

# ---- the stated gaps ----------------------------------------------------
# tests/escape/stated-gaps: "<attack> | <word the spec must carry> | why"
gap_word() {
	awk -F'|' -v n="$1" '
		/^[[:space:]]*#/ { next }
		{ a = $1; gsub(/^[ \t]+|[ \t]+$/, "", a)
		  w = $2; gsub(/^[ \t]+|[ \t]+$/, "", w)
		  if (a == n) { print w; exit } }' "$here/stated-gaps"
}

# the text of every section of the spec whose heading says "Gaps" (up to
# the next heading): a stated gap must be said there, not just anywhere
GAPS_TEXT=$(awk '/^#/ { on = ($0 ~ /Gaps/) } on' "$SPEC")

# the first of WORD's comma-separated alternatives a Gaps section says
gap_said() {
	local w
	IFS=',' read -ra alts <<< "$1"
	for w in "${alts[@]}"; do
		w=$(echo $w)
		if printf '%s\n' "$GAPS_TEXT" | grep -qiwF -- "$w"; then
			echo "$w"
			return 0
		fi
	done
	return 1
}

# ---- what the machine gives ----------------------------------------------
PROBES=" $("$MACHINE" --names | tr '\n' ' ') "

# machine_lacks: the attack's machine probes (its needs column's probe
# names; a pty mode needs "tty"), asked as the test user.  0 with $WHY
# the reasons when the machine lacks one; 1 when it has them all; 2 (and
# $WHY) when the probe could not answer.
machine_lacks() {
	local w probes=() rc
	[[ "$MODE" == *pty* ]] && probes+=(tty)
	for w in ${NEEDS//,/ }; do
		[[ "$PROBES" == *" $w "* ]] && probes+=("$w")
	done
	[ ${#probes[@]} -eq 0 ] && return 1
	WHY=$("${AS_USER[@]}" "$MACHINE" "${probes[@]}" 2>&1)
	rc=$?
	WHY=$(printf '%s' "$WHY" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	case $rc in 0) return 1 ;; 1) return 0 ;; *) return 2 ;; esac
}

# ---- the run ------------------------------------------------------------
source "$here/attacks.sh"
# the table: NOVA_ESCAPE_TAB is selftest.sh's own (the suite's machinery
# proven on cases whose answer is known); the suite proves that first
TAB="${NOVA_ESCAPE_TAB:-$here/attacks.tab}"
if [ -z "${NOVA_ESCAPE_TAB:-}" ]; then
	"$here/selftest.sh" "$B" || { echo "escape: the suite's selftest failed"; exit 2; }
fi

n=0; held=0; gaps=0; leaks=0; cfail=0; skipped=0; here_n=0; here_names=""
IDX=0
while IFS='|' read -r -u 3 NAME CLASS MODE NEEDS FLAGS ACTION DESC; do
	NAME=$(echo $NAME); CLASS=$(echo $CLASS); MODE=$(echo $MODE)
	NEEDS=$(echo $NEEDS); FLAGS=$(echo "$FLAGS" | sed 's/^ *//;s/ *$//')
	ACTION=$(echo "$ACTION" | sed 's/^ *//;s/ *$//')
	DESC=$(echo "$DESC" | sed 's/^ *//;s/ *$//')
	[ -z "$NAME" ] && continue
	[[ "$NAME" == \#* ]] && continue
	IDX=$((IDX + 1))
	if [ ${#ONLY[@]} -gt 0 ]; then
		keep=0
		for o in "${ONLY[@]}"; do [ "$o" = "$NAME" ] && keep=1; done
		[ "$keep" = 1 ] || continue
	fi
	if [[ ",$NEEDS," == *,root,* ]] && [ "$ROOT" != 1 ]; then
		echo "skip     [$CLASS] $NAME: needs root (as anyone else it would act on every process of the invoking user)"
		skipped=$((skipped + 1))
		continue
	fi
	label="[$CLASS] $NAME: $DESC"
	machine_lacks; mrc=$?
	if [ "$mrc" = 0 ]; then
		echo "skip-here [$CLASS] $NAME: this machine lacks $WHY"
		here_n=$((here_n + 1)); here_names="$here_names $NAME"
		continue
	fi
	n=$((n + 1))
	if [ "$mrc" = 2 ]; then
		echo "CONTROL FAILED $label (the machine probe could not answer: $WHY)"
		cfail=$((cfail + 1))
		continue
	fi
	phase ctl
	if [ "$PHASE_RESULT" != yes ]; then
		echo "CONTROL FAILED $label ($PHASE_RESULT, $PHASE_DETAIL)"
		[ "$VERBOSE" = 1 ] || dump
		cfail=$((cfail + 1))
		continue
	fi
	phase wall
	word=$(gap_word "$NAME")
	case "$PHASE_RESULT" in
	yes)
		if [ -z "$word" ]; then
			echo "LEAK     $label ($PHASE_DETAIL)"
			leaks=$((leaks + 1))
		elif said=$(gap_said "$word"); then
			echo "gap      $label (stated: '$said')"
			gaps=$((gaps + 1))
		else
			echo "LEAK     $label (listed as a gap, but the spec never says '$word')"
			leaks=$((leaks + 1))
		fi ;;
	no|refused)
		if [ "$PHASE_RESULT" = refused ] && ! refuse_ok "$NAME"; then
			echo "CONTROL FAILED $label (the tool refused to run the attack: $PHASE_DETAIL)"
			cfail=$((cfail + 1))
			continue
		fi
		extra=""
		[ -n "$word" ] && extra=" -- listed in stated-gaps but now holds: remove it there"
		echo "held     $label ($PHASE_RESULT: $PHASE_DETAIL)$extra"
		held=$((held + 1)) ;;
	*)
		echo "CONTROL FAILED $label (the walled attempt could not be judged: $PHASE_DETAIL)"
		cfail=$((cfail + 1)) ;;
	esac
done 3< "$TAB"

[ "$skipped" -gt 0 ] && echo "escape: $skipped attack(s) skipped (need root)"
echo "escape: attacks=$n held=$held gaps=$gaps leaks=$leaks control_failed=$cfail skipped_here=$here_n${here_names:+ (${here_names# })}"
[ "$leaks" -eq 0 ] && [ "$cfail" -eq 0 ]
