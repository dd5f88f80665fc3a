#!/bin/bash
# SPDX-License-Identifier: MIT
# t_egress_e2e.sh -- the egress wall end to end with real traffic: a card,
# a bench and a world network namespace joined by veths (documentation
# addresses and a ULA prefix only; 169.254.169.254 exists only inside the
# world namespace), dnsmasq in the world answering the allowed names, and
# listeners on TCP 443/80 and UDP.  For --uid and for --veth: the plan is
# rendered by a real DNS query, accepted by `nft -c`, applied by
# nftegress.so, audited live; the allowed names connect on 443 and DNS to
# the resolver works, every other class fails; after `drop` the same
# denied connects succeed (the control).  Everything created is removed,
# whatever fails (trap).
source "$(dirname "$0")/lib.sh"
P="$H/ns_netprobe"
POL="$(cd "$(dirname "$0")/../.." && pwd)/infra/image/egress.txt"
S=$$
C=nse-card-$S; BN=nse-bench-$S; W=nse-world-$S
U=4242
PIDS=()

if [ "$(id -u)" != 0 ]; then
	t "egress e2e: needs root, network namespaces and nftables" <<'EOF'
skip "needs root (network namespaces, nftables)"
EOF
	exit 0
fi
# every later case needs the tools: without them the file stops here
t "egress e2e: needs root, network namespaces and nftables" <<'EOF' || exit 1
needs_machine -root netns ipv6
for tool in ip nft dnsmasq setpriv; do
	command -v "$tool" >/dev/null 2>&1 || _fail "$tool is not installed (infra/deps.sh installs it)"
done
EOF

egress_cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for n in $C $BN $W; do ip netns del "$n" 2>/dev/null; done
}
trap 'egress_cleanup; _cleanup' EXIT
nx() { local n=$1; shift; ip netns exec "$n" "$@"; }
# a server in namespace $1, in the background: $! is the server itself
# (ip execs it; through the nx function $! would be a subshell, and
# killing that left the server running), holding none of the suite's
# descriptors above 2 (a lock inherited from flock would stay held)
serve_bg() {
	local n=$1; shift
	ip netns exec "$n" "$@" </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	PIDS+=($!)
}

D=$(newdir)
chmod 700 "$D"

# ---- topology ---------------------------------------------------------
for n in $C $BN $W; do
	ip netns add "$n"
	nx "$n" ip link set lo up
	nx "$n" sysctl -qw net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.all.accept_dad=0
done
ip link add c0 netns $C type veth peer name b0 netns $BN
ip link add b1 netns $BN type veth peer name w1 netns $W
nx $C ip a add 203.0.113.2/24 dev c0;  nx $C ip -6 a add fd00:1::2/64 dev c0 nodad
nx $BN ip a add 203.0.113.1/24 dev b0; nx $BN ip -6 a add fd00:1::1/64 dev b0 nodad
nx $BN ip a add 192.0.2.129/30 dev b1; nx $BN ip -6 a add fd00:2::1/64 dev b1 nodad
nx $W ip a add 192.0.2.130/30 dev w1;  nx $W ip -6 a add fd00:2::2/64 dev w1 nodad
for a in 192.0.2.10 192.0.2.11 192.0.2.12 192.0.2.13 198.51.100.53 198.51.100.130 169.254.169.254; do
	nx $W ip a add $a/32 dev lo
done
for a in fd00:9::10 fd00:9::11 fd00:9::13; do nx $W ip -6 a add $a/128 dev lo nodad; done
nx $C ip l set c0 up; nx $BN ip l set b0 up; nx $BN ip l set b1 up; nx $W ip l set w1 up
nx $C ip r add default via 203.0.113.1; nx $C ip -6 r add default via fd00:1::1
nx $BN ip r add default via 192.0.2.130; nx $BN ip -6 r add default via fd00:2::2
nx $W ip r add 203.0.113.0/24 via 192.0.2.129; nx $W ip -6 r add fd00:1::/64 via fd00:2::1
nx $BN sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1

