# SPDX-License-Identifier: MIT
# attacks.sh -- the attacks of attacks.tab that need more than one command
# line (sourced by run.sh).  For attack <name> (dashes become underscores):
#
#   setup_<name>     before the action, in both phases (after the world and
#                    the table's needs and flags)
#   do_<name>        the action when the table says "@"; may set THROUGH=yes|no
#   check_<name>     after the action: 0 got through, 1 refused, 2 broken
#   teardown_<name>  after the check, in both phases
#
# $PHASE is ctl (unwalled) or wall.  See run.sh for go, go_bg, user, hold.

# Attacks whose proper defence is the tool refusing to run at all.
refuse_ok() {
	case "$1" in
	write-planted-link | read-planted-link | read-planted-link-run | \
	cmd-planted-link | \
	tmp-planted-link | cwd-planted-link | home-planted-link | \
	read-moved-tree | out-inside-write | \
	exchange-race | squat-run-name | \
	own-module-replaced | own-binary-replaced | \
	own-config-replaced | git-gitdir-climb) return 0 ;;
	esac
	return 1
}

# wait (at most 5 s) for FILE while PID lives; 1 when PID ended first
wait_ready() {
	local i
	for i in $(seq 100); do
		[ -e "$1" ] && return 0
		kill -0 "$2" 2>/dev/null || { [ -e "$1" ]; return; }
		sleep 0.05
	done
	return 1
}

# ---- base ---------------------------------------------------------------

