#!/bin/bash
# SPDX-License-Identifier: MIT
# t_egress_run.sh -- the egress wall made practical (issue 25 item 4), in
# one network namespace the file makes and removes (loopback, 192.0.2.10
# and 198.51.100.53 on its lo, dnsmasq answering on 198.51.100.53 and
# 127.0.0.53): a policy line with a port other than 443 is reached and a
# port no line names is not; a denied TCP client fails at once (REJECT:
# curl exit 7 in under a second, where a DROP would be exit 28 after its
# 5 s connect timeout) and a denied UDP one gets ICMP; loopback servers
# and a loopback resolver named in the policy file are reached, loopback
# otherwise is not; `run --egress <id>` is refused without the live table
# and says net=egress:<id> with it.  Every denial has its control.
source "$(dirname "$0")/lib.sh"
P="$H/ns_netprobe"
S=$$
N=nse-run-$S
CARD=65534   # the uid run's command gets when root starts run (nsplace)
PIDS=()

if [ "$(id -u)" != 0 ]; then
	t "egress run: needs root, a network namespace and nftables" <<'EOF'
skip "needs root (a network namespace, nftables)"
EOF
	exit 0
fi
t "egress run: needs root, a network namespace and nftables" <<'EOF' || exit 1
needs_machine -root netns ipv6
for tool in ip nft dnsmasq setpriv curl; do
	command -v "$tool" >/dev/null 2>&1 || _fail "$tool is not installed (infra/deps.sh installs it)"
done
EOF

CF=$(mktemp -d "$NOVA_B/it-egress.XXXXXX")  # a config dir only root writes
chmod 755 "$CF"
egress_run_cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ip netns del "$N" 2>/dev/null
	rm -rf -- "$CF"
}
trap 'egress_run_cleanup; _cleanup' EXIT
nx() { ip netns exec "$N" "$@"; }
# as the card's uid inside the namespace
card() { ip netns exec "$N" setpriv --reuid=$CARD --regid=$CARD --clear-groups -- "$@"; }
serve_bg() {
	ip netns exec "$N" "$@" </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	PIDS+=($!)
}

D=$(newdir)
chmod 711 "$D"
ip netns add "$N"
nx ip link set lo up
nx ip addr add 192.0.2.10/32 dev lo
nx ip addr add 198.51.100.53/32 dev lo
serve_bg "$P" serve 192.0.2.10/443/tcp 192.0.2.10/8080/tcp 192.0.2.10/9090/tcp \
	127.0.0.1/7070/tcp 127.0.0.1/7071/tcp ::1/7070/tcp 192.0.2.10/5353/udp
serve_bg dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
	--bind-interfaces --listen-address=198.51.100.53 --listen-address=127.0.0.53 \
	--port=53 --user=root --pid-file= --host-record=github.com,192.0.2.10 \
	--host-record=api.github.com,192.0.2.10 \
	--host-record=objects.githubusercontent.com,192.0.2.10 \
	--host-record=api.anthropic.com,192.0.2.10
for _ in $(seq 1 50); do
	nx "$P" tcp 192.0.2.10 9090 200 >/dev/null && nx "$P" udp 127.0.0.53 53 200 >/dev/null &&
		nx "$P" udp 198.51.100.53 53 200 >/dev/null && break
	sleep 0.1
done

BASE="github.com
api.github.com
objects.githubusercontent.com"
# api.anthropic.com on 8080 alone (192.0.2.10: 443 is github.com's);
# two loopback servers named; 127.0.0.1:7071 is not
printf '%s\napi.anthropic.com:8080\n127.0.0.1:7070\n[::1]:7070\n' "$BASE" > "$D/ports.txt"
printf '%s\napi.anthropic.com\n127.0.0.53:53\n' "$BASE" > "$D/lores.txt"
printf '%s\napi.anthropic.com\n' "$BASE" > "$D/plain.txt"
chmod 644 "$D"/*.txt

# probe_all WANT "kind addr port"...: each as the card's uid, 1 s each
probe_all() {
	local want=$1 spec got
	shift
	for spec in "$@"; do
		# shellcheck disable=SC2086
		got=$(card "$P" $spec 1000 2>&1)
		case "$got" in "$want"*) ;; *) _fail "$spec: wanted $want, got $got" ;; esac
	done
}

t "plan: a port other than 443 and two loopback servers; applied, nft lists exactly the plan" <<'EOF' || exit 1
run nx "$NS" egress plan --run er1 --policy "$D/ports.txt" --model-host api.anthropic.com \
	--resolver 198.51.100.53 --uid $CARD --out "$D/er1.nft"
expect_rc 0
run nx "$NS" egress apply --plan "$D/er1.nft" --run er1
expect_rc 0
nx nft -s list table inet nova_egress_er1 | sed 's/^[[:space:]]*//; /^$/d' > "$D/er1.listed"
grep -v '^#' "$D/er1.nft" | sed 's/^[[:space:]]*//' > "$D/er1.want"
cmp -s "$D/er1.listed" "$D/er1.want" || _fail "nft -s list differs from the plan: $(diff "$D/er1.want" "$D/er1.listed" | head -5)"
run nx "$NS" egress check --live --run er1 --plan "$D/er1.nft"
expect_rc 0
EOF

