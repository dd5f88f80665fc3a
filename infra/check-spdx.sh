#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-spdx.sh -- every source file (.c .h .sh .mk, Makefiles, shell
# scripts) carries "SPDX-License-Identifier: MIT" in its first three lines
# (LICENSE).  Lists each one that does not; exits 1 when there is one.
# third_party/ holds upstream sources as they came (their own licence
# files say theirs).  Run from the top of a git checkout.
set -eu
bad=0
for f in $(git ls-files); do
	case "$f" in
	third_party/*) continue ;; # upstream's own files, kept as they came
	*.c|*.h|*.sh|*.mk|Makefile|*/Makefile|debian/rules) ;;
	*) head -c2 "$f" 2>/dev/null | grep -q '^#!' || continue ;;
	esac
	if ! head -n3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
		echo "check-spdx: $f has no SPDX-License-Identifier: MIT line" >&2
		bad=1
	fi
done
[ "$bad" -eq 0 ] && echo "check-spdx: every source file says MIT"
exit "$bad"
