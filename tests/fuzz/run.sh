#!/bin/sh
# Fuzzes every reader, and the post-processors' options where they reach the library (grid) and
# the drawing (camera) (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer)
# for SECONDS each (default 40), as many at a time as there are cores, from
# the corpus in tests/fuzz/corpus; prints
# each harness's executions and coverage, and fails on any crash, leak, hang
# (> 10 s for one input) or input needing more than 2 GB. New inputs that
# widen coverage are left in BUILD/corpus-READER (copy the useful ones into
# tests/fuzz/corpus to keep them in the replayed suite).
# Usage: tests/fuzz/run.sh [SECONDS]   (BUILD=build-fuzz by default)
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$SRC/build-fuzz}
EACH=${1:-40}
READERS="mesh csv bonds scenario set checkpoint vtk surface record fields table grid camera"
cmake -S "$SRC" -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DGRAINS_FUZZ=ON -DGRAINS_OPENMP=OFF \
    >/dev/null
targets="checkpoint_seed"
for r in $READERS; do targets="$targets fuzz_$r"; done
# shellcheck disable=SC2086
cmake --build "$B" -j "$(nproc 2>/dev/null || echo 2)" --target $targets >/dev/null 2>&1
export LSAN_OPTIONS="suppressions=$SRC/tests/fuzz/lsan.supp"
# One reader's fuzzing; its verdict in $B/fuzz-READER.status.
fuzz_one() {
    r=$1
    work="$B/corpus-$r"
    mkdir -p "$work"
    [ "$r" = checkpoint ] && "$B/tests/checkpoint_seed" "$work"
    if "$B/tests/fuzz_$r" -max_total_time="$EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/crash-$r-" "$work" "$SRC/tests/fuzz/corpus/$r" >"$B/fuzz-$r.log" 2>&1; then
        echo ok >"$B/fuzz-$r.status"
    else
        echo failed >"$B/fuzz-$r.status"
    fi
}
# As many readers at a time as there are cores (each fuzzer is one
# process), each for its SECONDS.
jobs=$(nproc 2>/dev/null || echo 2)
running=0
for r in $READERS; do
    fuzz_one "$r" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
failed=0
for r in $READERS; do
    if [ "$(cat "$B/fuzz-$r.status")" = ok ]; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$B/fuzz-$r.log" | grep -o '[0-9]*$')
        cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$B/fuzz-$r.log" | tail -1)
        echo "fuzz $r: $runs executions in $EACH s, $cov, corpus $(ls "$B/corpus-$r" | wc -l) inputs"
    else
        failed=1
        echo "fuzz $r: FAILED (the input is in $B/crash-$r-*):"
        grep -E 'ERROR|SUMMARY|runtime error' "$B/fuzz-$r.log" | head -5
    fi
done
exit $failed
