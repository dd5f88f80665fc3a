#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/windows/host.sh -- the real nova-sandbox.exe under Wine, sourced by
# tests/windows/run.sh (WINEPREFIX, $log and the wine settings are its).
# usage (from run.sh): . host.sh; host_suite <nova-sandbox.exe>
# Each case runs the exe by full path under timeout and prints one
# "PASS <name>" or "FAIL <name> -- <why>" line into $log.  The configs live
# under the prefix's C: drive (a directory only the user can write: the
# trust check accepts it), and one under Z:/tmp (world-writable: refused).

hskip() { # name, why: Wine does not implement what it tests
	printf 'SKIP %s -- %s\n' "$1" "$2" >>"$log"
	printf '  SKIP %s -- %s\n' "$1" "$2"
}

hres() { # name, verdict (0 pass), why
	if [ "$2" = 0 ]; then
		l="PASS $1"
	else
		l=$(printf 'FAIL %s -- %s' "$1" "$3" | tr '\n' ' ')
		rc=1
	fi
	printf '%s\n' "$l" >>"$log"
	printf '  %s\n' "$l"
}

# hcase <name> <want exit> <want a line matching (grep -E)> <config|-> -- args
hcase() {
	name=$1 want=$2 pat=$3 cfg=$4
	shift 5
	r=0
	if [ "$cfg" = - ]; then
		timeout 60 wine "$hexe" "$@" </dev/null >"$log.h" 2>&1 || r=$?
	else
		NOVA_SANDBOX_CONFIG=$cfg timeout 60 wine "$hexe" "$@" </dev/null \
			>"$log.h" 2>&1 || r=$?
	fi
	tr -d '\r' <"$log.h" >"$log.h2"
	if [ "$r" != "$want" ]; then
		hres "$name" 1 "exit $r, wanted $want: $(head -c 300 "$log.h2")"
	elif ! grep -Eq -- "$pat" "$log.h2"; then
		hres "$name" 1 "no line matches /$pat/: $(head -c 300 "$log.h2")"
	else
		hres "$name" 0
	fi
}

host_suite() {
	hexe=$1
	c=$WINEPREFIX/drive_c/nsconf
	mkdir -p "$c/conf.d" "$c/bad" "$c/one"
	printf '[windows]\nwall = jobobject.dll\nbogus = 1\n' >"$c/bad/x.conf"
	printf '[windows]\nwall = nothere.dll\n' >"$c/one/miss.conf"
	echo 'not a Windows program' >"$c/fake.dll"
	printf '[windows]\nwall = C:/nsconf/fake.dll\n' >"$c/one/fake.conf"
	printf '[windows]\nwall = sub/x.dll\n' >"$c/one/rel.conf"
	printf '[nova-sandbox]\n' >"$c/main.conf"
	printf '[windows]\nwall = fromdropin.dll\n' >"$c/conf.d/10-x.conf"
	ww=$(mktemp -d "${TMPDIR:-/tmp}/nova-wine-ww.XXXXXX")
	chmod 0777 "$ww"
	printf '[windows]\nwall = jobobject.dll\n' >"$ww/ok.conf"
	chmod 0644 "$ww/ok.conf"

	hcase "host: version names windows/amd64" 0 \
		'^nova-sandbox [0-9.]+ windows/amd64 .*platform=windows' - -- version
	hcase "host: modules lists jobobject.dll as the wall, available" 0 \
		'^MODULE role=wall file=jobobject\.dll from=default .*shape=container available=yes' \
		- -- modules
	hcase "host: modules lists jobobject.dll as the place, available" 0 \
		'^MODULE role=place file=jobobject\.dll from=default .*available=yes' \
		- -- modules
	hcase "host: check says the wall, under Wine" 0 \
		'^CHECK OK backend=jobobject abi=wine ' - -- check
	grep -q 'a job takes no CPU rate here: run --cpu is refused' "$log.h2" &&
		hres "host: check says a job takes no CPU rate here (Wine)" 0 ||
		hres "host: check says a job takes no CPU rate here (Wine)" 1 \
			"$(head -c 300 "$log.h2")"
	hcase "host: a config key that does not exist is refused with file:line" 2 \
		'^MODULES REFUSED reason=bad_config: C:/nsconf/bad/x\.conf:3: unknown key "bogus" in \[windows\]' \
		'C:/nsconf/bad/x.conf' -- modules
	hcase "host: a config under a directory Everyone may change is refused" 2 \
		"^MODULES REFUSED reason=bad_config: Z:$ww/ok\.conf: config refused: .* can be changed by S-1-1-0" \
		"Z:$ww/ok.conf" -- modules
	hcase "host: a conf.d drop-in beside the config is read (control)" 1 \
		'^MODULE role=wall file=fromdropin\.dll from=C:\\nsconf/conf\.d/10-x\.conf:2 available=no refused=not_found' \
		'C:\nsconf\main.conf' -- modules
	hcase "host: the loader refuses a module that is not there" 0 \
		'no_sandbox: wall module .*/nothere\.dll refused \(not_found\): .*named by C:/nsconf/one/miss\.conf:2' \
		'C:/nsconf/one/miss.conf' -- check
	hcase "host: the loader refuses a file that is not a Windows DLL" 0 \
		'wall module C:/nsconf/fake\.dll refused \(not_loadable\): C:/nsconf/fake\.dll is not a Windows DLL' \
		'C:/nsconf/one/fake.conf' -- check
	hcase "host: a module named by a relative path is refused" 0 \
		'bad_config: C:/nsconf/one/rel\.conf:2: wall in \[windows\]: "sub/x\.dll" is neither a bare file name' \
		'C:/nsconf/one/rel.conf' -- check
	hcase "host: egress is not built on windows (nftables)" 2 \
		'^SANDBOX REFUSED reason=no_sandbox: egress is not built on windows: ' \
		- -- egress plan
	host_reap
	host_policy
	host_wrap
	host_run
	host_job
	host_long
	host_utf8
	rm -rf "$ww" "$log.h" "$log.h2"
}

