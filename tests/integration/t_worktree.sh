#!/bin/bash
# SPDX-License-Identifier: MIT
# t_worktree.sh -- the worktree verb (SPEC §15, reference section 10) with
# a real git and a fake gh (tests/integration/fakes/gh) replaying JSON
# answers, errors and timeouts.  The origin is a bare repository with PR
# refs (refs/pull/<n>/head); the repository names it
# https://forge.example/o/n.git and reaches it through insteadOf, so the
# verb reads owner/name o/n and git fetches locally.  The verb runs as the
# unprivileged test user.
source "$(dirname "$0")/lib.sh"

FAKES=$(cd "$(dirname "$0")/fakes" && pwd)
TOKEN="tok-SECRET-5f3a9c"
# the test's own git (as root on the test user's repository too)
git() { command git -c safe.directory='*' "$@"; }
G="git -c user.email=t@t -c user.name=t -c init.defaultBranch=main"

# a fresh world: $D/origin.git (PR 5..9 heads), $D/repo (main only),
# $D/scratch, $D/bin/gh, $D/gh/answers, $D/home; H5..H9 the PR heads
world() {
	D=$(newdir)
	mkdir -p "$D/bin" "$D/gh/answers" "$D/scratch" "$D/home"
	install -m 0755 "$FAKES/gh" "$D/bin/gh"
	$G init -q --bare "$D/origin.git"
	$G init -q "$D/repo"
	(cd "$D/repo" && $G commit -q --allow-empty -m base &&
		$G push -q "$D/origin.git" HEAD:refs/heads/main) || return 1
	for n in 5 6 7 8 9; do
		(cd "$D/repo" && $G checkout -q --detach main &&
			echo "pr $n" > "pr$n.txt" && $G add "pr$n.txt" &&
			$G commit -q -m "pr $n" &&
			$G push -q "$D/origin.git" "HEAD:refs/pull/$n/head") || return 1
		eval "H$n=\$(cd \"\$D/repo\" && git rev-parse HEAD)"
		answer "$n" OPEN
	done
	(cd "$D/repo" && $G checkout -q main && git reset -q --hard &&
		git remote add origin https://forge.example/o/n.git &&
		git config "url.$D/origin.git.insteadOf" https://forge.example/o/n.git &&
		git for-each-ref --format='%(refname)' refs/ | grep -v '^refs/heads/main$' |
		while read -r r; do git update-ref -d "$r"; done &&
		git reflog expire --expire=now --all && git gc -q --prune=now) || return 1
	# the PR commits are only in the origin now
	(cd "$D/repo" && ! git cat-file -e "$H5^{commit}" 2>/dev/null) || return 1
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
	return 0
}
# answer <n> <STATE> [head]: what the fake gh says of PR n
answer() {
	local h
	eval "h=\${3:-\$H$1}"
	rm -f "$D/gh/answers/$1".*
	printf '{"baseRefName":"main","headRefOid":"%s","state":"%s"}\n' "$h" "$2" \
		> "$D/gh/answers/$1.json"
	chmod 644 "$D/gh/answers/$1.json"
}
# wt [VAR=value...] -- <flags>: the verb as the test user, a clean
# environment plus the token (and whatever is given before --)
wt() {
	local envs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	run_as env -i PATH="$D/bin:/usr/bin:/bin" HOME="$D/home" \
		GH_CONFIG_DIR="$D/gh" GH_TOKEN="$TOKEN" "${envs[@]}" \
		"$NS" worktree "$@"
}
mat() { wt -- --repo "$D/repo" --scratch "$D/scratch" --pr "$1" "${@:2}"; }
prune() { wt "$@" -- --repo "$D/repo" --scratch "$D/scratch" --prune; }
# the path of the last OK line
okpath() { sed -n 's/^WORKTREE OK path=\([^ ]*\) head=.*/\1/p' "$OUT"; }
# a command as the test user
asu() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$TUID" --regid="$TGID" --clear-groups -- "$@"
	else
		"$@"
	fi
}
no_token() {
	! grep -q "$TOKEN" "$OUT" "$ERR" || _fail "the token was printed"
}
remedy_line() {
	expect_err '^run: nova-sandbox worktree --repo <dir> --scratch <dir> --pr <id>$'
}
# nothing in the scratch
scratch_empty() {
	[ -z "$(ls -A "$D/scratch")" ] || _fail "the scratch is not empty: $(ls -A "$D/scratch")"
}

