#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/windows/host_tools.sh -- the real nova-sandbox.exe under Wine with
# the programs it runs through its tool runner (os/tool.h,
# host/os/windows/tool.c): `worktree` (git and gh) and `run --go` /
# `--toolchain go` (go).  There is no git, gh or go for Windows here:
# fake_tool.exe copied as git.exe, gh.exe and go.exe stands in for each,
# doing exactly the calls the verb makes over a fake repository and
# logging every call (argv as hex bytes, cwd, the environment block) to
# calls.log beside it.  What a fake proves and what needs a real Windows
# with git for Windows, gh and Go: docs/WINDOWS.md.
# Sourced by tests/windows/run.sh after host.sh (hcase, hres, $log, the
# wine settings are theirs).  usage: . host_tools.sh; host_tools <exe>

# hex of a string's bytes, as calls.log writes an argument
hexof() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

# the environment names of call number $2 (1-based) of calls.log $1,
# sorted, one a line, without what Wine adds to every process (WINE*,
# SystemDrive)
call_env() {
	awk -v n="$2" '/^call /{k++} k==n && /^env /{sub(/^env /,""); sub(/=.*/,""); print}' "$1" |
		grep -v '^WINE' | grep -v '^SystemDrive$' | sort
}

# wtcase <name> <want exit> <want a line (grep -E)> -- worktree args
wtcase() {
	n=$1 want=$2 pat=$3
	shift 4
	r=0
	timeout 60 wine "$hexe" worktree "$@" </dev/null >"$log.w" 2>"$log.we" || r=$?
	tr -d '\r' <"$log.w" >"$log.w2"
	tr -d '\r' <"$log.we" >>"$log.w2"
	if [ "$r" != "$want" ]; then
		hres "$n" 1 "exit $r, wanted $want: $(head -c 400 "$log.w2")"
	elif ! grep -Eq -- "$pat" "$log.w2"; then
		hres "$n" 1 "no line matches /$pat/: $(head -c 400 "$log.w2")"
	else
		hres "$n" 0
	fi
}

# a PR answer the fake gh gives: pr <n> <STATE> [head]
pr() {
	printf '{"baseRefName":"main","headRefOid":"%s","state":"%s"}\n' \
		"${3:-$H}" "$2" >"$wb/pr-$1.json"
}

host_tools() {
	hexe=$1
	wu=$WINEPREFIX/drive_c/nswt
	wb=$wu/bin
	rm -rf "$wu"
	mkdir -p "$wb" "$wu/repo/.git" "$wu/scratch" "$wu/plain" "$wu/prune"
	cp "$WB/tests/windows/fake_tool.exe" "$wb/git.exe"
	cp "$WB/tests/windows/fake_tool.exe" "$wb/gh.exe"
	printf 'https://github.com/o/n.git' >"$wu/repo/.git/origin"
	H=0123456789abcdef0123456789abcdef01234567
	for n in 5 6 7 8 9; do pr "$n" OPEN; done
	host_worktree_refusals
	export WINEPATH='C:\nswt\bin'
	host_worktree_make
	host_worktree_in_use
	host_worktree_prune
	unset WINEPATH
	host_go
	rm -rf "$wu" "$log.w" "$log.we" "$log.w2"
}

