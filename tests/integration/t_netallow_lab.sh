#!/bin/bash
# SPDX-License-Identifier: MIT
# t_netallow_lab.sh -- --net-allow (issue 25) with real clients against
# real HTTPS servers, in the network lab of tests/helpers/netlab.sh (root
# only: a network namespace, a mount namespace binding /etc/hosts, a CA,
# servers on documentation addresses; the tool runs in the lab as the test
# user, its proxy in the tool's network namespace reaches the servers).
# The cases are written against the user-facing lines of the shared
# contract (NET-CONTRACT, docs/SPEC-SANDBOX.md once merged):
#   SANDBOX OK ... net=allow:<n> ...
#   SANDBOX DENIED net host=<h> port=<p> remedy=--net-allow <h>:<p>
#   SANDBOX DONE exit=<c> cmd=<name> net-denied=<k>
#   SANDBOX NOTE the network proxy ended early (...); the command's
#     connections failed from then
#   SANDBOX REFUSED reason=netns_unavailable ...
# Every walled case has its control first: the same client, as the same
# user, reaching the same server without the wall (direct), or the wall
# with the entry that allows it.  Clients: curl, python3 urllib, node (its
# fetch ignores proxy variables in node 20: it is the "program that ignores
# proxy variables"; tests/helpers/lab_node_get.js honours HTTPS_PROXY by
# hand), git over HTTPS, pip download, npm pack.
# NOVA_NETLAB_NS=<program> runs another program as the tool (how the cases
# were proven against a fake that breaks one promise at a time).
source "$(dirname "$0")/lib.sh"
NS=${NOVA_NETLAB_NS:-$NS}

if [ "$(id -u)" != 0 ]; then
	t "netallow lab: needs root, network namespaces and the clients" <<'EOF'
skip "needs root (a network namespace and a mount namespace for the lab)"
EOF
	exit 0
fi
# every later case needs these: without them the file stops here
t "netallow lab: needs root, network namespaces and the clients" <<'EOF' || exit 1
needs_machine -root netns
needs_machine userns
for tool in ip unshare setpriv openssl curl git node npm dnsmasq lsns pgrep; do
	command -v "$tool" >/dev/null 2>&1 || _fail "$tool is not installed (infra/deps.sh test installs it)"
done
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || _fail "python3 -m pip does not run (python3-pip)"
EOF

source "$(dirname "$0")/../helpers/netlab.sh"
LAB_MADE=0
lab_up && LAB_MADE=1

# ---- helpers of the cases ----------------------------------------------
# curl's figures: "<http_code> <http_connect> <time_total>" on stdout
CW='%{http_code} %{http_connect} %{time_total}\n'
# (--max-time: a proxy that never answers fails the case, never hangs it)
CURL=(/usr/bin/curl -sS --max-time 60 --cacert "$LAB_CA" -o /dev/null -w "$CW")
PY=/usr/bin/python3
NODE=/usr/bin/node
NODEGET=$LAB_SRC/lab_node_get.js
# the bare wrap as the test user in the lab; D is the case's --write and
# HOME (the lab's HOME is outside every rule of the wall)
wall() {
	lab_run_as /usr/bin/env HOME="${D:?}" "$NS" --read "$LAB/pki" --read "$LAB_SRC" --write "$D" "$@"
}
# the name DONE gives a command: its file's, symlinks resolved (/bin/sh: dash)
cmdname() {
	basename "$(readlink -f "$1")"
}
SHN=$(cmdname /bin/sh)
# the same client, same user, same lab, no wall: straight to the server
direct() {
	lab_run_as "$@"
}
# a literal for grep -E
re() {
	printf '%s' "$1" | sed 's/[.[\*^$()+?{|]/\\&/g'
}
expect_ok_line() {
	expect_err "^SANDBOX OK .* net=allow:$1( |\$)"
}
# A DENIED line is printed live, while the command writes to the same
# stderr: it may follow a part of the command's line (one write() of the
# tool's, whole, ending its line); so it is looked for unanchored at the
# start, anchored at the end.
expect_denied() {
	local h=$1 p=$2 r=${3:-$1:$2}
	expect_err "SANDBOX DENIED net host=$(re "$h") port=$p remedy=--net-allow $(re "$r")\$"
}
expect_done() {
	expect_err "^SANDBOX DONE exit=$1 cmd=$(re "$2") net-denied=$3\$"
}
expect_ndenied() {
	expect_eq "$(grep -c 'SANDBOX DENIED ' "$ERR")" "$1" "SANDBOX DENIED lines"
}
# curl's first figure line: code, CONNECT code, time under 2 s
expect_curl() {
	local code=$1 connect=$2 line t
	line=$(grep -E '^[0-9]{3} [0-9]{3} [0-9.]+$' "$OUT" | head -1)
	read -r c k t <<<"$line"
	expect_eq "${c:-none}" "$code" "curl's http_code"
	expect_eq "${k:-none}" "$connect" "curl's http_connect (the proxy's CONNECT answer)"
	awk -v t="${t:-9}" 'BEGIN { exit !(t < 2) }' ||
		_fail "curl took ${t:-?} s: a refusal must be immediate (< 2 s), not a timeout"
}
# nothing of the test user's left: a watcher may take a moment to end
# after DONE, so it is asked for up to 3 s
expect_no_user_procs() {
	local i left
	for i in $(seq 30); do
		left=$(pgrep -u "$TUID" | tr '\n' ' ')
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	_fail "processes of the test user left $1: $left$(for p in $left; do printf ' [%s]' "$({ tr '\0' ' ' < "/proc/$p/cmdline"; } 2>/dev/null | head -c 60)"; done)"
}
expect_reached() {
	lab_reached "$1" || _fail "no server saw the request $1"
}
expect_not_reached() {
	! lab_reached "$1" || _fail "a server saw $1: $(grep -- "$1" "$LAB_LOG" | head -2)"
}

