#!/bin/bash
# SPDX-License-Identifier: MIT
# t_netproxy.sh -- the proxy module (netproxy.so) driven without the host
# (ns_proxydrive: listeners made on 127.0.0.1:0 and sent over the sink as
# the host does, serve() in a child, its report lines printed) against
# real clients (curl, openssl s_client, python sockets) and local servers
# (python http.server, and an HTTPS one with its own CA).  Proxy A names
# 127.0.0.1/32 for the servers' ports (loopback is refused unless named);
# proxy B names only the names, so loopback answers are refused there.
# Every refusal has its control: the same client, the same server, through
# proxy A or directly.  The proxies run as the test user.
source "$(dirname "$0")/lib.sh"

W=$(newdir)
MOD="$MODS/netproxy.so"
DRIVE="$H/ns_proxydrive"
PIDS=()
_stop_all() {
	exec 7>&- 8>&- 9>&-
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	PIDS=()
}
trap '_stop_all; _cleanup' EXIT

as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@"
	else
		"$@"
	fi
}

# the servers: a CA, a certificate for localhost and 127.0.0.1, an HTTPS
# server and a plain one on ephemeral ports; a 100 MB file to move
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=nova-test-ca \
	-keyout "$W/ca.key" -out "$W/ca.pem" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout "$W/srv.key" \
	-out "$W/srv.csr" >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$W/ext"
openssl x509 -req -in "$W/srv.csr" -CA "$W/ca.pem" -CAkey "$W/ca.key" \
	-CAcreateserial -days 2 -extfile "$W/ext" -out "$W/srv.pem" >/dev/null 2>&1
mkdir -p "$W/www"
echo "hello from the test server" > "$W/www/index.html"
head -c 100000000 /dev/zero > "$W/www/big"
chmod -R a+rX "$W"
cat > "$W/serve.py" <<'PY'
import http.server, socketserver, ssl, sys, os
os.chdir(sys.argv[1])
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
class Q(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = S(("127.0.0.1", 0), Q)
if len(sys.argv) > 3:
    c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    c.load_cert_chain(sys.argv[3], sys.argv[4])
    s.socket = c.wrap_socket(s.socket, server_side=True)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()
PY
python3 "$W/serve.py" "$W/www" "$W/http.port" >/dev/null 2>&1 &
PIDS+=($!)
python3 "$W/serve.py" "$W/www" "$W/https.port" "$W/srv.pem" "$W/srv.key" \
	>/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -s "$W/http.port" ] && [ -s "$W/https.port" ] && break; sleep 0.1; done
HP=$(cat "$W/http.port") SP=$(cat "$W/https.port")
# a port nothing listens on
CLOSED=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

# start_proxy NAME FD ARGS...: a proxy whose stdin is fd FD of this
# shell (closing it stops the proxy); its output in $W/NAME.out
start_proxy() {
	local name=$1 fd=$2
	shift 2
	mkfifo "$W/$name.in"
	as_user "$DRIVE" "$MOD" "$@" < "$W/$name.in" > "$W/$name.out" 2>"$W/$name.err" &
	PIDS+=($!)
	eval "exec $fd>\"$W/$name.in\""
	for _ in $(seq 50); do grep -q '^pid ' "$W/$name.out" 2>/dev/null && break; sleep 0.1; done
}
port_of() { sed -n 's/^proxy //p' "$W/$1.out"; }

start_proxy A 7 -b "$HP" localhost:"$SP" localhost:"$HP" 127.0.0.1/32:"$HP" \
	127.0.0.1/32:"$SP" 127.0.0.1/32:"$CLOSED" '*.localhost:443'
start_proxy B 8 -c 2 localhost:"$SP" localhost:"$HP"
PA=$(port_of A) PB=$(port_of B)
BR=$(sed -n "s/^bridge $HP //p" "$W/A.out")

# raw PORT REQUEST (escapes as python's): the answer's first line through
# the proxy on PORT, and the seconds it took
raw() {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
t = time.time()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
s.settimeout(15)
d = b""
try:
    while b"\r\n" not in d:
        x = s.recv(4096)
        if not x: break
        d += x
except OSError as e:
    d = b"ERROR " + str(e).encode()
print(d.split(b"\r\n")[0].decode("latin-1") or "CLOSED", "%.2f" % (time.time() - t))
PY
}
# rawhex PORT BYTES: every byte the proxy answers until it closes, in
# hex, and the seconds it took
rawhex() {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
t = time.time()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
s.settimeout(15)
d = b""
try:
    while True:
        x = s.recv(4096)
        if not x: break
        d += x
except OSError as e:
    d += b"ERROR"
print(d.hex() or "CLOSED", "%.2f" % (time.time() - t))
PY
}
# the last raw answer came within 2 s (a refusal held until a read
# timeout takes 10)
quick() {
	awk '{ if ($NF + 0 > 2.0) exit 1 }' "$OUT" || _fail "the answer took more than 2 s"
}
# the last raw answer came within a second
fast() {
	awk '{ if ($NF + 0 > 1.0) exit 1 }' "$OUT" || _fail "the answer took more than 1 s"
}