do_inherited_fd() {
	go_cmd "$E" readfd 5
	(cd "$GCWD" && exec 5<"$O/secret" && exec "${GCMD[@]}") \
		>"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

# the command's parent: the tool when walled; unwalled, a shell of the user
# (the harness itself may be root, which the user cannot signal)
at_parent() {
	if [ "$PHASE" = ctl ]; then
		go sh -c '"$0" "$1"; exit $?' "$E" "$1"
	else
		go "$E" "$1"
	fi
}
do_kill_tool() { at_parent kill-parent; }
do_ptrace_tool() { at_parent ptrace-parent; }

# the victim marks a SIGURG it received
check_fown_sigurg_victim() {
	local i
	[ "$RC" = 0 ] || return 1
	for i in $(seq 20); do [ -e "$WORLD/mark" ] && return 0; sleep 0.05; done
	return 1
}
check_kill_all_sigurg() { check_fown_sigurg_victim; }

# a datagram counts only when the user's listener outside received it
# (inside --net-allow's namespace a sendto to 127.0.0.1 succeeds and
# reaches the namespace's own loopback, no one)
check_net_direct_udp() {
	local i
	[ "$RC" = 0 ] || return 1
	for i in $(seq 20); do [ -e "$WORLD/hold-L.got" ] && return 0; sleep 0.05; done
	return 1
}

# ---- 1 ------------------------------------------------------------------

check_setpriority_user() { [ "$(user "$EH" nice "$V_pid")" = 5 ]; }
check_ioprio_user() { [ "$(user "$EH" ioprio "$V_pid")" = $(( (2 << 13) | 7 )) ]; }

# the key must reach the user's own keyring, seen from outside
check_keyring_add() { user "$EH" key-has -4 "$KDESC"; }
check_keyring_add_session() { user "$EH" key-has -5 "$KDESC"; }
check_keyring_add_run() { user "$EH" key-has -4 "$KDESC"; }
teardown_keyring_add() { user "$EH" key-unlink "$KDESC"; }
teardown_keyring_add_session() { user "$EH" key-unlink "$KDESC"; }
teardown_keyring_add_run() { user "$EH" key-unlink "$KDESC"; }

# ---- 3 ------------------------------------------------------------------

setup_write_planted_link() {
	WF=(--read "$EB" --write "$W/olink" --write "$W/home")
}
setup_read_planted_link() {
	WF=(--read "$EB" --read "$W/rlink" --write "$W")
}
setup_home_planted_link() { GHOME="$W/hlink"; }
# root's directory holding root's link to $O, inside the user's --write:
# no user made or can change either, but the user could have renamed the
# directory to this name (issue 9's red team)
setup_read_moved_tree() {
	mkdir -m 755 "$W/mv" && ln -s "$O" "$W/mv/L"
	WF=(--read "$EB" --read "$W/mv/L" --write "$W")
}

# A process "left by an earlier run" swaps $W/p/job (a directory) and
# $W/p/swap (a symlink to $O) without pause while the caller runs the tool
# with --write $W/p/job, 20 times; the command writes into $O directly.
do_exchange_race() {
	local i
	mkdir -p "$W/p/job"
	ln -s "$O" "$W/p/swap"
	[ "$ROOT" = 1 ] && chown -hR "$TUID:$TGID" "$W/p"
	hold X xchg "$W/p/job" "$W/p/swap" || { THROUGH=broken; return; }
	WF=(--read "$EB" --write "$W/p/job" --write "$W/home")
	THROUGH=no
	for i in $(seq 20); do
		go "$E" create "$O/race-$i"
		if [ -e "$O/race-$i" ]; then THROUGH=yes; break; fi
	done
	stop_holders
}

# ---- 4 ------------------------------------------------------------------

# the survivor is found by a mark in its argv, never by a name
survivor_pids() { pgrep -f "esc survivor .*surv-$$-$IDX\$"; }
do_setsid_survivor() {
	GENV+=(TMPDIR="$W")
	go sh -c 'exec "$0" survivor "$TMPDIR/$1"' "$E" "surv-$$-$IDX"
}
check_setsid_survivor() {
	[ "$RC" = 0 ] || return 1
	[ -n "$(survivor_pids)" ]
}
teardown_setsid_survivor() {
	local p
	for p in $(survivor_pids); do kill -KILL "$p" 2>/dev/null; done
}
do_setsid_survivor_run() { do_setsid_survivor; }
check_setsid_survivor_run() { check_setsid_survivor; }
teardown_setsid_survivor_run() { teardown_setsid_survivor; }

# got through: exit 0 and no RUNAWAY; held: RUNAWAY / 137
check_mem() {
	if [ "$RC" = 0 ] && ! grep -q '^SANDBOX RUNAWAY' "$ERR"; then return 0; fi
	if [ "$RC" = 137 ] && grep -q '^SANDBOX RUNAWAY' "$ERR"; then return 1; fi
	return 2
}
check_memfd_past_max_mem() { check_mem; }
check_shmanon_past_max_mem() { check_mem; }
check_tmpfs_past_max_mem() { check_mem; }
do_tmpfs_past_max_mem() {
	RSIZE=256m
	GENV+=(TMPDIR="$W")
	go sh -c 'exec "$0" tmpfill "$TMPDIR/fill" 128m "$1"' "$E" "$HOLD"
}

# squat: the walled (or unwalled) command takes a run name by every way it
# can reach -- the abstract socket @nova-sandbox/place/<uid>/<name>, and a
# write lock on <home>/.local/state/nova-sandbox/<name>.lock, the per-user
# run-name directory under the user's home (from the password database)
# when there is no /run/user/<uid> -- with the user's home as its --write
# (the issue's "a HOME that is writable"); outside, the user then asks run
# for that name.  Got through: run says volume_exists.  Refusing a --write
# that reaches the run-name directory is a defence too.
squat_made=()
setup_squat_run_name() {
	local d
	squat_made=()
	for d in "$THOME/.nova-sandbox-tmp" "$THOME/.local" "$THOME/.local/state" \
		 "$THOME/.local/state/nova-sandbox"; do
		[ -e "$d" ] || squat_made=("$d" "${squat_made[@]}")
	done
	WF=(--read "$EB" --write "$THOME")
	GHOME="$THOME"
}
do_squat_run_name() {
	local name="sq-$$-$IDX"
	go_bg "$E" squat "$name" "$TUID" "$THOME/.local/state/nova-sandbox" "$W/ready"
	if wait_ready "$W/ready" "$BG"; then
		(cd "$W" && user env -i PATH=/usr/bin:/bin HOME="$THOME" \
			"$NS" run --name "$name" --size 8m -- /bin/true) \
			>"$WORLD/run.err" 2>&1 </dev/null
		if grep -q 'reason=volume_exists' "$WORLD/run.err"; then
			THROUGH=yes
		else
			THROUGH=no
		fi
		rm -f "$W/ready"
	fi
	wait_bg
}
teardown_squat_run_name() {
	local d
	rm -f "$THOME/.local/state/nova-sandbox/sq-$$-$IDX.lock"
	for d in "${squat_made[@]}"; do rmdir "$d" 2>/dev/null; done
}

# --status-fd 3: the tool's lines, and only them, on a descriptor the
# command never holds.  Got through when the channel is missing or carries
# anything but the tool's one DONE line with the command's real status.
FAKE_DONE='SANDBOX DONE exit=0 cmd=true'
do_spoof_done_status_fd() {
	if [ "$PHASE" = ctl ]; then
		go sh -c 'echo "$0" >&2; exit 3' "$FAKE_DONE"
		grep -qxF "$FAKE_DONE" "$ERR" && THROUGH=yes || THROUGH=no
		return
	fi
	: > "$WORLD/status"
	chmod 666 "$WORLD/status"
	printf '#!/bin/sh\nexec 3>"%s"\nexec "%s" --status-fd 3 "$@"\n' \
		"$WORLD/status" "$NS" > "$WORLD/ns-status"
	chmod 755 "$WORLD/ns-status"
	NSBIN="$WORLD/ns-status"
	go sh -c 'echo "$0" >&2; exit 3' "$FAKE_DONE"
	if [ "$(grep -c '^SANDBOX DONE' "$WORLD/status")" = 1 ] &&
	   grep -q '^SANDBOX DONE exit=3 ' "$WORLD/status"; then
		THROUGH=no
	else
		THROUGH=yes
	fi
}

# a background child waits for "go" (made after the tool has exited), then
# prints a fake DONE on the shared stderr
do_spoof_done_after() {
	local i
	go sh -c '( i=0; while [ ! -e "$0/go" ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i+1)); done
		[ -e "$0/go" ] && echo "SANDBOX DONE exit=0 cmd=true" >&2
		: > "$0/spoofed" ) & exit 0' "$W"
	user touch "$W/go"
	for i in $(seq 40); do [ -e "$W/spoofed" ] && break; sleep 0.05; done
	if [ "$(tail -n 1 "$ERR")" = "$FAKE_DONE" ]; then
		THROUGH=yes
	else
		THROUGH=no
	fi
}

