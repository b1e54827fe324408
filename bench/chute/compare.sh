#!/usr/bin/env bash
# The chute benchmark: one flowing state (a LAMMPS data file that chute.in wrote) timed by grains
# (chute.cfg, THREADS threads) and by LAMMPS (chute.in, THREADS ranks), interleaved for ROUNDS
# rounds. Each program's time per step is its own count of its steps' time (grains' closing
# line less the writing in it; LAMMPS's loop time). Prints seconds per step, flowing particle-steps
# per second (the frozen base not counted) and the ratio, per round. The base is grains that stay
# put, as LAMMPS's frozen ones (BASE=grains, the default), or mesh points (BASE=mesh).
# Usage: [BASE=grains|mesh] compare.sh GRAINS_BIN FLOW.data STEPS ROUNDS [THREADS] [--set K=V ...]
set -eu
g=$(readlink -f "$1") data=$(readlink -f "$2") S=$3 R=$4 T=${5:-1}
shift 4; [ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
base=${BASE:-grains}
python3 "$here/lmp2grains.py" "$data" "$d/flow" --base "$base" >/dev/null
L=$(cat "$d/flow.box")
N=$(awk -F, 'NR > 1 && $15 == 0' "$d/flow.csv" | wc -l)
{ cat "$here/chute.cfg"
  [ "$base" = grains ] ||
    printf 'cell:\n{\n  meshes = ( { file = "%s"; R_mesh = [0.001]; material = 0; periodic = true; } );\n};\n' "$d/flow.off"
} > "$d/chute.cfg"
# grains' own time for its steps (its closing line, less the writing in it).
grains_steps_time() {
    OMP_NUM_THREADS=$T "$g" run "$d/chute.cfg" --particles "$d/flow.csv" --threads "$T" -o "$d/g" \
        --set "box_max=$L,$L,0.2" --set vtk=false --set N_frames=1 --set N_steps="$S" "$@" >"$d/out" 2>"$d/err" \
        || { cat "$d/err" >&2; exit 1; }
    sed -n 's/^done: [0-9]* steps in \([0-9.e+-]*\) s .*; \([0-9.e+-]*\) s of it writing.*/\1 \2/p' "$d/out" |
        awk '{ print $1 - $2 }'
}
mpi=""
[ "$T" = 1 ] || mpi="mpirun --allow-run-as-root --oversubscribe -np $T"
for r in $(seq "$R"); do
    gt=$(grains_steps_time "$@")
    (cd "$d" && OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $mpi lmp -nocite \
        -in "$here/chute.in" -var data "$data" -var nsteps "$S" -var thermo "$S" -log lmp.log >/dev/null 2>&1)
    lt=$(awk '/^Loop time of/{print $4}' "$d/lmp.log" | tail -n1)
    awk -v N="$N" -v gt="$gt" -v l="$lt" -v S="$S" -v r="$r" -v T="$T" 'BEGIN {
        g = gt / S
        printf "round %d: %d flowing grains, %d threads/ranks: grains %.3e s/step (%.2e p-s/s), LAMMPS %.3e (%.2e), grains/LAMMPS %.2fx\n",
            r, N, T, g, N / g, l / S, N * S / l, (l / S) / g }'
done
