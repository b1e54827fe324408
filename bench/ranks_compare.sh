#!/bin/sh
# Ranks against threads on one settled dense box (grains bench --save):
# grains without MPI on 1 and 2 threads, the MPI build alone, under
# mpirun -np 1 and -np 2 (1 thread per rank), and LAMMPS on 1 and 2 ranks
# (../shared/bench/lammps-dense-box.in, Debian packages lammps and
# openmpi-bin). ROUNDS interleaved rounds; each line is the steps' own
# time (grains' end summary less its frames' writing, LAMMPS's Loop
# time), loading excluded.
# Usage: bench/ranks_compare.sh N STEPS ROUNDS NOMPI_GRAINS [SHARED_BENCH_DIR]
#   (after make; NOMPI_GRAINS from cmake -DGRAINS_MPI=OFF)
# TILES="NX NY NZ" times the settled box of N tiled so into one cuboid
# (bench/tile_box.py; LAMMPS's deck takes a cube: it runs when NX = NY = NZ).
set -eu
N=${1:-100000}
STEPS=${2:-200}
ROUNDS=${3:-3}
NOMPI=${4:?a grains built with -DGRAINS_MPI=OFF}
S=${5:-../shared/bench}
G=$(realpath "${GRAINS:-build/grains}")
NOMPI=$(realpath "$NOMPI")
S=$(realpath "$S")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
D=$(mktemp -d /tmp/grains-ranks-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$G" bench --n "$N" --threads 1 --repeat 1 --steps 1 --save "$D" > /dev/null
L=$(cat "$D/settled$N.box")
BOX="$D/settled$N"
python3 "$S/gen_box_off.py" "$L" > "$BOX.off"
LAMMPS=1
if [ -n "${TILES:-}" ]; then
    set -- $TILES
    python3 "$(dirname "$0")/tile_box.py" "$BOX.csv" "$L" "$1" "$2" "$3" "$D/tiled"
    BOX="$D/tiled"
    [ "$1" = "$2" ] && [ "$2" = "$3" ] && L=$(python3 -c "print($L * $1)") || LAMMPS=0
fi
cat > "$D/box.cfg" <<CFG
R_min = 0.0045; R_max = 0.0055; R_mesh = [0.0]; N_max = 0; N_spawn = 0; eta = 0.0;
particles = "$BOX.csv"; mesh = "$BOX.off";
N_frames = 1; N_steps = $STEPS; output_dir = "out"; checkpoint_every = 0;
CFG
python3 "$S/csv2lmp.py" "$BOX.csv" "$L" "$D/settled.data" > /dev/null
python3 "$S/lmp_params.py" "$BOX.csv" "$L" "$D/params.in" > /dev/null

# grains LABEL COMMAND...: the steps' seconds from the end summary
grains() {
    label=$1; shift
    rm -rf "$D/out"
    (cd "$D" && "$@" > log 2>&1)
    printf '%-28s %s %s\n' "$label" "$(sed -n 's/^done: [0-9]* steps in \([^ ]*\) s.*; \([^ ]*\) s of it writing.*/\1 \2/p' "$D/log" |
        awk '{ printf "%.3g", $1 - $2 }')" \
        "$(sed -n 's/^ranks: .*sent \([^ ]*\) bytes per step and received \([^ ]*\) .*halo alone on \([0-9]* of [0-9]*\) steps: \([^ ]*\) of.*/(sent \1, received \2 bytes per step, halo \4)/p' "$D/log")"
}
lammps() {
    label=$1; shift
    (cd "$D" && "$@" lmp -nocite -log none -in "$S/lammps-dense-box.in" -var data "$D/settled.data" \
        -var params "$D/params.in" -var nsteps "$STEPS" -var twist sds > log 2>&1)
    printf '%-28s %s\n' "$label" "$(sed -n 's/^Loop time of \([^ ]*\) on.*/\1/p' "$D/log")"
}
echo "N = $N, $STEPS steps; seconds for the steps"
for round in $(seq "$ROUNDS"); do
    echo "round $round"
    grains "grains, no MPI, 1 thread" "$NOMPI" run box.cfg --threads 1
    grains "grains, no MPI, 2 threads" "$NOMPI" run box.cfg --threads 2
    grains "grains MPI build, alone" "$G" run box.cfg --threads 1
    grains "grains, 1 rank" mpirun -np 1 "$G" run box.cfg --threads 1
    grains "grains, 2 ranks x 1 thread" mpirun --oversubscribe -np 2 "$G" run box.cfg --threads 1
    [ "$LAMMPS" = 1 ] || continue
    lammps "LAMMPS, 1 rank"
    lammps "LAMMPS, 2 ranks" mpirun --oversubscribe -np 2
done
