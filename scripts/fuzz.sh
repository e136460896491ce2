#!/usr/bin/env bash
# Runs fuzz targets built with libFuzzer (`make fuzz`): each for CASES executions (libFuzzer's
# -runs) or SECONDS, whichever ends first (0: no time limit), with a per-case time limit. New
# inputs that reach new code go to BUILD/corpus/<target>, never into the committed seed corpus;
# a crash, a hang or a sanitizer report is saved under tests/fuzz/crashes/<target>-... .
# Prints one line of figures per target; exits 1 when any target failed.
# usage: scripts/fuzz.sh BUILD CASES SECONDS TIMEOUT TARGET...
set -uo pipefail

build=$1 cases=$2 seconds=$3 timeout=$4
shift 4
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$src/tests/fuzz/crashes"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for t in "$@"; do
    work="$build/corpus/$t"
    log="$build/fuzz-$t.log"
    mkdir -p "$work"
    start=$(date +%s.%N)
    "$build/tests/fuzz/fuzz_$t" -runs="$cases" -max_total_time="$seconds" -timeout="$timeout" -max_len=8192 \
        -dict="$src/tests/fuzz/dict/$t.dict" -artifact_prefix="$src/tests/fuzz/crashes/$t-" -print_final_stats=1 \
        "$work" "$src/tests/fuzz/corpus/$t" >"$log" 2>&1
    status=$?
    end=$(date +%s.%N)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    crashes=$(grep -c -E '^==[0-9]+==ERROR|deadly signal|uncaught exception' "$log")
    hangs=$(grep -c 'ALARM: working on the last Unit' "$log")
    sanitizer=$(grep -c -E 'ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:' "$log")
    line=$(printf '%-20s %10s cases  %s crashes  %s hangs  %s sanitizer reports  %6.1f s  exit %s' \
        "$t" "${runs:-?}" "$crashes" "$hangs" "$sanitizer" "$(awk "BEGIN { print $end - $start }")" "$status")
    echo "$line"
    summary+=("$line")
    if [ "$status" -ne 0 ]; then
        failed+=("$t")
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error|uncaught|ALARM' "$log" | head -5 | sed 's/^/    /'
        echo "    full log: $log"
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: failed: ${failed[*]} (inputs under tests/fuzz/crashes/; replay: $build/tests/fuzz/fuzz_<target> FILE)" >&2
    exit 1
fi
