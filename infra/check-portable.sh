#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-portable.sh -- the darwin build, proven on Linux (`make
# check-portable`, part of `make check`; docs/MACOS.md).
#
# 1. Every source the darwin build compiles (the Makefile's own list with
#    HOST_OS=darwin, and the sources of the modules whose <m>_PLATFORMS
#    name Darwin), except host/os/darwin/ itself (it needs Apple's
#    headers), is compiled here with glibc in its POSIX mode and
#    infra/darwin_poison.h forced in: a call macOS lacks is a compile
#    error.  The Linux-only headers are refused by a stub include
#    directory, <linux/...> and <asm/...> by name, and a string naming
#    /proc outside host/os/ (a read of it at run time) by a text check.
# 2. Every function host/os/os.h declares is defined by each platform's
#    layer: darwin (os/darwin + os/posix), linux (os/linux + os/posix),
#    windows (os/windows), so no platform links with a seam missing.
#
# infra/portable-pending names the files known not to pass yet (another
# branch ports them): each listed file must still fail, or the list is
# stale and the check fails too; a failing file not listed fails.
# usage: infra/check-portable.sh [CC]   (MAKE from the environment)
set -eu
cd "$(dirname "$0")/.."
CC=${1:-${CC:-cc}}
MAKE=${MAKE:-make}
pending=infra/portable-pending
tmp=$(mktemp -d /tmp/nova-portable.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bad=0
say() { echo "check-portable: $*" >&2; bad=1; }

# Linux-only headers a darwin source may not include (each an #error)
for h in sys/prctl.h sys/sysinfo.h sys/statfs.h sys/vfs.h sys/epoll.h \
	sys/signalfd.h sys/timerfd.h sys/eventfd.h sys/inotify.h sys/fsuid.h \
	sys/sendfile.h sys/syscall.h sys/personality.h sys/auxv.h \
	sys/sysmacros.h sys/mount.h sys/capability.h sys/klog.h sys/fanotify.h \
	sys/xattr.h sys/quota.h sys/reboot.h mntent.h link.h elf.h error.h \
	argp.h malloc.h pty.h shadow.h crypt.h byteswap.h gnu/libc-version.h \
	sys/pidfd.h sys/rseq.h; do
	mkdir -p "$tmp/inc/$(dirname "$h")"
	printf '#error "<%s> is Linux-only: not on darwin (check-portable)"\n' \
		"$h" > "$tmp/inc/$h"
done

# the darwin build's sources, from the Makefile itself
srcs=$($MAKE -s --no-print-directory HOST_OS=darwin print-darwin-src)
[ -n "$srcs" ] || { echo "check-portable: no source list from make" >&2; exit 2; }
defs=$($MAKE -s --no-print-directory print-host-defs)
inicf=$($MAKE -s --no-print-directory print-iniparser-cflags)

is_pending() { grep -qxF "$1" "$pending" 2>/dev/null; }

n=0 nbad=0
for f in $srcs; do
	case $f in host/os/darwin/*) continue ;; esac
	n=$((n + 1))
	inc="-I$tmp/inc -Iapi -Iinfra"
	case $f in
	host/*) inc="$inc -Ihost $inicf" ;;
	modules/*) m=${f#modules/}; inc="$inc -Imodules -Imodules/${m%%/*}" ;;
	esac
	ok=1
	# shellcheck disable=SC2086
	if ! $CC -std=c11 -U_GNU_SOURCE -D_POSIX_C_SOURCE=200809L \
		-D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -Wall -Wextra -Werror \
		-Wno-unused-command-line-argument \
		-include infra/darwin_poison.h $inc $defs -fsyntax-only "$f" \
		> "$tmp/out" 2>&1; then
		ok=0
	fi
	if grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(linux\|asm\)/' \
		"$f" > "$tmp/lin"; then
		sed "s|^|$f:|; s|\$|: a Linux kernel header (not on darwin)|" \
			"$tmp/lin" >> "$tmp/out"
		ok=0
	fi
	# /proc read at run time (a string that names it; a line that only
	# compares names says so: "portable: a name")
	case $f in host/os/*) ;; *)
	if grep -n '"[^"]*/proc[/"]' "$f" | grep -v 'portable: a name' > "$tmp/proc"; then
		sed "s|^|$f:|; s|\$|: /proc (not on darwin)|" "$tmp/proc" >> "$tmp/out"
		ok=0
	fi ;;
	esac
	if [ $ok = 1 ]; then
		is_pending "$f" && say "$f compiles for darwin now: remove it from $pending"
		continue
	fi
	nbad=$((nbad + 1))
	if is_pending "$f"; then
		echo "check-portable: pending (another branch ports it): $f" >&2
		continue
	fi
	say "$f is not darwin-clean:"
	grep -E 'error|Linux|/proc' "$tmp/out" | head -12 | sed 's/^/    /' >&2
done
# the host headers outside os/ are included by those sources: none may
# name a Linux kernel header
for h in $(find host -name '*.h' ! -path 'host/os/*' | sort); do
	if grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(linux\|asm\)/' "$h"; then
		say "$h includes a Linux kernel header"
	fi
done
while IFS= read -r line; do
	case $line in '#'* | '' | 'seam '*) continue ;; esac
	[ -f "$line" ] || say "$pending names $line, which does not exist"
	case " $(echo $srcs) " in *" $line "*) ;; *)
		say "$pending names $line, which the darwin build does not compile" ;;
	esac
done < "$pending"

# ---- every seam of os.h defined by every platform's layer -------------
# the names os.h declares (comments stripped first)
$CC -fpreprocessed -dD -E -P host/os/os.h 2>/dev/null |
	tr '\n' ' ' | grep -o '[ *]os_[a-z0-9_]*[[:space:]]*(' |
	grep -o 'os_[a-z0-9_]*' | sort -u > "$tmp/decl"
[ -s "$tmp/decl" ] || { echo "check-portable: no declaration read from os.h" >&2; exit 2; }
for plat in darwin linux windows; do
	case $plat in
	windows) files=$(ls host/os/windows/*.c) ;;
	*) files=$(ls host/os/$plat/*.c host/os/posix/*.c) ;;
	esac
	# a definition: the name at the start of a line (the house style puts
	# the type on the line above) or after the type, not a prototype
	# shellcheck disable=SC2086
	cat $files | grep -o '^\([a-z_0-9 ]*[ *]\)\{0,1\}os_[a-z0-9_]*(' |
		grep -o 'os_[a-z0-9_]*' | sort -u > "$tmp/def.$plat"
	sed -n "s/^seam $plat //p" "$pending" | sort -u > "$tmp/pend.$plat"
	missing=$(comm -23 "$tmp/decl" "$tmp/def.$plat" |
		comm -23 - "$tmp/pend.$plat")
	[ -z "$missing" ] ||
		say "host/os/$plat has no definition of: $(echo $missing)"
	stale=$(comm -12 "$tmp/pend.$plat" "$tmp/def.$plat")
	[ -z "$stale" ] ||
		say "host/os/$plat defines $(echo $stale) now: remove its seam line from $pending"
done

if [ $bad = 0 ]; then
	echo "check-portable: $n darwin sources compile without a Linux-only call ($nbad pending in $pending); every os.h seam is defined for darwin, linux and windows"
fi
exit $bad
