#!/bin/bash
# SPDX-License-Identifier: MIT
# t_loader.sh -- the module loader and the config through the binary:
# `modules` on this machine, configs naming missing, malformed and unsafe
# modules (the wrap refuses no_sandbox at 125 and runs nothing), and the
# config's own safety checks.  Staged modules and configs live in a
# directory under the build dir: /tmp is world-writable, so the loader's
# parent walk refuses it (one case shows that).
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-loader.XXXXXX")
chmod 755 "$STAGE"
trap 'rm -rf "$STAGE"; _cleanup' EXIT

# conf NAME BODY: a config file in the stage (mode 0644), its path on stdout
conf() {
	printf '%s' "$2" > "$STAGE/$1"
	chmod 644 "$STAGE/$1"
	echo "$STAGE/$1"
}

# wrap CONFIG DIR: the bare wrap, as the test user, of a command that
# would create DIR/ran
wrap() {
	mkdir -p "$2/home"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$2/home"
	run_as env NOVA_SANDBOX_CONFIG="$1" HOME="$2/home" \
		"$NS" --write "$2" -- /bin/sh -c "echo x > '$2/ran'"
}

t "modules lists landlock.so available on this machine" <<'EOF'
run "$NS" modules
expect_rc 0
expect_out '^MODULE role=wall file=landlock.so from=default path=/[^ ]*/landlock.so name=landlock version=[^ ]+ abi=1\.5 needs=1\.0 roles=wall shape=restrict-self available=yes$'
expect_out '^MODULES OK platform=linux config=defaults moduledir=/[^ ]+ wall=landlock$'
EOF

t "modules --json is one object" <<'EOF'
run "$NS" modules --json
expect_rc 0
expect_eq "$(wc -l < "$OUT")" 1 "lines of JSON"
expect_out '^\{"result":\{"verb":"modules","status":"ok","exit":0\},.*"modules":\[\{"role":"wall","file":"landlock.so",.*"available":true'
EOF

t "modules -h prints usage, a bad flag is refused" <<'EOF'
run "$NS" modules -h
expect_rc 0
expect_out '^usage: nova-sandbox modules'
run "$NS" modules --bogus
expect_rc 2
expect_err '^MODULES REFUSED reason=bad_flag: unknown flag --bogus'
EOF