t "lab: made (namespace, hosts, CA, servers)" <<'EOF' || exit 1
expect_eq "$LAB_MADE" 1 "lab_up succeeded (else its reason is above)"
EOF

t "lab: every server answers its name over TLS with the lab's CA, and dnsmasq the names (control of every case)" <<'EOF'
for u in https://pkg.example.test https://pkg.example.test:8443 https://other.example.test \
	https://mirror.example.test https://cdn.mirror.example.test https://a.mirror.example.test \
	https://tenten.example.test https://rebind.example.test https://192.0.2.10 \
	https://198.51.100.20 https://203.0.113.30 http://pkg.example.test \
	http://127.0.0.1:8080 http://localhost:8081; do
	direct /usr/bin/curl -sS --cacert "$LAB_CA" "$u/known.txt"
	expect_rc 0
	expect_out '^nova-lab known file$'
done
# the resolver the lab's resolv.conf names answers from the same hosts file
direct "$PY" -c '
import socket, struct
q = struct.pack(">HHHHHH", 7, 0x100, 1, 0, 0, 0) + b"\x03pkg\x07example\x04test\x00" + struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(2)
s.sendto(q, ("192.0.2.53", 53)); r = s.recv(512)
print(".".join(str(b) for b in r[-4:]))'
expect_out '^192\.0\.2\.10$'
# nothing outside the lab is reachable from it
direct /usr/bin/curl -sS --connect-timeout 2 -o /dev/null https://192.0.2.99/
expect_rc 7
EOF

# ---- curl: allowed, refused, the environment --------------------------
t "curl: allowed name through the proxy (control: direct), OK net=allow:1, DONE net-denied=0" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct /usr/bin/curl -sS --cacert "$LAB_CA" "https://pkg.example.test/known.txt?m=$m-ctl"
expect_rc 0
expect_out '^nova-lab known file$'
expect_reached "$m-ctl"
wall --net-allow pkg.example.test -- /usr/bin/curl -sS --cacert "$LAB_CA" "https://pkg.example.test/known.txt?m=$m"
expect_rc 0
expect_out '^nova-lab known file$'
expect_ok_line 1
expect_ndenied 0
expect_done 0 curl 0
expect_reached "$m"
# the tool took its proxy away with it
expect_no_user_procs "after the tool"
EOF

t "environment: the proxy variables, both cases, socks5h, NO_PROXY for loopback" <<'EOF'
D=$(newdir)
wall --net-allow pkg.example.test -- /usr/bin/env
expect_rc 0
for v in HTTP_PROXY HTTPS_PROXY http_proxy https_proxy; do
	expect_out "^$v=http://127\\.0\\.0\\.1:3128\$"
done
expect_out '^ALL_PROXY=socks5h://127\.0\.0\.1:3128$'
expect_out '^all_proxy=socks5h://127\.0\.0\.1:3128$'
expect_out '^NO_PROXY=localhost,127\.0\.0\.1,::1$'
expect_out '^no_proxy=localhost,127\.0\.0\.1,::1$'
EOF

t "curl: refused name -> 403 at once, one DENIED line with its remedy, DONE net-denied=1 (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://other.example.test/known.txt?m=$m-ctl"
expect_rc 0
expect_curl 200 000
expect_reached "$m-ctl"
# curl's own message to a file: the live DENIED line may split it on stderr
wall --net-allow pkg.example.test -- "${CURL[@]}" --stderr "$D/curl.err" "https://other.example.test/known.txt?m=$m"
expect_rc 56
expect_curl 000 403
grep -q 'CONNECT tunnel failed, response 403' "$D/curl.err" || _fail "curl did not say why: $(cat "$D/curl.err")"
expect_ok_line 1
expect_denied other.example.test 443
expect_ndenied 1
expect_done 56 curl 1
expect_not_reached "$m"
EOF

t "DENIED: one line per distinct (host, port), counted in DONE" <<'EOF'
D=$(newdir)
wall --net-allow pkg.example.test -- /bin/sh -c '
for u in https://other.example.test/ https://other.example.test/again https://pkg.example.test:8443/ https://pkg.example.test/known.txt; do
	"$@" "$u"; done; exit 0' sh "${CURL[@]}"
expect_rc 0
expect_denied other.example.test 443
expect_denied pkg.example.test 8443
expect_ndenied 2
expect_done 0 "$SHN" 2
expect_out '^200 200 '
EOF

t "--net-allow-file: entries a line, comments and blanks skipped; a bad line refused naming file:line, nothing run (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://a.mirror.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
printf '%s\n' '# the lab' '' pkg.example.test '*.mirror.example.test' > "$D/allow"
wall --net-allow-file "$D/allow" -- "${CURL[@]}" "https://a.mirror.example.test/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_ok_line 2
expect_done 0 curl 0
expect_reached "$m"
printf '%s\n' '# the lab' pkg.example.test 'not a host!' > "$D/bad"
wall --net-allow-file "$D/bad" -- "${CURL[@]}" "https://pkg.example.test/known.txt?m=$m-no"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_net.*$(re "$D/bad"):3"
expect_no_err '^SANDBOX OK'
expect_not_reached "$m-no"
EOF