host_worktree_refusals() {
	wtcase "host: worktree: every problem at once: bad_flag bad_pr bad_repo bad_scratch" \
		2 '^WORKTREE REFUSED reason=bad_flag: ' -- --bogus --pr 0 \
		--repo rel --scratch C:/nswt/nothere
	for tok in bad_pr bad_repo bad_scratch; do
		grep -q "^WORKTREE REFUSED reason=$tok: " "$log.w2" ||
			hres "host: worktree: every problem at once: $tok said" 1 \
				"no $tok line: $(head -c 400 "$log.w2")"
	done
	[ ! -s "$log.w" ] ||
		hres "host: worktree: a refusal prints nothing on stdout" 1 \
			"stdout: $(head -c 200 "$log.w")"
	wtcase "host: worktree: git is found on PATH only: none there, bad_repo naming it" \
		2 '^WORKTREE REFUSED reason=bad_repo: --repo C:/nswt/repo cannot be read: git is on no absolute PATH entry' \
		-- --repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	# a git.bat first on PATH is found (PATHEXT) and never run: cmd.exe
	# would parse its arguments
	mkdir -p "$wu/batbin"
	printf '@echo ran> C:\\nswt\\batran.txt\r\n' >"$wu/batbin/git.bat"
	export WINEPATH='C:\nswt\batbin;C:\nswt\bin'
	wtcase "host: worktree: a git.bat first on PATH is refused, never run" \
		2 '^WORKTREE REFUSED reason=bad_repo: --repo C:/nswt/repo cannot be read: git \(C:/nswt/batbin/git\.bat\) could not be started: .*never run' \
		-- --repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	[ ! -e "$wu/batran.txt" ] ||
		hres "host: worktree: the git.bat did not run" 1 "batran.txt exists"
	export WINEPATH='C:\nswt\bin'
	wtcase "host: worktree: bad_repo: git does not call a plain directory a work tree" \
		2 '^WORKTREE REFUSED reason=bad_repo: .*git does not call C:/nswt/plain a work tree' \
		-- --repo C:/nswt/plain --scratch C:/nswt/scratch --pr 5
	wtcase "host: worktree: no_pr: the forge does not know it; retry remedy" \
		2 '^WORKTREE REFUSED reason=no_pr: the forge does not know pull request 99 of o/n' \
		-- --repo C:/nswt/repo --scratch C:/nswt/scratch --pr 99
	grep -q 'retry once the forge answers$' "$log.w2" ||
		hres "host: worktree: no_pr ends with the retry remedy" 1 \
			"$(head -c 400 "$log.w2")"
	unset WINEPATH
	[ -z "$(ls "$wu/scratch")" ] ||
		hres "host: worktree: nothing is made by a refusal" 1 \
			"$(ls "$wu/scratch")"
}

