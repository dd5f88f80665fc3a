# SPDX-License-Identifier: MIT
# netallow.sh -- the --net-allow figures of issue 25, sourced by run.sh
# (its as_user, BR, FL, F0, W, N, NS, B, work, quick, die and ratio).
# Figures only, in one run each:
#   start-up  /bin/true bare, the floor, the wrap, the wrap with
#             --net-allow 127.0.0.1/32:<port>: the bare wrap against the
#             floor (unchanged by issue 25: it starts no proxy and makes
#             no namespace) and the --net-allow start-up against the wrap
#   bulk      a 1 GiB (quick: 256 MiB) transfer from the host's loopback,
#             direct (curl, unwalled) and through the proxy (the same curl
#             walled, CONNECT through HTTPS_PROXY), interleaved; curl's own
#             speed (start-up excluded); cpu: benchrun's (the command's
#             tree as wait4 counts it: the proxy is no descendant of the
#             tool, its cpu is not in it) and the machine's (/proc/stat's
#             busy time over each transfer: client, server and proxy, and
#             whatever else runs); goal >= 0.80
#   latency   K new connections in a row, each a CONNECT (the proxy
#             connects anew for each), direct and through the proxy,
#             interleaved rounds; curl's time_total of each: median and
#             p90, and what the proxy adds
# The server is netsrv on the host's 127.0.0.1:<port>: from inside the
# command's namespace 127.0.0.1 is the namespace's own loopback, but the
# proxy connects from the host's network namespace, and the entry
# 127.0.0.1/32:<port> (a range: an address the proxy may reach, not a
# bridge) lets it reach the server there.  No lab, no root needed.

# na_curl ARGS...: curl as the bench's user, figures on stdout
na_curl() {
	"${as_user[@]}" /usr/bin/curl -s -o /dev/null "$@"
}

# the machine's busy time so far, in clock ticks (/proc/stat: user, nice,
# system, irq, softirq, steal of all cpus)
na_busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# percentile P of the numbers on stdin (nearest rank)
na_pct() {
	sort -g | awk -v p="$1" '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
		i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; print v[i] }'
}