# ---- the proxy's three doors ---------------------------------------------
t "HTTP proxying: plain http through http_proxy (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct /usr/bin/curl -sS "http://pkg.example.test/known.txt?m=$m-ctl"
expect_rc 0
expect_out '^nova-lab known file$'
wall --net-allow pkg.example.test:80 -- /usr/bin/curl -sS "http://pkg.example.test/known.txt?m=$m"
expect_rc 0
expect_out '^nova-lab known file$'
expect_done 0 curl 0
expect_reached "$m"
# refused: a 403 from the proxy itself, the server never asked
wall --net-allow pkg.example.test:80 -- /usr/bin/curl -sS -o /dev/null -w "$CW" "http://other.example.test/known.txt?m=$m-no"
expect_rc 0
expect_curl 403 000
expect_denied other.example.test 80
expect_not_reached "$m-no"
EOF

t "SOCKS5: curl through ALL_PROXY (socks5h), allowed and refused (reply 2) (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://other.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
wall --net-allow pkg.example.test -- /bin/sh -c 'exec "$@" --proxy "$ALL_PROXY" "https://pkg.example.test/known.txt?m='"$m"'"' sh "${CURL[@]}"
expect_rc 0
expect_curl 200 000
expect_reached "$m"
wall --net-allow pkg.example.test -- /bin/sh -c 'exec "$@" --proxy "$ALL_PROXY" "https://other.example.test/known.txt?m='"$m"'-no"' sh "${CURL[@]}" --stderr "$D/curl.err"
expect_rc 97
grep -q "Can't complete SOCKS5 connection to other\\.example\\.test\\. (2)" "$D/curl.err" ||
	_fail "curl did not say SOCKS5 reply 2: $(cat "$D/curl.err")"
expect_denied other.example.test 443
expect_done 97 "$SHN" 1
expect_not_reached "$m-no"
EOF

# ---- names, wildcards, addresses -------------------------------------------
t "wildcard: *.mirror.example.test allows names strictly below, not the suffix itself (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
for h in cdn.mirror.example.test a.mirror.example.test mirror.example.test; do
	direct "${CURL[@]}" "https://$h/known.txt?m=$m-ctl"
	expect_curl 200 000
done
for h in cdn.mirror.example.test a.mirror.example.test; do
	wall --net-allow '*.mirror.example.test' -- "${CURL[@]}" "https://$h/known.txt?m=$m-$h"
	expect_rc 0
	expect_curl 200 200
	expect_done 0 curl 0
	expect_reached "$m-$h"
done
wall --net-allow '*.mirror.example.test' -- "${CURL[@]}" "https://mirror.example.test/known.txt?m=$m-no"
expect_rc 56
expect_curl 000 403
expect_denied mirror.example.test 443
expect_not_reached "$m-no"
EOF

t "IP literal: 192.0.2.10 named is allowed, 198.51.100.20 not named is refused (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
for a in 192.0.2.10 198.51.100.20; do
	direct "${CURL[@]}" "https://$a/known.txt?m=$m-ctl"
	expect_curl 200 000
done
wall --net-allow 192.0.2.10 -- "${CURL[@]}" "https://192.0.2.10/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_reached "$m"
wall --net-allow 192.0.2.10 -- "${CURL[@]}" "https://198.51.100.20/known.txt?m=$m-no"
expect_rc 56
expect_curl 000 403
expect_denied 198.51.100.20 443
expect_done 56 curl 1
expect_not_reached "$m-no"
EOF

t "private address: a listed name resolving to 10.0.0.10 is refused naming the address; the remedy allows it (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://tenten.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
wall --net-allow tenten.example.test -- "${CURL[@]}" "https://tenten.example.test/known.txt?m=$m-no"
expect_rc 56
expect_curl 000 403
expect_denied tenten.example.test 443 10.0.0.10:443
expect_done 56 curl 1
expect_not_reached "$m-no"
# the remedy, applied
wall --net-allow tenten.example.test --net-allow 10.0.0.10:443 -- "${CURL[@]}" "https://tenten.example.test/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_ok_line 2
expect_done 0 curl 0
expect_reached "$m"
EOF

t "rebind: a listed name resolving to 127.0.0.1 is refused; allowed when 127.0.0.1/32 is named (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://rebind.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
wall --net-allow rebind.example.test -- "${CURL[@]}" "https://rebind.example.test/known.txt?m=$m-no"
expect_rc 56
expect_curl 000 403
# the contract's remedy names the address (<addr>:<p>); for loopback the
# entry that allows it is the range 127.0.0.1/32:443 (127.0.0.1:443 alone
# is a bridge): either form is accepted here, the integrator pins one
expect_err 'SANDBOX DENIED net host=rebind\.example\.test port=443 remedy=--net-allow 127\.0\.0\.1/32:443$'
expect_ndenied 1
expect_done 56 curl 1
expect_not_reached "$m-no"
wall --net-allow rebind.example.test --net-allow 127.0.0.1/32:443 -- "${CURL[@]}" "https://rebind.example.test/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_done 0 curl 0
expect_reached "$m"
EOF

