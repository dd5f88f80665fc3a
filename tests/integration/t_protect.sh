#!/bin/bash
# SPDX-License-Identifier: MIT
# t_protect.sh -- rule 5a (issue 23 part 2): a job with a repository as
# --write cannot change what the user's next git runs there.  Every .git
# at the top of a --write and on the way down to the cwd stays readable
# and not writable (write, create, rename, unlink, chmod, link), the rest
# of the tree is writable and git works inside; --protect adds a path,
# --unprotect lifts one; the refusals (bad_protect, protect_unavailable)
# come before anything runs.  Every denial has its control: the same
# operation, unwalled, on a fresh repository, succeeds.
source "$(dirname "$0")/lib.sh"

O=$(newdir)
OPS="$O/ops.sh"
# ops.sh OP REPO: one write into REPO's .git; "done:OP" or "denied:OP"
cat > "$OPS" <<'SH'
#!/bin/sh
r=$2
case $1 in
hook) printf '#!/bin/sh\nid > /tmp/pwned\n' > "$r/.git/hooks/pre-commit" ;;
config) printf '[core]\n\tfsmonitor = /tmp/evil\n' >> "$r/.git/config" ;;
head) echo 'ref: refs/heads/evil' > "$r/.git/HEAD" ;;
create) touch "$r/.git/newfile" ;;
mkdir) mkdir "$r/.git/hooks/sub" ;;
rename) mv "$r/.git/config" "$r/.git/config.old" ;;
unlink) rm "$r/.git/description" ;;
chmod) chmod 777 "$r/.git/hooks" ;;
aside) mv "$r/.git" "$r/.git.aside" ;;
link) ln "$r/.git/config" "$r/cfg-link" ;;
*) echo "unknown op $1"; exit 2 ;;
esac 2>/dev/null && echo "done:$1" || echo "denied:$1"
SH
chmod 755 "$OPS"
ALL="hook config head create mkdir rename unlink chmod aside link"

# repo DIR: a repository owned by the test user, with a HOME inside
repo() {
	run_as sh -c 'cd "$1" && git init -q . && mkdir home' _ "$1"
	[ "$RC" = 0 ] || _fail "git init in $1"
}
# wall DIR ARGS... -- CMD...: walled with DIR as --write and HOME inside
wall() {
	local d=$1
	shift
	run_as env HOME="$d/home" "$NS" --write "$d" "$@"
}

t "control: unwalled, a job writes every part of .git (each op on a fresh repository)" <<'EOF'
for op in $ALL; do
	R=$(newdir); repo "$R"
	run_as "$OPS" "$op" "$R"
	expect_out "^done:$op\$"
done
EOF

t "walled: nothing in .git can be written, created, renamed, removed, chmod'ed or linked out" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
before=$(cd "$R/.git" && find . -printf '%p %s %m\n' | sort | md5sum)
for op in $ALL; do
	wall "$R" -- "$OPS" "$op" "$R"
	expect_rc 0
	expect_out "^denied:$op\$"
done
expect_err "^SANDBOX OK .* protected=$R/\\.git deletes=$R\$"
after=$(cd "$R/.git" && find . -printf '%p %s %m\n' | sort | md5sum)
expect_eq "$after" "$before" ".git unchanged"
expect_absent "$R/cfg-link"
EOF

t "walled: the rest of the tree is writable, .git readable, git status works inside" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
wall "$R" -- /bin/sh -c 'echo x > src.txt && mkdir d && echo y > d/f && cat .git/HEAD && git status --porcelain'
expect_rc 0
expect_out '^ref: refs/heads/'
EOF

t "walled: a relative path from the working directory meets the read-only .git too (the cwd is the wall's namespace's)" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
wall "$R" -- /bin/sh -c '{ echo x >> .git/config; } 2>/dev/null && echo done:rel || echo denied:rel; { echo x >> ./.git/HEAD; } 2>/dev/null && echo done:rel2 || echo denied:rel2'
expect_rc 0
expect_out '^denied:rel$'
expect_out '^denied:rel2$'
EOF

