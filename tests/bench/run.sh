#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench: ONE interleaved comparison, then the goals of issue 9.
# Figures only: a goal missed is printed "not met", never an exit status.
# A benchmarked command that fails (a refused wrap, a floor that cannot
# build its ruleset) stops the bench with exit 1: it is never timed.
#
# usage: tests/bench/run.sh [--quick] <builddir>
# (tests/bench/netallow.sh, sourced near the end: the figures of issue 25)
#   --quick   few rounds (NOVA_BENCH_RUNS=15, 3 build rounds), one egress
#             round, a small caps_tick: proves the bench runs end to end
# environment:
#   NOVA_BENCH_RUNS        rounds of the main comparison (default 300)
#   NOVA_BENCH_BUILD_RUNS  rounds of the build-like workload (default 40)
#   NOVA_BENCH_BEFORE      another build dir (make bench BEFORE=...)
#   NOVA_TEST_USER         the unprivileged user walled rows run as under
#                          root (default nova-test)
set -eu
quick=0
if [ "${1:-}" = --quick ]; then
	quick=1
	shift
fi
B=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
NS="$B/bin/nova-sandbox"
BR="$B/tests/bench/benchrun"
FL="$B/tests/bench/floor"
OLD=""
if [ -n "${NOVA_BENCH_BEFORE:-}" ]; then
	OLD="$(cd "$NOVA_BENCH_BEFORE" && pwd)/bin/nova-sandbox"
	[ -x "$OLD" ] || { echo "bench: BEFORE has no $OLD" >&2; exit 1; }
fi
if [ "$quick" = 1 ]; then
	N=${NOVA_BENCH_RUNS:-15}
	NB=${NOVA_BENCH_BUILD_RUNS:-3}
	export NOVA_BENCH_EGRESS_RUNS=${NOVA_BENCH_EGRESS_RUNS:-1}
else
	N=${NOVA_BENCH_RUNS:-300}
	NB=${NOVA_BENCH_BUILD_RUNS:-40}
fi

as_user=()
u=$(id -un)
if [ "$(id -u)" = 0 ]; then
	u=${NOVA_TEST_USER:-nova-test}
	id "$u" >/dev/null 2>&1 || useradd --system --create-home --shell /bin/sh "$u"
	as_user=(setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --clear-groups --)
fi
work=$(mktemp -d /tmp/nova-bench.XXXXXX)
RUNNAME="bench-$$"
# leftovers of an interrupted `run` row: its place, or its name's lock file
# in the run-name directory (docs/SPEC-SANDBOX.md section 13)
run_left() {
	local uid home f
	uid=$(id -u "$u")
	home=$(getent passwd "$u" | cut -d: -f6)
	for f in /tmp/nova-"$RUNNAME"* /run/nova-sandbox/"$RUNNAME"*.lock \
		/run/user/"$uid"/nova-sandbox/"$RUNNAME"*.lock \
		"$home"/.local/state/nova-sandbox/"$RUNNAME"*.lock; do
		[ -e "$f" ] && return 0
	done
	return 1
}
cleanup() {
	cd /
	# reap takes only places and names no live run holds
	run_left && "${as_user[@]}" "$NS" reap >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
W="$work/w"
mkdir -p "$W/home" "$W/obj" "$work/src"
export HOME="$W/home"

die() {
	echo "bench: $*" >&2
	exit 1
}

# ---- the trees the rows use -----------------------------------------
# N --read paths: directories r<k>/d1..d<k>, each its own rule
for k in 10 100 1000; do
	mkdir -p "$work/r$k"
	(cd "$work/r$k" && seq -f 'd%g' 1 "$k" | xargs mkdir)
done
reads_of() {
	local k=$1 i
	for ((i = 1; i <= k; i++)); do
		printf -- '--read\n%s\n' "$work/r$k/d$i"
	done
}
mapfile -t R10 < <(reads_of 10)
mapfile -t R100 < <(reads_of 100)
mapfile -t R1000 < <(reads_of 1000)

# the build-like workload: gcc -O1 of a handful of small C files, sources
# under a --read directory, objects into the --write directory.  -pipe: no
# temp file, so the same command runs unwalled, under the floor and walled.
for i in 1 2 3 4 5 6; do
	cat > "$work/src/m$i.c" <<EOF
#include <stdio.h>
#include <string.h>
struct item$i { char name[32]; int n; };
static int cmp$i(const struct item$i *a, const struct item$i *b)
{ return strcmp(a->name, b->name) ? strcmp(a->name, b->name) : a->n - b->n; }
int sort$i(struct item$i *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp$i(&v[j - 1], &v[j]) > 0; j--) {
			struct item$i t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
		}
	return snprintf(v[0].name, sizeof v[0].name, "%d", n * $i);
}
EOF
done
BUILD=(/bin/sh -c 'for f in "$0"/*.c; do o=${f##*/}; gcc -O1 -pipe -c "$f" -o "$1/${o%.c}.o" || exit 1; done' "$work/src" "$W/obj")