# no line of the last case matches (grep -E)
hnone() { # name, pattern
	if grep -Eq -- "$2" "$log.h2"; then
		hres "$1" 1 "a line matches /$2/: $(grep -E -- "$2" "$log.h2" | head -c 300)"
	else
		hres "$1" 0
	fi
}

hgone() { # name, unix path that must not exist
	[ ! -e "$2" ] && hres "$1" 0 || hres "$1" 1 "$2 is there"
}

# run's Windows flags (reference section 8, ABI 1.3): --cpu (the job's CPU
# rate: Wine has none, so refused), --memory (the job's memory limit, as
# --max-mem: the smaller applies; Wine keeps no job limit, so the value is
# read from finish()'s cap NOTE), --place, --scratch (the directory the
# scratch is made in: refused unless an existing directory of the user's
# that no one else may change; not reap's).  $tu/$tw from host_run.
host_job() {
	hcase "host: run --cpu where a job takes no CPU rate (Wine) is bad_cpu" 125 \
		'^SANDBOX REFUSED reason=bad_cpu: --cpu 50: this Windows cannot cap a job.s CPU rate \(JobObjectCpuRateControlInformation: error 87\); without the CPU cap, run: nova-sandbox run --name hj1 --size 1g -- ' \
		- -- run --name hj1 --size 1g --cpu 50 -- "$jchild" exit 0
	hgone "host: run --cpu refused: the scratch is removed" "$tu/nova-hj1"
	hcase "host: run --memory with --max-mem: the smaller is the job's limit" 137 \
		'^SANDBOX NOTE --memory 64m is the job.s memory limit \(JobMemoryLimit, the whole tree\), as --max-mem is; with --max-mem 1g the smaller, 64m, applies$' \
		- -- run --name hj2 --size 1g --memory 64m --max-mem 1g \
		--max-procs 3 -- "$jchild" many 5
	grep -q '^SANDBOX NOTE the job reached a cap (processes 3, memory 67108864 bytes) and was ended$' "$log.h2" &&
		hres "host: run --memory: the job got 64m (the cap's NOTE)" 0 ||
		hres "host: run --memory: the job got 64m (the cap's NOTE)" 1 \
			"$(grep 'reached a cap' "$log.h2")"
	hcase "host: run --memory alone replaces --max-mem's default 8g" 137 \
		'^SANDBOX NOTE the job reached a cap \(processes 3, memory 17179869184 bytes\) and was ended$' \
		- -- run --name hj3 --size 1g --memory 16g --max-procs 3 -- \
		"$jchild" many 5
	hcase "host: run --place job is the default, taken silently" 0 \
		'^SANDBOX DONE name=hj4 exit=0 ' - -- run --name hj4 --size 1g \
		--place job -- "$jchild" exit 0
	hnone "host: run --place job: no NOTE about it" 'NOTE .*--place'
	hcase "host: run --place wsb is no_wsb: Windows Sandbox is not built" 125 \
		'^SANDBOX REFUSED reason=no_wsb: --place wsb \(Windows Sandbox\) is not built: it is a Hyper-V virtual machine' \
		- -- run --name hj5 --size 1g --place wsb -- "$jchild" exit 0
	hgone "host: run --place wsb: nothing made" "$tu/nova-hj5"
	sd=$WINEPREFIX/drive_c/ns-scr
	mkdir -p "$sd"
	hcase "host: run --scratch: the scratch is made in that directory" 0 \
		'^SANDBOX OK name=hj6 .*cwd=C:/ns-scr/nova-hj6/work .*deletes=C:\\ns-scr\\nova-hj6$' \
		- -- run --name hj6 --size 1g --scratch C:/ns-scr -- "$jchild" \
		write RESULT.md
	[ -d "$sd" ] && [ ! -e "$sd/nova-hj6" ] && [ ! -e "$tu/nova-hj6" ] &&
		hres "host: run --scratch: deleted after the run, the directory kept" 0 ||
		hres "host: run --scratch: deleted after the run, the directory kept" 1 \
			"$(ls -a "$sd" 2>&1)"
	# the red team moved its scratch away and left a decoy the delete
	# then removed: a --scratch the command may change is refused
	hcase "host: run --scratch inside a --write is bad_scratch, nothing made" 125 \
		'^SANDBOX REFUSED reason=bad_scratch: --scratch C:/ns-scr is inside --write C:/ns-scr: the command could move its scratch away' \
		- -- run --name hj11 --size 1g --write C:/ns-scr --scratch C:/ns-scr -- \
		"$jchild" exit 0
	hgone "host: run --scratch inside a --write: nothing made in it" \
		"$WINEPREFIX/drive_c/ns-scr/nova-hj11"
	hcase "host: run --scratch: a relative one is bad_scratch" 125 \
		'^SANDBOX REFUSED reason=bad_scratch: --scratch wants an absolute directory to make the scratch in, got ns-scr' \
		- -- run --name hj7 --size 1g --scratch ns-scr -- "$jchild" exit 0
	hcase "host: run --scratch: a missing one is bad_scratch, none created" 125 \
		'^SANDBOX REFUSED reason=bad_scratch: --scratch C:/ns-scr-no does not exist; none is created' \
		- -- run --name hj8 --size 1g --scratch C:/ns-scr-no -- "$jchild" \
		exit 0
	hgone "host: run --scratch: the missing one stays missing" \
		"$WINEPREFIX/drive_c/ns-scr-no"
	echo x >"$sd.txt"
	hcase "host: run --scratch: a file is bad_scratch" 125 \
		'^SANDBOX REFUSED reason=bad_scratch: --scratch C:/ns-scr\.txt is not a directory' \
		- -- run --name hj9 --size 1g --scratch C:/ns-scr.txt -- \
		"$jchild" exit 0
	hcase "host: run --scratch: one another user may change is bad_scratch" 125 \
		"^SANDBOX REFUSED reason=bad_scratch: --scratch Z:$ww can be changed by another user" \
		- -- run --name hj10 --size 1g --scratch "Z:$ww" -- "$jchild" \
		exit 0
	hgone "host: run --scratch refused: nothing made in it" "$ww/nova-hj10"
	hgone "host: run --scratch refused: nothing made in the temp directory" \
		"$tu/nova-hj10"
	rm -rf "$sd" "$sd.txt"
}