serve_bg $W "$P" serve 192.0.2.10/443/tcp 192.0.2.10/80/tcp 192.0.2.11/443/tcp \
	192.0.2.12/443/tcp 192.0.2.13/443/tcp fd00:9::10/443/tcp fd00:9::11/443/tcp \
	fd00:9::13/443/tcp 198.51.100.130/443/tcp 169.254.169.254/443/tcp \
	192.0.2.10/5353/udp 192.0.2.11/53/udp
serve_bg $BN "$P" serve 0.0.0.0/8443/tcp ::/8443/tcp
serve_bg $W dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
	--bind-interfaces --listen-address=198.51.100.53 --port=53 --user=root \
	--pid-file= --host-record=github.com,192.0.2.10,fd00:9::10 \
	--host-record=api.github.com,192.0.2.10,fd00:9::10 \
	--host-record=objects.githubusercontent.com,192.0.2.12,fd00:9::10 \
	--host-record=api.anthropic.com,192.0.2.13,fd00:9::13 \
	--host-record=api.openai.com,192.0.2.11 \
	--host-record=evil.example.org,127.0.0.1,::1
for i in $(seq 1 50); do
	nx $BN "$P" tcp 192.0.2.10 80 200 >/dev/null && nx $BN "$P" tcp 127.0.0.1 8443 200 >/dev/null &&
		nx $BN "$P" udp 198.51.100.53 53 200 >/dev/null && nx $C "$P" tcp fd00:9::10 443 500 >/dev/null && break
	sleep 0.1
done

# ---- probes -----------------------------------------------------------
# probe_set MODE WANT "kind addr port"...: run in parallel (1 s each), every
# result must be WANT.
probe_set() {
	local mode=$1 want=$2 i=0 spec got
	shift 2
	local dir; dir=$(mktemp -d "$D/p.XXXXXX")
	for spec in "$@"; do
		# shellcheck disable=SC2086
		if [ "$mode" = uid ]; then
			nx $BN setpriv --reuid=$U --regid=$U --clear-groups "$P" $spec 1000 >"$dir/$i" 2>&1 &
		else
			nx $C "$P" $spec 1000 >"$dir/$i" 2>&1 &
		fi
		i=$((i + 1))
	done
	wait_probes
	i=0
	for spec in "$@"; do
		got=$(cut -d' ' -f1 "$dir/$i")
		[ "$got" = "$want" ] || _fail "$mode: $spec: wanted $want, got $(cat "$dir/$i")"
		i=$((i + 1))
	done
}
wait_probes() {
	local j
	for j in $(jobs -p); do
		case " ${PIDS[*]} " in *" $j "*) ;; *) wait "$j" ;; esac
	done
}

ALLOWED=("tcp 192.0.2.10 443" "tcp fd00:9::10 443" "tcp 192.0.2.13 443" "udp 198.51.100.53 53")
DENIED=("tcp 192.0.2.10 80" "tcp 192.0.2.11 443" "tcp fd00:9::11 443" "udp 192.0.2.10 5353"
	"udp 192.0.2.11 53" "tcp 198.51.100.130 443" "tcp 169.254.169.254 443"
	"tcp 203.0.113.1 8443" "tcp fd00:1::1 8443")
DENIED_UID=("tcp 127.0.0.1 8443" "tcp ::1 8443")

plan_args() {
	echo "--run $1 --policy $POL --model-host api.anthropic.com --resolver 198.51.100.53 --bench-cidr 198.51.100.128/25 --out $D/$1.nft"
}