# ---- 6 ------------------------------------------------------------------

# reachable, and no NOTE names it
check_socket_silent() {
	[ "$RC" = 0 ] || return 1
	! grep -q "^SANDBOX NOTE.*$O/agent.sock" "$ERR"
}
check_agent_socket_silent() { check_socket_silent; }
check_bus_socket_silent() { check_socket_silent; }

# ---- 7: a lock held inside, looked at from outside ------------------------

lock_attack() {
	go_bg "$E" "$1" "$R/data" "$W/ready"
	if wait_ready "$W/ready" "$BG"; then
		if user "$EH" blocked "$2" "$R/data"; then THROUGH=yes; else THROUGH=no; fi
		rm -f "$W/ready"
	fi
	wait_bg
}
do_flock_read() { lock_attack flock flock; }
do_ofd_lock_read() { lock_attack fcntl-lock ofd; }
do_lease_read() { lock_attack lease lease; }

# ---- 8 ------------------------------------------------------------------

check_sysv_left_behind() { user "$EH" ipc-left "$SYSKEY" >/dev/null; }
check_sysv_left_behind_run() { check_sysv_left_behind; }
teardown_sysv_left_behind() { user "$EH" ipc-clear "$SYSKEY"; }
teardown_sysv_left_behind_run() { teardown_sysv_left_behind; }

# ---- 9: hand-off: made in the place, copied out by the tool --------------
# (the control: the same tree made unwalled and copied by cp)

handoff() {
	local art=$1 gen=$2 min=$3 got
	mkdir "$WORLD/out"
	[ "$ROOT" = 1 ] && chown "$TUID:$TGID" "$WORLD/out"
	if [ "$PHASE" = ctl ]; then
		go sh -c "$gen"
		user cp -rL "$W/$art" "$WORLD/out/$art" || { THROUGH=no; return; }
		got="$WORLD/out/$art"
	else
		RF+=(--out "$WORLD/out" --artifact "$art")
		go sh -c "$gen"
		got="$WORLD/out/$RNAME/$art"
	fi
	if [ "$(find "$got" -mindepth "$min" 2>/dev/null | head -1)" != "" ] ||
	   { [ "$min" = 0 ] && grep -q 'the secret' "$got" 2>/dev/null; }; then
		THROUGH=yes
	else
		THROUGH=no
	fi
}
do_out_20000_files() {
	handoff many 'mkdir many && cd many && i=0 &&
		while [ $i -lt 20000 ]; do : > f$i; i=$((i+1)); done' 1
	[ "$THROUGH" = yes ] &&
		[ "$(find "$WORLD/out" -type f | wc -l)" -ge 20000 ] || THROUGH=no
}
do_out_deep_tree() {
	handoff deep 'd=deep && mkdir deep && i=0 &&
		while [ $i -lt 300 ]; do d=$d/d; mkdir $d; i=$((i+1)); done' 300
}
do_out_link_artifact() {
	handoff evil "ln -s $O/secret evil" 0
}
# the control: what the hand-off's replace of <out>/<name> does, by hand
do_out_inside_write() {
	mkdir -p "$W/out" "$O/victim" && : > "$O/victim/precious"
	[ "$ROOT" = 1 ] && chown -R "$TUID:$TGID" "$W/out" "$O/victim"
	if [ "$PHASE" = ctl ]; then
		go sh -c 'ln -s "$1" "$0" && rm -rf "$0/"*' "$W/out/$RNAME" "$O/victim"
	else
		RF+=(--out "$W/out")
		go sh -c 'ln -s "$1" "$0"' "$W/out/$RNAME" "$O/victim"
	fi
	[ -e "$O/victim/precious" ] && THROUGH=no || THROUGH=yes
}