# Paths longer than MAX_PATH (260): the host's Windows layer passes them
# as "\\?\" forms, the module too; the command starts in a long working
# directory by its 8.3 name.  A run whose --scratch and --out are 300
# characters deep, and the wrap with a --write (its cwd) and a --read as
# deep.
host_long() {
	lw=C:/ns-long lu=$WINEPREFIX/drive_c/ns-long
	for i in 1 2 3 4 5 6 7; do
		lw=$lw/$i-dddddddddddddddddddddddddddddddddddddddd
		lu=$lu/$i-dddddddddddddddddddddddddddddddddddddddd
	done
	mkdir -p "$lu/scr" "$lu/out" "$lu/read"
	hcase "host: long paths: run --scratch and --out deeper than 260 characters" 0 \
		'^SANDBOX OUT name=hl1 files=1 bytes=1$' - -- run --name hl1 \
		--size 1g --scratch "$lw/scr" --out "$lw/out" --read "$lw/read" \
		-- "$jchild" write RESULT.md
	[ "$(cat "$lu/out/hl1/RESULT.md" 2>/dev/null)" = x ] &&
		[ ! -e "$lu/scr/nova-hl1" ] &&
		hres "host: long paths: the handoff arrived, the deep scratch is gone" 0 ||
		hres "host: long paths: the handoff arrived, the deep scratch is gone" 1 \
			"$(ls "$lu/out" "$lu/scr" 2>&1 | tr '\n' ' ')"
	pl=$pf/ns-long plu=$pu/ns-long
	for i in 1 2 3 4 5 6 7; do
		pl=$pl/$i-dddddddddddddddddddddddddddddddddddddddd
		plu=$plu/$i-dddddddddddddddddddddddddddddddddddddddd
	done
	mkdir -p "$plu"
	hcase "host: long paths: the wrap with a --write (the cwd) and a --read deeper than 260" 0 \
		'^SANDBOX DONE exit=0 cmd=jo_child\.exe$' - -- --write "$pl" \
		--write "$pf" --read "$lw/read" -- "$jchild" write f.txt
	[ "$(cat "$plu/f.txt" 2>/dev/null)" = x ] &&
		hres "host: long paths: the command wrote in its deep working directory" 0 ||
		hres "host: long paths: the command wrote in its deep working directory" 1 \
			"$plu/f.txt: $(cat "$plu/f.txt" 2>&1)"
	rm -rf "$lu" "$pu/ns-long"
}

# run through the exe: the no-fork flow (run/nofork.c) with jobobject.dll
# as the place (the scratch %TEMP%\nova-<name>) and the wall (the job).
# $tu is the temp directory's Unix path, $tw its Windows one.
host_run() {
	tw=$(timeout 20 wine cmd /c 'echo %TEMP%' </dev/null | tr -d '\r')
	tu=$WINEPREFIX/drive_c/$(printf '%s' "${tw#C:\\}" | tr '\\' /)
	hcase "host: run: the command's exit code (5) is the run's" 5 \
		'^SANDBOX DONE name=hr1 exit=5 ' - -- run --name hr1 --size 1g \
		-- "$jchild" exit 5
	[ ! -e "$tu/nova-hr1" ] && hres "host: run: the scratch is deleted after a normal exit" 0 ||
		hres "host: run: the scratch is deleted after a normal exit" 1 \
			"$tu/nova-hr1 is still there"
	hcase "host: run: the steps and OK name the scratch's work/ as the cwd" 0 \
		'^SANDBOX OK name=hr2 place=jobobject backend=jobobject abi=wine read=0 write=1 .*cwd=[^ ]*/nova-hr2/work ' \
		- -- run --name hr2 --size 1g -- "$jchild" exit 0
	hcase "host: run: --timeout ends the job: 124" 124 \
		'^SANDBOX DONE name=hr3 exit=124 wall=[2-9]\.' - -- run --name hr3 \
		--size 1g --timeout 2s -- "$jchild" sleep 60000
	grep -q '^SANDBOX TIMEOUT after=2s name=hr3$' "$log.h2" &&
		hres "host: run: --timeout says TIMEOUT before DONE" 0 ||
		hres "host: run: --timeout says TIMEOUT before DONE" 1 \
			"no TIMEOUT line: $(head -c 300 "$log.h2")"
	hcase "host: run: a runaway past --max-procs ends the job: 137" 137 \
		'^SANDBOX DONE name=hr4 exit=137 ' - -- run --name hr4 \
		--size 1g --max-procs 3 -- "$jchild" many 5
	hcase "host: run: an access violation is 139" 139 \
		'^SANDBOX DONE name=hr5 exit=139 ' - -- run --name hr5 --size 1g \
		-- "$jchild" crash
	host_run_out
	host_run_kill
	host_run_busy
	pidwin="$pf/ns-run-c.pid" pidunix="$pu/ns-run-c.pid"
	ctrlc_case "host: run: Ctrl-C ends the run: 130, DONE after the delete" \
		130 '^SANDBOX DONE name=hr9 exit=130 ' run --name hr9 --size 1g
	[ ! -e "$tu/nova-hr9" ] && hres "host: run: Ctrl-C: the scratch is deleted" 0 ||
		hres "host: run: Ctrl-C: the scratch is deleted" 1 "$tu/nova-hr9 is still there"
	rm -f "$pu/ns-run-c.pid"
}

