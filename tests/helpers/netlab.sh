# SPDX-License-Identifier: MIT
# netlab.sh -- the network lab of the --net-allow tests (issue 25), sourced
# by a root-only test after integration/lib.sh.  Root only: it makes a
# network namespace and binds files in a mount namespace.
#
# The lab is a network namespace nslab-<pid> (the sourcing shell's pid)
# holding lo and a veth pair lab0/lab1 (both ends inside; lab0 carries the
# documentation addresses; a kernel without the dummy driver has veth), no
# route out.  The TOOL runs inside it (lab_as): its proxy, which the tool
# forks (through a watcher) and leaves in the tool's network namespace,
# reaches the lab's servers and nothing else; the command's own namespace
# nests inside.  Every
# command run in the lab also gets a mount namespace of its own in which
# $LAB/etc/hosts is bound over /etc/hosts and $LAB/etc/resolv.conf over
# /etc/resolv.conf (a dnsmasq on 192.0.2.53 answers the same names from
# the same hosts file, for a resolver that does not read /etc/hosts).
#
#   name                     address         servers (https unless said)
#   pkg.example.test         192.0.2.10      :443 and :8443, :80 plain http
#   other.example.test       198.51.100.20   :443
#   mirror.example.test, cdn.mirror.example.test, a.mirror.example.test
#                            203.0.113.30    :443
#   tenten.example.test      10.0.0.10       :443 (a private address)
#   rebind.example.test      127.0.0.1       :443 (the lab's loopback)
#   localhost                127.0.0.1       :8080 and :8081 plain http
#
# One certificate (its SANs: every name above and every address) signed
# by the lab's CA $LAB_CA (under $LAB/pki: a walled command needs
# --read "$LAB/pki"; $LAB is under /var/tmp, which `run` does not hide).
# Every server serves $LAB/www (lab_content.py): /known.txt ("nova-lab
# known file"), /big.bin (100 MiB, sha256 in $LAB_BIGSUM), /repo.git (a
# dumb-HTTP git repository, one commit of README "nova-lab repo"),
# /simple/ (a PEP 503 index of labpkg 1.0),
# /npm/labpkg (an npm registry document of labpkg 1.0.0), /slow and /peak
# (lab_server.py).  Every request is logged to $LAB_LOG as
# "<listener addr:port> <client> <method> <path>".
#
#   lab_up                   make the lab (returns 1, saying why, if any
#                            part fails; what was made is then removed)
#   lab_down                 remove it all: servers, namespace, files
#                            (idempotent; the EXIT trap set here calls it)
#   lab_left [NAME]          print what is left of lab NAME (default this
#                            one): a namespace, a process in it, a mount
#                            or a process naming its directory; nothing
#                            when nothing is left
#   LAB_ROOT, LAB_USER       the words that run a command in the lab as
#                            root, as the test user (each step execs: in
#                            the background, $! is the command itself)
#   lab_root CMD...          CMD as root in the lab (netns + hosts)
#   lab_as CMD...            CMD as the test user in the lab, environment
#                            cleared to LAB_ENV (PATH, HOME=$LAB/home, LANG)
#   lab_run_as CMD...        lab_as, capturing $OUT $ERR $RC (lib.sh's run)
#   lab_bg_as CMD...         lab_as in the background, output to $OUT and
#                            $ERR; LAB_BG is its pid, which is CMD itself
#                            (every step of lab_as execs, none forks)
#   lab_marker               a fresh token for a URL (?m=<token>, last in
#                            the URL): the server log then says whether it
#                            was reached
#   lab_reached TOKEN        true when some server logged a URL ending in
#                            m=TOKEN (m=TOKEN-x is another token)
LAB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_NS=nslab-$$
LAB=/var/tmp/nova-lab-$$
LAB_CA=$LAB/pki/ca.pem
LAB_LOG=$LAB/server.log
LAB_BIGSUM=""
LAB_PIDS=()
LAB_ENV=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	HOME="$LAB/home" LANG=C.UTF-8)
LAB_ADDRS="192.0.2.10 192.0.2.53 198.51.100.20 203.0.113.30 10.0.0.10"
LAB_LISTEN="192.0.2.10:443:tls 192.0.2.10:8443:tls 192.0.2.10:80:plain 198.51.100.20:443:tls
	203.0.113.30:443:tls 10.0.0.10:443:tls 127.0.0.1:443:tls
	127.0.0.1:8080:plain 127.0.0.1:8081:plain"