t "the plan's text: the port, the loopback server first, the reject default deny" <<'EOF'
grep -q "^		meta skuid $CARD ip daddr 192.0.2.10 tcp dport 8080 accept\$" "$D/er1.nft" || _fail "no accept for :8080"
grep -q "^		meta skuid $CARD ip daddr 127.0.0.1 tcp dport 7070 accept\$" "$D/er1.nft" || _fail "no loopback accept"
grep -q "^		meta skuid $CARD reject with icmpx admin-prohibited\$" "$D/er1.nft" || _fail "no reject default deny"
EOF

t "apply: a plan with reject verdicts (ABI 1.5) is refused for a module built with the 1.3 header" <<'EOF'
printf '[nova-sandbox]\nmoduledir = %s\n[linux]\negress = egress_1_3.so\n' "$FIX" > "$CF/old.conf"
chmod 644 "$CF/old.conf"
run env NOVA_SANDBOX_CONFIG="$CF/old.conf" "$NS" egress apply --plan "$D/er1.nft" --run er1
expect_rc 2
expect_err "^EGRESS REFUSED reason=no_egress: the egress module egress_1_3.so was built with ABI 1\.3; this plan's reject verdicts are ABI 1\.5 "
expect_no_err "applies nothing"
# control: the same plan of the DROP era (1.0 forms only) passes the
# auditor and reaches the module's apply
sed '/ meta l4proto tcp reject with tcp reset$/d; s/ reject with icmpx admin-prohibited$/ drop/' \
	"$D/er1.nft" > "$D/er1-drop.nft"
run "$NS" egress check --plan "$D/er1-drop.nft"
expect_rc 0
run env NOVA_SANDBOX_CONFIG="$CF/old.conf" "$NS" egress apply --plan "$D/er1-drop.nft" --run er1
expect_rc 1
expect_err "^EGRESS REFUSED reason=apply_failed: fixture: a 1\.3 module, applies nothing"
EOF

t "a port other than 443 is reached; a port no line names is not; loopback only as named" <<'EOF'
probe_all OK "tcp 192.0.2.10 8080" "tcp 192.0.2.10 443" "tcp 127.0.0.1 7070" "tcp ::1 7070"
probe_all FAIL "tcp 192.0.2.10 9090" "tcp 127.0.0.1 7071" "tcp ::1 7071"
# control: outside the card's uid the same connects succeed
for spec in "192.0.2.10 9090" "127.0.0.1 7071"; do
	# shellcheck disable=SC2086
	[ "$(nx "$P" tcp $spec 1000)" = OK ] || _fail "control: tcp $spec does not connect as root"
done
EOF

t "REJECT: a denied TCP client fails at once (curl exit 7, never the timeout), UDP gets ICMP" <<'EOF'
t0=$(date +%s%N)
card curl -sS -o /dev/null --connect-timeout 5 http://192.0.2.10:9090/ 2>"$D/curl.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_eq "$rc" 7 "curl's exit to a denied port (7 refused; 28 would be a DROP's timeout) [$(cat "$D/curl.err")]"
[ "$ms" -lt 1000 ] || _fail "the denied connect took ${ms} ms, not under 1 s"
# metadata by name: the same at once
card curl -sS -o /dev/null --connect-timeout 5 http://169.254.169.254/ 2>/dev/null
expect_eq "$?" 7 "curl's exit to the metadata address"
got=$(card "$P" udp 192.0.2.10 5353 3000)
case "$got" in "FAIL timeout"*|OK*) _fail "a denied UDP send got no ICMP answer: $got" ;; esac
# control: the same client as root reaches the port (the listener
# closes without a reply: exit 52, or 56 when its close is a reset; it
# connected)
nx curl -sS -o /dev/null --connect-timeout 5 http://192.0.2.10:9090/ 2>/dev/null
rc=$?
case $rc in 52|56) ;; *) _fail "control: curl as root exited $rc, not 52/56 (connected)" ;; esac
EOF