t "port: CONNECT to :8443 with only :443 listed is refused; :8443 listed is allowed (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://pkg.example.test:8443/known.txt?m=$m-ctl"
expect_curl 200 000
wall --net-allow pkg.example.test -- "${CURL[@]}" "https://pkg.example.test:8443/known.txt?m=$m-no"
expect_rc 56
expect_curl 000 403
expect_denied pkg.example.test 8443
expect_done 56 curl 1
expect_not_reached "$m-no"
wall --net-allow pkg.example.test:8443 -- "${CURL[@]}" "https://pkg.example.test:8443/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_reached "$m"
EOF

t "SNI: a ClientHello naming another host than the CONNECT is cut; the matching one passes (control: direct, either SNI)" <<'EOF'
D=$(newdir); m=$(lab_marker)
# s_client sends one HTTP request (marker $1) over the TLS it made, the
# body comes back; its exit status is not asked: the lab's server closes
# without a close_notify, which OpenSSL 3 calls an error.  Walled, it
# goes through HTTPS_PROXY (s_client -proxy: CONNECT, then the ClientHello)
sclient='printf "GET /known.txt?m=%s HTTP/1.0\r\nHost: pkg.example.test\r\n\r\n" "$1" | { shift; exec /usr/bin/openssl s_client -quiet -verify_return_error ${HTTPS_PROXY:+-proxy "${HTTPS_PROXY#http://}"} "$@"; }'
direct /bin/sh -c "$sclient" sh "$m-ctl" -CAfile "$LAB_CA" -connect pkg.example.test:443 -servername other.example.test
expect_out '^nova-lab known file'
expect_reached "$m-ctl"
wall --net-allow pkg.example.test -- /bin/sh -c "$sclient" \
	sh "$m" -CAfile "$LAB_CA" -connect pkg.example.test:443 -servername pkg.example.test
expect_out '^nova-lab known file'
expect_reached "$m"
wall --net-allow pkg.example.test -- /bin/sh -c "$sclient" \
	sh "$m-no" -CAfile "$LAB_CA" -connect pkg.example.test:443 -servername other.example.test
expect_no_out 'nova-lab known file'
expect_not_reached "$m-no"
# said as what it is: the entry is there, so a NOTE and no remedy; counted
expect_err '^SANDBOX NOTE the proxy cut a TLS connection to an allowed host, whose ClientHello named another server \(SNI\): host=pkg\.example\.test port=443$'
expect_ndenied 0
expect_err 'net-denied=1$'
EOF

t "a request the proxy does not read (a host that is no DNS name): one NOTE, no DENIED line, not counted (control: a listed name passes)" <<'EOF'
D=$(newdir); m=$(lab_marker)
wall --net-allow pkg.example.test -- /bin/sh -c '"$@" "https://pkg.example.test/known.txt?m='"$m"'"; "$@" "https://a_b.example.test/known.txt"; "$@" "https://x..example.test/known.txt"; exit 0' sh "${CURL[@]}"
expect_out '^200 '
expect_reached "$m"
expect_err '^SANDBOX NOTE the proxy refused requests it does not read \(not an HTTP CONNECT, an absolute-URI request or SOCKS5, or a host that is neither a DNS name nor an address\): no --net-allow allows those$'
expect_ndenied 0
expect_err 'net-denied=0$'
EOF

# ---- load ------------------------------------------------------------------
t "64 concurrent connections through the proxy all succeed, 64 at once at the server (control: direct)" <<'EOF'
D=$(newdir)
par='seq 64 | xargs -P 64 -I{} "$@" "https://pkg.example.test/slow?c={}" | cut -d" " -f1 | sort | uniq -c'
direct /usr/bin/curl -sS "http://127.0.0.1:8080/peak" -o /dev/null
direct /bin/sh -c "$par" sh "${CURL[@]}"
expect_rc 0
expect_out '^ *64 200$'
direct /usr/bin/curl -sS "http://127.0.0.1:8080/peak"
expect_out '^64$'
wall --net-allow pkg.example.test -- /bin/sh -c "$par" sh "${CURL[@]}"
expect_rc 0
expect_out '^ *64 200$'
expect_done 0 "$SHN" 0
direct /usr/bin/curl -sS "http://127.0.0.1:8080/peak"
expect_out '^64$'
EOF

t "100 MiB through the proxy arrive whole (sha256) (control: direct)" <<'EOF'
D=$(newdir)
get='"$@" https://pkg.example.test/big.bin | sha256sum | cut -d" " -f1'
direct /bin/sh -c "$get" sh /usr/bin/curl -sS --cacert "$LAB_CA"
expect_rc 0
expect_out "^$LAB_BIGSUM\$"
wall --net-allow pkg.example.test -- /bin/sh -c "$get" sh /usr/bin/curl -sS --cacert "$LAB_CA"
expect_rc 0
expect_out "^$LAB_BIGSUM\$"
expect_done 0 "$SHN" 0
EOF

# ---- other clients ---------------------------------------------------------
PYGET='import sys, urllib.request
try:
    sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
except Exception as e:
    print("error", e); sys.exit(3)'

t "python urllib: allowed through the proxy, refused with 403 (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct env SSL_CERT_FILE="$LAB_CA" "$PY" -c "$PYGET" "https://other.example.test/known.txt?m=$m-ctl"
expect_rc 0
expect_out '^nova-lab known file$'
wall --net-allow pkg.example.test -- /usr/bin/env SSL_CERT_FILE="$LAB_CA" "$PY" -c "$PYGET" "https://pkg.example.test/known.txt?m=$m"
expect_rc 0
expect_out '^nova-lab known file$'
expect_done 0 env 0
expect_reached "$m"
wall --net-allow pkg.example.test -- /usr/bin/env SSL_CERT_FILE="$LAB_CA" "$PY" -c "$PYGET" "https://other.example.test/known.txt?m=$m-no"
expect_rc 3
expect_out '^error .*Tunnel connection failed: 403'
expect_denied other.example.test 443
expect_done 3 env 1
expect_not_reached "$m-no"
EOF