# ---- 10: the tool's own files under --write --------------------------------

install_under_write() {
	local rel
	rel=$(cat "$B/moduledir-rel")
	mkdir -p "$W/inst/bin" "$W/inst/bin/$rel"
	cp "$NS" "$W/inst/bin/"
	cp "$B/bin/$rel"/*.so "$W/inst/bin/$rel/"
	chmod -R go-w "$W/inst"
	[ "$ROOT" = 1 ] && chown -R "$TUID:$TGID" "$W/inst"
	NSBIN="$W/inst/bin/nova-sandbox"
}
do_own_module_replaced() {
	local m
	install_under_write
	m="$W/inst/bin/$(cat "$B/moduledir-rel")/landlock.so"
	go sh -c 'printf x >> "$0"' "$m"
	cmp -s "$B/bin/$(cat "$B/moduledir-rel")/landlock.so" "$m" && THROUGH=no || THROUGH=yes
}
do_own_binary_replaced() {
	local b="$W/inst/bin/nova-sandbox"
	install_under_write
	go sh -c 'cp /bin/true "$0.new" && mv -f "$0.new" "$0"' "$b"
	cmp -s "$NS" "$b" && THROUGH=no || THROUGH=yes
}
do_own_config_replaced() {
	local c="$W/etc/nova-sandbox.conf"
	mkdir -p "$W/etc"
	cp "$here/../../conf/nova-sandbox.conf" "$c"
	chmod 644 "$c"
	[ "$ROOT" = 1 ] && chown -R "$TUID:$TGID" "$W/etc"
	GENV+=(NOVA_SANDBOX_CONFIG="$c")
	go sh -c 'echo "; replaced" >> "$0"' "$c"
	cmp -s "$here/../../conf/nova-sandbox.conf" "$c" && THROUGH=no || THROUGH=yes
}

# ---- 11: what the caller hands the tool --------------------------------------

# the action as the test user holding CAP_NET_RAW as an ambient capability
# (inherited by every program it starts): the control shows the raw socket
# it buys; the walled command must not have it
with_ambient_raw() {
	local save=("${AS_USER[@]}")
	AS_USER=(setpriv --reuid="$TUID" --regid="$TGID" --clear-groups \
		--inh-caps=+net_raw --ambient-caps=+net_raw --)
	go "$E" rawip
	AS_USER=("${save[@]}")
}
do_ambient_caps_raw() { with_ambient_raw; }
do_ambient_caps_raw_run() { with_ambient_raw; }

# A walled run plants what a toolchain's discovery would pick up; then a
# second run (walled: with --toolchain; the control: the toolchain's own
# program, unwalled, as discovery ran it before rule 3a) must not run it
# outside the wall.  Got through: $O/pwned, outside every root, exists.
# (The planted python3 of toolchain-path-plant is a copy of $E, which
# leaves $O/pwned when it runs under that name: a script could not be
# started by descriptor, so it would prove nothing.)
PTH_PLANT='d=$(HOME="$1/home" python3 -c "import site; print(site.getusersitepackages())") &&
	mkdir -p "$d" && printf "import os; open(\"%s\", \"w\").close()\n" "$0" > "$d/nova-esc.pth"'
planted_then() {
	local plant=$1
	shift
	go sh -c "$plant" "$O/pwned" "$W" "$E"
	PLANT_RC=$RC
	go "$@"
}
do_toolchain_pth() { planted_then "$PTH_PLANT" python3 -c pass; }
do_toolchain_pth_run() { do_toolchain_pth; }
check_planted() {
	[ "$PLANT_RC" = 0 ] && ls $1 >/dev/null 2>&1 || return 2
	[ -e "$O/pwned" ]
}
check_toolchain_pth() { check_planted "$W/home/.local/lib/python3*/site-packages/nova-esc.pth"; }
check_toolchain_pth_run() { check_toolchain_pth; }
do_toolchain_path_plant() {
	planted_then 'mkdir -p "$1/bin" && cp "$2" "$1/bin/python3"' python3 -c pass
}
check_toolchain_path_plant() { check_planted "$W/bin/python3"; }

# ---- 12: what the job writes, trusted by a program outside the wall later --

# wt_world: a repository whose origin holds pull request 1 (a file f, "pr"),
# the fake gh answering for it, and the tree `worktree --pr 1` made of it
# ($WT_TREE), all the user's and outside every root
WT_G="git -c user.email=t@t -c user.name=t -c init.defaultBranch=main"
wt_verb() {
	user env -i PATH="$WORLD/wt/bin:/usr/bin:/bin" HOME="$W/home" \
		GH_CONFIG_DIR="$WORLD/wt/gh" "$NS" worktree --repo "$WORLD/wt/repo" \
		--scratch "$WORLD/wt/scratch" --pr 1 >"$WORLD/wt/out" 2>"$WORLD/wt/err"
}
wt_world() {
	local h
	mkdir -p "$WORLD/wt/bin" "$WORLD/wt/gh/answers" "$WORLD/wt/scratch"
	install -m 0755 "$here/../integration/fakes/gh" "$WORLD/wt/bin/gh"
	(cd "$WORLD/wt" && $WT_G init -q --bare origin.git && $WT_G init -q repo &&
		cd repo && $WT_G commit -q --allow-empty -m base &&
		echo pr > f && mkdir src && echo a > src/a && $WT_G add f src/a &&
		if [ -n "${WT_GITLINK:-}" ]; then $WT_G update-index --add \
			--cacheinfo "160000,1111111111111111111111111111111111111111,$WT_GITLINK"; fi &&
		$WT_G commit -q -m pr &&
		$WT_G push -q ../origin.git HEAD:refs/pull/1/head &&
		$WT_G remote add origin https://forge.example/o/n.git &&
		$WT_G config url."$WORLD/wt/origin.git".insteadOf \
			https://forge.example/o/n.git) >/dev/null 2>&1 || return 1
	h=$(git -C "$WORLD/wt/repo" rev-parse HEAD)
	printf '{"baseRefName":"main","headRefOid":"%s","state":"OPEN"}\n' "$h" \
		> "$WORLD/wt/gh/answers/1.json"
	[ "$ROOT" = 1 ] && chown -R "$TUID:$TGID" "$WORLD/wt"
	wt_verb || return 1
	WT_TREE=$(sed -n 's/^WORKTREE OK path=\([^ ]*\) head=.*/\1/p' "$WORLD/wt/out")
	[ -n "$WT_TREE" ] && [ -f "$WT_TREE/f" ]
}

# The job's redirect of its tree's .git: a git directory of its own (.x)
# whose HEAD and index are links to the real ones, objects borrowed; $1
# is the config it writes there.  Run in the tree.
WT_PLANT='X=$PWD/.x; GD=$(sed -n "s/^gitdir: //p" .git)
mkdir -p "$X/objects/info" "$X/refs" &&
echo "${GD%/worktrees/*}/objects" > "$X/objects/info/alternates" &&
ln -s "$GD/HEAD" "$X/refs/h" && ln -s refs/h "$X/HEAD" && ln -s "$GD/index" "$X/index" &&
printf "%s" "$1" > "$X/config" && echo "gitdir: $X" > .git'

# plant CONFIG [then...]: the redirect, unwalled (ctl) or by the walled job
# whose --write is the tree; PLANT_RC its status
wt_plant() {
	local cfg=$1
	shift
	GCWD=$WT_TREE
	if [ "$PHASE" = wall ]; then
		# rule 5a would keep the tree's gitfile read-only: lifted, so
		# that these attacks still test the worktree verb's own defence
		WF+=(--write "$WT_TREE" --unprotect "$WT_TREE/.git")
	fi
	go sh -c "$WT_PLANT"' && shift && "$@"' sh "$cfg" "$@"
	PLANT_RC=$RC
}

do_worktree_fsmonitor() {
	wt_world || { THROUGH=broken; return; }
	printf '#!/bin/sh\ntouch "%s/pwned"\n' "$O" > "$WT_TREE/hook"
	chmod 755 "$WT_TREE/hook"
	[ "$ROOT" = 1 ] && chown "$TUID:$TGID" "$WT_TREE/hook"
	wt_plant "$(printf '[core]\n\tfsmonitor = %s/hook\n' "$WT_TREE")" true
	[ "$PLANT_RC" = 0 ] || { THROUGH=broken; return; }
	if [ "$PHASE" = ctl ]; then
		# the control: the user's plain git status in the tree runs it
		(cd "$WT_TREE" && user env -i PATH=/usr/bin:/bin HOME="$W/home" \
			git status --porcelain) >/dev/null 2>&1
	else
		wt_verb
	fi
	[ -e "$O/pwned" ] && THROUGH=yes || THROUGH=no
}

do_worktree_core_worktree() {
	wt_world || { THROUGH=broken; return; }
	# a pristine copy for git to look at, then the tree's own f tampered
	wt_plant "$(printf '[core]\n\trepositoryformatversion = 0\n\tworktree = %s/.p\n' "$WT_TREE")" \
		sh -c 'mkdir .p && cp -r f src .p/ && echo evil > f'
	[ "$PLANT_RC" = 0 ] || { THROUGH=broken; return; }
	if [ "$PHASE" = ctl ]; then
		# the control: a plain git status calls the tampered tree clean
		(cd "$WT_TREE" && user env -i PATH=/usr/bin:/bin HOME="$W/home" \
			git status --porcelain) > "$WORLD/wt/st" 2>&1
		[ ! -s "$WORLD/wt/st" ] && grep -qx evil "$WT_TREE/f" &&
			THROUGH=yes || THROUGH=no
		return
	fi
	wt_verb
	grep -q "^WORKTREE OK path=$WT_TREE " "$WORLD/wt/out" &&
		grep -qx evil "$WT_TREE/f" && THROUGH=yes || THROUGH=no
}

# the command in a directory others share (sticky, like /tmp) beside a
# credential of the user's there: rule 3 grants the command's file alone
do_cmd_dir_shared() {
	mkdir -p "$O/shared"
	cp "$E" "$O/shared/job"
	echo "the ticket" > "$O/shared/krb5cc"
	chmod 600 "$O/shared/krb5cc"
	[ "$ROOT" = 1 ] && chown -R "$TUID:$TGID" "$O/shared"
	chmod 1777 "$O/shared"
	go "$O/shared/job" read "$O/shared/krb5cc"
}

# ---- 12: what the command shares with the user's programs outside --------

# the command takes every inotify instance of the user; a program of the
# user's outside then gets none (fs.inotify.max_user_instances)
do_inotify_exhaust() {
	rm -f "$W/ready"
	go_bg "$E" inotify-hog "$W/ready" 4
	if ! wait_ready "$W/ready" "$BG"; then
		wait_bg
		THROUGH=broken
		return
	fi
	user "$E" inotify-starved >/dev/null 2>&1 && THROUGH=yes || THROUGH=no
	wait_bg
}

# the command binds an abstract socket (under --net-deny too); a client of
# the user's outside connects to it
do_abstract_bind_reachable() {
	rm -f "$W/ready"
	go_bg "$E" abstract-listen "$ABS-l" "$W/ready" 4
	if ! wait_ready "$W/ready" "$BG"; then
		wait_bg
		THROUGH=broken
		return
	fi
	user "$E" abstract "$ABS-l" >/dev/null 2>&1 && THROUGH=yes || THROUGH=no
	wait_bg
}

# the job's git directory one level down, where the tree-level checks of
# git itself do not look: a submodule's path (the pull request holds a
# gitlink, sub) or a tracked subdirectory (src).  The attack got through
# when worktree calls the tree clean and keeps the planted .git, so that
# the user's next git status there runs the hook.
wt_nested() {
	local dir=$1 extra=$2 gd=$3
	GCWD=$WT_TREE
	[ "$PHASE" = wall ] && WF+=(--write "$WT_TREE")
	go sh -c 'd=$1; g=$PWD/$d/$3; mkdir -p "$g" &&
		git init -q --bare "$g" &&
		printf "#!/bin/sh\ntouch %s/pwned\n" "$2" > "$g/hook" && chmod 755 "$g/hook" &&
		printf "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = %s/hook\n" "$g" > "$g/config" &&
		{ [ "$3" = .git ] || echo "gitdir: $3" > "$d/.git"; }' sh "$dir" "$O" "$gd"
	[ "$RC" = 0 ] || { THROUGH=broken; return; }
	if [ "$PHASE" = ctl ]; then
		# the control: the user's plain git status there runs the hook
		(cd "$WT_TREE/$extra" && user env -i PATH=/usr/bin:/bin \
			HOME="$W/home" git status --porcelain) >/dev/null 2>&1
		[ -e "$O/pwned" ] && THROUGH=yes || THROUGH=no
		return
	fi
	wt_verb
	grep -q "^WORKTREE OK path=$WT_TREE " "$WORLD/wt/out" &&
		[ -e "$WT_TREE/$dir/.git" ] && THROUGH=yes || THROUGH=no
}
do_worktree_submodule() {
	WT_GITLINK=sub wt_world || { THROUGH=broken; return; }
	wt_nested sub . .g
}
do_worktree_nested_git() {
	WT_GITLINK= wt_world || { THROUGH=broken; return; }
	wt_nested src src .git
}

# ---- 12, rule 5a: a repository as the --write ----------------------------
# The world's $W is a repository (the --write and the cwd); $W/hook is the
# job's hook (a file the job could write anyway).  "Got through" is proven
# by the user's next plain git there, outside the wall: status, log and an
# empty commit run the job's hook ($O/pwned).

# git as the test user outside the wall, in $1
ugit() {
	local d=$1
	shift
	(cd "$d" && user env -i PATH=/usr/bin:/bin HOME="$W/home" \
		GIT_CONFIG_NOSYSTEM=1 git -c user.email=u@u -c user.name=u "$@") \
		>/dev/null 2>&1 </dev/null
}
# a repository at $1 with one commit, owned by the test user
git_repo() {
	user mkdir -p "$1" &&
	ugit "$1" init -q . && ugit "$1" commit -q --allow-empty -m base
}
git_world() {
	git_repo "$W" || return 1
	printf '#!/bin/sh\ntouch "%s/pwned"\nexit 1\n' "$O" > "$W/hook"
	chmod 755 "$W/hook"
	[ "$ROOT" = 1 ] && chown "$TUID:$TGID" "$W/hook"
	rm -f "$O/pwned"
}
# the user's next git in $1: did it run the job's hook?
git_ran() {
	ugit "$1" status --porcelain
	ugit "$1" log -1
	ugit "$1" commit -q --allow-empty -m next
	[ -e "$O/pwned" ] && THROUGH=yes || THROUGH=no
}
FSMON='printf "[core]\n\tfsmonitor = %s\n" "$0"'

do_git_hook_plant() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'cp "$0" "$1/.git/hooks/pre-commit"' "$W/hook" "$W"
	git_ran "$W"
}

# relative to the cwd: the wall's cwd must be its namespace's
do_git_config_fsmonitor() {
	git_world || { THROUGH=broken; return; }
	go sh -c "$FSMON"' >> .git/config' "$W/hook"
	git_ran "$W"
}

do_git_config_rename() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'cp .git/config c.new && '"$FSMON"' >> c.new && mv -f c.new .git/config' "$W/hook"
	git_ran "$W"
}