# --pr: the tree at the head with its record; the environments exactly
# the built ones; a hostile scratch path reaches git exactly; reuse.
host_worktree_make() {
	rm -f "$wb/calls.log"
	export GH_TOKEN=tok-SECRET-5f3a9c GIT_DIR=C:/evil NOVA_LEAK=1
	wtcase "host: worktree: --pr makes the tree at the forge's head" 0 \
		"^WORKTREE OK path=C:/nswt/scratch/[0-9a-f]{32} head=$H\$" -- \
		--repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	unset GH_TOKEN GIT_DIR NOVA_LEAK
	g=$(sed -n 's/^guid=//p' "$wu/scratch/5.pr" 2>/dev/null)
	if [ -n "$g" ] && [ -f "$wu/scratch/$g/.git" ] &&
		[ "$(cat "$wu/scratch/$g/.fakehead")" = "$H" ] &&
		grep -qx 'base=main' "$wu/scratch/5.pr" &&
		grep -qx "head=$H" "$wu/scratch/5.pr" &&
		grep -q '^pid=[1-9][0-9]*$' "$wu/scratch/5.pr"; then
		hres "host: worktree: the record 5.pr names the tree's guid, base, head, pid" 0
	else
		hres "host: worktree: the record 5.pr names the tree's guid, base, head, pid" 1 \
			"$(cat "$wu/scratch/5.pr" 2>&1) / $(ls "$wu/scratch")"
	fi
	# call 1 is git rev-parse; gh pr view is the first "call gh"
	ngh=$(grep '^call ' "$wb/calls.log" | grep -nx 'call gh' | head -1 | cut -d: -f1)
	want_git="APPDATA GCM_INTERACTIVE GIT_OPTIONAL_LOCKS GIT_TERMINAL_PROMPT LC_ALL LOCALAPPDATA NUMBER_OF_PROCESSORS PATH PATHEXT PROCESSOR_ARCHITECTURE ProgramData SystemRoot TEMP TMP USERPROFILE windir"
	want_gh="APPDATA GH_NO_UPDATE_NOTIFIER GH_PAGER GH_PROMPT_DISABLED GH_TOKEN LC_ALL LOCALAPPDATA NO_COLOR NUMBER_OF_PROCESSORS PATH PATHEXT PROCESSOR_ARCHITECTURE ProgramData SystemRoot TEMP TMP USERPROFILE windir"
	# what the caller's Wine environment happens to hold of the lists
	extra=$(awk '/^call /{k++} k==1 && /^env (HOME|XDG_CONFIG_HOME|SSL_CERT_FILE|SSL_CERT_DIR|[a-z]*_proxy|[A-Z]*_PROXY|SSH_AUTH_SOCK)=/' "$wb/calls.log" |
		sed 's/^env //; s/=.*//' | tr '\n' ' ')
	got_git=$(call_env "$wb/calls.log" 1 | tr '\n' ' ')
	got_gh=$(call_env "$wb/calls.log" "${ngh:-0}" | tr '\n' ' ')
	exp_git=$(printf '%s\n' $want_git $extra | sort | tr '\n' ' ')
	exp_gh=$(printf '%s\n' $want_gh $extra | grep -v SSH_AUTH_SOCK | sort | tr '\n' ' ')
	[ "$got_git" = "$exp_git" ] &&
		hres "host: worktree: git gets exactly its built environment (no GIT_*, no token)" 0 ||
		hres "host: worktree: git gets exactly its built environment (no GIT_*, no token)" 1 \
			"got [$got_git] wanted [$exp_git]"
	[ "$got_gh" = "$exp_gh" ] &&
		grep -qx 'env GH_TOKEN=tok-SECRET-5f3a9c' "$wb/calls.log" &&
		hres "host: worktree: gh gets exactly its built environment, the token" 0 ||
		hres "host: worktree: gh gets exactly its built environment, the token" 1 \
			"got [$got_gh] wanted [$exp_gh]"
	awk '/^call /{k++} k==1 && /^cwd /' "$wb/calls.log" | grep -qix 'cwd C:\\nswt\\repo' &&
		hres "host: worktree: git runs in the repository (cwd from its descriptor)" 0 ||
		hres "host: worktree: git runs in the repository (cwd from its descriptor)" 1 \
			"$(awk '/^call /{k++} k==1 && /^cwd /' "$wb/calls.log")"
	# reuse: nothing made the second time
	rm -f "$wb/calls.log"
	wtcase "host: worktree: reuse: a clean tree at the head is used again" 0 \
		"^WORKTREE OK path=C:/nswt/scratch/$g head=$H\$" -- \
		--repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	! grep -q "^arg $(hexof add)\$" "$wb/calls.log" &&
		grep -q "^arg $(hexof status)\$" "$wb/calls.log" &&
		hres "host: worktree: reuse asks git status and adds nothing" 0 ||
		hres "host: worktree: reuse asks git status and adds nothing" 1 \
			"$(grep -c '^call' "$wb/calls.log") calls"
	# a dirty tree (a read-only file as git leaves its objects) re-made
	echo left >"$wu/scratch/$g/left.txt"
	chmod 0444 "$wu/scratch/$g/left.txt"
	wtcase "host: worktree: a dirty tree is re-made at the same guid" 0 \
		"^WORKTREE OK path=C:/nswt/scratch/$g head=$H\$" -- \
		--repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	[ ! -e "$wu/scratch/$g/left.txt" ] &&
		hres "host: worktree: the re-made tree lost the read-only leftover" 0 ||
		hres "host: worktree: the re-made tree lost the read-only leftover" 1 \
			"$wu/scratch/$g/left.txt is still there"
	# hostile bytes in the scratch's name reach git as they are
	hs='s p&c%PATH%^!'"'"'(x);,=[]{}~`' 
	mkdir -p "$wu/$hs"
	rm -f "$wb/calls.log"
	wtcase "host: worktree: a scratch named with & % ^ ! ' ( ) ; , = [ ] { } ~ works" 0 \
		'^WORKTREE OK path=' -- \
		--repo C:/nswt/repo --scratch "C:/nswt/$hs" --pr 6
	g6=$(sed -n 's/^guid=//p' "$wu/$hs/6.pr" 2>/dev/null || true)
	grep -q "^arg $(hexof "C:/nswt/$hs/$g6")\$" "$wb/calls.log" &&
		[ -f "$wu/$hs/$g6/.git" ] &&
		hres "host: worktree: the hostile scratch path reaches git add exactly" 0 ||
		hres "host: worktree: the hostile scratch path reaches git add exactly" 1 \
			"no arg $(hexof "C:/nswt/$hs/$g6") in calls.log"
	# a scratch named in UTF-8 (Latin-1, CJK, an emoji) reaches git as
	# those bytes: the host's argv and git's command line in UTF-16
	us='ü日本😀'
	mkdir -p "$wu/$us"
	rm -f "$wb/calls.log"
	wtcase "host: worktree: a scratch named ü日本😀 works" 0 \
		"^WORKTREE OK path=C:/nswt/$us/[0-9a-f]{32} head=$H\$" -- \
		--repo C:/nswt/repo --scratch "C:/nswt/$us" --pr 7
	g7=$(sed -n 's/^guid=//p' "$wu/$us/7.pr" 2>/dev/null || true)
	grep -q "^arg $(hexof "C:/nswt/$us/$g7")\$" "$wb/calls.log" &&
		[ -f "$wu/$us/$g7/.git" ] &&
		hres "host: worktree: the ü日本😀 scratch path reaches git add exactly" 0 ||
		hres "host: worktree: the ü日本😀 scratch path reaches git add exactly" 1 \
			"no arg $(hexof "C:/nswt/$us/$g7") in calls.log"
}