t "ready(): the proxy can wall itself here" <<'EOF'
run_as "$DRIVE" "$MOD" --ready
expect_rc 0
EOF

t "the proxy is walled: no_new_privs and a seccomp filter" <<'EOF'
pid=$(sed -n 's/^pid //p' "$W/A.out")
run grep -E '^(NoNewPrivs|Seccomp):' "/proc/$pid/status"
expect_out '^NoNewPrivs:[[:space:]]+1$'
expect_out '^Seccomp:[[:space:]]+2$'
EOF

t "control: an allowed address literal, absolute-URI GET" <<'EOF'
run curl -sS -m 10 -x "http://127.0.0.1:$PA" "http://127.0.0.1:$HP/index.html"
expect_rc 0
expect_out '^hello from the test server$'
EOF

t "an address literal no entry names: 403 at once, one deny line" <<'EOF'
run raw "$PB" "GET http://127.0.0.1:$HP/index.html HTTP/1.1\r\nHost: x\r\n\r\n"
expect_out '^HTTP/1.1 403 Forbidden '
fast
run raw "$PB" "GET http://127.0.0.1:$HP/index.html HTTP/1.1\r\nHost: x\r\n\r\n"
run grep -c "^REPORT deny 127.0.0.1 $HP not_allowed\$" "$W/B.out"
expect_out '^1$'
EOF

t "a name no entry names: 403 at once, the body says why" <<'EOF'
run curl -sS -m 10 -x "http://127.0.0.1:$PA" "http://not-listed.invalid:$HP/"
expect_out 'not-listed.invalid:[0-9]+ refused \(not_allowed\)'
run raw "$PA" "GET http://not-listed.invalid:$HP/ HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.1 403 Forbidden '
fast
run grep -c "^REPORT deny not-listed.invalid $HP not_allowed\$" "$W/A.out"
expect_out '^1$'
EOF

t "control: HTTPS through CONNECT to a name whose address is named" <<'EOF'
run curl -sS -m 10 --cacert "$W/ca.pem" -x "http://127.0.0.1:$PA" "https://localhost:$SP/index.html"
expect_rc 0
expect_out '^hello from the test server$'
EOF

t "a name resolving to loopback (rebinding): refused private, the address said" <<'EOF'
run curl -sS -m 10 --cacert "$W/ca.pem" -x "http://127.0.0.1:$PB" "https://localhost:$SP/index.html"
expect_rc 56
expect_err '403'
run grep -E "^REPORT deny localhost $SP private (127.0.0.1|::1)\$" "$W/B.out"
expect_rc 0
EOF

t "a port no entry allows for the name: 403 port" <<'EOF'
run raw "$PA" "CONNECT localhost:$CLOSED HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.1 403 Forbidden '
fast
run grep -c "^REPORT deny localhost $CLOSED port\$" "$W/A.out"
expect_out '^1$'
EOF

t "allowed but nothing listens there: 502 and a fail line" <<'EOF'
run raw "$PA" "CONNECT 127.0.0.1:$CLOSED HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.1 502 '
fast
run grep -c "^REPORT fail 127.0.0.1 $CLOSED refused\$" "$W/A.out"
expect_out '^1$'
EOF

t "numeric host forms a resolver would read as 127.0.0.1: 400, never resolved" <<'EOF'
for h in 2130706433 0x7f.1 127.1 0177.0.0.1; do
	run raw "$PA" "GET http://$h:$HP/index.html HTTP/1.1\r\n\r\n"
	expect_out '^HTTP/1.1 400 Bad Request '
done
run raw "$PA" "GET http://127.0.0.1:$HP/index.html HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.[01] 200 '
EOF

t "a ClientHello naming another host: closed, deny sni" <<'EOF'
run sh -c "echo | timeout 10 openssl s_client -proxy 127.0.0.1:$PA -connect localhost:$SP -servername other.test -CAfile '$W/ca.pem'"
expect_out '^no peer certificate available'
run grep -c "^REPORT deny localhost $SP sni\$" "$W/A.out"
expect_out '^1$'
run sh -c "echo | timeout 10 openssl s_client -proxy 127.0.0.1:$PA -connect localhost:$SP -servername localhost -CAfile '$W/ca.pem'"
expect_out '^Server certificate'
expect_out 'Verify return code: 0'
EOF

