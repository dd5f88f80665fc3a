#!/bin/sh
# SPDX-License-Identifier: MIT
# infra/check-docs.sh -- the docs name what the built binary has:
#   1. every flag (--xxx) a man page (docs/man/*) or README.md names is one
#      that `nova-sandbox help`, `help <verb>` or `<verb> -h` names, or is
#      another program's flag listed below, with that program, for that file;
#   2. every flag of a `nova-sandbox help` usage line is in the SYNOPSIS of
#      nova-sandbox(1), under the same verb (policy's "wrap flags" are the
#      bare form's);
#   3. every README section named as README "<title>" (in README.md,
#      docs/man, debian, conf, infra) is a heading of README.md.
# Lists each problem with the file (and line) that names it; exits 1 when
# there is one.
# usage: infra/check-docs.sh [builddir [top]]   (default: build, this checkout)
set -eu
TOP=$(cd "${2:-$(dirname "$0")/..}" && pwd)
NS=$(cd "${1:-$TOP/build}" && pwd)/bin/nova-sandbox
[ -x "$NS" ] || { echo "check-docs: $NS is not built (make)" >&2; exit 2; }
bad=0
say() { echo "check-docs: $*" >&2; bad=1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/nova-check-docs.XXXXXX")
trap 'rm -rf "$W"' EXIT

# Other programs' flags the docs name: file, flag, the program that owns it.
# An entry no longer named by its file is stale and fails the check.
cat > "$W/other" <<'EOF'
README.md --reuid setpriv(1)
README.md --regid setpriv(1)
README.md --clear-groups setpriv(1)
README.md --copies python3 -m venv
README.md --ro-bind bwrap(1)
README.md --noprofile firejail(1)
README.md --porcelain git status
README.md --quick tests/bench/run.sh
README.md --list infra/deps.sh
README.md --missing infra/deps.sh
docs/man/nova-sandbox.1 --print rustc
docs/man/ns_backend.3 --cflags pkg-config(1)
docs/man/ns_backend.3 --variable pkg-config(1)
EOF

flags() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
# roff to text: \- is -, font changes and \& go
unroff() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\&//g' "$1"; }

# ---- 1. every flag a doc names exists ----------------------------------------
"$NS" help > "$W/help" 2>&1 || true
verbs=$(sed -n '/^usage:/,/^$/s/^  nova-sandbox \([a-z][a-z-]*\).*/\1/p' "$W/help" | sort -u)
for v in $verbs; do
	"$NS" help "$v" 2>&1 || true
	"$NS" "$v" -h 2>&1 || true
done > "$W/verbs" </dev/null
cat "$W/help" "$W/verbs" | flags > "$W/known"
[ -s "$W/known" ] || say "$NS help names no flag"

for f in docs/man/*.[1-9] README.md; do
	[ -f "$TOP/$f" ] || continue
	case "$f" in *.md) cat "$TOP/$f" ;; *) unroff "$TOP/$f" ;; esac > "$W/text"
	for fl in $(flags < "$W/text"); do
		grep -qxF -- "$fl" "$W/known" && continue
		grep -q "^$f $fl " "$W/other" && continue
		at=$(grep -nE -- "$fl([^a-z0-9-]|\$)" "$W/text" | cut -d: -f1 | head -3 | tr '\n' ',' | sed 's/,$//')
		say "$f:$at names $fl, which no nova-sandbox help names (help, help <verb>, <verb> -h; another program's flag goes in infra/check-docs.sh's list with its program)"
	done
done
while read -r f fl prog; do
	if [ ! -f "$TOP/$f" ]; then
		say "the list of other programs' flags names $f, which is not there"
		continue
	fi
	case "$f" in *.md) cat "$TOP/$f" ;; *) unroff "$TOP/$f" ;; esac |
		flags | grep -qxF -- "$fl" ||
		say "the list of other programs' flags has $fl ($prog) for $f, which no longer names it: drop the entry"
done < "$W/other"

# ---- 2. help's usage lines against nova-sandbox(1)'s SYNOPSIS ------------------
# one line per form: "<key><TAB><flags...>"; key is the verb ("egress plan"
# for egress's sub-verbs), "wrap" for the bare form
sed -n '/^usage:/,/^$/p' "$W/help" | awk '
	/^  nova-sandbox/ { if (cur != "") print cur; cur = $0; next }
	/^   / { cur = cur " " $0; next }
	END { if (cur != "") print cur }' > "$W/help-forms"
unroff "$TOP/docs/man/nova-sandbox.1" | sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' | awk '
	/^\.(SY|YS|PP|SH)/ { if (cur != "") print cur; cur = ""
		sub(/^\.(SY|YS|PP|SH)[ ]*/, ""); if ($0 == "") next }
	{ sub(/^\.[A-Z]+[ ]*/, ""); gsub(/"/, ""); cur = cur " " $0 }
	END { if (cur != "") print cur }' |
	sed -n 's/^ *\(nova-sandbox .*\)/\1/p' > "$W/man-forms"
# key of a form: the word after nova-sandbox, egress with its sub-verb
keyed() {
	while IFS= read -r line; do
		set -f
		# shellcheck disable=SC2086
		set -- $line
		set +f
		case "${2:-}" in
		-* | "[" | "[-"*) k=wrap ;;
		egress) k="egress_${3:-}" ;;
		*) k=$2 ;;
		esac
		printf '%s\t%s\n' "$k" "$line"
	done
}
keyed < "$W/help-forms" > "$W/help-keyed"
keyed < "$W/man-forms" > "$W/man-keyed"
# shellcheck disable=SC2013 # a key is one word
for k in $(cut -f1 "$W/help-keyed" | sort -u); do
	grep "^$k	" "$W/man-keyed" | cut -f2 > "$W/man-k" || true
	if [ ! -s "$W/man-k" ]; then
		say "docs/man/nova-sandbox.1 SYNOPSIS has no form of nova-sandbox $(echo "$k" | tr _ ' '), which nova-sandbox help names"
		continue
	fi
	# policy takes the bare form's flags ("wrap flags")
	grep -q 'wrap flags' "$W/man-k" && grep "^wrap	" "$W/man-keyed" | cut -f2 >> "$W/man-k"
	have=$(flags < "$W/man-k")
	for fl in $(grep "^$k	" "$W/help-keyed" | cut -f2 | flags); do
		[ "$fl" = --help ] && continue # the SYNOPSIS's own "verb -h | --help" form
		printf '%s\n' "$have" | grep -qxF -- "$fl" ||
			say "docs/man/nova-sandbox.1 SYNOPSIS of nova-sandbox $(echo "$k" | sed 's/^wrap$/(the bare form)/' | tr _ ' ') lacks $fl, which nova-sandbox help names for it"
	done
done

# ---- 3. README "<section>" names a heading of README.md ------------------------
sed -n 's/^##* *//p' "$TOP/README.md" > "$W/headings"
for f in README.md docs/man/* debian/* conf/* infra/*; do
	[ -f "$TOP/$f" ] || continue
	# comment leaders and line breaks joined: a name may wrap
	sed -e 's/^[#;.]*[ \t]*//' -e 's/\\-/-/g' "$TOP/$f" | tr '\n' ' ' |
		grep -oE 'README(\.md)?,? +(section +)?"[^"]+"|section +"[^"]+"' |
		sed 's/.*"\([^"]*\)"/\1/' | grep -v '^<' | sort -u | while IFS= read -r title; do
		grep -qF -- "$title" "$W/headings" ||
			echo "check-docs: $f names the README section \"$title\", which README.md has no heading for" >&2
	done
done 2> "$W/sections"
[ -s "$W/sections" ] && { cat "$W/sections" >&2; bad=1; }

[ "$bad" -eq 0 ] && echo "check-docs: every flag the man pages and the README name is nova-sandbox's (or listed as another program's), nova-sandbox(1)'s SYNOPSIS has every flag of help's usage, every README section named exists"
exit "$bad"