t "walled: git status lists what the job wrote" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
wall "$R" -- /bin/sh -c 'echo x > src.txt && mkdir d && echo y > d/f && git status --porcelain'
expect_rc 0
expect_out '^\?\? d/$'
expect_out '^\?\? src\.txt$'
expect_present "$R/src.txt"
EOF

t "walled: a .git on the way down to the cwd is protected too; one beside it is not" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as sh -c 'mkdir -p "$1/a/b" "$1/c" && cd "$1/a/b" && git init -q . && cd "$1/c" && git init -q .' _ "$R"
run_as env HOME="$R/home" "$NS" --write "$R" --read "$O" --cwd "$R/a/b" -- /bin/sh -c '"$0" config "$1/a/b"; "$0" config "$1"; "$0" config "$1/c"' "$OPS" "$R"
expect_rc 0
expect_err "^SANDBOX OK .* protected=$R/\\.git,$R/a/b/\\.git deletes="
expect_out '^denied:config$'
expect_out '^done:config$'
expect_eq "$(grep -c '^denied:config$' "$OUT")" 2 "two protected"
EOF

t "walled: the directories above a protected .git (below the --write) cannot be renamed or removed; control: unwalled they can" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as sh -c 'mkdir -p "$1/p/repo" && git init -q "$1/p/repo"' _ "$R"
run_as env HOME="$R/home" "$NS" --write "$R" --cwd "$R/p/repo" -- /bin/sh -c 'cd "$0" && { mv p p.old 2>/dev/null && echo done:p || echo denied:p; mv p/repo p/r2 2>/dev/null && echo done:repo || echo denied:repo; echo x > p/repo/ok && echo done:write; }' "$R"
expect_rc 0
expect_out '^denied:p$'
expect_out '^denied:repo$'
expect_out '^done:write$'
expect_err "^SANDBOX OK .* protected=$R/\\.git,$R/p/repo/\\.git deletes="
run_as sh -c 'cd "$0" && mv p/repo p/r2 && echo done:repo' "$R"
expect_out '^done:repo$'
EOF

t "walled: a worktree's gitfile cannot be replaced or moved, nor its gitdir's commondir written" <<'EOF'
needs_machine userns
P=$(newdir)
run_as sh -c 'cd "$1" && mkdir home && git init -q m && cd m && echo a > a && git add a && git -c user.email=t@t -c user.name=t commit -qm i && git worktree add -q ../wt' _ "$P"
[ "$RC" = 0 ] || _fail "worktree setup"
run_as env HOME="$P/home" "$NS" --write "$P" --cwd "$P/wt" -- /bin/sh -c '
	{ echo "gitdir: /tmp/x" > .git; } 2>/dev/null && echo done:gitfile || echo denied:gitfile
	mv .git .gx 2>/dev/null && echo done:move || echo denied:move
	{ echo x >> ../m/.git/config; } 2>/dev/null && echo done:common || echo denied:common
	{ echo x > ../m/.git/worktrees/wt/HEAD; } 2>/dev/null && echo done:gitdir || echo denied:gitdir
	echo ok > new && echo done:tree'
expect_rc 0
expect_err "^SANDBOX OK .* protected=$P/wt/\\.git,$P/m/\\.git deletes="
for w in gitfile move common gitdir; do expect_out "^denied:$w\$"; done
expect_out '^done:tree$'
expect_eq "$(sed -n 's/^gitdir: //p' "$P/wt/.git")" "$P/m/.git/worktrees/wt" "the gitfile"
# control: unwalled, the gitfile is replaced
run_as sh -c 'echo "gitdir: /tmp/x" > "$1/wt/.git" && echo done' _ "$P"
expect_out '^done$'
EOF

