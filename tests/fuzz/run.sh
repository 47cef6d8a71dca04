#!/usr/bin/env bash
# Builds the libFuzzer target with clang (ASan+UBSan) and runs it for
# SECONDS (default 60), seeded with the samples. Crashes land in
# build-fuzz/crashes/.  Usage: tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DFLIERD_FUZZ=ON \
      -DFLIERD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j2 --target fuzz_log >/dev/null
mkdir -p build-fuzz/corpus build-fuzz/crashes
cp samples/*.jcz samples/*.flierlog samples/rules/*.flierlog \
   samples/forged/*.jcz build-fuzz/corpus/
./build-fuzz/fuzz_log -max_total_time="$secs" -max_len=200000 \
    -rss_limit_mb=4096 -artifact_prefix=build-fuzz/crashes/ \
    build-fuzz/corpus
