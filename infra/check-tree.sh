#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-tree.sh -- the module loader refuses a module whose directory,
# or any directory above it, another user could modify (owned by someone
# other than root or you, or writable by group or other).  Say so up front,
# with the remedy, instead of letting every walled run refuse no_sandbox.
set -eu
d=$(cd "$(dirname "$0")/.." && pwd -P)
me=$(id -u)
while :; do
	owner=$(stat -c %u "$d")
	mode=$(stat -c %a "$d")
	gw=$(( (0$mode & 020) != 0 || (0$mode & 002) != 0 ))
	if { [ "$owner" != 0 ] && [ "$owner" != "$me" ]; } || [ "$gw" = 1 ]; then
		echo "nova-sandbox: $d (owner uid $owner, mode $mode) could be changed by another user;" >&2
		echo "the module loader refuses modules below it. Check the tree out under a directory" >&2
		echo "owned by you or root and not group/world-writable (not /tmp), e.g. ~/src." >&2
		exit 2
	fi
	[ "$d" = / ] && break
	d=$(dirname "$d")
done
