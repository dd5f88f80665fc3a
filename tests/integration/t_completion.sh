#!/bin/bash
# SPDX-License-Identifier: MIT
# t_completion.sh -- the bash completion (infra/completion/nova-sandbox.bash)
# sourced in this bash and driven as readline would (COMP_WORDS/COMP_CWORD):
# verbs, each verb's flags, directory values, the command after --; and its
# flag lists against `nova-sandbox help <verb>` (and the zsh file's against
# bash's), so a flag added to a verb and not to the completion fails here.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASHC="$ROOT/infra/completion/nova-sandbox.bash"
ZSHC="$ROOT/infra/completion/_nova-sandbox"

# comp WORD...: complete the last word; the candidates, sorted, on one line
comp() {
	(
		# shellcheck disable=SC1090
		source "$BASHC"
		COMP_WORDS=(nova-sandbox "$@")
		COMP_CWORD=$#
		_nova_sandbox
		printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
	)
}

# the flags `help` lists for a verb (lines "  --flag ..."), sorted
help_flags() {
	if [ "$1" = wrap ]; then
		"$NS" help | sed -n '/^flags of the bare form/,$p'
	else
		"$NS" help "$1"
	fi | grep -oE '^  --[a-z-]+( |$)' | tr -d ' ' | sort -u | tr '\n' ' '
}

t "the first word: the verbs, and a prefix narrows them" <<'EOF'
expect_eq "$(comp '')" "check egress help modules policy probe reap run version worktree " "verbs"
expect_eq "$(comp mo)" "modules " "mo<TAB>"
EOF

t "a verb's flags, not another verb's" <<'EOF'
got=$(comp run --s)
expect_eq "$got" "--size --status-fd " "run --s<TAB>"
got=$(comp modules '')
expect_eq "$got" "--help --json " "modules <TAB>"
got=$(comp --read /usr --w)
expect_eq "$got" "--write " "the bare form's --w<TAB>"
EOF

t "a directory flag completes directories only" <<'EOF'
d=$(newdir)
mkdir "$d/sub" && : > "$d/file"
got=$(comp --write "$d/")
expect_eq "$got" "$d/sub " "--write <dir>/<TAB>"
EOF

t "after --: a command, then files" <<'EOF'
got=$(comp --write /tmp -- tru)
case "$got" in *true*) ;; *) _fail "no command 'true' offered: $got" ;; esac
d=$(newdir)
: > "$d/afile"
got=$(comp --write /tmp -- sh "$d/a")
expect_eq "$got" "$d/afile " "a file after the command"
EOF

t "each verb's flags in the completion are the ones help lists" <<'EOF'
# every verb help's usage shows, so a new verb fails here until completed
verbs=$("$NS" help | grep -oE '^  nova-sandbox [a-z]+' | awk '{ print $2 }' | sort -u)
[ -n "$verbs" ] || _fail "no verb in help's usage"
for v in $verbs; do
	case " $(source "$BASHC"; echo "$_nova_sandbox_verbs") " in
	*" $v "*) ;;
	*) _fail "help's verb $v is not in the bash completion" ;;
	esac
done
for v in wrap run probe policy modules check reap egress worktree; do
	bash_list=$(source "$BASHC"; eval "echo \$_nova_sandbox_flags_$v" | tr ' ' '\n' | sort -u | tr '\n' ' ')
	expect_eq "$bash_list" "$(help_flags "$v")" "bash flags of $v vs help $v"
	zsh_list=$(sed -n "s/^flags\[$v\]=\"\(.*\)\"\$/\1/p" "$ZSHC" | tr ' ' '\n' | sort -u | tr '\n' ' ')
	expect_eq "$zsh_list" "$bash_list" "zsh flags of $v vs bash"
done
EOF

t "nova-sandbox --<TAB> lists the bare form's flags, the environment and toolchain ones among them" <<'EOF2'
got=$(comp --)
for f in --read --write --net-deny --env-clear --env --env-deny --toolchain --gpu; do
	case " $got " in *" $f "*) ;; *) _fail "nova-sandbox --<TAB> lacks $f: $got" ;; esac
done
got=$(comp run --net)
expect_eq "$got" "--net-allow --net-allow-file --net-deny " "run --net<TAB>"
EOF2

t "flag values: --gpu and --toolchain complete their fixed sets (bash and zsh)" <<'EOF2'
expect_eq "$(comp --gpu '')" "metal none " "--gpu <TAB>"
expect_eq "$(comp --write /tmp --toolchain '')" "c go node python rust " "--toolchain <TAB>"
expect_eq "$(comp run --toolchain py)" "python " "run --toolchain py<TAB>"
expect_eq "$(comp policy --gpu m)" "metal " "policy --gpu m<TAB>"
# the value sets are the ones help names, and zsh offers the same
expect_eq "$(source "$BASHC"; echo "$_nova_sandbox_values_toolchain")" \
	"$(sed -n 's/^values\[--toolchain\]="\(.*\)"$/\1/p' "$ZSHC")" "zsh --toolchain values"
expect_eq "$(source "$BASHC"; echo "$_nova_sandbox_values_gpu")" \
	"$(sed -n 's/^values\[--gpu\]="\(.*\)"$/\1/p' "$ZSHC")" "zsh --gpu values"
"$NS" help | grep -q -- '--toolchain <t>       go, python, node, rust or c' ||
	_fail "help does not name the --toolchain values"
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$ZSHC" || _fail "zsh cannot parse $ZSHC"
fi
EOF2