# in use: a process whose working directory is inside the tree (Wine
# holds it as Windows does, a handle that does not share delete): a dirty
# tree is not re-made under it; the process gone, it is (the control).
host_worktree_in_use() {
	g=$(sed -n 's/^guid=//p' "$wu/scratch/5.pr" 2>/dev/null)
	mkdir -p "$wu/scratch/$g/sub"
	(cd "$wu/scratch/$g/sub" && exec wine "$jhost" hold held.txt) \
		</dev/null >/dev/null 2>&1 &
	bp=$!
	i=0
	while [ ! -f "$wu/scratch/$g/sub/held.txt" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wtcase "host: worktree: a tree a process works in is kept: tree_in_use" 2 \
		'^WORKTREE REFUSED reason=tree_in_use: C:/nswt/scratch/.* a process is working in it' \
		-- --repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	[ -f "$wu/scratch/$g/sub/held.txt" ] ||
		hres "host: worktree: the tree in use is untouched" 1 \
			"held.txt is gone"
	kill -9 "$bp" 2>/dev/null || true
	wait "$bp" 2>/dev/null || true
	sleep 0.5
	wtcase "host: worktree: the same tree, no process in it, is re-made (control)" 0 \
		"^WORKTREE OK path=C:/nswt/scratch/$g head=$H\$" -- \
		--repo C:/nswt/repo --scratch C:/nswt/scratch --pr 5
	[ ! -e "$wu/scratch/$g/sub" ] ||
		hres "host: worktree: the re-made tree lost the process's directory" 1 \
			"$wu/scratch/$g/sub is still there"
}

# prune: merged and stale (mtime two days back) removed; open and fresh,
# and stale but in use, kept; exit 0.
host_worktree_prune() {
	for n in 6 7 8 9; do
		wtcase "host: worktree: prune setup: --pr $n" 0 '^WORKTREE OK ' -- \
			--repo C:/nswt/repo --scratch C:/nswt/prune --pr "$n"
	done
	g6=$(sed -n 's/^guid=//p' "$wu/prune/6.pr")
	g7=$(sed -n 's/^guid=//p' "$wu/prune/7.pr")
	g8=$(sed -n 's/^guid=//p' "$wu/prune/8.pr")
	g9=$(sed -n 's/^guid=//p' "$wu/prune/9.pr")
	pr 6 MERGED
	touch -d '2 days ago' "$wu/prune/$g7" "$wu/prune/$g9"
	(cd "$wu/prune/$g9" && exec wine "$jhost" sleep 60000) \
		</dev/null >/dev/null 2>&1 &
	bp=$!
	sleep 2
	touch -d '2 days ago' "$wu/prune/$g9"
	wtcase "host: worktree: prune removes a merged and a stale tree; exit 0" 0 \
		'^WORKTREE OK removed=2 kept=2$' -- \
		--repo C:/nswt/repo --scratch C:/nswt/prune --prune
	kill -9 "$bp" 2>/dev/null || true
	wait "$bp" 2>/dev/null || true
	grep -qx "WORKTREE REMOVED path=C:/nswt/prune/$g6 reason=pr_merged" "$log.w2" &&
		grep -qx "WORKTREE REMOVED path=C:/nswt/prune/$g7 reason=stale" "$log.w2" &&
		[ ! -e "$wu/prune/$g6" ] && [ ! -e "$wu/prune/$g7" ] &&
		[ -d "$wu/prune/$g8" ] && [ -d "$wu/prune/$g9" ] &&
		hres "host: worktree: prune: merged and stale gone, fresh and in-use kept" 0 ||
		hres "host: worktree: prune: merged and stale gone, fresh and in-use kept" 1 \
			"$(head -c 400 "$log.w2") / $(ls "$wu/prune")"
}

# run --go and run --toolchain go with fake_tool.exe as go.exe: its
# answer (go.answer, CRLF and backslashes as go prints on Windows) becomes
# read roots; go is asked in a fresh private directory (its cwd, HOME and
# the profile's variables) with GOENV=off GOTOOLCHAIN=local GOFLAGS=; a
# root answered is refused as too broad; a go that hangs is ended with its
# grandchild at the deadline, nothing made.  (The wrap's --toolchain needs
# a temporary directory outside every --write: under Wine the profile,
# which the wrap's home guard makes a --write, holds the temp directory,
# and Wine sets TEMP itself, so it is run's --toolchain that is driven.)
host_go() {
	gu=$WINEPREFIX/drive_c/nsgo
	rm -rf "$gu"
	mkdir -p "$gu/bin" "$gu/goroot" "$gu/modcache"
	cp "$WB/tests/windows/fake_tool.exe" "$gu/bin/go.exe"
	printf 'C:\\nsgo\\goroot\r\nC:\\nsgo\\modcache\r\n' >"$gu/bin/go.answer"
	tt=$(timeout 20 wine cmd /c 'echo %TEMP%' </dev/null | tr -d '\r')
	tu=$WINEPREFIX/drive_c/$(printf '%s' "${tt#C:\\}" | tr '\\' /)
	hcase "host: run --go: no go on PATH is bad_read, nothing made" 125 \
		'^SANDBOX REFUSED reason=bad_read: --go could not run `go env GOROOT GOMODCACHE`' \
		- -- run --name hg0 --size 1g --go -- "$jchild" exit 0
	export WINEPATH='C:\nsgo\bin' GOFLAGS=-mod=mod GOENV=C:/nsgo/evil.env
	hcase "host: run --go: go.exe's GOROOT and GOMODCACHE become read roots" 0 \
		'^SANDBOX NOTE --go added 2 read root\(s\) from go env: C:/nsgo/goroot C:/nsgo/modcache$' \
		- -- run --name hg1 --size 1g --go -- "$jchild" exit 0
	grep -q '^SANDBOX OK name=hg1 .* read=2 ' "$log.h2" ||
		hres "host: run --go: the roots are the run's reads" 1 \
			"$(grep '^SANDBOX OK' "$log.h2")"
	cwd=$(sed -n 's/^cwd //p' "$gu/bin/calls.log" | head -1)
	priv=$(printf '%s' "$cwd" | tr '\\' /)
	if grep -qx 'env GOENV=off' "$gu/bin/calls.log" &&
		grep -qx 'env GOFLAGS=' "$gu/bin/calls.log" &&
		grep -qx 'env GOTOOLCHAIN=local' "$gu/bin/calls.log" &&
		grep -qix "env USERPROFILE=$priv" "$gu/bin/calls.log" &&
		grep -qix "env HOME=$priv" "$gu/bin/calls.log" &&
		grep -qix "env LOCALAPPDATA=$priv" "$gu/bin/calls.log" &&
		case $cwd in *nova-toolchain.*) true ;; *) false ;; esac &&
		! ls "$tu" | grep -q '^nova-toolchain\.'; then
		hres "host: run --go: go is asked in a private directory, GOENV=off GOFLAGS= GOTOOLCHAIN=local, removed after" 0
	else
		hres "host: run --go: go is asked in a private directory, GOENV=off GOFLAGS= GOTOOLCHAIN=local, removed after" 1 \
			"cwd $cwd: $(grep '^env G\|^env USERPROFILE\|^env HOME' "$gu/bin/calls.log" | tr '\n' ' ') / $(ls "$tu")"
	fi
	unset GOFLAGS GOENV
	hcase "host: run --toolchain go adds go's roots (NOTE naming go.exe)" 0 \
		'^SANDBOX NOTE --toolchain go \(C:/nsgo/bin/go\.exe\) adds the read root\(s\): C:/nsgo/goroot C:/nsgo/modcache; never a write root$' \
		- -- run --name hg2 --size 1g --toolchain go -- "$jchild" exit 0
	printf 'C:\\\r\n' >"$gu/bin/go.answer"
	# a new answer from the same go.exe: its file changed too, as a new
	# go's would (the tool keeps a go's answers per file identity)
	touch -d '+1 minute' "$gu/bin/go.exe"
	hcase "host: run --go: a drive root answered is refused as too broad" 125 \
		'^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: C:/nsgo/bin/go\.exe answered C:\\, which holds everything: too broad' \
		- -- run --name hg3 --size 1g --go -- "$jchild" exit 0
	: >"$gu/bin/go.hang"
	touch -d '+2 minutes' "$gu/bin/go.exe"
	rm -f "$gu/bin/go.grandchild"
	hcase "host: run --go: a go that hangs is ended at the deadline: bad_toolchain" 125 \
		'^SANDBOX REFUSED reason=bad_toolchain: --toolchain go: C:/nsgo/bin/go\.exe did not answer within 10 s' \
		- -- run --name hg4 --size 1g --go -- "$jchild" exit 0
	r=0
	timeout 20 wine "$jhost" alive 'C:\nsgo\bin\go.grandchild' </dev/null \
		>/dev/null 2>&1 || r=$?
	[ "$r" = 1 ] && [ ! -e "$tu/nova-hg4" ] &&
		! ls "$tu" | grep -q '^nova-toolchain\.' &&
		hres "host: run --go: the hung go's grandchild is gone, nothing made" 0 ||
		hres "host: run --go: the hung go's grandchild is gone, nothing made" 1 \
			"alive answered $r (0 running, 2 no pid); $(ls "$tu")"
	# go.exe found on a PATH entry named in UTF-8, answering roots so named
	# (the go.exe above gone, so no other is found)
	gn='ü日本😀'
	rm -rf "$gu/bin"
	mkdir -p "$gu/$gn/bin" "$gu/$gn/goroot" "$gu/$gn/modcache"
	cp "$WB/tests/windows/fake_tool.exe" "$gu/$gn/bin/go.exe"
	printf 'C:\\nsgo\\%s\\goroot\r\nC:\\nsgo\\%s\\modcache\r\n' "$gn" "$gn" \
		>"$gu/$gn/bin/go.answer"
	export WINEPATH="C:\\nsgo\\$gn\\bin"
	hcase "host: run --go: a go.exe under ü日本😀 on PATH, its roots so named" 0 \
		"^SANDBOX NOTE --go added 2 read root\\(s\\) from go env: C:/nsgo/$gn/goroot C:/nsgo/$gn/modcache\$" \
		- -- run --name hg5 --size 1g --go -- "$jchild" exit 0
	unset WINEPATH
	rm -rf "$gu"
}
