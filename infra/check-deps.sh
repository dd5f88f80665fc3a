#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-deps.sh -- the package groups of infra/deps.sh hold what the
# README says of them (section "Set-up on a fresh Debian 12 machine"):
#   - infra/demo calls infra/deps.sh once, naming the build group only, and
#     what that call would install is the build group's packages, none of
#     another group's;
#   - infra/test calls it once, naming all, and that is every group's
#     packages;
#   - every group has packages, each named once in it, each a well-formed
#     Debian package name that dpkg or apt knows, and none of the build
#     group's named again in another group (every group brings it);
#   - an unknown group is refused (exit 2) with a line naming the groups;
#   - every Build-Depends of debian/control is in the build or the packages
#     group (dpkg-buildpackage checks them);
#   - the README's table of the groups names each group's packages as
#     infra/deps.sh does.
# Installs nothing.  Lists each problem; exits 1 when there is one.
# usage: infra/check-deps.sh [top]   (default: this checkout)
set -eu
TOP=$(cd "${1:-$(dirname "$0")/..}" && pwd)
DEPS="$TOP/infra/deps.sh"
bad=0
say() { echo "check-deps: $*" >&2; bad=1; }
GROUPS_ALL="build test fuzz windows packages"

# the arguments of every infra/deps.sh call in a script (comments skipped),
# one call a line; a call without arguments (all groups) is "(none)"
calls() {
	sed -e 's/#.*//' "$1" | grep 'infra/deps\.sh' |
		sed -e 's/.*infra\/deps\.sh//' -e 's/^ *//' -e 's/ *$//' \
		    -e 's/^$/(none)/' || true
}
# sorted, one a line
sorted() { tr ' ' '\n' | sed '/^$/d' | sort; }

for g in $GROUPS_ALL; do
	raw=$(sh "$DEPS" --raw "$g") || { say "infra/deps.sh --raw $g fails"; continue; }
	[ -n "$raw" ] || say "group $g has no packages"
	dup=$(printf '%s\n' "$raw" | sort | uniq -d | tr '\n' ' ')
	[ -z "$dup" ] || say "group $g names a package twice: $dup"
	for p in $raw; do
		printf '%s\n' "$p" | grep -qE '^[a-z0-9][a-z0-9+.-]+$' ||
			{ say "group $g: '$p' is no Debian package name"; continue; }
		dpkg-query -W "$p" >/dev/null 2>&1 && continue
		dpkg-query -W -f='${Provides}\n' 2>/dev/null | tr ',' '\n' |
			sed 's/(.*//; s/ //g; s/:.*//' | grep -qxF "$p" && continue
		apt-cache show "$p" >/dev/null 2>&1 && continue
		say "group $g: neither dpkg nor apt knows the package $p"
	done
	if [ "$g" != build ]; then
		for p in $raw; do
			sh "$DEPS" --raw build | grep -qxF "$p" &&
				say "group $g names $p of the build group again (every group brings it)"
		done
	fi
done

# an unknown group is refused, naming the groups
if err=$(sh "$DEPS" --list no-such-group 2>&1 >/dev/null); then
	say "infra/deps.sh --list no-such-group was accepted"
else
	rc=$?
	[ "$rc" = 2 ] || say "infra/deps.sh refused an unknown group with exit $rc, not 2"
	for g in $GROUPS_ALL all; do
		printf '%s\n' "$err" | grep -q " $g\b" ||
			say "the refusal of an unknown group does not name the group $g: $err"
	done
fi

# infra/demo: the build group only
demo=$(calls "$TOP/infra/demo")
if [ "$(printf '%s\n' "$demo" | sed '/^$/d' | wc -l)" != 1 ]; then
	say "infra/demo must call infra/deps.sh once, naming the build group; its calls: $(printf '%s' "$demo" | tr '\n' ';')"
fi
for args in $(printf '%s\n' "$demo" | tr ' ' '_'); do
	args=$(printf '%s' "$args" | tr '_' ' ')
	[ "$args" = build ] || say "infra/demo calls infra/deps.sh '$args', not 'build'"
	[ "$args" = "(none)" ] && args=""
	# shellcheck disable=SC2086
	got=$(sh "$DEPS" --list $args 2>&1 | sorted) || true
	want=$(sh "$DEPS" --raw build | sorted)
	[ "$got" = "$want" ] ||
		say "infra/demo's call installs $(printf '%s' "$got" | tr '\n' ' '), not the build group's $(printf '%s' "$want" | tr '\n' ' ')"
	for g in test fuzz windows packages; do
		for p in $(sh "$DEPS" --raw "$g"); do
			printf '%s\n' "$got" | grep -qxF "$p" &&
				say "infra/demo's call installs $p of the $g group"
		done
	done
done

# infra/test: everything
t=$(calls "$TOP/infra/test")
[ "$t" = all ] || say "infra/test must call infra/deps.sh once, naming all; its calls: $(printf '%s' "$t" | tr '\n' ';')"
got=$(sh "$DEPS" --list all | sorted)
for g in $GROUPS_ALL; do
	for p in $(sh "$DEPS" --raw "$g"); do
		printf '%s\n' "$got" | grep -qxF "$p" || say "infra/deps.sh all does not install $p of the $g group"
	done
done

# debian/control's Build-Depends: in the build or the packages group
bd=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$TOP/debian/control" | sed -e 's/^Build-Depends://' -e '/^[A-Z]/d' |
	tr ',' '\n' | sed -e 's/(.*)//' -e 's/^ *//' -e 's/ *$//' | sed '/^$/d')
have=$( (sh "$DEPS" --raw build; sh "$DEPS" --raw packages) | sort -u)
printf '%s\n' "$bd" | while IFS= read -r alt; do
	case "$alt" in debhelper-compat*) alt=debhelper ;; esac
	ok=0
	for p in $(printf '%s' "$alt" | tr '|' ' '); do
		printf '%s\n' "$have" | grep -qxF "$p" && ok=1
	done
	[ "$ok" = 1 ] || { echo "check-deps: debian/control's Build-Depends '$alt' is in neither the build nor the packages group" >&2; exit 1; }
done || bad=1

# the README's table: "| group | packages | installed by |"
for g in $GROUPS_ALL; do
	row=$(sed -n "s/^| $g | \([^|]*\) |.*/\1/p" "$TOP/README.md" | sorted)
	want=$(sh "$DEPS" --raw "$g" | sorted)
	[ "$row" = "$want" ] ||
		say "README.md's table names for the group $g: $(printf '%s' "$row" | tr '\n' ' '); infra/deps.sh: $(printf '%s' "$want" | tr '\n' ' ')"
done

[ "$bad" -eq 0 ] && echo "check-deps: infra/demo installs the build group only, infra/test every group; each group's packages distinct and known"
exit "$bad"
