# SPDX-License-Identifier: MIT
# bash completion for nova-sandbox: verbs and their flags (values where the
# flag names a directory or a file, or has a fixed set: --gpu, --toolchain).
# The flag lists are the ones
# `nova-sandbox help <verb>` prints; tests/integration/t_completion.sh
# checks they agree.

_nova_sandbox_verbs="run probe policy modules check reap egress worktree help version"
_nova_sandbox_flags_wrap="--read --read-noexec --write --cwd --tmp --net-deny --net-listen --net-allow --net-allow-file --name --acl --gpu --status-fd --explain --env-clear --env --env-deny --toolchain --protect --unprotect"
_nova_sandbox_flags_run="--name --size --timeout --read --max-procs --max-mem --status-fd --explain --out --artifact --out-max-bytes --out-max-files --out-max-depth --go --net-deny --egress --net-allow --net-allow-file --write --env-clear --env-inherit --env --env-deny --toolchain --protect --unprotect"
_nova_sandbox_flags_probe="--explain --gpu --json --max --net-deny --net-listen --read --read-noexec --secret --write"
_nova_sandbox_flags_policy="--cwd --gpu --json --name --net-allow --net-allow-file --net-deny --net-listen --read --read-noexec --tmp --write --env-clear --env --env-deny --toolchain --protect --unprotect"
_nova_sandbox_flags_modules="--json"
_nova_sandbox_flags_check="--json"
_nova_sandbox_flags_reap="--dry-run"
_nova_sandbox_flags_worktree="--base --pr --prune --repo --scratch"
_nova_sandbox_flags_egress="--bench-cidr --live --model-host --out --plan --policy --resolver --run --uid --veth"
_nova_sandbox_subverbs_egress="plan apply check drop"
# flags whose value is a directory, a file, or something else (no files)
_nova_sandbox_dir_flags="--read --read-noexec --write --cwd --tmp --repo --scratch"
_nova_sandbox_file_flags="--secret --plan --policy --protect --unprotect --net-allow-file"
# flags with a fixed set of values
_nova_sandbox_values_gpu="none metal"
_nova_sandbox_values_toolchain="go python node rust c"
_nova_sandbox_value_flags="--net-allow --name --acl --gpu --status-fd --size --timeout --max --max-procs --max-mem --artifact --out-max-bytes --out-max-files --out-max-depth --bench-cidr --model-host --resolver --run --egress --uid --veth --env --env-deny --base --pr"

_nova_sandbox_has() { # word list...
	local w=$1
	shift
	case " $* " in *" $w "*) return 0 ;; esac
	return 1
}

_nova_sandbox() {
	local cur prev verb i w flags
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=""
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	verb=wrap
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$w" = "--" ]; then
			# the command and its arguments: the first is a command
			if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			fi
			return 0
		fi
		if [ "$i" -eq 1 ] && _nova_sandbox_has "$w" $_nova_sandbox_verbs; then
			verb=$w
		fi
	done
	if _nova_sandbox_has "$prev" $_nova_sandbox_dir_flags ||
		{ [ "$prev" = --out ] && [ "$verb" = run ]; }; then
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0
	fi
	if _nova_sandbox_has "$prev" $_nova_sandbox_file_flags ||
		{ [ "$prev" = --out ] && [ "$verb" = egress ]; }; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
	fi
	case $prev in
	--gpu | --toolchain)
		w="_nova_sandbox_values_${prev#--}"
		mapfile -t COMPREPLY < <(compgen -W "${!w}" -- "$cur")
		return 0 ;;
	esac
	if _nova_sandbox_has "$prev" $_nova_sandbox_value_flags; then
		return 0
	fi
	if [ "$COMP_CWORD" -eq 1 ] && [[ $cur != -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$_nova_sandbox_verbs" -- "$cur")
		return 0
	fi
	case $verb in
	help)
		mapfile -t COMPREPLY < <(compgen -W "$_nova_sandbox_verbs" -- "$cur")
		return 0 ;;
	version) return 0 ;;
	egress)
		if [ "$COMP_CWORD" -eq 2 ]; then
			mapfile -t COMPREPLY < <(compgen -W "$_nova_sandbox_subverbs_egress" -- "$cur")
			return 0
		fi ;;
	esac
	flags="_nova_sandbox_flags_$verb"
	mapfile -t COMPREPLY < <(compgen -W "${!flags} --help" -- "$cur")
	return 0
}

complete -F _nova_sandbox nova-sandbox
