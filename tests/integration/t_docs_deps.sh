#!/bin/bash
# SPDX-License-Identifier: MIT
# t_docs_deps.sh -- the two checks `make check` runs on the docs and the
# set-up, each on a copy of the tree it is made to fail on (and passing on
# the tree as it is, the control):
#   infra/check-deps.sh: infra/demo installs infra/deps.sh's build group
#     only, infra/test all groups, each group's names distinct and known;
#     deps.sh refuses an unknown group naming the groups;
#   infra/check-docs.sh: every flag the man pages and the README name is in
#     the built binary's help, nova-sandbox(1)'s SYNOPSIS has every flag of
#     help's usage lines, every README section named exists.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# a copy of what the checks read, in a fresh directory: $C
copy() {
	C=$(newdir)
	mkdir -p "$C/infra" "$C/debian" "$C/docs"
	cp "$ROOT"/infra/deps.sh "$ROOT"/infra/demo "$ROOT"/infra/test \
		"$ROOT"/infra/check-deps.sh "$ROOT"/infra/check-docs.sh "$C/infra/"
	cp "$ROOT"/debian/control "$ROOT"/debian/rules "$C/debian/"
	cp -R "$ROOT/docs/man" "$C/docs/"
	cp -R "$ROOT/conf" "$C/"
	cp "$ROOT/README.md" "$C/"
}

t "check-deps: the tree passes (control)" <<'EOF'
copy
run "$ROOT/infra/check-deps.sh" "$C"
expect_rc 0
expect_out '^check-deps: infra/demo installs the build group only'
EOF

t "check-deps: a demo that installs every group fails, naming its call and a test package" <<'EOF'
copy
sed -i 's|infra/deps.sh build$|infra/deps.sh all|' "$C/infra/demo"
grep -q 'infra/deps.sh all$' "$C/infra/demo" || _fail "the demo's call was not changed"
run "$ROOT/infra/check-deps.sh" "$C"
expect_rc 1
expect_err "^check-deps: infra/demo calls infra/deps.sh 'all', not 'build'"
expect_err '^check-deps: infra/demo.s call installs libcunit1-dev of the test group'
EOF

t "check-deps: a demo calling deps.sh without a group (every group) fails" <<'EOF'
copy
sed -i 's|infra/deps.sh build$|infra/deps.sh|' "$C/infra/demo"
run "$ROOT/infra/check-deps.sh" "$C"
expect_rc 1
expect_err "^check-deps: infra/demo calls infra/deps.sh '\(none\)', not 'build'"
EOF

t "check-deps: a group naming a package twice, or one nobody knows, fails" <<'EOF'
copy
sed -i 's|fuzz) echo clang libclang-rt-dev|fuzz) echo clang libclang-rt-dev clang no-such-package-xq|' "$C/infra/deps.sh"
run "$ROOT/infra/check-deps.sh" "$C"
expect_rc 1
expect_err '^check-deps: group fuzz names a package twice: clang'
expect_err '^check-deps: group fuzz: neither dpkg nor apt knows the package no-such-package-xq'
EOF

t "deps.sh: an unknown group is refused with the groups named, nothing installed; --list build is the build group" <<'EOF'
run "$ROOT/infra/deps.sh" tset
expect_rc 2
expect_err "^infra/deps.sh: unknown group 'tset'; the groups are: build test fuzz windows packages all\$"
run "$ROOT/infra/deps.sh" --list build
expect_rc 0
expect_eq "$(tr '\n' ' ' < "$OUT")" "gcc make libc6-dev libiniparser-dev libnftnl-dev libmnl-dev util-linux passwd " "the build group"
run "$ROOT/infra/deps.sh" --list test
expect_out '^gcc$'
expect_out '^libcunit1-dev$'
EOF

t "check-docs: the tree passes (control)" <<'EOF'
copy
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 0
expect_out '^check-docs: every flag'
EOF

t "check-docs: a man page naming a flag the tool lacks fails, naming the page, line and flag" <<'EOF'
copy
sed -i 's|^for another install prefix; a file named by the environment variable$|for another install prefix; a file named by\n.B \\-\\-config\nor the environment variable|' \
	"$C/docs/man/nova-sandbox.conf.5"
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 1
expect_err '^check-docs: docs/man/nova-sandbox.conf.5:13 names --config, which no nova-sandbox help names'
EOF

t "check-docs: another program's flag passes only from its list; a stale entry fails" <<'EOF'
copy
sed -i 's|python3 -m venv --copies`|python3 -m venv --copies --frob`|' "$C/README.md"
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 1
expect_err '^check-docs: README.md:[0-9]+ names --frob, which'
expect_no_err 'names --copies'
copy
sed -i 's|git status --porcelain|git status -s|' "$C/README.md"
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 1
expect_err '^check-docs: the list of other programs. flags has --porcelain \(git status\) for README.md, which no longer names it'
EOF

t "check-docs: a flag help's usage names and nova-sandbox(1)'s SYNOPSIS lacks fails, naming the verb" <<'EOF'
copy
# the SYNOPSIS of probe without --explain
awk '/^\.B probe$/ { p = 1 } p && /^\.RB \[ \\-\\-explain \]$/ { p = 0; next } { print }' \
	"$ROOT/docs/man/nova-sandbox.1" > "$C/docs/man/nova-sandbox.1"
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 1
expect_err '^check-docs: docs/man/nova-sandbox.1 SYNOPSIS of nova-sandbox probe lacks --explain, which nova-sandbox help names for it$'
EOF

t "check-docs: a README section named that README.md does not have fails" <<'EOF'
copy
sed -i 's|(README "Set-up on a fresh Debian 12 machine" and|(README "Testing" and|' "$C/debian/rules"
run "$ROOT/infra/check-docs.sh" "$NOVA_B" "$C"
expect_rc 1
expect_err '^check-docs: debian/rules names the README section "Testing", which README.md has no heading for$'
EOF