t "--protect adds a path (a Makefile); control: without it the job writes it" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as sh -c 'echo all: > "$1/Makefile"' _ "$R"
wall "$R" --protect "$R/Makefile" -- /bin/sh -c '{ echo evil >> Makefile; } 2>/dev/null && echo done || echo denied'
expect_out '^denied$'
expect_err "^SANDBOX OK .* protected=$R/\\.git,$R/Makefile deletes="
wall "$R" -- /bin/sh -c '{ echo evil >> Makefile; } 2>/dev/null && echo done || echo denied'
expect_out '^done$'
EOF

t "a gitfile whose gitdir text climbs after a name (x/../gd) is refused: x could become a link; --unprotect lifts it; control: git accepts it" <<'EOF'
needs_machine userns
R=$(newdir)
run_as sh -c 'cd "$1" && mkdir home x && git init -q . && mv .git gd && echo "gitdir: x/../gd" > .git && git status --porcelain >/dev/null && echo ctl:ok' _ "$R"
expect_out '^ctl:ok$'
wall "$R" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_protect: $R/\\.git names the gitdir x/\\.\\./gd, which climbs \\(\\.\\.\\) after a name: .*; run: nova-sandbox --unprotect $R/\\.git --write $R -- /bin/true\$"
expect_no_err '^SANDBOX OK'
wall "$R" --unprotect "$R/.git" -- /bin/true
expect_rc 0
EOF

t "a worktree commondir text that climbs after a name is refused too; control: leading .. (git's own) is accepted" <<'EOF'
needs_machine userns
P=$(newdir)
run_as sh -c 'cd "$1" && mkdir home x && git init -q m && cd m && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m i && git worktree add -q ../wt && echo "$1/x/../m/.git" > .git/worktrees/wt/commondir && cd ../wt && git status --porcelain >/dev/null && echo ctl:ok' _ "$P"
expect_out '^ctl:ok$'
run_as env HOME="$P/home" "$NS" --write "$P" --cwd "$P/wt" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_protect: $P/m/\\.git/worktrees/wt/commondir names the commondir $P/x/\\.\\./m/\\.git, which climbs"
run_as sh -c 'echo ../.. > "$1/m/.git/worktrees/wt/commondir"' _ "$P"
run_as env HOME="$P/home" "$NS" --write "$P" --cwd "$P/wt" -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK .* protected=$P/wt/\\.git,$P/m/\\.git deletes="
EOF

t "--protect of a gitfile protects its gitdir too (as a default one); control: without it the job writes the gitdir" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as sh -c 'mkdir "$1/other" "$1/w" && cd "$1/other" && git init -q --separate-git-dir "$1/w/odir" . && echo ctl:ok' _ "$R"
expect_out '^ctl:ok$'
wall "$R" --protect "$R/other/.git" -- /bin/sh -c '{ echo x >> w/odir/config; } 2>/dev/null && echo done || echo denied'
expect_out '^denied$'
expect_err "^SANDBOX OK .* protected=$R/\\.git,$R/other/\\.git,$R/w/odir deletes="
wall "$R" -- /bin/sh -c '{ echo x >> w/odir/config; } 2>/dev/null && echo done || echo denied'
expect_out '^done$'
EOF

t "a commondir under a --write is protected though its gitdir lies outside every --write; control: unwalled it is written" <<'EOF'
needs_machine userns
R=$(newdir); G=$(newdir)
run_as sh -c 'cd "$1" && mkdir home && git init -q w/main && cd w/main && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m i && git worktree add -q "$1/wt" && mv .git/worktrees/wt "$2/gd" && echo "gitdir: $2/gd" > "$1/wt/.git" && echo "$1/w/main/.git" > "$2/gd/commondir" && cd "$1/wt" && git status --porcelain >/dev/null && echo ctl:ok' _ "$R" "$G"
expect_out '^ctl:ok$'
run_as env HOME="$R/home" "$NS" --write "$R" --cwd "$R/wt" -- /bin/sh -c '{ echo x >> ../w/main/.git/config; } 2>/dev/null && echo done || echo denied'
expect_out '^denied$'
expect_err "^SANDBOX OK .* protected=$R/wt/\\.git,$R/w/main/\\.git deletes="
run_as sh -c '{ echo "# x" >> "$1/w/main/.git/config"; } && echo done' _ "$R"
expect_out '^done$'
EOF