# ---- validation ---------------------------------------------------------

t "every problem at once: bad_flag bad_pr bad_repo bad_scratch, exit 2, nothing made" <<'EOF'
world || exit 1
wt -- --bogus x --pr 0 --repo rel/repo --scratch "$D/nope"
expect_rc 2
expect_err '^WORKTREE REFUSED reason=bad_flag: unknown flag --bogus; the flags of worktree are --base, --pr, --prune, --repo, --scratch; run: nova-sandbox help worktree$'
expect_err '^WORKTREE REFUSED reason=bad_flag: unexpected argument x; run: nova-sandbox help worktree$'
expect_err '^WORKTREE REFUSED reason=bad_pr: --pr wants one pull-request number above 0, got 0'
expect_err '^WORKTREE REFUSED reason=bad_repo: --repo wants an existing repository named by an absolute path'
expect_err '^WORKTREE REFUSED reason=bad_scratch: '
remedy_line
expect_eq "$(grep -c REFUSED "$ERR")" 5 "one line per problem"
[ -s "$OUT" ] && _fail "stdout is not empty"
expect_absent "$D/nope"
[ -e "$D/gh/calls" ] && _fail "the forge was asked"
scratch_empty
EOF

t "bad_pr: missing, 0, abc, valueless, with --prune; single-dash and twice are bad_flag" <<'EOF'
world || exit 1
wt -- --repo "$D/repo" --scratch "$D/scratch"
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_pr: '
for v in 0 abc -1 1x 2147483648; do
	mat "$v"; expect_rc 2; expect_err "^WORKTREE REFUSED reason=bad_pr: .*got $v"
done
wt -- --repo "$D/repo" --scratch "$D/scratch" --pr
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_pr: '
expect_eq "$(grep -c REFUSED "$ERR")" 1 "a valueless --pr is one problem"
wt -- --repo "$D/repo" --scratch "$D/scratch" --pr 5 --prune
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_pr: --pr and --prune are two modes'
wt -- -repo "$D/repo" --scratch "$D/scratch" --pr 5
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_flag: unknown flag -repo'
wt -- --repo "$D/repo" --scratch "$D/scratch" --pr 5 --pr 6
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_flag: --pr is given twice'
scratch_empty
EOF