t "node: a CONNECT-aware client (HTTPS_PROXY by hand) allowed and refused (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct env NODE_EXTRA_CA_CERTS="$LAB_CA" "$NODE" "$NODEGET" "https://other.example.test/known.txt?m=$m-ctl"
expect_rc 0
expect_out '^nova-lab known file$'
wall --net-allow pkg.example.test -- /usr/bin/env NODE_EXTRA_CA_CERTS="$LAB_CA" "$NODE" "$NODEGET" "https://pkg.example.test/known.txt?m=$m"
expect_rc 0
expect_out '^nova-lab known file$'
expect_done 0 env 0
expect_reached "$m"
wall --net-allow pkg.example.test -- /usr/bin/env NODE_EXTRA_CA_CERTS="$LAB_CA" "$NODE" "$NODEGET" "https://other.example.test/known.txt?m=$m-no"
expect_rc 3
expect_out '^error CONNECT 403$'
expect_denied other.example.test 443
expect_not_reached "$m-no"
EOF

t "git clone over HTTPS: allowed through the proxy, refused with 403 at once (control: direct)" <<'EOF'
D=$(newdir)
chmod 777 "$D"
direct env GIT_SSL_CAINFO="$LAB_CA" git clone -q https://other.example.test/repo.git "$D/ctl"
expect_rc 0
expect_eq "$(cat "$D/ctl/README" 2>&1)" "nova-lab repo" "the control's clone"
wall --net-allow pkg.example.test -- /usr/bin/env GIT_SSL_CAINFO="$LAB_CA" git clone -q https://pkg.example.test/repo.git "$D/in"
expect_rc 0
expect_eq "$(cat "$D/in/README" 2>&1)" "nova-lab repo" "the walled clone"
expect_done 0 env 0
t0=$(date +%s%N)
wall --net-allow pkg.example.test -- /bin/sh -c 'GIT_SSL_CAINFO="$1" exec git clone -q https://other.example.test/repo.git "$2/no" 2>"$2/git.err"' sh "$LAB_CA" "$D"
t1=$(date +%s%N)
expect_rc 128
grep -q "CONNECT tunnel failed, response 403" "$D/git.err" || _fail "git did not say why: $(cat "$D/git.err")"
expect_denied other.example.test 443
expect_absent "$D/no/README"
[ $(((t1 - t0) / 1000000)) -lt 2000 ] || _fail "the refused clone took $(((t1 - t0) / 1000000)) ms"
EOF

t "pip download from a PEP 503 index: allowed through the proxy, refused (control: direct)" <<'EOF'
D=$(newdir)
pip=("$PY" -m pip download --no-cache-dir --disable-pip-version-check --no-deps --retries 0
	--timeout 5 --cert "$LAB_CA" labpkg)
direct env PIP_CONFIG_FILE=/dev/null "${pip[@]}" --index-url https://other.example.test/simple/ -d "$D/ctl"
expect_rc 0
expect_present "$D/ctl/labpkg-1.0-py3-none-any.whl"
wall --net-allow pkg.example.test -- /usr/bin/env PIP_CONFIG_FILE=/dev/null "${pip[@]}" --index-url https://pkg.example.test/simple/ -d "$D/in"
expect_rc 0
expect_present "$D/in/labpkg-1.0-py3-none-any.whl"
expect_done 0 env 0
wall --net-allow pkg.example.test -- /usr/bin/env PIP_CONFIG_FILE=/dev/null "${pip[@]}" --index-url https://other.example.test/simple/ -d "$D/no"
[ "$RC" != 0 ] || _fail "pip download from a refused index succeeded"
expect_denied other.example.test 443
expect_absent "$D/no/labpkg-1.0-py3-none-any.whl"
EOF

t "npm pack from a registry document: allowed through the proxy, refused (control: direct)" <<'EOF'
D=$(newdir)
mkdir -p "$D/ctl" "$D/in" "$D/no"; chown "$TUID:$TGID" "$D/ctl" "$D/in" "$D/no"
npm=(/usr/bin/npm pack labpkg --cafile "$LAB_CA" --cache "$D/cache" --userconfig /dev/null
	--no-update-notifier --no-audit --no-fund --fetch-retries 0 --fetch-timeout 30000 --loglevel error)
direct "${npm[@]}" --registry https://other.example.test/npm/ --pack-destination "$D/ctl"
expect_rc 0
expect_present "$D/ctl/labpkg-1.0.0.tgz"
wall --net-allow pkg.example.test -- "${npm[@]}" --registry https://pkg.example.test/npm/ --pack-destination "$D/in"
expect_rc 0
expect_present "$D/in/labpkg-1.0.0.tgz"
wall --net-allow pkg.example.test -- "${npm[@]}" --registry https://other.example.test/npm/ --pack-destination "$D/no"
[ "$RC" != 0 ] || _fail "npm pack from a refused registry succeeded"
expect_denied other.example.test 443
expect_absent "$D/no/labpkg-1.0.0.tgz"
EOF