t "an Alert or a ChangeCipherSpec before the ClientHello: closed, bad_request" <<'EOF'
cat > "$W/early.py" <<'PY'
import socket, ssl, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"CONNECT localhost:%s HTTP/1.1\r\n\r\n" % sys.argv[2].encode())
d = b""
while b"\r\n\r\n" not in d:
    d += s.recv(100)
# the record, then a ClientHello naming another host
o = ssl.MemoryBIO(); i = ssl.MemoryBIO()
c = ssl.create_default_context().wrap_bio(i, o, server_hostname="other.test")
try:
    c.do_handshake()
except ssl.SSLWantReadError:
    pass
s.sendall(bytes.fromhex(sys.argv[3]) + o.read())
s.settimeout(10)
t = time.time()
try:
    print(repr(s.recv(100)), "%.2f" % (time.time() - t))
except OSError as e:
    print("ERROR", e)
PY
run python3 "$W/early.py" "$PA" "$SP" 15030100020100
expect_out "^b'' "
quick
run python3 "$W/early.py" "$PA" "$SP" 140303000101
expect_out "^b'' "
quick
run grep -c "^REPORT deny localhost $SP bad_request\$" "$W/A.out"
expect_out '^1$'
run grep -c "^REPORT deny localhost $SP sni\$" "$W/A.out"
expect_out '^1$'
EOF

t "SOCKS5 with remote names: allowed, and refused with 0x02" <<'EOF'
run curl -sS -m 10 --cacert "$W/ca.pem" -x "socks5h://127.0.0.1:$PA" "https://localhost:$SP/index.html"
expect_rc 0
expect_out '^hello from the test server$'
run curl -sS -m 10 -x "socks5h://127.0.0.1:$PA" "http://not-listed.invalid:$HP/"
expect_rc 97
expect_err '\(2\)'
EOF

t "a loopback bridge reaches the host's port as is" <<'EOF'
run curl -sS -m 10 "http://127.0.0.1:$BR/index.html"
expect_rc 0
expect_out '^hello from the test server$'
EOF

t "64 concurrent connections" <<'EOF'
for i in $(seq 64); do
	curl -sS -m 30 -o /dev/null -w '%{http_code}\n' -x "http://127.0.0.1:$PA" \
		"http://127.0.0.1:$HP/index.html" > "$W/conc.$i" 2>&1 &
done
wait
run sh -c "cat '$W'/conc.* | sort | uniq -c"
expect_out '^ *64 200$'
EOF

t "over the connection cap: 503 at once; a slot freed serves again" <<'EOF'
python3 - "$PB" "$W/hold" <<'PY' &
import socket, sys, time
ss = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(2)]
open(sys.argv[2], "w").write("held")
time.sleep(3)
PY
hp=$!
for _ in $(seq 50); do [ -s "$W/hold" ] && break; sleep 0.1; done
sleep 0.3
run raw "$PB" "GET http://not-listed.invalid/ HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.1 503 '
fast
wait $hp
sleep 0.5
run raw "$PB" "GET http://not-listed.invalid/ HTTP/1.1\r\n\r\n"
expect_out '^HTTP/1.1 403 '
run grep -c '^REPORT note the proxy is at its connection cap' "$W/B.out"
expect_out '^1$'
EOF

t "a head over 16 KiB: 400, read by the client before the close" <<'EOF'
for n in 17000 40000; do
	big=$(head -c "$n" /dev/zero | tr '\0' a)
	run raw "$PA" "GET http://127.0.0.1:$HP/ HTTP/1.1\r\nX: $big\r\n\r\n"
	expect_out '^HTTP/1.1 400 '
	quick
done
# a client still sending when the answer comes (curl): no reset before
# it could read the 400
big=$(head -c 60000 /dev/zero | tr '\0' a)
run curl -sS -m 10 -o /dev/null -w '%{http_code}\n' -x "http://127.0.0.1:$PA" \
	-H "X: $big" "http://127.0.0.1:$HP/"
expect_rc 0
expect_out '^400$'
EOF

t "LF-only line ends, a TLS record, a word no method: 400 at once" <<'EOF'
run raw "$PA" "GET http://127.0.0.1:$HP/ HTTP/1.1\nHost: x\n\n"
expect_out '^HTTP/1.1 400 '
quick
run raw "$PA" "GET http://127.0.0.1:$HP/ HTTP/1.1\n"
expect_out '^HTTP/1.1 400 '
quick
run raw "$PA" "\x16\x03\x01\x00\x05hello"
expect_out '^HTTP/1.1 400 '
quick
run raw "$PA" "\x01\x02"
expect_out '^HTTP/1.1 400 '
quick
EOF

t "a SOCKS4 or 4a greeting: request rejected (0x5B) at once" <<'EOF'
run rawhex "$PA" "\x04\x01\x01\xbb\x7f\x00\x00\x01\x00"
expect_out '^005b000000000000 '
quick
run rawhex "$PA" "\x04\x01\x01\xbb\x00\x00\x00\x01\x00localhost\x00"
expect_out '^005b000000000000 '
quick
EOF