do_git_dir_swap() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'mv .git .git.old && git init -q . && '"$FSMON"' >> .git/config' "$W/hook"
	git_ran "$W"
}

do_git_dir_remove() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'rm -rf .git; git init -q . && '"$FSMON"' >> .git/config' "$W/hook"
	git_ran "$W"
}

# the .git's own directory (below the --write) renamed away: the bind
# moves with it, and the user's next git at the old name meets the job's
do_git_parent_swap() {
	git_world || { THROUGH=broken; return; }
	git_repo "$W/p/repo" || { THROUGH=broken; return; }
	GCWD="$W/p/repo"
	go sh -c 'cd .. && mv repo repo.old && git init -q repo && '"$FSMON"' >> repo/.git/config' "$W/hook"
	git_ran "$W/p/repo"
}

do_git_hooks_symlink() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'mkdir -p h && cp "$0" h/pre-commit && rm -rf .git/hooks && ln -s "$PWD/h" .git/hooks' "$W/hook"
	git_ran "$W"
}

# the cwd is a worktree of the user's repository outside every root: the
# job points its gitfile at a gitdir of its own
do_gitfile_replace() {
	git_world || { THROUGH=broken; return; }
	git_repo "$O/main" && ugit "$O/main" worktree add -q "$W/wt" ||
		{ THROUGH=broken; return; }
	GCWD="$W/wt"
	go sh -c 'git init -q ../evil && '"$FSMON"' >> ../evil/.git/config && cp "$0" ../evil/.git/hooks/pre-commit && echo "gitdir: $PWD/../evil/.git" > .git' "$W/hook"
	git_ran "$W/wt"
}