# ---- a program that ignores the proxy variables ------------------------------
t "bypass: curl --noproxy '*' and node 20's fetch (which ignores HTTPS_PROXY) get no network at all, at once (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
fetch='fetch(process.argv[1]).then(r => r.text()).then(t => process.stdout.write(t), e => { console.log("error", e.cause ? e.cause.code : e.message); process.exit(3); })'
direct "${CURL[@]}" --noproxy '*' "https://pkg.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
direct env NODE_EXTRA_CA_CERTS="$LAB_CA" "$NODE" -e "$fetch" "https://pkg.example.test/known.txt?m=$m-ctl2"
expect_rc 0
expect_out '^nova-lab known file$'
expect_reached "$m-ctl2"
wall --net-allow pkg.example.test -- "${CURL[@]}" --noproxy '*' "https://pkg.example.test/known.txt?m=$m-no"
expect_rc 7
expect_curl 000 000
expect_not_reached "$m-no"
# node 20 has no NODE_USE_ENV_PROXY nor --use-env-proxy: its fetch goes
# straight to the address; inside there is no route to it, and Landlock's
# connect rule (the proxy's port only) may refuse it first (EACCES)
wall --net-allow pkg.example.test -- /usr/bin/env NODE_EXTRA_CA_CERTS="$LAB_CA" "$NODE" -e "$fetch" "https://pkg.example.test/known.txt?m=$m-no2"
expect_rc 3
expect_out '^error (ENETUNREACH|ECONNREFUSED|EHOSTUNREACH|EACCES|EPERM)$'
expect_not_reached "$m-no2"
EOF

# ---- loopback bridge ---------------------------------------------------------
t "loopback bridge: --net-deny --net-allow localhost:8080 reaches the host's 127.0.0.1:8080 and nothing else (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
for u in http://127.0.0.1:8080 http://127.0.0.1:8081 https://pkg.example.test; do
	direct "${CURL[@]}" "$u/known.txt?m=$m-ctl"
	expect_curl 200 000
done
wall --net-deny --net-allow localhost:8080 -- /bin/sh -c '
env | grep -i "_proxy=" ; "$@" "http://127.0.0.1:8080/known.txt?m='"$m"'"; echo "rc=$?"
"$@" "http://127.0.0.1:8081/known.txt?m='"$m"'-no"; echo "rc=$?"
"$@" "https://pkg.example.test/known.txt?m='"$m"'-no2"; echo "rc=$?"
exit 0' sh "${CURL[@]}" --connect-timeout 5
expect_rc 0
expect_no_out '_proxy='
expect_ok_line 1
expect_out '^200 000 '
expect_eq "$(grep -c '^rc=7$' "$OUT")" 2 "connections that failed at once (curl exit 7)"
expect_reached "$m"
expect_not_reached "$m-no"
expect_not_reached "$m-no2"
# a non-loopback entry with --net-deny is a contradiction
wall --net-deny --net-allow pkg.example.test -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_net'
expect_no_err '^SANDBOX OK'
EOF

# ---- run ---------------------------------------------------------------------
t "run --net-allow: allowed through the proxy and refused with its DENIED line (control: direct)" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://other.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
lab_run_as "$NS" run --name "lab-$$" --size 64m --read "$LAB/pki" --net-allow pkg.example.test -- \
	/bin/sh -c '"$@" "https://pkg.example.test/known.txt?m='"$m"'"; "$@" "https://other.example.test/known.txt?m='"$m"'-no"; exit 0' sh "${CURL[@]}"
expect_rc 0
expect_ok_line 1
expect_out '^200 200 '
expect_out '^000 403 '
expect_denied other.example.test 443
expect_ndenied 1
# run's DONE: name= first, its own fields, and net-denied
expect_err "^SANDBOX DONE name=lab-$$ exit=0 (.* )?net-denied=1( |\$)"
expect_reached "$m"
expect_not_reached "$m-no"
EOF

# ---- the proxy killed mid-run ----------------------------------------------
# How the case finds the proxy: it runs in the tool's network namespace
# (the lab's) as the test user, while the command's processes are in the
# namespace the wall made.  It need not be the tool's child (na-host forks
# it through a watcher, so that the wrap's subreaper never counts it):
# among the test user's processes in the lab's namespace other than the
# tool, the proxy is the one that is no other's parent (a watcher is its
# parent; a proxy forked straight by the tool is alone).  Exactly one
# must be found.  The tool's pid is $LAB_BG: every step of lab_as execs.
t "proxy killed mid-run: the command's next connection fails, the tool says so, nothing is left" <<'EOF'
D=$(newdir); m=$(lab_marker)
direct "${CURL[@]}" "https://pkg.example.test/known.txt?m=$m-ctl"
expect_curl 200 000
before=$(lsns -t net -n -o NS | sort)
lab_bg_as /usr/bin/env HOME="$D" "$NS" --read "$LAB/pki" --write "$D" --net-allow pkg.example.test -- /bin/sh -c '
"$@" "https://pkg.example.test/known.txt?m='"$m"'"; touch "'"$D"'/one"
while [ ! -e "'"$D"'/go" ]; do sleep 0.05; done
"$@" "https://pkg.example.test/known.txt?m='"$m"'-after"; echo "rc=$?"' sh "${CURL[@]}"
tool=$LAB_BG
at_end 'kill -KILL "$tool" 2>/dev/null || true'
for _ in $(seq 200); do [ -e "$D/one" ] && break; sleep 0.05; done
expect_present "$D/one"
{ tr '\0' '\n' < "/proc/$tool/cmdline"; } 2>/dev/null | grep -qxF "$NS" ||
	_fail "the background pid $tool is not the tool: $({ tr '\0' ' ' < "/proc/$tool/cmdline"; } 2>/dev/null)"