t "bad_repo: a plain directory, a missing one, a planted link; bad_scratch: missing, a file, relative" <<'EOF'
world || exit 1
mkdir "$D/plain"; [ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/plain"
for r in "$D/plain" "$D/missing"; do
	wt -- --repo "$r" --scratch "$D/scratch" --pr 5
	expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_repo: '
done
ln -s "$D/repo" "$D/link"; [ "$(id -u)" = 0 ] && chown -h "$TUID:$TGID" "$D/link"
wt -- --repo "$D/link" --scratch "$D/scratch" --pr 5
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_repo: --repo .*symlink'
touch "$D/file"
for s in "$D/none" "$D/file" scratch; do
	wt -- --repo "$D/repo" --scratch "$s" --pr 5
	expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_scratch: '
done
expect_absent "$D/none"
EOF

t "git is found on PATH only: no git, bad_repo naming it" <<'EOF'
world || exit 1
run_as env -i PATH="$D/bin" HOME="$D/home" "$NS" worktree --repo "$D/repo" --scratch "$D/scratch" --pr 5
expect_rc 2
expect_err '^WORKTREE REFUSED reason=bad_repo: .*git is on no absolute PATH entry'
EOF

t "bad_base: a branch named like a flag never reaches git" <<'EOF'
world || exit 1
for b in --upload-pack=touch -x 'a b' 'a..b' 'x;touch y'; do
	mat 5 --base "$b"
	expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_base: '
done
scratch_empty
mat 5 --base feature/ok-1.2
expect_rc 0
EOF

t "a token in the caller's argv is not printed back either" <<'EOF'
world || exit 1
wt -- --repo "rel/$TOKEN" --scratch "$D/scratch" --pr 5 --base "x $TOKEN"
expect_rc 2
expect_err '^WORKTREE REFUSED reason=bad_repo: .*got rel/<token>'
expect_err '^WORKTREE REFUSED reason=bad_base: .*got x <token>'
no_token
wt GITHUB_TOKEN="other-$TOKEN-2" -- --repo "$D/repo" --scratch "$D/scratch" --pr 5 --base "x other-$TOKEN-2"
expect_rc 2
expect_err 'got x <token>; run: nova-sandbox help worktree$'
! grep -q "other-" "$ERR" || _fail "GITHUB_TOKEN printed"
EOF

# ---- the forge ------------------------------------------------------------

t "no_pr: the forge does not know it; retry remedy" <<'EOF'
world || exit 1
mat 42
expect_rc 2
expect_err '^WORKTREE REFUSED reason=no_pr: the forge does not know pull request 42 of o/n$'
expect_err '^run: nova-sandbox worktree --repo <dir> --scratch <dir> --pr <id>; retry once the forge answers$'
scratch_empty
EOF

t "no_forge: gh fails, says no JSON, times out, is missing" <<'EOF'
world || exit 1
echo "HTTP 502: bad gateway ($TOKEN)" > "$D/gh/answers/5.err"
mat 5
expect_rc 2
expect_err '^WORKTREE REFUSED reason=no_forge: the forge could not be reached \(gh exited 1\)'
expect_err 'retry once the forge answers$'
no_token
rm "$D/gh/answers/5.err"; echo 'not json' > "$D/gh/answers/5.json"
mat 5
expect_rc 2; expect_err '^WORKTREE REFUSED reason=no_forge: gh answered something that is not the JSON'
answer 5 OPEN; echo 30 > "$D/gh/answers/5.sleep"
start=$(date +%s)
wt NOVA_SANDBOX_WORKTREE_TIMEOUT=1 -- --repo "$D/repo" --scratch "$D/scratch" --pr 5
took=$(( $(date +%s) - start ))
expect_rc 2; expect_err '^WORKTREE REFUSED reason=no_forge: gh did not answer within 1 s'
[ "$took" -lt 10 ] || _fail "the timeout took ${took}s"
rm "$D/gh/answers/5.sleep"; rm "$D/bin/gh"
mat 5
expect_rc 2; expect_err '^WORKTREE REFUSED reason=no_forge: gh is on no absolute PATH entry'
scratch_empty
EOF

t "bad_head: a head that is not 40 lowercase hex, one shaped like an option" <<'EOF'
world || exit 1
for h in "--upload-pack=touch $D/pwned" "${H5^^}" "${H5:0:12}" "${H5}00"; do
	answer 5 OPEN "$h"
	mat 5
	expect_rc 2
	expect_err '^WORKTREE REFUSED reason=bad_head: the forge reported a head that is not forty lowercase hex'
	remedy_line
done
expect_absent "$D/pwned"
scratch_empty
EOF

t "bad_origin: a local path, file://, none; the text names it without the token" <<'EOF'
world || exit 1
for u in "$D/origin.git" "file://$D/origin.git" "https://x-access-token:$TOKEN@forge.example/solo"; do
	(cd "$D/repo" && git remote set-url origin "$u")
	mat 5
	expect_rc 2
	expect_err '^WORKTREE REFUSED reason=bad_origin: --repo wants an origin remote whose path names <owner>/<name>, and origin reads '
	remedy_line
	no_token
done
expect_err 'origin reads https://<user>@forge.example/solo'
(cd "$D/repo" && git remote remove origin)
mat 5
expect_rc 2; expect_err 'reason=bad_origin: .*no origin remote'
[ -e "$D/gh/calls" ] && _fail "the forge was asked"
scratch_empty
EOF

t "hostile origin: shell metacharacters reach no shell and no option" <<'EOF'
world || exit 1
u='https://forge.example/o$(touch '"$D"'/pwned1)/n;touch '"$D"'/pwned2`touch '"$D"'/pwned3`.git'
(cd "$D/repo" && git remote set-url origin "$u")
mat 5
expect_rc 2
expect_err '^WORKTREE REFUSED reason=bad_origin: '
expect_absent "$D/pwned1"; expect_absent "$D/pwned2"; expect_absent "$D/pwned3"
(cd "$D/repo" && git remote set-url origin 'git@forge.example:--upload-pack=x/n.git')
mat 5
expect_rc 2; expect_err '^WORKTREE REFUSED reason=bad_origin: '
# the control: a forge-shaped origin is asked, every word its own argv word
(cd "$D/repo" && git remote set-url origin 'ssh://git@forge.example:22/o-1/n.x_y.git' &&
	git config --add "url.$D/origin.git.insteadOf" 'ssh://git@forge.example:22/o-1/n.x_y.git')
mat 5
expect_rc 0
want="pr
view
5
--repo
o-1/n.x_y
--json
headRefOid,baseRefName,state
--"
expect_eq "$(cat "$D/gh/calls")" "$want" "gh's argv"
EOF

# ---- materialise ----------------------------------------------------------

t "materialise: the PR's exact head in <scratch>/<guid>, its record, WORKTREE OK" <<'EOF'
world || exit 1
mat 5
expect_rc 0
expect_out "^WORKTREE OK path=$D/scratch/[0-9a-f]{32} head=$H5\$"
p=$(okpath)
expect_eq "$(cat "$p/pr5.txt" 2>/dev/null)" "pr 5" "the PR's file"
expect_eq "$(git -C "$p" rev-parse HEAD)" "$H5" "the tree's head"
[ -f "$p/.git" ] || _fail "not a linked worktree"
git -C "$D/repo" worktree list --porcelain | grep -qx "worktree $p" || _fail "git does not list it"
expect_eq "$(stat -c %a "$D/scratch/5.pr")" 644 "the record's mode"
expect_eq "$(sed -n 1,3p "$D/scratch/5.pr")" "guid=${p##*/}
base=main
head=$H5" "the record"
grep -qE '^pid=[0-9]+$' "$D/scratch/5.pr" || _fail "no pid= line"
[ -s "$ERR" ] && _fail "stderr is not empty"
no_token
grep -qx "GH_TOKEN=$TOKEN" "$D/gh/env" || _fail "gh did not get the token"
EOF

t "the caller's GIT_* never reach git, the token never reaches git; every call disarmed, no discovery" <<'EOF'
world || exit 1
# git as the verb finds it on PATH: what each call got, then the real git
printf '#!/bin/sh\n{ echo call; env | sed "s/^/env /"; for a; do echo "arg $a"; done; } >> "%s/calls"\nexec %s "$@"\n' \
	"$D" "$(type -P git)" > "$D/bin/git"
chmod 755 "$D/bin/git"
# the repository's own hook: the verb runs no hook of any git it calls
printf '#!/bin/sh\ntouch "%s/hookran"\n' "$D" > "$D/repo/.git/hooks/post-checkout"
chmod 755 "$D/repo/.git/hooks/post-checkout"
[ "$(id -u)" = 0 ] && chown "$TUID:$TGID" "$D/repo/.git/hooks/post-checkout"
wt GIT_DIR=/nonexistent-gitdir GIT_WORK_TREE=/nonexistent-tree GIT_CONFIG_PARAMETERS="'core.hookspath=/nonexistent-hooks'" \
	-- --repo "$D/repo" --scratch "$D/scratch" --pr 5
expect_rc 0
expect_out "^WORKTREE OK path=.* head=$H5\$"
[ -s "$D/calls" ] || _fail "git was not called through PATH"
grep -q nonexistent "$D/calls" && _fail "a caller's GIT_* reached git: $(grep nonexistent "$D/calls" | head -3)"
grep -q "$TOKEN" "$D/calls" && _fail "the token reached git"
n=$(grep -cx call "$D/calls")
expect_eq "$(grep -cx 'env GIT_TERMINAL_PROMPT=0' "$D/calls")" "$n" "git's environment is not the built one on every call"
for a in --no-pager core.fsmonitor=false core.hooksPath=/dev/null submodule.recurse=false; do
	expect_eq "$(grep -cx "arg $a" "$D/calls")" "$n" "not every git call has $a"
done
expect_eq "$(grep -c '^arg --git-dir=/' "$D/calls")" "$n" "not every git call names its git directory"
expect_eq "$(grep -c '^arg --work-tree=/' "$D/calls")" "$n" "not every git call names its work tree"
expect_absent "$D/hookran"
EOF

# pr_with N FILE=TEXT...: a pull request N on the origin (its head from
# main, the files given), the forge answering for it; $HN its head
pr_with() {
	local n=$1 kv h
	shift
	# root works in the user's repositories here (the push's receiving
	# side reads safe.directory from a global config only)
	printf '[safe]\n\tdirectory = *\n' > "$D/safe.cfg"
	(export GIT_CONFIG_GLOBAL="$D/safe.cfg"; cd "$D/repo" && $G checkout -q --detach main &&
		for kv in "$@"; do printf '%s\n' "${kv#*=}" > "${kv%%=*}"; $G add -- "${kv%%=*}"; done &&
		$G commit -q -m "pr $n" && $G push -q "$D/origin.git" "HEAD:refs/pull/$n/head" &&
		$G checkout -q main) || return 1
	h=$(git -C "$D/origin.git" rev-parse "refs/pull/$n/head")
	eval "H$n=$h"
	answer "$n" OPEN "$h"
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
	return 0
}

t "filters the user's config defines are never run by the verb, a name with '=' or under an includeIf too; control: git itself runs them" <<'EOF'
world || exit 1
pr_with 11 ".gitattributes=a.txt filter=e=q
b.txt filter=inc" "a.txt=a" "b.txt=b" || exit 1
mkdir -p "$D/home"
cat > "$D/home/.gitconfig" <<CFG
[filter "e=q"]
	smudge = touch $D/ran-eq; cat
	clean = touch $D/ran-eq; cat
[includeIf "gitdir:$D/repo/.git/worktrees/"]
	path = $D/home/inc.cfg
CFG
printf '[filter "inc"]\n\tsmudge = touch %s/ran-inc; cat\n\tclean = touch %s/ran-inc; cat\n' "$D" "$D" > "$D/home/inc.cfg"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D/home"
# control: git itself, as the user, runs both
asu env -i PATH=/usr/bin:/bin HOME="$D/home" git -C "$D/repo" -c safe.directory='*' \
	worktree add -q --detach "$D/ctl" "$H11" >/dev/null 2>&1
[ -e "$D/ran-eq" ] && [ -e "$D/ran-inc" ] || _fail "control: git did not run the filters ($(ls "$D"))"
rm -f "$D/ran-eq" "$D/ran-inc"
mat 11
expect_rc 0
p=$(okpath)
expect_absent "$D/ran-eq"
expect_absent "$D/ran-inc"
# the job touches the files: the clean check compares them again
asu touch -d 2001-01-01 "$p/a.txt" "$p/b.txt"
mat 11
expect_rc 0
expect_absent "$D/ran-eq"
expect_absent "$D/ran-inc"
EOF

t "a .git below the top, a submodule's files, an empty directory, a FIFO, a group-writable directory: never reused" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
for plant in 'mkdir -p src/.git' 'mkdir -p e' 'mkfifo fifo' 'mkdir -p g && chmod 775 g' \
	'mkdir -p d && echo gitdir: /x > d/.git' 'chmod 777 .'; do
	asu sh -c "cd '$p' && $plant"
	mat 5
	expect_rc 0
	expect_out "^WORKTREE OK path=$p head=$H5\$"
	expect_err "^WORKTREE NOTE $p is not reused: .*; it is removed and made again\$"
	[ -z "$(ls -A "$p" | grep -v -x -e .git -e pr5.txt)" ] || _fail "after '$plant' the tree holds $(ls -A "$p")"
done
EOF

t "a tree the job made unreadable or too deep is still taken away: chmod 000, a 1100-deep chain moved aside" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
asu sh -c "cd '$p' && mkdir -p s/t && echo x > s/t/f && chmod 000 s/t s && chmod 000 ."
mat 5
expect_rc 0
expect_out "^WORKTREE OK path=$p head=$H5\$"
expect_absent "$p/s"
asu sh -c "cd '$p' && i=0 && while [ \$i -lt 1100 ]; do mkdir d && cd d && i=\$((i+1)); done && echo x > f"
mat 5
expect_rc 0
expect_out "^WORKTREE OK path=$p head=$H5\$"
expect_err "^WORKTREE NOTE $p could not be deleted \(nested deeper than 512 directories\): moved aside to $D/scratch/\.nova-stuck-[0-9a-f]{32}-[0-9a-f]{8}, remove it by hand \(rm -rf\)\$"
expect_absent "$p/d"
EOF

t "reuse: a clean tree at the head is used again, untouched" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
touch -d '2020-01-01' "$p"
mat 5
expect_rc 0
expect_out "^WORKTREE OK path=$p head=$H5\$"
expect_eq "$(stat -c %Y "$p")" "$(date -d 2020-01-01 +%s)" "the tree was re-made"
EOF

t "re-add: a dirty tree, an ignored file, a moved head, a deleted tree; same guid" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
asu sh -c 'echo junk > "$1/junk"' - "$p"; touch -d '2020-01-01' "$p"
mat 5
expect_rc 0; expect_out "^WORKTREE OK path=$p head=$H5\$"
expect_absent "$p/junk"
[ "$(stat -c %Y "$p")" = "$(date -d 2020-01-01 +%s)" ] && _fail "the dirty tree was reused"
asu sh -c 'echo changed > "$1/pr5.txt"' - "$p"
mat 5; expect_rc 0; expect_eq "$(cat "$p/pr5.txt")" "pr 5" "tracked change undone"
echo 'build/' > "$D/repo/.git/info/exclude"; asu mkdir "$p/build"; asu touch "$p/build/left"
asu chmod 555 "$p/build"
mat 5; expect_rc 0; expect_absent "$p/build"
answer 5 OPEN "$H6"
mat 5
expect_rc 0; expect_out "^WORKTREE OK path=$p head=$H6\$"
expect_eq "$(git -C "$p" rev-parse HEAD)" "$H6" "the moved head"
grep -qx "head=$H6" "$D/scratch/5.pr" || _fail "the record keeps the old head"
rm -rf "$p"
mat 5
expect_rc 0; expect_out "^WORKTREE OK path=$p head=$H6\$"
expect_present "$p/pr6.txt"
expect_eq "$(git -C "$D/repo" worktree list --porcelain | grep -c "^worktree $D/scratch/")" 1 "one registration"
mat 6
expect_rc 0; q=$(okpath)
[ "$q" != "$p" ] || _fail "a new id got the same guid"
EOF

t "--base: recorded instead of the forge's" <<'EOF'
world || exit 1
mat 5 --base release/2.0
expect_rc 0
grep -qx 'base=release/2.0' "$D/scratch/5.pr" || _fail "base not recorded: $(cat "$D/scratch/5.pr")"
mat 6
grep -qx 'base=main' "$D/scratch/6.pr" || _fail "the forge's base not recorded"
EOF

t "a forge base named like a flag is only recorded, escaped" <<'EOF'
world || exit 1
printf '{"headRefOid":"%s","baseRefName":"--upload-pack=touch %s/pwned\\nguid=../../x","state":"OPEN"}\n' "$H5" "$D" > "$D/gh/answers/5.json"
mat 5
expect_rc 0
expect_eq "$(grep -c '^guid=' "$D/scratch/5.pr")" 1 "one guid line"
grep -q '^base=--upload-pack\\x3dtouch\\x20' "$D/scratch/5.pr" || _fail "base not escaped: $(cat "$D/scratch/5.pr")"
expect_absent "$D/pwned"
EOF

t "a record that cannot be written: bad_scratch, and the tree made for it taken away" <<'EOF'
world || exit 1
asu mkdir "$D/scratch/5.pr"
mat 5
expect_rc 2
expect_err '^WORKTREE REFUSED reason=bad_scratch: the record .*/5.pr could not be written'
expect_eq "$(ls -A "$D/scratch")" "5.pr" "what the scratch holds"
expect_eq "$(git -C "$D/repo" worktree list --porcelain | grep -c '^worktree ')" 1 "registrations"
EOF

t "a tree being worked in is not re-made under the job: tree_in_use" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
echo work > "$p/wip"
if [ "$(id -u)" = 0 ]; then
	(cd "$p" && exec setpriv --reuid="$TUID" --regid="$TGID" --clear-groups sleep 60) &
else
	(cd "$p" && exec sleep 60) &
fi
holder=$!
at_end "kill $holder 2>/dev/null; wait $holder 2>/dev/null; true"
sleep 0.3
mat 5
expect_rc 2
expect_err '^WORKTREE REFUSED reason=tree_in_use: '
expect_present "$p/wip"
kill $holder; wait $holder 2>/dev/null
mat 5
expect_rc 0; expect_absent "$p/wip"
EOF

t "symlinks in a tree are removed, never followed" <<'EOF'
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
mkdir "$D/outside"; touch "$D/outside/keep"
[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D/outside"
ln -s "$D/outside" "$p/link"; ln -s "$D/outside/keep" "$p/flink"
[ "$(id -u)" = 0 ] && chown -h "$TUID:$TGID" "$p/link" "$p/flink"
mat 5
expect_rc 0
expect_present "$D/outside/keep"
expect_absent "$p/link"
EOF

t "a mount in a tree (a bind mount too) is never entered: bad_scratch, the mounted files kept" <<'EOF'
[ "$(id -u)" = 0 ] || needs_machine userns
world || exit 1
mat 5; expect_rc 0; p=$(okpath)
asu mkdir "$D/outside" "$p/bind" "$p/tmpfs"; asu touch "$D/outside/keep"
if [ "$(id -u)" = 0 ]; then
	ns=(unshare --mount --propagation private)
	drop=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups)
else
	ns=(unshare --user --map-root-user --mount --propagation private)
	drop=()
fi
"${ns[@]}" sh -c 'mount --bind "$1" "$2/bind" && mount -t tmpfs none "$2/tmpfs" &&
	touch "$2/tmpfs/inmem" && chmod 777 "$2/tmpfs" && shift 2 && exec "$@"' - "$D/outside" "$p" \
	"${drop[@]}" env -i PATH="$D/bin:/usr/bin:/bin" HOME="$D/home" GH_CONFIG_DIR="$D/gh" \
	sh -c '"$@"; echo "rc=$?"; ls "$0/tmpfs"' "$p" "$NS" worktree --repo "$D/repo" --scratch "$D/scratch" --pr 5 \
	>"$OUT" 2>"$ERR"
expect_out '^rc=2$'
expect_err '^WORKTREE REFUSED reason=bad_scratch: .* could not be deleted: it holds a mount or another device.s directory, which is never entered'
expect_out '^inmem$'
expect_present "$D/outside/keep"
EOF

# ---- prune ------------------------------------------------------------------

# trees 5..9 and a hand-made one in the scratch and one outside it
prune_world() {
	world || return 1
	for n in 5 6 7 8 9; do
		mat "$n" || return 1
		eval "P$n=\$(okpath)"
	done
	(cd "$D/repo" && git worktree add -q --detach "$D/scratch/hand" main &&
		git worktree add -q --detach "$D/elsewhere" main) || return 1
	[ "$(id -u)" = 0 ] && chown -R "$TUID:$TGID" "$D"
	touch -d '3 days ago' "$P7" "$P8" "$D/scratch/hand"
	return 0
}
sleeper() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$1" && exec setpriv --reuid="$TUID" --regid="$TGID" --clear-groups "${@:2}") &
	else
		(cd "$1" && exec "${@:2}") &
	fi
}

