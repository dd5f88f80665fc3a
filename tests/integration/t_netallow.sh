#!/bin/bash
# SPDX-License-Identifier: MIT
# t_netallow.sh -- --net-allow's host side (spec rule 7, section 7
# "Network by name"): the entry grammar's refusals (all at once, nothing
# created), --net-allow-file's file:line, the contradiction with
# --net-deny, the policy verb's listing, no_proxy, net_allow_unsupported,
# and the proxy's lifecycle through fixtures that confine NOTHING
# (netloop_wall.so: NS_WALL_NET_LOOPBACK, the path seatbelt takes;
# proxy_fix.so: a proxy that refuses every request): the OK line, the
# proxy variables the command sees, DENIED once per (host, port), DONE's
# net-denied=, --status-fd, a proxy killed mid-run, adversary report
# lines, nothing left behind.  The real proxy and the Linux namespace are
# tested by their own suites.
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-netallow.XXXXXX")
chmod 755 "$STAGE"
trap 'rm -rf "$STAGE"; _cleanup' EXIT
for m in netloop_wall proxy_fix leaky_wall place_dir; do
	cp "$FIX/$m.so" "$STAGE/" && chmod 755 "$STAGE/$m.so"
done

# conf NAME WALL PROXY [EXTRA]: a config, its path on stdout
conf() {
	printf '[nova-sandbox]\nmoduledir = %s\n[linux]\nwall = %s\nproxy = %s\n%s' \
		"$STAGE" "$2" "$3" "${4:-}" > "$STAGE/$1"
	chmod 644 "$STAGE/$1"
	echo "$STAGE/$1"
}
LOOP=$(conf loop.conf netloop_wall.so proxy_fix.so)
# run: place_dir.so's places (plain directories) here
PD=$(newdir)
RLOOP=$(conf rloop.conf netloop_wall.so proxy_fix.so "place = place_dir.so
[place_dir]
dir = $PD
")

world() {
	D=$(newdir)
	mkdir -p "$D/w/home"
	# the client: each argument one CONNECT through $HTTPS_PROXY, the
	# first 12 bytes of the answer printed
	cat > "$D/client.sh" <<'SH'
#!/bin/bash
env | grep -i '_proxy=' | sort
p=${HTTPS_PROXY##*:}
for h in "$@"; do
	exec 3<>"/dev/tcp/127.0.0.1/$p" || { echo "no connection"; continue; }
	printf 'CONNECT %s HTTP/1.1\r\nHost: x\r\n\r\n' "$h" >&3
	head -c 12 <&3
	echo
	exec 3>&-
done
SH
	chmod 755 "$D/client.sh"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
}
# wrap CONF [FLAGS...] -- CMD...: the bare wrap as the test user
wrap() {
	local c=$1
	shift
	run_as env NOVA_SANDBOX_CONFIG="$c" HOME="$D/w/home" PATH=/usr/bin:/bin \
		"$NS" --write "$D/w" --read "$D" "$@"
}
nothing_created() {
	expect_absent "$D/w/.nova-sandbox-tmp"
}
count() {
	grep -cE -- "$1" "$ERR"
}

# ---- grammar and refusals ----------------------------------------------

t "bad entries: every one refused bad_net at once, 125, nothing created" <<'EOF'
world
wrap "$LOOP" --net-allow '*.com' --net-allow 127.1:80 --net-allow example.com \
	--net-allow 'example.com:0' --net-allow localhost -- /bin/true
expect_rc 125
expect_eq "$(count '^SANDBOX REFUSED reason=bad_net: ')" 4 "four bad_net"
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow \*\.com is not an entry: a \*\.<suffix> needs a suffix of two labels"
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow 127\.1:80 is not an entry: a number is not a name"
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow localhost is not an entry: a loopback entry names its port"
expect_err "it wants <host>\[:<port>\]: a DNS name"
expect_no_err 'SANDBOX OK|SANDBOX DONE'
nothing_created
EOF

t "--net-allow-file: a bad line is refused naming file:line" <<'EOF'
world
printf '# deps\npypi.org\n\n  files.pythonhosted.org:443  \nexample..com\n*.org\n' > "$D/allow"
chmod 644 "$D/allow"
wrap "$LOOP" --net-allow-file "$D/allow" -- /bin/true
expect_rc 125
expect_eq "$(count '^SANDBOX REFUSED reason=bad_net: ')" 2 "two bad lines"
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow-file $D/allow:5: example\.\.com is not an entry"
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow-file $D/allow:6: \*\.org is not an entry"
nothing_created
ln -s "$D/allow" "$D/link"
wrap "$LOOP" --net-allow-file "$D/link" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow-file $D/link cannot be opened"
EOF

t "a proxied entry with --net-deny is a contradiction; loopback ones are not" <<'EOF'
world
wrap "$LOOP" --net-deny --net-allow localhost:8080 --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_net: --net-allow pypi\.org and --net-deny contradict: .*; run: .*nova-sandbox --write .* --net-allow localhost:8080 --net-allow pypi\.org -- /bin/true\$"
nothing_created
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" "$NS" policy \
	--write "$D/w" --net-deny --net-allow localhost:8080 -- /bin/true
expect_rc 0
expect_out '^net-allow localhost:8080 kind=loopback port=8080$'
EOF

t "policy lists every entry with its kind and port" <<'EOF'
world
printf 'files.pythonhosted.org\n' > "$D/allow"; chmod 644 "$D/allow"
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" "$NS" policy \
	--write "$D/w" --net-allow Example.COM --net-allow '*.npmjs.org:8443' \
	--net-allow 192.0.2.0/24:80 --net-allow '[::1]:11434' \
	--net-allow-file "$D/allow" -- /bin/true
expect_rc 0
expect_out '^net-allow Example\.COM kind=name port=443$'
expect_out '^net-allow \*\.npmjs\.org:8443 kind=suffix port=8443$'
expect_out '^net-allow 192\.0\.2\.0/24:80 kind=addr port=80$'
expect_out '^net-allow \[::1\]:11434 kind=loopback port=11434$'
expect_out '^net-allow files\.pythonhosted\.org kind=name port=443$'
EOF

t "no loadable proxy module: no_proxy, 125, nothing created" <<'EOF'
world
C=$(conf noproxy.conf netloop_wall.so nosuch.so)
wrap "$C" --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_proxy: --net-allow needs a proxy module \(role proxy\) and none could be loaded; proxy module [^ ]*/nosuch\.so refused \(not_found\)'
expect_no_err 'SANDBOX OK'
nothing_created
# with a bad entry: both said at once
wrap "$C" --net-allow '*.com' -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_net: --net-allow \*\.com '
expect_err '^SANDBOX REFUSED reason=no_proxy: '
nothing_created
C=$(conf unready.conf netloop_wall.so proxy_fix.so "[proxy_fix]
ready = no
")
wrap "$C" --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_proxy: the proxy module proxy_fix is not ready here: the fixture proxy was told it cannot run here'
nothing_created
# the control: without --net-allow the same config runs the command
wrap "$C" -- /bin/true
expect_rc 0
expect_err '^SANDBOX OK .* net=nopromise '
EOF

t "a wall without the network bits: net_allow_unsupported naming it" <<'EOF'
world
C=$(conf leaky.conf leaky_wall.so proxy_fix.so)
wrap "$C" --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=net_allow_unsupported: --net-allow is not supported by the wall leaky_wall: '
expect_no_err 'reason=no_proxy'
nothing_created
EOF

# ---- the proxy's lifecycle (the loopback path) ----------------------------

t "lifecycle: OK net=allow, the proxy variables, DENIED once, net-denied=, nothing left" <<'EOF'
world
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" PATH=/usr/bin:/bin \
	HTTPS_PROXY=http://evil.example:1 NO_PROXY='*' \
	"$NS" --write "$D/w" --read "$D" --net-allow pypi.org \
	--net-allow localhost:8080 -- "$D/client.sh" blocked.example:443 \
	blocked.example:443 other.example:80
expect_rc 0
expect_err '^SANDBOX OK .* net=allow:2 '
# the wall is told no network but the proxy's port and the loopback entry
P=$(sed -n 's/^SANDBOX NOTE netloop flags=1 allow=127\.0\.0\.1:\([0-9]*\),localhost:8080 ports=0$/\1/p' "$ERR")
[ -n "$P" ] || _fail "the wall was not told 127.0.0.1:<port>,localhost:8080 with NET_DENY"
expect_out "^HTTPS_PROXY=http://127\.0\.0\.1:$P\$"
expect_out "^HTTP_PROXY=http://127\.0\.0\.1:$P\$"
expect_out "^ALL_PROXY=socks5h://127\.0\.0\.1:$P\$"
expect_out "^https_proxy=http://127\.0\.0\.1:$P\$"
expect_out '^NO_PROXY=localhost,127\.0\.0\.1,::1$'
expect_out '^no_proxy=localhost,127\.0\.0\.1,::1$'
expect_no_out 'evil'
expect_eq "$(grep -c '^HTTP/1.1 403' "$OUT")" 3 "three refusals answered"
expect_eq "$(count '^SANDBOX DENIED net host=blocked\.example port=443 remedy=--net-allow blocked\.example:443$')" 1 "one DENIED per (host, port)"
expect_err '^SANDBOX DENIED net host=other\.example port=80 remedy=--net-allow other\.example:80$'
expect_err '^SANDBOX DONE exit=0 cmd=client\.sh net-denied=2$'
# DENIED before DONE
[ "$(grep -n 'DENIED net host=other' "$ERR" | cut -d: -f1)" -lt \
  "$(grep -n 'SANDBOX DONE' "$ERR" | cut -d: -f1)" ] || _fail "DENIED after DONE"
expect_no_err 'ended early'
# it stopped by itself on the stop pipe's end-of-file (no copy of the
# pipe's write end kept it waiting for the SIGKILL)
expect_err '^SANDBOX NOTE the network proxy: stopping on end-of-file$'
# nothing left: no proxy listens on its port any more
! (exec 3<>"/dev/tcp/127.0.0.1/$P") 2>/dev/null || _fail "the proxy still listens on $P"
nothing_created
EOF

t "without a proxied entry: no proxy variables, no proxy, net-denied=0" <<'EOF'
world
wrap "$LOOP" --net-allow localhost:8080 -- /bin/sh -c 'env | grep -ci _proxy= || true'
expect_rc 0
expect_err '^SANDBOX NOTE netloop flags=1 allow=localhost:8080 ports=0$'
expect_out '^0$'
expect_err '^SANDBOX DONE exit=0 cmd=dash net-denied=0$'
EOF

t "--status-fd carries the DENIED and DONE lines" <<'EOF'
world
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" PATH=/usr/bin:/bin \
	bash -c "exec 7>'$D/status'; exec \"\$@\"" _ "$NS" --status-fd 7 \
	--write "$D/w" --read "$D" --net-allow pypi.org -- "$D/client.sh" x.example:443
expect_rc 0
grep -q '^SANDBOX DENIED net host=x\.example port=443 remedy=--net-allow x\.example:443$' "$D/status" || _fail "no DENIED on the status fd"
grep -q '^SANDBOX DONE exit=0 cmd=client\.sh net-denied=1$' "$D/status" || _fail "no DONE on the status fd"
expect_no_err 'SANDBOX DENIED'
EOF

t "a private-address refusal names the address in the remedy" <<'EOF'
world
wrap "$LOOP" --net-allow pypi.org -- "$D/client.sh" private.example:5432
expect_rc 0
expect_err '^SANDBOX DENIED net host=private\.example port=5432 remedy=--net-allow 10\.1\.2\.3:5432$'
EOF

t "the proxy killed mid-run: the command's connection fails, the NOTE says so, nothing left" <<'EOF'
world
wrap "$LOOP" --net-allow pypi.org -- "$D/client.sh" a.example:1 die.example:443 b.example:2
expect_err '^SANDBOX DENIED net host=a\.example port=1 '
expect_err '^SANDBOX NOTE the network proxy ended early \(signal 9\); the command.s connections failed from then$'
expect_no_err 'host=b\.example'
expect_err '^SANDBOX DONE exit=[0-9]+ cmd=client\.sh net-denied=1$'
# the control: a run the proxy survives says no such NOTE (the case above)
nothing_created
EOF

t "adversary report lines: a newline, a CR, a huge host never forge a line" <<'EOF'
world
H=$(printf 'a%.0s' $(seq 1 2000))
wrap "$LOOP" --net-allow pypi.org -- "$D/client.sh" "$H:443" inject.example:443
expect_rc 0
expect_eq "$(count '^SANDBOX DONE')" 1 "one DONE line"
expect_no_err 'cmd=forged'
expect_err '^SANDBOX DENIED net host=inject\.example port=443 '
expect_err '^SANDBOX DENIED net host=forged\\x0dhost port=443 remedy=--net-allow forged\\x0dhost:443$'
expect_no_err "host=aaaaaaaaaaaaaaaa"
# every stderr line is one of the tool's or the client's own
expect_no_err $'\r'
expect_err '^SANDBOX DONE exit=0 cmd=client\.sh net-denied=2$'
EOF

# ---- run ----------------------------------------------------------------

t "run: bad entries, no_proxy, net_allow_unsupported before the place is made" <<'EOF'
world
run_as env NOVA_SANDBOX_CONFIG="$RLOOP" PATH=/usr/bin:/bin "$NS" run --name na1 \
	--size 1m --net-allow '*.com' --net-allow 0x7f.1 -- /bin/true
expect_rc 125
expect_eq "$(count '^SANDBOX REFUSED reason=bad_net: ')" 2 "two bad_net"
expect_absent "$PD/nova-na1"
C=$(conf rnoproxy.conf netloop_wall.so nosuch.so "place = place_dir.so
[place_dir]
dir = $PD
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name na2 \
	--size 1m --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=no_proxy: '
expect_absent "$PD/nova-na2"
C=$(conf rleaky.conf leaky_wall.so proxy_fix.so "place = place_dir.so
[place_dir]
dir = $PD
")
run_as env NOVA_SANDBOX_CONFIG="$C" PATH=/usr/bin:/bin "$NS" run --name na3 \
	--size 1m --net-allow pypi.org -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=net_allow_unsupported: .*the wall leaky_wall'
expect_absent "$PD/nova-na3"
EOF

t "run: the proxy beside the supervisor: OK net=allow, env, DENIED, DONE net-denied=" <<'EOF'
world
run_as env NOVA_SANDBOX_CONFIG="$RLOOP" PATH=/usr/bin:/bin "$NS" run --name na4 \
	--size 1m --read "$D" --net-allow pypi.org -- "$D/client.sh" \
	blocked.example:443 blocked.example:443
expect_rc 0
expect_err '^SANDBOX OK .* net=allow:1 '
P=$(sed -n 's/^SANDBOX NOTE netloop flags=1 allow=127\.0\.0\.1:\([0-9]*\) ports=0$/\1/p' "$ERR")
[ -n "$P" ] || _fail "the wall was not told 127.0.0.1:<port> with NET_DENY"
expect_out "^HTTPS_PROXY=http://127\.0\.0\.1:$P\$"
expect_eq "$(grep -c '^HTTP/1.1 403' "$OUT")" 2 "two refusals answered"
expect_eq "$(count '^SANDBOX DENIED net host=blocked\.example port=443 remedy=--net-allow blocked\.example:443$')" 1 "one DENIED"
expect_err '^SANDBOX DONE name=na4 exit=0 .* net-denied=1$'
! (exec 3<>"/dev/tcp/127.0.0.1/$P") 2>/dev/null || _fail "the proxy still listens on $P"
expect_absent "$PD/nova-na4"
EOF

t "policy: a NET_LOOPBACK wall is told NET_DENY and the loopback entries" <<'EOF'
world
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" "$NS" policy \
	--write "$D/w" --net-allow pypi.org --net-allow localhost:8080 -- /bin/true
expect_rc 0
expect_out '^netloop flags=1 allow=localhost:8080 ports=0$'
run_as env NOVA_SANDBOX_CONFIG="$LOOP" HOME="$D/w/home" "$NS" policy \
	--write "$D/w" -- /bin/true
expect_rc 0
expect_out '^netloop flags=0 allow= ports=0$'
EOF
