#!/usr/bin/env bash
# Runs fuzz targets built with libFuzzer (`make fuzz`): each for CASES executions (libFuzzer's
# -runs) or SECONDS, whichever ends first (0: no time limit), with a per-case time limit. New
# inputs that reach new code go to BUILD/corpus/<target>, never into the committed seed corpus;
# a crash, a hang or a sanitizer report is saved under tests/fuzz/crashes/<target>-... .
# libFuzzer stops a target at its first failing input; with KEEP_GOING=1 it fuzzes in a child
# process (-fork=1) that is restarted after each failure, so a known crash does not hide others.
# Prints one line of figures per target; exits 1 when any target failed.
# usage: [KEEP_GOING=1] scripts/fuzz.sh BUILD CASES SECONDS TIMEOUT TARGET...
set -uo pipefail

build=$1 cases=$2 seconds=$3 timeout=$4
shift 4
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$src/tests/fuzz/crashes"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

keep_going=()
if [ "${KEEP_GOING:-0}" = 1 ]; then
    keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
# Failing inputs of a target saved so far, of one kind (crash and leak, or timeout, oom and slow).
artifacts() { ls "$src/tests/fuzz/crashes" | grep -c -E "^$1-($2)-"; }

failed=()
for t in "$@"; do
    work="$build/corpus/$t"
    log="$build/fuzz-$t.log"
    mkdir -p "$work"
    crashes_before=$(artifacts "$t" 'crash|leak')
    hangs_before=$(artifacts "$t" 'timeout|oom|slow-unit')
    start=$(date +%s.%N)
    "$build/tests/fuzz/fuzz_$t" "${keep_going[@]}" -runs="$cases" -max_total_time="$seconds" -timeout="$timeout" -max_len=8192 \
        -dict="$src/tests/fuzz/dict/$t.dict" -artifact_prefix="$src/tests/fuzz/crashes/$t-" -print_final_stats=1 \
        "$work" "$src/tests/fuzz/corpus/$t" >"$log" 2>&1
    status=$?
    end=$(date +%s.%N)
    runs=$( (sed -n 's/^stat::number_of_executed_units: *//p; s/^INFO: fuzzed for \([0-9]*\) iterations.*/\1/p' "$log") | tail -1)
    crashes=$(($(artifacts "$t" 'crash|leak') - crashes_before))
    hangs=$(($(artifacts "$t" 'timeout|oom|slow-unit') - hangs_before))
    sanitizer=$(grep -c -E 'ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:' "$log")
    line=$(printf '%-20s %10s cases  %s crashes  %s hangs  %s sanitizer reports  %6.1f s  exit %s' \
        "$t" "${runs:-?}" "$crashes" "$hangs" "$sanitizer" "$(awk "BEGIN { print $end - $start }")" "$status")
    echo "$line"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ] || [ "$hangs" -ne 0 ]; then
        failed+=("$t")
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error|uncaught|ALARM' "$log" | head -5 | sed 's/^/    /'
        echo "    full log: $log"
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: failed: ${failed[*]} (inputs under tests/fuzz/crashes/; replay: $build/tests/fuzz/fuzz_<target> FILE)" >&2
    exit 1
fi
