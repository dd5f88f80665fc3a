#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/deps.sh -- install the Debian 12 packages a stage of nova-sandbox
# needs, only those missing.  Uses sudo when not root.
#
# usage: infra/deps.sh [--list | --missing] [GROUP ...]
#        infra/deps.sh --raw GROUP
#   GROUP is one of the groups below, or all (every group); no GROUP is all.
#   Every group brings the build group with it (nothing is tested unbuilt).
#   --list     print the packages of the named groups, one a line; install
#              nothing
#   --missing  print those of them not installed here; install nothing
#   --raw      print one group's own packages as written here, without the
#              build group and without merging (infra/check-deps.sh)
# A package counts as installed when it is, or when an installed package
# Provides it (NodeSource's nodejs provides npm).
#
# The groups, and who needs each package (README "Set-up on a fresh
# Debian 12 machine" says which command installs which):
#   build     `make` (the binary, the modules, the test programs; the
#             headers and libraries `make all` compiles against: libc6-dev
#             (with linux-libc-dev), gcc's own, iniparser, libnftnl and
#             libmnl; nothing else), and infra/demo's setpriv (util-linux)
#             and useradd (passwd).  infra/demo installs this group only.
#   test      `make check`, `make asan` and `make bench-quick`: CUnit (unit
#             suites); pkg-config (t_bwrap builds the example wall with it);
#             bubblewrap (the example wall's bwrap); nftables, dnsmasq-base
#             and iproute2 (the egress tests, t_recipes); procps (ps, pgrep,
#             pkill, sysctl in the integration and attack suites); python3,
#             python3-venv, nodejs, npm and git (--toolchain's real
#             toolchains, a README recipe's venv, t_tcleak's npm, the denial
#             corpus's commands); openssl, curl and python3-pip (the
#             --net-allow lab, tests/helpers/netlab.sh and t_netallow_lab:
#             its CA and certificates, s_client's SNI case, the curl and
#             pip download clients; curl also tests/bench/netallow.sh);
#             abigail-tools and gcc-aarch64-linux-gnu
#             (the ABI gate, tests/abi/); devscripts (t_install's
#             hardening-check).
#   fuzz      `make fuzz` and infra/test's clang build: clang and its
#             libFuzzer/sanitizer runtimes (libclang-rt-dev, only a
#             Recommends of clang on Debian 12, so named here).
#   windows   `make windows` and `make check-windows`: mingw-w64 cross-builds
#             jobobject.dll and the Wine test programs, wine64 and wine (the
#             `wine` command) run them (tests/windows/run.sh); patch applies
#             Debian's iniparser patch to the Windows build's copy of it.
#   packages  infra/test-packages: dpkg-buildpackage (dpkg-dev) with
#             debian/control's Build-Depends (debhelper, pkg-config), lintian,
#             hardening-check (devscripts).
# infra/test installs all of them.
set -eu

GROUPS_KNOWN="build test fuzz windows packages"
# group_pkgs GROUP -- the packages of one group
group_pkgs() {
	case "$1" in
	build) echo gcc make libc6-dev libiniparser-dev libnftnl-dev libmnl-dev \
		util-linux passwd ;;
	test) echo libcunit1-dev pkg-config bubblewrap nftables dnsmasq-base \
		iproute2 procps python3 python3-venv nodejs npm git openssl curl \
		python3-pip abigail-tools \
		gcc-aarch64-linux-gnu devscripts ;;
	fuzz) echo clang libclang-rt-dev ;;
	windows) echo gcc-mingw-w64-x86-64 wine64 wine patch ;;
	packages) echo dpkg-dev debhelper pkg-config lintian devscripts ;;
	esac
}

refuse() {
	echo "infra/deps.sh: $*; the groups are: $GROUPS_KNOWN all" >&2
	exit 2
}

mode=install
case "${1:-}" in
--list) mode=list; shift ;;
--missing) mode=missing; shift ;;
--raw)
	case " $GROUPS_KNOWN " in
	*" ${2:-} "*) [ $# -eq 2 ] || refuse "--raw takes one group" ;;
	*) refuse "--raw takes one group, not '${2:-}'" ;;
	esac
	for p in $(group_pkgs "$2"); do echo "$p"; done
	exit 0 ;;
-*) refuse "unknown option $1 (it takes --list, --missing or --raw, then groups)" ;;
esac
[ $# -gt 0 ] || set -- all

# the named groups, build first, each once
want="build"
for g in "$@"; do
	case " $GROUPS_KNOWN all " in
	*" $g "*) ;;
	*) refuse "unknown group '$g'" ;;
	esac
	[ "$g" = all ] && g=$GROUPS_KNOWN
	for one in $g; do
		case " $want " in *" $one "*) ;; *) want="$want $one" ;; esac
	done
done

# their packages, each once, in the groups' order
pkgs=""
for g in $want; do
	for p in $(group_pkgs "$g"); do
		case " $pkgs " in *" $p "*) ;; *) pkgs="$pkgs $p" ;; esac
	done
done

if [ "$mode" = list ]; then
	for p in $pkgs; do echo "$p"; done
	exit 0
fi

# every name an installed package provides (versions and spaces cut)
provided=$(dpkg-query -W -f='${db:Status-Abbrev}|${Provides}\n' 2>/dev/null |
	sed -n 's/^ii *|//p' | tr ',' '\n' | sed 's/(.*//; s/^ *//; s/ *$//; s/:.*//' |
	sort -u)
missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") continue ;;
	esac
	printf '%s\n' "$provided" | grep -qxF "$p" && continue
	missing="$missing $p"
done
if [ "$mode" = missing ]; then
	for p in $missing; do echo "$p"; done
	exit 0
fi
[ -z "$missing" ] && exit 0
echo "nova-sandbox: installing the missing Debian packages of the groups $want:$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