t "a .git directory holding a commondir file protects that commondir; control: without the file the job writes it" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as sh -c 'git init -q "$1/w/main" && echo "$1/w/main/.git" > "$1/.git/commondir"' _ "$R"
wall "$R" -- /bin/sh -c '{ echo x >> w/main/.git/config; } 2>/dev/null && echo done || echo denied'
expect_out '^denied$'
expect_err "^SANDBOX OK .* protected=$R/\\.git,$R/w/main/\\.git deletes="
run_as rm "$R/.git/commondir"
wall "$R" -- /bin/sh -c '{ echo x >> w/main/.git/config; } 2>/dev/null && echo done || echo denied'
expect_out '^done$'
EOF

t "a sibling linked worktree's gitfile under the --write is protected (the common dir's worktrees/*/gitdir); a broken entry is skipped; control: unwalled it is rewritten" <<'EOF'
needs_machine userns
P=$(newdir)
run_as sh -c 'cd "$1" && mkdir home && git init -q m && cd m && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m i && git worktree add -q ../wt && mkdir .git/worktrees/gone && echo /nonexistent/.git > .git/worktrees/gone/gitdir' _ "$P"
run_as env HOME="$P/home" "$NS" --write "$P" --cwd "$P/m" -- /bin/sh -c '{ echo "gitdir: /tmp/x" > ../wt/.git; } 2>/dev/null && echo done || echo denied'
expect_rc 0
expect_out '^denied$'
expect_err "^SANDBOX OK .* protected=$P/m/\\.git,$P/wt/\\.git deletes="
expect_eq "$(sed -n 's/^gitdir: //p' "$P/wt/.git")" "$P/m/.git/worktrees/wt" "the gitfile"
run_as sh -c 'echo "gitdir: /tmp/x" > "$1/wt/.git" && echo done' _ "$P"
expect_out '^done$'
EOF

t "after the command: a directory on the way to the cwd made a repository (bare shape, or a .git) is said in a NOTE with the rm -rf; exit code kept; control: nothing made, no NOTE" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as mkdir "$R/sub"
run_as env HOME="$R/home" "$NS" --write "$R" --cwd "$R/sub" -- /bin/sh -c 'mkdir objects refs && echo "ref: refs/heads/main" > HEAD && echo "[core]" > config; exit 3'
expect_rc 3
expect_err "^SANDBOX NOTE the command made $R/sub a git repository of its own \\(a bare repository: HEAD, objects/, refs/\\): a git command there outside the wall would run its config and hooks .*; look first, or remove it: rm -rf $R/sub/HEAD $R/sub/objects $R/sub/refs $R/sub/config\$"
expect_eq "$(grep -n 'SANDBOX NOTE the command made' "$ERR" | cut -d: -f1)" "$(($(grep -n '^SANDBOX DONE' "$ERR" | cut -d: -f1) - 1))" "the NOTE just before DONE"
run_as rm -rf "$R/sub/HEAD" "$R/sub/objects" "$R/sub/refs" "$R/sub/config"
run_as env HOME="$R/home" "$NS" --write "$R" --cwd "$R/sub" -- /bin/sh -c 'git init -q .'
expect_rc 0
expect_err "^SANDBOX NOTE the command made $R/sub a git repository of its own \\(a \\.git that was not there\\): .*; look first, or remove it: rm -rf $R/sub/\\.git\$"
run_as env HOME="$R/home" "$NS" --write "$R" --cwd "$R/sub" -- /bin/sh -c 'echo x > f'
expect_rc 0
expect_no_err 'SANDBOX NOTE the command made'
EOF

t "--unprotect lifts the default: the job then writes .git (what the protection stops)" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
wall "$R" --unprotect "$R/.git" -- "$OPS" hook "$R"
expect_rc 0
expect_out '^done:hook$'
expect_err "^SANDBOX OK .* protected=- deletes="
EOF

