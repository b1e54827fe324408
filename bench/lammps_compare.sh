#!/bin/sh
# grains and LAMMPS on the same settled dense box (../shared/bench holds the
# LAMMPS deck and converters; needs the Debian package lammps).
# Usage: bench/lammps_compare.sh N STEPS [SHARED_BENCH_DIR]   (after make)
set -eu
N=${1:-10000}
STEPS=${2:-1000}
S=${3:-../shared/bench}
G=${GRAINS:-build/grains}
D=$(mktemp -d /tmp/grains-lammps-XXXXXX)
trap 'rm -rf "$D"' EXIT
echo "grains (settles, then times 1 and 2 threads):"
"$G" bench --n "$N" --threads 1,2 --steps "$STEPS" --save "$D"
L=$(cat "$D/settled$N.box")
python3 "$S/csv2lmp.py" "$D/settled$N.csv" "$L" "$D/settled.data" > /dev/null
python3 "$S/lmp_params.py" "$D/settled$N.csv" "$L" "$D/params.in" > /dev/null
echo "LAMMPS, 1 process, same settled state:"
/usr/bin/time -f "peak RSS %M kB" lmp -nocite -log none -in "$S/lammps-dense-box.in" -var data "$D/settled.data" \
    -var params "$D/params.in" -var nsteps "$STEPS" -var twist sds 2>&1 | grep -E "Loop time|peak RSS"