# The handoff through the exe (run/handoff.c by handles: os_open_read_at,
# os_dir_names, os_create_at): the default RESULT.md, a directory named
# with --artifact copied whole (cmd found by PATHEXT), a named artifact
# that is not there and a copy over --out-max-bytes refused with nothing
# left in --out.
host_run_out() {
	ou=$WINEPREFIX/drive_c/ns-out
	rm -rf "$ou"
	mkdir -p "$ou"
	hcase "host: run --out copies the default RESULT.md out of the scratch" 0 \
		'^SANDBOX OUT name=hr6 files=1 bytes=1$' - -- run --name hr6 \
		--size 1g --out C:/ns-out -- "$jchild" write RESULT.md
	[ "$(cat "$ou/hr6/RESULT.md" 2>/dev/null)" = x ] ||
		hres "host: run --out: RESULT.md holds the command's bytes" 1 \
			"$ou/hr6/RESULT.md: $(cat "$ou/hr6/RESULT.md" 2>&1)"
	hcase "host: run --out --artifact copies a directory whole (cmd by PATHEXT)" 0 \
		'^SANDBOX OUT name=hr10 files=1 bytes=4$' - -- run --name hr10 \
		--size 1g --out C:/ns-out --artifact d -- cmd /c \
		'mkdir d\e && echo hi> d\e\f.txt'
	[ "$(tr -d '\r' <"$ou/hr10/d/e/f.txt" 2>/dev/null)" = hi ] ||
		hres "host: run --out: the directory's file arrived" 1 \
			"$ou/hr10/d/e/f.txt is not \"hi\""
	hcase "host: run --out: a named artifact not in the place is out_failed" 125 \
		'^SANDBOX REFUSED reason=out_failed: the artifact nothere\.txt is not in the place' \
		- -- run --name hr11 --size 1g --out C:/ns-out --artifact \
		nothere.txt -- "$jchild" write RESULT.md
	hcase "host: run --out: over --out-max-bytes nothing is copied" 125 \
		'^SANDBOX REFUSED reason=out_failed: the artifacts hold [0-9]+ bytes, over --out-max-bytes 1; nothing was copied' \
		- -- run --name hr12 --size 1g --out C:/ns-out --out-max-bytes 1 \
		--artifact a -- cmd /c 'mkdir a && echo x> a\b.txt'
	[ ! -e "$ou/hr11" ] && [ ! -e "$ou/hr12" ] &&
		hres "host: run --out: a refused handoff leaves nothing in --out" 0 ||
		hres "host: run --out: a refused handoff leaves nothing in --out" 1 \
			"$(ls "$ou")"
	rm -rf "$ou"
}