t "prune: merged, closed, stale removed; in use, fresh, hand-made kept; exit 0" <<'EOF'
prune_world || exit 1
answer 5 MERGED; answer 6 CLOSED; answer 7 OPEN; answer 8 OPEN; answer 9 OPEN
sleeper "$P8" sleep 60; holder=$!
at_end "kill $holder 2>/dev/null; wait $holder 2>/dev/null; true"
sleep 0.3
prune
expect_rc 0
expect_out "^WORKTREE REMOVED path=$P5 reason=pr_merged\$"
expect_out "^WORKTREE REMOVED path=$P6 reason=pr_closed\$"
expect_out "^WORKTREE REMOVED path=$P7 reason=stale\$"
expect_out '^WORKTREE OK removed=3 kept=3$'
expect_eq "$(grep -c '^WORKTREE REMOVED' "$OUT")" 3 "three removed"
expect_eq "$(sed -n 1p "$OUT")" "WORKTREE REMOVED path=$P5 reason=pr_merged" "sorted by id"
expect_absent "$P5"; expect_absent "$P6"; expect_absent "$P7"
expect_present "$P8/pr8.txt"; expect_present "$P9/pr9.txt"
expect_present "$D/scratch/hand"; expect_present "$D/elsewhere"
expect_present "$D/scratch/5.pr"
reg=$(git -C "$D/repo" worktree list --porcelain | grep -c '^worktree ')
expect_eq "$reg" 5 "repo + 8, 9, hand, elsewhere registered"
no_token
kill $holder; wait $holder 2>/dev/null
prune
expect_rc 0
expect_out "^WORKTREE REMOVED path=$P8 reason=stale\$"
expect_out '^WORKTREE OK removed=1 kept=2$'
prune
expect_rc 0
expect_out '^WORKTREE OK removed=0 kept=2$'
EOF