one_mode() {
	local mode=$1 run=e2e_$1 sel
	[ "$mode" = uid ] && sel="--uid $U" || sel="--veth b0"

	t "$mode: plan by a real DNS query, written 0600, accepted by nft -c" <<'EOF'
	# shellcheck disable=SC2046
	run nx $BN "$NS" egress plan $(plan_args $run) $sel
	expect_rc 0
	expect_err "^EGRESS STEP name=resolve state=start$"
	expect_err "^EGRESS PLAN run=$run allow=[0-9]+ deny=[0-9]+ names=github.com,api.github.com,objects.githubusercontent.com,api.anthropic.com$"
	expect_err "^EGRESS NOTE $POL names api.openai.com, which this run does not pin: a run allows the base names and --model-host only$"
	expect_no_err 'EGRESS NOTE .*AAAA failed'
	expect_eq "$(stat -c %a "$D/$run.nft")" 600 "plan mode"
	run nx $BN nft -c -f "$D/$run.nft"
	expect_rc 0
	run "$NS" egress check --plan "$D/$run.nft"
	expect_rc 0
	expect_err "^EGRESS CHECK table=nova_egress_$run chains=[0-9]+ rules="
EOF

	t "$mode: apply is one batch; nft lists exactly the plan; a second apply is refused" <<'EOF'
	run nx $BN "$NS" egress apply --plan "$D/$run.nft" --run $run
	expect_rc 0
	expect_err "^EGRESS OK verb=apply run=$run table=nova_egress_$run$"
	nx $BN nft -s list table inet nova_egress_$run | sed 's/^[[:space:]]*//; /^$/d' > "$D/$run.listed"
	grep -v '^#' "$D/$run.nft" | sed 's/^[[:space:]]*//' > "$D/$run.want"
	cmp -s "$D/$run.listed" "$D/$run.want" || _fail "nft -s list differs from the plan: $(diff "$D/$run.want" "$D/$run.listed" | head -5)"
	run nx $BN "$NS" egress apply --plan "$D/$run.nft" --run $run
	expect_rc 1
	expect_err "^EGRESS REFUSED reason=table_exists: "
	expect_eq "$(nx $BN nft -s list table inet nova_egress_$run | grep -c 'drop$\|accept$\|reset$\|prohibited$')" \
		"$(grep -c 'drop$\|accept$\|reset$\|prohibited$' "$D/$run.want")" "rules after the refused re-apply"
EOF

	t "$mode: check --live passes on the applied table (and equals the plan)" <<'EOF'
	run nx $BN "$NS" egress check --live --run $run --plan "$D/$run.nft"
	expect_rc 0
	expect_err "^EGRESS CHECK table=nova_egress_$run .* source=live$"
EOF

	t "$mode: allowed names on 443 and DNS to the resolver connect" <<'EOF'
	probe_set "$mode" OK "${ALLOWED[@]}"
EOF

	t "$mode: every other class fails (port 80, unpinned, v6, UDP, bench CIDR, metadata, bench's own)" <<'EOF'
	probe_set "$mode" FAIL "${DENIED[@]}"
	[ "$mode" = uid ] && probe_set "$mode" FAIL "${DENIED_UID[@]}"
EOF

	t "$mode: check --live fails after a wide accept is added with nft" <<'EOF'
	nx $BN nft insert rule inet nova_egress_$run "$([ "$mode" = uid ] && echo output || echo forward)" \
		$([ "$mode" = uid ] && echo "meta skuid $U" || echo 'iifname "b0"') accept
	run nx $BN "$NS" egress check --live --run $run
	expect_rc 1
	expect_err "^EGRESS REFUSED reason=allow_any: "
EOF

	t "$mode: drop removes the table, is idempotent; the denied connects now succeed (control)" <<'EOF'
	run nx $BN "$NS" egress drop --run $run
	expect_rc 0
	expect_err "^EGRESS OK verb=drop run=$run table=nova_egress_$run$"
	run nx $BN "$NS" egress drop --run $run
	expect_rc 0
	nx $BN nft list tables | grep -q "nova_egress_$run" && _fail "the table is still there"
	probe_set "$mode" OK "${DENIED[@]}"
	[ "$mode" = uid ] && probe_set "$mode" OK "${DENIED_UID[@]}"
EOF
}

one_mode uid
one_mode veth

t "flush ruleset by another tool: check --live says the table is gone" <<'EOF'
run nx $BN "$NS" egress apply --plan "$D/e2e_uid.nft" --run e2e_uid
expect_rc 0
nx $BN nft flush ruleset
run nx $BN "$NS" egress check --live --run e2e_uid
expect_rc 1
expect_err "^EGRESS REFUSED reason=no_table: table inet nova_egress_e2e_uid is not in the kernel"
EOF

t "plan refuses a pinned address in a denied range, and writes nothing" <<'EOF'
sed 's/^api.anthropic.com$/evil.example.org/' "$POL" > "$D/pol.txt"
run nx $BN "$NS" egress plan --run e2e_bad --policy "$D/pol.txt" --model-host evil.example.org \
	--resolver 198.51.100.53 --uid $U --out "$D/bad.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_address: evil.example.org resolved to 127.0.0.1, inside a denied range \(loopback\)"