# W7 and W10 through the exe: run's host killed while its command and the
# command's child sleep in the job: the tree dies with the host; the
# scratch stays (nothing ran the delete) and reap removes it (its owner
# is dead).
host_run_kill() {
	n="host: run: kill of the host kills the command's tree"
	rm -rf "$tu/nova-hr7"
	wine "$hexe" run --name hr7 --size 1g -- "$jchild" tree k.pid stay \
		</dev/null >"$log.k" 2>&1 &
	kp=$!
	i=0
	while [ ! -s "$tu/nova-hr7/work/k.pid" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	r=0
	timeout 20 wine "$jhost" alive "$tw\\nova-hr7\\work\\k.pid" </dev/null \
		>/dev/null 2>&1 || r=$?
	if [ "$r" != 0 ]; then
		kill -9 "$kp" 2>/dev/null || true
		wait "$kp" 2>/dev/null || true
		hres "$n" 1 "the grandchild was not running before the kill ($r)"
		return
	fi
	kill -9 "$kp" 2>/dev/null || true
	wait "$kp" 2>/dev/null || true
	i=0
	while [ $i -lt 50 ]; do
		r=0
		timeout 20 wine "$jhost" alive "$tw\\nova-hr7\\work\\k.pid" \
			</dev/null >/dev/null 2>&1 || r=$?
		[ "$r" = 1 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ "$r" = 1 ] && hres "$n" 0 || hres "$n" 1 "the grandchild outlived the host"
	[ -d "$tu/nova-hr7" ] && hres "host: run: the killed run's scratch is left for reap" 0 ||
		hres "host: run: the killed run's scratch is left for reap" 1 \
			"$tu/nova-hr7 is gone: nothing for reap to show"
	hcase "host: run: reap removes the killed run's scratch (dead owner)" 0 \
		'^SANDBOX REAP volume=nova-hr7 procs=0 deleted=yes' - -- reap
	[ ! -e "$tu/nova-hr7" ] ||
		hres "host: run: reap removes the killed run's scratch (gone)" 1 \
			"$tu/nova-hr7 is still there"
	rm -f "$log.k"
}

# W9 through the exe: a process outside the job holds a file of the
# scratch open without sharing while the run ends: the delete is retried,
# then LEAK with the remedy and exit 3; the holder gone, reap clears it.
host_run_busy() {
	n="host: run: a busy scratch is a LEAK with its remedy and exit 3"
	rm -rf "$tu/nova-hr8"
	wine "$hexe" run --name hr8 --size 1g -- "$jchild" sleep 3000 \
		</dev/null >"$log.b" 2>&1 &
	bp=$!
	i=0
	while [ ! -d "$tu/nova-hr8/work" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wine "$jhost" hold "$tw\\nova-hr8\\work\\busy.txt" </dev/null \
		>/dev/null 2>&1 &
	hp=$!
	r=0
	wait "$bp" || r=$?
	tr -d '\r' <"$log.b" >"$log.b2"
	if [ "$r" = 3 ] && grep -q '^SANDBOX LEAK name=hr8 volume=nova-hr8 remedy="nova-sandbox reap"$' "$log.b2"; then
		hres "$n" 0
	else
		hres "$n" 1 "exit $r: $(head -c 300 "$log.b2")"
	fi
	kill -9 "$hp" 2>/dev/null || true
	wait "$hp" 2>/dev/null || true
	hcase "host: run: reap clears the leaked scratch once it is free" 0 \
		'^SANDBOX REAP volume=nova-hr8 procs=0 deleted=yes' - -- reap
	[ ! -e "$tu/nova-hr8" ] ||
		hres "host: run: reap clears the leaked scratch (gone)" 1 \
			"$tu/nova-hr8 is still there"
	rm -f "$log.b" "$log.b2"
}

# The wrap through the exe: jobobject.dll's job as the whole process model
# (no host reaper on Windows), jo_child.exe as the command.  $jchild is
# its Windows path (run.sh), $prof/$pf/$pu the profile (host_policy).
host_wrap() {
	jw=$pu/ns-wrap
	mkdir -p "$jw"
	hcase "host: the wrap passes the command's exit code through (7)" 7 \
		'^SANDBOX DONE exit=7 cmd=jo_child\.exe$' - -- \
		--write "$pf" -- "$jchild" exit 7
	hcase "host: the wrap says OK with jobobject before the command runs" 0 \
		'^SANDBOX OK backend=jobobject abi=wine .*write=1 .*cmd=jo_child\.exe ' \
		- -- --write "$pf" -- "$jchild" exit 0
	hcase "host: the wrap: a write inside --write succeeds (control)" 0 \
		'^SANDBOX DONE exit=0 ' - -- \
		--write "$pf" -- "$jchild" write "$pf/ns-wrap/in.txt"
	[ -f "$jw/in.txt" ] ||
		hres "host: the wrap: a write inside --write succeeds (the file)" 1 \
			"$jw/in.txt was not written"
	if grep -q 'abi=wine' "$log.h2"; then
		hskip "host: the wrap denies a write outside --write" \
			"integrity levels and labels are not enforced"
	else
		hcase "host: the wrap denies a write outside --write" 1 \
			'^SANDBOX DONE exit=1 ' - -- \
			--write "$pf/ns-wrap" -- "$jchild" write C:/ns-outside.txt
	fi
	hcase "host: the wrap maps an access violation to 139" 139 \
		'^SANDBOX DONE exit=139 ' - -- --write "$pf" -- "$jchild" crash
	hcase "host: the wrap maps a fail-fast (0xC0000409) to 134" 134 \
		'^SANDBOX DONE exit=134 ' - -- --write "$pf" -- "$jchild" \
		status C0000409
	hcase "host: the wrap maps a Ctrl-C exit (0xC000013A) to 130" 130 \
		'^SANDBOX DONE exit=130 ' - -- --write "$pf" -- "$jchild" \
		status C000013A
	hcase "host: the wrap maps an exception status the table does not name (0xE0000000) to 134, not its low byte" 134 \
		'^SANDBOX DONE exit=134 ' - -- --write "$pf" -- "$jchild" \
		status E0000000
	hcase "host: the wrap takes an exit code above 255 by its low byte" 44 \
		'^SANDBOX DONE exit=44 ' - -- --write "$pf" -- "$jchild" exit 300
	# grandchildren: the command exits 0 at once, its child sleeps 60 s
	# in the job; the wrap ends it and DONE says the command's own 0
	hcase "host: the wrap ends the command's grandchildren with the job" 0 \
		'^SANDBOX DONE exit=0 ' - -- --write "$pf" -- "$jchild" tree \
		"$pf/ns-wrap/gc.pid"
	r=0
	timeout 20 wine "$jhost" alive "$pf/ns-wrap/gc.pid" </dev/null \
		>/dev/null 2>&1 || r=$?
	[ "$r" = 1 ] && hres "host: the wrap's grandchild is gone after DONE" 0 ||
		hres "host: the wrap's grandchild is gone after DONE" 1 \
			"alive answered $r (0 running, 2 no pid)"
	hcase "host: the wrap's command is in a job (W2)" 0 \
		'^SANDBOX DONE exit=0 cmd=jo_child\.exe$' - -- --write "$pf" -- \
		"$jchild" injob
	hcase "host: the wrap --acl caller refuses a --write with no low label" 125 \
		"^SANDBOX REFUSED reason=bad_write: --write $pf has no low mandatory label, so the low-integrity command could not write there, and under --acl caller the tool changes nothing: .*; with the wall's own labels, run: nova-sandbox --write " \
		- -- --write "$pf" --acl caller -- "$jchild" exit 0
	hnone "host: the wrap --acl caller refused: the command did not run" \
		'^SANDBOX (OK|DONE)'
	hcase "host: the wrap --acl tool is the default, no NOTE" 0 \
		'^SANDBOX DONE exit=0 ' - -- --write "$pf" --acl tool -- \
		"$jchild" exit 0
	hnone "host: the wrap --acl tool: not 'accepted and ignored'" \
		'--acl .*accepted and ignored'
	hcase "host: the wrap --name says there is no container to name" 0 \
		'^SANDBOX NOTE --name box names no container: the jobobject wall has no AppContainer' \
		- -- --write "$pf" --name box -- "$jchild" exit 0
	host_wrap_args
	host_wrap_kill
	host_wrap_ctrlc
	hcase "host: the wrap refuses a command that is not a Windows program" 125 \
		'^SANDBOX REFUSED reason=not_executable: ' - -- \
		--write "$pf" -- "$pf/ns-wrap/in.txt"
	rm -rf "$jw"
}

# W3 through the exe: the arguments reach the command exactly (the host's
# argv -> the wall's command line -> the C runtime's parse), each printed
# back by jo_child.exe followed by a NUL.
host_wrap_args() {
	n="host: the wrap passes hostile arguments exactly (W3)"
	r=0
	timeout 60 wine "$hexe" --write "$pf" -- "$jchild" args 'a b' 'c"d' \
		'e\' 'f\\"g' '' 'sp ace\' 'h' </dev/null >"$log.a" 2>"$log.a2" ||
		r=$?
	printf 'a b\000c"d\000e\\\000f\\\\"g\000\000sp ace\\\000h\000' \
		>"$log.a3"
	if [ "$r" = 0 ] && cmp -s "$log.a" "$log.a3"; then
		hres "$n" 0
	else
		hres "$n" 1 "exit $r, got $(od -c "$log.a" | head -3 | tr '\n' ' ')"
	fi
	rm -f "$log.a" "$log.a2" "$log.a3"
}

# Ctrl-C: SIGINT to the host's Wine process, which Wine delivers as the
# console's Ctrl-C event (os_catch_stop_signals' handler): the wrap ends
# the job through terminate() (143, a caught signal) and the command's
# child is gone.  $1 the name, the rest the exe's words before the
# command; $pidwin the pid file's Windows path, $pidunix its Unix path.
ctrlc_case() {
	n=$1 want=$2 pat=$3
	shift 3
	rm -f "$pidunix"
	wine "$hexe" "$@" -- "$jchild" tree "$pidwin" stay </dev/null \
		>"$log.c" 2>&1 &
	cp=$!
	i=0
	while [ ! -s "$pidunix" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
	kill -INT "$cp" 2>/dev/null || true
	r=0
	# a host that ignored the event is ended here, never left behind
	( sleep 20; kill -9 "$cp" 2>/dev/null ) &
	gp=$!
	wait "$cp" || r=$?
	kill "$gp" 2>/dev/null || true
	wait "$gp" 2>/dev/null || true
	tr -d '\r' <"$log.c" >"$log.c2"
	a=0
	timeout 20 wine "$jhost" alive "$pidwin" </dev/null >/dev/null 2>&1 || a=$?
	if [ "$r" != "$want" ] || ! grep -Eq "$pat" "$log.c2"; then
		hres "$n" 1 "exit $r, wanted $want: $(head -c 300 "$log.c2")"
	elif [ "$a" != 1 ]; then
		hres "$n" 1 "the command's child outlived the Ctrl-C (alive: $a)"
	else
		hres "$n" 0
	fi
	rm -f "$log.c" "$log.c2"
}

host_wrap_ctrlc() {
	pidwin="$pf/ns-wrap/c.pid" pidunix="$jw/c.pid"
	ctrlc_case "host: Ctrl-C ends the wrap's tree through the wall: 143" \
		143 '^SANDBOX DONE exit=143 cmd=jo_child\.exe$' --write "$pf"
}

# W7 through the exe: the host killed (SIGKILL of its Wine process: no
# handler runs) while the command and its grandchild sleep in the job; the
# job's only handle closes with the process, so the tree dies with it.
host_wrap_kill() {
	n="host: kill of the wrap's host kills the command's tree"
	rm -f "$jw/k.pid"
	# no timeout(1) between: $! is the Wine process of the exe itself
	# (wine execs its loader), killed below in every case
	wine "$hexe" --write "$pf" -- "$jchild" tree "$pf/ns-wrap/k.pid" \
		stay </dev/null >"$log.k" 2>&1 &
	kp=$!
	i=0
	while [ ! -s "$jw/k.pid" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	r=0
	timeout 20 wine "$jhost" alive "$pf/ns-wrap/k.pid" </dev/null \
		>/dev/null 2>&1 || r=$?
	if [ "$r" != 0 ]; then
		kill -9 "$kp" 2>/dev/null || true
		wait "$kp" 2>/dev/null || true
		hres "$n" 1 "the grandchild was not running before the kill ($r)"
		return
	fi
	kill -9 "$kp" 2>/dev/null || true
	wait "$kp" 2>/dev/null || true
	i=0
	r=0
	while [ $i -lt 50 ]; do
		r=0
		timeout 20 wine "$jhost" alive "$pf/ns-wrap/k.pid" </dev/null \
			>/dev/null 2>&1 || r=$?
		[ "$r" = 1 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ "$r" = 1 ] && hres "$n" 0 || hres "$n" 1 "the grandchild outlived the host"
	rm -f "$log.k"
}

# policy through the exe: the policy room's walk on Windows (os/windows/
# walk.c) -- a --write resolved by handles, the command found on PATH,
# rule 5's refusals, the wall's text from jobobject.dll.  The home guard
# asks for %USERPROFILE% inside a --write, so the profile is the --write.
host_policy() {
	prof=$(timeout 20 wine cmd /c 'echo %USERPROFILE%' </dev/null | tr -d '\r')
	pu=$WINEPREFIX/drive_c/$(printf '%s' "${prof#C:\\}" | tr '\\' /)
	pf=$(printf '%s' "$prof" | tr '\\' /)
	mkdir -p "$pu/ns-proj"
	echo x >"$pu/ns-file.txt"
	hcase "host: policy prints the wall for a --write (the profile)" 0 \
		"^write $pf label=low\$" - -- policy --write "$prof"
	hcase "host: policy's OK line counts the --write and names jobobject" 0 \
		'^POLICY OK backend=jobobject read=0 read-noexec=0 write=1 ' \
		- -- policy --write "$pf"
	hcase "host: policy finds the command on PATH (cmd.exe's directory read)" 0 \
		'^read-exec C:/windows/system32 ' - -- policy --write "$pf"
	hcase "host: policy takes a --read beside the --write" 0 \
		"^POLICY OK backend=jobobject read=1 .*write=2 " \
		- -- policy --write "$pf/ns-proj" --write "$pf" --read C:/windows
	hcase "host: policy refuses a relative --write, naming the absolute path" 2 \
		'^POLICY REFUSED reason=bad_write: --write ns-proj is relative: name it by its absolute path, ' \
		- -- policy --write ns-proj
	hcase "host: policy refuses a --write that does not exist" 2 \
		'^POLICY REFUSED reason=bad_write: --write C:/ns-nothere does not exist; none is created' \
		- -- policy --write C:/ns-nothere
	hcase "host: policy refuses a --write that is a file" 2 \
		"^POLICY REFUSED reason=bad_write: --write $pf/ns-file\\.txt is not a directory" \
		- -- policy --write "$pf/ns-file.txt"
	hcase "host: policy refuses one directory as --read and --write (by identity)" 2 \
		'^POLICY REFUSED reason=bad_read: --read and --write both name ' \
		- -- policy --write "$pf" --read "$prof"
	hcase "host: policy refuses a --write outside the profile (home guard)" 2 \
		"^POLICY REFUSED reason=home_outside: HOME .* is outside every --write" \
		- -- policy --write "$pf/ns-proj"
	hcase "host: policy refuses a command not on PATH" 2 \
		'^POLICY REFUSED reason=not_found: command ns-nothere\.exe is not on PATH' \
		- -- policy --write "$pf" -- ns-nothere.exe
	rm -rf "$pu/ns-proj" "$pu/ns-file.txt"
}

# reap through the exe: jobobject.dll's list() of the scratches in the
# Windows temp directory, the owner's liveness (os_pid_alive), destroy().
# (A live owner's scratch kept is W10 in wintest.c: a marker with a live
# process's start time cannot be written from here.)
host_reap() {
	t=$(timeout 20 wine cmd /c 'echo %TEMP%' </dev/null | tr -d '\r')
	u=$WINEPREFIX/drive_c/$(printf '%s' "${t#C:\\}" | tr '\\' /)
	mkdir -p "$u/nova-hdead"
	# pid 4000000: no process (Windows pids are multiples of 4 below that)
	printf 'pid=4000000\nstart=1\n' >"$u/nova-hdead/.nova-sandbox-owner"
	echo x >"$u/nova-hdead/left.txt"
	hcase "host: reap removes a scratch whose owner is dead" 0 \
		'^SANDBOX REAP volume=nova-hdead procs=0 deleted=yes' - -- reap
	[ ! -e "$u/nova-hdead" ] ||
		hres "host: reap removes a scratch whose owner is dead (gone)" 1 \
			"$u/nova-hdead is still there"
	mkdir -p "$u/nova-hnomark"
	echo x >"$u/nova-hnomark/keep.txt"
	hcase "host: reap leaves a nova- directory with no owner marker" 3 \
		'^SANDBOX REAP volume=nova-hnomark procs=0 deleted=no' - -- reap
	[ -f "$u/nova-hnomark/keep.txt" ] ||
		hres "host: reap leaves a nova- directory with no owner marker (kept)" 1 \
			"$u/nova-hnomark/keep.txt was removed"
	rm -rf "$u/nova-hnomark"
}

# hbytes <name> <file of the exact bytes wanted> -- exe args: the exe's
# stdout, byte for byte, and exit 0
hbytes() {
	n=$1 wantf=$2
	shift 3
	r=0
	timeout 60 wine "$hexe" "$@" </dev/null >"$log.b" 2>"$log.b2" || r=$?
	if [ "$r" = 0 ] && cmp -s "$log.b" "$wantf"; then
		hres "$n" 0
	else
		hres "$n" 1 "exit $r, got $(od -An -c "$log.b" | head -3 | tr -s ' \n' ' ') / $(tr -d '\r' <"$log.b2" | grep REFUSED | head -c 300)"
	fi
	rm -f "$log.b" "$log.b2"
}

# UTF-8 through the exe: the C runtime gives main() ANSI strings, the
# host takes the wide ones (os_main_args) and speaks UTF-8; Win32 gets
# UTF-16.  Names with a Latin-1 letter, CJK and an emoji outside the BMP
# (a surrogate pair in UTF-16, '?' in any ANSI code page): as --write,
# --scratch, arguments, environment values, the config's and the tool's
# own directory.  An unpaired surrogate, which a Unix shell cannot pass
# (Wine would make it U+FFFD), comes from jo_child.exe's `lone` (a
# Windows parent).  $pf/$pu the profile (host_policy).
host_utf8() {
	u1='ü' u2='日本' u3='😀'
	for d in "$u1" "$u2" "$u3"; do mkdir -p "$pu/ns-$d"; done
	hcase "host: utf-8: a --write named ü, 日本 and an emoji is written through" 0 \
		'^SANDBOX DONE exit=0 cmd=jo_child\.exe$' - -- --write "$pf" \
		--write "$pf/ns-$u1" --write "$pf/ns-$u2" --write "$pf/ns-$u3" \
		-- "$jchild" write "$pf/ns-$u3/$u1$u2.txt"
	[ "$(cat "$pu/ns-$u3/$u1$u2.txt" 2>/dev/null)" = x ] &&
		grep -q "^SANDBOX OK .* write=4 .*deletes=.*,$pf/ns-$u3\(,\|\$\)" "$log.h2" &&
		hres "host: utf-8: the file is there, the OK line names the --write" 0 ||
		hres "host: utf-8: the file is there, the OK line names the --write" 1 \
			"no $pu/ns-$u3/$u1$u2.txt, or the OK line: $(grep '^SANDBOX OK' "$log.h2")"
	mkdir -p "$pu/ns-$u1$u2$u3"
	hcase "host: utf-8: policy names a non-ASCII --write exactly" 0 \
		"^write $pf/ns-$u1$u2$u3 label=low\$" - -- policy --write "$pf" \
		--write "$pf/ns-$u1$u2$u3"
	sd=$WINEPREFIX/drive_c/ns-$u1$u2$u3-scr
	mkdir -p "$sd"
	hcase "host: utf-8: run --scratch in a directory named ü日本😀" 0 \
		"^SANDBOX OK name=hu1 .*cwd=C:/ns-$u1$u2$u3-scr/nova-hu1/work " \
		- -- run --name hu1 --size 1g --scratch "C:/ns-$u1$u2$u3-scr" \
		--out "$pf/ns-$u2" -- "$jchild" write RESULT.md
	[ -d "$sd" ] && [ ! -e "$sd/nova-hu1" ] &&
		[ "$(cat "$pu/ns-$u2/hu1/RESULT.md" 2>/dev/null)" = x ] &&
		hres "host: utf-8: run --scratch: handed off to a non-ASCII --out, the scratch gone" 0 ||
		hres "host: utf-8: run --scratch: handed off to a non-ASCII --out, the scratch gone" 1 \
			"$(ls -a "$sd" "$pu/ns-$u2" 2>&1 | tr '\n' ' ')"
	printf '%s\000%s\000%s\000a %s b\000%s\000' "$u1" "$u2" "$u3" "$u1" \
		"h${u1}llo \"$u2\"\\" >"$log.want"
	hbytes "host: utf-8: arguments reach the command exactly" "$log.want" \
		-- --write "$pf" -- "$jchild" args "$u1" "$u2" "$u3" "a $u1 b" \
		"h${u1}llo \"$u2\"\\"
	printf '%s\000' "$u1$u2$u3" >"$log.want"
	export NS_UTF8="$u1$u2$u3"
	hbytes "host: utf-8: an environment value reaches the command exactly" \
		"$log.want" -- --write "$pf" -- "$jchild" env NS_UTF8
	unset NS_UTF8
	printf '%s\000' "$u2$u3" >"$log.want"
	hbytes "host: utf-8: an --env value reaches the command exactly" \
		"$log.want" -- --write "$pf" --env "NS_E=$u2$u3" -- "$jchild" \
		env NS_E
	hcase "host: utf-8: the command's environment block is sorted as Windows wants" 0 \
		'^SANDBOX DONE exit=0 ' - -- --write "$pf" --env AA_NS=1 \
		--env zz_ns=2 --env _NS=4 -- "$jchild" envsorted
	hcase "host: utf-8: Path and PATH in one environment are refused (bad_env)" 125 \
		'^SANDBOX REFUSED reason=bad_env: the environment holds (PATH and Path|Path and PATH), one variable as Windows compares names' \
		- -- --write "$pf" --env Path=C:/ns -- "$jchild" exit 0
	hnone "host: utf-8: Path and PATH refused: the command did not run" \
		'^SANDBOX (OK|DONE)'
	# run by jo_child.exe's `lone`: the exe's argument 6 holds U+D800
	hexe_keep=$hexe
	hexe=$jchild
	hcase "host: utf-8: an argument with an unpaired surrogate is refused, naming its position" 2 \
		'^SANDBOX REFUSED reason=bad_encoding: argument 6 holds UTF-16 that is no text \(an unpaired surrogate\), which has no UTF-8 form: refused, never replaced \(argument 0 is the program, 1 the first word after it\); give it as text$' \
		- -- lone "$hexe_keep" --write "$pf" -- "$jchild" args "a@Sb"
	hnone "host: utf-8: an unpaired surrogate refused: the command did not run" \
		'^SANDBOX (OK|DONE)'
	hcase "host: utf-8: every unpaired surrogate is named at once" 2 \
		'^SANDBOX REFUSED reason=bad_encoding: argument 2, argument 5 and the environment variable NS_LONE hold UTF-16 that is no text' \
		- -- lone "$hexe_keep" +env --write "@S" -- "$jchild" "@S"
	hcase "host: utf-8: the same words as text pass (control)" 0 \
		'^SANDBOX DONE exit=0 ' - -- lone "$hexe_keep" --write "$pf" -- \
		"$jchild" args "a${u3}b"
	hexe=$hexe_keep
	# the tool installed under a non-ASCII directory, its config there
	iu=$WINEPREFIX/drive_c/ns-$u1$u2$u3-inst
	mkdir -p "$iu"
	cp -R "$WB/bin" "$WB/lib" "$iu/"
	printf '[windows]\nwall = jobobject.dll\n' >"$iu/x.conf"
	hexe_keep=$hexe
	hexe="C:\\ns-$u1$u2$u3-inst\\bin\\nova-sandbox.exe"
	hcase "host: utf-8: the tool installed under ü日本😀, its config there" 0 \
		"^MODULES OK platform=windows config=C:/ns-$u1$u2$u3-inst/x\\.conf moduledir=C:/ns-$u1$u2$u3-inst/lib/nova-sandbox/1 wall=jobobject\$" \
		"C:/ns-$u1$u2$u3-inst/x.conf" -- modules
	hcase "host: utf-8: the tool installed under ü日本😀 runs a wrap" 0 \
		'^SANDBOX DONE exit=0 ' - -- --write "$pf" -- "$jchild" exit 0
	hexe=$hexe_keep
	rm -rf "$iu" "$sd" "$log.want"
	for d in "$u1" "$u2" "$u3" "$u1$u2$u3"; do rm -rf "$pu/ns-$d"; done
}