cands=""
for c in $(ip netns pids "$LAB_NS"); do
	[ "$c" != "$tool" ] && [ "$(stat -c %u "/proc/$c" 2>/dev/null)" = "$TUID" ] && cands="$cands $c"
done
proxy=""
for c in $cands; do
	leaf=1
	for o in $cands; do
		[ "$(awk '{ print $4 }' "/proc/$o/stat" 2>/dev/null)" = "$c" ] && leaf=0
	done
	[ "$leaf" = 1 ] && proxy="$proxy $c"
done
expect_eq "$(echo $proxy | wc -w)" 1 "the proxy: the test user's leaf processes in the tool's network namespace (of:$cands)"
[ -n "$proxy" ] && kill -KILL $proxy
touch "$D/go"
(sleep 60; kill -KILL "$tool" 2>/dev/null) >/dev/null 2>&1 &
guard=$!
wait "$tool"
RC=$?
kill "$guard" 2>/dev/null
expect_rc 0
expect_out '^200 200 '
expect_out '^000 000 '
expect_no_out '^rc=0$'
expect_err "^SANDBOX NOTE the network proxy ended early \\(.*(9|KILL).*\\); the command's connections failed from then\$"
expect_done 0 "$SHN" 0
expect_not_reached "$m-after"
expect_no_user_procs "after the tool"
expect_eq "$(ip netns pids "$LAB_NS" | sort -n | tr '\n' ' ')" "$(printf '%s\n' "${LAB_PIDS[@]}" | sort -n | tr '\n' ' ')" "processes in the lab besides its servers"
expect_eq "$(comm -13 <(echo "$before") <(lsns -t net -n -o NS | sort) | tr '\n' ' ')" "" "network namespaces that were not there before"
EOF

# ---- no user namespaces --------------------------------------------------------
# lab_nouserns CMD...: CMD as the test user in the lab, inside a user
# namespace of its own (identity-mapped, made by root) whose
# user.max_user_namespaces is 0 (set to $NOUSERNS_MAX, 0 by default; the
# limit is per user namespace: nothing outside it changes)
NOUSERNS_MAX=0
# (the limit is written after a second exec: the first shell started
# before its uid was mapped, without capabilities in its namespace)
NOUSERNS_INNER='echo "$0" > /proc/sys/user/max_user_namespaces || exit 99; u=$1 g=$2; shift 2; exec setpriv --reuid="$u" --regid="$g" --clear-groups -- "$@"'
lab_nouserns() {
	local f p me
	f=$(mktemp -u /tmp/nova-it-nouserns.XXXXXX)
	mkfifo -m 600 "$f"
	"${LAB_ROOT[@]}" unshare -U /bin/sh -c 'read _ < "$0"; i=$1; shift; exec /bin/sh -c "$i" "$@"' \
		"$f" "$NOUSERNS_INNER" "$NOUSERNS_MAX" "$TUID" "$TGID" env -i "${LAB_ENV[@]}" "$@" >"$OUT" 2>"$ERR" </dev/null &
	p=$!
	me=$(readlink /proc/self/ns/user)
	for _ in $(seq 300); do
		[ "$(readlink "/proc/$p/ns/user" 2>/dev/null)" != "$me" ] && break
		sleep 0.01
	done
	echo '0 0 4294967295' > "/proc/$p/uid_map"
	echo '0 0 4294967295' > "/proc/$p/gid_map"
	# (a writer with no reader would wait for ever)
	timeout 10 sh -c 'echo go > "$0"' "$f"
	rm -f "$f"
	wait "$p"
	RC=$?
}

t "no user namespaces (user.max_user_namespaces=0 in a test user namespace): refused netns_unavailable, never an open network (control: the same with the limit left)" <<'EOF'
D=$(newdir); m=$(lab_marker)
global=$(cat /proc/sys/user/max_user_namespaces)
# the simulation holds: the test user can make no user namespace there...
lab_nouserns unshare -U /bin/true
[ "$RC" != 0 ] || _fail "unshare -U succeeded under user.max_user_namespaces=0"
# ... and can with the limit left as it is (control)
NOUSERNS_MAX=$global lab_nouserns unshare -U /bin/true
expect_rc 0
NOUSERNS_MAX=$global lab_nouserns /usr/bin/env HOME="$D" "$NS" --read "$LAB/pki" --write "$D" --net-allow pkg.example.test -- "${CURL[@]}" "https://pkg.example.test/known.txt?m=$m"
expect_rc 0
expect_curl 200 200
expect_reached "$m"
lab_nouserns /usr/bin/env HOME="$D" "$NS" --read "$LAB/pki" --write "$D" --net-allow pkg.example.test -- "${CURL[@]}" "https://pkg.example.test/known.txt?m=$m-no"
# a wall's refusal before OK: 125, the bare wrap's refused (the spec's
# exit table; NET-CONTRACT said 2, the spec of na-host and na-netns 125)
expect_rc 125
expect_err '^SANDBOX REFUSED reason=netns_unavailable.*user\.max_user_namespaces=0'
expect_no_err '^SANDBOX OK'
expect_not_reached "$m-no"
expect_eq "$(cat /proc/sys/user/max_user_namespaces)" "$global" "the machine's own user.max_user_namespaces"
EOF

