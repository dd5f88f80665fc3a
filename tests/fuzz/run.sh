#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz/run.sh B SECONDS FLAGS NAME... -- run each libFuzzer harness
# B/tests/fuzz/fuzz_<NAME> for SECONDS from its seeds (B/fuzz-seeds/<NAME>,
# made by `make fuzz` from tests/fuzz/corpus/<NAME>), growing a working
# corpus in B/fuzz-corpus/<NAME>; crash inputs land in
# B/fuzz-artifacts/<NAME>/, the whole log in B/fuzz-logs/<NAME>.log.
# FLAGS (one word list, may be empty) go to every harness.  One summary
# line per harness; exit 1 when any harness crashed, leaked or timed out.
set -u
b=$1 secs=$2 flags=$3
shift 3
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fail=0
for h in "$@"; do
	bin=$b/tests/fuzz/fuzz_$h work=$b/fuzz-corpus/$h art=$b/fuzz-artifacts/$h
	log=$b/fuzz-logs/$h.log
	mkdir -p "$work" "$art" "$b/fuzz-logs" "$b/fuzz-seeds/$h"
	rm -rf "$b/tests/fuzz/fuzz-$h-"*	# a crashed run's private dir
	# shellcheck disable=SC2086
	if "$bin" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$art/" $flags "$work" "$b/fuzz-seeds/$h" \
		>"$log" 2>&1; then
		st=ok
	else
		st=FAILED
		fail=1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	echo "FUZZ $h: $st runs=${runs:-?} exec/s=${rate:-?} cov=${cov:-?}" \
		"ft=${ft:-?} corpus=$(find "$work" -type f | wc -l)" \
		"seeds=$(find "$b/fuzz-seeds/$h" -type f | wc -l)"
	if [ "$st" != ok ]; then
		echo "---- $log (last 60 lines) ----"
		tail -n 60 "$log"
		echo "---- crash inputs:" "$art"/*
		echo "---- reproduce: $bin $art/<file>"
	fi
done
exit $fail
