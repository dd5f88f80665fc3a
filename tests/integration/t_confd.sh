#!/bin/bash
# SPDX-License-Identifier: MIT
# t_confd.sh -- conf.d drop-ins (nova-sandbox.conf(5)): the main file then
# conf.d/*.conf in byte order of the names; each role's entries one list in
# reading order; `modules` names the file and line of every entry and option;
# a module named twice for one role, a key set in two files, a bad drop-in
# (syntax, mode, owner, symbolic link) and a bad conf.d (mode, owner,
# symbolic link) are refused with the file (and line), exit 2, nothing run;
# controls: the same files with safe modes load, and a wrap walled by a wall
# that only a drop-in names works as the test user.  The stage lives under
# the build dir (/tmp is world-writable: the parent walk refuses it).
source "$(dirname "$0")/lib.sh"

STAGE=$(mktemp -d "$NOVA_B/it-confd.XXXXXX")
chmod 755 "$STAGE"
trap 'rm -rf "$STAGE"; _cleanup' EXIT

# fresh NAME: a directory NAME in the stage with main.conf (body $2) and an
# empty conf.d, modes 0755/0644; its main.conf path on stdout
fresh() {
	local d="$STAGE/$1"
	rm -rf "$d"
	mkdir -p "$d/conf.d"
	chmod 755 "$d" "$d/conf.d"
	printf '%s' "$2" > "$d/main.conf"
	chmod 644 "$d/main.conf"
	echo "$d/main.conf"
}
# drop MAIN NAME BODY: conf.d/NAME beside MAIN, mode 0644
drop() {
	local f
	f="$(dirname "$1")/conf.d/$2"
	printf '%s' "$3" > "$f"
	chmod 644 "$f"
}
mods() { run env NOVA_SANDBOX_CONFIG="$1" "$NS" modules "${@:2}"; }

t "a drop-in names the wall; modules names the drop-in and its line" <<'EOF'
C=$(fresh a $'[nova-sandbox]\n')
D="$STAGE/a/conf.d"
drop "$C" landlock.conf $'; the landlock package\n[linux]\nwall = landlock.so\n'
mods "$C"
expect_rc 0
expect_out "^CONFIG file=$C\$"
expect_out "^CONFIG file=$D/landlock.conf\$"
expect_out "^MODULE role=wall file=landlock.so from=$D/landlock.conf:3 path=$MODS/landlock.so .* available=yes\$"
expect_out "^MODULE role=place file=nsplace.so from=default "
expect_out '^MODULES OK .* wall=landlock$'
EOF

t "control: without the drop-in the wall is the compiled-in default" <<'EOF'
C=$(fresh a0 $'[nova-sandbox]\n')
mods "$C"
expect_rc 0
expect_out "^MODULE role=wall file=landlock.so from=default "
expect_no_out "^CONFIG file=.*conf\.d"
EOF

t "drop-ins for one role: one list, main file first, then drop-ins in byte order" <<'EOF'
C=$(fresh b $'[linux]\nwall = landlock.so\n')
D="$STAGE/b/conf.d"
# byte order (C locale), whatever the locale or the directory's order says
for n in a 9 Z 10 _x B; do
	drop "$C" "$n.conf" $'[linux]\n\nwall = /nonexistent/w'"$n"$'.so\n'
done
drop "$C" b.conf~ $'[linux]\nwall = not_read.so\n'
drop "$C" .hidden.conf $'[linux]\nwall = not_read.so\n'
drop "$C" x.conf.dpkg-old $'[linux]\nwall = not_read.so\n'
mods "$C"
expect_rc 0
got=$(grep -E '^MODULE role=wall' "$OUT" | sed 's/.* file=\([^ ]*\) from=\([^ ]*\) .*/\1@\2/' | tr '\n' ' ')
want="landlock.so@$C:2"
for n in 10 9 B Z _x a; do want="$want /nonexistent/w$n.so@$D/$n.conf:3"; done
expect_eq "$got" "$want " "the wall list's order"
expect_no_out 'not_read'
expect_out '^MODULES OK .* wall=landlock$'
EOF

