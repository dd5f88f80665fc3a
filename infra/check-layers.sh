#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-layers.sh -- host/ is rooms, each including only itself and
# the rooms below it (docs/ARCHITECTURE.md).  Fails, naming the file, line
# and the include, when an #include climbs the order, reaches into a
# module, or names a file by a relative path; when a room's header
# declares a function a room above it defines (the header, the function,
# the file that defines it); when a file outside
# host/os/ tests for a platform; when a room writes a line itself
# (out_line() outside base/, where every line kind is spelled); and when
# it reads the environment by
# getenv() or environ (Windows: the C runtime's ANSI copy, where a
# non-ASCII value is mangled; os_getenv and hostrun's env are UTF-8 --
# a line marked "layers: ascii getenv" reads a value that is ASCII only).  `make check-layers`; part of `make check`.
set -eu
cd "$(dirname "$0")/.."

# bottom first; main.c (host/ itself) sits above every room
ROOMS="base os proc conf module policy egress net wall run verbs"

rank() {
	i=0
	for r in $ROOMS; do
		[ "$r" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}

bad=0
say() { echo "check-layers: $*" >&2; bad=1; }

for f in $(find host -name '*.[ch]' | sort); do
	rel=${f#host/}
	case $rel in
	*/*) room=${rel%%/*} ;;
	*) room=top ;;
	esac
	if [ "$room" = top ]; then mine=100; else mine=$(rank "$room"); fi
	[ "$mine" = 99 ] && say "$f: host/$room/ is not a room ($ROOMS)"
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' | {
	fail=0
	while read -r line inc; do
		case $inc in
		*..*) echo "check-layers: $f:$line: \"$inc\" climbs by a relative path; name the room" >&2; fail=1; continue ;;
		banned.h) continue ;;
		ns_*.h) [ -f "api/$inc" ] && continue
			echo "check-layers: $f:$line: \"$inc\" is not a public header in api/" >&2; fail=1; continue ;;
		*/*) ;;
		*) echo "check-layers: $f:$line: \"$inc\" names no room; write \"<room>/$inc\"" >&2; fail=1; continue ;;
		esac
		to=${inc%%/*}
		r=$(rank "$to")
		if [ "$r" = 99 ]; then
			echo "check-layers: $f:$line: \"$inc\" is in no room of host/ ($ROOMS)" >&2; fail=1
		elif [ "$r" -gt "$mine" ]; then
			echo "check-layers: $f:$line: $room/ includes \"$inc\", a room above it" >&2; fail=1
		fi
		[ -f "host/$inc" ] || { echo "check-layers: $f:$line: host/$inc does not exist" >&2; fail=1; }
	done
	exit $fail
	} || bad=1
	case $rel in
	os/*) ;;
	*) if grep -n '^[[:space:]]*#[[:space:]]*\(if\|elif\|ifdef\|ifndef\).*\(_WIN32\|__APPLE__\|__linux__\|__MACH__\)' "$f" >/dev/null; then
		say "$f: tests for a platform outside host/os/: $(grep -n '_WIN32\|__APPLE__\|__linux__\|__MACH__' "$f" | head -1)"
	   fi
	   if grep -n '\(^\|[^_a-z]\)\(getenv[[:space:]]*(\|environ\b\)' "$f" |
		grep -v 'layers: ascii getenv' | grep -v '^[0-9]*:[[:space:]]*\(/\*\|\*\)' >"${TMPDIR:-/tmp}/layers.$$"; then
		say "$f: reads the environment by getenv/environ (Windows: ANSI, not UTF-8); use os_getenv or hostrun's env: $(head -1 "${TMPDIR:-/tmp}/layers.$$")"
	   fi
	   rm -f "${TMPDIR:-/tmp}/layers.$$" ;;
	esac
done

# A room's header declares only what its own room or a lower one defines:
# a declaration whose definition sits in a higher room is an arrow that
# runs up, hidden from the include check.  Definitions are read in the
# house style (the name at the start of its line, then "("; static ones,
# whose type line opens with "static", are left out); declarations
# are a header's unindented lines that open with a type and name a
# function.
defs="${TMPDIR:-/tmp}/layers-defs.$$"
for f in $(find host -name '*.c' | sort); do
	rel=${f#host/}
	case $rel in */*) room=${rel%%/*} ;; *) room=top ;; esac
	# a static definition (its type on the line before) is the file's own
	awk -v room="$room" -v f="$f" '
		/^[A-Za-z_][A-Za-z0-9_]*\(/ && prev !~ /^static/ {
			n = $0; sub(/\(.*/, "", n); print n, room, f }
		{ prev = $0 }' "$f"
done >"$defs"
for h in $(find host -name '*.h' | sort); do
	rel=${h#host/}
	case $rel in */*) room=${rel%%/*} ;; *) continue ;; esac
	mine=$(rank "$room")
	for fn in $(grep -v '^[[:space:]]' "$h" | grep -v '^\(#\|/\*\|\*\)' |
		sed -n 's/^[A-Za-z_][A-Za-z0-9_ ]*[ *]\**\([a-z_][a-z0-9_]*\)(.*/\1/p' |
		sort -u); do
		grep "^$fn " "$defs" | while read -r _ droom df; do
			if [ "$droom" = top ]; then r=100; else r=$(rank "$droom"); fi
			if [ "$r" -gt "$mine" ]; then
				echo "check-layers: $h declares $fn(), defined in $df: $droom/ is above $room/; declare it in $droom/, or define it in $room/ or below" >&2
				echo x
			fi
		done
	done
done >"$defs.up"
[ -s "$defs.up" ] && bad=1

# Every line kind is spelled in base/out.c (out_kind, out_note,
# out_refused, out_usage...): a room that writes its own line with
# out_line() would spell a kind beside the table.
grep -rn '\<out_line(' host --include='*.c' | grep -v '^host/base/' |
	while IFS=: read -r f n _; do
		echo "check-layers: $f:$n: out_line() outside base/: spell the line through base/out.c (out_kind and its table of kinds)" >&2
		echo x
	done >"$defs.up"
[ -s "$defs.up" ] && bad=1
rm -f "$defs" "$defs.up"

[ $bad = 0 ] && echo "check-layers: host/ includes only downward ($ROOMS, main.c), no room writes a line itself, and no room's header declares what a room above it defines"
exit $bad
