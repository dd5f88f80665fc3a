#!/bin/bash
# SPDX-License-Identifier: MIT
# t_recipes.sh -- the README's recipes, run as they stand: each ```sh block
# after a "<!-- recipe: NAME -->" line is extracted from README.md and run
# by bash with its variables set to a small project, so a recipe that no
# longer works fails here.  The PR build and the Python test run as the
# test user; the agent job (egress plan/apply/drop as root, the job under
# run as the test user) in a network namespace of its own, with dnsmasq
# answering the allowlist's names there, so no table touches the host's.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# recipe NAME: the block's text
recipe() {
	awk -v n="$1" '$0 == "<!-- recipe: " n " -->" { f = 1; next }
		f && /^```sh$/ { g = 1; next }
		g && /^```$/ { exit }
		g { print }' "$ROOT/README.md"
}

t "every recipe the README announces is there" <<'EOF2'
for n in pr-build python-tests agent-run-egress; do
	[ -n "$(recipe "$n")" ] || _fail "README.md has no recipe $n"
done
expect_eq "$(grep -c '^<!-- recipe: ' "$ROOT/README.md")" 3 "recipes in README.md"
EOF2

t "recipe pr-build: the build reads the checkout, writes only its output, no network" <<'EOF2'
SRC=$(newdir)
BOUT=$(newdir) # the recipe's $OUT ($OUT is lib.sh's stdout file)
printf 'O ?= .\n$(O)/hello: hello.c\n\t$(CC) -o $@ hello.c\n' > "$SRC/Makefile"
printf '#include <stdio.h>\nint main(void) { puts("hello from the PR"); return 0; }\n' > "$SRC/hello.c"
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$SRC"
chmod 555 "$SRC" # the checkout is read-only here, as under the wall
at_end "chmod 755 '$SRC'"
run_as env -i PATH="$NOVA_B/bin:/usr/bin:/bin" SRC="$SRC" OUT="$BOUT" bash -c "$(recipe pr-build)"
expect_rc 0
expect_err '^SANDBOX OK .* net=denied .*cwd='"$SRC"' '
expect_err '^SANDBOX DONE exit=0 cmd=make'
expect_eq "$("$BOUT/hello")" "hello from the PR" "the binary built"
expect_eq "$(ls "$SRC" | tr '\n' ' ')" "Makefile hello.c " "the checkout unchanged"
expect_absent "$BOUT/.nova-sandbox-tmp"
EOF2

t "recipe python-tests: the project's tests run in its venv, walled" <<'EOF2'
/usr/bin/python3 -c 'import venv' 2>/dev/null || _fail "python3 has no venv module (infra/deps.sh installs python3-venv)"
PROJ=$(newdir)
BOUT=$(newdir)
mkdir "$PROJ/tests"
printf 'import os, unittest\nclass T(unittest.TestCase):\n    def test_env(self):\n        self.assertNotIn("SECRET_TOKEN", os.environ)\n    def test_read(self):\n        self.assertTrue(os.path.exists("tests/test_a.py"))\n' > "$PROJ/tests/test_a.py"
/usr/bin/python3 -m venv --without-pip --copies "$PROJ/.venv" # as the README says
[ "$(id -u)" != 0 ] || chown -R "$TUID:$TGID" "$PROJ"
run_as env -i PATH="$PROJ/.venv/bin:$NOVA_B/bin:/usr/bin:/bin" SECRET_TOKEN=x PROJ="$PROJ" OUT="$BOUT" \
	bash -c "$(recipe python-tests)"
expect_rc 0
expect_err '^Ran 2 tests'
expect_err '^OK$'
expect_err "^SANDBOX NOTE --toolchain python \\($PROJ/.venv/bin/python3\\) adds the read root"
expect_err '^SANDBOX NOTE --env-clear dropped [0-9]+ variable\(s\) .*: SECRET_TOKEN$'
EOF2

t "recipe agent-run-egress: plan, apply, the job under run, drop (root, its own network namespace)" <<'EOF2'
[ "$(id -u)" = 0 ] || skip "needs root (egress apply, a network namespace)"
for tool in ip nft dnsmasq setpriv; do
	command -v "$tool" >/dev/null || _fail "$tool is not installed (infra/deps.sh installs it)"
done
N=nsr-$$
ip netns add "$N" || _fail "ip netns add"
at_end "ip netns del $N"
ip netns exec "$N" ip link set lo up
ip netns exec "$N" ip addr add 198.51.100.53/32 dev lo
ip netns exec "$N" dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
	--bind-interfaces --listen-address=198.51.100.53 --port=53 --user=root --pid-file= \
	--host-record=github.com,192.0.2.10 --host-record=api.github.com,192.0.2.10 \
	--host-record=objects.githubusercontent.com,192.0.2.12 \
	--host-record=api.anthropic.com,192.0.2.13 --host-record=api.openai.com,192.0.2.11 \
	</dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
DNSM=$!
at_end "kill $DNSM"
sleep 0.5
JOB=$(mktemp -d /var/tmp/nova-it-job.XXXXXX) # not under /tmp: the place covers it
at_end "rm -rf '$JOB'"
RESULTS=$(newdir)
PLAN=$(newdir)/agent1.nft
printf '#!/bin/sh\necho "key=${ANTHROPIC_API_KEY:+set} home=$HOME" > RESULT.md\n' > "$JOB/agent.sh"
chmod 755 "$JOB" "$JOB/agent.sh"
(cd "$ROOT" && ip netns exec "$N" env -i PATH="$NOVA_B/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
	RESOLVER=198.51.100.53 AGENT_UID="$TUID" AGENT_GID="$TGID" AGENT_HOME="$THOME" \
	JOB="$JOB" RESULTS="$RESULTS" PLAN="$PLAN" ANTHROPIC_API_KEY=sk-test-$$ \
	bash -c "$(recipe agent-run-egress)") >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0
expect_err '^EGRESS PLAN run=agent1 '
expect_err '^SANDBOX OK name=agent1 '
expect_err '^SANDBOX NOTE named like credentials and passed in by --env: ANTHROPIC_API_KEY'
expect_err '^SANDBOX DONE name=agent1 exit=0 '
expect_eq "$(cat "$RESULTS/agent1/RESULT.md")" "key=set home=/tmp/nova-agent1/home" "the job's result"
expect_no_err "sk-test-$$"
ip netns exec "$N" nft list tables | grep -q nova_egress && _fail "the table outlived drop"
true
EOF2