# the cwd is a worktree of a repository under the same --write: its
# gitdir's commondir (the main .git) is protected through the gitfile
do_git_commondir_write() {
	git_world || { THROUGH=broken; return; }
	git_repo "$W/main" && ugit "$W/main" worktree add -q "$W/wt" ||
		{ THROUGH=broken; return; }
	GCWD="$W/wt"
	go sh -c "$FSMON"' >> ../main/.git/config' "$W/hook"
	git_ran "$W/wt"
}

# the gitfile's text climbs after a name: x swapped for a link after the
# policy looked leads the user's git to the job's gitdir
do_git_gitdir_climb() {
	git_world || { THROUGH=broken; return; }
	user sh -c 'cd "$0" && mkdir x && mv .git gd && echo "gitdir: x/../gd" > .git' "$W" ||
		{ THROUGH=broken; return; }
	go sh -c 'mkdir -p ev/s && git init -q --bare ev/gd && printf "[core]\n\tbare = false\n\tworktree = %s\n\tfsmonitor = %s\n" "$PWD" "$0" > ev/gd/config && mv x x.old && ln -s "$PWD/ev/s" x' "$W/hook"
	git_ran "$W"
}

# a sibling worktree (listed in the protected .git's worktrees/) under
# the --write: its gitfile is the user's git's way in there
do_git_worktree_sibling() {
	git_world || { THROUGH=broken; return; }
	ugit "$W" worktree add -q "$W/wt" || { THROUGH=broken; return; }
	go sh -c 'git init -q ev && '"$FSMON"' >> ev/.git/config && echo "gitdir: $PWD/ev/.git" > wt/.git' "$W/hook"
	git_ran "$W/wt"
}