t "prune: a forge error keeps the tree silently; a bad origin keeps all with a NOTE" <<'EOF'
prune_world || exit 1
touch "$P7" "$P8"
answer 5 MERGED; echo "HTTP 500" > "$D/gh/answers/5.err"; answer 6 MERGED
prune
expect_rc 0
expect_out "^WORKTREE REMOVED path=$P6 reason=pr_merged\$"
expect_out '^WORKTREE OK removed=1 kept=5$'
expect_present "$P5"
(cd "$D/repo" && git remote set-url origin "$D/origin.git")
answer 7 MERGED
prune
expect_rc 0
expect_out '^WORKTREE OK removed=0 kept=5$'
expect_err '^WORKTREE NOTE .*the forge is not asked, every tree is kept'
expect_present "$P7"
EOF

t "prune: a tree whose lock a job holds is in use, from any PID namespace" <<'EOF'
[ "$(id -u)" = 0 ] || needs_machine userns
prune_world || exit 1
answer 5 OPEN; answer 6 OPEN; answer 8 OPEN; answer 9 OPEN
touch -d '3 days ago' "$P7"
# the job's lock: a shared flock on the tree, held by the job itself
sleeper / sh -c 'exec 9<"$1" && flock -s 9 && exec sleep 60' - "$P7"
holder=$!
at_end "kill $holder 2>/dev/null; wait $holder 2>/dev/null; true"
# a process the prune cannot see in its /proc: it runs in a PID namespace
# of its own (as `run`'s jobs do); only the lock tells it
sleeper "$P8" sleep 60; h8=$!
at_end "kill $h8 2>/dev/null; wait $h8 2>/dev/null; true"
sleep 0.3
if [ "$(id -u)" = 0 ]; then
	ns=(unshare --pid --fork --mount-proc setpriv --reuid="$TUID" --regid="$TGID" --clear-groups)
