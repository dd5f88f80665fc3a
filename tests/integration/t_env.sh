#!/bin/bash
# SPDX-License-Identifier: MIT
# t_env.sh -- the command's environment under --env-clear, --env and
# --env-deny (docs/SPEC-SANDBOX.md rule 9a), as the test user: what is
# absent inside, what the OK line counts (env-dropped=), what the NOTE
# names (names, never values), and the refusals (bad_env).  Each drop has
# its control: the same variable without the flag reaches the command.
source "$(dirname "$0")/lib.sh"

SECRET=s3cr3t-value-$$
wrap() { # env assignments..., then -- the nova-sandbox arguments
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	run_as env -i HOME="$W/home" PATH=/usr/bin:/bin LANG=C TERM=dumb "${vars[@]}" \
		"$NS" --write "$W" "$@"
}
setup() {
	W=$(newdir)
	mkdir "$W/home" && [ "$(id -u)" != 0 ] || chown "$TUID:$TGID" "$W/home"
}

t "control: without a flag a credential-looking variable reaches the command, and a NOTE names it with the flag that drops it" <<'EOF2'
setup
wrap AWS_SECRET_ACCESS_KEY="$SECRET" FOO=bar -- -- /bin/sh -c 'echo "in:${AWS_SECRET_ACCESS_KEY:-absent}"'
expect_rc 0
expect_out "^in:$SECRET\$"
expect_err '^SANDBOX NOTE named like credentials and passed in from your environment: AWS_SECRET_ACCESS_KEY; the command can read them; to drop them: --env-deny AWS_SECRET_ACCESS_KEY \(or --env-clear\)$'
expect_err '^SANDBOX OK .* env-dropped=0 '
expect_no_err "$SECRET"
EOF2

t "no false alarm: a certificate path, a region and a public key are not named as credentials; the secret beside them is" <<'EOF2'
setup
wrap AWS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt AWS_REGION=eu-west-1 SSL_CERT_FILE=/etc/ssl/x.pem \
	STRIPE_PUBLIC_KEY=pk AWS_SECRET_ACCESS_KEY="$SECRET" -- -- /bin/sh -c 'echo "in:${AWS_CA_BUNDLE:-absent}"'
expect_rc 0
expect_out '^in:/etc/ssl/certs/ca-certificates.crt$'
expect_err '^SANDBOX NOTE named like credentials and passed in from your environment: AWS_SECRET_ACCESS_KEY; the command can read them; to drop them: --env-deny AWS_SECRET_ACCESS_KEY \(or --env-clear\)$'
EOF2

t "--env-clear: the credential is absent inside; the OK line counts it and the NOTE names it (never its value)" <<'EOF2'
setup
wrap AWS_SECRET_ACCESS_KEY="$SECRET" GITHUB_TOKEN=t FOO=bar -- --env-clear -- /bin/sh -c 'echo "in:${AWS_SECRET_ACCESS_KEY:-absent}:${GITHUB_TOKEN:-absent}:${FOO:-absent}:$PATH:$LANG:$TERM"; env | cut -d= -f1 | sort | tr "\n" " "'
expect_rc 0
expect_out '^in:absent:absent:absent:/usr/bin:/bin:C:dumb$'
expect_out '^HOME LANG PATH PWD TEMP TERM TMP TMPDIR TMPPREFIX $'
expect_err '^SANDBOX OK .* env-dropped=3 '
expect_err '^SANDBOX NOTE --env-clear dropped 3 variable\(s\) from the child.s environment; named like credentials, now absent inside: AWS_SECRET_ACCESS_KEY GITHUB_TOKEN$'
expect_no_err 'passed in from your environment'
expect_no_err "$SECRET"
EOF2

t "--env KEY keeps one variable through --env-clear, --env KEY=VALUE sets one; a credential passed so is named" <<'EOF2'
setup
wrap FOO=bar NPM_TOKEN="$SECRET" -- --env-clear --env FOO --env BAR=baz --env NPM_TOKEN --env NOPE -- \
	/bin/sh -c 'echo "in:$FOO:$BAR:${NPM_TOKEN:+set}"'
expect_rc 0
expect_out '^in:bar:baz:set$'
expect_err '^SANDBOX OK .* env-dropped=0 '
expect_err '^SANDBOX NOTE named like credentials and passed in by --env: NPM_TOKEN; '
expect_err '^SANDBOX NOTE --env names variables your environment does not hold, so nothing of them is passed: NOPE '
expect_no_err "$SECRET"
EOF2

