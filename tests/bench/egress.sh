#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/bench/egress.sh <builddir> -- the egress half of `make bench`:
# apply of a plan with >= 500 pinned addresses by the netlink batch
# (nova-sandbox egress apply) beside `nft -f` of the same plan text, and
# the `egress check --live` read-back, each run in a fresh network
# namespace that is always removed.  Medians; figures only, no assertion.
# The plan is rendered WITHOUT DNS by tests/bench/egress_plan (the host's
# own renderer and auditor, a table in place of the resolver).
set -eu
B=$(cd "${1:-build}" && pwd)
NS="$B/bin/nova-sandbox"
GEN="$B/tests/bench/egress_plan"
RUNS=${NOVA_BENCH_EGRESS_RUNS:-5}
PER=130	# pins per name; 4 names -> 520 pinned addresses
RUN=bench500

echo
echo "egress: apply of a plan with $((4 * PER)) pinned addresses, median of $RUNS runs, each in a fresh network namespace"
if [ "$(id -u)" != 0 ]; then
	echo "  skipped: not root (needs CAP_NET_ADMIN to create network namespaces and nftables tables)"
	exit 0
fi
for tool in ip nft; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "  skipped: $tool is not installed (infra/deps.sh installs it)"
		exit 0
	fi
done

work=$(mktemp -d /tmp/nova-bench-egress.XXXXXX)
NSN=""
cleanup() {
	[ -n "$NSN" ] && ip netns del "$NSN" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
PLAN="$work/$RUN.nft"
read -r pins rules < <("$GEN" "$PLAN" "$RUN" "$PER" | sed 's/pins=\([0-9]*\) rules=\([0-9]*\)/\1 \2/')

if nft -c -f "$PLAN" 2>"$work/nftc.err"; then
	echo "  nft -c -f accepts the plan ($pins pins, $rules rules, $(wc -l < "$PLAN") lines)"
else
	echo "  nft -c -f REJECTS the plan ($pins pins, $rules rules): $(head -3 "$work/nftc.err")"
fi

# time_in <ns> <cmd...>: microseconds of one command run inside <ns>
# (measured in there, so the namespace entry is not counted); "fail" when
# the command fails
time_in() {
	local n=$1
	shift
	ip netns exec "$n" bash -c 't0=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || { echo fail; exit; }; t1=$EPOCHREALTIME; echo $(( (${t1/./} - ${t0/./}) ))' _ "$@"
}
fresh() {
	NSN=nsbench-$$-$1
	ip netns add "$NSN"
}
gone() {
	ip netns del "$NSN"
	NSN=""
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}'; }

: > "$work/batch"; : > "$work/live"; : > "$work/nft"
for i in $(seq 1 "$RUNS"); do
	fresh "a$i"
	time_in "$NSN" "$NS" egress apply --plan "$PLAN" --run "$RUN" >> "$work/batch"
	time_in "$NSN" "$NS" egress check --live --run "$RUN" --plan "$PLAN" >> "$work/live"
	gone
	fresh "n$i"
	time_in "$NSN" nft -f "$PLAN" >> "$work/nft"
	gone
done
for f in batch live nft; do
	if grep -q fail "$work/$f"; then
		echo "  a $f run FAILED (no figure):"
		fresh "x"
		[ "$f" = nft ] && ip netns exec "$NSN" nft -f "$PLAN" 2>&1 | head -3 ||
			ip netns exec "$NSN" "$NS" egress apply --plan "$PLAN" --run "$RUN" 2>&1 | head -5
		gone
		exit 0
	fi
done
b=$(median < "$work/batch"); l=$(median < "$work/live"); n=$(median < "$work/nft")
printf '  %-52s %8s us\n' "nova-sandbox egress apply (audit, ONE batch, read back)" "$b"
printf '  %-52s %8s us\n' "nft -f (the same plan text)" "$n"
printf '  %-52s %8s us\n' "nova-sandbox egress check --live (read back, audit)" "$l"
printf '  nft -f / egress apply = %sx (the issue targets >= 10x)\n' "$(awk "BEGIN{printf \"%.2f\", $n/$b}")"