do_git_hardlink_out() {
	git_world || { THROUGH=broken; return; }
	go sh -c 'ln .git/config cfg && '"$FSMON"' >> cfg' "$W/hook"
	git_ran "$W"
}

# a stated gap: the older name is on the writable mount
do_git_hardlink_before() {
	git_world || { THROUGH=broken; return; }
	user ln "$W/.git/config" "$W/cfg-old" || { THROUGH=broken; return; }
	go sh -c "$FSMON"' >> cfg-old' "$W/hook"
	git_ran "$W"
}

do_git_unmount() {
	git_world || { THROUGH=broken; return; }
	go "$E" unmount-write "$W/.git" "$W/.git/config" "$(printf '[core]\n\tfsmonitor = %s\n' "$W/hook")"
	git_ran "$W"
}

# /proc/<pid>/root of a process outside the wall is the old mount
# namespace's root, where the .git is not bound read-only
do_git_proc_root() {
	git_world || { THROUGH=broken; return; }
	go sh -c "$FSMON"' >> "/proc/$1/root$2/.git/config"' "$W/hook" "$V_pid" "$W"
	git_ran "$W"
}

# stated gaps: a .git the job makes where none was, and a repository
# nested below the cwd that nothing names
do_git_new_dotgit() {
	git_world || { THROUGH=broken; return; }
	mkdir -p "$W/sub"
	[ "$ROOT" = 1 ] && chown "$TUID:$TGID" "$W/sub"
	go sh -c 'cd sub && git init -q . && '"$FSMON"' >> .git/config' "$W/hook"
	git_ran "$W/sub"
}

do_git_nested_repo() {
	git_world || { THROUGH=broken; return; }
	git_repo "$W/sub" || { THROUGH=broken; return; }
	go sh -c "$FSMON"' >> sub/.git/config' "$W/hook"
	git_ran "$W/sub"
}

# a stated gap, said after the command in a NOTE: the cwd below the
# repository's top made a bare repository (no .git: nothing to protect)
do_git_cwd_bare() {
	git_world || { THROUGH=broken; return; }
	user mkdir -p "$W/sub" || { THROUGH=broken; return; }
	GCWD="$W/sub"
	go sh -c 'mkdir objects refs && echo "ref: refs/heads/master" > HEAD && printf "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = %s\n\tfsmonitor = %s\n" "$PWD" "$0" > config' "$W/hook"
	git_ran "$W/sub"
}