t "--unprotect said twice (the same name) is accepted once, silently" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
wall "$R" --unprotect "$R/.git" --unprotect "$R/.git/" -- /bin/true
expect_rc 0
expect_no_err 'REFUSED'
expect_err "^SANDBOX OK .* protected=- deletes="
EOF

t "refusals, all at once, nothing created: --protect outside every --write or absent, --unprotect of nothing" <<'EOF'
R=$(newdir); repo "$R"
wall "$R" --protect /etc --protect "$R/nope" --unprotect "$R/src" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_protect: --protect /etc is under no --write: "
expect_err "^SANDBOX REFUSED reason=bad_protect: --protect $R/nope does not exist; none is created: name an existing file or directory"
expect_err "^SANDBOX REFUSED reason=bad_protect: --unprotect $R/src matches nothing protected \\(protected: $R/\\.git\\)"
expect_no_err '^SANDBOX OK'
expect_absent "$R/.nova-sandbox-tmp"
EOF

t "a .git that is a symbolic link is refused (a mount cannot cover a link); --unprotect lifts it" <<'EOF'
needs_machine userns
R=$(newdir); run_as sh -c 'cd "$1" && mkdir home real && git init -q real && ln -s real/.git .git' _ "$R"
wall "$R" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_protect: $R/\\.git is a symbolic link: .*; run: nova-sandbox --unprotect $R/\\.git --write $R -- /bin/true\$"
wall "$R" --unprotect "$R/.git" -- /bin/true
expect_rc 0
EOF

t "policy shows the list (text, POLICY OK, --json); --explain names it in a NOTE" <<'EOF'
needs_machine userns
R=$(newdir); repo "$R"
run_as env HOME="$R/home" "$NS" policy --write "$R" -- /bin/true
expect_rc 0
expect_out "^protect=$R/\\.git\$"
expect_err "^POLICY OK .* protected=$R/\\.git\$"
run_as env HOME="$R/home" "$NS" policy --json --write "$R" -- /bin/true
expect_out "\"protected\":\\[\"$R/\\.git\"\\]"
wall "$R" --explain -- /bin/true
expect_err "^SANDBOX NOTE protected \\(readable, not writable .*\\): $R/\\.git\$"
EOF

# nouserns UID GID CMD...: CMD as UID:GID in a user namespace of its own
# (identity-mapped, made by root) whose user.max_user_namespaces is 0: the
# tool, unprivileged, can make no user namespace there; nothing outside
# that namespace changes (the limit is per namespace)
nouserns() {
	local u=$1 g=$2 f p me
	shift 2
	f=$(mktemp -u /tmp/nova-it-nouserns.XXXXXX)
	mkfifo -m 600 "$f"
	unshare -U sh -c 'read _ < "$0"; exec sh -c '\''echo 0 > /proc/sys/user/max_user_namespaces && u=$0 && g=$1 && shift && exec setpriv --reuid="$u" --regid="$g" --clear-groups -- "$@"'\'' "$@"' "$f" "$u" "$g" "$@" >"$OUT" 2>"$ERR" </dev/null &
	p=$!
	me=$(readlink /proc/self/ns/user)
	for _ in $(seq 300); do
		[ "$(readlink "/proc/$p/ns/user" 2>/dev/null)" != "$me" ] && break
		sleep 0.01
	done
	echo '0 0 4294967295' > "/proc/$p/uid_map"
	echo '0 0 4294967295' > "/proc/$p/gid_map"
	echo go > "$f"
	rm -f "$f"
	wait "$p"
	RC=$?
}

