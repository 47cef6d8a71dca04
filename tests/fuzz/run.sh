#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) in build-fuzz/ and
# runs each for SECONDS (default 60): fuzz_jcz and fuzz_flierlog side by
# side (each is one thread, so on two cores they take the time of one),
# then fuzz_http alone (its server has threads of its own). Each starts
# from its seeds in tests/fuzz/corpus/TARGET (read only) and what earlier
# runs found in build-fuzz/corpus/TARGET. Prints the executions per target. Fails when a
# target crashes, leaks, hits UB, hangs or breaks an invariant; the input
# is then in build-fuzz/crashes/ and the output in build-fuzz/logs/.
#
#   tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
case $secs in
    '' | *[!0-9]*) echo "usage: tests/fuzz/run.sh [SECONDS]" >&2; exit 2 ;;
esac
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DFLIERD_FUZZ=ON \
      -DFLIERD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j2 --target fuzz_jcz fuzz_flierlog fuzz_http \
      >/dev/null
mkdir -p build-fuzz/crashes build-fuzz/logs

# Runs one target; prints its executions; fails when it found something.
fuzz_one() {
    local t=$1 rc=0 log=build-fuzz/logs/$1.log marker=build-fuzz/logs/$1.start
    mkdir -p "build-fuzz/corpus/$t"
    touch "$marker"
    # -timeout: one input may take a minute (ASan, a whole game) before
    # it counts as a hang
    "./build-fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 \
        -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/crashes/$t-" \
        "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    local execs found
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    found=$(find build-fuzz/crashes -newer "$marker" -type f \
                 \( -name "$t-crash-*" -o -name "$t-leak-*" \
                    -o -name "$t-timeout-*" -o -name "$t-oom-*" \) )
    echo "fuzz_$t: ${execs:-?} executions in $secs s"
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        tail -n 40 "$log" >&2
        echo "fuzz_$t failed (exit $rc): ${found:-no artifact}; full" \
             "output in $log" >&2
        return 1
    fi
}

failed=0
fuzz_one jcz & jcz=$!
fuzz_one flierlog & flierlog=$!
wait "$jcz" || failed=1
wait "$flierlog" || failed=1
fuzz_one http || failed=1
exit "$failed"