t "a module named for one role in two files: refused naming both places, exit 2" <<'EOF'
C=$(fresh c $'[linux]\nwall = landlock.so\n')
D="$STAGE/c/conf.d"
drop "$C" landlock.conf $'[linux]\nwall = landlock.so\n'
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/landlock.conf:2: wall landlock.so is named a second time \(first at $C:2\)"
d=$(newdir)
mkdir -p "$d/home"; chown "$TUID:$TGID" "$d/home" 2>/dev/null
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/sh -c "echo x > '$d/ran'"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_config: $D/landlock.conf:2: "
expect_absent "$d/ran"
EOF

t "an option set in two files: refused naming both; an unknown option names its drop-in" <<'EOF'
C=$(fresh d $'[linux]\nwall = '"$FIX"$'/leaky_wall.so\n')
D="$STAGE/d/conf.d"
drop "$C" 1.conf $'[leaky_wall]\nx = 1\n'
drop "$C" 2.conf $'[leaky_wall]\n\nx = 2\n'
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/2.conf:3: key \"x\" in \[leaky_wall\] is set a second time \(first at $D/1.conf:2\)"
rm "$D/2.conf"
drop "$C" 2.conf $'[nova-sandbox]\n'
mods "$C"
expect_out "^OPTION module=leaky_wall key=x value=1 from=$D/1.conf:2\$"
EOF

t "every bad drop-in at once: a syntax error and an unknown section, each with file:line" <<'EOF'
C=$(fresh e $'[nova-sandbox]\n')
D="$STAGE/e/conf.d"
drop "$C" 1.conf $'[linux]\nthis is not ini\n'
drop "$C" 2.conf $'[linux]\nwall = landlock.so\n[nosuch]\nk = v\n'
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/1.conf:2: syntax error"
expect_err "^MODULES REFUSED reason=bad_config: $D/2.conf:3: unknown section \[nosuch\]"
EOF

t "a drop-in writable by group or other: refused naming it; control 0644 loads" <<'EOF'
C=$(fresh f $'[nova-sandbox]\n')
D="$STAGE/f/conf.d"
drop "$C" landlock.conf $'[linux]\nwall = landlock.so\n'
chmod 0664 "$D/landlock.conf"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/landlock.conf: drop-in refused: .*mode 0664"
chmod 0644 "$D/landlock.conf"
mods "$C"
expect_rc 0
expect_out "from=$D/landlock.conf:2 "
EOF

t "conf.d writable by group or other: refused naming the directory; control 0755 loads" <<'EOF'
C=$(fresh g $'[nova-sandbox]\n')
D="$STAGE/g/conf.d"
drop "$C" landlock.conf $'[linux]\nwall = landlock.so\n'
chmod 0777 "$D"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D: conf.d refused: .*directory $D .*mode 0777"
chmod 0755 "$D"
mods "$C"
expect_rc 0
EOF

t "a drop-in or conf.d owned by another user: refused naming the owner" <<'EOF'
[ "$(id -u)" = 0 ] || skip "needs root to give a file to another user"
C=$(fresh h $'[nova-sandbox]\n')
D="$STAGE/h/conf.d"
drop "$C" landlock.conf $'[linux]\nwall = landlock.so\n'
chown "$TUID" "$D/landlock.conf"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/landlock.conf: drop-in refused: .*owner uid $TUID"
chown 0 "$D/landlock.conf"
chown "$TUID" "$D"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D: conf.d refused: .*owner uid $TUID"
chown 0 "$D"
mods "$C"
expect_rc 0
EOF

t "a symbolic link as a drop-in or as conf.d: refused" <<'EOF'
C=$(fresh i $'[nova-sandbox]\n')
D="$STAGE/i/conf.d"
printf '[linux]\nwall = landlock.so\n' > "$STAGE/i/real.conf"
chmod 644 "$STAGE/i/real.conf"
ln -s ../real.conf "$D/landlock.conf"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D/landlock.conf: is a symbolic link"
rm "$D/landlock.conf"
rmdir "$D"
mkdir "$STAGE/i/real.d" && chmod 755 "$STAGE/i/real.d"
ln -s real.d "$D"
mods "$C"
expect_rc 2
expect_err "^MODULES REFUSED reason=bad_config: $D: is a symbolic link"
EOF

t "a wrap walled by the wall a drop-in names works as the test user" <<'EOF'
C=$(fresh j $'[nova-sandbox]\n[linux]\nplace = nsplace.so\n')
drop "$C" landlock.conf $'[linux]\nwall = landlock.so\n'
d=$(newdir)
mkdir -p "$d/home"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$d/home"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/sh -c "echo x > '$d/ran'"
expect_rc 0
expect_err '^SANDBOX OK backend=landlock '
expect_present "$d/ran"
EOF