[ "$(id -u)" = 0 ] && chown -R "$u:" "$work"
cd "$W"
# The 1,000 --read rows hold a descriptor a root (rule 5) for the run's
# life: past the soft limit of an ordinary login (1024) the tool says
# fd_limit.  The bench takes the hard limit, as the remedy would.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# ---- the floor: the rules the wrap's own policy lists ----------------
# floor_rules <wrap args...>: the floor's -r/-w arguments for the ruleset
# `nova-sandbox policy <wrap args> -- /bin/true` prints (read= and
# read-noexec= -> -r, write= and writefile= -> -w), one per line
floor_rules() {
	local out
	out=$("${as_user[@]}" "$NS" policy "$@" -- /bin/true 2>&1) ||
		die "nova-sandbox policy $* failed: $(printf '%s\n' "$out" | grep -v NOTE | head -3)"
	printf '%s\n' "$out" | awk -F= '
		$1 == "read" || $1 == "read-noexec" { print "-r"; print substr($0, length($1) + 2) }
		$1 == "write" || $1 == "writefile" { print "-w"; print substr($0, length($1) + 2) }'
}
mapfile -t F0 < <(floor_rules --write "$W")
mapfile -t F10 < <(floor_rules "${R10[@]}" --write "$W")
mapfile -t F100 < <(floor_rules "${R100[@]}" --write "$W")
mapfile -t F1000 < <(floor_rules "${R1000[@]}" --write "$W")
FB=()
mapfile -t FB < <(floor_rules --read "$work/src" --write "$W")
[ "${#F0[@]}" -ge 4 ] || die "the wrap's policy listed no rules (floor would be unwalled)"
[ "${#F1000[@]}" -ge 2000 ] || die "the policy with 1,000 --read listed ${#F1000[@]} arguments"

# ---- rows -------------------------------------------------------------
# A row: label, kind, the index of the row its floor ratio is taken
# against, and the command.  kind: wrap (its stderr must say SANDBOX OK and
# DONE exit=0), must (exit 0), opt (an optional tool: a failure drops the
# row, says why), and none (a row with no command).
labels=() kinds=() floors=() cmds=() notes=()
row() {
	local label=$1 kind=$2 floor=$3
	shift 3
	labels+=("$label") kinds+=("$kind") floors+=("$floor") notes+=("")
	cmds+=("$(printf '%q ' "$@")")
}
# preflight <i>: run row i once; a failing must/wrap row stops the bench
preflight() {
	local i=$1 rc=0 err
	local -a c
	eval "c=(${cmds[$i]})"
	err=$("${as_user[@]}" "${c[@]}" 2>&1 >/dev/null) || rc=$?
	if [ "${kinds[$i]}" = wrap ] && [ "$rc" = 0 ]; then
		if ! grep -q '^SANDBOX OK ' <<<"$err" || ! grep -q '^SANDBOX DONE .*exit=0' <<<"$err"; then
			rc="0 but no 'SANDBOX OK' and 'SANDBOX DONE ... exit=0' lines"
		fi
	fi
	[ "$rc" = 0 ] && return 0
	err=$(grep -v ' NOTE ' <<<"$err" | head -3)
	if [ "${kinds[$i]}" = opt ]; then
		kinds[$i]=none
		notes[$i]="fails here (exit $rc): ${err:-no message}"
		return 0
	fi
	die "row '${labels[$i]}' failed (exit $rc) as $u: ${err:-no message}"
}