else
	ns=(unshare --user --map-current-user --pid --fork --mount-proc)
fi
"${ns[@]}" env -i PATH="$D/bin:/usr/bin:/bin" HOME="$D/home" GH_CONFIG_DIR="$D/gh" \
	"$NS" worktree --repo "$D/repo" --scratch "$D/scratch" --prune >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0
# 7: its lock is held: kept; 8: held only as a cwd, which another PID
# namespace's /proc does not show: removed (SPEC §15 says so)
expect_no_out "path=$P7 "
expect_present "$P7/pr7.txt"
expect_out "^WORKTREE REMOVED path=$P8 reason=stale\$"
kill $holder; wait $holder 2>/dev/null
prune
expect_rc 0
expect_out "^WORKTREE REMOVED path=$P7 reason=stale\$"
EOF

# ---- help -------------------------------------------------------------------

t "help worktree, worktree --help: usage, flags, exit codes; the banner lists it" <<'EOF'
for a in "help worktree" "worktree --help" "worktree -h"; do
	run "$NS" $a
	expect_rc 0
	expect_out '^usage: nova-sandbox worktree \[flags\]$'
	expect_out '^    nova-sandbox worktree --repo <abs-dir> --scratch <dir> --pr <id> \[--base <branch>\]$'
	expect_out '^  --prune  '
	expect_out '^  --repo dir  '
	expect_out '^  --pr id  '
	expect_out '^  worktree: 0 done'
done
run "$NS" help
expect_out '^  nova-sandbox worktree --repo <abs-dir> --scratch <dir> --prune$'
run "$NS" frobnicate
expect_err 'available: .*, worktree; run: nova-sandbox help$'
EOF
