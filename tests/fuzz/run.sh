#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) in build-fuzz/ and
# runs each for SECONDS (default 60), one after another: fuzz_jcz,
# fuzz_flierlog, fuzz_http. Each starts from its seeds in
# tests/fuzz/corpus/TARGET (read only) and what earlier runs found in
# build-fuzz/corpus/TARGET. Prints the executions per target. Fails when a
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
failed=0
for t in jcz flierlog http; do
    mkdir -p "build-fuzz/corpus/$t"
    log=build-fuzz/logs/$t.log
    marker=build-fuzz/logs/$t.start
    touch "$marker"
    rc=0
    # -timeout: one input may take a minute (ASan, a whole game) before
    # it counts as a hang
    "./build-fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 \
        -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/crashes/$t-" \
        "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    found=$(find build-fuzz/crashes -newer "$marker" -type f \
                 \( -name "$t-crash-*" -o -name "$t-leak-*" \
                    -o -name "$t-timeout-*" -o -name "$t-oom-*" \) )
    echo "fuzz_$t: ${execs:-?} executions in $secs s"
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        tail -n 40 "$log" >&2
        echo "fuzz_$t failed (exit $rc): ${found:-no artifact}; full" \
             "output in $log" >&2
        failed=1
    fi
done
exit "$failed"