LAB_NAMES="pkg.example.test other.example.test mirror.example.test
	cdn.mirror.example.test a.mirror.example.test tenten.example.test
	rebind.example.test localhost"

# the words that run a command in the lab, as root and as the test user;
# every step execs (ip netns exec, unshare, sh's exec, setpriv, env), so a
# command started with them in the background is $! itself
LAB_ROOT=(ip netns exec "$LAB_NS" unshare -m --propagation private /bin/sh -c
	'mount --bind "$1" /etc/hosts && mount --bind "$2" /etc/resolv.conf && shift 2 && exec "$@"'
	lab "$LAB/etc/hosts" "$LAB/etc/resolv.conf")
LAB_USER=("${LAB_ROOT[@]}" setpriv --reuid="$TUID" --regid="$TGID" --clear-groups --
	env -i "${LAB_ENV[@]}")
lab_root() {
	"${LAB_ROOT[@]}" "$@"
}
lab_as() {
	"${LAB_USER[@]}" "$@"
}
lab_run_as() {
	"${LAB_USER[@]}" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}
# no descriptor of the suite's above 2 (a flock's lock would stay held)
lab_bg_as() {
	"${LAB_USER[@]}" "$@" >"$OUT" 2>"$ERR" </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	LAB_BG=$!
}
lab_marker() {
	echo "m$$-$RANDOM$RANDOM"
}
lab_reached() {
	grep -qE -- "[?&]m=$1\$" "$LAB_LOG"
}

# the CA and one server certificate for every lab name and address
lab_certs() {
	local d=$LAB/pki san n a
	mkdir -p "$d" || return 1
	san="subjectAltName=DNS:*.mirror.example.test"
	for n in $LAB_NAMES; do san="$san,DNS:$n"; done
	for a in 192.0.2.10 198.51.100.20 203.0.113.30 10.0.0.10 127.0.0.1; do san="$san,IP:$a"; done
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$d/ca.key" -out "$LAB_CA" -days 2 -subj "/CN=nova-sandbox lab CA" \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
		2>/dev/null &&
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$d/server.key" -out "$d/server.csr" -subj "/CN=pkg.example.test" 2>/dev/null &&
	printf '%s\n' "$san" basicConstraints=CA:FALSE keyUsage=digitalSignature \
		extendedKeyUsage=serverAuth > "$d/ext" &&
	openssl x509 -req -in "$d/server.csr" -CA "$LAB_CA" -CAkey "$d/ca.key" \
		-CAcreateserial -days 2 -extfile "$d/ext" -out "$d/server.pem" 2>/dev/null &&
	chmod 644 "$d/server.key" "$LAB_CA"
}

lab_files() {
	mkdir -p "$LAB/etc" "$LAB/www" "$LAB/home" || return 1
	chown "$TUID:$TGID" "$LAB/home"
	cat > "$LAB/etc/hosts" <<-'EOT'
	127.0.0.1	localhost
	::1	localhost
	192.0.2.10	pkg.example.test
	198.51.100.20	other.example.test
	203.0.113.30	mirror.example.test cdn.mirror.example.test a.mirror.example.test
	10.0.0.10	tenten.example.test
	127.0.0.1	rebind.example.test
	EOT
	echo "nameserver 192.0.2.53" > "$LAB/etc/resolv.conf"
	/usr/bin/python3 "$LAB_SRC/lab_content.py" "$LAB/www" pkg.example.test || return 1
	LAB_BIGSUM=$(cat "$LAB/www/big.sha256")
	lab_repo
}

# a dumb-HTTP git repository: one commit, info/refs written
lab_repo() {
	local src=$LAB/repo-src
	git init -q -b main "$src" && echo "nova-lab repo" > "$src/README" &&
	git -C "$src" add README &&
	git -C "$src" -c user.name=lab -c user.email=lab@example.test commit -qm lab &&
	git clone -q --bare "$src" "$LAB/www/repo.git" &&
	git -C "$LAB/www/repo.git" update-server-info
}

