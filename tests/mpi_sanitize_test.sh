#!/bin/sh
# The ranks' code under AddressSanitizer and UndefinedBehaviorSanitizer
# (make test-sanitize): every rank logs to its own file (a rank other than
# 0 writes to /dev/null), and no file may appear. Runs: spawning on 2 ranks
# (the particles within the region's reach in every rank's halo); a settled
# hopper on 2 ranks whose ranks hold their own grains and their partners
# alone, whose steps send the halo alone and whose ranks list their reach
# alone, planes kept to an imbalance of 1.05; its checkpoint resumed on 3
# ranks; bonds that break, on 3 ranks.
# Usage: mpi_sanitize_test.sh GRAINS_BINARY SOURCE_DIR
# More ranks x threads than cores: OpenMP threads that spin at their barriers
# take the cores of the ranks they wait for (3 ranks x 2 threads on 2 cores:
# 218 s instead of 8.9 s for the halo case); passive waiting changes no result.
export OMP_WAIT_POLICY=passive
set -u
G="$1"
SRC="$2"
T=$(mktemp -d /tmp/grains-mpi-asan-XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$SRC" || exit 1
export ASAN_OPTIONS="detect_leaks=0:log_path=$T/log/asan" UBSAN_OPTIONS="print_stacktrace=1:log_path=$T/log/ubsan"
mkdir "$T/log"
fail=0
run() { "$@" --quiet >/dev/null 2>"$T/err" || { echo "FAIL: $*: $(cat "$T/err")"; fail=1; }; }
# ranks that disagree on a collective wait forever: a run that long has failed
mpi() { np=$1; shift; run timeout 300 mpirun --oversubscribe -np "$np" "$@"; }

run "$G" run --set N_frames=2 --set N_steps=200 --csv -o "$T/start"
mpi 2 "$G" run --set N_frames=1 --set N_steps=200 -o "$T/spawn"
mpi 2 "$G" run --particles "$T/start/particles000002.csv" --set N_max=0 --set N_frames=2 --set N_steps=100 \
    --set rebalance=1.05 -o "$T/halo"
mpi 3 "$G" run --resume "$T/halo" --set N_frames=3
mpi 3 "$G" run --particles "$T/start/particles000002.csv" --set N_max=0 --set N_frames=1 --set N_steps=100 \
    --set bond_kn=2000 --set bond_tolerance=0.05 --set bond_max_force=2 -o "$T/bonds"
[ -f "$T/halo/particles000003.vtp" ] && [ -f "$T/spawn/particles000001.vtp" ] && [ -f "$T/bonds/particles000001.vtp" ] ||
    { echo "FAIL: the runs did not reach their last frames: $(ls "$T/halo" "$T/spawn" "$T/bonds")"; fail=1; }
if [ -n "$(ls "$T/log")" ]; then
    echo "FAIL: the sanitizers reported:"
    cat "$T"/log/*
    fail=1
fi
echo "mpi_sanitize_test: $([ "$fail" -eq 0 ] && echo passed || echo failed)"
[ "$fail" -eq 0 ]