# ---- the lab itself leaves nothing -------------------------------------------
# lab_child WHAT: a shell that sources lib.sh and netlab.sh, makes its lab,
# says "up <pid>" and waits (WHAT=down: takes it down and ends itself);
# it execs: in the background, $! is that shell
lab_child() {
	exec bash -c 'source "$0/integration/lib.sh"; source "$0/helpers/netlab.sh"
lab_up || exit 1; echo "up $$"
[ "$1" = down ] && { lab_down; exit 0; }
while :; do sleep 0.1; done' "$(cd "$(dirname "$0")/.." && pwd)" "$1" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
}

t "lab teardown: a lab taken down, or whose shell is killed (TERM), leaves no namespace, mount, process or file" <<'EOF'
out=$(lab_child down)
p=$(echo "$out" | sed -n 's/^up //p')
[ -n "$p" ] || _fail "the child lab did not come up: $out"
expect_eq "$(lab_left "nslab-$p")" "" "left by a lab taken down"
f=$(mktemp -u /tmp/nova-it-lab.XXXXXX)
lab_child wait > "$f" &
c=$!
for _ in $(seq 300); do grep -q '^up ' "$f" && break; sleep 0.1; done
p=$(sed -n 's/^up //p' "$f")
[ -n "$p" ] || _fail "the child lab did not come up"
[ -n "$(lab_left "nslab-$p")" ] || _fail "lab_left sees nothing of a live lab (it could not see a leftover either)"
kill -TERM "$c"
wait "$c"
expect_eq "$(lab_left "nslab-$p")" "" "left by a lab whose shell got TERM"
rm -f "$f"
EOF

t "lab teardown: a lab whose shell was KILLed is reaped by the next lab_up" <<'EOF'
f=$(mktemp -u /tmp/nova-it-lab.XXXXXX)
lab_child wait > "$f" &
c=$!
for _ in $(seq 300); do grep -q '^up ' "$f" && break; sleep 0.1; done
p=$(sed -n 's/^up //p' "$f")
[ -n "$p" ] || _fail "the child lab did not come up"
kill -KILL "$c"
wait "$c" 2>/dev/null
[ -n "$(lab_left "nslab-$p")" ] || _fail "a KILLed lab left nothing (nothing for the reaper to prove)"
lab_reap_orphans
expect_eq "$(lab_left "nslab-$p")" "" "left after lab_reap_orphans"
rm -f "$f"
EOF

# ---- run as root: what the proxy holds ---------------------------------------
# run's supervisor is root; the proxy it starts parses the command's
# bytes, so it and its watcher become uid/gid 65534 with no group and no
# capability before the proxy is forked.  Found by their command line
# (the run's unique name): the watcher is the one whose parent is none
# of them (it was double-forked), the proxy its child.
t "run as root: the proxy and its watcher hold no root, no group and no capability (control: the supervisor is root)" <<'EOF'
name="pxuid-$$"
"$NS" run --name "$name" --size 64m --net-allow 192.0.2.1:443 -- /bin/sh -c 'sleep 4' \
	>"$OUT" 2>"$ERR" </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
sup=$!
at_end 'kill -KILL "$sup" 2>/dev/null || true'
watcher=""; proxy=""
for _ in $(seq 100); do
	pids=$(pgrep -f -- "run --name $name ") || pids=""
	for p in $pids; do
		pp=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
		[ "$p" != "$sup" ] && [ -n "$pp" ] && ! printf '%s\n' $pids | grep -qx "$pp" && watcher=$p
	done
	[ -n "$watcher" ] && proxy=$(pgrep -P "$watcher" | head -1)
	[ -n "$proxy" ] && break
	sleep 0.05
done
[ -n "$watcher" ] && [ -n "$proxy" ] || _fail "no watcher or proxy found among: $pids"
creds() { awk '/^(Uid|Gid|Groups|CapPrm|CapEff):/ { $1 = $1; print }' "/proc/$1/status"; }
creds "$sup" | grep -qx 'Uid: 0 0 0 0' || _fail "control: the supervisor is not root: $(creds "$sup")"
for p in "$watcher" "$proxy"; do
	c=$(creds "$p")
	printf '%s\n' "$c" | grep -qx 'Uid: 65534 65534 65534 65534' &&
	printf '%s\n' "$c" | grep -qx 'Gid: 65534 65534 65534 65534' &&
	printf '%s\n' "$c" | grep -qx 'Groups:' &&
	printf '%s\n' "$c" | grep -qx 'CapPrm: 0000000000000000' &&
	printf '%s\n' "$c" | grep -qx 'CapEff: 0000000000000000' ||
		_fail "pid $p ($( [ "$p" = "$proxy" ] && echo proxy || echo watcher)) holds: $(printf '%s ' $c)"
done
wait "$sup"; RC=$?
expect_rc 0
expect_err "^SANDBOX DONE name=$name exit=0 (.* )?net-denied=0( |\$)"
EOF

t "bytes that are no request at all (a TLS record straight to the proxy's port): refused at once, the same one NOTE, not counted" <<'EOF'
D=$(newdir)
wall --net-allow pkg.example.test -- /usr/bin/python3 -c '
import socket, time
s = socket.create_connection(("127.0.0.1", 3128)); t = time.time()
s.sendall(b"\x16\x03\x01\x00\x05hello")
print("answer", s.recv(64)[:12], "in", "under-2s" if time.time() - t < 2 else "too-slow")'
expect_out '^answer b.HTTP/1\.1 400. in under-2s$'
expect_err '^SANDBOX NOTE the proxy refused requests it does not read '
expect_ndenied 0
expect_err 'net-denied=0$'
EOF