t "modules names every refused module and exits 1 when no wall is left" <<'EOF'
C=$(conf bad.conf "[nova-sandbox]
moduledir = $FIX
[linux]
wall = missing.so, abi_major2.so, not_a_module.so, unavailable.so, unresolved_symbol.so
")
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 1
expect_out '^MODULE role=wall file=missing.so from=[^ ]+ available=no refused=not_found why=no such file in the module directory '
expect_out '^MODULE role=wall file=abi_major2.so from=[^ ]+ available=no refused=abi_major why=module targets ABI 2; this host speaks ABI 1'
expect_out '^MODULE role=wall file=not_a_module.so from=[^ ]+ available=no refused=no_entry why='
expect_out '^MODULE role=wall file=unavailable.so from=[^ ]+ path=[^ ]+ name=unavailable .* available=no why=fixture mechanism is absent'
expect_out '^MODULE role=wall file=unresolved_symbol.so from=[^ ]+ available=no refused=not_loadable why=.*ns_fixture_no_such_function'
expect_out "^MODULES OK platform=linux config=$C moduledir=$FIX wall=none\$"
EOF

t "a module built for another machine is said so, not 'No such file'" <<'EOF'
D=$(newdir)
C=$(conf machine.conf "[nova-sandbox]
moduledir = $FIX
[linux]
wall = other_machine.so
")
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 1
expect_out '^MODULE role=wall file=other_machine.so from=[^ ]+ available=no refused=wrong_machine why=not a module for this machine \(ELF machine [a-z0-9-]+, this machine [a-z0-9-]+\)$'
expect_no_out 'No such file'
wrap "$C" "$D"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $FIX/other_machine.so refused \(wrong_machine\): not a module for this machine \(ELF machine "
expect_absent "$D/ran"
EOF

t "control: a config naming a working wall runs the command" <<'EOF'
D=$(newdir)
C=$(conf leaky.conf "[nova-sandbox]
moduledir = $FIX
[linux]
wall = missing.so, leaky_wall.so
")
wrap "$C" "$D"
expect_rc 0
expect_present "$D/ran"
EOF

t "a config naming a missing module: no_sandbox, 125, nothing ran" <<'EOF'
D=$(newdir)
C=$(conf missing.conf "[nova-sandbox]
moduledir = $FIX
[linux]
wall = missing.so
")
wrap "$C" "$D"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $FIX/missing.so refused \(not_found\): no such file"
expect_no_err 'SANDBOX OK'
expect_absent "$D/ran"
EOF

t "a config naming malformed modules: one no_sandbox line each, nothing ran" <<'EOF'
D=$(newdir)
C=$(conf malformed.conf "[nova-sandbox]
moduledir = $FIX
[linux]
wall = bad_magic.so, abi_major_field.so, newer_minor.so, missing_op.so, wrong_role.so
")
wrap "$C" "$D"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $FIX/bad_magic.so refused \(bad_magic\): "
expect_err "reason=no_sandbox: wall module $FIX/abi_major_field.so refused \(abi_major\): module targets ABI 2; this host speaks ABI 1"
expect_err "reason=no_sandbox: wall module $FIX/newer_minor.so refused \(abi_minor\): module needs ABI 1\.6; this host speaks ABI 1\.5"
expect_err "reason=no_sandbox: wall module $FIX/missing_op.so refused \(missing_op\): .*lacks the required operation spawn"
expect_err "reason=no_sandbox: wall module $FIX/wrong_role.so refused \(wrong_role\): module wrong_role serves egress, not wall"
expect_eq "$(grep -c 'SANDBOX REFUSED' "$ERR")" 5 "refusal lines"
expect_absent "$D/ran"
EOF

t "unsafe, symlinked and directory modules are refused" <<'EOF'
D=$(newdir)
cp "$FIX/leaky_wall.so" "$STAGE/open.so"
chmod 666 "$STAGE/open.so"
ln -s "$FIX/leaky_wall.so" "$STAGE/link.so"
mkdir "$STAGE/dir.so"
C=$(conf unsafe.conf "[linux]
wall = $STAGE/open.so, $STAGE/link.so, $STAGE/dir.so
")
wrap "$C" "$D"
expect_rc 125
expect_err "refused \(unsafe_owner_or_mode\): bad ownership or modes for file $STAGE/open.so"
expect_err "refused \(not_regular\): $STAGE/link.so is a symbolic link"
expect_err "refused \(not_regular\): $STAGE/dir.so is not a regular file"
expect_absent "$D/ran"
EOF

t "a module under /tmp is refused (world-writable parent)" <<'EOF'
D=$(newdir)
T=$(mktemp /tmp/nova-it-mod.XXXXXX)
cp "$FIX/leaky_wall.so" "$T"
chmod 755 "$T"
C=$(conf tmpmod.conf "[linux]
wall = $T
")
wrap "$C" "$D"
rm -f "$T"
expect_rc 125
expect_err 'refused \(unsafe_owner_or_mode\): bad ownership or modes for directory /tmp '
expect_absent "$D/ran"
EOF

t "config refusals: unknown key with file:line, unsafe mode, /tmp" <<'EOF'
C=$(conf key.conf "[linux]
wall = landlock.so
unwalled = yes
")
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $C:3: unknown key \"unwalled\" in \[linux\]; the keys of \[linux\] are wall, egress, place, proxy\$"
D=$(newdir)
wrap "$C" "$D"
expect_rc 125
expect_err 'reason=bad_config: .*unknown key "unwalled"'
expect_absent "$D/ran"
C=$(conf open.conf "[linux]
wall = landlock.so
")
chmod 666 "$C"
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 2
expect_err "reason=bad_config: $C: config refused: bad ownership or modes for file $C "
T=$(mktemp /tmp/nova-it-conf.XXXXXX)
printf '[linux]\nwall = landlock.so\n' > "$T"
chmod 644 "$T"
run env NOVA_SANDBOX_CONFIG="$T" "$NS" modules
rm -f "$T"
expect_rc 2
expect_err 'reason=bad_config: .*bad ownership or modes for directory /tmp '
EOF

t "a [section:key] header is bad_config with file:line in every verb, no crash" <<'EOF'
C=$(conf colon.conf "[landlock]
[landlock:x]
")
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $C:2: section \[landlock:x\] has a ':'; "
for v in version check policy reap; do
	run env NOVA_SANDBOX_CONFIG="$C" "$NS" $v
	[ "$RC" -lt 128 ] || _fail "$v died of signal $((RC - 128))"
done
run env NOVA_SANDBOX_CONFIG="$C" "$NS" policy
expect_err "reason=bad_config: $C:2: section \[landlock:x\]"
D=$(newdir)
wrap "$C" "$D"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_config: $C:2: section \[landlock:x\] has a ':'"
expect_absent "$D/ran"
EOF

t "a NUL byte in the config is named with file:line, at a line's start too" <<'EOF'
C=$(conf nul.conf "")
printf '[linux]\nwall = landlock.so\n\0x = 1\nwall2 = a\0b\n' > "$C"
run env NOVA_SANDBOX_CONFIG="$C" "$NS" modules
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $C:3: a NUL byte at column 1; a config is text, with no NUL bytes\$"
expect_err "^MODULES REFUSED reason=bad_config: $C:4: a NUL byte at column 10; "
expect_no_err "too long"
EOF

t "an explicit config that does not exist is refused, not defaulted" <<'EOF'
run env NOVA_SANDBOX_CONFIG="$STAGE/absent.conf" "$NS" modules
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $STAGE/absent.conf: no such config file"
expect_no_out 'MODULES OK'
EOF
