#!/bin/bash
# SPDX-License-Identifier: MIT
# t_install.sh -- make install / install-strip / uninstall into a stage
# (DESTDIR), with the build under test: where each file goes (SYSCONFDIR is
# /etc under PREFIX=/usr, modules in <libdir>/nova-sandbox/<ABI major>/ with
# their drop-ins), an existing config is never overwritten, uninstall takes
# back what install put (a changed config stays), install-strip strips; and
# the build is hardened (hardening-check), where a HARDEN=0 build is not.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STAGE="$NOVA_B/stage-install"
rm -rf -- "$STAGE"
mkdir -p -m 0755 "$STAGE"
echo "$STAGE" >> "$_DIRS"
MAJOR=$(sed -n 's/^#define NS_BACKEND_ABI_MAJOR //p' "$ROOT/api/ns_backend.h")

# the Makefile on the build under test (never rebuilt with other flags)
mk() {
	run make -C "$ROOT" B="$NOVA_B" -o "$NOVA_B/.flags" \
		-o "$NOVA_B/bin/nova-sandbox" "$@"
}

t "PREFIX=/usr: /etc config, drop-ins, modules by ABI major, man pages, completion, docs" <<'EOF'
S="$STAGE/a"
mk install DESTDIR="$S" PREFIX=/usr
expect_rc 0
for f in etc/nova-sandbox/nova-sandbox.conf etc/nova-sandbox/conf.d/landlock.conf \
	etc/nova-sandbox/conf.d/nsplace.conf etc/nova-sandbox/conf.d/nftegress.conf \
	usr/bin/nova-sandbox "usr/lib/nova-sandbox/$MAJOR/landlock.so" \
	usr/include/nova-sandbox/ns_backend.h usr/lib/pkgconfig/nova-sandbox.pc \
	usr/share/man/man1/nova-sandbox.1 usr/share/man/man5/nova-sandbox.conf.5 \
	usr/share/man/man3/ns_backend.3 usr/share/bash-completion/completions/nova-sandbox \
	usr/share/zsh/site-functions/_nova-sandbox usr/share/doc/nova-sandbox/ABI.md \
	usr/share/doc/nova-sandbox/examples/bwrap/bwrap_wall.c; do
	expect_present "$S/$f"
done
expect_absent "$S/usr/etc"
expect_eq "$(stat -c %a "$S/etc/nova-sandbox/nova-sandbox.conf")" 644 "config mode"
expect_eq "$(sed -n 's/^moduledir=//p' "$S/usr/lib/pkgconfig/nova-sandbox.pc")" "/usr/lib/nova-sandbox/$MAJOR" "pc moduledir"
grep -q 'SPDX-License-Identifier: MIT' "$S/usr/include/nova-sandbox/ns_backend.h" ||
	_fail "the installed header carries no SPDX line"
EOF

t "PREFIX=/usr/local: the config under /usr/local/etc" <<'EOF'
S="$STAGE/b"
mk install DESTDIR="$S" PREFIX=/usr/local
expect_rc 0
expect_present "$S/usr/local/etc/nova-sandbox/nova-sandbox.conf"
expect_absent "$S/etc"
EOF

t "install again: an edited config and drop-in are kept, said so" <<'EOF'
S="$STAGE/a"
echo '; mine' >> "$S/etc/nova-sandbox/nova-sandbox.conf"
echo '; mine too' >> "$S/etc/nova-sandbox/conf.d/landlock.conf"
mk install DESTDIR="$S" PREFIX=/usr
expect_rc 0
expect_out "keeping the existing $S/etc/nova-sandbox/nova-sandbox.conf"
expect_eq "$(tail -n1 "$S/etc/nova-sandbox/nova-sandbox.conf")" "; mine" "the edited config"
expect_eq "$(tail -n1 "$S/etc/nova-sandbox/conf.d/landlock.conf")" "; mine too" "the edited drop-in"
EOF

t "uninstall: everything install put, but the changed config; then nothing" <<'EOF'
S="$STAGE/a"
mk uninstall DESTDIR="$S" PREFIX=/usr
expect_rc 0
expect_out "keeping the changed $S/etc/nova-sandbox/nova-sandbox.conf"
left=$(cd "$S" && find . -type f | sort | tr '\n' ' ')
expect_eq "$left" "./etc/nova-sandbox/conf.d/landlock.conf ./etc/nova-sandbox/nova-sandbox.conf " "files left"
cp "$ROOT/conf/nova-sandbox.conf" "$S/etc/nova-sandbox/nova-sandbox.conf"
cp "$ROOT/modules/landlock/dropin.conf" "$S/etc/nova-sandbox/conf.d/landlock.conf"
mk uninstall DESTDIR="$S" PREFIX=/usr
expect_rc 0
left=$(cd "$S" && find . -type f | tr '\n' ' ')
expect_eq "$left" "" "files left after the configs were restored"
EOF

t "install-strip strips the binary and modules; install does not" <<'EOF'
S="$STAGE/c"
mk install-strip DESTDIR="$S" PREFIX=/usr
expect_rc 0
readelf -S "$S/usr/bin/nova-sandbox" | grep -q '\.symtab' && _fail "the binary has .symtab"
readelf -S "$S/usr/lib/nova-sandbox/$MAJOR/landlock.so" | grep -q '\.symtab' && _fail "landlock.so has .symtab"
readelf -S "$NOVA_B/bin/nova-sandbox" | grep -q '\.symtab' || _fail "control: the build's binary has no .symtab"
EOF

t "the build is hardened (hardening-check); a HARDEN=0 build is not" <<'EOF'
command -v hardening-check >/dev/null || skip "no hardening-check (devscripts, infra/deps.sh)"
# --nocfprotection: Debian 12's crt objects carry no IBT/SHSTK note
run hardening-check --nocfprotection "$NS" "$MODS/landlock.so"
expect_rc 0
B0="$STAGE/b0"
run make -C "$ROOT" B="$B0" HARDEN=0 WERROR= "$B0/bin/nova-sandbox"
expect_rc 0
run hardening-check --nocfprotection "$B0/bin/nova-sandbox"
expect_rc 1
expect_out 'Stack protected: no|Immediate binding: no'
EOF
