#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/deps.sh -- install the Debian 12 packages nova-sandbox builds and
# tests with, only those missing.  Uses sudo when not root.  `make fuzz`
# needs clang and its libFuzzer/sanitizer runtimes (libclang-rt-dev, only a
# Recommends of clang on Debian 12, so named here).  python3 and git: commands
# of the denial corpus (tests/denials/).  dpkg-dev, debhelper, lintian and
# devscripts (hardening-check): the packages' stage (infra/test-packages);
# abigail-tools and gcc-aarch64-linux-gnu: the ABI gate (tests/abi/).
# gcc-mingw-w64-x86-64 and wine64: `make windows` cross-builds jobobject.dll
# and its test programs, and `make check-windows` runs them under Wine
# (tests/windows/run.sh); patch applies Debian's iniparser patch to the
# Windows build's copy of it.  python3-venv and nodejs: the real
# toolchains --toolchain python and node are tested against (and a README
# recipe's venv; tests/integration/t_conv.sh, t_recipes.sh).
set -eu
PKGS="gcc make pkg-config libc6-dev libiniparser-dev libcunit1-dev \
libnftnl-dev libmnl-dev bubblewrap util-linux passwd nftables dnsmasq-base iproute2 \
clang libclang-rt-dev python3 python3-venv nodejs git \
dpkg-dev debhelper lintian devscripts abigail-tools gcc-aarch64-linux-gnu \
gcc-mingw-w64-x86-64 wine64 patch"
missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
echo "nova-sandbox: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