t "no user namespace here: protect_unavailable before OK, naming the sysctl and --unprotect; control: --unprotect runs" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: a user namespace without user namespaces needs root to make"
R=$(newdir); repo "$R"
nouserns "$TUID" "$TGID" env HOME="$R/home" "$NS" --write "$R" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=protect_unavailable: $R/\\.git is kept read-only by a mount namespace of the wall's own, which needs a user namespace: user namespaces are off \\(sysctl user\\.max_user_namespaces=0\\) .*; without that protection, knowingly, run: nova-sandbox --unprotect '<path>' --write $R -- /bin/true\$"
expect_no_err '^SANDBOX OK'
expect_absent "$R/.nova-sandbox-tmp"
nouserns "$TUID" "$TGID" env HOME="$R/home" "$NS" --write "$R" --unprotect "$R/.git" -- /bin/true
expect_rc 0
expect_err '^SANDBOX DONE exit=0 '
EOF

t "run: a --write repository's .git is read-only in the place; the rest is written and handed off" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: run as root needs root"
R=$(mktemp -d /var/tmp/nova-it-prot.XXXXXX)
echo "$R" >> "$_DIRS"
chmod 755 "$R"
(cd "$R" && git init -q . && chmod -R a+rwX "$R")
D=$(newdir)
run env HOME=/root "$NS" run --name prot-$$ --size 64m --write "$R" --out "$D" --artifact RESULT.md -- /bin/sh -c '
	{ echo x >> "$0/.git/config"; } 2>/dev/null && echo done:config || echo denied:config
	echo ok > "$0/file" && echo done:tree
	echo result > RESULT.md' "$R"
expect_rc 0
expect_err "^SANDBOX OK name=prot-$$ .* protected=$R/\\.git deletes="
expect_out '^denied:config$'
expect_out '^done:tree$'
expect_present "$D/prot-$$/RESULT.md"
run env HOME=/root "$NS" run --name prot2-$$ --size 64m --write "$R" --unprotect "$R/.git" -- /bin/sh -c '{ echo "# ok" >> "$0/.git/config"; } 2>/dev/null && echo done:config' "$R"
expect_out '^done:config$'
EOF

t "run: a --write's top made a repository by the command is said in a NOTE before DONE; the place's own (deleted with it) is not" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: run as root needs root"
R=$(mktemp -d /var/tmp/nova-it-prot.XXXXXX)
echo "$R" >> "$_DIRS"
chmod 777 "$R"
run env HOME=/root "$NS" run --name prot3-$$ --size 64m --write "$R" -- /bin/sh -c 'git init -q "$0" && git init -q .' "$R"
expect_rc 0
expect_err "^SANDBOX NOTE the command made $R a git repository of its own \\(a \\.git that was not there\\): .*; look first, or remove it: rm -rf $R/\\.git\$"
expect_no_err "^SANDBOX NOTE the command made /tmp/nova-prot3-$$"
expect_err '^SANDBOX DONE '
EOF

t "run: --protect inside the place is refused (the place is empty when the command starts); control: one under a --write outside runs" <<'EOF'
[ "$(id -u)" = 0 ] || skip "not root: run as root needs root"
R=$(mktemp -d /var/tmp/nova-it-prot.XXXXXX)
echo "$R" >> "$_DIRS"
chmod 777 "$R"
echo all: > "$R/Makefile"
N=prot4-$$
run env HOME=/root "$NS" run --name "$N" --size 64m --write "$R" --protect "/tmp/nova-$N/work" --protect "/tmp/nova-$N" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_protect: --protect /tmp/nova-$N/work is inside the place /tmp/nova-$N, which is empty when the command starts: a --protect must be under a --write outside the place; leave it out\$"
expect_err "^SANDBOX NOTE one line fixes the 2 problems above that carry a fix; run: nova-sandbox run --name $N --size 64m --write $R -- /bin/true\$"
expect_err "^SANDBOX REFUSED reason=bad_protect: --protect /tmp/nova-$N is inside the place "
expect_no_err '^SANDBOX OK'
expect_absent "/tmp/nova-$N"
run env HOME=/root "$NS" run --name "$N" --size 64m --write "$R" --protect "$R/Makefile" -- /bin/true
expect_rc 0
expect_err "^SANDBOX OK name=$N .* protected=$R/Makefile deletes="
EOF