t "run --egress: refused without the live table (nothing made), net=egress:<id> with it" <<'EOF'
run nx env PATH=/usr/bin:/bin "$NS" run --egress nope --name ern$S --size 1m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_egress_table: --egress nope: table inet nova_egress_nope cannot be read live \(no_table: "
expect_no_err "STEP name=create"
run nx env PATH=/usr/bin:/bin "$NS" run --egress er1 --name ern$S --size 1m -- \
	/usr/bin/curl -sS -o /dev/null --connect-timeout 5 http://192.0.2.10:9090/
expect_rc 7
expect_err "^SANDBOX OK name=ern$S .* net=egress:er1 "
expect_err "^SANDBOX DONE name=ern$S exit=7 "
run nx env PATH=/usr/bin:/bin "$NS" run --egress er1 --name ern$S --size 1m -- \
	/usr/bin/curl -sS -o /dev/null --connect-timeout 5 http://192.0.2.10:8080/
case $RC in 52|56) ;; *) _fail "curl to the allowed port under run exited $RC, not 52/56 (connected)" ;; esac
# control: without --egress the OK line makes no promise
run nx env PATH=/usr/bin:/bin "$NS" run --name ern$S --size 1m -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK name=ern$S .* net=nopromise "
# with --net-allow beside it both are said: the proxy connects from this
# namespace, where the table walls it too
run nx env PATH=/usr/bin:/bin "$NS" run --egress er1 --net-allow 192.0.2.10:8080 --name ern$S --size 1m -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK name=ern$S .* net=allow:1\+egress:er1 "
# an ordinary user cannot read the table: refused, saying so
run nx setpriv --reuid=$TUID --regid=$TGID --clear-groups -- env PATH=/usr/bin:/bin HOME="$THOME" \
	"$NS" run --egress er1 --name ern$S --size 1m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_egress_table: .*\(no_privilege: .*start run as root"
run nx env PATH=/usr/bin:/bin "$NS" run --egress er1 --net-deny --name ern$S --size 1m -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_net: --egress er1 allows what its plan allows and --net-deny nothing"
EOF

t "a loopback resolver named in the policy file is allowed; another resolver is not" <<'EOF'
run nx "$NS" egress drop --run er1
expect_rc 0
run nx "$NS" egress plan --run er2 --policy "$D/plain.txt" --model-host api.anthropic.com \
	--resolver 127.0.0.53 --uid $CARD --out "$D/er2.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_resolver: --resolver 127.0.0.53 is on loopback: allowed only for --uid alone and when the policy file .* names it as 127.0.0.53:53"
expect_absent "$D/er2.nft"
run nx "$NS" egress plan --run er2 --policy "$D/lores.txt" --model-host api.anthropic.com \
	--resolver 127.0.0.53 --uid $CARD --out "$D/er2.nft"
expect_rc 0
run nx "$NS" egress apply --plan "$D/er2.nft" --run er2
expect_rc 0
probe_all OK "udp 127.0.0.53 53" "tcp 192.0.2.10 443"
probe_all FAIL "udp 198.51.100.53 53" "tcp 127.0.0.1 7070"
run nx "$NS" egress drop --run er2
expect_rc 0
# control: with the table gone the other resolver answers the card
probe_all OK "udp 198.51.100.53 53"
EOF

t "plan: bad policy lines are refused at once, each naming file:line and the form it wanted; nothing written" <<'EOF'
printf '%s\ngithub.com:0\n[::1]\n169.254.169.254:80\n127.0.0.53:53/udp\n' "$BASE" > "$D/bad.txt"
chmod 644 "$D/bad.txt"
run nx "$NS" egress plan --run er3 --policy "$D/bad.txt" --model-host github.com \
	--resolver 198.51.100.53 --uid $CARD --out "$D/er3.nft"
expect_rc 2
expect_err "^EGRESS REFUSED reason=bad_policy: $D/bad.txt:4: wants <name>\[:<port>\] .*port 1-65535 \(TCP; UDP is DNS to --resolver alone\), got github.com:0\$"
expect_err "^EGRESS REFUSED reason=bad_policy: $D/bad.txt:5: wants \[<ipv6>\]:<port>, .*got \[::1\]\$"
expect_err "^EGRESS REFUSED reason=bad_policy: $D/bad.txt:6: 169.254.169.254 is the metadata address: "
expect_err "^EGRESS REFUSED reason=bad_policy: $D/bad.txt:7: wants <ipv4>:<port>, .*got 127.0.0.53:53/udp\$"
expect_eq "$(grep -c 'EGRESS REFUSED' "$ERR")" 4 "refusal lines"
expect_absent "$D/er3.nft"
# control: the good lines alone plan
head -3 "$D/bad.txt" > "$D/good.txt"
chmod 644 "$D/good.txt"
run nx "$NS" egress plan --run er3 --policy "$D/good.txt" --model-host github.com \
	--resolver 198.51.100.53 --uid $CARD --out "$D/er3.nft"
expect_rc 0
EOF

t "nothing is left behind: no table in the namespace" <<'EOF'
nx "$NS" egress drop --run er1 >/dev/null 2>&1
nx "$NS" egress drop --run er2 >/dev/null 2>&1
expect_eq "$(nx nft list tables | wc -l)" 0 "tables in the namespace"
EOF