t "conf.d inside a --write: refused naming the drop-in directory (wall_writable)" <<'EOF'
# in the test user's home: configs below /tmp (sticky) are refused anyway
d="$THOME/it-confd.$$"
rm -rf "$d"
at_end "rm -rf '$d'"
mkdir -p "$d/etc/conf.d" "$d/home"
chmod 755 "$d" "$d/home"
printf '[nova-sandbox]\n' > "$d/etc/main.conf"
chmod 755 "$d/etc" "$d/etc/conf.d"; chmod 644 "$d/etc/main.conf"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$d"
run_as env NOVA_SANDBOX_CONFIG="$d/etc/main.conf" HOME="$d/etc/conf.d" "$NS" --write "$d/etc/conf.d" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=wall_writable: the tool's own config drop-in directory $d/etc/conf.d is within the wall's reach"
EOF

t "a drop-in's wall that is not installed: no_sandbox naming the module and the drop-in line" <<'EOF'
C=$(fresh k $'[nova-sandbox]\n')
D="$STAGE/k/conf.d"
drop "$C" gone.conf $'; its package was removed\n[linux]\nwall = gone.so\n'
d=$(newdir)
mkdir -p "$d/home"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$d/home"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/sh -c "echo x > '$d/ran'"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $MODS/gone.so refused \(not_found\): .*; named by $D/gone.conf:3; "
expect_absent "$d/ran"
EOF

# The module directory of a build or install that lacks landlock.so (its
# package removed, the drop-in kept until purge): the refusal names the
# fix for how this tool was installed.  This build is a source build
# (INSTALLED_BY=source, the Makefile's default): the make install line;
# a Debian build's apt line is tests/unit/test_loader.c's and
# infra/test-packages'.
t "a drop-in's wall that is not installed: the refusal ends with the line that installs it; control: an unknown module keeps the help remedy" <<'EOF'
C=$(fresh l $'[nova-sandbox]\nmoduledir = '"$STAGE"$'/l/mods\n')
D="$STAGE/l/conf.d"
mkdir -m 755 "$STAGE/l/mods"
drop "$C" landlock.conf $'; the landlock package (removed, not purged)\n[linux]\nwall = landlock.so\n'
d=$(newdir)
mkdir -p "$d/home"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$d/home"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/sh -c "echo x > '$d/ran'"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $STAGE/l/mods/landlock.so refused \(not_found\): no such file in the module directory $STAGE/l/mods; named by $D/landlock.conf:3; install it from the nova-sandbox source tree; run: make install MODULES=landlock\$"
expect_no_err 'run: nova-sandbox help'
expect_absent "$d/ran"
mods "$C"
expect_out "^MODULE role=wall file=landlock.so from=$D/landlock.conf:3 available=no refused=not_found why=no such file in the module directory $STAGE/l/mods; install it from the nova-sandbox source tree; run: make install MODULES=landlock\$"
# control: a module this build does not install has no such line
drop "$C" landlock.conf $'[linux]\nwall = gone.so\n'
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/sh -c "echo x > '$d/ran'"
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $STAGE/l/mods/gone.so refused \(not_found\): no such file in the module directory $STAGE/l/mods; named by $D/landlock.conf:2; run: nova-sandbox help\$"
expect_no_err 'make install'
# control: named by an absolute path, a module the install would not put
# there has no such line either
drop "$C" landlock.conf $'[linux]\nwall = '"$STAGE"$'/l/landlock.so\n'
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $STAGE/l/landlock.so refused \(not_found\): no such file; named by $D/landlock.conf:2; run: nova-sandbox help\$"
expect_absent "$d/ran"
EOF

t "no drop-in and no landlock.so: the compiled-in default wall's refusal ends with the line that installs it" <<'EOF'
C=$(fresh m $'[nova-sandbox]\nmoduledir = '"$STAGE"$'/m/mods\n')
mkdir -m 755 "$STAGE/m/mods"
d=$(newdir)
mkdir -p "$d/home"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$d/home"
run_as env NOVA_SANDBOX_CONFIG="$C" HOME="$d/home" "$NS" --write "$d" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=no_sandbox: wall module $STAGE/m/mods/landlock.so refused \(not_found\): .*; the compiled-in default wall; install it from the nova-sandbox source tree; run: make install MODULES=landlock\$"
EOF