t "--env-deny PATTERN drops the matching names only; HOME is never dropped" <<'EOF2'
setup
wrap AWS_A=1 AWS_B=2 KEEP=3 -- --env-deny 'AWS_*' --env-deny 'HOM?' -- /bin/sh -c 'echo "in:${AWS_A:-absent}:${AWS_B:-absent}:$KEEP:$HOME"'
expect_rc 0
expect_out "^in:absent:absent:3:$W/home\$"
expect_err '^SANDBOX OK .* env-dropped=2 '
expect_err '^SANDBOX NOTE --env-deny dropped 2 variable\(s\) from the child.s environment; named like credentials, now absent inside: AWS_A AWS_B$'
EOF2

t "a bad --env or --env-deny is refused, every one at once, no value echoed, nothing made" <<'EOF2'
setup
wrap -- --env "1X=$SECRET" --env HOME=/ --env-deny 'A=B' --env-deny '' -- /bin/true
expect_rc 125
expect_err '^SANDBOX REFUSED reason=bad_env: --env wants KEY or KEY=VALUE, KEY a letter or _ then letters, digits or _, got the KEY "1X" \(a VALUE is never printed\)$'
# the one line after them: every bad --env and --env-deny left out
expect_err '^SANDBOX NOTE one line fixes the 4 problems above that carry a fix; run: nova-sandbox --write [^ ]* -- /bin/true$'
expect_err '^SANDBOX REFUSED reason=bad_env: --env HOME: HOME, TMPDIR, TMP, TEMP and TMPPREFIX are the wall.s'
expect_eq "$(grep -c 'reason=bad_env: --env-deny wants a name PATTERN' "$ERR")" 2 "two --env-deny refusals"
expect_no_err "$SECRET"
expect_absent "$W/.nova-sandbox-tmp"
EOF2

t "run: --env-clear drops the credential in the place too (OK line env=clear, NOTE), LC_* and TZ too; control: --env-inherit passes it (env=inherit)" <<'EOF2'
setup
run_as env -i HOME="$THOME" PATH=/usr/bin:/bin LC_ALL=C TZ=UTC MY_API_TOKEN="$SECRET" "$NS" run --name "env1-$$" --size 8m --env-clear -- /bin/sh -c 'echo "in:${MY_API_TOKEN:-absent}:${LC_ALL:-absent}:${TZ:-absent}"'
expect_rc 0
expect_out '^in:absent:absent:absent$'
expect_err "^SANDBOX OK name=env1-$$ .* env-dropped=3 env=clear "
expect_err '^SANDBOX NOTE --env-clear dropped 3 variable\(s\) .*: MY_API_TOKEN$'
run_as env -i HOME="$THOME" PATH=/usr/bin:/bin MY_API_TOKEN="$SECRET" "$NS" run --name "env2-$$" --size 8m --env-inherit -- /bin/sh -c 'echo "in:${MY_API_TOKEN:-absent}"'
expect_rc 0
expect_out "^in:$SECRET\$"
expect_err "^SANDBOX OK name=env2-$$ .* env-dropped=0 env=inherit "
expect_err '^SANDBOX NOTE named like credentials and passed in from your environment: MY_API_TOKEN; .*--env-deny MY_API_TOKEN'
EOF2

# run is an operator's verb for untrusted jobs: by default the command
# gets a clean environment, whoever starts it (root's whole one was 38
# variables); --env-inherit is the old default.
run_clean_case() { # who: user or root
	local who=$1 n=$2 as=(run_as)
	[ "$who" = root ] && as=(run)
	"${as[@]}" env -i HOME="$THOME" PATH=/usr/bin:/bin LANG=C LC_ALL=C LC_TIME=C TERM=dumb TZ=UTC \
		MY_API_TOKEN="$SECRET" FOO=bar OTHER=x SSH_AUTH_SOCK=/a \
		"$NS" run --name "$n-$$" --size 8m --env OTHER --env SET=v -- \
		/bin/sh -c 'echo "in:${MY_API_TOKEN:-absent}:${FOO:-absent}:$OTHER:$SET"; env | cut -d= -f1 | sort | tr "\n" " "'
	expect_rc 0
	expect_out '^in:absent:absent:x:v$'
	expect_out '^HOME LANG LC_ALL LC_TIME OTHER PATH PWD SET TEMP TERM TMP TMPDIR TMPPREFIX TZ $'
	expect_err "^SANDBOX OK name=$n-$$ .* env-dropped=3 env=clean tty="
	expect_err '^SANDBOX NOTE the clean environment dropped 2 variable\(s\) from the child.s environment; named like credentials, now absent inside: MY_API_TOKEN \(--env KEY passes one, --env-inherit all\)$'
	expect_err '^SANDBOX NOTE dropped from the child.s environment: SSH_AUTH_SOCK; '
	expect_no_err 'passed in from your environment'
	expect_no_err "$SECRET"
	# control: --env-inherit hands the same command the whole environment
	"${as[@]}" env -i HOME="$THOME" PATH=/usr/bin:/bin LANG=C TERM=dumb MY_API_TOKEN="$SECRET" FOO=bar \
		"$NS" run --name "$n-i-$$" --size 8m --env-inherit -- /bin/sh -c 'echo "in:${MY_API_TOKEN:-absent}:${FOO:-absent}"'
	expect_rc 0
	expect_out "^in:$SECRET:bar\$"
	expect_err "^SANDBOX OK name=$n-i-$$ .* env-dropped=0 env=inherit tty="
	expect_no_err 'the clean environment'
}