lab_net() {
	local a
	ip netns add "$LAB_NS" || return 1
	ip -n "$LAB_NS" link set lo up &&
	ip -n "$LAB_NS" link add lab0 type veth peer name lab1 &&
	ip -n "$LAB_NS" link set lab0 up && ip -n "$LAB_NS" link set lab1 up || return 1
	for a in $LAB_ADDRS; do
		ip -n "$LAB_NS" addr add "$a/32" dev lab0 || return 1
	done
}

# a server in the lab, in the background: $! is the server itself
lab_serve() {
	ip netns exec "$LAB_NS" "$@" </dev/null >>"$LAB/servers.err" 2>&1 \
		3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	LAB_PIDS+=($!)
}

lab_servers() {
	local i
	# shellcheck disable=SC2086
	lab_serve /usr/bin/python3 "$LAB_SRC/lab_server.py" --root "$LAB/www" --log "$LAB_LOG" \
		--cert "$LAB/pki/server.pem" --key "$LAB/pki/server.key" \
		--ready "$LAB/ready" $LAB_LISTEN
	lab_serve dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
		--addn-hosts="$LAB/etc/hosts" --bind-interfaces --listen-address=192.0.2.53 \
		--port=53 --user=root --pid-file=
	for i in $(seq 100); do
		[ -s "$LAB/ready" ] && return 0
		sleep 0.1
	done
	echo "netlab: the servers did not start: $(tail -3 "$LAB/servers.err")" >&2
	return 1
}

# remove a lab left by a shell that died unable to run its trap (KILL)
lab_reap_orphans() {
	local n p
	for n in $(ip netns list | sed -n 's/^\(nslab-[0-9][0-9]*\)\b.*/\1/p'); do
		p=${n#nslab-}
		[ -d "/proc/$p" ] && continue
		for q in $(ip netns pids "$n" 2>/dev/null); do kill -KILL "$q" 2>/dev/null; done
		ip netns del "$n" 2>/dev/null
		case "/var/tmp/nova-lab-$p" in /var/tmp/nova-lab-[0-9]*) rm -rf -- "/var/tmp/nova-lab-$p" ;; esac
	done
}

lab_up() {
	lab_reap_orphans
	rm -rf -- "$LAB"
	mkdir -m 755 "$LAB" || return 1
	: > "$LAB_LOG" && chmod 644 "$LAB_LOG"
	if ! { lab_net && lab_certs && lab_files && lab_servers; }; then
		echo "netlab: the lab could not be made" >&2
		lab_down
		return 1
	fi
}

lab_down() {
	local p q
	# anything still in the namespace (a server, a tool a case left)
	for q in $(ip netns pids "$LAB_NS" 2>/dev/null); do kill -TERM "$q" 2>/dev/null; done
	for p in "${LAB_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${LAB_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for q in $(ip netns pids "$LAB_NS" 2>/dev/null); do kill -KILL "$q" 2>/dev/null; done
	LAB_PIDS=()
	ip netns del "$LAB_NS" 2>/dev/null
	case "$LAB" in /var/tmp/nova-lab-[0-9]*) rm -rf -- "$LAB" ;; esac
	return 0
}

lab_left() {
	local n=${1:-$LAB_NS} d p
	d=/var/tmp/nova-lab-${n#nslab-}
	ip netns list | grep -qw "$n" && echo "namespace $n"
	[ -e "/run/netns/$n" ] && echo "/run/netns/$n"
	[ -e "$d" ] && echo "directory $d"
	for p in /proc/[0-9]*; do
		[ "$p" = "/proc/$$" ] || [ "$p" = "/proc/$BASHPID" ] && continue
		grep -qs -- "$d" "$p/mountinfo" && echo "a mount of $d in pid ${p#/proc/}"
		{ tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q -- "$d/\|$n\b" &&
			echo "process ${p#/proc/}: $({ tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | head -c 120)"
	done
	return 0
}

trap 'lab_down; _cleanup' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