netallow_bench() {
	local srv pf port entry err big rounds k i j dsp psp
	command -v curl >/dev/null 2>&1 || { echo "  not measured: curl is not installed"; return 0; }
	pf="$work/netsrv.port"
	"$B/tests/bench/netsrv" "$pf" </dev/null >/dev/null 2>&1 &
	srv=$!
	for i in $(seq 100); do [ -s "$pf" ] && break; sleep 0.05; done
	port=$(cat "$pf" 2>/dev/null)
	[ -n "$port" ] || { kill "$srv"; die "netsrv did not start"; }
	entry="127.0.0.1/32:$port"
	NA=("$NS" --net-allow "$entry" --write "$W")
	# the walled curl: through the proxy although 127.0.0.1 is in NO_PROXY
	PCURL=(/usr/bin/curl -s -o /dev/null -p -x http://127.0.0.1:3128 --noproxy '')
	err=$("${as_user[@]}" "${NA[@]}" -- /bin/true 2>&1 >/dev/null) || {
		kill "$srv"; wait "$srv" 2>/dev/null || true
		die "the tool refuses --net-allow $entry: ${err%%$'\n'*}"
	}
	if [ "$quick" = 1 ]; then big=$((256 << 20)) rounds=3 k=50; else big=$((1 << 30)) rounds=9 k=200; fi

	# start-up: one interleaved run
	"${as_user[@]}" "$BR" "$N" /bin/true ::: "$FL" "${F0[@]}" -- /bin/true \
		::: "$NS" --write "$W" -- /bin/true ::: "${NA[@]}" -- /bin/true > "$work/na.rows" ||
		die "a --net-allow start-up row failed while timed"
	mapfile -t su < "$work/na.rows"
	echo "start-up, $N interleaved rounds: median wall us [p10 - p90], median cpu us"
	local lab=("/bin/true (bare)" "floor (the wrap's rules)" "wrap (no --net-allow)"
		"wrap --net-allow $entry")
	for i in 0 1 2 3; do
		read -r m a b c <<<"${su[$i]}"
		printf '  %-36s %9s %19s %9s\n' "${lab[$i]}" "$m" "[$a - $b]" "$c"
	done
	read -r m0 a b c0 <<<"${su[0]}"; read -r mf a b cf <<<"${su[1]}"
	read -r mw a b cw <<<"${su[2]}"; read -r mn a b cn <<<"${su[3]}"
	printf '  %-36s wall %s  cpu %s  (issue 9 goal <= 1.10; unchanged by issue 25)\n' \
		"wrap / floor" "$(ratio "$mw" "$mf")" "$(ratio "$cw" "$cf")"
	printf '  %-36s wall %s  cpu %s  (+%d us wall, +%d us cpu: the proxy and the namespace)\n' \
		"wrap --net-allow / wrap" "$(ratio "$mn" "$mw")" "$(ratio "$cn" "$cw")" \
		"$((mn - mw))" "$((cn - cw))"

	# bulk: curl's speed, interleaved; cpu from benchrun
	dsp=() psp=() dcpu=() pcpu=()
	local b0 hz
	hz=$(getconf CLK_TCK)
	for ((i = 0; i < rounds; i++)); do
		b0=$(na_busy)
		dsp+=("$(na_curl -w '%{speed_download}' "http://127.0.0.1:$port/$big")")
		dcpu+=("$(($(na_busy) - b0))")
		b0=$(na_busy)
		psp+=("$("${as_user[@]}" "${NA[@]}" -- "${PCURL[@]}" -w '%{speed_download}' \
			"http://127.0.0.1:$port/$big" 2>/dev/null)")
		pcpu+=("$(($(na_busy) - b0))")
	done
	local dm pm
	dm=$(printf '%s\n' "${dsp[@]}" | na_pct 50)
	pm=$(printf '%s\n' "${psp[@]}" | na_pct 50)
	"${as_user[@]}" "$BR" "$rounds" /usr/bin/curl -s -o /dev/null "http://127.0.0.1:$port/$big" \
		::: "${NA[@]}" -- "${PCURL[@]}" "http://127.0.0.1:$port/$big" > "$work/na.bulk" ||
		die "a bulk transfer failed while timed"
	mapfile -t bu < "$work/na.bulk"
	echo
	echo "bulk: $((big >> 20)) MiB from the host's loopback, $rounds interleaved rounds; curl's speed"
	echo "(start-up excluded); cpu us: the command's tree (wait4: the proxy is no descendant, not"
	echo "in it) and the machine's busy time over the transfer (all processes; noisy when busy)"
	local dmc pmc
	dmc=$(printf '%s\n' "${dcpu[@]}" | na_pct 50); pmc=$(printf '%s\n' "${pcpu[@]}" | na_pct 50)
	read -r m a b c <<<"${bu[0]}"
	printf '  %-36s %10s MB/s  cpu %9s us  machine %9s us\n' "direct (unwalled curl)" \
		"$(awk -v s="$dm" 'BEGIN { printf "%.0f", s / 1e6 }')" "$c" "$((dmc * 1000000 / hz))"
	read -r m a b c <<<"${bu[1]}"
	printf '  %-36s %10s MB/s  cpu %9s us  machine %9s us\n' "through the proxy (walled curl)" \
		"$(awk -v s="$pm" 'BEGIN { printf "%.0f", s / 1e6 }')" "$c" "$((pmc * 1000000 / hz))"
	printf '  %-36s %10s       goal >= 0.80: %s\n' "proxy / direct" "$(ratio "$pm" "$dm")" \
		"$(awk -v a="$pm" -v b="$dm" 'BEGIN { print (b > 0 && a / b >= 0.80) ? "met" : "not met" }')"

	# latency: k new connections a round, direct and through the proxy
	local urls=() dl=() pl=()
	for ((j = 0; j < k; j++)); do urls+=(-o /dev/null "http://127.0.0.1:$port/16"); done
	for ((i = 0; i < rounds; i++)); do
		mapfile -t -O "${#dl[@]}" dl < <("${as_user[@]}" /usr/bin/curl -s -w '%{time_total}\n' "${urls[@]}")
		mapfile -t -O "${#pl[@]}" pl < <("${as_user[@]}" "${NA[@]}" -- /usr/bin/curl -s -p \
			-x http://127.0.0.1:3128 --noproxy '' -w '%{time_total}\n' "${urls[@]}" 2>/dev/null)
	done
	[ "${#pl[@]}" = "${#dl[@]}" ] || die "the proxied latency round gave ${#pl[@]} figures, not ${#dl[@]}"
	local d50 d90 p50 p90
	d50=$(printf '%s\n' "${dl[@]}" | na_pct 50); d90=$(printf '%s\n' "${dl[@]}" | na_pct 90)
	p50=$(printf '%s\n' "${pl[@]}" | na_pct 50); p90=$(printf '%s\n' "${pl[@]}" | na_pct 90)
	echo
	echo "latency: $k new connections a round (HTTP/1.0, 16 bytes), $rounds interleaved rounds;"
	echo "curl's time_total of each, us"
	us() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1e6 }'; }
	printf '  %-36s %9s %9s\n' "" median p90
	printf '  %-36s %9s %9s\n' "direct" "$(us "$d50")" "$(us "$d90")"
	printf '  %-36s %9s %9s\n' "through the proxy (CONNECT each)" "$(us "$p50")" "$(us "$p90")"
	printf '  %-36s %9s %9s\n' "added by the proxy" "$(us "$(awk -v a="$p50" -v b="$d50" 'BEGIN { print a - b }')")" \
		"$(us "$(awk -v a="$p90" -v b="$d90" 'BEGIN { print a - b }')")"
	kill "$srv"
	wait "$srv" 2>/dev/null || true
	return 0
}