expect_absent "$D/bad.nft"
EOF

t "plan: a name whose AAAA the resolver refuses is pinned by its A, with a NOTE" <<'EOF'
# dnsmasq answers AAAA REFUSED for a host record with no IPv6 address
run nx $BN "$NS" egress plan --run e2e_v4 --policy "$POL" --model-host api.openai.com \
	--resolver 198.51.100.53 --uid $U --out "$D/v4.nft"
expect_rc 0
expect_err "^EGRESS NOTE api.openai.com: AAAA failed \(the resolver answered REFUSED\); only its A addresses are pinned$"
expect_err "^EGRESS NOTE $POL names api.anthropic.com, which this run does not pin"
expect_err "^EGRESS PLAN run=e2e_v4 .*names=github.com,api.github.com,objects.githubusercontent.com,api.openai.com$"
grep -q "^# pin api.openai.com 192.0.2.11\$" "$D/v4.nft" || _fail "api.openai.com is not pinned to its A alone"
grep -q "ip daddr 192.0.2.11 tcp dport 443 accept\$" "$D/v4.nft" || _fail "no accept for 192.0.2.11"
# control: a name the resolver does not know at all is still resolve_failed
sed 's/^api.openai.com$/nowhere.example.net/' "$POL" > "$D/pol2.txt"
run nx $BN "$NS" egress plan --run e2e_nx --policy "$D/pol2.txt" --model-host nowhere.example.net \
	--resolver 198.51.100.53 --uid $U --out "$D/nx.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=resolve_failed: nowhere.example.net: A: [^;]+; AAAA: "
expect_absent "$D/nx.nft"
EOF

t "plan --out on a full filesystem fails midway, leaves no temporary, keeps the old plan" <<'EOF'
# an 8 KiB tmpfs in a private mount namespace (gone with it): the old plan
# takes one page, the temporary gets one and then ENOSPC; 120 bench
# CIDRs make the plan bigger than the filesystem.  Control: the same plan
# in a roomy directory is written whole.
BIG=()
for i in $(seq 1 120); do BIG+=(--bench-cidr "203.0.113.$i/32"); done
mkdir -p "$D/tiny"
run env TINY="$D/tiny" unshare -m bash -c '
	mount -t tmpfs -o size=8k,mode=700 nse-tiny "$TINY" || exit 99
	echo old > "$TINY/p.nft"
	ip netns exec "$@"; rc=$?
	echo "entries: $(ls -A "$TINY" | tr "\n" " ")"; echo "content: $(cat "$TINY/p.nft")"
	exit $rc' _ $BN "$NS" egress plan --run e2e_full --policy "$POL" --model-host api.anthropic.com \
	--resolver 198.51.100.53 --uid $U "${BIG[@]}" --out "$D/tiny/p.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_out: --out $D/tiny/p.nft cannot be written: write: No space left on device"
expect_out "^entries: p.nft $"
expect_out "^content: old$"
run nx $BN "$NS" egress plan --run e2e_full --policy "$POL" --model-host api.anthropic.com \
	--resolver 198.51.100.53 --uid $U "${BIG[@]}" --out "$D/full.nft"
expect_rc 0
[ "$(stat -c %s "$D/full.nft")" -gt 4096 ] || _fail "the control plan is not bigger than the tiny filesystem"
expect_eq "$(ls -A "$D/tiny" | wc -l)" 0 "entries left in the unmounted mount point"
EOF

t "without CAP_NET_ADMIN apply is refused with what it needs" <<'EOF'
chmod 755 "$D"; chmod 644 "$D/e2e_uid.nft"
run_as "$NS" egress apply --plan "$D/e2e_uid.nft" --run e2e_uid
expect_rc 2
expect_err "^EGRESS REFUSED reason=no_privilege: .*CAP_NET_ADMIN"
EOF

t "nothing is left behind: no table in the bench" <<'EOF'
expect_eq "$(nx $BN nft list tables | wc -l)" 0 "tables in the bench"
EOF