row "/bin/true (bare)" must 1 /bin/true
row "floor (the wrap's rules)" must 1 "$FL" "${F0[@]}" -- /bin/true
row "wrap: --write D -- /bin/true" wrap 1 "$NS" --write "$W" -- /bin/true
row "wrap --net-deny" wrap 1 "$NS" --net-deny --write "$W" -- /bin/true
row "run --size 16m -- /bin/true" wrap 1 "$NS" run --name "$RUNNAME" --size 16m -- /bin/true
if command -v bwrap >/dev/null 2>&1; then
	row "bwrap --ro-bind / / /bin/true" opt 1 "$(command -v bwrap)" --ro-bind / / /bin/true
else
	row "bwrap --ro-bind / / /bin/true" none 1
	notes[${#notes[@]} - 1]="not installed"
fi
if command -v firejail >/dev/null 2>&1; then
	row "firejail --noprofile /bin/true" opt 1 "$(command -v firejail)" --quiet --noprofile /bin/true
else
	row "firejail --noprofile /bin/true" none 1
	notes[${#notes[@]} - 1]="not installed"
fi
for k in 10 100 1000; do
	f=$((${#labels[@]}))
	eval "fr=(\"\${F$k[@]}\") rr=(\"\${R$k[@]}\")"
	row "floor, $k --read" must "$f" "$FL" "${fr[@]}" -- /bin/true
	row "wrap, $k --read" wrap "$f" "$NS" "${rr[@]}" --write "$W" -- /bin/true
done
I_BARE=0 I_FLOOR=1 I_WRAP=2 I_RUN=4 I_BWRAP=5 I_W1000=12 I_F1000=11

for i in "${!labels[@]}"; do
	[ "${kinds[$i]}" = none ] || preflight "$i"
done
run_left && die "the run row left its place or its name's lock file behind"

# ---- one interleaved run ----------------------------------------------
args=() timed=()
for i in "${!labels[@]}"; do
	[ "${kinds[$i]}" = none ] && continue
	[ "${#args[@]}" -gt 0 ] && args+=(:::)
	eval "c=(${cmds[$i]})"
	args+=("${c[@]}")
	timed+=("$i")
done
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"${as_user[@]}" "$BR" "$N" "${args[@]}" > "$work/rows" ||
	die "a benchmarked command failed while timed (benchrun above names it)"
mapfile -t out < "$work/rows"
med=() p10=() p90=() cpu=()
for j in "${!timed[@]}"; do
	read -r "med[${timed[$j]}]" "p10[${timed[$j]}]" "p90[${timed[$j]}]" "cpu[${timed[$j]}]" <<<"${out[$j]}"
done

# build-like: fewer rounds, its own interleaved run (unwalled, floor, wall)
"${as_user[@]}" "${BUILD[@]}" || die "the build-like workload fails unwalled"
"${as_user[@]}" "$FL" "${FB[@]}" -- "${BUILD[@]}" || die "the build-like workload fails under the floor"
err=$("${as_user[@]}" "$NS" --read "$work/src" --write "$W" -- "${BUILD[@]}" 2>&1) ||
	die "the build-like workload fails walled: $(grep -v ' NOTE ' <<<"$err" | head -3)"
# --explain (issue 10): the same build walled with the tracer; a tool or
# wall without it (refused: bad_flag, explain_unavailable) drops the row and
# says why, any other failure stops the bench
EXPLAIN_NOTE=""
explain_ok() {
	local err rc=0
	err=$("${as_user[@]}" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 0 ] && grep -q '^SANDBOX DONE .*exit=0' <<<"$err" && return 0
	if [ "$rc" = 125 ] && grep -qE '^SANDBOX REFUSED reason=(bad_flag|explain_unavailable)' <<<"$err"; then
		EXPLAIN_NOTE="not available here: the tool refused it ($(grep -o -m1 'reason=[a-z_]*' <<<"$err"))"
		return 1
	fi
	die "the --explain row fails (exit $rc): $(grep -v ' NOTE ' <<<"$err" | head -3)"
}
BX=()
explain_ok "$NS" --explain --read "$work/src" --write "$W" -- "${BUILD[@]}" &&
	BX=(::: "$NS" --explain --read "$work/src" --write "$W" -- "${BUILD[@]}")
"${as_user[@]}" "$BR" "$NB" "${BUILD[@]}" \
	::: "$FL" "${FB[@]}" -- "${BUILD[@]}" \
	::: "$NS" --read "$work/src" --write "$W" -- "${BUILD[@]}" "${BX[@]}" > "$work/build" ||
	die "the build-like workload failed while timed"
mapfile -t bout < "$work/build"

# git status of a small repository in the --write (a tree walk: many
# lstat and open calls), unwalled, walled, walled --explain
GREPO="$W/repo"
GIT=(/usr/bin/git -C "$GREPO" status --porcelain)
GX=()
GITROWS=0
if [ -x /usr/bin/git ]; then
	"${as_user[@]}" sh -c 'git init -q "$1" && cp -r "$2" "$1/src" &&
		git -C "$1" add -A && git -C "$1" -c user.name=b -c user.email=b@example.invalid \
		commit -qm b && echo x >> "$1/src/m1.c"' sh "$GREPO" "$work/src" ||
		die "the git repository of the git row could not be made"
	explain_ok "$NS" --explain --write "$W" -- "${GIT[@]}" &&
		GX=(::: "$NS" --explain --write "$W" -- "${GIT[@]}")
	"${as_user[@]}" "$BR" "$NB" "${GIT[@]}" \
		::: "$NS" --write "$W" -- "${GIT[@]}" "${GX[@]}" > "$work/git" ||
		die "git status failed while timed"
	mapfile -t gout < "$work/git"
	GITROWS=1
fi
# rule 5a (issue 23): the wrap in a repository, its .git protected by
# default (a user+mount namespace and a read-only bind, made twice: once
# in prepare()'s probe child, once in the tool) against the same wrap with
# --unprotect (no namespace at all)
PREPO="$work/prot"
PROWS=0
PNOTE=""
if [ -x /usr/bin/git ]; then
	"${as_user[@]}" git init -q "$PREPO" || die "the repository of the protect rows could not be made"
	PU=("$NS" --write "$PREPO" --write "$W" --unprotect "$PREPO/.git" -- /bin/true)
	PP=("$NS" --write "$PREPO" --write "$W" -- /bin/true)
	perr=$("${as_user[@]}" "${PP[@]}" 2>&1 >/dev/null) || true
	if grep -q "^SANDBOX OK .* protected=$PREPO/.git " <<<"$perr"; then
		"${as_user[@]}" "$BR" "$N" "${PU[@]}" ::: "${PP[@]}" > "$work/prot.rows" ||
			die "a protect row failed while timed"
		mapfile -t pr < "$work/prot.rows"
		PROWS=1
	else
		PNOTE="not measured: $(grep -v ' NOTE ' <<<"$perr" | head -1)"
	fi
fi
# refusals (issue 29): k missing --read paths (2,000: 4,002 words, below
# the 4,096 of args_too_long), every one refused; the time
# and the output must grow linearly with k (one fixed line after the
# problems, at most 20 listed, then a count), never with k squared
RK=(100 500 2000)
RR=$([ "$quick" = 1 ] && echo 3 || echo 15)
rmed=() rbytes=()
for k in "${RK[@]}"; do
	ra=()
	for ((i = 1; i <= k; i++)); do ra+=(--read "$work/nope/$i"); done
	ts=()
	for ((j = 0; j < RR; j++)); do
		rc=0
		t0=$(date +%s%N)
		"${as_user[@]}" "$NS" "${ra[@]}" --write "$W" -- /bin/true \
			>/dev/null 2>"$work/refuse.err" || rc=$?
		t1=$(date +%s%N)
		[ "$rc" = 125 ] && grep -q '^SANDBOX REFUSED reason=bad_read: ' "$work/refuse.err" ||
			die "the refusal row ($k --read) was not refused bad_read (exit $rc)"
		ts+=($(((t1 - t0) / 1000)))
	done
	rmed+=("$(printf '%s\n' "${ts[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')")
	rbytes+=("$(wc -c < "$work/refuse.err")")
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo "nova-sandbox bench: $N interleaved rounds (A B C ... A B C) after one warm-up round, as $u"
echo "  load average before: $load0   after: $load1   ($(nproc) cpus)"
echo "  wall = median wall time, [p10 - p90] its spread, cpu = median user+sys of"
echo "  the command and its children; x bare, x floor = median wall over bare's and"
echo "  over the floor with the same rules (cpu ratios in the goals below)"
printf '  %-32s %9s %19s %9s %7s %7s\n' row "wall us" "[p10 - p90]" "cpu us" "x bare" "x floor"
for i in "${!labels[@]}"; do
	if [ "${kinds[$i]}" = none ]; then
		printf '  %-32s %s\n' "${labels[$i]}" "${notes[$i]}"
		continue
	fi
	f=${floors[$i]}
	printf '  %-32s %9s %19s %9s %7s %7s\n' "${labels[$i]}" "${med[$i]}" \
		"[${p10[$i]} - ${p90[$i]}]" "${cpu[$i]}" \
		"$(ratio "${med[$i]}" "${med[$I_BARE]}")" "$(ratio "${med[$i]}" "${med[$f]}")"
done
echo
echo "build-like workload (gcc -O1 -pipe -c of 6 small C files, sources --read, objects"
echo "into --write), $NB interleaved rounds; x unwalled, x floor"
blabels=("unwalled" "floor (the wrap's rules)" "wrap --read SRC --write D" "build-like --explain")
bm=() bc=()
for j in 0 1 2; do
	read -r "bm[$j]" a b "bc[$j]" <<<"${bout[$j]}"
done
for j in "${!bout[@]}"; do
	read -r m a b c <<<"${bout[$j]}"
	printf '  %-32s %9s %19s %9s %7s %7s\n' "${blabels[$j]}" "$m" "[$a - $b]" "$c" \
		"$(ratio "$m" "${bm[0]}")" "$(ratio "$m" "${bm[1]}")"
done
[ -n "$EXPLAIN_NOTE" ] && printf '  %-32s %s\n' "${blabels[3]}" "$EXPLAIN_NOTE"
if [ "$GITROWS" = 1 ]; then
	echo
	echo "git status --porcelain of a 6-file repository in --write, $NB interleaved rounds; x unwalled"
	glabels=("git status (unwalled)" "git status (wrap)" "git status --explain")
	for j in "${!gout[@]}"; do
		read -r m a b c <<<"${gout[$j]}"
		printf '  %-32s %9s %19s %9s %7s\n' "${glabels[$j]}" "$m" "[$a - $b]" "$c" \
			"$(ratio "$m" "$(cut -d' ' -f1 <<<"${gout[0]}")")"
	done
	[ -n "$EXPLAIN_NOTE" ] && printf '  %-32s %s\n' "${glabels[2]}" "$EXPLAIN_NOTE"
fi

echo
echo "protected paths (rule 5a): the wrap in a repository, $N interleaved rounds; x unprotected"
if [ "$PROWS" = 1 ]; then
	plab=("wrap, --unprotect .git (no ns)" "wrap, .git protected (userns)")
	for j in 0 1; do
		read -r m a b c <<<"${pr[$j]}"
		printf '  %-32s %9s %19s %9s %7s\n' "${plab[$j]}" "$m" "[$a - $b]" "$c" \
			"$(ratio "$m" "$(cut -d' ' -f1 <<<"${pr[0]}")")"
	done
	read -r m0 a b c0 <<<"${pr[0]}"
	read -r m1 a b c1 <<<"${pr[1]}"
	printf '  %-32s %+9d %19s %+9d\n' "the protection's price" "$((m1 - m0))" "" "$((c1 - c0))"
else
	printf '  %-32s %s\n' "wrap, .git protected" "${PNOTE:-git is not installed}"
fi

echo
echo "refusals: k missing --read paths, each refused (exit 125), $RR rounds; median wall"
printf '  %-32s %9s %9s %11s\n' row "wall us" "stderr" "us/problem"
for j in "${!RK[@]}"; do
	printf '  %-32s %9s %9s %11s\n' "refuse, ${RK[$j]} --read" "${rmed[$j]}" \
		"${rbytes[$j]}" "$(ratio "${rmed[$j]}" "${RK[$j]}")"
done

# ---- the goals of issue 9 ---------------------------------------------
echo
echo "goals (issue 9), from the runs above; a goal is a figure, never a failure"
printf '  %-44s %7s %7s %8s  %s\n' measure wall cpu goal ""
goal() {
	local label=$1 a=$2 b=$3 ca=$4 cb=$5 max=$6 r
	if [ -z "$a" ] || [ -z "$b" ]; then
		printf '  %-44s %7s %7s %8s  %s\n' "$label" - - "<= $max" "not measured ($7)"
		return
	fi
	r=$(ratio "$a" "$b")
	printf '  %-44s %7s %7s %8s  %s\n' "$label" "$r" "$(ratio "$ca" "$cb")" "<= $max" \
		"$(awk -v r="$r" -v m="$max" 'BEGIN { print (r <= m) ? "met" : "not met" }')"
}
goal "wrap / floor (/bin/true)" "${med[$I_WRAP]}" "${med[$I_FLOOR]}" "${cpu[$I_WRAP]}" "${cpu[$I_FLOOR]}" 1.10
goal "wrap / bare" "${med[$I_WRAP]}" "${med[$I_BARE]}" "${cpu[$I_WRAP]}" "${cpu[$I_BARE]}" 2.0
goal "wrap / bwrap --ro-bind / /" "${med[$I_WRAP]}" "${med[$I_BWRAP]:-}" "${cpu[$I_WRAP]}" "${cpu[$I_BWRAP]:-}" 0.5 \
	"bwrap: ${notes[$I_BWRAP]}"
goal "1,000 --read: wrap / floor with 1,000 rules" "${med[$I_W1000]}" "${med[$I_F1000]}" "${cpu[$I_W1000]}" "${cpu[$I_F1000]}" 1.3
goal "run / bare" "${med[$I_RUN]}" "${med[$I_BARE]}" "${cpu[$I_RUN]}" "${cpu[$I_BARE]}" 3.0
goal "build-like: walled / unwalled" "${bm[2]}" "${bm[0]}" "${bc[2]}" "${bc[0]}" 1.02
goal "refuse: 2,000 / 500 problems (linear: 4)" "${rmed[2]}" "${rmed[1]}" "" "" 6

# ---- where the wrap's time goes --------------------------------------
# The bench's phase build ($B/phases, make bench-phases) stops after each
# phase when NOVA_BENCH_PHASE names it (host/base/bench.h); each step is the
# median after it minus the median before it, all in one interleaved run.
PH="$B/phases/bin/nova-sandbox"
if [ -x "$PH" ]; then
	plabels=("exec of the tool to its verb (ld.so, libc, main)"
		"wall_open: config, module trust walk, dlopen, facts"
		"policy: every path walked (rule 5), PATH, ttys, tmp"
		"ownfiles: the tool's own files out of the writes"
		"ruleset: the module's rules"
		"notes, OK line, subreaper, signals, caps"
		"spawn, the command's exec, wait, DONE, exit")
	pargs=(/bin/true)
	for k in 1 2 3 4 5 6; do
		pargs+=(::: "NOVA_BENCH_PHASE=$k" "$PH" --write "$W" -- /bin/true)
	done
	pargs+=(::: "$PH" --write "$W" -- /bin/true)
	"${as_user[@]}" "$BR" "$N" "${pargs[@]}" > "$work/phases" ||
		die "the phase build failed while timed"
	mapfile -t pout < "$work/phases"
	echo
	echo "where the wrap's time goes: its phase build, stopped after each phase,"
	echo "$N interleaved rounds; a step = the median after it - the median before it"
	printf '  %-52s %8s %8s\n' step "wall us" "cpu us"
	read -r pm0 a b pc0 <<<"${pout[0]}"
	printf '  %-52s %8s %8s\n' "/bin/true (bare: fork, exec, wait)" "$pm0" "$pc0"
	for k in 1 2 3 4 5 6 7; do
		read -r m a b c <<<"${pout[$k]}"
		read -r pm a b pc <<<"${pout[$((k - 1))]}"
		printf '  %-52s %+8d %+8d\n' "${plabels[$((k - 1))]}" "$((m - pm))" "$((c - pc))"
	done
	read -r m a b c <<<"${pout[7]}"
	printf '  %-52s %8s %8s\n' "the whole wrap (this build)" "$m" "$c"
fi

# ---- another build, interleaved with this one (make bench BEFORE=) ------
if [ -n "$OLD" ]; then
	echo
	echo "before ($OLD) and after, interleaved, $N rounds:"
	echo "  median wall us [p10 - p90], median cpu us, wall ratio to bare"
	blabels=("/bin/true (bare)"
		"wrap, before" "wrap, after"
		"wrap --net-deny, before" "wrap --net-deny, after"
		"run --size 16m, before" "run --size 16m, after")
	"${as_user[@]}" "$BR" "$N" /bin/true \
		::: "$OLD" --write "$W" -- /bin/true \
		::: "$NS" --write "$W" -- /bin/true \
		::: "$OLD" --net-deny --write "$W" -- /bin/true \
		::: "$NS" --net-deny --write "$W" -- /bin/true \
		::: "$OLD" run --name "$RUNNAME-b" --size 16m -- /bin/true \
		::: "$NS" run --name "$RUNNAME-a" --size 16m -- /bin/true > "$work/before" ||
		die "a command of the before/after comparison failed"
	mapfile -t rows < "$work/before"
	b0=${rows[0]%% *}
	for i in "${!rows[@]}"; do
		read -r m a b c <<<"${rows[$i]}"
		printf '  %-28s %8s us [%s - %s]  cpu %6s us  %sx\n' \
			"${blabels[$i]}" "$m" "$a" "$b" "$c" "$(ratio "$m" "$b0")"
	done
fi

# ---- --net-allow (issue 25): start-up, bulk through the proxy, latency ----
echo
echo "--net-allow (issue 25): the proxy to a server on the host's loopback (tests/bench/netallow.sh)"
. "$HERE/netallow.sh"
netallow_bench

cd /
"$HERE/egress.sh" "$B"
echo
if [ "$quick" = 1 ]; then
	echo "caps_tick (host/proc/caps.c: the cost of one cap count), 20 processes, 5 rounds:"
	"$B/tests/bench/caps_tick" 20 5 | sed 's/^/  /'
else
	echo "caps_tick (host/proc/caps.c: the cost of one cap count):"
	"$B/tests/bench/caps_tick" | sed 's/^/  /'
fi