t "120 tunnels leave the user's pipes their default size" <<'EOF'
cat > "$W/pipes.py" <<'PY'
import fcntl, os, socket, sys, time
ss = []
for _ in range(120):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"CONNECT 127.0.0.1:%s HTTP/1.1\r\n\r\n" % sys.argv[2].encode())
    ss.append(s)
for s in ss:
    s.recv(100)
time.sleep(6.5)  # past the 5 s wait for first bytes: every relay runs
r, w = os.pipe()
print("pipe", fcntl.fcntl(w, 1032))  # F_GETPIPE_SZ
PY
run as_user /usr/bin/python3 "$W/pipes.py" "$PA" "$HP"
expect_out '^pipe 65536$'
EOF

t "100 MB through the proxy: at least 80% of the direct rate" <<'EOF'
# the best of ten each, interleaved (the machine is shared: the best
# run is the one the least disturbed)
d=0 p=0
for _ in $(seq 10); do
	r=$(curl -sS -m 60 -o /dev/null -w '%{speed_download}' "http://127.0.0.1:$HP/big")
	d=$(awk -v a="$d" -v c="$r" 'BEGIN { print (c > a) ? c : a }')
	r=$(curl -sS -m 60 -o /dev/null -w '%{speed_download}' \
		-x "http://127.0.0.1:$PA" "http://127.0.0.1:$HP/big")
	p=$(awk -v a="$p" -v c="$r" 'BEGIN { print (c > a) ? c : a }')
done
echo "     100 MB: direct $d B/s, through the proxy $p B/s" \
	"($(awk -v d="$d" -v p="$p" 'BEGIN { printf "%.0f%%", 100 * p / d }'))"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(d > 0 && p >= 0.8 * d) }' ||
	_fail "the proxy moved $p B/s against $d B/s direct"
EOF

t "a non-listener, and a bridge no loopback entry names: closed, each said" <<'EOF'
start_proxy J 9 -j -u 9 localhost:443
exec 9>&-
for _ in $(seq 30); do grep -q '^EXIT' "$W/J.out" && break; sleep 0.1; done
run cat "$W/J.out"
expect_out '^REPORT note the proxy was sent a descriptor that is not a listening TCP'
expect_out '^REPORT note the proxy was sent a listener for a port no loopback entry names'
expect_out '^EXIT 0$'
EOF

t "a client that sends nothing is dropped after 10 s, without an answer" <<'EOF'
cat > "$W/idle.py" <<'PY'
import socket, sys, time
t = time.time()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(20)
print(repr(s.recv(100)), "%.0f" % (time.time() - t))
PY
run python3 "$W/idle.py" "$PA"
expect_out "^b'' 1[01]$"
EOF

t "report lines the host did not read in time: a note says how many" <<'EOF'
start_proxy L 9 -L localhost:"$HP"
pl=$(port_of L)
cat > "$W/many.py" <<'PY'
import socket, sys
for i in range(300):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET http://h%d.invalid/ HTTP/1.1\r\n\r\n" % i)
    s.recv(100)
    s.close()
PY
run python3 "$W/many.py" "$pl"
exec 9>&-
for _ in $(seq 50); do grep -q '^EXIT' "$W/L.out" && break; sleep 0.1; done
got=$(grep -c '^REPORT deny h[0-9]*.invalid 80 not_allowed$' "$W/L.out")
run sed -n 's/^REPORT note \([0-9]*\) report lines were lost (the tool did not read them in time)$/\1/p' "$W/L.out"
expect_out "^$((300 - got))\$"
[ "$got" -lt 300 ] || _fail "no line was lost: the test proves nothing"
run cat "$W/L.out"
expect_out '^EXIT 0$'
EOF

t "stop_fd's end-of-file ends serve() promptly with a tunnel open" <<'EOF'
start_proxy S 9 127.0.0.1/32:"$SP"
ps=$(port_of S)
python3 - "$ps" "$SP" "$W/tunnel" 9>&- <<'PY' &
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"CONNECT 127.0.0.1:%s HTTP/1.1\r\n\r\n" % sys.argv[2].encode())
s.recv(100)
open(sys.argv[3], "w").write("open")
s.recv(100)
PY
tp=$!
for _ in $(seq 50); do [ -s "$W/tunnel" ] && break; sleep 0.1; done
expect_present "$W/tunnel"
start=$(date +%s%N)
exec 9>&-
for _ in $(seq 50); do grep -q '^EXIT' "$W/S.out" && break; sleep 0.1; done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait $tp
run cat "$W/S.out"
expect_out '^EXIT 0$'
[ "$ms" -lt 3000 ] || _fail "serve() took $ms ms to stop"
EOF
