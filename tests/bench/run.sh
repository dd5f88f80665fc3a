#!/bin/bash
# make bench: figures printed side by side from ONE run; nothing asserted.
# usage: tests/bench/run.sh <builddir>
set -eu
B=$(cd "${1:-build}" && pwd)
NS="$B/bin/nova-sandbox"
BR="$B/tests/bench/benchrun"
N=${NOVA_BENCH_RUNS:-300}
as_user=()
if [ "$(id -u)" = 0 ]; then
	u=${NOVA_TEST_USER:-nova-test}
	id "$u" >/dev/null 2>&1 || useradd --system --create-home --shell /bin/sh "$u"
	as_user=(setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --clear-groups --)
fi
work=$(mktemp -d /tmp/nova-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/w/home"
[ "$(id -u)" = 0 ] && chown -R "${NOVA_TEST_USER:-nova-test}:" "$work"
export HOME="$work/w/home"

median() { "${as_user[@]}" "$BR" "$N" "$@" | cut -d' ' -f1; }

echo "nova-sandbox bench: medians of $N runs, microseconds (one run, side by side)"
bare=$(median /bin/true)
startup=$(median "$NS" version)
walled=$(median "$NS" --write "$work/w" -- /bin/true)
printf '  %-44s %8s us  1.00x\n' "/bin/true (bare)" "$bare"
printf '  %-44s %8s us  %.2fx\n' "nova-sandbox version (the tool's own exec)" "$startup" \
	"$(awk "BEGIN{print $startup/$bare}")"
printf '  %-44s %8s us  %.2fx\n' "nova-sandbox --write D -- /bin/true" "$walled" \
	"$(awk "BEGIN{print $walled/$bare}")"
place=$(median "$NS" run --name "bench-$$" --size 16m -- /bin/true)
printf '  %-44s %8s us  %.2fx  (+%s us over the bare wrap: create + wall + destroy)\n' \
	"nova-sandbox run --size 16m -- /bin/true" "$place" \
	"$(awk "BEGIN{print $place/$bare}")" "$((place - walled))"
if [ "$(id -u)" = 0 ]; then
	rplace=$("$BR" "$N" "$NS" run --name "bench-root-$$" --size 16m -- /bin/true | cut -d' ' -f1)
	printf '  %-44s %8s us  %.2fx  (+%s us over the bare wrap)\n' \
		"  the same as root (no user namespace)" "$rplace" \
		"$(awk "BEGIN{print $rplace/$bare}")" "$((rplace - walled))"
fi
if command -v bwrap >/dev/null 2>&1; then
	bw=$(median "$(command -v bwrap)" --ro-bind / / /bin/true)
	printf '  %-44s %8s us  %.2fx\n' "bwrap --ro-bind / / /bin/true" "$bw" \
		"$(awk "BEGIN{print $bw/$bare}")"
fi
if [ -n "${NOVA_BENCH_BEFORE:-}" ]; then
	# Another build of the tool (make bench BEFORE=<builddir>), measured in
	# the same run, interleaved round by round with this one and bare.
	OLD="$(cd "$NOVA_BENCH_BEFORE" && pwd)/bin/nova-sandbox"
	echo
	echo "before ($OLD) and after, interleaved, $N rounds:"
	echo "  median wall us [p10 - p90], median cpu us, wall ratio to bare"
	labels=("/bin/true (bare)"
		"wrap, before" "wrap, after"
		"wrap --net-deny, before" "wrap --net-deny, after"
		"run --size 16m, before" "run --size 16m, after")
	mapfile -t rows < <("${as_user[@]}" "$BR" "$N" /bin/true \
		::: "$OLD" --write "$work/w" -- /bin/true \
		::: "$NS" --write "$work/w" -- /bin/true \
		::: "$OLD" --net-deny --write "$work/w" -- /bin/true \
		::: "$NS" --net-deny --write "$work/w" -- /bin/true \
		::: "$OLD" run --name "bench-b-$$" --size 16m -- /bin/true \
		::: "$NS" run --name "bench-a-$$" --size 16m -- /bin/true)
	b0=${rows[0]%% *}
	for i in "${!rows[@]}"; do
		read -r med p10 p90 cpu <<<"${rows[$i]}"
		printf '  %-28s %8s us [%s - %s]  cpu %6s us  %.2fx\n' \
			"${labels[$i]}" "$med" "$p10" "$p90" "$cpu" \
			"$(awk "BEGIN{print $med/$b0}")"
	done
fi
echo
echo "wall of N --read paths (build + apply + run /bin/true), median of $((N / 3)) runs"
for k in 10 100 1000; do
	args=()
	for i in $(seq 1 "$k"); do
		mkdir -p "$work/r$k/d$i"
		args+=(--read "$work/r$k/d$i")
	done
	t=$("${as_user[@]}" "$BR" "$((N / 3))" "$NS" "${args[@]}" --write "$work/w" -- /bin/true | cut -d' ' -f1)
	printf '  %-44s %8s us  (+%s us over the empty wall)\n' "$k --read paths" "$t" "$((t - walled))"
done
tests/bench/egress.sh "$B"