t "run: the default environment is the clean one (PATH, HOME, LANG, LC_*, TERM, TZ, the temp variables, --env), env=clean on the OK line, the NOTE names what it dropped; control: --env-inherit" <<'EOF2'
setup
run_clean_case user envc
EOF2

t "run as root: the command gets the clean environment, not root's; control: --env-inherit" <<'EOF2'
[ "$(id -u)" = 0 ] || skip "not root: run as root needs root"
setup
run_clean_case root envr
EOF2

t "run: --env-inherit with --env-clear is refused bad_env with the line without --env-inherit; nothing made" <<'EOF2'
setup
run_as env -i HOME="$THOME" PATH=/usr/bin:/bin "$NS" run --name "envx-$$" --size 8m --env-inherit --env-clear -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=bad_env: --env-inherit passes your whole environment and --env-clear only PATH, HOME, LANG and TERM: name one; run: nova-sandbox run --name envx-$$ --size 8m --env-clear -- /bin/true\$"
expect_no_err '^SANDBOX (OK|STEP)'
EOF2

t "a remedy's command line never prints an --env VALUE (home_outside, bad_cwd)" <<'EOF2'
setup
O=$(newdir)
run_as env -i HOME="$O" PATH=/usr/bin:/bin "$NS" --write "$W" --env "API_TOKEN=$SECRET" --env=X_KEY="$SECRET" --cwd "$O" -- /bin/true
expect_rc 125
expect_err "^SANDBOX REFUSED reason=home_outside: HOME $O is outside every --write"
expect_err "^SANDBOX REFUSED reason=bad_cwd: --cwd $O is not inside a --write, --read or --read-noexec\$"
expect_err "^SANDBOX NOTE one line fixes the 2 problems above that carry a fix; run: mkdir -p $W/home && HOME=$W/home nova-sandbox --read $O --write $W --env 'API_TOKEN=<VALUE>' '--env=X_KEY=<VALUE>' --cwd $O -- /bin/true\$"
expect_no_err "$SECRET"
EOF2

t "a name the caller's environment holds twice reaches the command once, the first (the one the tool checked); a NOTE names it; control: env(1) shows both copies" <<'EOF2'
setup
O=$(newdir)
run_as "$H/ns_execenv" PATH=/usr/bin:/bin HOME="$W/home" HOME="$O" DUPX=first DUPX=second -- /usr/bin/env
expect_rc 0
expect_out "^HOME=$O\$"
expect_out '^DUPX=second$'
run_as "$H/ns_execenv" PATH=/usr/bin:/bin HOME="$W/home" HOME="$O" DUPX=first DUPX=second -- \
	"$NS" --write "$W" -- /usr/bin/env
expect_rc 0
expect_out "^HOME=$W/home\$"
expect_out '^DUPX=first$'
expect_no_out "^HOME=$O\$"
expect_no_out '^DUPX=second$'
expect_err '^SANDBOX NOTE your environment holds these names more than once; only the first of each \(the one the tool checked\) is considered, the later copies are dropped: DUPX HOME$'
EOF2

t "entries that are no variable (no '=', an empty name) are dropped and named; a HOME without '=' before a real one leaves the real one, the one the tool checked" <<'EOF2'
setup
run_as "$H/ns_execenv" PATH=/usr/bin:/bin HOME HOME="$W/home" =emptyname NOEQ -- \
	"$NS" --write "$W" -- /usr/bin/env
expect_rc 0
expect_out "^HOME=$W/home\$"
expect_no_out '^HOME$'
expect_no_out '^NOEQ$'
expect_no_out 'emptyname'
expect_err '^SANDBOX NOTE your environment holds entries that are no variable \(no .=. or an empty name\), which getenv never reads: dropped: "" HOME NOEQ$'
EOF2
